'use strict';
/**
 * "Last month's invoices" (issue 36, point 3): Invoice > Get Many takes a period under Filters
 * (Period, Created From, Created Until). The service's list takes no dates, so the node filters
 * by each invoice's `created` time in the workflow's time zone; Limit counts the invoices of the
 * period and the node reads pages until it has them, Return All every page. And a Billing Report
 * placed after a list (Get Many Invoices -> Billing Report) makes one report, not one per invoice,
 * and says so above its output.
 */
const { startVendor } = require('../../support/vendor');

const DAY = 86400000;
const NODE = 'vendorAccountBilling';
const UTC = { settings: { timezone: 'UTC' } };

let v;
let core;
let demo;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	core = v.emu.management.core;
	demo = core.accountByName('demo');
	// 150 more invoices, one every 14 hours back from now: more than a page (100), several months
	const base = core.state.account.invoices[0];
	for (let n = 1; n <= 150; n++) {
		core.state.account.invoices.push({ ...base, id: core.nextId('invoice'), uid: demo.uid, price: (n % 40) + 1, title: `Period test ${n}`, createdAt: core.now() - n * 14 * 3600000 });
	}
});
afterAll(() => v.close());

const hintsOf = (result) => (result.runData.Node[0].hints ?? []).map((h) => h.message);

/** The invoices of the emulator whose creation falls in [from, to), newest first (the service's order), as ids. */
function invoicesBetween(from, to) {
	return core.state.account.invoices
		.filter((i) => i.uid === demo.uid && i.createdAt >= from && i.createdAt < to)
		.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
		.map((i) => String(i.id));
}

/** The first instant of the month `back` months before this one, in UTC (the emulator's clock). */
function monthStart(back) {
	const now = new Date(core.now());
	return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1);
}

describe('Invoice > Get Many: a period under Filters', () => {
	test("Last Month with Return All: every invoice created last month in the workflow's time zone, none other", async () => {
		const items = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: true, filters: { period: 'lastMonth' } }, UTC);
		const want = invoicesBetween(monthStart(1), monthStart(0));
		expect(want.length).toBeGreaterThan(20);
		expect(items.map((i) => i.id)).toEqual(want);
		for (const i of items) expect(i.created.slice(0, 7)).toBe(new Date(monthStart(1)).toISOString().slice(0, 7));
	});

	test('Limit counts the invoices of the period: the first ones in the service\'s order, read across pages', async () => {
		const want = invoicesBetween(monthStart(1), monthStart(0));
		const before = (await v.control('GET', '/stats')).management.requests['profile/invoiceList'] ?? 0;
		const items = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: false, limit: 7, filters: { period: 'lastMonth' } }, UTC);
		expect(items.map((i) => i.id)).toEqual(want.slice(0, 7));
		// more invoices than the period holds: all of them (the list read to its end)
		const all = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: false, limit: 500, filters: { period: 'lastMonth' } }, UTC);
		expect(all.map((i) => i.id)).toEqual(want);
		expect(((await v.control('GET', '/stats')).management.requests['profile/invoiceList'] ?? 0) - before).toBeGreaterThanOrEqual(3);
	});

	test('Created From and Created Until: whole days, both included, with or without a Period', async () => {
		const from = new Date(core.now() - 20 * DAY).toISOString().slice(0, 10);
		const until = new Date(core.now() - 10 * DAY).toISOString().slice(0, 10);
		const items = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: true, filters: { createdFrom: from, createdUntil: until } }, UTC);
		expect(items.map((i) => i.id)).toEqual(invoicesBetween(Date.parse(`${from}T00:00:00Z`), Date.parse(`${until}T00:00:00Z`) + DAY));
		const both = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: true, filters: { period: 'last7Days', createdUntil: until } }, UTC);
		expect(both).toEqual([]);
		const error = await v.fails(NODE, { resource: 'invoice', operation: 'getAll', returnAll: true, filters: { createdFrom: until, createdUntil: from } }, UTC);
		expect(error.message).toBe('"Created From" is after "Created Until"');
	});

	test('without a period every invoice comes, as before', async () => {
		const items = await v.ok(NODE, { resource: 'invoice', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(core.state.account.invoices.filter((i) => i.uid === demo.uid).length);
	});
});

describe('Billing Report after a list', () => {
	test('invoices in, one report out: the report is made once, paired with every item, and the run says so', async () => {
		const input = [{ id: '1' }, { id: '2' }, { id: '3' }];
		const before = (await v.control('GET', '/stats')).management.requests['profile/balance'] ?? 0;
		const { items, error, result } = await v.run(NODE, { resource: 'report', operation: 'get', period: 'lastMonth', additionalFields: {} }, { input });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ period: 'Last Month' });
		expect(((await v.control('GET', '/stats')).management.requests['profile/balance'] ?? 0) - before).toBe(1);
		expect(hintsOf(result)).toContain(
			'The 3 incoming items all asked for the same report, so it was made once: one item, paired with all 3. Items that ask for different reports (a field set by an expression) get one each.',
		);
	});

	test('items that ask for different reports get one each', async () => {
		const input = [{ c: 'EUR' }, { c: 'CNY' }, { c: 'EUR' }];
		const { items, error } = await v.run(NODE, { resource: 'report', operation: 'get', period: 'lastMonth', additionalFields: { currency: '={{ $json.c }}' } }, { input });
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.currency, i.pairedItem])).toEqual([
			['EUR', [{ item: 0 }, { item: 2 }]],
			['CNY', { item: 1 }],
		]);
	});
});

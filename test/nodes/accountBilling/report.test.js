'use strict';
/**
 * Account & Billing > Billing Report > Get (issue 11, section 2), run through n8n-core against
 * the emulator's demo data plus payments of every kind: one item whose figures are computed
 * here from the emulator's own state (balance, consumption by service, refunds, invoices), the
 * period chosen in the node and measured in the workflow's time zone, a ready sentence and an
 * HTML table; reads only.
 */
const { startVendor } = require('../../support/vendor');

const DAY = 86400000;
const HOUR = 3600000;
const NODE = 'vendorAccountBilling';
const SERVICES = { 1: 'Cloud Host', 2: 'Cloud Disk', 3: 'Cloud Host Backup', 5: 'Content Delivery', 6: 'CDN Traffic Package', 7: 'Cloud DNS', 8: 'Other', 9: 'Physical Cloud Host' };

let v;
let core;
let demo;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	core = v.emu.management.core;
	demo = core.accountByName('demo');
	// payments of every kind besides the demo's: services, a code the documents do not list (4),
	// a refund, an invoice amount (type 3, neither spending nor refund), one outside 30 days
	const add = (days, type, paytype, price, name) =>
		core.state.payments.push({
			id: core.nextId('payment'),
			uid: demo.uid,
			name,
			code: `T${core.nextId('paycode')}`,
			type,
			paytype,
			bid: 0,
			price: price.toFixed(2),
			status: 1,
			createdAt: core.now() - days * DAY - HOUR,
		});
	add(1, 1, 1, 12.34, 'Cloud host web-2 (hourly)');
	add(2, 1, 3, 5, 'Backup of web-1');
	add(3, 1, 9, 100, 'Physical host rack-1');
	add(3, 1, 1, 0.66, 'Cloud host web-2 (hourly)');
	add(4, 1, 4, 3.3, 'A service without a documented name');
	add(5, 2, 1, 2, 'Refund web-2');
	add(6, 3, 8, 7, 'Invoice amount');
	add(31, 1, 1, 50, 'Cloud host web-1 (old)');
});
afterAll(() => v.close());

const requests = async () => (await v.control('GET', '/stats')).management.requests;
const cents = (n) => Math.round(n * 100) / 100;
const money = (n) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The report's figures for [from, to], from the emulator's state (display times drop the milliseconds). */
async function expected(from, to, toIncluded) {
	const inPeriod = (ms) => {
		const t = Math.floor(ms / 1000) * 1000;
		return t >= from && (toIncluded ? t <= to : t < to);
	};
	const mine = core.state.payments.filter((p) => p.uid === demo.uid && inPeriod(p.createdAt));
	const spending = mine.filter((p) => Number(p.type) === 1);
	const refunds = mine.filter((p) => Number(p.type) === 2);
	const byService = {};
	for (const p of spending) {
		const service = SERVICES[p.paytype] ?? 'Unknown Service';
		byService[service] = cents((byService[service] ?? 0) + Number(p.price));
	}
	const invoices = core.state.account.invoices.filter((i) => i.uid === demo.uid);
	const sum = (rows) => cents(rows.reduce((t, r) => t + Number(r.price), 0));
	return {
		balance: Number(core.balanceOf(demo.uid).price),
		spent: sum(spending),
		payments: spending.length,
		spentByService: byService,
		refunded: sum(refunds),
		refunds: refunds.length,
		netSpent: cents(sum(spending) - sum(refunds)),
		newInvoices: invoices.filter((i) => inPeriod(i.createdAt)).length,
		newInvoiceAmount: sum(invoices.filter((i) => inPeriod(i.createdAt))),
		invoicesWithoutTracking: invoices.filter((i) => !i.expresscode).length,
		invoicesWithoutTrackingAmount: sum(invoices.filter((i) => !i.expresscode)),
		invoices: invoices.length,
		invoiceAmount: sum(invoices),
		invoiceableAmount: Number((await v.api('profile/invoiceBalance')).data.invoiceprice),
	};
}

test('Last 30 Days: the exact figures of the emulator, one item, reads only', async () => {
	const before = await requests();
	const t0 = Date.now();
	const items = await v.ok(NODE, { resource: 'report', operation: 'get', period: 'last30Days' }, { settings: { timezone: 'UTC' } });
	const t1 = Date.now();
	const after = await requests();
	expect(items).toHaveLength(1);
	const [report] = items;

	const from = Date.parse(report.from);
	const to = Date.parse(report.to);
	expect(to - from).toBe(30 * DAY);
	expect(to).toBeGreaterThanOrEqual(Math.floor(t0 / 1000) * 1000);
	expect(to).toBeLessThanOrEqual(t1);
	expect(report).toMatchObject({ period: 'Last 30 Days', timeZone: 'UTC', ...(await expected(from, to, true)) });
	expect(report.from).toMatch(/\+00:00$/);

	// every kind of spending is there: the demo's, the services added here, the unnamed code
	expect(report.spentByService).toEqual({
		'Physical Cloud Host': 100,
		'CDN Traffic Package': 20,
		'Cloud Host': 13,
		'Cloud DNS': 9.9,
		'Cloud Host Backup': 5,
		'Unknown Service': 3.3,
	});
	expect(Object.keys(report.spentByService)[0]).toBe('Physical Cloud Host'); // largest first
	// one name per thing: Payment > Get Many names each service as the report does
	const payments = await v.ok(NODE, { resource: 'payment', operation: 'getAll', returnAll: true, filters: { type: 1 } }, { settings: { timezone: 'UTC' } });
	const named = new Set(payments.map((p) => p.service));
	expect(Object.keys(report.spentByService).filter((s) => s !== 'Unknown Service' && !named.has(s))).toEqual([]);
	expect(report.spent).toBe(151.2);
	expect(report.refunded).toBe(12);
	expect(report.refunds).toBe(2);

	// numbers are numbers
	for (const k of ['balance', 'spent', 'refunded', 'netSpent', 'newInvoiceAmount', 'invoicesWithoutTrackingAmount', 'invoiceAmount', 'invoiceableAmount']) expect(typeof report[k]).toBe('number');

	// a ready sentence and a table
	expect(report.text).toBe(
		`Balance: ${money(report.balance)}. Last 30 Days (${new Date(from).getUTCDate()} ${new Date(from).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${new Date(from).getUTCFullYear()} to ` +
			`${new Date(to).getUTCDate()} ${new Date(to).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${new Date(to).getUTCFullYear()}): ` +
			'spent 151.20 in 7 payments (Physical Cloud Host 100.00, CDN Traffic Package 20.00, Cloud Host 13.00, Cloud DNS 9.90, Cloud Host Backup 5.00, Unknown Service 3.30); ' +
			'refunds 12.00 (2 refunds). ' +
			`Invoices: 2 new invoices (125.00); 1 invoice without a tracking number (25.00); ${money(report.invoiceableAmount)} can still be invoiced. ` +
			"Amounts are in the account's currency, which the service does not name. Set Currency to show it.",
	);
	// no currency entered: the report says none is given, as a field and in the sentence
	expect(report).toMatchObject({ currency: null, currencyNote: expect.stringMatching(/^Amounts are in the account's currency, which the service does not name/) });
	expect(report.html).toMatch(/^<table[^>]*>.*<\/table>$/);
	expect(report.html).toContain('>Physical Cloud Host</td><td style="padding:4px 12px;border-bottom:1px solid #ddd;text-align:right">100.00</td>');
	expect(report.html).toContain('>Refunds (2 refunds)</td>');
	expect(report.html).toContain('>Invoices without a tracking number (1)</td>');

	// reads only: the balance, consumption as a whole and per service, refunds, invoices, invoiceable amount
	const sent = Object.fromEntries(Object.entries(after).map(([p, n]) => [p, n - (before[p] ?? 0)]).filter(([, n]) => n > 0));
	// the log-in and the read that stores the token (transport.ts) are the credential's, not the report's
	delete sent['OAuth/authorize'];
	delete sent['profile/detail'];
	expect(sent).toEqual({ 'profile/balance': 1, 'profile/payList': 10, 'profile/invoiceList': 1, 'profile/invoiceBalance': 1 });
});

test('Last 7 Days and a currency', async () => {
	const [report] = await v.ok(NODE, { resource: 'report', operation: 'get', period: 'last7Days', additionalFields: { currency: 'CNY' } }, { settings: { timezone: 'UTC' } });
	const from = Date.parse(report.from);
	const to = Date.parse(report.to);
	expect(to - from).toBe(7 * DAY);
	expect(report).toMatchObject({ currency: 'CNY', ...(await expected(from, to, true)) });
	expect(report.spentByService).toEqual({ 'Physical Cloud Host': 100, 'Cloud Host': 13, 'Cloud Host Backup': 5, 'Unknown Service': 3.3 });
	expect(report.text).toMatch(/^Balance: CNY [\d,]+\.\d\d\. Last 7 Days \(.*\): spent CNY 121\.30 in 5 payments \(Physical Cloud Host CNY 100\.00, /);
});

/** y-m-d of an instant in a fixed-offset zone. */
function ymd(ms, offsetHours) {
	const d = new Date(ms + offsetHours * HOUR);
	return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}
const pad = (n) => String(n).padStart(2, '0');

test('Last Month and This Month are calendar months of the workflow\'s time zone (UTC+8)', async () => {
	const settings = { settings: { timezone: 'Asia/Shanghai' } };
	const [last] = await v.ok(NODE, { resource: 'report', operation: 'get', period: 'lastMonth' }, settings);
	const now = ymd(Date.now(), 8);
	const prev = now.m === 1 ? { y: now.y - 1, m: 12 } : { y: now.y, m: now.m - 1 };
	const lastDay = new Date(Date.UTC(now.y, now.m - 1, 0)).getUTCDate();
	expect(last.from).toBe(`${prev.y}-${pad(prev.m)}-01T00:00:00+08:00`);
	expect(last.to).toBe(`${prev.y}-${pad(prev.m)}-${pad(lastDay)}T23:59:59+08:00`);
	const from = Date.UTC(prev.y, prev.m - 1, 1) - 8 * HOUR;
	const to = Date.UTC(now.y, now.m - 1, 1) - 8 * HOUR;
	// the service writes UTC display times; read as Beijing times they are 8 hours earlier instants
	const shifted = await expected(from + 8 * HOUR, to + 8 * HOUR, false);
	expect(last).toMatchObject({ period: 'Last Month', timeZone: 'Asia/Shanghai', spent: shifted.spent, refunded: shifted.refunded, newInvoices: shifted.newInvoices });

	const [month] = await v.ok(NODE, { resource: 'report', operation: 'get', period: 'thisMonth' }, settings);
	expect(month.from).toBe(`${now.y}-${pad(now.m)}-01T00:00:00+08:00`);
	expect(month.period).toBe('This Month');
});

test('Custom: whole days From to To; From after To is refused before anything is read', async () => {
	const a = ymd(Date.now() - 4 * DAY, 0);
	const b = ymd(Date.now() - 2 * DAY, 0);
	const day = (x) => `${x.y}-${pad(x.m)}-${pad(x.d)}`;
	const [report] = await v.ok(NODE, { resource: 'report', operation: 'get', period: 'custom', from: `${day(a)}T00:00:00`, to: `${day(b)}T00:00:00` }, { settings: { timezone: 'UTC' } });
	expect(report.from).toBe(`${day(a)}T00:00:00+00:00`);
	expect(report.to).toBe(`${day(b)}T23:59:59+00:00`);
	const exp = await expected(Date.UTC(a.y, a.m - 1, a.d), Date.UTC(b.y, b.m - 1, b.d + 1), false);
	expect(report).toMatchObject({ period: 'Custom', ...exp });
	expect(report.spentByService).toEqual(exp.spentByService);
	expect(report.payments).toBeGreaterThan(0);

	const before = await requests();
	const error = await v.fails(NODE, { resource: 'report', operation: 'get', period: 'custom', from: `${day(b)}T00:00:00`, to: `${day(a)}T00:00:00` });
	expect(error.message).toBe('"From" is after "To"');
	expect((await requests())['profile/payList']).toBe(before['profile/payList']);
});

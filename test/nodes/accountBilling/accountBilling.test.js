'use strict';
/** Vendor Account & Billing: every operation through n8n-core against the emulator. */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());

const run = (parameters, opts) => v.ok(NODE, parameters, opts);
/** The execution hints of the run's node (shown above its output in the editor). */
const hintsOf = (result) => (result.runData.Node[0].hints ?? []).map((h) => h.message);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const mgmt = () => v.emu.management.state;

describe('account', () => {
	test('log in reports the token lifetime but never the token', async () => {
		const [item] = await run({ resource: 'account', operation: 'logIn' });
		// the answer as it came, without the code and the token (no invented "authorized")
		expect(item).toEqual({ expires: 7200, message: 'success' });
	});

	test('get returns the account with profile, balance and sub-accounts', async () => {
		const [item] = await run({ resource: 'account', operation: 'get', simplify: false });
		expect(item.name).toBe('demo');
		expect(item.balance.price).toMatch(/^\d+\.\d{2}$/);
		expect(item.subaccounts.map((s) => s.name)).toContain('demo_ops');
	});

	test('register creates an account that can log in', async () => {
		const [item] = await run({
			resource: 'account',
			operation: 'register',
			username: 'newuser1',
			password: 'Newuser-pass1',
			mail: 'new@example.com',
			phone: '+1 555 0111',
		});
		expect(item).toMatchObject({ name: 'newuser1', mail: 'new@example.com' });
		const creds = { vendorApi: { apiUrl: v.url, username: 'newuser1', password: 'Newuser-pass1' } };
		const [me] = await run({ resource: 'account', operation: 'get', simplify: false }, { credentials: creds });
		expect(me.mail).toBe('new@example.com');
	});

	test('profile, picture, e-mail, phone and password updates change the account', async () => {
		await v.api('profile/register', { username: 'changer1', password: 'Changer-pass1', confirm_password: 'Changer-pass1', mail: 'c@example.com' });
		const creds = { vendorApi: { apiUrl: v.url, username: 'changer1', password: 'Changer-pass1' } };
		await run({ resource: 'account', operation: 'updateProfile', updateFields: { company: 'Acme', dailyReport: 1, otherMail: 'a@example.com,b@example.com' } }, { credentials: creds });
		await run({ resource: 'account', operation: 'updatePicture', picture: 'https://example.com/me.png' }, { credentials: creds });
		await run({ resource: 'account', operation: 'updateMail', mail: 'changed@example.com' }, { credentials: creds });
		await run({ resource: 'account', operation: 'updatePhone', phone: '+1 555 0199' }, { credentials: creds });
		const [me] = await run({ resource: 'account', operation: 'get', simplify: false }, { credentials: creds });
		expect(me.mail).toBe('changed@example.com');
		expect(me.profile).toMatchObject({ company: 'Acme', picture: 'https://example.com/me.png', daily_report: '1', other_mail: 'a@example.com,b@example.com' });
		const [pw] = await run({ resource: 'account', operation: 'updatePassword', oldPassword: 'Changer-pass1', newPassword: 'Changer-pass2' }, { credentials: creds });
		expect(pw).toEqual({ message: 'success' });
		const error = await v.fails(NODE, { resource: 'account', operation: 'get', simplify: false }, { credentials: { vendorApi: { apiUrl: v.url, username: 'changer1', password: 'Changer-pass1' } } });
		expect(error.message).toMatch(/Log-in as "changer1" was refused/);
		await run({ resource: 'account', operation: 'get', simplify: false }, { credentials: { vendorApi: { apiUrl: v.url, username: 'changer1', password: 'Changer-pass2' } } });
	});
});

describe('groups, permissions and sub-accounts', () => {
	let groupId;
	let subUid;

	test('create, list, update a group', async () => {
		const [g] = await run({ resource: 'group', operation: 'create', name: 'Night shift', additionalFields: { note: 'on call' } });
		groupId = Number(g.id);
		expect(g).toMatchObject({ name: 'Night shift', note: 'on call' });
		const listed = await run({ resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'Night' } });
		expect(listed.map((x) => x.name)).toEqual(['Night shift']);
		const [u] = await run({ resource: 'group', operation: 'update', id: v.byId(groupId), updateFields: { name: 'Night crew' } });
		expect(u.name).toBe('Night crew');
	});

	test('the permission catalogue lists every API path; the From list search finds groups', async () => {
		const modules = await run({ resource: 'groupPermission', operation: 'getCatalogue', returnAll: true });
		const paths = modules.flatMap((m) => Object.keys(m.subs));
		expect(paths).toEqual(expect.arrayContaining(['API/cdn/domainList', 'API/profile/balance', 'API/instance/list']));
		const found = await n8n.listSearch(NODE, 'searchGroups', { credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } }, filter: 'Night' });
		expect(found.results).toEqual([{ name: 'Night crew', value: String(groupId) }]);
		const options = await n8n.loadOptions(NODE, 'getPermissionPathOptions', { credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } } });
		expect(options.map((o) => o.value)).toContain('API/profile/balance');
	});

	test('a sub-account created in the group acts under the group permissions', async () => {
		const [created] = await run({
			resource: 'subAccount',
			operation: 'create',
			username: 'nightop1',
			password: 'Nightop-pass1',
			additionalFields: {
				mail: 'night@example.com',
				gid: String(groupId),
				status: 1,
				cdnconfig: { rows: [{ type: 'cloud', billtype: 'flow' }] },
			},
		});
		subUid = Number(created.uid);
		const sub = { vendorApi: { apiUrl: v.url, username: 'nightop1', password: 'Nightop-pass1' } };
		let error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: sub });
		// the service's words, what the user asked for instead of its path, and what to do; the path and code in the description
		expect(error.message).toBe('permission denied: this sub-account has no permission for "Get the balance" (the sub-account needs this permission in its group)');
		expect(error.description).toMatch(/Grant the permission API\/profile\/balance to its group/);

		await run({ resource: 'groupPermission', operation: 'add', gid: v.byId(groupId), value: ['API/profile/balance', 'API/profile/payList'] });
		const [bal] = await run({ resource: 'balance', operation: 'get', simplify: false }, { credentials: sub });
		expect(bal.price).toMatch(/^\d/);

		const entries = await run({ resource: 'groupPermission', operation: 'getAll', simplify: false, gid: v.byId(groupId), returnAll: true });
		expect(entries.map((e) => e.value).sort()).toEqual(['API/profile/balance', 'API/profile/payList']);
		const balanceEntry = entries.find((e) => e.value === 'API/profile/balance');
		const [upd] = await run({ resource: 'groupPermission', operation: 'update', gid: v.byId(groupId), id: v.byId(balanceEntry.id), value: v.byId('API/profile/invoiceBalance') });
		expect(upd.value).toBe('API/profile/invoiceBalance');
		error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: sub });
		expect(error.message).toMatch(/permission denied/);

		const [del] = await run({ resource: 'groupPermission', operation: 'delete', id: entries.map((e) => String(e.id)) });
		expect(del.deleted).toBe(true);
		expect(mgmt().account.groupRoles.filter((r) => Number(r.gid) === groupId)).toEqual([]);
	});

	test('sub-accounts are listed (simplified), updated and given resource permissions', async () => {
		const listed = await run({ resource: 'subAccount', operation: 'getAll', returnAll: true });
		const mine = listed.find((s) => s.username === 'nightop1');
		expect(mine).toMatchObject({ id: String(subUid), status: 'Enabled', statusCode: '1' });
		expect(mine.recieve_mail).toBeUndefined(); // simplified
		const full = await run({ resource: 'subAccount', operation: 'getAll', returnAll: true, simplify: false });
		expect(full.find((s) => s.name === 'nightop1').recieve_mail).toBeDefined();

		await run({ resource: 'subAccount', operation: 'update', uid: v.byId(subUid), updateFields: { status: 0, company: 'Night Co' } });
		expect(mgmt().accounts[subUid].status).toBe(0);
		const error = await v.fails(NODE, { resource: 'account', operation: 'get', simplify: false }, { credentials: { vendorApi: { apiUrl: v.url, username: 'nightop1', password: 'Nightop-pass1' } } });
		expect(error.message).toMatch(/refused/);

		await run({
			resource: 'subAccount',
			operation: 'setPermissions',
			uid: v.byId(subUid),
			perms: { rows: [{ type: 1, ids: '3, 4' }, { type: 5, ids: '7' }, { type: 1, ids: '9' }] },
		});
		expect(mgmt().accounts[subUid].perms).toEqual({ 1: [3, 4, 9], 5: [7] });
	});

	test('deleting a group: refused plainly while it holds sub-accounts, done when empty', async () => {
		const error = await v.fails(NODE, { resource: 'group', operation: 'delete', id: v.byId(groupId) });
		expect(error.message).toBe(`"Group": group ${groupId} still holds sub-accounts (nightop1)`);
		expect(error.description).toMatch(/profile\/groupDelete with code 0/);
		await run({ resource: 'subAccount', operation: 'update', uid: v.byId(subUid), updateFields: { gid: '0' } });
		const [d] = await run({ resource: 'group', operation: 'delete', id: v.byId(groupId) });
		expect(d.deleted).toBe(true);
		expect(mgmt().account.groups.some((g) => Number(g.id) === groupId)).toBe(false);
	});
});

describe('billing', () => {
	test('recharges with filters', async () => {
		const all = await run({ resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true });
		expect(all.length).toBeGreaterThanOrEqual(3);
		const offline = await run({ resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true, filters: { type: 4 } });
		expect(offline.length).toBeGreaterThan(0);
		expect(offline.every((r) => String(r.type_zh || '').length > 0)).toBe(true);
		expect(offline.length).toBeLessThan(all.length);
	});

	test('balance and balance alarm', async () => {
		const [bal] = await run({ resource: 'balance', operation: 'get', simplify: false });
		expect(Number(bal.price)).toBeGreaterThan(0);
		const [alarm] = await run({ resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: true, alarmValue: 250.5, alarmNum: 2 } });
		// simplified under the names of Account > Get (the answer is the alarm as it now is)
		expect(alarm).toEqual({ balanceAlarm: true, alarmThreshold: 250.5, alarmCount: 2 });
		const owner = Object.values(mgmt().accounts).find((a) => a.name === 'demo');
		expect(mgmt().balances[owner.uid]).toMatchObject({ alarm: '1', alarm_num: '2', alarm_value: '250.50' });
	});

	test('payments with filters', async () => {
		const all = await run({ resource: 'payment', operation: 'getAll', simplify: false, returnAll: true });
		const refunds = await run({ resource: 'payment', operation: 'getAll', simplify: false, returnAll: true, filters: { type: 2 } });
		const dns = await run({ resource: 'payment', operation: 'getAll', simplify: false, returnAll: true, filters: { paytype: 7 } });
		expect(refunds.length).toBeGreaterThan(0);
		expect(refunds.length).toBeLessThan(all.length);
		expect(dns.every((p) => String(p.paytype_zh).length > 0)).toBe(true);
		const none = await run({ resource: 'payment', operation: 'getAll', simplify: false, returnAll: true, filters: { bid: 999999 } });
		expect(none).toEqual([]);
	});

	test('payments simplified: a status code without a documented meaning is shown as it came, as statusCode, and the run says once what it is (issue 36)', async () => {
		const raw = await run({ resource: 'payment', operation: 'getAll', simplify: false, returnAll: true });
		const { items, result } = await v.run(NODE, { resource: 'payment', operation: 'getAll', returnAll: true });
		const simple = items.map((i) => i.json);
		expect(simple).toHaveLength(raw.length);
		expect(hintsOf(result)).toContain("statusCode is the service's own status code of each payment; the vendor's documentation gives no meaning for it, so it is shown as it came.");
		raw.forEach((r, i) => {
			expect(simple[i]).not.toHaveProperty('status'); // no word made up for it
			expect(simple[i].statusCode).toBe(r.status);
			expect(simple[i].amount).toBe(Number(r.price));
		});
		expect(simple.flatMap((p) => Object.keys(p)).filter((k) => /_|^(price|paytype|createtime)$/.test(k))).toEqual([]);
	});

	test('every operation that gives amounts says once per run what is known of their currency, in the words of the billing report; no record carries it (issue 36)', async () => {
		// the service names no currency on any record (docs/vendor/readings.md#r71)
		const note = "Amounts are in the account's currency, which the service does not name.";
		const withAmounts = [
			['account', 'get'],
			['balance', 'get'],
			['recharge', 'getAll'],
			['payment', 'getAll'],
			['invoice', 'getAll'],
			['invoice', 'getBalance'],
			['coupon', 'getAll'],
			['coupon', 'getBalance'],
		];
		for (const [resource, operation] of withAmounts) {
			for (const simplify of [true, false]) {
				// two input items: the note is said once, above the output, not on every record
				const { items, result } = await v.run(NODE, { resource, operation, returnAll: true, simplify }, { input: [{}, {}] });
				expect(items.length).toBeGreaterThan(1);
				expect({ [`${resource}/${operation}`]: hintsOf(result).filter((h) => h === note) }).toEqual({ [`${resource}/${operation}`]: [note] });
				expect(items.filter((i) => 'currencyNote' in i.json)).toEqual([]);
			}
		}
		const [report] = await run({ resource: 'report', operation: 'get', period: 'last30Days' });
		expect(report.currencyNote.startsWith(note)).toBe(true);
		expect(report.text.endsWith(report.currencyNote)).toBe(true);
	});

	test('invoices: invoiceable amount, apply, list', async () => {
		const [before] = await run({ resource: 'invoice', operation: 'getBalance', simplify: false });
		const amount = Number(before.invoiceprice);
		expect(amount).toBeGreaterThan(10);
		const [applied] = await run({
			resource: 'invoice',
			operation: 'apply',
			title: 'Example Ltd.',
			price: 10,
			additionalFields: { type: 1, invoicetype: 2, recipients: 'Finance', mailaddress: '1 Example Road', postcode: '10001' },
		});
		expect(applied).toMatchObject({ title: 'Example Ltd.', amount: 10, holder: 'Enterprise', holderCode: '1' }); // the invoice, simplified like the list
		const [after] = await run({ resource: 'invoice', operation: 'getBalance', simplify: false });
		expect(Number(after.invoiceprice)).toBeCloseTo(amount - 10, 2);
		const list = await run({ resource: 'invoice', operation: 'getAll', returnAll: true });
		// simplified: words for the documented codes, the amount a number, no API field names
		expect(list.find((i) => String(i.id) === String(applied.id))).toMatchObject({
			title: 'Example Ltd.',
			amount: 10,
			holder: 'Enterprise',
			holderCode: '1',
			invoiceType: 'Ordinary VAT Invoice',
			invoiceTypeCode: '2',
			statusCode: expect.anything(),
		});
		expect(Object.keys(list[0]).filter((k) => /_|^(price|invoicetype|expresscode)$/.test(k))).toEqual([]);
	});

	test('coupons: list by status, exchange, balance, and the error envelope of a second exchange', async () => {
		const unused = await run({ resource: 'coupon', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 0 } });
		expect(unused.map((c) => c.couponid)).toContain('WELCOME50');
		const [before] = await run({ resource: 'coupon', operation: 'getBalance', simplify: false });
		const [ex] = await run({ resource: 'coupon', operation: 'exchange', couponid: 'WELCOME50' });
		expect(ex).toEqual({ name: expect.any(String), amount: 50 });
		const [after] = await run({ resource: 'coupon', operation: 'getBalance', simplify: false });
		expect(Number(after.data)).toBeCloseTo(Number(before.data) + 50, 2);
		const error = await v.fails(NODE, { resource: 'coupon', operation: 'exchange', couponid: 'WELCOME50' });
		// the field the user filled, not the service's parameter; the path and code in the description
		expect(error.message).toBe('"Coupon Code": coupon WELCOME50 has already been activated');
		expect(error.description).toMatch(/profile\/couponExchange with code 0/);
		expect(error.description).toMatch(/code 0/);
		expect(error.httpCode).not.toBe('0');
	});

	test('operation logs by type and period', async () => {
		const finance = await run({ resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { type: 'finance' } });
		expect(finance.length).toBeGreaterThan(0);
		expect(finance.every((l) => l.type === 'finance')).toBe(true);
		const today = new Date().toISOString().slice(0, 10);
		const recent = await run({ resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { start: today, end: today } });
		expect(recent.length).toBeGreaterThan(0);
		const old = await run({ resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { end: '2001-01-01' } });
		expect(old).toEqual([]);
	});
});

describe('pagination', () => {
	test('Return All reads every page (3+ pages) in order; Limit stops early', async () => {
		for (let i = 0; i < 230; i++) await v.api('profile/groupAdd', { name: `bulk-${String(i).padStart(3, '0')}` });
		const before = await requests();
		const all = await run({ resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'bulk-' } });
		const used = (await requests()) - before;
		// the same records, in the service's own page order
		const pages = [];
		for (let page = 1; page <= 3; page++) pages.push(...(await v.api('profile/groupList', { name: 'bulk-', page, limit: 100 })).data);
		expect(all.map((g) => g.id)).toEqual(pages.map((g) => g.id));
		expect(new Set(all.map((g) => g.name)).size).toBe(230);
		expect(used).toBe(3);
		const some = await run({ resource: 'group', operation: 'getAll', simplify: false, returnAll: false, limit: 7, filters: { name: 'bulk-' } });
		expect(some.map((g) => g.id)).toEqual(pages.slice(0, 7).map((g) => g.id));
	});
});

describe('transient failures', () => {
	afterEach(() => v.emu.faults.set({ errorRate: 0, errorOps: [], seed: 12345 }));

	test('reads are retried with backoff: Return All survives 5xx answers and connection resets', async () => {
		const expected = (await v.api('profile/groupList', { page: 1, limit: 1000 })).data.map((g) => g.id);
		v.emu.faults.set({ errorRate: 0.3, errorOps: ['profile/groupList'], seed: 7 });
		const injectedBefore = v.emu.faults.injected;
		const all = await run({ resource: 'group', operation: 'getAll', simplify: false, returnAll: true });
		expect(v.emu.faults.injected - injectedBefore).toBeGreaterThan(0);
		expect(all.map((g) => g.id)).toEqual(expected);
	});

	test('a read that keeps failing gives up after 4 attempts with a clear error', async () => {
		v.emu.faults.set({ errorRate: 1, errorOps: ['profile/balance'] });
		const injectedBefore = v.emu.faults.injected;
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(v.emu.faults.injected - injectedBefore).toBe(4);
		expect(error.message).toMatch(/"Get the balance"/);
		expect(error.description).toMatch(/API\/profile\/balance/);
	});

	test('a write is not repeated blindly: one attempt, and the error says to check before repeating', async () => {
		v.emu.faults.set({ errorRate: 1, errorOps: ['profile/groupAdd'] });
		const injectedBefore = v.emu.faults.injected;
		const groupsBefore = mgmt().account.groups.length;
		const error = await v.fails(NODE, { resource: 'group', operation: 'create', name: 'once-only' });
		expect(v.emu.faults.injected - injectedBefore).toBe(1);
		// the node's own message, not n8n's generic "closed unexpectedly ... retry immediately"
		expect(error.message).toMatch(/"Create a group".*the change may or may not have been made, check before repeating it/);
		expect(error.message).not.toMatch(/retry the request immediately/);
		expect(error.description).toMatch(/not repeated automatically/);
		expect(mgmt().account.groups.length).toBe(groupsBefore);
	});
});

describe('credential, errors and input checks', () => {
	test('a token that expires mid-run is renewed without the user noticing', async () => {
		const emuTokens = () => Object.keys(mgmt().tokens).length;
		// 3 s tokens (a log-in and one repeat must fit in a token's life even on a loaded machine:
		// at most one log-in and one repeat per call)
		v.emu.faults.set({ tokenLifetimeS: 3, latencyMs: 300 });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		try {
			const tokensBefore = emuTokens();
			// one item at a time, so the run (16 requests of at least 0.3 s) outlasts the 3 s tokens
			const { items, error } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false, options: { concurrency: 1 } }, { input: Array.from({ length: 16 }, () => ({})) });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(16);
			expect(items.map((i) => i.pairedItem.item)).toEqual(Array.from({ length: 16 }, (_, i) => i));
			expect(emuTokens() - tokensBefore).toBeGreaterThanOrEqual(2);
		} finally {
			v.emu.faults.set({ tokenLifetimeS: 7200, latencyMs: 0 });
		}
	});

	test('a revoked token is renewed once and the stored token stays usable for later runs', async () => {
		await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const [bal] = await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(bal.price).toBeDefined();
	});

	test('a wrong password says so, and no secret appears in the run data', async () => {
		const { error, result } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'Wrong-Secret-77' } } });
		expect(error.message).toMatch(/Log-in as "demo" was refused: username or password is incorrect/);
		expect(error.description).toMatch(/correct the username, password/);
		const dump = JSON.stringify(result.run);
		expect(dump).not.toContain('Wrong-Secret-77');
	});

	test('tokens and passwords never appear in output', async () => {
		const { result } = await v.run(NODE, { resource: 'account', operation: 'get', simplify: false });
		const stored = v.store.data.get(v.apiRef.id).data.accessToken;
		// kept with a fingerprint of the credentials that obtained it and when to renew it: vc2:<fingerprint>:<renew at>:<token>
		expect(stored).toMatch(/^vc2:[0-9a-f]{32}:\d*:[0-9a-f]{20,}$/);
		const token = stored.split(':')[3];
		const dump = JSON.stringify(result.run);
		expect(dump).not.toContain(token);
		expect(dump).not.toContain('demo-password');
	});

	test('bad input is rejected before any request: missing field, wrong type, bad e-mail', async () => {
		const before = await requests();
		let error = await v.fails(NODE, { resource: 'group', operation: 'create', name: '={{ $json.missing }}' });
		expect(error.message).toBe('The "Name" field is required');
		error = await v.fails(NODE, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: true, alarmValue: 10, alarmNum: '={{ "three" }}' } });
		expect(error.message).toMatch(/"Number of Alerts" field must be a whole number/);
		error = await v.fails(NODE, { resource: 'account', operation: 'updateMail', mail: 'nobody' });
		expect(error.message).toMatch(/Invalid "E-Mail"/);
		error = await v.fails(NODE, { resource: 'invoice', operation: 'apply', title: 'x', price: 5, additionalFields: { type: 7, invoicetype: 1 } });
		expect(error.message).toMatch(/"Holder" field has "7", which is not one of its choices/);
		error = await v.fails(NODE, { resource: 'subAccount', operation: 'setPermissions', uid: v.byId(1), perms: { rows: [{ type: 1, ids: 'a,b' }] } });
		expect(error.message).toMatch(/Invalid "Permissions 1: Resource IDs"/);
		expect(await requests()).toBe(before);
	});

	test('continueOnFail turns a failing item into an error item and goes on', async () => {
		const { items, error } = await v.run(
			NODE,
			{ resource: 'coupon', operation: 'exchange', couponid: '={{ $json.code }}' },
			{ input: [{ code: 'NOPE-1' }, { code: 'SPRING20' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/^"Coupon Code": /);
		expect(items[0].json.description).toMatch(/profile\/couponExchange/);
		expect(items.map((i) => i.pairedItem.item)).toEqual([0, 1]);
	});

	test('the credential puts the token into any JSON body (HTTP Request node use), only with the details that obtained it', async () => {
		const { credentials } = n8n.loadPackage();
		const cred = credentials.vendorApi;
		const details = { apiUrl: v.url, username: 'demo', password: 'demo-password' };
		const httpRequest = async (o) => {
			const r = await fetch(o.url, { method: o.method, headers: o.headers, body: JSON.stringify(o.body) });
			return { statusCode: r.status, body: await r.text() };
		};
		const { accessToken } = await cred.preAuthentication.call({ helpers: { httpRequest } }, details);
		const token = accessToken.split(':')[3];
		const out = await cred.authenticate({ ...details, accessToken }, { method: 'POST', url: 'x', body: { a: 1 } });
		expect(out.body).toEqual({ a: 1, token });
		const out2 = await cred.authenticate({ ...details, accessToken }, { method: 'POST', url: 'x', body: '{"b":2}' });
		expect(JSON.parse(out2.body)).toEqual({ b: 2, token });
		// edited since the log-in (password, username, API URL or encoding): the old token is not sent
		for (const edit of [{ password: 'other' }, { username: 'other' }, { apiUrl: 'http://127.0.0.1:1' }, { loginEncoding: 'md5' }]) {
			const stale = await cred.authenticate({ ...details, ...edit, accessToken }, { method: 'POST', url: 'x', body: { a: 1 } });
			expect(stale.body).toEqual({ a: 1, token: '' });
		}
		// a token stored by an older version (no fingerprint) is not sent either
		expect((await cred.authenticate({ ...details, accessToken: token }, { method: 'POST', url: 'x', body: {} })).body).toEqual({ token: '' });
		// the log-in carries no token
		expect((await cred.authenticate({ ...details, accessToken }, { method: 'POST', url: '/API/OAuth/authorize', body: { username: 'demo' } })).body).toEqual({ username: 'demo' });
	});
});

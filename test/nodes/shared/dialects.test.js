'use strict';
/**
 * The management nodes under every management dialect of the emulator (EMULATOR-INTERFACE.md):
 * numbers as strings or as numbers, `[]` for empty objects, line rows whose ids are not line
 * codes, log-ins that end earlier tokens, 60-second tokens and unknown fields. Locators
 * ("From list"), output functions, `after` hooks and Log In must read every one of them.
 */
const { startVendor, n8n } = require('../../support/vendor');

const DIALECTS = ['default', 'numbersAsStrings', 'numbersAsNumbers', 'emptyObjectsAsArrays', 'lineIdsDiffer', 'loginInvalidates', 'tokenLifetime60', 'extraFields'];

describe.each(DIALECTS)('dialect %s', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo', dialects: dialect === 'default' ? [] : [dialect] });
	});
	afterAll(() => v.close());
	const creds = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } });
	const fromList = (value) => ({ __rl: true, mode: 'list', value: String(value) });

	test('Log In and account reads', async () => {
		const [login] = await v.ok('vendorAccountBilling', { resource: 'account', operation: 'logIn' });
		expect(Number(login.expires)).toBeGreaterThan(0);
		expect(Object.keys(login).some((k) => /token/i.test(k))).toBe(false);
		const [me] = await v.ok('vendorAccountBilling', { resource: 'account', operation: 'get', simplify: false });
		expect(me.name).toBe('demo');
		const [balance] = await v.ok('vendorAccountBilling', { resource: 'balance', operation: 'get', simplify: false });
		expect(Number(balance.price)).toBeGreaterThan(0);
		const modules = await v.ok('vendorAccountBilling', { resource: 'groupPermission', operation: 'getCatalogue', returnAll: true });
		expect(modules.flatMap((m) => Object.keys(m.subs))).toContain('API/profile/balance');
	});

	test('id filters, Return All over several pages, From list searches', async () => {
		const all = await v.ok('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true });
		const [one] = await v.ok('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true, filters: { id: String(all[1].id) } });
		expect(String(one.id)).toBe(String(all[1].id));
		for (let i = 0; i < 120; i++) await v.api('profile/groupAdd', { name: `dialect-${i}` });
		const groups = await v.ok('vendorAccountBilling', { resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'dialect-' } });
		expect(groups).toHaveLength(120);
		const found = await n8n.listSearch('vendorAccountBilling', 'searchGroups', { credentials: creds(), filter: 'dialect-7' });
		expect(found.results.length).toBeGreaterThan(0);
		expect(found.results.every((r) => /^\d+$/.test(r.value))).toBe(true);
	});

	test('lines: the From list stands for line codes, and a host is created on the chosen line', async () => {
		const lines = (await n8n.listSearch('vendorCloudHost', 'searchLines', { parameters: { resource: 'host', operation: 'create', nodeid: v.byId(2) }, credentials: creds() })).results;
		expect(lines.map((l) => [l.name, l.value])).toEqual([
			['Inner Network (East Zone 2)', '1'],
			['Mobile (East Zone 2)', '4'],
			['BGP (East Zone 2)', '5'],
			['Dual Line (East Zone 2)', '6'],
		]);
		const [made] = await v.ok('vendorCloudHost', {
			resource: 'host',
			operation: 'create',
			name: 'dialect-host',
			nodeid: v.byId(2),
			cpuid: v.byId(1),
			memid: v.byId(1),
			imageid: v.byId(2),
			networkid: fromList(lines.find((l) => l.name.startsWith('Mobile')).value),
			networkvalue: 2,
			type: 1,
			pass: 'Secret123x',
			waitUntilRunning: true,
			waitTimeout: 20,
		});
		expect(String(made.statusCode)).toBe('1'); // simplified: the word in status, the code beside it
		expect(v.emu.management.state.instance.hosts[Number(made.id)].networkid).toBe(4);
	});

	test('CDN: a channel by id, waiting for a refresh, task statuses', async () => {
		const [channel] = (await v.api('cdn/domainList', {})).data;
		const [got] = await v.ok('vendorCdn', { resource: 'channel', operation: 'get', id: v.byId(channel.id), simplify: false });
		expect(String(got.id)).toBe(String(channel.id));
		const [task] = await v.ok('vendorCdn', { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.example.com/dialect.html', waitForCompletion: true, waitTimeout: 10, pollInterval: 0.1 });
		expect(task.outcome).toBe('success');
		expect(String(task.status)).toBe('0');
		const [status] = await v.ok('vendorCdn', { resource: 'cacheRefresh', operation: 'getStatus', id: [String(task.id)] });
		expect(status).toEqual({ id: String(task.id), status: 'success' });
		const located = await v.ok('vendorCdn', { resource: 'ipAddress', operation: 'getLocation', ip: '203.0.113.45' });
		expect(located[0].ip).toBe('203.0.113.45');
	});

	test('DNS: notification methods from the plans, a monitor that notifies by mail', async () => {
		const methods = await n8n.loadOptions('vendorDns', 'getNotifyMethodOptions', { parameters: { resource: 'monitor', operation: 'add', simplify: false }, credentials: creds() });
		expect(methods.map((m) => m.value).sort()).toEqual(['mail', 'sms', 'wechat']);
		const [domain] = (await v.api('dns/domainList', {})).data;
		const [monitor] = await v.ok('vendorDns', { resource: 'monitor', operation: 'add', did: v.byId(domain.id), subdomain: 'api', simplify: false, additionalFields: { notify: 'mail', otherEmail: 'ops@example.com' } });
		expect(monitor).toMatchObject({ notify: 'mail', other_email: 'ops@example.com' });
	});

	test('a change answered without data gives the request identifiers and the message', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const [record] = (await v.api('dns/recordList', { did: Number(domain.id), subdomain: 'www' })).data;
		const [noted] = await v.ok('vendorDns', { resource: 'record', operation: 'updateNote', did: v.byId(domain.id), recordId: v.byId(record.id), note: 'dialect' });
		expect(noted).toMatchObject({ did: Number(domain.id), record_id: Number(record.id), message: 'success' });
	});
});

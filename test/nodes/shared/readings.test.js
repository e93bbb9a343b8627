'use strict';
/**
 * Issue 10, sections 1 and 2: what the documents state (only what the user set is sent, outputs
 * without invented fields, id filters that are not sent when left empty, ...) and the readings
 * where they are silent (docs/vendor/readings.md R3, R7, R61, R62: limits as hints with the
 * service's own error shown, line codes for instance/create, notification methods of DNS
 * monitors). Every test runs the built nodes through n8n-core against the emulator.
 */
const { startVendor, dnsRecords, n8n } = require('../../support/vendor');

let v;
beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());

const requests = async () => (await v.control('GET', '/management/requests')).count;
const mgmt = () => v.emu.management.state;
const owner = () => Object.values(mgmt().accounts).find((a) => a.name === 'demo');
const description = (node) => n8n.loadPackage().nodes[`${n8n.PREFIX}.${node}`].description;
const creds = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } });
/** The body of the latest successful change sent to `path`, as the emulator's operation log keeps it. */
const lastSent = (path) => JSON.parse([...mgmt().logs].reverse().find((l) => l.op === path).content);

/** The option `name` of the collection of an operation (e.g. the TTL of Record > Update's Update Fields). */
function collectionOption(node, resource, operation, collection, name) {
	const prop = description(node).properties.find(
		(p) => p.name === collection && p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation),
	);
	return prop && prop.options.find((o) => o.name === name);
}

/** Runs a node that must fail after its request reached the service: the service's own error is shown. */
async function refusedByService(node, parameters, path) {
	const before = await requests();
	const error = await v.fails(node, parameters);
	expect(await requests()).toBeGreaterThan(before);
	expect(error.description).toContain(`${path} with code `);
	return error;
}

async function rejectedBeforeSending(node, parameters) {
	const before = await requests();
	const error = await v.fails(node, parameters);
	expect(await requests()).toBe(before);
	return error;
}

describe('only what the user set is sent', () => {
	test('Set Balance Alarm: turning the alarm off keeps the threshold and the number of alerts', async () => {
		await v.ok('vendorAccountBilling', { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: true, alarmValue: 250.5, alarmNum: 2 } });
		expect(mgmt().balances[owner().uid]).toMatchObject({ alarm: '1', alarm_num: '2', alarm_value: '250.50' });
		const [off] = await v.ok('vendorAccountBilling', { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: false }, simplify: false });
		expect(lastSent('profile/balanceAlarm')).toEqual({ alarm: 0 });
		expect(mgmt().balances[owner().uid]).toMatchObject({ alarm: '0', alarm_num: '2', alarm_value: '250.50' });
		expect(off).toEqual({ alarm: '0', alarm_num: '2', alarm_value: '250.50' });
	});

	test('Set Balance Alarm: no cap on the number of alerts that the documents do not state; the service decides', async () => {
		const error = await refusedByService('vendorAccountBilling', { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: true, alarmNum: 150 } }, 'profile/balanceAlarm');
		expect(error.message).toMatch(/^"Number of Alerts"/);
	});

	test('Sub-account Update can rename (username is among the create-or-modify fields)', async () => {
		const [created] = await v.ok('vendorAccountBilling', { resource: 'subAccount', operation: 'create', username: 'renameme1', password: 'Renameme-pass1' });
		const uid = Number(created.uid);
		await v.ok('vendorAccountBilling', { resource: 'subAccount', operation: 'update', uid: v.byId(uid), updateFields: { username: 'renamed01' } });
		expect(mgmt().accounts[uid].name).toBe('renamed01');
		const [me] = await v.ok('vendorAccountBilling', { resource: 'account', operation: 'get', simplify: false }, { credentials: { vendorApi: { apiUrl: v.url, username: 'renamed01', password: 'Renameme-pass1' } } });
		expect(me.name).toBe('renamed01');
	});

	test('DNS Record Update: TTL starts at the documented default 300, which is sent as it is', async () => {
		const ttl = collectionOption('vendorDns', 'record', 'update', 'updateFields', 'ttl');
		expect(ttl.default).toBe(300);
		const [domain] = (await v.api('dns/domainList', {})).data;
		const [record] = (await v.api('dns/recordList', { did: Number(domain.id), subdomain: 'mail' })).data;
		// the field added and left as it starts
		const [updated] = await v.ok('vendorDns', { resource: 'record', operation: 'update', simplify: false, did: v.byId(domain.id), recordId: v.byId(record.id), updateFields: { ttl: ttl.default } });
		expect(updated.ttl).toBe('300');
	});
});

describe('id filters are not sent when left empty', () => {
	const NODES = ['vendorAccountBilling', 'vendorCdn', 'vendorCloudHost', 'vendorDiskNetworkFirewall', 'vendorDns'];

	/** Every filter of every management node whose name says it is an identifier. */
	function idFilters() {
		const out = [];
		for (const node of NODES) {
			const props = description(node).properties;
			for (const p of props.filter((x) => x.name === 'filters')) {
				const [resource] = p.displayOptions.show.resource;
				const [operation] = p.displayOptions.show.operation;
				const required = props.filter(
					(x) => x.required && x.displayOptions?.show?.resource?.includes(resource) && x.displayOptions?.show?.operation?.includes(operation),
				);
				for (const o of p.options.filter((x) => /\bIDs?$/.test(x.displayName) && x.type !== 'multiOptions' && x.type !== 'options')) out.push({ node, resource, operation, option: o, required: required.map((r) => r.name) });
			}
		}
		return out;
	}

	beforeAll(async () => {
		// one of each, so every list below has records to lose
		const fw = await v.api('instance/firewallAdd', { nodeid: 1, name: 'ids-fw' });
		await v.api('instance/firewallRuleAdd', { fid: Number(fw.data.id), destport: '22' });
		await v.api('instance/networkAdd', { nodeid: 1, name: 'ids-net' });
		const [domain] = (await v.api('dns/domainList', {})).data;
		await v.api('dns/monitorAdd', { did: Number(domain.id), subdomain: 'api' });
		const t = await v.api('dns/tempAdd', { pid: 2, name: 'ids-template', status: 1 });
		await v.api('dns/styAdd', { did: Number(domain.id), subdomain: 'api', sty: 'auto', tid: Number(t.data.id), maxip: 1, status: 1 });
	});

	test('every such filter is an empty text field, never a number starting at 0', () => {
		const filters = idFilters();
		expect(filters.map((f) => `${f.node} ${f.resource} ${f.option.displayName}`)).toEqual(
			expect.arrayContaining([
				'vendorAccountBilling recharge Recharge ID',
				'vendorAccountBilling payment Business ID',
				'vendorCloudHost host Host ID',
				'vendorDiskNetworkFirewall firewall Firewall ID',
				'vendorDiskNetworkFirewall firewallRule Rule ID',
				'vendorDiskNetworkFirewall network Network ID',
				'vendorDns plan Plan ID',
				'vendorDns domain Domain ID',
				'vendorDns monitor Monitor ID',
				'vendorDns monitorRecord Monitor Record ID',
				'vendorDns strategy Strategy ID',
				'vendorDns template Template ID',
				'vendorDns template Resolution Group ID',
			]),
		);
		for (const f of filters) expect([`${f.node} ${f.option.displayName}`, f.option.type, f.option.default]).toEqual([`${f.node} ${f.option.displayName}`, expect.not.stringMatching(/^number$/), '']);
	});

	test('an id filter added and left untouched filters nothing out, in every node', async () => {
		const checked = [];
		for (const f of idFilters().filter((x) => x.required.length === 0)) {
			const base = { resource: f.resource, operation: f.operation, returnAll: true };
			const all = await v.ok(f.node, base);
			const untouched = await v.ok(f.node, { ...base, filters: { [f.option.name]: f.option.default } });
			expect([f.node, f.resource, f.option.name, untouched.length]).toEqual([f.node, f.resource, f.option.name, all.length]);
			if (all.length) checked.push(`${f.resource}.${f.option.name}`);
		}
		expect(checked).toEqual(expect.arrayContaining(['recharge.id', 'payment.bid', 'host.id', 'firewall.id', 'firewallRule.id', 'network.id', 'plan.id', 'domain.id', 'monitor.id', 'strategy.id', 'template.id']));
	});

	test('a given id filters, and is sent as a number', async () => {
		const all = await v.ok('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true });
		const one = await v.ok('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true, filters: { id: ` ${all[1].id} ` } });
		expect(one.map((r) => r.id)).toEqual([all[1].id]);
		const error = await rejectedBeforeSending('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', simplify: false, returnAll: true, filters: { id: 'abc' } });
		expect(error.message).toBe('The "Recharge ID" field must be a numeric ID, not "abc"');
	});

	test('a declaration with an int identifier is refused when the node is built', () => {
		const { buildProperties } = require('../../../dist/nodes/shared/api/build');
		const area = (field) => ({
			node: 'x',
			versions: [1],
			defaultResource: 'thing',
			defaultOperations: { thing: 'getAll' },
			resources: [{ value: 'thing', name: 'Thing' }],
			operations: [{ endpoint: 'x/list', path: 'x/list', resource: 'thing', operation: 'getAll', name: 'Get Many', action: 'Get many things', description: 'd', list: { paged: true }, fields: [field] }],
		});
		expect(() => buildProperties(area({ wire: 'bid', displayName: 'Business ID', kind: 'int' }))).toThrow(/declare it with id\(\) or locator\(\)/);
		expect(() => buildProperties(area({ wire: 'flow', displayName: 'Traffic', kind: 'int' }))).not.toThrow();
	});
});

describe('outputs hold what the service answered', () => {
	test('Log In reports the answer without the token and without an invented "authorized"', async () => {
		const [item] = await v.ok('vendorAccountBilling', { resource: 'account', operation: 'logIn' });
		expect(item).not.toHaveProperty('authorized');
		expect(item).not.toHaveProperty('access_token');
		expect(item).toMatchObject({ expires: 7200, message: 'success' });
		expect(Object.keys(item).sort()).toEqual(expect.arrayContaining(['expires', 'message']));
	});

	test('an answer without data: the identifiers of the request and what the service said, no "success: true"', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const [record] = (await v.api('dns/recordList', { did: Number(domain.id), subdomain: 'www' })).data;
		const [noted] = await v.ok('vendorDns', { resource: 'record', operation: 'updateNote', did: v.byId(domain.id), recordId: v.byId(record.id), note: 'front door' });
		expect(noted).not.toHaveProperty('success');
		expect(noted).toMatchObject({ did: Number(domain.id), record_id: Number(record.id), message: 'success' });

		await v.api('profile/register', { username: 'pwchange1', password: 'Pwchange-pass1', confirm_password: 'Pwchange-pass1', mail: 'pw@example.com' });
		const [pw] = await v.ok(
			'vendorAccountBilling',
			{ resource: 'account', operation: 'updatePassword', oldPassword: 'Pwchange-pass1', newPassword: 'Pwchange-pass2' },
			{ credentials: { vendorApi: { apiUrl: v.url, username: 'pwchange1', password: 'Pwchange-pass1' } } },
		);
		expect(pw).not.toHaveProperty('success');
		expect(pw.message).toBe('success');
		expect(JSON.stringify(pw)).not.toMatch(/Pwchange-pass/);
	});

	test('Update Picture takes an avatar address as the service does, not only an http(s) URL', async () => {
		await v.ok('vendorAccountBilling', { resource: 'account', operation: 'updatePicture', picture: '/avatars/demo.png' });
		expect(owner().profile.picture).toBe('/avatars/demo.png');
	});
});

describe('CDN Wait for Completion', () => {
	beforeAll(async () => {
		const r = await v.api('cdn/domainAdd', { name: 'wait.example.com', type: 'cloud', ip: { '192.0.2.10': 80 } });
		if (r.code !== 1) throw new Error(r.message);
	});
	const WAIT = { waitForCompletion: true, waitTimeout: 10, pollInterval: 0.1 };

	test('the task keeps its status as the service sent it; the outcome is a field of its own', async () => {
		const [refresh] = await v.ok('vendorCdn', { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://wait.example.com/a.html', ...WAIT });
		expect(refresh).toMatchObject({ status: '0', outcome: 'success', urls: ['https://wait.example.com/a.html'] });
		// sent without the node's channel check, the service's failure comes back with the reason in words
		const [prefetch] = await v.ok('vendorCdn', {
			resource: 'prefetch',
			operation: 'create',
			preloadtype: 1,
			urls: 'https://elsewhere.example.net/b.bin',
			additionalFields: { checkChannels: false },
			...WAIT,
		});
		expect(prefetch).toMatchObject({ status: '0', outcome: 'failed', reason: expect.stringMatching(/^The CDN reports the prefetch as failed: https:\/\/elsewhere\.example\.net\/b\.bin is outside every channel/) });
		const [again] = await v.ok('vendorCdn', { resource: 'cacheRefresh', operation: 'repeat', id: v.byId(refresh.id), ...WAIT });
		expect(again).toMatchObject({ status: '0', outcome: 'success' });
	});
});

describe('limits the documents do not state are hints (readings R3): the service decides and its error is shown', () => {
	test('hints in the descriptions', () => {
		const host = description('vendorCloudHost').properties;
		const pass = host.find((p) => p.name === 'pass');
		expect(pass.description).toMatch(/service sets the rules/);
		const num = host.find((p) => p.name === 'num');
		expect(num.description).toMatch(/service sets the maximum/);
		expect(collectionOption('vendorDns', 'record', 'update', 'updateFields', 'ttl').description).toMatch(/default 300/);
	});

	test('cloud host: password rules and quantity are the service\'s', async () => {
		const create = {
			resource: 'host',
			operation: 'create',
			name: 'liberal',
			nodeid: v.byId(1),
			cpuid: v.byId(1),
			memid: v.byId(1),
			imageid: v.byId(2),
			networkid: v.byId(1),
			type: 1,
			pass: 'Secret123x',
		};
		const weak = await refusedByService('vendorCloudHost', { ...create, pass: 'weakpass' }, 'instance/create');
		expect(weak.message).not.toContain('weakpass');
		await refusedByService('vendorCloudHost', { ...create, num: 11 }, 'instance/create');
		const [made] = await v.ok('vendorCloudHost', { ...create, num: 1 });
		expect(made.instanceId).toMatch(/^ins-/);
	});

	test('account: username and phone forms are the service\'s', async () => {
		await refusedByService(
			'vendorAccountBilling',
			{ resource: 'account', operation: 'register', username: 'a'.repeat(40), password: 'Long-name-pass1', mail: 'long@example.com' },
			'profile/register',
		);
		const phone = await refusedByService('vendorAccountBilling', { resource: 'account', operation: 'updatePhone', phone: 'call me' }, 'profile/phoneUpdate');
		expect(phone.message).toMatch(/phone/);
	});

	test('DNS: TTL, MX priority and weight ranges are the service\'s; an unknown record type reaches it too', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const did = v.byId(domain.id);
		const row = (extra) => ({ subdomain: 'hint', recordtype: 'A', recordline: 'default', value: '203.0.113.77', mx: 10, ttl: 300, weight: 1, ...extra });
		const add = async (extra) => {
			const before = await requests();
			const r = await v.run('vendorDns', { resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords([row(extra)]) });
			expect(await requests()).toBeGreaterThan(before);
			if (r.error) expect(r.error.description).toMatch(/dns\/recordAdd with code/);
			return r;
		};
		await add({ ttl: 86401 });
		await add({ weight: 0 });
		await add({ mx: 101, recordtype: 'MX', value: 'mx.example.com' });
		await add({ recordtype: 'XYZ' });
	});

	test('firewall rule: other protocols and IPv6 sources reach the service', async () => {
		const fw = await v.api('instance/firewallAdd', { nodeid: 1, name: 'hint-fw' });
		const base = { resource: 'firewallRule', operation: 'add', fid: v.byId(fw.data.id) };
		const error = await refusedByService('vendorDiskNetworkFirewall', { ...base, protocol: 'gre' }, 'instance/firewallRuleAdd');
		expect(error.message).toMatch(/^"Protocol"/);
		const before = await requests();
		await v.run('vendorDiskNetworkFirewall', { ...base, destport: '443', source: '2001:db8::/32' });
		expect(await requests()).toBeGreaterThan(before);
		const protocol = description('vendorDiskNetworkFirewall').properties.find((p) => p.name === 'protocol');
		expect(protocol.options.map((o) => o.value).sort()).toEqual(['all', 'icmp', 'tcp', 'udp']);
		expect(protocol.description).toMatch(/Expression/);
	});

	test('what the documents state or what is certain is still refused before sending', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const did = v.byId(domain.id);
		let error = await rejectedBeforeSending('vendorDns', { resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords([{ subdomain: 'x', recordtype: 'A', value: '203.0.113.300' }]) });
		expect(error.message).toMatch(/Invalid "Value".*IPv4/);
		error = await rejectedBeforeSending('vendorAccountBilling', { resource: 'account', operation: 'updateMail', mail: 'nobody' });
		expect(error.message).toMatch(/Invalid "E-Mail"/);
		error = await rejectedBeforeSending('vendorCdn', { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://a.example.com/x', additionalFields: { partition: '||' } });
		expect(error.message).toMatch(/at most one character/);
		error = await rejectedBeforeSending('vendorDiskNetworkFirewall', { resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'x', value: 25 });
		expect(error.message).toMatch(/multiple of 10/);
		// a line code outside 1-6 is refused by the node, whether typed By Code or given by an expression
		const host = { resource: 'host', operation: 'create', name: 'x', nodeid: v.byId(1), cpuid: v.byId(1), memid: v.byId(1), imageid: v.byId(2), type: 1, pass: 'Secret123x' };
		error = await rejectedBeforeSending('vendorCloudHost', { ...host, networkid: v.byId(9) });
		expect(error.message).toBe('The "Line" field must be a line code, not "9"');
		error = await rejectedBeforeSending('vendorCloudHost', { ...host, networkid: { __rl: true, mode: 'list', value: '={{ "101" }}' } });
		expect(error.message).toBe('The "Line" field must be a line code, not "101"');
	});
});

describe('instance/create networkid is the line code (linetype), not the row id', () => {
	const createParams = (networkid) => ({
		resource: 'host',
		operation: 'create',
		name: 'lined',
		nodeid: v.byId(1),
		cpuid: v.byId(1),
		memid: v.byId(1),
		imageid: v.byId(2),
		networkid,
		networkvalue: 2,
		type: 1,
		pass: 'Secret123x',
	});
	const fromList = (value) => ({ __rl: true, mode: 'list', value: String(value) });
	const lines = async () =>
		(await n8n.listSearch('vendorCloudHost', 'searchLines', { parameters: { resource: 'host', operation: 'create', nodeid: v.byId(1) }, credentials: creds() })).results;

	/** Rows of instance/networkResourceList rewritten as another vendor may send them. */
	async function withLineRows(rewrite, fn) {
		const route = v.emu.management.core.routes['instance/networkResourceList'];
		const original = route.handler;
		route.handler = async (rq) => {
			const out = await original(rq);
			return { ...out, result: out.result.map(rewrite) };
		};
		try {
			return await fn();
		} finally {
			route.handler = original;
		}
	}
	const CODE_OF = { 'inner network': 1, telecom: 2, unicom: 3, mobile: 4, bgp: 5, 'dual line': 6 };
	const codeOf = (linetype) => (/^\d+$/.test(String(linetype)) ? Number(linetype) : CODE_OF[String(linetype).toLowerCase()]);

	test('the From list of lines names each line in words and stands for its code', async () => {
		const results = await lines();
		const rows = (await v.api('instance/networkResourceList', { nodeid: 1 })).result;
		expect(results.map((r) => r.value)).toEqual(rows.map((r) => String(codeOf(r.linetype))));
		expect(results.map((r) => r.name)).toEqual(['Inner Network (North Zone 1)', 'Telecom (North Zone 1)', 'Unicom (North Zone 1)', 'BGP (North Zone 1)']);
	});

	test('row ids that are not line codes (101, 102, ...), linetype the code: the code is sent', async () => {
		await withLineRows(
			(r, i) => ({ ...r, id: String(101 + i), linetype: String(codeOf(r.linetype)) }),
			async () => {
				const results = await lines();
				expect(results.map((r) => [r.name, r.value])).toEqual([
					['Inner Network (North Zone 1)', '1'],
					['Telecom (North Zone 1)', '2'],
					['Unicom (North Zone 1)', '3'],
					['BGP (North Zone 1)', '5'],
				]);
				const bgp = results.find((r) => r.name.startsWith('BGP'));
				const [made] = await v.ok('vendorCloudHost', createParams(fromList(bgp.value)));
				expect(mgmt().instance.hosts[Number(made.id)].networkid).toBe(5);
			},
		);
	});

	test('linetype as a name: mapped to its code; By Code takes 1-6', async () => {
		await withLineRows(
			(r, i) => ({ ...r, id: String(201 + i), linetype: ['', 'Inner network', 'Telecom', 'Unicom', 'Mobile', 'BGP', 'Dual line'][codeOf(r.linetype)] }),
			async () => {
				expect((await lines()).map((r) => r.value)).toEqual(['1', '2', '3', '5']);
			},
		);
		const [made] = await v.ok('vendorCloudHost', createParams(v.byId(3)));
		expect(mgmt().instance.hosts[Number(made.id)].networkid).toBe(3);
	});
});

describe('DNS monitor notify is a notification method, addresses go in other_email', () => {
	test('the methods are the plans\' monitor_notice values', async () => {
		const options = await n8n.loadOptions('vendorDns', 'getNotifyMethodOptions', { parameters: { resource: 'monitor', operation: 'add', simplify: false }, credentials: creds() });
		expect(options.map((o) => o.value)).toEqual(expect.arrayContaining(['mail']));
		expect(options.find((o) => o.value === 'mail').name).toMatch(/^mail \(/);
		const notify = collectionOption('vendorDns', 'monitor', 'add', 'additionalFields', 'notify');
		expect(notify.description).toMatch(/Other E-Mails/);
	});

	test('monitor_notice as a JSON array, a JSON text or a comma list is read the same', async () => {
		const route = v.emu.management.core.routes['dns/planList'];
		const original = route.handler;
		const forms = [(l) => l, (l) => JSON.stringify(l), (l) => l.join(',')];
		try {
			for (const form of forms) {
				route.handler = async (rq) => {
					const out = await original(rq);
					const plans = v.emu.management.state.dns.plans;
					return { ...out, data: out.data.map((p) => ({ ...p, monitor_notice: form(plans.find((x) => String(x.id) === String(p.id)).monitor_notice) })) };
				};
				const options = await n8n.loadOptions('vendorDns', 'getNotifyMethodOptions', { parameters: { resource: 'monitor', operation: 'add', simplify: false }, credentials: creds() });
				expect(options.map((o) => o.value).sort()).toEqual(['mail', 'sms', 'wechat']);
			}
		} finally {
			route.handler = original;
		}
	});

	test('a monitor notifying by mail with addresses in Other E-Mails', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const [monitor] = await v.ok('vendorDns', {
			resource: 'monitor',
			operation: 'add',
			did: v.byId(domain.id),
			subdomain: 'mail',
			simplify: false,
			additionalFields: { notify: 'mail', otherEmail: 'ops@example.com,oncall@example.com' },
		});
		expect(lastSent('dns/monitorAdd')).toMatchObject({ notify: 'mail', other_email: 'ops@example.com,oncall@example.com' });
		expect(monitor).toMatchObject({ notify: 'mail', other_email: 'ops@example.com,oncall@example.com' });
	});
});

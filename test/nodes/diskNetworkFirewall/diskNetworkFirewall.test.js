'use strict';
/**
 * Vendor Disk, Network & Firewall node, run through n8n-core against the emulator: every
 * operation of the node's dropdowns, with the emulator's state checked after each change,
 * the dependent rule dropdown, pagination, and input rejected before any request is sent.
 */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorDiskNetworkFirewall';
let v;
let hostA; // data centre 1
let hostB; // data centre 1
let hostC; // data centre 2

/** Runs an operation with Simplify off unless set: these tests check the service's records (simplify.test.js the simplified ones). */
const run = (parameters) => v.ok(NODE, { simplify: false, ...parameters });
const fail = (parameters) => v.fails(NODE, parameters);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const hostOf = async (id) => (await v.api('instance/list', { id })).data[0];
const addHost = async (name, nodeid = 1) => (await v.control('POST', '/management/instance/hosts/add', { name, nodeid })).host;
const creds = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } });

/**
 * Calls a dropdown method as the editor does: the editor sends the node's current parameters
 * with the request (additionalData.currentNodeParameters), which dependent lists read.
 */
async function dropdown(kind, method, parameters = {}, filter) {
	const c = n8n.contextFor(NODE, parameters, creds());
	c.additionalData.currentNodeParameters = parameters;
	const ctx = new n8n.LoadOptionsContext(c.workflow, c.node, c.additionalData, 'parameters');
	return await c.nodeType.methods[kind][method].call(ctx, filter);
}

/** Runs the node and asserts it failed without sending anything to the service. */
async function rejectedBeforeSending(parameters) {
	const before = await requests();
	const error = await fail(parameters);
	expect(await requests()).toBe(before);
	return error;
}

beforeAll(async () => {
	v = await startVendor();
	hostA = await addHost('web-1');
	hostB = await addHost('web-2');
	hostC = await addHost('batch-1', 2);
});

afterAll(async () => {
	if (v) await v.close();
});

describe('cloud disks', () => {
	test('create → attach two at once → listed as bound → detach → delete', async () => {
		const [d1] = await run({
			resource: 'cloudDisk',
			operation: 'create',
			nodeid: v.byId(1),
			diskName: 'data-1',
			value: 20,
			additionalFields: { note: 'first data disk' },
		});
		expect(d1).toMatchObject({ disk_name: 'data-1', nodeid: '1', value: '20', note: 'first data disk' });
		const [d2] = await run({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'data-2', value: 2000 });
		expect(d2.value).toBe('2000');

		const [renamed] = await run({ resource: 'cloudDisk', operation: 'update', diskId: v.byId(d1.id), updateFields: { diskName: 'logs-1' } });
		expect(renamed).toMatchObject({ id: d1.id, disk_name: 'logs-1' });

		const usable = await run({ resource: 'cloudDisk', operation: 'getAll', returnAll: true, simplify: true, filters: { nodeid: '1', status: 1 } });
		expect(usable.map((d) => d.id).sort()).toEqual([d1.id, d2.id].sort());
		expect(usable[0]).not.toHaveProperty('createtime_ago'); // simplified
		expect(usable.find((d) => d.id === d2.id)).toMatchObject({ name: 'data-2', sizeGb: 2000, status: 'Usable', statusCode: '1', dataCentreId: '1' });

		const [bound] = await run({ resource: 'cloudDisk', operation: 'attach', diskIds: [d1.id, d2.id], iid: v.byId(hostA.id) });
		expect(bound.instance_id).toBe(hostA.instance_id);
		expect(bound.disk_name.split(',').sort()).toEqual(['data-2', 'logs-1']);

		const onHost = await run({ resource: 'cloudDisk', operation: 'getAll', returnAll: true, simplify: false, filters: { iid: String(hostA.id) } });
		expect(onHost).toHaveLength(2);
		for (const d of onHost) {
			expect(d.status).toBe('0');
			expect(d.instance).toMatchObject({ id: String(hostA.id), name: 'web-1' });
			expect(d).toHaveProperty('createtime_ago');
		}
		const boundFilter = await run({ resource: 'cloudDisk', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 0 } });
		expect(boundFilter.map((d) => d.id).sort()).toEqual([d1.id, d2.id].sort());

		const [detached] = await run({ resource: 'cloudDisk', operation: 'detach', diskId: v.byId(d1.id) });
		expect(detached).toMatchObject({ disk_name: 'logs-1', instance_id: hostA.instance_id });
		const after = (await v.api('instance/cloudDiskList', { iid: hostA.id })).data;
		expect(after.map((d) => d.id)).toEqual([d2.id]);

		const [deleted] = await run({ resource: 'cloudDisk', operation: 'delete', diskId: v.byId(d1.id) });
		expect(deleted).toMatchObject({ deleted: true, disk_name: 'logs-1' });
		const bin = (await v.api('instance/cloudDiskList', { status: 2 })).data;
		expect(bin.map((d) => d.id)).toEqual([d1.id]);

		// a bound disk cannot be deleted: the service's message reaches the user
		const error = await fail({ resource: 'cloudDisk', operation: 'delete', diskId: v.byId(d2.id) });
		expect(error.message).toMatch(/unbind it first$/);
		expect(error.description).toMatch(/instance\/cloudDiskDelete with code 0/);
		await run({ resource: 'cloudDisk', operation: 'detach', diskId: v.byId(d2.id) });
	});

	test('Detach on a service without instance/unbind (readings R60): its HTTP 404 once per run, then the path of the documents\' example, cloudDiskBind without the host', async () => {
		const disks = [];
		for (const name of ['r60-a', 'r60-b', 'r60-c']) {
			const [d] = await run({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: name, value: 10 });
			disks.push(d.id);
		}
		await run({ resource: 'cloudDisk', operation: 'attach', diskIds: disks, iid: v.byId(hostB.id) });
		await v.control('POST', '/dialects', { set: ['unbindOnBindPath'] });
		try {
			const seen = (await v.control('GET', '/requests')).requests.length;
			const unbinds = (await v.control('GET', '/stats')).management.requests['instance/unbind'] ?? 0;
			const { items, error } = await v.run(NODE, { resource: 'cloudDisk', operation: 'detach', simplify: false, diskId: { __rl: true, mode: 'id', value: '={{ $json.disk }}' } }, { input: disks.map((disk) => ({ disk })) });
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.disk_name)).toEqual(['r60-a', 'r60-b', 'r60-c']);
			// one instance/unbind (answered 404, so the log of handled requests has none), then every disk through cloudDiskBind with its id and no host
			expect((await v.control('GET', '/stats')).management.requests['instance/unbind'] - unbinds).toBe(1);
			const sent = (await v.control('GET', '/requests')).requests.slice(seen).filter((r) => r.path.startsWith('instance/'));
			expect(sent.map((r) => r.path)).toEqual(['instance/cloudDiskBind', 'instance/cloudDiskBind', 'instance/cloudDiskBind']);
			expect(sent.map((r) => Object.keys(r.body).sort())).toEqual([['id', 'token'], ['id', 'token'], ['id', 'token']]);
			expect(sent.map((r) => String(r.body.id)).sort()).toEqual([...disks].sort());
			const usable = (await v.api('instance/cloudDiskList', { status: 1 })).data.map((d) => d.id);
			expect(usable).toEqual(expect.arrayContaining(disks));
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
		// a service that has the endpoint: instance/unbind only
		await run({ resource: 'cloudDisk', operation: 'attach', diskIds: [disks[0]], iid: v.byId(hostB.id) });
		const seen = (await v.control('GET', '/requests')).requests.length;
		await run({ resource: 'cloudDisk', operation: 'detach', diskId: v.byId(disks[0]) });
		expect((await v.control('GET', '/requests')).requests.slice(seen).map((r) => r.path)).toEqual(['instance/unbind']);
	});

	test('a size that is not a multiple of 10 is rejected before sending; the range is the service\'s', async () => {
		const error = await rejectedBeforeSending({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'bad', value: 25 });
		expect(error.message).toMatch(/Size \(GB\)/);
		expect(error.message).toMatch(/25 is not a multiple of 10/);
		// the documents state "a multiple of 10" and no bounds (docs/vendor/readings.md#r3), so the node leaves them to the service, whose message reaches the user
		const zero = await fail({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'bad', value: 0 });
		expect(zero.message).toMatch(/^"Size \(GB\)" must be a multiple of 10 between 10 and 2000/);
		const tooBig = await fail({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'bad', value: 2010 });
		expect(tooBig.message).toBe('"Size (GB)" must be a multiple of 10 between 10 and 2000 (G)');
		expect(tooBig.description).toMatch(/instance\/cloudDiskAdd with code 0/);
		// a disk given by a name that no disk has: looked up, refused, nothing attached
		const binds = async () => (await v.control('GET', '/stats')).management.requests['instance/cloudDiskBind'] ?? 0;
		const bindsBefore = await binds();
		const notIds = await fail({ resource: 'cloudDisk', operation: 'attach', diskIds: '12,abc', iid: v.byId(hostA.id) });
		expect(notIds.message).toMatch(/^No cloud disk is called "abc"/);
		expect(await binds()).toBe(bindsBefore);
	});
});

describe('private networks', () => {
	test('create, update, join (visible on the host), leave, delete', async () => {
		const [net] = await run({ resource: 'network', operation: 'create', nodeid: v.byId(1), name: 'backend', additionalFields: { note: 'web to db' } });
		expect(net).toMatchObject({ name: 'backend', nodeid: '1', note: 'web to db' });
		expect(net.vxnet_id).toBeTruthy();

		const [updated] = await run({ resource: 'network', operation: 'update', networkId: v.byId(net.id), updateFields: { name: 'backend-2', note: 'web to database' } });
		expect(updated).toMatchObject({ id: net.id, name: 'backend-2', note: 'web to database' });

		const [joined] = await run({ resource: 'network', operation: 'join', networkId: v.byId(net.id), iid: v.byId(hostA.id) });
		expect(joined).toEqual({ vxnet_id: net.vxnet_id, instance_id: hostA.instance_id });
		expect((await hostOf(hostA.id)).net).toEqual({ id: net.id, vxnet_id: net.vxnet_id });

		const listed = await run({ resource: 'network', operation: 'getAll', returnAll: true, simplify: true, filters: { id: Number(net.id) } });
		expect(listed).toHaveLength(1);
		expect(listed[0]).toMatchObject({ id: net.id, name: 'backend-2', count: 1, networkId: net.vxnet_id });
		// `num` and `username` under the documentation's names, without a meaning it does not give
		expect(listed[0]).not.toHaveProperty('hosts');
		expect(listed[0]).not.toHaveProperty('owner');
		expect(listed[0]).toHaveProperty('username');

		// a host in another data centre cannot join: the service says so
		const error = await fail({ resource: 'network', operation: 'join', networkId: v.byId(net.id), iid: v.byId(hostC.id) });
		expect(error.message).toMatch(/another data centre/);

		const [left] = await run({ resource: 'network', operation: 'leave', iid: v.byId(hostA.id) });
		expect(left).toEqual({ vxnet_id: net.vxnet_id, instance_id: hostA.instance_id });
		expect((await hostOf(hostA.id)).net).toBeNull();

		const [deleted] = await run({ resource: 'network', operation: 'delete', networkId: v.byId(net.id) });
		expect(deleted).toEqual({ deleted: true, vxnet_id: net.vxnet_id });
		expect((await v.api('instance/networkList', { id: Number(net.id) })).data).toEqual([]);
	});
});

describe('firewalls and rules', () => {
	let fw;

	test('create, update, join (visible on the host), leave, delete', async () => {
		[fw] = await run({ resource: 'firewall', operation: 'create', nodeid: v.byId(1), name: 'web-sg', additionalFields: { note: 'web servers' } });
		expect(fw).toMatchObject({ name: 'web-sg', nodeid: '1', note: 'web servers' });

		const [updated] = await run({ resource: 'firewall', operation: 'update', fid: v.byId(fw.id), updateFields: { note: 'public web servers' } });
		expect(updated).toMatchObject({ id: fw.id, name: 'web-sg', note: 'public web servers' });

		const [joined] = await run({ resource: 'firewall', operation: 'join', fid: v.byId(fw.id), iid: v.byId(hostB.id) });
		expect(joined).toEqual({ firewall_id: fw.firewall_id, name: 'web-sg', instance_id: hostB.instance_id });
		expect((await hostOf(hostB.id)).firewall).toEqual({ id: fw.id, firewall_id: fw.firewall_id });

		const listed = await run({ resource: 'firewall', operation: 'getAll', simplify: false, returnAll: false, limit: 10, filters: { nodeid: '1' } });
		expect(listed.map((f) => f.id)).toContain(fw.id);
		expect(listed.find((f) => f.id === fw.id)).toMatchObject({ num: '1', note: 'public web servers' });

		const [left] = await run({ resource: 'firewall', operation: 'leave', iid: v.byId(hostB.id) });
		expect(left).toEqual({ firewall_id: fw.firewall_id, name: 'web-sg', instance_id: hostB.instance_id });
		expect((await hostOf(hostB.id)).firewall).toBeNull();

		const [other] = await run({ resource: 'firewall', operation: 'create', nodeid: v.byId(2), name: 'scratch' });
		const [deleted] = await run({ resource: 'firewall', operation: 'delete', fid: v.byId(other.id) });
		expect(deleted).toEqual({ deleted: true, firewall_id: other.firewall_id, name: 'scratch' });
		expect((await v.api('instance/firewallList', { id: Number(other.id) })).data).toEqual([]);
	});

	test('rules: add with seq, list by firewall, update, delete; the rule dropdown depends on the firewall', async () => {
		const [ssh] = await run({
			resource: 'firewallRule',
			operation: 'add',
			fid: v.byId(fw.id),
			direction: 'in',
			ruleAction: 'ACCEPT',
			protocol: 'tcp',
			destport: '22',
			source: '0.0.0.0/0',
			status: 1,
			additionalFields: { sourceport: 1024, destination: '10.0.0.0/8', note: 'SSH' },
		});
		expect(ssh).toMatchObject({
			seq: '1',
			firewall_id: fw.firewall_id,
			direction: 'in',
			action: 'ACCEPT',
			protocol: 'tcp',
			sourceport: '1024',
			destport: '22',
			source: '0.0.0.0/0',
			destination: '10.0.0.0/8',
			status: '1',
			note: 'SSH',
		});
		// ICMP: the destination port is hidden and not sent even when a stale value is left
		const [ping] = await run({ resource: 'firewallRule', operation: 'add', fid: v.byId(fw.id), direction: 'out', ruleAction: 'REJECT', protocol: 'icmp', destport: '80', source: '' });
		expect(ping).toMatchObject({ seq: '2', direction: 'out', action: 'REJECT', protocol: 'icmp', destport: '' });
		const [web] = await run({ resource: 'firewallRule', operation: 'add', fid: v.byId(fw.id), destport: '80,443,8000-8080', status: 0 });
		expect(web).toMatchObject({ seq: '3', direction: 'in', action: 'ACCEPT', protocol: 'tcp', destport: '80,443,8000-8080', status: '0' });

		const inbound = await run({ resource: 'firewallRule', operation: 'getAll', simplify: false, fid: v.byId(fw.id), returnAll: true, filters: { direction: 'in' } });
		expect(inbound.map((r) => r.seq)).toEqual(['1', '3']);
		const disabled = await run({ resource: 'firewallRule', operation: 'getAll', simplify: false, fid: v.byId(fw.id), returnAll: true, filters: { status: 0 } });
		expect(disabled.map((r) => r.id)).toEqual([web.id]);

		// the Rule dropdown lists the rules of the firewall chosen in `fid`
		const [otherFw] = await run({ resource: 'firewall', operation: 'create', nodeid: v.byId(1), name: 'other-sg' });
		await run({ resource: 'firewallRule', operation: 'add', fid: v.byId(otherFw.id), destport: '3306' });
		const ruleParams = (fid) => ({ resource: 'firewallRule', operation: 'update', fid: v.byId(fid), ruleId: { __rl: true, mode: 'list', value: '' } });
		const search = await dropdown('listSearch', 'searchFirewallRules', ruleParams(fw.id));
		expect(search.results.map((r) => r.value)).toEqual([ssh.id, ping.id, web.id]);
		expect(search.results[0].name).toBe(`in ACCEPT tcp 22 (#${ssh.id})`);
		const other = await dropdown('loadOptions', 'getFirewallRuleOptions', ruleParams(otherFw.id));
		expect(other.map((o) => o.name)).toEqual([expect.stringMatching(/^in ACCEPT tcp 3306 /)]);

		const [changed] = await run({
			resource: 'firewallRule',
			operation: 'update',
			fid: v.byId(fw.id),
			ruleId: v.byId(web.id),
			updateFields: { ruleAction: 'REJECT', destport: '8443', status: 1, source: '192.0.2.0/24' },
		});
		expect(changed).toMatchObject({ id: web.id, seq: '3', firewall_id: fw.firewall_id, action: 'REJECT', destport: '8443', status: '1', source: '192.0.2.0/24', protocol: 'tcp' });

		const [gone] = await run({ resource: 'firewallRule', operation: 'delete', fid: v.byId(fw.id), ruleId: v.byId(ping.id) });
		expect(gone).toMatchObject({ deleted: true, id: ping.id, seq: '2', firewall_id: fw.firewall_id });
		const left = (await v.api('instance/firewallRuleList', { fid: Number(fw.id) })).data;
		expect(left.map((r) => r.seq)).toEqual(['1', '3']);

		// the firewall is optional when the rule is given by ID
		await run({ resource: 'firewallRule', operation: 'delete', ruleId: v.byId(ssh.id) });
		expect((await v.api('instance/firewallRuleList', { fid: Number(fw.id) })).data.map((r) => r.id)).toEqual([web.id]);

		const [deleted] = await run({ resource: 'firewall', operation: 'delete', fid: v.byId(fw.id) });
		expect(deleted.deleted).toBe(true);
		expect((await v.api('instance/firewallRuleList', { id: Number(web.id) })).data).toEqual([]);
	});

	test('bad addresses and source ports are rejected before sending, naming the field; destination port forms and protocols are the service\'s', async () => {
		const [sg] = await run({ resource: 'firewall', operation: 'create', nodeid: v.byId(1), name: 'check-sg' });
		const base = { resource: 'firewallRule', operation: 'add', fid: v.byId(sg.id) };
		const source = await rejectedBeforeSending({ ...base, destport: '22', source: '10.0.0.300' });
		expect(source.message).toMatch(/"Source"/);
		expect(source.message).toMatch(/10\.0\.0\.300/);
		const cidr = await rejectedBeforeSending({ ...base, additionalFields: { destination: '10.0.0.0/33' } });
		expect(cidr.message).toMatch(/Destination/);
		const sport = await rejectedBeforeSending({ ...base, additionalFields: { sourceport: 0 } });
		expect(sport.message).toMatch(/Source Port/);
		// destport is a string and protocols are examples ("for example tcp, udp", docs/vendor/readings.md#r6): the service decides
		const refused = async (parameters, path) => {
			const before = await requests();
			const error = await fail(parameters);
			expect(await requests()).toBe(before + 1);
			expect(error.description).toContain(`${path} with code `);
			return error;
		};
		expect((await refused({ ...base, destport: '70000' }, 'instance/firewallRuleAdd')).message).toMatch(/^"Destination Port"/);
		expect((await refused({ ...base, destport: '2000-1000' }, 'instance/firewallRuleAdd')).message).toMatch(/^"Destination Port"/);
		expect((await refused({ ...base, protocol: 'gre' }, 'instance/firewallRuleAdd')).message).toMatch(/^"Protocol"/);
		const [rule] = await run({ ...base, destport: '22' });
		expect((await refused({ resource: 'firewallRule', operation: 'update', ruleId: v.byId(rule.id), updateFields: { destport: '70000' } }, 'instance/firewallRuleUpdate')).message).toMatch(/^"Destination Port"/);
		expect((await v.api('instance/firewallRuleList', { fid: Number(sg.id) })).data.map((r) => r.destport)).toEqual(['22']);
	});
});

describe('lists', () => {
	test('Return All reads every page (3+), Limit stops early; dropdowns search', async () => {
		const existing = (await v.api('instance/networkList', {})).total;
		const names = Array.from({ length: 230 }, (_, i) => `net-${String(i).padStart(3, '0')}`);
		for (let i = 0; i < names.length; i += 25) {
			await Promise.all(names.slice(i, i + 25).map((name) => v.api('instance/networkAdd', { nodeid: 1, name })));
		}
		const total = Number(existing) + names.length;

		let before = await requests();
		const all = await run({ resource: 'network', operation: 'getAll', simplify: false, returnAll: true });
		expect(await requests()).toBe(before + Math.ceil(total / 100));
		expect(Math.ceil(total / 100)).toBeGreaterThanOrEqual(3);
		expect(all).toHaveLength(total);
		expect(new Set(all.map((n) => n.id)).size).toBe(total);
		expect(all.filter((n) => n.name.startsWith('net-'))).toHaveLength(230);
		// page order is kept: the service lists newest first
		const ids = all.map((n) => Number(n.id));
		expect([...ids].sort((a, b) => b - a)).toEqual(ids);

		before = await requests();
		const five = await run({ resource: 'network', operation: 'getAll', simplify: false, returnAll: false, limit: 5 });
		expect(five).toHaveLength(5);
		expect(five.map((n) => n.id)).toEqual(all.slice(0, 5).map((n) => n.id));
		expect(await requests()).toBe(before + 1);

		const found = await n8n.listSearch(NODE, 'searchNetworks', { credentials: creds(), filter: 'net-229' });
		expect(found.results.map((r) => r.name)).toEqual([expect.stringMatching(/^net-229 \(vxnet-/)]);
		const firstPage = await n8n.listSearch(NODE, 'searchNetworks', { credentials: creds() });
		expect(firstPage.results).toHaveLength(100);
		expect(firstPage.paginationToken).toBe('2');

		const centres = await n8n.listSearch(NODE, 'searchDataCentres', { credentials: creds() });
		expect(centres.results.map((r) => r.value)).toEqual(['1', '2', '3', '4']);
		const hosts = await n8n.loadOptions(NODE, 'getHostOptions', { credentials: creds() });
		expect(hosts.map((h) => h.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^web-1 /), expect.stringMatching(/^batch-1 /)]));
	});
});

/**
 * The actions with Simplify on (the default): what each answers reads like a listed disk, network,
 * firewall or rule (issue 28, point 5: every output a user sees by default is simplified the same
 * way): words next to codes, ISO times in the workflow's time zone, English camelCase names only.
 */
describe('simplified answers of the actions', () => {
	let host;
	beforeAll(async () => {
		host = await addHost('simple-web');
	});

	const SIMPLE_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

	/** Runs an action with Simplify on (the default); every key is an English camelCase name and every time ISO 8601. */
	async function simple(parameters) {
		const items = await v.ok(NODE, parameters);
		expect(items).toHaveLength(1);
		const [r] = items;
		expect(Object.keys(r).filter((k) => !/^[a-z][A-Za-z]*$/.test(k) || /^(createtime|updatetime|nodeid|fid|destport|sourceport|vxnet_id)$/.test(k))).toEqual([]);
		for (const k of ['created', 'updated']) if (k in r) expect(r[k]).toMatch(SIMPLE_ISO);
		return r;
	}

	test('firewalls and their rules: created, changed, joined, left and deleted', async () => {
		const fw = await simple({ resource: 'firewall', operation: 'create', nodeid: v.byId(1), name: 'simple-sg', additionalFields: { note: 'web' } });
		expect(fw).toEqual({ id: expect.any(String), firewallId: expect.any(String), name: 'simple-sg', dataCentreId: '1', note: 'web', created: expect.stringMatching(SIMPLE_ISO) });
		expect(await simple({ resource: 'firewall', operation: 'update', fid: v.byId(fw.id), updateFields: { note: 'public web' } })).toMatchObject({ id: fw.id, name: 'simple-sg', note: 'public web' });

		const rule = await simple({ resource: 'firewallRule', operation: 'add', fid: v.byId(fw.id), direction: 'out', ruleAction: 'REJECT', protocol: 'udp', destport: '53', status: 0 });
		expect(rule).toMatchObject({ firewall: fw.id, firewallId: fw.firewallId, direction: 'Outbound', directionCode: 'out', action: 'Reject', actionCode: 'REJECT', protocol: 'udp', destinationPort: '53', status: 'Disabled', statusCode: '0' });
		const ruleId = { __rl: true, mode: 'id', value: rule.id };
		const changed = await simple({ resource: 'firewallRule', operation: 'update', fid: v.byId(fw.id), ruleId, updateFields: { status: 1 } });
		expect(changed).toMatchObject({ id: rule.id, firewall: fw.id, firewallId: fw.firewallId, status: 'Enabled', statusCode: '1', created: expect.stringMatching(SIMPLE_ISO), updated: expect.stringMatching(SIMPLE_ISO) });
		const [rawRule] = await v.ok(NODE, { resource: 'firewallRule', operation: 'update', fid: v.byId(fw.id), ruleId, updateFields: { note: 'dns' }, simplify: false });
		expect(rawRule).toMatchObject({ status: '1', fid: fw.id, createtime: expect.not.stringMatching(SIMPLE_ISO) });
		expect(await simple({ resource: 'firewallRule', operation: 'delete', fid: v.byId(fw.id), ruleId })).toMatchObject({ deleted: true, id: rule.id, status: 'Enabled', statusCode: '1' });

		expect(await simple({ resource: 'firewall', operation: 'join', fid: v.byId(fw.id), iid: v.byId(host.id) })).toEqual({ firewallId: fw.firewallId, name: 'simple-sg', hostInstanceId: host.instance_id });
		expect(await simple({ resource: 'firewall', operation: 'leave', iid: v.byId(host.id) })).toEqual({ firewallId: fw.firewallId, name: 'simple-sg', hostInstanceId: host.instance_id });
		expect(await simple({ resource: 'firewall', operation: 'delete', fid: v.byId(fw.id) })).toEqual({ deleted: true, firewallId: fw.firewallId, name: 'simple-sg' });
	});

	test('private networks: created, changed, joined, left and deleted', async () => {
		const net = await simple({ resource: 'network', operation: 'create', nodeid: v.byId(1), name: 'simple-net' });
		expect(net).toMatchObject({ id: expect.any(String), networkId: expect.any(String), name: 'simple-net', dataCentreId: '1', created: expect.stringMatching(SIMPLE_ISO) });
		const [raw] = await v.ok(NODE, { resource: 'network', operation: 'update', networkId: v.byId(net.id), updateFields: { note: 'db' }, simplify: false });
		expect(raw).toMatchObject({ vxnet_id: net.networkId, nodeid: '1', createtime: expect.not.stringMatching(SIMPLE_ISO) });
		expect(await simple({ resource: 'network', operation: 'join', networkId: v.byId(net.id), iid: v.byId(host.id) })).toEqual({ networkId: net.networkId, hostInstanceId: host.instance_id });
		expect(await simple({ resource: 'network', operation: 'leave', iid: v.byId(host.id) })).toEqual({ networkId: net.networkId, hostInstanceId: host.instance_id });
		expect(await simple({ resource: 'network', operation: 'delete', networkId: v.byId(net.id) })).toEqual({ deleted: true, networkId: net.networkId });
	});

	test('cloud disks: created, renamed, attached, detached and deleted', async () => {
		const disk = await simple({ resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'simple-data', value: 20 });
		expect(disk).toEqual({ id: expect.any(String), name: 'simple-data', sizeGb: 20, dataCentreId: '1', note: '' });
		expect(await simple({ resource: 'cloudDisk', operation: 'update', diskId: v.byId(disk.id), updateFields: { diskName: 'simple-logs' } })).toEqual({ id: disk.id, name: 'simple-logs', note: '' });
		const attached = await simple({ resource: 'cloudDisk', operation: 'attach', diskIds: [disk.id], iid: v.byId(host.id) });
		expect(attached).toEqual({ diskId: expect.any(String), name: 'simple-logs', host: 'simple-web', hostInstanceId: host.instance_id });
		expect(await simple({ resource: 'cloudDisk', operation: 'detach', diskId: v.byId(disk.id) })).toEqual(attached);
		const deleted = await simple({ resource: 'cloudDisk', operation: 'delete', diskId: v.byId(disk.id) });
		expect(deleted).toMatchObject({ deleted: true, diskId: attached.diskId, name: 'simple-logs' });
		const [raw] = await v.ok(NODE, { resource: 'cloudDisk', operation: 'create', nodeid: v.byId(1), diskName: 'raw-data', value: 10, simplify: false });
		expect(raw).toEqual({ id: expect.any(String), disk_name: 'raw-data', nodeid: '1', note: '', value: '10' });
	});
});

'use strict';
/**
 * Things chosen by what a person or a model says (issues 11 and 18): a host given by name,
 * instance ID or IP address is looked up before anything is changed; an unknown or ambiguous
 * name is refused with the candidates named, and nothing is sent to the changing endpoint.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
let v;
let hosts;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	hosts = (await v.api('instance/list', { page: 1, limit: 100 })).data;
});
afterAll(() => v.close());

const host = (name) => hosts.find((h) => h.name === name);
const stats = async () => (await v.control('GET', '/stats')).management.requests;
const byName = (value) => ({ __rl: true, mode: 'name', value });

describe('a host named the way people name it', () => {
	test.each([
		['its name', (h) => h.name],
		['its name in other case', (h) => h.name.toUpperCase()],
		['its instance ID', (h) => h.instance_id],
		['its public IP address', (h) => h.ips[0]],
	])('Reboot with the host given by %s reboots that host', async (_what, pick) => {
		const web = host('web-1');
		const before = (await stats())['instance/update'] ?? 0;
		const [item] = await v.ok(NODE, { resource: 'host', operation: 'reboot', id: pick(web) });
		expect((await stats())['instance/update'] - before).toBe(1);
		expect(String(item.instanceId)).toBe(String(web.instance_id));
	});

	test('several hosts by name in one field (as a model passes them), resolved with one listing', async () => {
		const before = await stats();
		const [item] = await v.ok(NODE, { resource: 'host', operation: 'reboot', id: 'web-1, db-1' });
		const after = await stats();
		expect(after['instance/update'] - (before['instance/update'] ?? 0)).toBe(1);
		expect(after['instance/list'] - (before['instance/list'] ?? 0)).toBe(1);
		expect(String(item.instanceId).split(',').sort()).toEqual([host('web-1').instance_id, host('db-1').instance_id].map(String).sort());
	});

	test('a resource locator "By Name" (Reinstall, Get Console) takes a name too', async () => {
		const [console] = await v.ok(NODE, { resource: 'host', operation: 'getConsole', id: byName('web-1') });
		expect(console.hostId).toBe(String(host('web-1').id));
	});

	test('many items naming hosts: one listing per run, not one per item', async () => {
		const before = await stats();
		const names = ['web-1', 'db-1', 'web-1', 'db-1', 'web-1', 'db-1'];
		const { items, error } = await v.run(NODE, { resource: 'host', operation: 'getConsole', id: byName('={{ $json.host }}') }, { input: names.map((h) => ({ host: h })) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(6);
		expect((await stats())['instance/list'] - (before['instance/list'] ?? 0)).toBe(1);
	});

	test('an unknown name is refused with the hosts named, before anything is changed', async () => {
		const before = (await stats())['instance/update'] ?? 0;
		const error = await v.fails(NODE, { resource: 'host', operation: 'reboot', id: 'web-2' });
		expect(error.message).toMatch(/^No host is called "web-2" \(checked: a name, an instance ID or an IP address\); hosts: /);
		for (const h of hosts) expect(error.message).toContain(`${h.name}`);
		expect(error.context.itemIndex).toBe(0);
		expect((await stats())['instance/update'] ?? 0).toBe(before);
	});

	test('an ambiguous name is refused with the candidates and their IDs', async () => {
		await v.control('POST', '/management/instance/hosts/add', { name: 'twin', status: 1, nodeid: 1 });
		await v.control('POST', '/management/instance/hosts/add', { name: 'twin', status: 1, nodeid: 2 });
		const error = await v.fails(NODE, { resource: 'host', operation: 'reboot', id: 'twin' });
		expect(error.message).toMatch(/^2 hosts match "twin": twin .*\(ID \d+\), twin .*\(ID \d+\); give the ID of the one meant in "Hosts"$/);
	});

	test('numeric IDs are sent as they are, without a listing', async () => {
		const before = await stats();
		await v.ok(NODE, { resource: 'host', operation: 'reboot', id: String(host('web-1').id) });
		expect(((await stats())['instance/list'] ?? 0) - (before['instance/list'] ?? 0)).toBe(0);
	});
});

describe('other resources chosen by name', () => {
	test('a DNS domain by its name lists its records', async () => {
		const domain = (await v.api('dns/domainList', { page: 1, limit: 1 })).data[0];
		const records = await v.ok('vendorDns', { resource: 'record', operation: 'getAll', simplify: false, did: byName(domain.name), returnAll: true });
		expect(records.length).toBeGreaterThan(0);
	});

	test('a cloud disk by its name', async () => {
		const [disk] = await v.ok('vendorDiskNetworkFirewall', { resource: 'cloudDisk', operation: 'update', diskId: byName('db-data'), updateFields: { note: 'renamed by name' } });
		expect(disk.note).toBe('renamed by name');
	});
});

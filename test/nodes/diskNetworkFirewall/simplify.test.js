'use strict';
/**
 * The actions of Vendor Disk, Network & Firewall with Simplify on (the default): what each answers
 * reads like a listed disk, network, firewall or rule (issue 28, point 5: every output a user sees
 * by default is simplified the same way): words next to codes, ISO times in the workflow's time
 * zone, English camelCase names only; Simplify off gives the service's record. Through n8n-core
 * against the emulator.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorDiskNetworkFirewall';
let v;
let host;

beforeAll(async () => {
	v = await startVendor();
	host = (await v.control('POST', '/management/instance/hosts/add', { name: 'simple-web', nodeid: 1 })).host;
});
afterAll(() => v.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

/** Runs an action with Simplify on (the default); every key is an English camelCase name and every time ISO 8601. */
async function simple(parameters) {
	const items = await v.ok(NODE, parameters);
	expect(items).toHaveLength(1);
	const [r] = items;
	expect(Object.keys(r).filter((k) => !/^[a-z][A-Za-z]*$/.test(k) || /^(createtime|updatetime|nodeid|fid|destport|sourceport|vxnet_id)$/.test(k))).toEqual([]);
	for (const k of ['created', 'updated']) if (k in r) expect(r[k]).toMatch(ISO);
	return r;
}

test('firewalls and their rules: created, changed, joined, left and deleted', async () => {
	const fw = await simple({ resource: 'firewall', operation: 'create', nodeid: v.byId(1), name: 'simple-sg', additionalFields: { note: 'web' } });
	expect(fw).toEqual({ id: expect.any(String), firewallId: expect.any(String), name: 'simple-sg', dataCentreId: '1', note: 'web', created: expect.stringMatching(ISO) });
	expect(await simple({ resource: 'firewall', operation: 'update', fid: v.byId(fw.id), updateFields: { note: 'public web' } })).toMatchObject({ id: fw.id, name: 'simple-sg', note: 'public web' });

	const rule = await simple({ resource: 'firewallRule', operation: 'add', fid: v.byId(fw.id), direction: 'out', ruleAction: 'REJECT', protocol: 'udp', destport: '53', status: 0 });
	expect(rule).toMatchObject({ firewallId: fw.id, direction: 'Outbound', directionCode: 'out', action: 'Reject', actionCode: 'REJECT', protocol: 'udp', destinationPort: '53', status: 'Disabled', statusCode: '0' });
	const ruleId = { __rl: true, mode: 'id', value: rule.id };
	const changed = await simple({ resource: 'firewallRule', operation: 'update', fid: v.byId(fw.id), ruleId, updateFields: { status: 1 } });
	expect(changed).toMatchObject({ id: rule.id, firewallId: fw.id, status: 'Enabled', statusCode: '1', created: expect.stringMatching(ISO), updated: expect.stringMatching(ISO) });
	const [rawRule] = await v.ok(NODE, { resource: 'firewallRule', operation: 'update', fid: v.byId(fw.id), ruleId, updateFields: { note: 'dns' }, simplify: false });
	expect(rawRule).toMatchObject({ status: '1', fid: fw.id, createtime: expect.not.stringMatching(ISO) });
	expect(await simple({ resource: 'firewallRule', operation: 'delete', fid: v.byId(fw.id), ruleId })).toMatchObject({ deleted: true, id: rule.id, status: 'Enabled', statusCode: '1' });

	expect(await simple({ resource: 'firewall', operation: 'join', fid: v.byId(fw.id), iid: v.byId(host.id) })).toEqual({ firewallId: fw.firewallId, name: 'simple-sg', hostInstanceId: host.instance_id });
	expect(await simple({ resource: 'firewall', operation: 'leave', iid: v.byId(host.id) })).toEqual({ firewallId: fw.firewallId, name: 'simple-sg', hostInstanceId: host.instance_id });
	expect(await simple({ resource: 'firewall', operation: 'delete', fid: v.byId(fw.id) })).toEqual({ deleted: true, firewallId: fw.firewallId, name: 'simple-sg' });
});

test('private networks: created, changed, joined, left and deleted', async () => {
	const net = await simple({ resource: 'network', operation: 'create', nodeid: v.byId(1), name: 'simple-net' });
	expect(net).toMatchObject({ id: expect.any(String), networkId: expect.any(String), name: 'simple-net', dataCentreId: '1', created: expect.stringMatching(ISO) });
	const [raw] = await v.ok(NODE, { resource: 'network', operation: 'update', networkId: v.byId(net.id), updateFields: { note: 'db' }, simplify: false });
	expect(raw).toMatchObject({ vxnet_id: net.networkId, nodeid: '1', createtime: expect.not.stringMatching(ISO) });
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

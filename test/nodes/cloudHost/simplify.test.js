'use strict';
/**
 * Host actions with Simplify on (the default): the answer reads like a listed host (issue 28:
 * Reboot gave the raw host record, `paytype: "2"`, `node_zh`, `createtime` as text). Through
 * n8n-core against the emulator.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
let v;

beforeAll(async () => {
	v = await startVendor({ management: { timing: { taskDelayMs: 100, hostCreateMs: 150, hostReinstallMs: 150, backupMs: 250 } } });
});
afterAll(() => v.close());

const run = (parameters) => v.ok(NODE, parameters);
/** API field names a simplified record never has. */
const RAW = /_|^(paytype|createtime|nodeid|nodename|instanceid|mark|networkvalue|diskvalue|innerip|mem|cpu)$/;

async function addHost(extra = {}) {
	const r = await v.control('POST', '/management/instance/hosts/add', { name: 'simple-1', nodeid: 1, status: 1, paytype: 2, ...extra });
	return String(r.host.id);
}

test('reboot, start and stop with Wait Until Running or without: simplified host records, words for codes, ISO times', async () => {
	const id = await addHost();
	const [waited] = await run({ resource: 'host', operation: 'reboot', id: [id], waitUntilRunning: true });
	expect(waited).toMatchObject({ id, name: 'simple-1', status: 'Running', statusCode: '1', billing: expect.any(String), billingCode: '2', dataCentre: expect.any(String), dataCentreId: '1' });
	expect(waited.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
	expect(waited.wait).toMatchObject({ operation: 'reboot', before: 'Running' });
	expect(Object.keys(waited).filter((k) => RAW.test(k))).toEqual([]);

	const [stopped] = await run({ resource: 'host', operation: 'stop', id: [id] });
	expect(stopped).toEqual({ instanceId: expect.stringMatching(/^ins-/), name: 'simple-1', status: 'Paused', statusCode: '2' });
	const [started] = await run({ resource: 'host', operation: 'start', id: [id] });
	expect(started).toMatchObject({ name: 'simple-1', status: 'Running', statusCode: '1' });

	// Simplify off: the service's record, as before
	const [raw] = await run({ resource: 'host', operation: 'reboot', id: [id], waitUntilRunning: true, simplify: false });
	expect(raw).toMatchObject({ paytype: '2', node_zh: expect.any(String), createtime: expect.any(String) });
});

test('rename and star: the simplified names', async () => {
	const id = await addHost({ name: 'simple-2' });
	const [renamed] = await run({ resource: 'host', operation: 'update', id: v.byId(id), updateFields: { name: 'simple-2b', note: 'db' } });
	expect(renamed).toEqual({ instanceId: expect.stringMatching(/^ins-/), name: 'simple-2b', note: 'db' });
	const [starred] = await run({ resource: 'host', operation: 'star', id: v.byId(id), mark: true });
	expect(starred).toEqual({ instanceId: expect.stringMatching(/^ins-/), name: 'simple-2b', starred: true });
});

/** A completed backup and a snapshot of a new host, made through the API. */
async function copiesOf(id) {
	await v.api('instance/backupAdd', { iid: id, name: 'nightly', backup_type: 1 });
	await v.api('instance/snapshotAdd', { iid: id, name: 'before-upgrade' });
	await v.control('POST', '/management/instance/settle');
	const [backup] = (await v.api('instance/backupList', { iid: id })).data;
	const [snapshot] = (await v.api('instance/snapshotList', { iid: id })).data;
	return { backup, snapshot };
}
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

describe('Backup > Restore and Snapshot > Roll Back: simplified like the other host actions', () => {
	afterEach(() => v.control('POST', '/dialects', { set: [] }));

	test('with Wait Until Running: the host as listed, words next to codes, an ISO time, no raw field; Simplify off: the raw record', async () => {
		const id = await addHost({ name: 'simple-3' });
		const { backup, snapshot } = await copiesOf(id);
		for (const [resource, operation, copy] of [
			['backup', 'restore', backup],
			['snapshot', 'rollback', snapshot],
		]) {
			const [host] = await run({ resource, operation, id: v.byId(copy.id), waitUntilRunning: true, waitTimeout: 20 });
			expect(host).toMatchObject({ id, name: 'simple-3', status: 'Running', statusCode: '1', billing: 'Monthly', billingCode: '2', dataCentre: expect.any(String), dataCentreId: '1' });
			expect(host.created).toMatch(ISO);
			expect(host.wait).toMatchObject({ for: 'running', operation: 'reinstall' }); // proven or not, by how soon the first read came
			expect(Object.keys(host).filter((k) => RAW.test(k))).toEqual([]);
			await v.control('POST', '/management/instance/settle');

			const [raw] = await run({ resource, operation, id: v.byId(copy.id), waitUntilRunning: true, waitTimeout: 20, simplify: false });
			expect(raw).toMatchObject({ id, paytype: '2', node_zh: expect.any(String), createtime: expect.not.stringMatching(ISO) });
			await v.control('POST', '/management/instance/settle');
		}
	});

	test('without the wait: the answer under the names of the backup and snapshot lists; an id that may be the backup\'s is never shown as the host\'s', async () => {
		const id = await addHost({ name: 'simple-4' });
		const { backup, snapshot } = await copiesOf(id);
		await v.control('POST', '/dialects', { set: ['objectIdInAnswers'] }); // the answers carry the backup's or snapshot's id
		const [restored] = await run({ resource: 'backup', operation: 'restore', id: v.byId(backup.id) });
		expect(restored).toEqual({ instanceId: expect.stringMatching(/^ins-/), backupId: backup.backup_id });
		await v.control('POST', '/management/instance/settle');
		const [rolledBack] = await run({ resource: 'snapshot', operation: 'rollback', id: v.byId(snapshot.id) });
		// the answer's name as it came: the documents do not say whether it is the host's or the snapshot's
		expect(rolledBack).toEqual({ instanceId: expect.stringMatching(/^ins-/), snapshotId: snapshot.snapshot_id, name: 'before-upgrade' });
		await v.control('POST', '/management/instance/settle');
		const [raw] = await run({ resource: 'snapshot', operation: 'rollback', id: v.byId(snapshot.id), simplify: false });
		expect(raw).toEqual({ id: String(snapshot.id), instance_id: expect.stringMatching(/^ins-/), snapshot_id: snapshot.snapshot_id, name: 'before-upgrade' });
		await v.control('POST', '/management/instance/settle');
	});
});

test('Backup > Create, with Wait for Completion or without: simplified like a listed backup; Simplify off: the raw record', async () => {
	const id = await addHost({ name: 'simple-5' });
	const [done] = await run({ resource: 'backup', operation: 'create', iid: v.byId(id), name: 'weekly', backupType: 2, waitForCompletion: true, waitTimeout: 20 });
	expect(done).toMatchObject({ backupId: expect.stringMatching(/^bak-/), name: 'weekly', host: 'simple-5', hostId: id, status: 'Completed', statusCode: '1', type: 'System and Data Disks', typeCode: '2', progress: 100 });
	expect(done.created).toMatch(ISO);
	expect(done.wait).toMatchObject({ for: 'completed', proven: true });
	expect(Object.keys(done).filter((k) => RAW.test(k))).toEqual([]);

	const [started] = await run({ resource: 'backup', operation: 'create', iid: v.byId(id), name: 'daily', backupType: 1, additionalFields: { note: 'db' } });
	// the answer's name and snaphsot_name as they came: the documents do not say whose name it is (issue 35)
	expect(started).toEqual({ id: expect.any(String), backupId: expect.stringMatching(/^bak-/), name: 'simple-5', snaphsotName: 'daily', hostInstanceId: expect.stringMatching(/^ins-/), note: 'db' });
	await v.control('POST', '/management/instance/settle');
	const [raw] = await run({ resource: 'backup', operation: 'create', iid: v.byId(id), name: 'hourly', backupType: 1, waitForCompletion: true, waitTimeout: 20, simplify: false });
	expect(raw).toMatchObject({ name: 'hourly', status: '1', backup_type: '1', createtime: expect.not.stringMatching(ISO) });
});

test('the other host, backup, snapshot and disk actions: simplified like what their lists give; Simplify off: the raw answer', async () => {
	const id = await addHost({ name: 'simple-6' });
	const camel = (r) => expect(Object.keys(r).filter((k) => !/^[a-z][A-Za-z]*$/.test(k) || RAW.test(k))).toEqual([]);
	const changed = await run({ resource: 'host', operation: 'updateConfiguration', iid: v.byId(id), updateFields: { paytype: 1 } });
	expect(changed).toEqual([{ instanceId: expect.stringMatching(/^ins-/), name: 'simple-6' }]);

	const [snap] = await run({ resource: 'snapshot', operation: 'create', iid: v.byId(id), name: 'snap-1', additionalFields: { note: 'n' } });
	expect(snap).toEqual({ id: expect.any(String), snapshotId: expect.stringMatching(/^snap-/), name: 'simple-6', snaphsotName: 'snap-1', hostInstanceId: expect.stringMatching(/^ins-/), note: 'n' });
	const [snapNote] = await run({ resource: 'snapshot', operation: 'update', iid: v.byId(id), id: v.byId(snap.id), updateFields: { note: 'kept' } });
	expect(snapNote).toEqual({ snapshotId: snap.snapshotId, name: 'snap-1', hostInstanceId: snap.hostInstanceId, note: 'kept' });
	expect(await run({ resource: 'snapshot', operation: 'delete', iid: v.byId(id), id: v.byId(snap.id) })).toEqual([{ deleted: true, snapshotId: snap.snapshotId, name: 'snap-1', hostInstanceId: snap.hostInstanceId }]);

	const [backup] = await run({ resource: 'backup', operation: 'create', iid: v.byId(id), name: 'b-1', backupType: 1, waitForCompletion: true, waitTimeout: 20 });
	const [backupNote] = await run({ resource: 'backup', operation: 'update', iid: v.byId(id), id: v.byId(backup.id), updateFields: { note: 'kept' } });
	expect(backupNote).toEqual({ backupId: backup.backupId, name: 'b-1', hostInstanceId: snap.hostInstanceId, note: 'kept' });
	const [gone] = await run({ resource: 'backup', operation: 'delete', iid: v.byId(id), id: v.byId(backup.id) });
	expect(gone).toEqual({ deleted: true, backupId: backup.backupId, name: 'b-1', hostInstanceId: snap.hostInstanceId, message: expect.stringMatching(/2 hours/) });

	const [disk] = (await v.api('instance/diskList', { iid: id })).data;
	const [resized] = await run({ resource: 'hostDisk', operation: 'resize', iid: v.byId(id), id: v.byId(disk.id), value: 60 });
	expect(resized).toEqual({ diskId: disk.disk_id, value: 60, hostId: id, hostInstanceId: snap.hostInstanceId });
	const [rawResized] = await run({ resource: 'hostDisk', operation: 'resize', iid: v.byId(id), id: v.byId(disk.id), value: 70, simplify: false });
	expect(rawResized).toEqual({ iid: id, instance_id: snap.hostInstanceId, disk_id: disk.disk_id, value: '70' });

	const [deleted] = await run({ resource: 'host', operation: 'delete', id: [id] });
	expect(deleted).toEqual({ deleted: true, instanceId: snap.hostInstanceId, name: 'simple-6', message: expect.stringMatching(/2 hours/) });
	for (const r of [changed[0], snap, snapNote, backupNote, gone, resized, deleted]) camel(r);
});

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

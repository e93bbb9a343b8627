'use strict';
/**
 * Vendor Cloud Host Trigger through n8n-core's poll machinery against the emulator: baseline,
 * test event, errors, filters, paging, and a 1000-poll simulation with an independent ledger.
 */
const { startVendor, n8n } = require('../../support/vendor');
const { clearFaults, requestCount, sorted, runSimulation } = require('../../support/triggers');
const { NODE, ALL, TIMING, identity, prepare, hostTools } = require('./cloudHostTrigger.simulation');

let v;
beforeAll(async () => {
	v = await startVendor({ management: { timing: TIMING } });
});
afterAll(() => v.close());
beforeEach(() => prepare(v));

const { addHost, setStatus } = hostTools(() => v);
const poll = (parameters, opts = {}) => n8n.runPoll(NODE, parameters, { credentials: { vendorApi: v.apiRef }, store: v.store, ...opts });
describe('semantics', () => {
	test('the first poll records a baseline and emits nothing; the next emits each change once', async () => {
		const a = await addHost({ name: 'web-1' });
		const b = await addHost({ name: 'db-1', status: 2 });
		const staticData = {};
		const first = await poll(ALL, { staticData, activation: true });
		expect(first.items).toEqual([]);
		expect(first.staticData['node:Trigger'].state.hosts).toEqual({ [a.id]: [1, 1], [b.id]: [2, 1] });

		await setStatus(a.id, 3);
		const c = await addHost({ name: 'cache-1', nodeid: 2 });
		await v.control('POST', '/management/instance/hosts/remove', { id: b.id });
		const second = await poll(ALL, { staticData });
		expect(second.items.map(identity).sort()).toEqual(sorted([`changed:${a.id}:1>3`, `appeared:${c.id}:1`, `disappeared:${b.id}:2`]));
		const changed = second.items.find((i) => i.event === 'statusChanged');
		expect(changed).toMatchObject({
			hostId: a.id,
			name: 'web-1',
			previousStatus: '1',
			previousStatusName: 'Running',
			status: '3',
			statusName: 'Abnormal',
			nodeid: '1',
		});
		expect(changed.host.id).toBe(a.id);
		expect(new Date(changed.seenAt).getTime()).toBeGreaterThan(Date.now() - 60000);
		const gone = second.items.find((i) => i.event === 'disappeared');
		expect(gone).toMatchObject({ hostId: b.id, previousStatus: '2', previousStatusName: 'Paused', status: null, host: null });

		const third = await poll(ALL, { staticData });
		expect(third.items).toEqual([]);
		expect(third.emitted).toBe(false);
	});

	test('"Fetch Test Event": with "Host Appeared" chosen, the newest host is a real appearance; the static data is left alone', async () => {
		await addHost({ name: 'old' });
		const newest = await addHost({ name: 'newest', status: 2 });
		const staticData = {};
		const r = await poll(ALL, { mode: 'manual', staticData });
		expect(r.items).toHaveLength(1);
		expect(r.items[0]).toMatchObject({ event: 'appeared', hostId: newest.id, name: 'newest', status: '2', statusName: 'Paused' });
		expect(r.items[0].sample).toBeUndefined();
		expect(staticData).toEqual({});
	});

	test('"Fetch Test Event" shows only the chosen kinds, and a change it has not seen only as a marked sample of a real host, shaped as the settings ask', async () => {
		const web = await addHost({ name: 'web-1', status: 1 });
		await addHost({ name: 'db-1', status: 2, nodeid: 2 });
		// only "Status Changed": never an appearance, never a change that did not happen
		const [changed] = (await poll({ events: ['statusChanged'] }, { mode: 'manual' })).items;
		expect(changed).toMatchObject({
			event: 'statusChanged',
			name: 'db-1',
			previousStatus: null,
			previousStatusName: null,
			status: '2',
			statusName: 'Paused',
			sample: true,
			sampleNote: expect.stringMatching(/^Sample, not an event: no host has turned Paused while the trigger was active .*This is host "db-1" \(\d+\), listed now as Paused, shown as if it had turned Paused\./),
		});
		// the marking comes first in the item, where a person looking at the output sees it
		expect(Object.keys(changed).slice(0, 2)).toEqual(['sample', 'sampleNote']);
		expect(changed.host.name).toBe('db-1');
		// the filters choose the host: data centre 1, status Running
		const [filtered] = (await poll({ events: ['statusChanged'], dataCentres: ['1'], statuses: [1] }, { mode: 'manual' })).items;
		expect(filtered).toMatchObject({ event: 'statusChanged', hostId: web.id, status: '1', sample: true });
		// only "Host Disappeared": the shape of a disappearance, from a host that is still there
		const [gone] = (await poll({ events: ['disappeared'], dataCentres: ['1'] }, { mode: 'manual' })).items;
		expect(gone).toMatchObject({ event: 'disappeared', hostId: web.id, previousStatus: '1', previousStatusName: 'Running', status: null, host: null, sample: true });
		expect(gone.sampleNote).toMatch(/and still there, shown as if it had gone/);
		// "Host Appeared" with no host of the chosen statuses: a real host shown with the watched status, marked
		const [appeared] = (await poll({ events: ['appeared'], statuses: [3] }, { mode: 'manual' })).items;
		expect(appeared).toMatchObject({ event: 'appeared', name: 'db-1', status: '3', statusName: 'Abnormal', sample: true });
		expect(appeared.sampleNote).toMatch(/^Sample, not an event: no host with the status Abnormal is listed\. This is host "db-1" \(\d+\), listed now as Paused, shown as if it had appeared Abnormal\./);
		// no host at all: empty fields, still the status the trigger watches, marked
		await v.control('POST', '/management/instance/hosts/remove', { id: Number(web.id) });
		for (const h of (await v.api('instance/list', { page: 1, limit: 100 })).data) await v.control('POST', '/management/instance/hosts/remove', { id: Number(h.id) });
		const [empty] = (await poll({ events: ['appeared'], statuses: [3] }, { mode: 'manual' })).items;
		expect(empty).toMatchObject({ event: 'appeared', hostId: null, name: null, status: '3', statusName: 'Abnormal', host: null, sample: true });
		for (const item of [changed, filtered, gone, appeared, empty]) expect(Object.keys(item)).toEqual(expect.arrayContaining(['event', 'hostId', 'previousStatus', 'status', 'statusName', 'nodeid', 'seenAt', 'host']));
	});

	test('"Fetch Test Event" with the settings of the host alert example (a host turns Abnormal) and no abnormal host: a sample of that change, never of another status', async () => {
		// issue 28: the sample used to show batch-1 "is Paused", a state the trigger does not watch
		await addHost({ name: 'web-1', status: 1 });
		const batch = await addHost({ name: 'batch-1', status: 2, nodeid: 2 });
		const example = require('../../../examples/host-state-alert.json').nodes.find((n) => n.type.endsWith('.vendorCloudHostTrigger'));
		const { items } = await poll(example.parameters, { mode: 'manual' });
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			sample: true,
			event: 'statusChanged',
			hostId: batch.id,
			name: 'batch-1',
			previousStatus: '2',
			previousStatusName: 'Paused',
			status: '3',
			statusName: 'Abnormal',
		});
		expect(items[0].sampleNote).toMatch(/^Sample, not an event: no host has turned Abnormal while the trigger was active/);
	});

	test.each([
		['numbersAsNumbers', 'extraFields'],
		['numbersAsStrings', 'emptyObjectsAsArrays'],
	])('status values as numbers or strings read alike, across a switch of form (dialects %s, %s)', async (...dialects) => {
		const a = await addHost({ name: 'web-1' });
		const b = await addHost({ name: 'db-1', nodeid: 2 });
		const staticData = {};
		await poll({ ...ALL, statuses: [1, 3], dataCentres: ['1'] }, { staticData, activation: true }); // baseline with the default form
		v._tokens = {};
		await v.api('instance/nodeList', {}); // the test's own log-in, before the dialect (its helper expects code 1 as a number)
		await v.control('POST', '/dialects', { set: dialects });
		try {
			const raw = await v.api('instance/list', { page: 1, limit: 10 });
			expect(typeof raw.data[0].status).toBe(dialects.includes('numbersAsNumbers') ? 'number' : 'string');
			// the same statuses in another form are no change
			expect((await poll({ ...ALL, statuses: [1, 3], dataCentres: ['1'] }, { staticData })).items).toEqual([]);
			await setStatus(a.id, 3);
			await setStatus(b.id, 3); // another data centre
			const r = await poll({ ...ALL, statuses: [1, 3], dataCentres: ['1'] }, { staticData });
			expect(r.items.map(identity)).toEqual([`changed:${a.id}:1>3`]);
			expect(r.items[0]).toMatchObject({ previousStatus: '1', status: '3', statusName: 'Abnormal', nodeid: '1' });
			expect((await poll({ ...ALL, statuses: [1, 3], dataCentres: ['1'] }, { staticData })).items).toEqual([]);
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
		// and back to the default form: still no change
		expect((await poll({ ...ALL, statuses: [1, 3], dataCentres: ['1'] }, { staticData })).items).toEqual([]);
	});

	test('an error in manual mode and on the first poll is thrown; later it is logged and the next poll catches up', async () => {
		const a = await addHost();
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['instance/list'] });
		await expect(poll(ALL, { mode: 'manual' })).rejects.toThrow(/HTTP 5\d\d|Could not reach/);
		const staticData = {};
		await expect(poll(ALL, { staticData, activation: true })).rejects.toThrow(/failed to answer the poll|Could not reach the API for the poll/);
		expect(staticData['node:Trigger'] || {}).toEqual({});
		// a first poll that is not the activation poll: thrown by the node, recorded by n8n as a failed execution
		const notActivation = await poll(ALL, { staticData });
		expect(notActivation.emitErrors).toHaveLength(1);

		await clearFaults(v);
		await poll(ALL, { staticData, activation: true });
		const baseline = JSON.stringify(staticData);
		await setStatus(a.id, 6);
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['instance/list'] });
		const failed = await poll(ALL, { staticData });
		expect(failed.items).toEqual([]);
		expect(failed.emitErrors).toEqual([]);
		expect(failed.logs.filter((l) => l.level === 'error')).toHaveLength(1);
		expect(failed.logs[0].message).toMatch(/repeated at the next poll/);
		expect(JSON.stringify(staticData)).toBe(baseline);
		// an activation poll after a restart with a baseline does not fail the activation either
		const afterRestart = await poll(ALL, { staticData: JSON.parse(baseline), activation: true });
		expect(afterRestart.logs.filter((l) => l.level === 'error')).toHaveLength(1);

		await clearFaults(v);
		const next = await poll(ALL, { staticData });
		expect(next.items.map(identity)).toEqual([`changed:${a.id}:1>6`]);
		expect(next.items[0].statusName).toBe('Maintenance');
	});

	test('two overlapping polls of one node: the change is emitted once', async () => {
		const a = await addHost();
		const staticData = {};
		await poll(ALL, { staticData, activation: true });
		await setStatus(a.id, 2);
		await v.control('POST', '/faults', { latencyMs: 50 }); // both polls are in flight together
		const [one, two] = await Promise.all([poll(ALL, { staticData }), poll(ALL, { staticData })]);
		await v.control('POST', '/faults', { latencyMs: 0 });
		expect([...one.items, ...two.items].map(identity)).toEqual([`changed:${a.id}:1>2`]);
		expect([...one.logs, ...two.logs].map((l) => l.level)).toEqual(['warn']);
		expect((await poll(ALL, { staticData })).items).toEqual([]);
	});

	test('filters: events, statuses (new status) and data centres', async () => {
		const a = await addHost({ nodeid: 1 });
		const b = await addHost({ nodeid: 2 });
		const c = await addHost({ nodeid: 3 });
		const d = await addHost({ nodeid: 2 });
		const params = { events: ['statusChanged', 'disappeared'], statuses: [3, 9], dataCentres: ['2', '3'] };
		const staticData = {};
		await poll(params, { staticData, activation: true });
		await setStatus(a.id, 3); // data centre 1: filtered out
		await setStatus(b.id, 3); // reported
		await setStatus(c.id, 2); // new status not chosen
		await addHost({ nodeid: 2, status: 3 }); // appearances not chosen
		await v.control('POST', '/management/instance/hosts/remove', { id: d.id }); // reported, whatever its status
		const r = await poll(params, { staticData });
		expect(r.items.map(identity).sort()).toEqual(sorted([`changed:${b.id}:1>3`, `disappeared:${d.id}:1`]));
		// the state follows every host, so widening the filters later does not re-report old changes
		const wide = await poll(ALL, { staticData });
		expect(wide.items).toEqual([]);
	});

	test('data centres are offered from instance/nodeList', async () => {
		const c = n8n.contextFor(NODE, {}, { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } });
		const ctx = new n8n.LoadOptionsContext(c.workflow, c.node, c.additionalData, 'parameters');
		const options = await c.nodeType.methods.loadOptions.getDataCentres.call(ctx);
		expect(options).toEqual(expect.arrayContaining([{ name: 'North Zone 1', value: '1' }, { name: 'East Zone 2', value: '2' }]));
	});

	test('every page of the host list is read (2100 hosts: 3 requests per poll), again when it changed between pages', async () => {
		for (let i = 0; i < 2100; i++) await addHost({ name: `bulk-${i}`, nodeid: 1 + (i % 3) });
		const staticData = {};
		await poll(ALL, { staticData, activation: true });
		const ids = Object.keys(staticData['node:Trigger'].state.hosts);
		expect(ids).toHaveLength(2100);
		const oldest = Math.min(...ids.map(Number));
		await setStatus(oldest, 5); // on the last page
		const before = await requestCount(v);
		const r = await poll(ALL, { staticData });
		expect((await requestCount(v)) - before).toBe(3);
		expect(r.items.map(identity)).toEqual([`changed:${oldest}:1>5`]);
		expect(r.items[0].statusName).toBe('Restricted');
		expect(JSON.stringify(staticData).length).toBeLessThan(2100 * 20);

		// a host removed while the pages are read shifts rows between pages: the list is read again
		const route = v.emu.management.core.routes['instance/list'];
		const handler = route.handler;
		const removeOnPage2 = (times) => {
			let left = times;
			const removed = [];
			route.handler = (rq) => {
				if (left > 0 && rq.p.int('page') === 2) {
					left--;
					const id = Math.max(...Object.keys(v.emu.management.state.instance.hosts).map(Number));
					void v.emu.management.control['POST /instance/hosts/remove']({ id }); // synchronous inside
					removed.push(id);
				}
				return handler(rq);
			};
			return removed;
		};
		try {
			const once = removeOnPage2(1);
			const reread = await poll(ALL, { staticData });
			expect(reread.logs).toEqual([]);
			expect(reread.items.map(identity)).toEqual([`disappeared:${once[0]}:1`]);
			// still moving at the second read: the poll fails (logged), keeps its state, and the next one catches up
			const saved = JSON.stringify(staticData);
			const twice = removeOnPage2(2);
			const moving = await poll(ALL, { staticData });
			expect(moving.items).toEqual([]);
			expect(moving.logs.map((l) => l.message)).toEqual([expect.stringMatching(/kept changing/)]);
			expect(JSON.stringify(staticData)).toBe(saved);
			route.handler = handler;
			const after = await poll(ALL, { staticData });
			expect(after.items.map(identity).sort()).toEqual(sorted(twice.map((id) => `disappeared:${id}:1`)));
		} finally {
			route.handler = handler;
		}
	});
});

describe('Backup Finished (issue 28: a finished host backup starts a workflow from the Cloud Host trigger)', () => {
	const backup = async (iid, name) => {
		const r = await v.api('instance/backupAdd', { iid, name });
		if (Number(r.code) !== 1) throw new Error(`instance/backupAdd: ${r.message}`);
		return Number(r.data.id);
	};
	const backupStatus = (id, status) => v.control('POST', '/management/instance/backups/status', { id, status });
	const BACKUPS = { events: ['backupFinished'] };
	const ids = (items) => items.map((i) => `${i.event}:${i.kind}:${i.id}:${i.state}`).sort();
	// a restart: n8n reads the workflow's static data back from its database and polls again
	const restart = (staticData) => JSON.parse(JSON.stringify(staticData));

	test('a backup that finishes is emitted once as succeeded, a failed one as failed; nothing twice across polls and restarts', async () => {
		// a host runs one backup at a time: one host per backup
		const [h1, h2, h3, h4] = [await addHost({ name: 'web-1' }), await addHost({ name: 'web-2' }), await addHost({ name: 'web-3' }), await addHost({ name: 'web-4' })];
		const early = await backup(Number(h1.id), 'before-activation'); // running at the baseline: emitted when it finishes
		let staticData = {};
		expect((await poll(BACKUPS, { staticData, activation: true })).items).toEqual([]);
		expect(staticData['node:Trigger'].state.backup).toEqual({ hi: early, pending: { [early]: 0 } });

		const ok = await backup(Number(h2.id), 'nightly');
		const bad = await backup(Number(h3.id), 'weekly');
		expect((await poll(BACKUPS, { staticData })).items).toEqual([]); // all still running
		await backupStatus(ok, 1);
		await backupStatus(bad, 2);
		await backupStatus(early, 1);
		const r = await poll(BACKUPS, { staticData });
		expect(ids(r.items)).toEqual(sorted([`backupFinished:backup:${early}:succeeded`, `backupFinished:backup:${ok}:succeeded`, `backupFinished:backup:${bad}:failed`]));
		// the Task Trigger's item shape: its fields as listed, with kind, state, statusName and seenAt
		expect(r.items.find((i) => Number(i.id) === bad)).toMatchObject({ event: 'backupFinished', kind: 'backup', state: 'failed', statusName: 'Failed', status: '2', name: 'weekly' });
		expect(r.items.find((i) => Number(i.id) === ok)).toMatchObject({ state: 'succeeded', statusName: 'Completed', status: '1', backup_id: expect.any(String) });
		// never twice: the next poll, a restart with an activation poll, and a poll after it
		expect((await poll(BACKUPS, { staticData })).items).toEqual([]);
		staticData = restart(staticData);
		expect((await poll(BACKUPS, { staticData, activation: true })).items).toEqual([]);
		expect((await poll(BACKUPS, { staticData })).items).toEqual([]);
		// a backup that finishes after the restart: once
		const later = await backup(Number(h4.id), 'after-restart');
		await backupStatus(later, 2);
		expect(ids((await poll(BACKUPS, { staticData })).items)).toEqual([`backupFinished:backup:${later}:failed`]);
		staticData = restart(staticData);
		expect((await poll(BACKUPS, { staticData })).items).toEqual([]);
	});

	test('"Backup Outcome" filters as the Task Trigger\'s "Final State"; host changes and backups keep their own baselines; the default events watch no backup', async () => {
		const host = await addHost({ name: 'db-1' });
		const [h2, h3] = [await addHost({ name: 'db-2' }), await addHost({ name: 'db-3' })];
		const staticData = {};
		const both = { events: ['statusChanged', 'backupFinished'], backupOutcome: 'failed' };
		expect((await poll(both, { staticData, activation: true })).items).toEqual([]);
		const ok = await backup(Number(host.id), 'a');
		const bad = await backup(Number(h2.id), 'b');
		await backupStatus(ok, 1);
		await backupStatus(bad, 2);
		await setStatus(host.id, 3);
		const r = await poll(both, { staticData });
		expect(r.items.map((i) => (i.event === 'backupFinished' ? `backup:${i.id}:${i.state}` : identity(i))).sort()).toEqual(sorted([`backup:${bad}:failed`, `changed:${host.id}:1>3`]));

		// a workflow saved with the default events: no backup is watched or read, as before
		const plain = {};
		await poll(ALL, { staticData: plain, activation: true });
		expect(plain['node:Trigger'].state.backup).toBeUndefined();
		const late = await backup(Number(h3.id), 'c');
		await backupStatus(late, 1);
		expect((await poll(ALL, { staticData: plain })).items).toEqual([]);

		// "Backup Finished" added to a running workflow: its first poll records a backup baseline, host changes still report
		await setStatus(host.id, 1);
		const added = await poll({ events: [...ALL.events, 'backupFinished'] }, { staticData: plain });
		expect(added.items.map(identity)).toEqual([`changed:${host.id}:3>1`]);
		expect(plain['node:Trigger'].state.backup.hi).toBe(late);
	});

	test('"Fetch Test Event" with only "Backup Finished": the newest finished backup, else a marked sample of one', async () => {
		const host = await addHost({ name: 'web-1' });
		const running = await backup(Number(host.id), 'running');
		const [sample] = (await poll(BACKUPS, { mode: 'manual' })).items;
		expect(Object.keys(sample).slice(0, 3)).toEqual(['sample', 'sampleNote', 'event']);
		expect(sample).toMatchObject({ sample: true, event: 'backupFinished', kind: 'backup', id: String(running), state: 'succeeded' });
		await backupStatus(running, 2);
		const [real] = (await poll({ ...BACKUPS, backupOutcome: 'failed' }, { mode: 'manual' })).items;
		expect(real).toMatchObject({ event: 'backupFinished', kind: 'backup', id: String(running), state: 'failed' });
		expect(real.sample).toBeUndefined();
	});
});

describe('integrity (issue 24)', () => {
	test('one empty listing (a hiccup) emits nothing; an empty listing confirmed by the next poll emits each disappearance once', async () => {
		const hosts = [];
		for (let i = 0; i < 5; i++) hosts.push(await addHost({ name: `keep-${i}` }));
		const staticData = {};
		expect((await poll(ALL, { staticData, activation: true })).items).toEqual([]);
		await v.control('POST', '/faults', { inject: [{ op: 'instance/list', kind: 'emptyList', times: 1 }] });
		const hiccup = await poll(ALL, { staticData });
		expect(hiccup.items).toEqual([]);
		expect(hiccup.logs.some((l) => l.level === 'warn' && /came back empty/.test(l.message))).toBe(true);
		expect((await poll(ALL, { staticData })).items).toEqual([]); // listed again: nothing appeared
		for (const h of hosts) await v.control('POST', '/management/instance/hosts/remove', { id: h.id });
		expect((await poll(ALL, { staticData })).items).toEqual([]); // empty once: not believed yet
		const gone = await poll(ALL, { staticData });
		expect(gone.items.map(identity).sort()).toEqual(sorted(hosts.map((h) => `disappeared:${h.id}:1`)));
		expect((await poll(ALL, { staticData })).items).toEqual([]);
	});

	test('state per account: a credential moved to another account starts afresh, no false appearances or disappearances', async () => {
		await v.control('POST', '/management/accounts', { username: 'other', password: 'other-password' });
		await addHost({ name: 'demo-host' });
		const staticData = {};
		expect((await poll(ALL, { staticData, activation: true })).items).toEqual([]);
		const other = { vendorApi: { apiUrl: v.url, username: 'other', password: 'other-password' } };
		const theirs = await addHost({ name: 'other-host', username: 'other' });
		const moved = await poll(ALL, { staticData, credentials: other });
		expect(moved.items).toEqual([]); // a baseline of the other account
		await setStatus(theirs.id, 3);
		expect((await poll(ALL, { staticData, credentials: other })).items.map(identity)).toEqual([`changed:${theirs.id}:1>3`]);
	});
});

/** The simulation (cloudHostTrigger.simulation.js: what it does and checks), in a plain Node process; a safety cap, not a measure. */
const SIMULATION = require.resolve('./cloudHostTrigger.simulation');
const SIMULATION_TIMEOUT_MS = 600000;

describe('simulation', () => {
	test('1000 polls with random host changes, failed polls and restarts: every change once, nothing else', async () => {
		const r = await runSimulation(SIMULATION, { seed: 6001, polls: 1000, cursor: 'live' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
		expect(r.failedPolls).toBeGreaterThan(20);
		expect(r.restarts + r.crashRestarts).toBeGreaterThanOrEqual(16);
		expect(r.requestsPerCleanPoll).toBeLessThan(1.01); // one instance/list per poll (the log-in once)
	}, SIMULATION_TIMEOUT_MS);

	test('the same with durable (staged) poll cursors', async () => {
		await runSimulation(SIMULATION, { seed: 6002, polls: 300, cursor: 'staged' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
	}, SIMULATION_TIMEOUT_MS);
});

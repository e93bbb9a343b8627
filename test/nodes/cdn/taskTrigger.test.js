'use strict';
/**
 * Vendor Task Trigger through n8n-core's poll machinery against the emulator: CDN refresh and
 * prefetch tasks and host backups reaching a final state, once each.
 */
const { startVendor, n8n } = require('../../support/vendor');
const { clearFaults, advance, requestCount, sorted, runSimulation } = require('../../support/triggers');
const { NODE, HOUR, ALL, GOOD, BAD, TIMING, identity, prepare, vendorTools } = require('./taskTrigger.simulation');

let v;
beforeAll(async () => {
	v = await startVendor({ management: { timing: TIMING } });
});
afterAll(() => v.close());
beforeEach(() => prepare(v));

const { api, refresh, prefetch, addHost, backup, backupStatus } = vendorTools(() => v);
const poll = (parameters, opts = {}) => n8n.runPoll(NODE, parameters, { credentials: { vendorApi: v.apiRef }, store: v.store, ...opts });

describe('semantics', () => {
	test('the first poll records a baseline; each task is emitted once when it is final, with its outcome', async () => {
		const iid = await addHost();
		const before = [await refresh(), await prefetch(), await refresh()]; // running at the baseline: emitted when they finish
		const staticData = {};
		expect((await poll(ALL, { staticData, activation: true })).items).toEqual([]);
		expect(staticData['node:Trigger'].state.kinds.refresh.pending).toEqual({ [before[0]]: 0, [before[2]]: 0 });
		expect(staticData['node:Trigger'].state.kinds.prefetch.pending).toEqual({ [before[1]]: 0 });

		const r1 = await refresh(BAD);
		const p1 = await prefetch();
		const b1 = await backup(iid);
		expect((await poll(ALL, { staticData })).items).toEqual([]); // all still running
		await advance(v, 1.5 * HOUR);
		const r = await poll(ALL, { staticData });
		expect(r.items.map(identity).sort()).toEqual(
			sorted([`refresh:${before[0]}:succeeded`, `prefetch:${before[1]}:succeeded`, `refresh:${before[2]}:succeeded`, `refresh:${r1}:failed`, `prefetch:${p1}:succeeded`, `backup:${b1}:succeeded`]),
		);
		const failed = r.items.find((i) => i.id === String(r1));
		expect(failed).toMatchObject({ kind: 'refresh', state: 'failed', result: 'failed', preload: '0', urls: [expect.stringContaining(BAD)] });
		const bk = r.items.find((i) => i.kind === 'backup');
		expect(bk).toMatchObject({ state: 'succeeded', statusName: 'Completed', status: '1', backup_id: expect.any(String) });
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		// pending lists are empty again: the state is a few numbers
		expect(staticData['node:Trigger'].state.kinds).toEqual({
			refresh: { hi: p1, pending: {} }, // one id space for both CDN kinds: the highest id listed
			prefetch: { hi: p1, pending: {} },
			backup: { hi: b1, pending: {} },
		});
	});

	test('"Fetch Test Event" returns the newest finished task matching the filters', async () => {
		const iid = await addHost();
		await refresh();
		const bad = await refresh(BAD);
		await advance(v, 1.5 * HOUR);
		const b = await backup(iid);
		await backupStatus(b, 2);
		const staticData = {};
		const newest = await poll(ALL, { mode: 'manual', staticData });
		expect(newest.items.map(identity)).toEqual([`backup:${b}:failed`]);
		const succeeded = await poll({ ...ALL, finalState: 'succeeded' }, { mode: 'manual' });
		expect(succeeded.items.map(identity)).toEqual([`refresh:${bad - 1}:succeeded`]);
		const cdnFailed = await poll({ kinds: ['refresh'], finalState: 'failed' }, { mode: 'manual' });
		expect(cdnFailed.items.map(identity)).toEqual([`refresh:${bad}:failed`]);
		for (const item of [...newest.items, ...succeeded.items, ...cdnFailed.items]) expect(item.sample).toBeUndefined();
		expect(staticData).toEqual({});
	});

	test('"Fetch Test Event" with nothing of the chosen kinds finished: a marked sample shaped as the event the settings ask for', async () => {
		// no prefetch task at all: the fields of a documented task record (docs/vendor/account-billing-cdn.md#refresh-and-prefetch), empty, finished as the trigger waits for
		const [none] = (await poll({ kinds: ['prefetch'], finalState: 'both' }, { mode: 'manual' })).items;
		expect(none).toEqual({
			sample: true,
			sampleNote: expect.stringMatching(/^Sample, not an event: the account has no CDN prefetch task yet, so the fields are empty; "state" shows the outcome the trigger waits for \(succeeded\)/),
			kind: 'prefetch',
			state: 'succeeded',
			result: 'success',
			id: null,
			type: null,
			status: '1',
			urls: null,
			preload: null,
			preloadtype: null,
			is_api: null,
			created: null,
			objectnum: null,
			seenAt: expect.any(String),
		});
		// the marking comes first in the item
		expect(Object.keys(none).slice(0, 2)).toEqual(['sample', 'sampleNote']);
		// a task still running: the sample is that task, shown as if it had finished as chosen
		const running = await prefetch();
		const [fromRunning] = (await poll({ kinds: ['prefetch'], finalState: 'failed' }, { mode: 'manual' })).items;
		expect(fromRunning).toMatchObject({ sample: true, kind: 'prefetch', state: 'failed', result: 'failed', id: String(running) });
		expect(fromRunning.sampleNote).toMatch(/CDN prefetch task \d+, listed now as still running, shown as if it had failed\./);
		// only a failed backup while succeeded ones are asked for: the backup is shown as succeeded (the one outcome watched), marked
		const iid = await addHost();
		const b = await backup(iid);
		await backupStatus(b, 2);
		const [fromFailed] = (await poll({ kinds: ['backup'], finalState: 'succeeded' }, { mode: 'manual' })).items;
		expect(fromFailed).toMatchObject({ sample: true, kind: 'backup', state: 'succeeded', id: String(b), status: '1', sample: true });
		expect(fromFailed.sampleNote).toMatch(/no host backup that succeeded has been found\. This is backup \d+, listed now as Failed, shown as if it had succeeded\./);
		// once one has happened, it is a real event
		const ok = await backup(iid);
		await backupStatus(ok, 1);
		const [real] = (await poll({ kinds: ['backup'], finalState: 'succeeded' }, { mode: 'manual' })).items;
		expect(identity(real)).toBe(`backup:${ok}:succeeded`);
		expect(real.sample).toBeUndefined();
	});

	test('backup states (enums BACKUP_STATES): in arrears and recycle bin end a watched backup as failed, once; unknown values stay pending', async () => {
		const iid = await addHost();
		const held = await backup(iid);
		const deleted = await backup(await addHost());
		const strange = await backup(await addHost());
		const arrearsAtBaseline = await backup(await addHost());
		await backupStatus(arrearsAtBaseline, 3);
		const staticData = {};
		await poll(ALL, { staticData, activation: true });
		// in progress at the baseline: watched; in arrears at the baseline: final, not watched
		expect(Object.keys(staticData['node:Trigger'].state.kinds.backup.pending).sort()).toEqual([held, deleted, strange].map(String).sort());

		await backupStatus(held, 3);
		await backupStatus(deleted, 4);
		v.emu.management.state.instance.backups[strange].status = 7; // a value the documents do not list (readings R64)
		const r = await poll(ALL, { staticData });
		expect(r.items.map((i) => [identity(i), i.statusName])).toEqual([
			[`backup:${held}:failed`, 'In Arrears'],
			[`backup:${deleted}:failed`, 'Recycle Bin'],
		]);
		expect(Object.keys(staticData['node:Trigger'].state.kinds.backup.pending)).toEqual([String(strange)]);
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		expect((await poll({ ...ALL, finalState: 'succeeded' }, { staticData })).items).toEqual([]);
		// the strange one completes after all
		await backupStatus(strange, 1);
		expect((await poll(ALL, { staticData })).items.map(identity)).toEqual([`backup:${strange}:succeeded`]);
	});

	test.each([
		['numbersAsNumbers', 'extraFields'],
		['numbersAsStrings', 'extraFields'],
	])('status values as numbers or strings read alike (dialects %s, %s)', async (...dialects) => {
		const iid = await addHost();
		await v.control('POST', '/dialects', { set: dialects });
		try {
			const staticData = {};
			await poll(ALL, { staticData, activation: true });
			const listed = await v.api('instance/backupList', { page: 1, limit: 10 });
			expect(typeof listed.totalpage).toBe(dialects.includes('numbersAsNumbers') ? 'number' : 'string');
			const t = await refresh();
			const bad = await prefetch(BAD);
			const b = await backup(iid);
			expect((await poll(ALL, { staticData })).items).toEqual([]);
			await advance(v, 1.5 * HOUR);
			const r = await poll(ALL, { staticData });
			expect(r.items.map(identity).sort()).toEqual(sorted([`refresh:${t}:succeeded`, `prefetch:${bad}:failed`, `backup:${b}:succeeded`]));
			expect(r.items.find((i) => i.kind === 'backup').statusName).toBe('Completed');
			expect((await poll(ALL, { staticData })).items).toEqual([]);
			const [manual] = (await poll({ kinds: ['backup'], finalState: 'succeeded' }, { mode: 'manual' })).items;
			expect(identity(manual)).toBe(`backup:${b}:succeeded`);
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
	});

	test('a poll that fails half-way changes nothing; errors are thrown first, logged later', async () => {
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['cdn/refreshList'] });
		const staticData = {};
		// the message names the poll in the user's words, the details the request (issue 36)
		const failedPoll = { message: expect.stringMatching(/^The service failed to answer the poll/), description: expect.stringMatching(/API\/cdn\/refreshList/) };
		await expect(poll(ALL, { staticData, activation: true })).rejects.toMatchObject(failedPoll);
		await expect(poll(ALL, { mode: 'manual' })).rejects.toMatchObject(failedPoll);
		await clearFaults(v);
		await poll(ALL, { staticData, activation: true });

		const t = await refresh();
		await advance(v, 1.5 * HOUR);
		const saved = JSON.stringify(staticData);
		// the listing succeeds, the status query fails: nothing of the listing may stick
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['cdn/refreshStatus'] });
		const failed = await poll(ALL, { staticData });
		expect(failed.items).toEqual([]);
		expect(failed.logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([expect.stringMatching(/refreshStatus/)]);
		expect(JSON.stringify(staticData)).toBe(saved);
		// the same with staged (durable) cursors: the staged copy is dropped
		const staged = JSON.parse(saved);
		await poll(ALL, { staticData: staged, cursor: 'staged' });
		expect(JSON.stringify(staged)).toBe(saved);
		await clearFaults(v);
		expect((await poll(ALL, { staticData })).items.map(identity)).toEqual([`refresh:${t}:succeeded`]);
		expect((await poll(ALL, { staticData: staged, cursor: 'staged' })).items.map(identity)).toEqual([`refresh:${t}:succeeded`]);
		expect(JSON.stringify(staged)).toBe(JSON.stringify(staticData));
	});

	test('filters: kinds are not even listed when not chosen; final state', async () => {
		const iid = await addHost();
		const staticData = {};
		const params = { kinds: ['prefetch'], finalState: 'failed' };
		await poll(params, { staticData, activation: true });
		await refresh(BAD);
		await prefetch(GOOD);
		const pBad = await prefetch(BAD);
		const b = await backup(iid);
		await backupStatus(b, 2);
		await advance(v, 1.5 * HOUR);
		const before = await requestCount(v);
		const r = await poll(params, { staticData });
		expect(r.items.map(identity)).toEqual([`prefetch:${pBad}:failed`]);
		expect((await requestCount(v)) - before).toBe(2); // refreshList (preload 1) + preloadStatus
		expect(Object.keys(staticData['node:Trigger'].state.kinds)).toEqual(['prefetch']);
		// choosing another kind later starts that kind from a baseline: its past is not replayed
		const wider = { kinds: ['prefetch', 'backup'], finalState: 'both' };
		const first = await poll(wider, { staticData });
		expect(first.items).toEqual([]);
		const b2 = await backup(iid);
		await advance(v, 1.5 * HOUR);
		expect((await poll(wider, { staticData })).items.map(identity)).toEqual([`backup:${b2}:succeeded`]);
	});

	test('a backup run again after it finished is reported again; deleted tasks are forgotten quietly', async () => {
		const iid = await addHost();
		const b = await backup(iid);
		const gone = await refresh();
		const staticData = {};
		await poll(ALL, { staticData, activation: true });
		await advance(v, 1.5 * HOUR);
		expect((await poll(ALL, { staticData })).items.map(identity)).toEqual([`refresh:${gone}:succeeded`, `backup:${b}:succeeded`]);
		await backupStatus(b, 0); // running again
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		await advance(v, 1.5 * HOUR);
		expect((await poll(ALL, { staticData })).items.map(identity)).toEqual([`backup:${b}:succeeded`]);

		const t = await refresh();
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		expect(staticData['node:Trigger'].state.kinds.refresh.pending).toEqual({ [t]: 0 });
		await api('cdn/refreshDelete', { ids: [t] });
		for (let i = 1; i <= 3; i++) {
			const r = await poll(ALL, { staticData });
			expect(r.items).toEqual([]);
			expect(r.logs).toEqual([]);
		}
		expect(staticData['node:Trigger'].state.kinds.refresh.pending).toEqual({});
	});

	test('requests: one listing per kind group, status queries for every task not yet final (readings R59), 100 ids a query', async () => {
		const old = await refresh();
		await advance(v, 0.5 * HOUR);
		const staticData = {};
		for (let i = 0; i < 1099; i++) await refresh(); // older task `old` ends up on page 2
		expect((await poll(ALL, { staticData, activation: true })).items).toEqual([]);
		let before = await requestCount(v);
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		expect((await requestCount(v)) - before).toBe(2 + 11 + 1); // refreshList down to page 2 (the oldest pending); 11 status queries of the 1100 pending; backupList
		await advance(v, 0.6 * HOUR); // `old` finishes, the others run on
		before = await requestCount(v);
		expect((await poll(ALL, { staticData })).items.map(identity)).toEqual([`refresh:${old}:succeeded`]);
		expect((await requestCount(v)) - before).toBe(2 + 11 + 1); // 2 pages + 11 status queries + backupList
		await advance(v, 1.5 * HOUR);
		before = await requestCount(v);
		const all = await poll(ALL, { staticData });
		expect(all.items).toHaveLength(1099);
		expect((await requestCount(v)) - before).toBe(2 + 11 + 1); // 2 pages down to the oldest pending; 11 status queries; backupList
		before = await requestCount(v);
		expect((await poll(ALL, { staticData })).items).toEqual([]);
		expect((await requestCount(v)) - before).toBe(2); // idle: one page of each list
		expect(JSON.stringify(staticData).length).toBeLessThan(200);
	});
});

describe('integrity (issues 24, 25)', () => {
	test('a failed task the listing keeps at 0 (refreshing) is reported failed from its status query (dialect failedTasksListedRunning, readings R59)', async () => {
		await v.control('POST', '/dialects', { set: ['failedTasksListedRunning'] });
		try {
			const staticData = {};
			expect((await poll(ALL, { staticData, activation: true })).items).toEqual([]);
			const bad = await refresh(BAD);
			const good = await refresh();
			await advance(v, 1.5 * HOUR);
			const listed = await api('cdn/refreshList', { page: 1, limit: 10 });
			expect(listed.find((t) => Number(t.id) === bad).status).toBe('0');
			const r = await poll(ALL, { staticData });
			expect(r.items.map(identity).sort()).toEqual(sorted([`refresh:${bad}:failed`, `refresh:${good}:succeeded`]));
			expect((await poll(ALL, { staticData })).items).toEqual([]);
			expect(staticData['node:Trigger'].state.kinds.refresh.pending).toEqual({});
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
	});

	test('"Fetch Test Event" finds a failed task the listing keeps at 0 by its status query, as the poll does (dialect failedTasksListedRunning, readings R59)', async () => {
		await v.control('POST', '/dialects', { set: ['failedTasksListedRunning'] });
		try {
			const bad = await refresh(BAD);
			await advance(v, 1.5 * HOUR);
			expect((await api('cdn/refreshList', { page: 1, limit: 10 })).find((t) => Number(t.id) === bad).status).toBe('0');
			const [event] = (await poll({ kinds: ['refresh'], finalState: 'failed' }, { mode: 'manual' })).items;
			expect(identity(event)).toBe(`refresh:${bad}:failed`);
			expect(event.sample).toBeUndefined();
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
	});

	test("state per account: after the credential moves to another account, that account's tasks are emitted (not hidden by the old account's watermark)", async () => {
		await v.control('POST', '/management/accounts', { username: 'other', password: 'other-password', balance: 1000 });
		const other = { vendorApi: { apiUrl: v.url, username: 'other', password: 'other-password' } };
		expect((await v.api('cdn/domainAdd', { name: 'other.example.org', type: 'cloud', ip: { '192.0.2.11': 80 } }, 'other', 'other-password')).code).toBe(1);
		// the other account's task, still running, has a lower id than the demo account's
		const theirs = Number((await v.api('cdn/refresh', { type: 'file', urls: 'https://other.example.org/a.js' }, 'other', 'other-password')).data.id);
		const ours = [await refresh(), await refresh()];
		expect(theirs).toBeLessThan(Math.min(...ours));
		const staticData = {};
		const kinds = { kinds: ['refresh'], finalState: 'both' };
		expect((await poll(kinds, { staticData, activation: true })).items).toEqual([]);
		expect((await poll(kinds, { staticData, credentials: other })).items).toEqual([]); // a baseline of the other account
		await advance(v, 1.5 * HOUR);
		const r = await poll(kinds, { staticData, credentials: other });
		expect(r.items.map(identity)).toEqual([`refresh:${theirs}:succeeded`]);
		expect((await poll(kinds, { staticData, credentials: other })).items).toEqual([]);
	});
});

/** The simulation (taskTrigger.simulation.js: what it does and checks), in a plain Node process; a safety cap, not a measure. */
const SIMULATION = require.resolve('./taskTrigger.simulation');
const SIMULATION_TIMEOUT_MS = 600000;

describe('simulation', () => {
	test('1000 polls with tasks and backups finishing, failed polls and restarts: every final state once, nothing else', async () => {
		const r = await runSimulation(SIMULATION, { seed: 7001, polls: 1000, cursor: 'live' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
		expect(r.failedPolls).toBeGreaterThan(20);
		expect(r.backup).toBeGreaterThan(100);
		expect(r.requestsPerCleanPoll).toBeLessThan(3.5);
	}, SIMULATION_TIMEOUT_MS);

	test('the same with durable (staged) poll cursors', async () => {
		await runSimulation(SIMULATION, { seed: 7002, polls: 300, cursor: 'staged' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
	}, SIMULATION_TIMEOUT_MS);
});

'use strict';
/**
 * Vendor Cloud Host's waits ("Wait Until Running", "Wait for Completion") through n8n-core against
 * the emulator: what each wait reports it saw (`wait`), which statuses end a wait as a failure
 * (host 3 abnormal, 7 deleting, 9 recycle bin; backup 2 failed, 3 in arrears, 4 recycle bin), and
 * the same with status values as numbers (dialect numbersAsNumbers) and as strings
 * (numbersAsStrings), with unknown extra fields (extraFields).
 *
 * The order of events is fixed by counting reads, not by time: `afterRead(path, n, fn)` runs `fn`
 * in the emulator right after it answered the n-th request to `path` (counted from the call), so
 * "the first read after the request sees Creating, the second Running" holds on any machine.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
const HOUR = 3600e3;
let v;

beforeAll(async () => {
	v = await startVendor({ management: { timing: { taskDelayMs: HOUR, hostCreateMs: HOUR, hostReinstallMs: HOUR, backupMs: HOUR } } });
});
afterAll(() => v.close());
beforeEach(async () => {
	await v.control('POST', '/dialects', { set: [] });
	await v.control('POST', '/reset');
	v._tokens = {};
	for (const [path, original] of wrapped) v.emu.management.core.routes[path].handler = original;
	wrapped.clear();
});

const run = (parameters) => v.run(NODE, parameters);
const ok = (parameters) => v.ok(NODE, parameters);
const hostState = (id) => v.emu.management.state.instance.hosts[Number(id)];
const addHost = async (fields = {}) => Number((await v.control('POST', '/management/instance/hosts/add', { name: 'web-1', status: 1, ...fields })).host.id);
const setHost = (id, status) => v.control('POST', '/management/instance/hosts/status', { id, status });
const advance = (ms) => v.control('POST', '/clock/advance', { ms });

const wrapped = new Map();
/** Runs `fn` right after the emulator answered the n-th request to `path` from now on. */
function afterRead(path, n, fn) {
	const route = v.emu.management.core.routes[path];
	if (!wrapped.has(path)) wrapped.set(path, route.handler);
	const inner = route.handler;
	let count = 0;
	route.handler = async (rq) => {
		const out = await inner(rq);
		count++;
		if (count === n) await fn();
		return out;
	};
}

const createParams = (extra = {}) => ({
	resource: 'host',
	operation: 'create',
	name: 'web',
	nodeid: v.byId(1),
	cpuid: v.byId(1),
	memid: v.byId(2),
	imageid: v.byId(2),
	networkid: v.byId(5),
	networkvalue: 2,
	type: 1,
	pass: 'Secret123x',
	waitUntilRunning: true,
	waitTimeout: 60,
	...extra,
});

describe.each([
	['as the emulator sends them', []],
	['as numbers (numbersAsNumbers, extraFields)', ['numbersAsNumbers', 'extraFields']],
	['as strings everywhere (numbersAsStrings)', ['numbersAsStrings']],
])('status values %s', (_label, dialects) => {
	beforeEach(async () => {
		await v.control('POST', '/dialects', { set: dialects });
	});

	test('reboot of a running host seen running at once: the wait says so and proves nothing', async () => {
		const id = await addHost();
		const [host] = await ok({ resource: 'host', operation: 'reboot', id: [String(id)], waitUntilRunning: true, simplify: false });
		expect(String(host.id)).toBe(String(id));
		expect(host.status).toBe(dialects.includes('numbersAsNumbers') ? 1 : '1'); // the dialect is in force
		if (dialects.includes('extraFields')) expect(Object.keys(host).some((k) => !['id', 'status', 'name', 'wait'].includes(k) && /^x_|^_/.test(k))).toBe(true);
		expect(host.wait).toEqual({
			for: 'running',
			operation: 'reboot',
			before: 'Running',
			observed: ['Running'],
			reads: 1,
			proven: false,
			note: expect.stringMatching(/^The reboot was sent\. The host was Running before it and was listed as Running right after it; the service shows no restart in progress, so this cannot confirm that the restart has finished\./),
		});
	});

	test('reboot of a stopped host: Paused before, Running after, proven', async () => {
		const id = await addHost({ status: 2 });
		const [host] = await ok({ resource: 'host', operation: 'reboot', id: [String(id)], waitUntilRunning: true });
		expect(host.wait).toMatchObject({ operation: 'reboot', before: 'Paused', observed: ['Running'], proven: true });
		expect(host.wait.note).toBe('It was Paused before the reboot and was listed as Running after it.');
	});

	test('start: proven by running; the report says whether it was already running', async () => {
		const stopped = await addHost({ status: 2 });
		const running = await addHost({ name: 'web-2' });
		const out = await ok({ resource: 'host', operation: 'start', id: [String(stopped), String(running)], waitUntilRunning: true });
		expect(out.map((h) => [String(h.id), h.wait.before, h.wait.observed, h.wait.proven])).toEqual([
			[String(stopped), 'Paused', ['Running'], true],
			[String(running), 'Running', ['Running'], true],
		]);
		expect(out[1].wait.note).toBe('It was already Running before the start, and is Running.');
	});

	test('create: Creating, then Running', async () => {
		afterRead('instance/list', 1, () => advance(HOUR + 1)); // the first read sees Creating; then the host is done
		const [host] = await ok(createParams());
		expect(host.wait).toEqual({
			for: 'running',
			operation: 'create',
			before: null,
			observed: ['Creating', 'Running'],
			reads: 2,
			proven: true,
			note: 'The new host was listed as Creating, then Running.',
		});
	});

	test('reinstall: Reinstalling, then Running proves it; Running at once does not', async () => {
		const id = await addHost();
		afterRead('instance/list', 2, () => advance(HOUR + 1)); // read 1: before the request; read 2: Reinstalling
		const [done] = await ok({ resource: 'host', operation: 'reinstall', id: v.byId(id), isChangePass: false, waitUntilRunning: true });
		expect(done.wait).toMatchObject({ operation: 'reinstall', before: 'Running', observed: ['Reinstalling', 'Running'], reads: 2, proven: true });

		// a service that shows the host running at the first read after the request
		const timing = v.emu.management.core.settings.timing;
		timing.hostReinstallMs = 0;
		try {
			const [quick] = await ok({ resource: 'host', operation: 'reinstall', id: v.byId(id), isChangePass: false, waitUntilRunning: true });
			expect(quick.wait).toMatchObject({ operation: 'reinstall', before: 'Running', observed: ['Running'], proven: false });
			expect(quick.wait.note).toMatch(/no Reinstalling status was seen, so this does not show that the reinstall has finished/);
		} finally {
			timing.hostReinstallMs = HOUR;
		}
	});

	test.each([
		[3, 'abnormal'],
		[7, 'being deleted'],
		[9, 'in the recycle bin'],
	])('a host turning %s (%s) ends the wait as a failure', async (status, phrase) => {
		let id;
		afterRead('instance/list', 1, async () => {
			id = Object.values(v.emu.management.state.instance.hosts).find((h) => h.name === 'doomed').id;
			await setHost(id, status);
		});
		const { error } = await run(createParams({ name: 'doomed' }));
		expect(error.message).toBe(`Host "doomed" (${id}) is ${phrase} instead of running`);
		expect(error.description).toMatch(/Statuses seen: Creating, /);
	});

	test('a host still in a state that may end in running is waited for until the timeout', async () => {
		afterRead('instance/list', 1, async () => {
			const h = Object.values(v.emu.management.state.instance.hosts).find((x) => x.name === 'slow');
			await setHost(h.id, 6); // maintenance: not a failure, not running
		});
		const { error } = await run(createParams({ name: 'slow', waitTimeout: 1 }));
		expect(error.message).toMatch(/^Timed out waiting for hosts to run: "slow" \(\d+\) is maintenance$/);
	});

	describe('backups', () => {
		const create = (iid, extra = {}) =>
			run({ resource: 'backup', operation: 'create', iid: v.byId(iid), name: 'nightly', backupType: 1, waitForCompletion: true, waitTimeout: 60, ...extra });

		test('completed: the record as listed, with what the wait saw', async () => {
			const iid = await addHost();
			afterRead('instance/backupList', 1, () => advance(HOUR + 1));
			const { items, error } = await create(iid);
			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('Completed');
			expect(String(items[0].json.statusCode)).toBe('1'); // the code as it came: a number under numbersAsNumbers
			expect(items[0].json.wait).toEqual({ for: 'completed', observed: ['In Progress', 'Completed'], reads: 2, proven: true, note: 'The backup was listed as In Progress, then Completed.' });
		});

		test.each([
			[2, 'failed', /create a new backup/],
			[3, 'held because the account is in arrears (it owes money)', /Recharge the account/],
			[4, 'deleted (in the recycle bin)', /create a new backup/],
		])('status %s ends the wait as a failure', async (status, meaning, fix) => {
			const iid = await addHost();
			afterRead('instance/backupList', 1, async () => {
				const b = Object.values(v.emu.management.state.instance.backups).find((x) => x.iid === iid);
				await v.control('POST', '/management/instance/backups/status', { id: b.id, status });
			});
			const { error } = await create(iid);
			expect(error.message).toBe(`Backup "nightly" is ${meaning} instead of completed`);
			expect(error.description).toMatch(fix);
		});
	});
});

test('the statuses before a reboot are read only when waiting, and a failed read does not stop the reboot', async () => {
	const id = await addHost({ status: 2 });
	const before = (await v.control('GET', '/stats')).management.requests['instance/list'] || 0;
	const [plain] = await ok({ resource: 'host', operation: 'reboot', id: [String(id)] });
	expect(plain.wait).toBeUndefined();
	expect((await v.control('GET', '/stats')).management.requests['instance/list'] || 0).toBe(before);

	await setHost(id, 2);
	await v.control('POST', '/faults', { inject: [{ op: 'instance/list', kind: 'http', status: 500, times: 4 }] }); // the read before and its three retries
	const [host] = await ok({ resource: 'host', operation: 'reboot', id: [String(id)], waitUntilRunning: true });
	expect(hostState(id).status).toBe(1);
	expect(host.wait).toMatchObject({ before: null, observed: ['Running'], proven: false });
	expect(host.wait.note).toMatch(/^The reboot was sent\. The host was not read before it and was listed as Running right after it/);
});

'use strict';
/**
 * Vendor Cloud Host: every operation through n8n-core's WorkflowExecute against the emulator,
 * with assertions on the output and on the emulator's state.
 */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
const PASS = 'Secret123x';
let v;
let creds;

beforeAll(async () => {
	v = await startVendor({ management: { timing: { taskDelayMs: 100, hostCreateMs: 150, hostReinstallMs: 150, backupMs: 250 } } });
	creds = { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } };
});
afterAll(() => v.close());

/**
 * Host actions answer with (part of) the host record; these tests check the service's fields, so
 * they run with Simplify off unless a test sets it (simplified output: test/nodes/cloudHost/simplify.test.js).
 */
const HOST_ACTIONS = new Set(['create', 'reinstall', 'update', 'start', 'stop', 'reboot', 'star']);
const raw = (parameters) => (parameters.resource === 'host' && HOST_ACTIONS.has(parameters.operation) && parameters.simplify === undefined ? { ...parameters, simplify: false } : parameters);
const run = (parameters, opts) => v.ok(NODE, raw(parameters), opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const inst = () => v.emu.management.state.instance;
const hostState = (id) => inst().hosts[Number(id)];
const fromList = (id) => ({ __rl: true, mode: 'list', value: String(id) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Parameters of a small on-demand host on the BGP line of data centre 1. */
const createParams = (extra = {}) => ({
	resource: 'host',
	operation: 'create',
	name: 'web',
	nodeid: fromList(1),
	cpuid: fromList(1),
	memid: fromList(2),
	imageid: fromList(2),
	networkid: fromList(5),
	networkvalue: 2,
	type: 1,
	pass: PASS,
	...extra,
});

/** Hosts added through the emulator's control route (no charge, already running). */
async function addHosts(n, extra = {}) {
	const ids = [];
	for (let i = 0; i < n; i++) {
		const r = await v.control('POST', '/management/instance/hosts/add', { name: `fixture-${i}`, nodeid: 1, status: 1, ...extra });
		ids.push(Number(r.host.id));
	}
	return ids;
}

/** Runs a node that must fail before any request: the emulator's request count stays put. */
async function rejectedBeforeSending(parameters) {
	await run({ resource: 'dataCentre', operation: 'getAll', simplify: false, returnAll: true }); // token in place
	const before = await requests();
	const error = await fails(parameters);
	expect(await requests()).toBe(before);
	return error;
}

describe('catalogue', () => {
	test('data centres, CPU and memory packages (under result), images and lines of a data centre', async () => {
		const centres = await run({ resource: 'dataCentre', operation: 'getAll', simplify: false, returnAll: true });
		expect(centres.map((c) => c.areaname)).toEqual(['North Zone 1', 'East Zone 2', 'South Zone 3', 'West Zone 4 (sold out)']);
		expect(await run({ resource: 'dataCentre', operation: 'getAll', simplify: false, returnAll: false, limit: 2 })).toHaveLength(2);

		const cpus = await run({ resource: 'cpuPackage', operation: 'getAll', simplify: false, returnAll: true });
		expect(cpus.map((c) => c.volume)).toEqual(['1', '2', '4', '8', '16']);
		const mems = await run({ resource: 'memoryPackage', operation: 'getAll', simplify: false, returnAll: true });
		expect(mems.map((m) => m.volume)).toEqual(['1', '2', '4', '8', '16', '32']);
		const images = await run({ resource: 'image', operation: 'getAll', simplify: false, returnAll: true });
		expect(images[1]).toMatchObject({ id: '2', image_id: 'img-ubuntu2204', osname: 'Ubuntu 22.04 64-bit' });

		const lines = await run({ resource: 'line', operation: 'getAll', simplify: false, nodeid: v.byId(2), returnAll: true });
		expect(lines.map((l) => l.id)).toEqual(['1', '4', '5', '6']);
		expect(lines.every((l) => l.node.id === '2')).toBe(true);
		expect(lines.map((l) => l.linetype)).toEqual(['1', '4', '5', '6']); // the line codes instance/create takes
	});

	test('dropdowns: the line list depends on the chosen data centre', async () => {
		const credentials = creds;
		const lines = async (nodeid) =>
			(await n8n.listSearch(NODE, 'searchLines', { parameters: { resource: 'host', operation: 'create', nodeid: fromList(nodeid) }, credentials })).results;
		expect((await lines(1)).map((r) => r.value)).toEqual(['1', '2', '3', '5']);
		expect((await lines(2)).map((r) => r.value)).toEqual(['1', '4', '5', '6']);
		expect((await lines(2))[3].name).toBe('Dual Line (East Zone 2)');
		// "By ID" values are read the same way
		const byId = await n8n.listSearch(NODE, 'searchLines', { parameters: { resource: 'host', operation: 'create', nodeid: v.byId(3) }, credentials });
		expect(byId.results.map((r) => r.value)).toEqual(['1', '2', '3', '6']);

		const centres = await n8n.listSearch(NODE, 'searchDataCentres', { credentials, filter: 'east' });
		expect(centres.results).toEqual([{ name: 'East Zone 2', value: '2' }]);
		const cpus = await n8n.listSearch(NODE, 'searchCpuPackages', { credentials });
		expect(cpus.results[0]).toEqual({ name: '1 CPU', value: '1' });
		const mems = await n8n.loadOptions(NODE, 'getMemPackageOptions', { credentials });
		expect(mems.map((o) => o.value)).toEqual(['1', '2', '3', '4', '5', '6']);
		const images = await n8n.listSearch(NODE, 'searchImages', { credentials, filter: 'debian' });
		expect(images.results.map((r) => r.value)).toEqual(['3']);
	});
});

describe('hosts', () => {
	let host; // created and running
	let trio; // three hosts for power operations

	test('create a host and wait until it is running', async () => {
		const [created] = await run(createParams({ waitUntilRunning: true, waitTimeout: 20, additionalFields: { note: 'front end' } }));
		expect(created).toMatchObject({ name: 'web', note: 'front end', status: '1', nodeid: '1', network: { id: '5', line: 'BGP' }, networkvalue: '2' });
		expect(created.ips).toHaveLength(1);
		host = Number(created.id);
		expect(hostState(host).status).toBe(1);
		expect(hostState(host).paytype).toBe(1);
	});

	test('node versions: a workflow saved at version 1 sends the 40 GB system disk it always sent; version 1.1 sends a size only when one is set', async () => {
		const sent = async (parameters, typeVersion) => {
			await v.control('POST', '/stats/reset');
			await run(createParams({ name: `v${typeVersion}`, ...parameters }), { typeVersion });
			const { requests: log } = await v.control('GET', '/requests');
			return log.find((r) => r.path === 'instance/create').body;
		};
		// a saved workflow holds only what differs from the defaults: here, no disk size at all
		expect((await sent({}, 1)).diskvalue).toBe(40);
		expect(await sent({}, 1.1)).not.toHaveProperty('diskvalue');
		expect((await sent({ additionalFields: { diskvalue: 60 } }, 1.1)).diskvalue).toBe(60);
		// a version-1 workflow's top-level size is read as before; 1.1 has no such top-level parameter
		expect((await sent({ diskvalue: 80 }, 1)).diskvalue).toBe(80);
		expect(await sent({ diskvalue: 80 }, 1.1)).not.toHaveProperty('diskvalue');
	});

	test('create without waiting answers the new ids while the host is still creating', async () => {
		const [created] = await run(createParams({ name: 'quick', networkid: fromList(1), networkvalue: 0 }));
		expect(Object.keys(created).sort()).toEqual(['id', 'instance_id']);
		expect(created.instance_id).toMatch(/^ins-/);
		const h = hostState(created.id);
		expect(h.status).toBe(0);
		expect(h.networkid).toBe(1); // inner network: no bandwidth needed
		expect(h.ips).toEqual([]);
	});

	test('create three monthly hosts with a coupon and wait for all of them', async () => {
		const core = v.emu.management.core;
		const balance = () => Number(core.balanceOf(core.accountByName('demo').uid).price);
		const balanceBefore = balance();
		const out = await run(createParams({ name: 'pool', num: 3, type: 2, couponprice: 3, waitUntilRunning: true, waitTimeout: 20 }));
		expect(out.map((h) => h.name)).toEqual(['pool-1', 'pool-2', 'pool-3']);
		expect(out.every((h) => h.status === '1' && h.paytype === '2')).toBe(true);
		trio = out.map((h) => Number(h.id));
		// monthly price of 1 CPU, 2 G, 2 Mbps, 40 G disk: 20 + 20 + 30 + 12 = 82 each, less the coupon
		const spent = balanceBefore - balance();
		expect(spent).toBeCloseTo(3 * 82 - 3, 2);
	});

	test('waiting works from instance_id alone, the only field the documents give for create (readings R65)', async () => {
		const route = v.emu.management.core.routes['instance/create'];
		const original = route.handler;
		route.handler = async (rq) => {
			const out = await original(rq);
			delete out.data.id; // the emulator's additive extra
			return out;
		};
		try {
			const out = await run(createParams({ name: 'bare', num: 2, waitUntilRunning: true, waitTimeout: 10 }));
			expect(out.map((h) => [h.name, h.status])).toEqual([
				['bare-1', '1'],
				['bare-2', '1'],
			]);
		} finally {
			route.handler = original;
		}
	});

	test('the coupon amount is only sent for monthly or yearly billing', async () => {
		// the service refuses a coupon on demand; the hidden field must not be sent
		const [created] = await run(createParams({ name: 'ondemand', type: 1, couponprice: 5 }));
		expect(hostState(created.id).paytype).toBe(1);
	});

	test('password rules and the quantity limit are the service\'s: its own error is shown, without the password', async () => {
		const refused = async (parameters, path = 'instance/create') => {
			await run({ resource: 'dataCentre', operation: 'getAll', simplify: false, returnAll: true });
			const before = await requests();
			const error = await fails(parameters);
			expect(await requests()).toBe(before + 1);
			expect(error.description).toContain(`${path} with code `);
			return error;
		};
		let error = await refused(createParams({ pass: 'weakpass' }));
		expect(error.message).toMatch(/^"Administrator Password"/);
		expect(error.message).not.toContain('weakpass');
		expect(error.description).not.toContain('weakpass');
		error = await refused(createParams({ num: 0 }));
		expect(error.message).toMatch(/^"Quantity"/);
		error = await refused(createParams({ num: 11 }));
		expect(error.message).toMatch(/^"Quantity"/);
		const disks = await run({ resource: 'hostDisk', operation: 'getAll', simplify: false, iid: v.byId(host), returnAll: true });
		error = await refused({ resource: 'host', operation: 'updateConfiguration', iid: v.byId(host), diskresize: { rows: [{ disk: disks[0].disk_id, size: 0 }] } }, 'instance/upgrade');
		expect(error.message).toMatch(/^"Disk Resize" entry 1: /);
	});

	test('bad input is rejected before anything is sent', async () => {
		let error = await rejectedBeforeSending(createParams({ networkvalue: 0 }));
		expect(error.message).toMatch(/"Bandwidth" field is required for a public line/);
		expect(error.description).toMatch(/Inner Network/);

		error = await rejectedBeforeSending({ resource: 'host', operation: 'updateConfiguration', iid: v.byId(host) });
		expect(error.message).toBe('Nothing to change');

		// n8n itself refuses an empty required field; one that an expression leaves empty is caught by the node
		error = await rejectedBeforeSending({ resource: 'host', operation: 'reinstall', id: v.byId(host), isChangePass: true, password: '={{ "" }}' });
		expect(error.message).toBe('The "Administrator Password" field is required');
		await expect(v.run(NODE, { resource: 'host', operation: 'reinstall', id: v.byId(host), isChangePass: true, password: '' })).rejects.toThrow(
			/Parameter "Administrator Password" is required/,
		);
	});

	test('stop, start and reboot several hosts at once', async () => {
		const ids = trio.map(String);
		const [stopped] = await run({ resource: 'host', operation: 'stop', id: ids });
		expect(stopped.status).toBe('2');
		expect(stopped.name).toBe('pool-1,pool-2,pool-3');
		expect(trio.map((id) => hostState(id).status)).toEqual([2, 2, 2]);

		const paused = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 2 } });
		expect(paused.map((h) => Number(h.id)).sort()).toEqual([...trio].sort());

		const started = await run({ resource: 'host', operation: 'start', id: ids, waitUntilRunning: true, waitTimeout: 10 });
		expect(started.map((h) => Number(h.id))).toEqual(trio);
		expect(started.every((h) => h.status === '1')).toBe(true);
		expect(trio.map((id) => hostState(id).status)).toEqual([1, 1, 1]);

		await run({ resource: 'host', operation: 'stop', id: [ids[0]] });
		const [rebooted] = await run({ resource: 'host', operation: 'reboot', id: ids.slice(0, 2) });
		expect(rebooted).toMatchObject({ status: '1', name: 'pool-1,pool-2' });
		expect(hostState(trio[0]).status).toBe(1); // a stopped host comes back running
		const waited = await run({ resource: 'host', operation: 'reboot', id: ids, waitUntilRunning: true });
		expect(waited).toHaveLength(3);
	});

	test('rename, note, star and filters of Get Many', async () => {
		const [renamed] = await run({ resource: 'host', operation: 'update', id: v.byId(host), updateFields: { name: 'web-renamed', note: 'primary' } });
		expect(renamed).toEqual({ instance_id: hostState(host).instance_id, name: 'web-renamed', note: 'primary' });

		const [starred] = await run({ resource: 'host', operation: 'star', id: v.byId(host), mark: true });
		expect(starred.mark).toBe('1');
		let list = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true, filters: { mark: 1 } });
		expect(list.map((h) => Number(h.id))).toEqual([host]);
		const [unstarred] = await run({ resource: 'host', operation: 'star', id: v.byId(host), mark: false });
		expect(unstarred.mark).toBe('0');
		expect(hostState(host).mark).toBe(0);

		list = await run({ resource: 'host', operation: 'getAll', returnAll: true, filters: { id: host } });
		expect(list).toHaveLength(1);
		// simplified by default (words for codes, English names), whole records on request
		expect(list[0]).toMatchObject({ id: String(host), name: 'web-renamed', status: 'Running', statusCode: '1', starred: false, note: 'primary' });
		expect(Object.keys(list[0]).filter((k) => /_/.test(k))).toEqual([]);
		const [full] = await run({ resource: 'host', operation: 'getAll', returnAll: true, simplify: false, filters: { id: host } });
		expect(full).toMatchObject({ mac: expect.any(String), createtime: expect.any(String), mark: '0' });

		const inner = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true, filters: { nodeid: '1', imageid: '2' } });
		expect(inner.length).toBeGreaterThanOrEqual(5);
		expect(await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true, filters: { nodeid: '2' } })).toEqual([]);
		expect(await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: false, limit: 2 })).toHaveLength(2);

		const found = await n8n.listSearch(NODE, 'searchHosts', { credentials: creds, filter: 'web-renamed' });
		// its name, instance ID and first IP, as every host is shown
		expect(found.results).toEqual([{ name: expect.stringMatching(/^web-renamed \([^,()]+, 203\.0\.[\d.]+\)$/), value: String(host) }]);
	});

	test('console access, sending keys and monitoring points', async () => {
		// simplified (the default): which host, the console's server and port, one address to open
		const [consoleInfo] = await run({ resource: 'host', operation: 'getConsole', id: v.byId(host) });
		expect(consoleInfo).toEqual({
			hostId: String(host),
			consoleServer: expect.stringMatching(/^vnc\./),
			consolePort: expect.any(Number),
			consoleAddress: `${consoleInfo.consoleServer}:${consoleInfo.consolePort}`,
			ticket: expect.any(String),
			token: expect.any(String),
		});
		// the service's own answer with Simplify off
		const [raw] = await run({ resource: 'host', operation: 'getConsole', id: v.byId(host), simplify: false });
		expect(raw).toEqual({ host: consoleInfo.consoleServer, port: String(consoleInfo.consolePort), ticket: expect.any(String), vendortoken: expect.any(String) });

		const [keys] = await run({ resource: 'host', operation: 'sendKeys', id: v.byId(host), key: 'ctrl-alt-delete' });
		expect(keys).toEqual({ id: host, message: 'success' }); // no data: the host and the service's message

		const points = await run({ resource: 'host', operation: 'getMonitoring', id: v.byId(host), type: 'day' });
		expect(points).toHaveLength(288);
		for (const p of points) {
			expect(Object.keys(p).sort()).toEqual(['metric', 'time', 'timestamp', 'value']);
			expect(p.metric).toBe('cpu');
			expect(p.time).toBe(new Date(p.timestamp).toISOString());
			expect(typeof p.value).toBe('number');
		}
		expect(points[1].timestamp - points[0].timestamp).toBe(300000);
		const hour = await run({ resource: 'host', operation: 'getMonitoring', id: v.byId(host), type: 'hour', additionalFields: { formatted: true } });
		expect(hour).toHaveLength(60);
		expect(hour.every((p) => Math.round(p.value * 100) / 100 === p.value)).toBe(true);
		expect(points.some((p) => Math.round(p.value * 100) / 100 !== p.value)).toBe(true); // unformatted: 4 decimals
	});

	test('change configuration: packages and disk resize rows from the host disk list', async () => {
		// a data disk bound to the host, next to its system disk
		const disk = await v.api('instance/cloudDiskAdd', { nodeid: 1, disk_name: 'data-1', value: 20 });
		expect(disk.code).toBe(1);
		expect((await v.api('instance/cloudDiskBind', { id: String(disk.data.id), iid: host })).code).toBe(1);

		const options = await n8n.loadOptions(NODE, 'getHostDiskVolumeOptions', {
			parameters: { resource: 'host', operation: 'updateConfiguration', iid: v.byId(host) },
			credentials: creds,
		});
		expect(options).toHaveLength(2);
		const [system, data] = options;
		expect(system.name).toMatch(/-system \(40 G\)$/);
		expect(data.name).toBe('data-1 (20 G)');
		expect(system.value).toMatch(/^vol-/);

		const [changed] = await run({
			resource: 'host',
			operation: 'updateConfiguration',
			iid: fromList(host),
			diskresize: { rows: [{ disk: system.value, size: 60 }, { disk: data.value, size: 40 }] },
			updateFields: { cpuid: '2', memid: '3', networkvalue: 5 },
			simplify: false,
		});
		expect(changed).toEqual({ instance_id: hostState(host).instance_id, name: 'web-renamed' });
		const h = hostState(host);
		expect([h.cpuid, h.memid, h.networkvalue, h.diskvalue]).toEqual([2, 3, 5, 60]);
		const disks = await run({ resource: 'hostDisk', operation: 'getAll', simplify: false, iid: v.byId(host), returnAll: true });
		expect(disks.map((d) => [d.disk_id, d.value])).toEqual([
			[system.value, '60'],
			[data.value, '40'],
		]);
		const bound = await run({ resource: 'hostDisk', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 1 } });
		expect(bound).toEqual([]);
	});

	test('resize one host disk', async () => {
		const disks = await run({ resource: 'hostDisk', operation: 'getAll', simplify: false, iid: v.byId(host), returnAll: true });
		const options = await n8n.loadOptions(NODE, 'getHostDiskOptions', { parameters: { resource: 'hostDisk', operation: 'resize', iid: v.byId(host) }, credentials: creds });
		expect(options.map((o) => o.value)).toEqual(disks.map((d) => d.id));
		const [resized] = await run({ resource: 'hostDisk', operation: 'resize', iid: v.byId(host), id: fromList(disks[0].id), value: 80, simplify: false });
		expect(resized).toEqual({ iid: String(host), instance_id: hostState(host).instance_id, disk_id: disks[0].disk_id, value: '80' });
		expect(hostState(host).diskvalue).toBe(80);
	});

	test('reinstall with a new password and wait until running', async () => {
		const op = run({ resource: 'host', operation: 'reinstall', id: v.byId(trio[2]), isChangePass: true, password: 'Fresh-pass9', waitUntilRunning: true, waitTimeout: 10 });
		const [reinstalled] = await op;
		expect(reinstalled).toMatchObject({ id: String(trio[2]), status: '1' });
		const [plain] = await run({ resource: 'host', operation: 'reinstall', id: v.byId(trio[2]), isChangePass: false });
		expect(plain).toEqual({ instance_id: hostState(trio[2]).instance_id, name: 'pool-3' });
		expect(hostState(trio[2]).status).toBe(4); // reinstalling
	});

	test('waiting fails when a host turns abnormal, and after the timeout', async () => {
		const timing = v.emu.management.core.settings.timing;
		const saved = timing.hostCreateMs;
		timing.hostCreateMs = 60000;
		try {
			const pending = v.run(NODE, createParams({ name: 'doomed', waitUntilRunning: true, waitTimeout: 20 }));
			let doomed;
			for (let i = 0; i < 50 && !doomed; i++) {
				await sleep(50);
				doomed = Object.values(inst().hosts).find((h) => h.name === 'doomed');
			}
			await sleep(100);
			await v.control('POST', '/management/instance/hosts/status', { id: doomed.id, status: 3, suspend_note: 'hardware fault' });
			const { error } = await pending;
			expect(error.message).toBe(`Host "doomed" (${doomed.id}) is abnormal instead of running`);
			expect(error.description).toMatch(/hardware fault/);

			const started = Date.now();
			const slow = await fails(createParams({ name: 'slow', waitUntilRunning: true, waitTimeout: 1 }));
			expect(slow.message).toMatch(/^Timed out waiting for hosts to run: "slow" \(\d+\) is creating$/);
			expect(Date.now() - started).toBeLessThan(3000);
		} finally {
			timing.hostCreateMs = saved;
		}
	});

	describe('backups', () => {
		let first;

		test('a backup is in progress, then completed', async () => {
			// a long backup, finished by moving the emulator clock, so a busy machine cannot finish it early
			const timing = v.emu.management.core.settings.timing;
			const saved = timing.backupMs;
			timing.backupMs = 60000;
			const [created] = await run({ resource: 'backup', operation: 'create', iid: v.byId(host), name: 'nightly', backupType: 2, additionalFields: { note: 'all disks' }, simplify: false });
			timing.backupMs = saved;
			expect(created).toMatchObject({ instance_id: hostState(host).instance_id, name: 'web-renamed', snaphsot_name: 'nightly', note: 'all disks' });
			expect(created.backup_id).toMatch(/^bak-/);
			let [listed] = await run({ resource: 'backup', operation: 'getAll', simplify: false, iid: v.byId(host), returnAll: true });
			expect(listed).toMatchObject({ backup_id: created.backup_id, status: '0', backup_type: '2', value: '120' });
			expect(Number(listed.progress)).toBeLessThan(100);
			first = listed;
			await v.control('POST', '/clock/advance', { ms: 60001 });
			[listed] = await run({ resource: 'backup', operation: 'getAll', iid: v.byId(host), returnAll: true, filters: { status: 1 } });
			// simplified: the word for the status next to its code, numbers as numbers
			expect(listed).toMatchObject({ backupId: created.backup_id, status: 'Completed', statusCode: '1', progress: 100, type: 'System and Data Disks', typeCode: '2', value: 120 });
			expect(listed.createtime_ago).toBeUndefined();
			const [full] = await run({ resource: 'backup', operation: 'getAll', iid: v.byId(host), returnAll: true, simplify: false });
			expect(full).toMatchObject({ note: 'all disks', createtime_ago: expect.any(String) });
		});

		test('create with Wait for Completion answers the completed backup', async () => {
			const [done] = await run({ resource: 'backup', operation: 'create', iid: v.byId(host), name: 'second', backupType: 1, waitForCompletion: true, waitTimeout: 10 });
			expect(done).toMatchObject({ name: 'second', status: 'Completed', statusCode: '1', progress: 100, type: 'System Disk', typeCode: '1' });
			const options = await n8n.loadOptions(NODE, 'getBackupOptions', { parameters: { resource: 'backup', operation: 'update', iid: v.byId(host) }, credentials: creds });
			expect(options.map((o) => o.name)).toEqual([`second (#${done.id})`, `nightly (#${first.id})`]);
		});

		test('update, restore (waiting until the host runs) and delete to the recycle bin', async () => {
			const [updated] = await run({ resource: 'backup', operation: 'update', iid: v.byId(host), id: fromList(first.id), updateFields: { note: 'kept' }, simplify: false });
			expect(updated).toEqual({ instance_id: hostState(host).instance_id, backup_id: first.backup_id, name: 'nightly', note: 'kept' });

			const [restored] = await run({ resource: 'backup', operation: 'restore', id: v.byId(first.id), waitUntilRunning: true, waitTimeout: 10 });
			expect(restored).toMatchObject({ id: String(host), status: 'Running', statusCode: '1' });
			const [plain] = await run({ resource: 'backup', operation: 'restore', id: v.byId(first.id), simplify: false });
			expect(plain).toEqual({ instance_id: hostState(host).instance_id, backup_id: first.backup_id });
			expect(hostState(host).status).toBe(4);
			await v.control('POST', '/management/instance/settle');

			const [deleted] = await run({ resource: 'backup', operation: 'delete', id: v.byId(first.id), simplify: false });
			expect(deleted).toMatchObject({ deleted: true, backup_id: first.backup_id, message: expect.stringMatching(/2 hours/) });
			expect(inst().backups[first.id].status).toBe(4);
			const bin = await run({ resource: 'backup', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 4 } });
			expect(bin.map((b) => b.id)).toEqual([first.id]);
		});
	});

	describe('snapshots', () => {
		test('create, list, update, roll back and delete', async () => {
			const [snap] = await run({ resource: 'snapshot', operation: 'create', iid: v.byId(host), name: 'before-upgrade', additionalFields: { note: 'kernel 6' }, simplify: false });
			expect(snap).toMatchObject({ instance_id: hostState(host).instance_id, snaphsot_name: 'before-upgrade', note: 'kernel 6' });
			const listed = await run({ resource: 'snapshot', operation: 'getAll', simplify: false, iid: v.byId(host), returnAll: true });
			expect(listed).toHaveLength(1);
			const id = listed[0].id;
			expect(listed[0]).toMatchObject({ snapshot_id: snap.snapshot_id, name: 'before-upgrade', instance: { id: String(host) } });

			const [updated] = await run({ resource: 'snapshot', operation: 'update', iid: v.byId(host), id: fromList(id), updateFields: { note: 'kernel 6.1' }, simplify: false });
			expect(updated).toEqual({ instance_id: hostState(host).instance_id, snapshot_id: snap.snapshot_id, name: 'before-upgrade', note: 'kernel 6.1' });

			const [rolledBack] = await run({ resource: 'snapshot', operation: 'rollback', id: v.byId(id), simplify: false });
			expect(rolledBack).toEqual({ instance_id: hostState(host).instance_id, snapshot_id: snap.snapshot_id, name: 'before-upgrade' });
			expect(hostState(host).status).toBe(4); // reinstalling from the snapshot
			await v.control('POST', '/management/instance/settle'); // a second roll back needs the host out of "reinstalling"
			const [running] = await run({ resource: 'snapshot', operation: 'rollback', id: v.byId(id), waitUntilRunning: true, waitTimeout: 10 });
			expect(running).toMatchObject({ id: String(host), status: 'Running', statusCode: '1' });

			const [deleted] = await run({ resource: 'snapshot', operation: 'delete', id: v.byId(id), simplify: false });
			expect(deleted).toMatchObject({ deleted: true, snapshot_id: snap.snapshot_id });
			expect(inst().snapshots[id]).toBeUndefined();
			expect(await run({ resource: 'snapshot', operation: 'getAll', simplify: false, returnAll: true })).toEqual([]);
		});
	});

	test('delete several hosts: they go to the recycle bin', async () => {
		const [deleted] = await run({ resource: 'host', operation: 'delete', id: trio.slice(0, 2).map(String), simplify: false });
		expect(deleted).toMatchObject({ deleted: true, name: 'pool-1,pool-2', message: expect.stringMatching(/2 hours/) });
		expect(trio.map((id) => hostState(id).status)).toEqual([9, 9, expect.any(Number)]);
		const bin = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 9 } });
		expect(bin.map((h) => Number(h.id)).sort()).toEqual(trio.slice(0, 2).sort());
	});
});

describe('Return All', () => {
	test('reads every page of a long host list (3+ pages) and Limit stops early', async () => {
		await v.control('POST', '/management/accounts', { username: 'pager', password: 'Pager-pass1', balance: 0 });
		for (let i = 0; i < 230; i++) await v.control('POST', '/management/instance/hosts/add', { username: 'pager', name: `node-${i}` });
		const ref = v.store.add('vendorApi', { apiUrl: v.url, username: 'pager', password: 'Pager-pass1' });
		const opts = { credentials: { vendorApi: ref } };
		await run({ resource: 'dataCentre', operation: 'getAll', simplify: false, returnAll: true }, opts); // log in

		let before = await requests();
		const all = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: true }, opts);
		expect(await requests()).toBe(before + 3); // pages of 100: 1, then 2 and 3 together
		expect(all).toHaveLength(230);
		expect(new Set(all.map((h) => h.id)).size).toBe(230);
		const ids = all.map((h) => Number(h.id));
		expect(ids).toEqual([...ids].sort((a, b) => b - a)); // page order kept

		before = await requests();
		const some = await run({ resource: 'host', operation: 'getAll', simplify: false, returnAll: false, limit: 150 }, opts);
		expect(some.map((h) => h.id)).toEqual(all.slice(0, 150).map((h) => h.id));
		expect(await requests()).toBe(before + 2);
	});
});

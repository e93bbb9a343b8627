'use strict';
/**
 * The emulator's `instance` group (docs/vendor/hosts-network-dns.md): catalogue, cloud hosts,
 * host disks, backups, snapshots, firewalls and rules, cloud disks and private networks, spoken
 * to over HTTP the way a client does.
 */
const { DEMO, useEmulator, demoBalance } = require('./helpers');

// long delays, driven by advancing the emulator clock, so a busy machine cannot make a state
// change happen before the test looks
const TIMING = { hostCreateMs: 5000, hostReinstallMs: 5000, backupMs: 5000 };
const vendor = useEmulator({ seed: 'demo', management: { timing: TIMING } }, { group: 'instance', login: DEMO });
const { post, api, ok, fail: fails, control } = vendor;
const advance = (ms) => post('/__emulator/clock/advance', { ms });
const hostOf = async (id) => (await ok('list', { id })).data[0];
const demo = () => vendor.emu.management.core.accountByName('demo');
const balance = () => demoBalance(vendor.emu);
const PASS = 'Secret123x';
const base = { nodeid: 1, type: 1, cpuid: 1, memid: 2, imageid: 2, networkid: 5, networkvalue: 2, pass: PASS };

const authorize = () => vendor.authorize(...DEMO);

describe('catalogue', () => {
	test('data centres, packages, lines and images; memory and lines under result', async () => {
		const nodes = await ok('nodeList');
		expect(nodes.data.length).toBeGreaterThanOrEqual(3);
		expect(nodes.data[0]).toEqual({ id: '1', areaname: expect.any(String), status: '1' });

		const cpus = await ok('cpuResourceList');
		expect(cpus.data[0]).toEqual({ id: '1', volume: '1', status: '1' });

		const mems = await ok('memResourceList');
		expect(mems.data).toBeUndefined();
		expect(mems.result.map((m) => m.volume)).toContain('4');

		const lines = await ok('networkResourceList', { nodeid: 2 });
		expect(lines.data).toBeUndefined();
		expect(lines.result.length).toBeGreaterThan(1);
		for (const l of lines.result) {
			expect(l.node).toEqual({ id: '2', areaname: expect.any(String), status: '1' });
			expect(Object.keys(l).sort()).toEqual(['id', 'linetype', 'node', 'status']);
			expect(l.id).toBe(l.linetype); // by default the row id is the line code
		}
		expect(lines.result.map((l) => l.linetype)).toEqual(['1', '4', '5', '6']);
		await fails('networkResourceList', { nodeid: 99 }, /nodeid/);
		await fails('networkResourceList', { nodeid: 'x' }, /nodeid must be an integer/);

		const images = await ok('imageList');
		expect(Object.keys(images.data[0]).sort()).toEqual(['id', 'image_id', 'osdigit', 'osname', 'ostype', 'status']);
	});
});

describe('cloud hosts', () => {
	test('the demo account has three hosts in two data centres, one stopped', async () => {
		const list = await ok('list');
		const demoHosts = list.data.filter((h) => ['web-1', 'db-1', 'batch-1'].includes(h.name));
		expect(demoHosts).toHaveLength(3);
		expect(new Set(demoHosts.map((h) => h.nodeid)).size).toBe(2);
		expect(demoHosts.map((h) => h.status).sort()).toEqual(['1', '1', '2']);
		const web = demoHosts.find((h) => h.name === 'web-1');
		expect(web).toMatchObject({
			cpu: { id: '2', volume: '2' },
			mem: { id: '3', volume: '4' },
			image: { id: '2' },
			network: { id: '5', line: 'BGP' },
			firewall: { id: expect.stringMatching(/^\d+$/), firewall_id: expect.stringMatching(/^sg-/) },
			net: { id: expect.stringMatching(/^\d+$/), vxnet_id: expect.stringMatching(/^vxnet-/) },
			paytype: '2',
			mark: '0',
		});
		expect(web.ips).toHaveLength(1);
		expect(web.innerip).toMatch(/^10\./);
		expect(web.mac).toMatch(/^52:54:00(:[0-9a-f]{2}){3}$/);
		expect(web.createtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
		expect(web.createtime_ago).toMatch(/days ago/);
	});

	test('create: creating (0) becomes running (1) after hostCreateMs and the balance is charged', async () => {
		const before = balance();
		const r = await ok('create', { ...base, name: 'app-1', note: 'created by a test' });
		expect(r.data.instance_id).toMatch(/^ins-[0-9a-f]{8}$/);
		const id = r.data.id;
		const h = await hostOf(id);
		expect(h).toMatchObject({ name: 'app-1', status: '0', note: 'created by a test', networkvalue: '2', diskvalue: '40', paytype: '1' });
		expect(balance()).toBeLessThan(before);
		const pay = vendor.emu.management.state.payments.at(-1);
		expect(pay).toMatchObject({ paytype: 1, bid: Number(id) });
		await advance(TIMING.hostCreateMs + 1);
		expect((await hostOf(id)).status).toBe('1');
	});

	test('create: several hosts, inner network, and the validation of every parameter', async () => {
		const r = await ok('create', { ...base, name: 'farm', networkid: 1, networkvalue: undefined, num: 3 });
		expect(r.data.instance_id.split(',')).toHaveLength(3);
		const ids = r.data.id.split(',');
		const hosts = await Promise.all(ids.map(hostOf));
		expect(hosts.map((h) => h.name)).toEqual(['farm-1', 'farm-2', 'farm-3']);
		expect(hosts[0].ips).toEqual([]);
		expect(hosts[0].networkvalue).toBe('0');

		await fails('create', { ...base, name: undefined }, /name is required/);
		await fails('create', { ...base, name: 'x', nodeid: 42 }, /nodeid: data centre 42/);
		await fails('create', { ...base, name: 'x', nodeid: 4 }, /nodeid.*not open/);
		await fails('create', { ...base, name: 'x', cpuid: 99 }, /cpuid/);
		await fails('create', { ...base, name: 'x', memid: 99 }, /memid/);
		await fails('create', { ...base, name: 'x', imageid: 6 }, /imageid.*not available/);
		await fails('create', { ...base, name: 'x', networkid: 4 }, /networkid: line 4/);
		await fails('create', { ...base, name: 'x', networkid: 7 }, /networkid: 7 is not a line code in data centre 1; the line codes offered there are 1, 2, 3, 5/);
		await fails('create', { ...base, name: 'x', networkvalue: undefined }, /networkvalue is required for a public line/);
		await fails('create', { ...base, name: 'x', type: 4 }, /type must be one of/);
		await fails('create', { ...base, name: 'x', pass: 'short1A' }, /pass must be 8-30/);
		await fails('create', { ...base, name: 'x', pass: 'alllowercase1' }, /pass/);
		await fails('create', { ...base, name: 'x', pass: 'NoDigitsHere' }, /pass/);
		await fails('create', { ...base, name: 'x', num: 11 }, /num must be at most 10/);
		await fails('create', { ...base, name: 'x', num: 0 }, /num must be at least 1/);
		await fails('create', { ...base, name: 'x', couponprice: 5 }, /couponprice is only allowed for monthly or yearly/);
		await fails('create', { ...base, name: 'x', type: 2, couponprice: 100000 }, /couponprice must not exceed/);
		await fails('create', { ...base, name: 'x', cpuid: 'two' }, /cpuid must be an integer/);
	});

	test('create: monthly billing with a coupon; insufficient balance stores nothing', async () => {
		const before = balance();
		const r = await ok('create', { ...base, name: 'monthly', type: 2, couponprice: '10.00' });
		const expected = 20 + 2 * 10 + 2 * 15 + 40 * 0.3 - 10; // cpu 1, mem 2G, 2 Mbps, 40G system disk
		expect(balance()).toBeCloseTo(before - expected, 2);
		expect((await hostOf(r.data.id)).paytype).toBe('2');

		const total = (await ok('list', { limit: 1 })).total;
		await control('/balance', { username: 'demo', price: 0 });
		await fails('create', { ...base, name: 'poor', type: 2 }, /insufficient balance/);
		expect((await ok('list', { limit: 1 })).total).toBe(total);
		await control('/balance', { username: 'demo', price: 1000 });
	});

	test('list: filters, paging over several pages, wrong types rejected', async () => {
		for (let i = 0; i < 4; i++) {
			await control('/instance/hosts/add', { name: `paged-${i}`, nodeid: 3, networkid: 2, imageid: 4, mark: i % 2 });
		}
		const byNode = await ok('list', { nodeid: 3, limit: 1 });
		expect(byNode.total).toBe('4');
		expect(byNode.totalpage).toBe('4');
		const seen = [];
		for (let page = 1; page <= 4; page++) {
			const r = await ok('list', { nodeid: 3, limit: 1, page });
			expect(r.page).toBe(String(page));
			expect(r.limit).toBe('1');
			expect(r.data).toHaveLength(1);
			seen.push(r.data[0].id);
		}
		expect(new Set(seen).size).toBe(4);
		expect((await ok('list', { nodeid: 3, limit: 1, page: 5 })).data).toEqual([]);
		expect((await ok('list', { nodeid: 3, mark: 1 })).data.every((h) => h.mark === '1')).toBe(true);
		expect((await ok('list', { nodeid: 3, mark: 1 })).total).toBe('2');
		expect((await ok('list', { imageid: 4 })).data.every((h) => h.image.id === '4')).toBe(true);
		expect((await ok('list', { status: 2 })).data.every((h) => h.status === '2')).toBe(true);
		expect((await ok('list', { id: seen[0] })).data.map((h) => h.id)).toEqual([seen[0]]);
		await fails('list', { id: 'abc' }, /id must be an integer/);
		await fails('list', { status: 12 }, /status must be one of/);
		await fails('list', { mark: 'yes' }, /mark must be one of/);
		await fails('list', { limit: 0 }, /limit/);
	});

	test('power operations on several ids: stop → 2, start → 1, reset → 1', async () => {
		const a = (await control('/instance/hosts/add', { name: 'pw-a' })).host.id;
		const b = (await control('/instance/hosts/add', { name: 'pw-b' })).host.id;
		const stop = await ok('update', { id: `${a},${b}`, op: 'stop' });
		expect(stop.data).toMatchObject({ status: '2', name: 'pw-a,pw-b' });
		expect(stop.created).toBeDefined();
		expect((await hostOf(a)).status).toBe('2');
		expect((await hostOf(b)).status).toBe('2');
		await fails('sendkey', { id: a, key: 'ctrl-alt-delete' }, /not|cannot/);
		await fails('vncproxy', { id: a }, /cannot open the console/);
		expect((await ok('update', { id: a, op: 'start' })).data.status).toBe('1');
		expect((await hostOf(a)).status).toBe('1');
		expect((await ok('update', { id: b, op: 'reset' })).data.status).toBe('1');
		expect((await hostOf(b)).status).toBe('1');
		await fails('update', { id: a, op: 'pause' }, /op must be one of start, stop, reset/);
		await fails('update', { id: `${a},999999`, op: 'stop' }, /999999/);
		expect((await hostOf(a)).status).toBe('1'); // nothing changed by the failed call
		await fails('update', { id: [a, b], op: 'stop' }, /id must be an id or ids separated by commas/);
	});

	test('restore: reinstalling (4) then running; is_change_pass 1 needs a password', async () => {
		const id = (await control('/instance/hosts/add', { name: 'reinstall-me' })).host.id;
		await fails('restore', { id, is_change_pass: 1 }, /password is required/);
		await fails('restore', { id, is_change_pass: 1, password: 'weak' }, /password must be 8-30/);
		const r = await ok('restore', { id, is_change_pass: 1, password: 'N3wPassword' });
		expect(r.data).toEqual({ instance_id: expect.stringMatching(/^ins-/), name: 'reinstall-me' });
		expect((await hostOf(id)).status).toBe('4');
		await fails('update', { id, op: 'start' }, /reinstalling/);
		await advance(TIMING.hostReinstallMs + 1);
		expect((await hostOf(id)).status).toBe('1');
	});

	test('delete: several ids go to the recycle bin (9), kept 2 hours; again or unknown fails', async () => {
		const a = (await control('/instance/hosts/add', { name: 'del-a' })).host.id;
		const b = (await control('/instance/hosts/add', { name: 'del-b' })).host.id;
		await fails('delete', { id: `${a},424242` }, /424242/);
		expect((await hostOf(a)).status).toBe('1');
		const r = await ok('delete', { id: `${a},${b}` });
		expect(r.message).toMatch(/recycle bin/);
		expect(r.message).toMatch(/2 hours/);
		expect(r.data.name).toBe('del-a,del-b');
		expect(r.created).toMatch(/^\d{4}-/);
		expect((await hostOf(a)).status).toBe('9');
		expect((await ok('list', { status: 9 })).data.map((h) => h.id)).toEqual(expect.arrayContaining([a, b]));
		await fails('delete', { id: a }, /already in the recycle bin/);
		await fails('delete', { id: '987654' }, /does not exist/);
		// after two hours the host is gone
		await advance(2 * 3600 * 1000 + 1000);
		await authorize(); // the token lived 2 hours as well
		expect((await ok('list', { id: a })).data).toEqual([]);
	});

	test('upgrade: packages, bandwidth, paytype and diskresize (only grows, own disks)', async () => {
		const id = (await control('/instance/hosts/add', { name: 'grow', networkid: 5, networkvalue: 1 })).host.id;
		const other = (await control('/instance/hosts/add', { name: 'other' })).host.id;
		const disks = (await ok('diskList', { iid: id })).data;
		const sys = disks.find((d) => d.type === '1');
		const otherSys = (await ok('diskList', { iid: other })).data[0];
		await fails('upgrade', { id }, /nothing to change/);
		await fails('upgrade', { id, cpuid: 77 }, /cpuid/);
		await fails('upgrade', { id, diskresize: `${sys.disk_id},20` }, /diskresize entry 1: .*can only grow/);
		await fails('upgrade', { id, diskresize: `${otherSys.disk_id},80` }, /diskresize entry 1: .*not a disk of host/);
		await fails('upgrade', { id, diskresize: 'garbage' }, /diskresize entry 1 must be <disk_id>,<size>/);
		const r = await ok('upgrade', { id, cpuid: 3, memid: 4, networkvalue: 10, paytype: 2, diskresize: `${sys.disk_id},80;` });
		expect(r.data).toEqual({ instance_id: expect.any(String), name: 'grow' });
		const h = await hostOf(id);
		expect(h).toMatchObject({ cpu: { id: '3', volume: '4' }, mem: { id: '4', volume: '8' }, networkvalue: '10', paytype: '2', diskvalue: '80' });
		expect((await ok('diskList', { iid: id })).data.find((d) => d.type === '1').value).toBe('80');
		const inner = (await control('/instance/hosts/add', { name: 'inner', networkid: 1 })).host.id;
		await fails('upgrade', { id: inner, networkvalue: 5 }, /networkvalue: .*inner network/);
	});

	test('updateBasicinfo, mark, vncproxy, sendkey', async () => {
		const id = (await control('/instance/hosts/add', { name: 'basic' })).host.id;
		const u = await ok('updateBasicinfo', { id, name: 'renamed', note: 'hello' });
		expect(u.data).toEqual({ instance_id: expect.any(String), name: 'renamed', note: 'hello' });
		expect(await hostOf(id)).toMatchObject({ name: 'renamed', note: 'hello' });

		expect((await ok('mark', { id, mark: 1 })).data.mark).toBe('1');
		expect((await ok('list', { mark: 1 })).data.map((h) => h.id)).toContain(id);
		expect((await ok('mark', { id })).data.mark).toBe('0');
		await fails('mark', { id, mark: 2 }, /mark must be one of 0, 1/);

		const v = await ok('vncproxy', { id });
		expect(Object.keys(v.data).sort()).toEqual(['host', 'port', 'ticket', 'vendortoken']);
		expect(v.data.port).toMatch(/^\d+$/);

		const k = await ok('sendkey', { id, key: 'ctrl-alt-delete' });
		expect(k.data).toBeUndefined();
		await fails('sendkey', { id }, /key is required/);
		await fails('sendkey', { id, key: 'ctrl alt' }, /key must be a key combination/);
	});

	test('monitor: cpu points are deterministic per host and time bucket', async () => {
		const [web] = (await ok('list')).data.filter((h) => h.name === 'web-1');
		const a = await ok('monitor', { id: web.id });
		const b = await ok('monitor', { id: web.id, type: 'hour' });
		expect(a.data.cpu).toHaveLength(60);
		expect(a.data.cpu).toEqual(b.data.cpu);
		for (const [ts, v] of a.data.cpu) {
			expect(Number.isInteger(ts)).toBe(true);
			expect(ts % 60000).toBe(0);
			expect(v).toBeGreaterThanOrEqual(0);
			expect(v).toBeLessThanOrEqual(100);
		}
		const day = await ok('monitor', { id: web.id, type: 'day', resultType: 1 });
		expect(day.data.cpu).toHaveLength(288);
		for (const [, v] of day.data.cpu) expect(Math.round(v * 100)).toBeCloseTo(v * 100, 6);
		const other = await ok('monitor', { id: (await ok('list')).data.find((h) => h.name === 'db-1').id });
		expect(other.data.cpu).not.toEqual(a.data.cpu);
		expect((await ok('monitor', { id: web.id, type: 'year' })).data.cpu).toHaveLength(365);
		await fails('monitor', { id: web.id, type: 'decade' }, /type must be one of hour, day, week, month, year/);
	});

	test('diskList and diskResize', async () => {
		const [db] = (await ok('list')).data.filter((h) => h.name === 'db-1');
		const disks = await ok('diskList', { iid: db.id });
		expect(disks.limit).toBe('30');
		expect(disks.data.map((d) => d.type).sort()).toEqual(['1', '2']);
		for (const d of disks.data) {
			expect(d.iid).toBe(db.id);
			expect(d).toHaveProperty('updatetime_ago');
		}
		const bound = await ok('diskList', { status: 0 });
		expect(bound.data.every((d) => d.status === '0')).toBe(true);
		await fails('diskList', { status: 5 }, /status must be one of 0, 1, 2/);
		await fails('diskList', { iid: 31337 }, /iid/);

		const data = disks.data.find((d) => d.type === '2');
		await fails('diskResize', { id: data.id, value: 105 }, /multiple of 10/);
		await fails('diskResize', { id: data.id, value: 50 }, /only grow/);
		const r = await ok('diskResize', { id: data.id, value: 150 });
		expect(r.data).toEqual({ iid: db.id, instance_id: db.instance_id, disk_id: data.disk_id, value: '150' });
		expect((await ok('cloudDiskList', { iid: db.id })).data[0].value).toBe('150');
	});
});

describe('backups and snapshots', () => {
	test('backup: in progress with growing progress, then completed; update, restore, delete', async () => {
		const id = (await control('/instance/hosts/add', { name: 'bk-host' })).host.id;
		const add = await ok('backupAdd', { iid: id, name: 'nightly', backup_type: 1, note: 'first' });
		expect(add.data).toMatchObject({ name: 'bk-host', snaphsot_name: 'nightly', note: 'first', backup_id: expect.stringMatching(/^bak-/) });
		const bid = add.data.id;
		let b = (await ok('backupList', { iid: id })).data[0];
		expect(b).toMatchObject({ status: '0', backup_type: '1', value: '40', instance: { id, name: 'bk-host' } });
		const p0 = Number(b.progress);
		await fails('backupAdd', { iid: id, name: 'again' }, /already in progress/);
		await fails('backupRestore', { id: bid }, /not completed/);
		await fails('backupDelete', { id: bid }, /in progress/);
		await advance(TIMING.backupMs / 2);
		b = (await ok('backupList', { iid: id })).data[0];
		expect(Number(b.progress)).toBeGreaterThan(p0);
		expect(b.status).toBe('0');
		await advance(TIMING.backupMs / 2 + 1);
		b = (await ok('backupList', { iid: id, status: 1 })).data[0];
		expect(b).toMatchObject({ id: bid, status: '1', progress: '100' });

		const up = await ok('backupUpdate', { id: bid, note: 'kept' });
		expect(up.data).toMatchObject({ backup_id: add.data.backup_id, name: 'nightly', note: 'kept' });

		const rs = await ok('backupRestore', { id: bid });
		expect(rs.data).toEqual({ instance_id: add.data.instance_id, backup_id: add.data.backup_id });
		expect((await hostOf(id)).status).toBe('4');
		await control('/instance/settle');
		expect((await hostOf(id)).status).toBe('1');

		const del = await ok('backupDelete', { id: bid });
		expect(del.message).toMatch(/2 hours/);
		expect(del.data).toEqual({ instance_id: add.data.instance_id, name: 'nightly', backup_id: add.data.backup_id });
		expect((await ok('backupList', { iid: id, status: 4 })).data.map((x) => x.id)).toEqual([bid]);
		await fails('backupDelete', { id: bid }, /already in the recycle bin/);
		await fails('backupAdd', { iid: id, name: 'x', backup_type: 3 }, /backup_type/);
		await fails('backupList', { status: 7 }, /status/);
	});

	test('backup type 2 includes the data disks; control backups/status', async () => {
		const [db] = (await ok('list')).data.filter((h) => h.name === 'db-1');
		const add = await ok('backupAdd', { iid: db.id, name: 'full', backup_type: 2 });
		const b = (await ok('backupList', { iid: db.id, status: 0 })).data.find((x) => x.id === add.data.id);
		expect(Number(b.value)).toBeGreaterThan(100);
		const c = await control('/instance/backups/status', { id: add.data.id, status: 2 });
		expect(c.ok).toBe(true);
		expect((await ok('backupList', { iid: db.id, status: 2 })).data.map((x) => x.id)).toEqual([add.data.id]);
	});

	test('snapshots: add, list, update, rollback, delete', async () => {
		const id = (await control('/instance/hosts/add', { name: 'snap-host' })).host.id;
		const add = await ok('snapshotAdd', { iid: id, name: 'before', note: 'n1' });
		expect(add.data).toMatchObject({ name: 'snap-host', snaphsot_name: 'before', note: 'n1', snapshot_id: expect.stringMatching(/^snap-/) });
		const list = await ok('snapshotList', { iid: id });
		expect(list.data).toHaveLength(1);
		expect(list.data[0]).toMatchObject({ name: 'before', status: '1', instance: { id, name: 'snap-host' } });
		const sid = list.data[0].id;
		expect((await ok('snapshotUpdate', { id: sid, note: 'n2' })).data).toMatchObject({ name: 'before', note: 'n2' });
		const rb = await ok('snapshotRollback', { id: sid });
		expect(rb.data).toEqual({ instance_id: add.data.instance_id, snapshot_id: add.data.snapshot_id, name: 'before' });
		expect((await hostOf(id)).status).toBe('4');
		await advance(TIMING.hostReinstallMs + 1);
		expect((await hostOf(id)).status).toBe('1');
		expect((await ok('snapshotDelete', { id: sid })).data.snapshot_id).toBe(add.data.snapshot_id);
		expect((await ok('snapshotList', { iid: id })).data).toEqual([]);
		await fails('snapshotDelete', { id: sid }, /does not exist/);
		await fails('snapshotAdd', { iid: id }, /name is required/);
	});
});

describe('firewalls', () => {
	test('add, list, update; join and leave update the host; delete blocked while hosts are in it', async () => {
		const add = await ok('firewallAdd', { nodeid: 1, name: 'api-sg', note: 'api' });
		expect(add.data).toMatchObject({ nodeid: '1', name: 'api-sg', note: 'api', firewall_id: expect.stringMatching(/^sg-/) });
		const fid = add.data.id;
		expect((await ok('firewallUpdate', { id: fid, name: 'api-sg2' })).data).toMatchObject({ id: fid, name: 'api-sg2', note: 'api' });
		const listed = (await ok('firewallList', { id: fid })).data[0];
		expect(listed).toMatchObject({ name: 'api-sg2', username: 'demo', node: { id: '1' }, num: '0' });
		expect((await ok('firewallList', { nodeid: 2 })).data.some((f) => f.id === fid)).toBe(false);

		const host = (await control('/instance/hosts/add', { name: 'fw-host', nodeid: 1 })).host.id;
		const far = (await control('/instance/hosts/add', { name: 'far', nodeid: 2, networkid: 4 })).host.id;
		await fails('joinFirewall', { fid, iid: far }, /another data centre/);
		const j = await ok('joinFirewall', { fid, iid: host });
		expect(j.data).toEqual({ firewall_id: add.data.firewall_id, name: 'api-sg2', instance_id: expect.any(String) });
		expect((await hostOf(host)).firewall).toEqual({ id: fid, firewall_id: add.data.firewall_id });
		expect((await ok('firewallList', { id: fid })).data[0].num).toBe('1');
		await fails('joinFirewall', { fid, iid: host }, /already in firewall/);
		await fails('firewallDelete', { id: fid }, /let them leave/);
		expect((await ok('leaveFirewall', { id: host })).data.firewall_id).toBe(add.data.firewall_id);
		expect((await hostOf(host)).firewall).toBeNull();
		await fails('leaveFirewall', { id: host }, /not in a firewall/);
		const del = await ok('firewallDelete', { id: fid });
		expect(del.data).toEqual({ firewall_id: add.data.firewall_id, name: 'api-sg2' });
		await fails('firewallDelete', { id: fid }, /does not exist/);
		await fails('firewallAdd', { nodeid: 1 }, /name is required/);
	});

	test('rules: defaults, seq increasing per firewall, filters, validation, update and delete', async () => {
		const fid = (await ok('firewallAdd', { nodeid: 1, name: 'rules-sg' })).data.id;
		const r1 = await ok('firewallRuleAdd', { fid, destport: '22', source: '0.0.0.0/0', note: 'ssh' });
		expect(r1.data).toMatchObject({ direction: 'in', action: 'ACCEPT', protocol: 'tcp', status: '1', destport: '22', source: '0.0.0.0/0', seq: '1' });
		const r2 = await ok('firewallRuleAdd', { fid, direction: 'out', action: 'REJECT', protocol: 'udp', sourceport: 53, destport: '1000-2000,3000', destination: '10.0.0.5', status: 0 });
		expect(r2.data.seq).toBe('2');
		const r3 = await ok('firewallRuleAdd', { fid, protocol: 'icmp' });
		expect(r3.data.seq).toBe('3');

		const list = await ok('firewallRuleList', { fid });
		expect(list.data.map((r) => r.seq)).toEqual(['1', '2', '3']);
		expect((await ok('firewallRuleList', { fid, direction: 'out' })).data.map((r) => r.id)).toEqual([r2.data.id]);
		expect((await ok('firewallRuleList', { fid, status: 0 })).data.map((r) => r.id)).toEqual([r2.data.id]);
		expect((await ok('firewallRuleList', { id: r1.data.id })).data[0].note).toBe('ssh');

		await fails('firewallRuleAdd', { fid, direction: 'both' }, /direction must be one of in, out/);
		await fails('firewallRuleAdd', { fid, action: 'DROP' }, /action must be one of ACCEPT, REJECT/);
		await fails('firewallRuleAdd', { fid, protocol: 'gre' }, /protocol must be one of/);
		await fails('firewallRuleAdd', { fid, sourceport: 70000 }, /sourceport must be at most 65535/);
		await fails('firewallRuleAdd', { fid, sourceport: 'http' }, /sourceport must be an integer/);
		await fails('firewallRuleAdd', { fid, destport: '2000-1000' }, /destport/);
		await fails('firewallRuleAdd', { fid, destport: '0' }, /destport/);
		await fails('firewallRuleAdd', { fid, source: '300.1.1.1' }, /source must be an IPv4/);
		await fails('firewallRuleAdd', { fid, destination: '10.0.0.0/33' }, /destination must be an IPv4/);
		await fails('firewallRuleAdd', { fid, status: 2 }, /status must be one of 0, 1/);
		await fails('firewallRuleAdd', { fid: 123456 }, /fid/);
		expect((await ok('firewallRuleList', { fid })).total).toBe('3');

		const up = await ok('firewallRuleUpdate', { id: r1.data.id, destport: '2222', action: 'reject' });
		expect(up.data).toMatchObject({ id: r1.data.id, seq: '1', destport: '2222', action: 'REJECT', protocol: 'tcp', source: '0.0.0.0/0', firewall_id: expect.stringMatching(/^sg-/) });
		await fails('firewallRuleUpdate', { id: r1.data.id, destport: '1-2-3' }, /destport/);

		const del = await ok('firewallRuleDelete', { id: r2.data.id });
		expect(del.data).toMatchObject({ id: r2.data.id, seq: '2', firewall_id: expect.any(String) });
		const r4 = await ok('firewallRuleAdd', { fid, destport: '443' });
		expect(r4.data.seq).toBe('4');
		expect((await ok('firewallRuleList', { fid })).data.map((r) => r.seq)).toEqual(['1', '3', '4']);
		await fails('firewallRuleDelete', { id: r2.data.id }, /does not exist/);
	});
});

describe('cloud disks', () => {
	test('add validates value, lists by node, status and host; update; delete needs an unbound disk', async () => {
		await fails('cloudDiskAdd', { nodeid: 1, disk_name: 'odd', value: 15 }, /value/);
		await fails('cloudDiskAdd', { nodeid: 1, disk_name: 'big', value: 2010 }, /value/);
		await fails('cloudDiskAdd', { nodeid: 1, disk_name: 'tiny', value: 0 }, /value/);
		const before = balance();
		const add = await ok('cloudDiskAdd', { nodeid: 1, disk_name: 'data-a', value: 50, note: 'n' });
		expect(add.data).toEqual({ id: expect.stringMatching(/^\d+$/), disk_name: 'data-a', nodeid: '1', note: 'n', value: '50' });
		expect(balance()).toBeCloseTo(before - 2.5, 2);
		const id = add.data.id;
		const listed = (await ok('cloudDiskList', { nodeid: 1, status: 1 })).data.find((d) => d.id === id);
		expect(listed).toMatchObject({ disk_name: 'data-a', value: '50', status: '1', instance: null, node: { id: '1' } });
		expect((await ok('cloudDiskUpdate', { id, disk_name: 'data-b', note: 'm' })).data).toEqual({ id, disk_name: 'data-b', note: 'm' });

		const host = (await control('/instance/hosts/add', { name: 'disk-host', nodeid: 1 })).host.id;
		await ok('cloudDiskBind', { id, iid: host });
		await fails('cloudDiskDelete', { id }, /unbind it first/);
		await ok('unbind', { id });
		const del = await ok('cloudDiskDelete', { id });
		expect(del.message).toMatch(/2 hours/);
		expect(del.data).toEqual({ disk_id: expect.stringMatching(/^vol-/), disk_name: 'data-b' });
		expect((await ok('cloudDiskList', { status: 2 })).data.map((d) => d.id)).toContain(id);
		await fails('cloudDiskDelete', { id }, /already in the recycle bin/);
		await fails('cloudDiskBind', { id, iid: host }, /recycle bin/);
	});

	test('bind several disks, unbind, and cloudDiskBind without iid unbinds', async () => {
		const host = (await control('/instance/hosts/add', { name: 'multi-disk', nodeid: 1 })).host;
		const d1 = (await ok('cloudDiskAdd', { nodeid: 1, disk_name: 'm1', value: 10 })).data.id;
		const d2 = (await ok('cloudDiskAdd', { nodeid: 1, disk_name: 'm2', value: 20 })).data.id;
		const d3 = (await ok('cloudDiskAdd', { nodeid: 2, disk_name: 'far', value: 10 })).data.id;
		await fails('cloudDiskBind', { id: `${d1},${d3}`, iid: host.id }, /another data centre/);
		expect((await ok('cloudDiskList', { iid: Number(host.id) })).data).toEqual([]);

		const bind = await ok('cloudDiskBind', { id: `${d1},${d2}`, iid: host.id });
		expect(bind.data).toMatchObject({ disk_name: 'm1,m2', instance_id: host.instance_id, name: 'multi-disk' });
		const bound = await ok('cloudDiskList', { iid: host.id });
		expect(bound.data.map((d) => d.status)).toEqual(['0', '0']);
		expect(bound.data[0].instance).toEqual({ id: host.id, instance_id: host.instance_id, name: 'multi-disk' });
		expect((await ok('diskList', { iid: host.id })).total).toBe('3');
		await fails('cloudDiskBind', { id: d1, iid: host.id }, /already bound/);

		const u = await ok('unbind', { id: d1 });
		expect(u.data).toMatchObject({ disk_name: 'm1', instance_id: host.instance_id, name: 'multi-disk' });
		await fails('unbind', { id: d1 }, /not bound/);
		const viaBind = await ok('cloudDiskBind', { id: String(d2) });
		expect(viaBind.data).toMatchObject({ disk_name: 'm2', instance_id: host.instance_id });
		expect((await ok('cloudDiskList', { iid: host.id })).data).toEqual([]);
		expect((await ok('diskList', { iid: host.id })).total).toBe('1');

		// deleting the host unbinds its disks
		await ok('cloudDiskBind', { id: d1, iid: host.id });
		await ok('delete', { id: host.id });
		expect((await ok('cloudDiskList', { nodeid: 1, status: 1 })).data.map((d) => d.id)).toContain(d1);
		expect((await ok('diskList', { iid: host.id, status: 2 })).data.map((d) => d.type)).toEqual(['1']);
	});
});

describe('private networks', () => {
	test('add, list, update, join, leave, delete', async () => {
		const add = await ok('networkAdd', { nodeid: 2, name: 'lan', note: 'x' });
		expect(add.data).toMatchObject({ nodeid: '2', name: 'lan', note: 'x', vxnet_id: expect.stringMatching(/^vxnet-/), tag: expect.any(String) });
		const nid = add.data.id;
		expect((await ok('networkUpdate', { id: nid, note: 'y' })).data).toMatchObject({ name: 'lan', note: 'y' });
		expect((await ok('networkList', { nodeid: 2 })).data.map((n) => n.id)).toContain(nid);
		expect((await ok('networkList', { id: nid })).data[0]).toMatchObject({ num: '0', username: 'demo', node: { id: '2' } });

		const host = (await control('/instance/hosts/add', { name: 'lan-host', nodeid: 2, networkid: 4 })).host.id;
		const near = (await control('/instance/hosts/add', { name: 'north', nodeid: 1 })).host.id;
		await fails('joinVxnet', { id: nid, iid: near }, /another data centre/);
		const j = await ok('joinVxnet', { id: nid, iid: host });
		expect(j.data).toEqual({ vxnet_id: add.data.vxnet_id, instance_id: expect.stringMatching(/^ins-/) });
		expect((await hostOf(host)).net).toEqual({ id: nid, vxnet_id: add.data.vxnet_id });
		expect((await ok('networkList', { id: nid })).data[0].num).toBe('1');
		await fails('joinVxnet', { id: nid, iid: host }, /already in private network/);
		await fails('networkDelete', { id: nid }, /let them leave/);
		expect((await ok('leaveVxnet', { id: host })).data).toEqual({ vxnet_id: add.data.vxnet_id, instance_id: j.data.instance_id });
		expect((await hostOf(host)).net).toBeNull();
		await fails('leaveVxnet', { id: host }, /not in a private network/);
		expect((await ok('networkDelete', { id: nid })).data).toEqual({ vxnet_id: add.data.vxnet_id });
		expect((await ok('networkList', { id: nid })).data).toEqual([]);
	});
});

describe('control routes and sub-accounts', () => {
	test('force status, remove, add and settle', async () => {
		const h = (await control('/instance/hosts/add', { name: 'ctl', status: 0 })).host;
		expect(h.status).toBe('0');
		expect((await control('/instance/settle')).settled).toBeGreaterThanOrEqual(1);
		expect((await hostOf(h.id)).status).toBe('1');
		await control('/instance/hosts/status', { id: h.id, status: 3 });
		expect((await hostOf(h.id)).status).toBe('3');
		expect((await ok('update', { id: h.id, op: 'reset' })).data.status).toBe('1');
		await control('/instance/hosts/status', { id: h.id, status: 5, suspend_note: 'unpaid' });
		expect(await hostOf(h.id)).toMatchObject({ status: '5', suspend_note: 'unpaid' });
		await fails('update', { id: h.id, op: 'start' }, /restricted/);
		expect((await control('/instance/hosts/remove', { id: h.id })).ok).toBe(true);
		expect((await ok('list', { id: h.id })).data).toEqual([]);
		await fails('mark', { id: h.id, mark: 1 }, /does not exist/);
	});

	test('a sub-account sees only the hosts it was given; other accounts see nothing', async () => {
		const core = vendor.emu.management.core;
		const hosts = (await ok('list', { limit: 1000 })).data;
		const allowed = hosts[0].id;
		const sub = core.createAccount({ username: 'sub_ops', password: 'Sub-pass-1', parent: demo().uid, gid: 77 });
		sub.perms = { 1: [Number(allowed)] };
		const st = vendor.emu.management.state;
		st.account = st.account || {};
		st.account.groupRoles = st.account.groupRoles || [];
		st.account.groupRoles.push({ id: 9901, gid: 77, value: 'API/instance/list' }, { id: 9902, gid: 77, value: 'API/instance/mark' });
		const auth = await post('/API/OAuth/authorize', { username: 'sub_ops', password: 'Sub-pass-1' });
		const subToken = auth.access_token;
		const seen = await ok('list', {}, subToken);
		expect(seen.data.map((h) => h.id)).toEqual([allowed]);
		const denied = await api('mark', { id: hosts[1].id, mark: 1 }, subToken);
		expect(denied.code).toBe(0);
		expect(denied.message).toMatch(/permission denied/);

		core.createAccount({ username: 'stranger', password: 'Stranger-1', balance: 5 });
		const other = (await post('/API/OAuth/authorize', { username: 'stranger', password: 'Stranger-1' })).access_token;
		expect((await ok('list', {}, other)).total).toBe('0');
		const r = await api('delete', { id: allowed }, other);
		expect(r.code).toBe(0);
		expect((await hostOf(allowed)).status).not.toBe('9');
	});

	test('a bad token is answered with code -1', async () => {
		const r = await api('list', {}, 'nope');
		expect(r.code).toBe(-1);
	});
});

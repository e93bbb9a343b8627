'use strict';
/**
 * Group `instance` of the management interface (seed 002 section 4): the catalogue (data
 * centres, CPU and memory packages, lines, images), cloud hosts with their disks, backups
 * and snapshots, firewalls with rules, cloud disks and private networks.
 *
 * Choices where the seed is silent (they are the emulator's, not the vendor's):
 *  - Host status (section 3): create → 0 creating, then 1 running after
 *    settings.timing.hostCreateMs (default 5000 ms of core.now()); restore, backupRestore
 *    and snapshotRollback → 4 reinstalling, then 1 after hostReinstallMs. Transitions are
 *    worked out lazily whenever the group is called (no timers).
 *  - update op: start → 1, stop → 2 (paused, i.e. powered off), reset → 1 (a reboot; a
 *    stopped host comes back running). Power operations, upgrade and reinstall need a host
 *    in 1, 2 or 3; vncproxy and sendkey need 1 running.
 *  - delete → 9 recycle bin: the host leaves its firewall and private network, its cloud
 *    disks are unbound (status 1) and its system disk goes to the recycle bin (2). Hosts,
 *    disks and backups in a recycle bin disappear after 2 hours.
 *  - A host sits in at most one firewall and one private network; joining another one
 *    fails until it leaves. Firewalls and networks cannot be deleted while hosts are in
 *    them; a cloud disk cannot be deleted while bound.
 *  - Backups: status 0 with `progress` growing to 100 over backupMs, then 1. A deleted
 *    backup goes to 4 (recycle bin). Snapshots are created with status 1 and deleted at
 *    once.
 *  - Empty attachments: `firewall` and `net` of a host and `instance` of a cloud disk are
 *    null when nothing is attached.
 *  - Host disk `type`: '1' system disk, '2' data (cloud) disk.
 *  - Prices (monthly): 20.00 per CPU core, 10.00 per G of memory, 15.00 per Mbps of public
 *    bandwidth, 0.30 per G of system disk. On demand (type 1) charges one hour (monthly
 *    / 720), monthly one month, yearly ten months. couponprice is taken off the order.
 *    Cloud disks charge 0.05 per G for the first month. Payments use paytype 1 (host) and
 *    2 (cloud disk) with bid = the resource id.
 *  - Additive extras besides the seed's fields: `id` in the responses of create,
 *    backupAdd, snapshotAdd and firewallRuleAdd; `id` and `seq` in the rule items.
 *  - In backupAdd and snapshotAdd, `name` is the host's name and `snaphsot_name` the new
 *    object's name; elsewhere `name` next to backup_id / snapshot_id is the object's name.
 *  - cloudDiskBind / unbind with several disk ids answer one object whose disk_id and
 *    disk_name are comma-joined (create does the same with instance_id when num > 1).
 *  - monitor: `cpu` holds [ms timestamp, percent] points derived from the host id and the
 *    time bucket only (hour: 60 × 1 min, day: 288 × 5 min, week: 168 × 1 h,
 *    month: 180 × 4 h, year: 365 × 1 day). resultType 1 rounds to 2 decimals, else 4.
 *  - networkResourceList rows are the seed's { id, linetype, node, status }; `linetype` is the
 *    line code of instance/create `networkid` (1 inner network, 2 Telecom, 3 Unicom, 4 Mobile,
 *    5 BGP, 6 dual line; DECISIONS: "a row of networkResourceList gives it as linetype"), as a
 *    string like the other numbers. By default the row `id` equals that code.
 *    Dialect lineIdsDiffer (DECISIONS: "Its row id is not a line code"): the rows get ids
 *    101, 102, ... in catalogue order (data centre, then line), never a line code, and the same
 *    row keeps its id in every listing, also as the `network.id` of a host in instance/list.
 *    instance/create takes only a line code offered in the data centre as networkid, in every
 *    mode; the error names the offered codes.
 *  - A host's `network` is {id: its line's row id, line: the line's name}; dialect hostLineWords
 *    names the line in the service's language (内网, 电信, 联通, 移动, 多线BGP, 双线; the row ids are
 *    then 101... as with lineIdsDiffer), one of them
 *    (多线BGP) a name no table of line names holds (docs/vendor/readings.md#r68).
 *  - Dialect objectIdInAnswers: backupRestore and snapshotRollback answers also carry `id`, the
 *    id of the backup or snapshot restored (docs/vendor/readings.md#r67).
 */
const crypto = require('node:crypto');
const net = require('node:net');
const { ApiError, str, round2, money } = require('./util');
const { sortDesc, sortAsc, routeBuilder, owned, ownedChild, ownedList, where, accountName, requireBalance } = require('./common');

const KEEP_MS = 2 * 3600 * 1000;
const TIMING_DEFAULTS = { hostCreateMs: 5000, hostReinstallMs: 5000, backupMs: 5000 };
const LINE_TYPES = { 1: 'Inner network', 2: 'Telecom', 3: 'Unicom', 4: 'Mobile', 5: 'BGP', 6: 'Dual line' };
/** Dialect hostLineWords: the service's own names of the lines, in its language. */
const LINE_WORDS_ZH = { 1: '内网', 2: '电信', 3: '联通', 4: '移动', 5: '多线BGP', 6: '双线' };

/**
 * The id of a data centre's line row in instance/networkResourceList: the line code by default,
 * 101, 102, ... in catalogue order (data centre, then line) with dialect lineIdsDiffer or
 * hostLineWords.
 */
function lineRowIds(core) {
	const ids = new Map();
	// hostLineWords writes a host's network as its row, whose ids are then 101... too (see the header)
	const differ = core.emu.dialects && (core.emu.dialects.has('lineIdsDiffer') || core.emu.dialects.has('hostLineWords'));
	let next = 101;
	for (const n of S(core).nodes) for (const lt of n.lines) ids.set(`${n.id}/${lt}`, differ ? next++ : lt);
	return ids;
}
const HOST_STATUS = {
	0: 'creating',
	1: 'running',
	2: 'paused',
	3: 'abnormal',
	4: 'reinstalling',
	5: 'restricted',
	6: 'maintenance',
	7: 'deleting',
	8: 'queued',
	9: 'in the recycle bin',
};
const OPERABLE = [1, 2, 3];
const PRICE = { cpu: 20, mem: 10, bandwidth: 15, disk: 0.3, cloudDisk: 0.05 };
const MAX_DATA_DISKS = 8;
const MONITOR_SPANS = {
	hour: [60, 60e3],
	day: [288, 300e3],
	week: [168, 3600e3],
	month: [180, 4 * 3600e3],
	year: [365, 86400e3],
};

const CATALOGUE = {
	nodes: [
		{ id: 1, areaname: 'North Zone 1', code: 'zone-north-1', status: 1, lines: [1, 2, 3, 5] },
		{ id: 2, areaname: 'East Zone 2', code: 'zone-east-2', status: 1, lines: [1, 4, 5, 6] },
		{ id: 3, areaname: 'South Zone 3', code: 'zone-south-3', status: 1, lines: [1, 2, 3, 6] },
		{ id: 4, areaname: 'West Zone 4 (sold out)', code: 'zone-west-4', status: 0, lines: [1, 5] },
	],
	cpus: [1, 2, 4, 8, 16].map((v, i) => ({ id: i + 1, volume: String(v), status: 1 })),
	mems: [1, 2, 4, 8, 16, 32].map((v, i) => ({ id: i + 1, volume: String(v), status: 1 })),
	images: [
		{ id: 1, image_id: 'img-centos79', osname: 'CentOS 7.9 64-bit', ostype: 'linux', osdigit: '64', status: 1 },
		{ id: 2, image_id: 'img-ubuntu2204', osname: 'Ubuntu 22.04 64-bit', ostype: 'linux', osdigit: '64', status: 1 },
		{ id: 3, image_id: 'img-debian12', osname: 'Debian 12 64-bit', ostype: 'linux', osdigit: '64', status: 1 },
		{ id: 4, image_id: 'img-rocky9', osname: 'Rocky Linux 9 64-bit', ostype: 'linux', osdigit: '64', status: 1 },
		{ id: 5, image_id: 'img-win2019', osname: 'Windows Server 2019 64-bit', ostype: 'windows', osdigit: '64', status: 1 },
		{ id: 6, image_id: 'img-centos6', osname: 'CentOS 6.10 64-bit (retired)', ostype: 'linux', osdigit: '64', status: 0 },
	],
};

// ---------------------------------------------------------------- helpers

const S = (core) => core.state.instance;
const timing = (core, key) => core.timing(key, TIMING_DEFAULTS[key]);
const extId = (prefix, id) => `${prefix}-${crypto.createHash('md5').update(`${prefix}:${id}`).digest('hex').slice(0, 8)}`;

function nodeOf(core, id) {
	return S(core).nodes.find((n) => n.id === Number(id));
}

/** Finishes due transitions and empties recycle bins past their 2 hours. */
function tick(core) {
	const s = S(core);
	const now = core.now();
	for (const h of Object.values(s.hosts)) {
		if (h.pending && now >= h.pending.at) {
			finishPending(h);
			h.updatedAt = now;
		}
		if (h.status === 9 && h.deletedAt && now >= h.deletedAt + KEEP_MS) purgeHost(core, h.id);
	}
	for (const d of Object.values(s.disks)) {
		if (d.status === 2 && d.deletedAt && now >= d.deletedAt + KEEP_MS) delete s.disks[d.id];
	}
	for (const b of Object.values(s.backups)) {
		if (b.status === 0 && now >= b.doneAt) finishBackup(b);
		if (b.status === 4 && b.deletedAt && now >= b.deletedAt + KEEP_MS) delete s.backups[b.id];
	}
}

/** Finishes every pending transition at once (the control route /instance/settle). */
function settleAll(core) {
	const s = S(core);
	let n = 0;
	for (const h of Object.values(s.hosts)) {
		if (h.pending) {
			finishPending(h);
			n++;
		}
	}
	for (const b of Object.values(s.backups)) {
		if (b.status === 0) {
			finishBackup(b);
			n++;
		}
	}
	return n;
}

function finishPending(h) {
	h.status = h.pending.status;
	h.pending = null;
}

function finishBackup(b) {
	b.status = 1;
	b.progress = 100;
}

/** restore, backupRestore and snapshotRollback: reinstalling (4), running again after hostReinstallMs. */
function startReinstall(core, h) {
	h.status = 4;
	h.pending = { status: 1, at: core.now() + timing(core, 'hostReinstallMs') };
}

/** A host disappears entirely (recycle bin expiry or the control route). */
function purgeHost(core, id) {
	const s = S(core);
	const h = s.hosts[id];
	if (!h) return false;
	for (const d of Object.values(s.disks)) {
		if (d.iid !== h.id) continue;
		if (d.kind === 'system') delete s.disks[d.id];
		else {
			d.iid = null;
			d.status = 1;
		}
	}
	for (const sn of Object.values(s.snapshots)) if (sn.iid === h.id) delete s.snapshots[sn.id];
	for (const b of Object.values(s.backups)) if (b.iid === h.id) delete s.backups[b.id];
	delete s.hosts[id];
	return true;
}

/** Every handler of the group first works out the transitions that are due (see tick). */
const route = routeBuilder(S, tick);

// Look-ups of the caller's objects; a sub-account needs the resource permission of the type
// (1 hosts, 2 cloud disks, 3 firewalls, 4 private networks). Backups and snapshots are looked
// up by owner alone; their lists follow the permissions of the hosts.

function hostById(rq, id, param = 'id') {
	return owned(rq, S(rq.core).hosts, id, { param, what: 'cloud host', permType: 1 });
}

function cloudDiskById(rq, id) {
	return owned(rq, S(rq.core).disks, id, { what: 'cloud disk', permType: 2, match: (d) => d.kind === 'cloud' });
}

function firewallById(rq, id, param = 'id') {
	return owned(rq, S(rq.core).firewalls, id, { param, what: 'firewall', permType: 3 });
}

function networkById(rq, id) {
	return owned(rq, S(rq.core).networks, id, { what: 'private network', permType: 4 });
}

function ruleById(rq, s, id) {
	return ownedChild(rq, s.rules, id, {
		what: 'firewall rule',
		parents: s.firewalls,
		parentKey: 'fid',
		parentWhat: 'firewall',
		permType: 3,
	});
}

/** A system disk goes with its host's permission (type 1), a cloud disk has its own (type 2). */
function mayUseDisk(rq, d) {
	return d.kind === 'system' ? rq.core.canAccess(rq.user, 1, d.iid) : rq.core.canAccess(rq.user, 2, d.id);
}

/** Backups or snapshots of the hosts the caller may see. */
function ofVisibleHosts(rq, coll) {
	return Object.values(coll).filter((x) => x.uid === rq.owner.uid && rq.core.canAccess(rq.user, 1, x.iid));
}

/** The hosts in firewall or private network `id` (`key` firewallId or netId). */
function hostsIn(core, key, id) {
	return Object.values(S(core).hosts).filter((h) => h[key] === id);
}

function requireStatus(h, allowed, action) {
	if (!allowed.includes(h.status)) {
		throw new ApiError(`cannot ${action} host ${h.id}: it is ${HOST_STATUS[h.status] || `in status ${h.status}`}`);
	}
}

function checkPassword(name, pw) {
	if (pw.length < 8 || pw.length > 30 || !/[A-Z]/.test(pw) || !/[a-z]/.test(pw) || !/\d/.test(pw)) {
		throw new ApiError(`${name} must be 8-30 characters and contain upper-case letters, lower-case letters and digits`);
	}
}

function monthlyPrice(core, cfg) {
	const s = S(core);
	const cpu = s.cpus.find((c) => c.id === cfg.cpuid);
	const mem = s.mems.find((m) => m.id === cfg.memid);
	return (
		Number(cpu.volume) * PRICE.cpu +
		Number(mem.volume) * PRICE.mem +
		(cfg.networkid === 1 ? 0 : cfg.networkvalue * PRICE.bandwidth) +
		cfg.diskvalue * PRICE.disk
	);
}

function periodPrice(monthly, paytype) {
	if (monthly <= 0) return 0;
	if (paytype === 1) return Math.max(0.01, round2(monthly / 720));
	if (paytype === 2) return round2(monthly);
	return round2(monthly * 10);
}

function publicIp(id) {
	return `203.0.${113 + (Math.floor(id / 250) % 3)}.${(id % 250) + 2}`;
}

function makeHost(core, owner, cfg, now = core.now()) {
	const s = S(core);
	const id = core.nextId('instance.host', 1001);
	const mac = crypto.createHash('md5').update(`mac:${id}`).digest('hex');
	const h = {
		id,
		uid: owner.uid,
		instance_id: extId('ins', id),
		name: cfg.name || `host-${id}`,
		note: cfg.note || '',
		nodeid: cfg.nodeid,
		cpuid: cfg.cpuid,
		memid: cfg.memid,
		imageid: cfg.imageid,
		networkid: cfg.networkid,
		networkvalue: cfg.networkid === 1 ? 0 : cfg.networkvalue,
		diskvalue: cfg.diskvalue,
		paytype: cfg.paytype || 1,
		ips: cfg.networkid === 1 ? [] : [publicIp(id)],
		innerip: `10.${cfg.nodeid}.${Math.floor(id / 250) % 256}.${(id % 250) + 2}`,
		mac: `52:54:00:${mac.slice(0, 2)}:${mac.slice(2, 4)}:${mac.slice(4, 6)}`,
		firewallId: null,
		netId: null,
		status: cfg.status === undefined ? 0 : cfg.status,
		pending: null, // { status, at }: the status the host reaches at `at`
		mark: cfg.mark || 0,
		suspend_note: cfg.suspend_note || '',
		createdAt: now,
		updatedAt: now,
		deletedAt: null,
	};
	// A host created in status 0 (creating) is running after hostCreateMs.
	if (h.status === 0) h.pending = { status: 1, at: now + timing(core, 'hostCreateMs') };
	s.hosts[id] = h;
	const did = core.nextId('instance.disk', 501);
	s.disks[did] = {
		id: did,
		uid: owner.uid,
		kind: 'system',
		disk_id: extId('vol', did),
		disk_name: `${h.name}-system`,
		value: cfg.diskvalue,
		nodeid: cfg.nodeid,
		iid: id,
		status: 0,
		note: '',
		createdAt: now,
		updatedAt: now,
		deletedAt: null,
	};
	return h;
}

function makeCloudDisk(core, owner, { nodeid, disk_name, value, note = '' }, now = core.now()) {
	const s = S(core);
	const id = core.nextId('instance.disk', 501);
	const d = {
		id,
		uid: owner.uid,
		kind: 'cloud',
		disk_id: extId('vol', id),
		disk_name: disk_name || `disk-${id}`,
		value,
		nodeid,
		iid: null,
		status: 1,
		note,
		createdAt: now,
		updatedAt: now,
		deletedAt: null,
	};
	s.disks[id] = d;
	return d;
}

function makeFirewall(core, owner, { nodeid, name, note = '' }, now = core.now()) {
	const id = core.nextId('instance.firewall', 101);
	const fw = { id, uid: owner.uid, firewall_id: extId('sg', id), name, nodeid, note, ruleSeq: 0, createdAt: now, updatedAt: now };
	S(core).firewalls[id] = fw;
	return fw;
}

function makeRule(core, fw, fields, now = core.now()) {
	const id = core.nextId('instance.rule', 1);
	fw.ruleSeq += 1;
	const r = { id, fid: fw.id, seq: fw.ruleSeq, ...fields, createdAt: now, updatedAt: now };
	S(core).rules[id] = r;
	return r;
}

function makeNetwork(core, owner, { nodeid, name, note = '' }, now = core.now()) {
	const id = core.nextId('instance.network', 201);
	const n = { id, uid: owner.uid, vxnet_id: extId('vxnet', id), name, nodeid, tag: 100 + id, note, createdAt: now, updatedAt: now };
	S(core).networks[id] = n;
	return n;
}

function systemDiskOf(core, h) {
	return Object.values(S(core).disks).find((d) => d.kind === 'system' && d.iid === h.id);
}

function hostRef(h) {
	return { id: str(h.id), instance_id: h.instance_id, name: h.name, status: str(h.status) };
}

// ---------------------------------------------------------------- rendering

function renderNode(n) {
	return { id: str(n.id), areaname: n.areaname, status: str(n.status) };
}

/**
 * A host's `network` {id, line}: `id` the id of its line's networkResourceList row (the line code
 * by default, 101... with lineIdsDiffer: docs/vendor/readings.md#r61), `line` the line's name
 * (in the service's language with hostLineWords: docs/vendor/readings.md#r68).
 */
function renderHostNetwork(core, h) {
	const rowId = lineRowIds(core).get(`${h.nodeid}/${h.networkid}`) ?? h.networkid;
	const words = core.emu.dialects && core.emu.dialects.has('hostLineWords') ? LINE_WORDS_ZH : LINE_TYPES;
	return { id: str(rowId), line: words[h.networkid] || '' };
}

function renderHost(core, h) {
	const s = S(core);
	const node = nodeOf(core, h.nodeid) || { code: '', areaname: '' };
	const cpu = s.cpus.find((c) => c.id === h.cpuid) || { id: h.cpuid, volume: '' };
	const mem = s.mems.find((m) => m.id === h.memid) || { id: h.memid, volume: '' };
	const image = s.images.find((i) => i.id === h.imageid) || { id: h.imageid, osname: '' };
	const fw = h.firewallId && s.firewalls[h.firewallId];
	const vx = h.netId && s.networks[h.netId];
	return {
		id: str(h.id),
		instance_id: h.instance_id,
		instanceid: h.instance_id,
		name: h.name,
		note: h.note,
		cpu: { id: str(cpu.id), volume: cpu.volume },
		mem: { id: str(mem.id), volume: mem.volume },
		image: { id: str(image.id), osname: image.osname },
		network: renderHostNetwork(core, h),
		networkvalue: str(h.networkvalue),
		diskvalue: str(h.diskvalue),
		ips: [...h.ips],
		innerip: h.innerip,
		mac: h.mac,
		firewall: fw ? { id: str(fw.id), firewall_id: fw.firewall_id } : null,
		net: vx ? { id: str(vx.id), vxnet_id: vx.vxnet_id } : null,
		status: str(h.status),
		paytype: str(h.paytype),
		...core.stamp(h.createdAt, 'createtime'),
		nodeid: str(h.nodeid),
		nodename: node.code,
		node_zh: node.areaname,
		mark: str(h.mark),
		suspend_note: h.suspend_note,
	};
}

function renderHostDisk(core, d) {
	return {
		id: str(d.id),
		iid: d.iid ? str(d.iid) : '',
		type: d.kind === 'system' ? '1' : '2',
		disk_id: d.disk_id,
		disk_name: d.disk_name,
		value: str(d.value),
		status: str(d.status),
		...core.stamp(d.createdAt, 'createtime'),
		...core.stamp(d.updatedAt, 'updatetime'),
	};
}

function renderCloudDisk(core, d) {
	const s = S(core);
	const node = nodeOf(core, d.nodeid) || { id: d.nodeid, areaname: '' };
	const h = d.iid && s.hosts[d.iid];
	return {
		id: str(d.id),
		disk_id: d.disk_id,
		disk_name: d.disk_name,
		value: str(d.value),
		node: { id: str(node.id), areaname: node.areaname },
		instance: h ? { id: str(h.id), instance_id: h.instance_id, name: h.name } : null,
		status: str(d.status),
		note: d.note,
		...core.stamp(d.createdAt, 'createtime'),
		updatetime: core.displayTime(d.updatedAt),
	};
}

function backupProgress(core, b) {
	if (b.status !== 0) return b.progress;
	const span = Math.max(1, b.doneAt - b.startedAt);
	return Math.min(99, Math.max(0, Math.floor(((core.now() - b.startedAt) / span) * 100)));
}

function renderBackup(core, b) {
	const h = S(core).hosts[b.iid];
	return {
		id: str(b.id),
		backup_id: b.backup_id,
		instance: h ? hostRef(h) : { ...b.hostCopy },
		name: b.name,
		backup_type: str(b.backup_type),
		value: str(b.value),
		status: str(b.status),
		progress: str(backupProgress(core, b)),
		note: b.note,
		...core.stamp(b.createdAt, 'createtime'),
	};
}

function renderSnapshot(core, sn) {
	const h = S(core).hosts[sn.iid];
	return {
		id: str(sn.id),
		snapshot_id: sn.snapshot_id,
		instance: h ? hostRef(h) : { ...sn.hostCopy },
		name: sn.name,
		status: str(sn.status),
		note: sn.note,
		...core.stamp(sn.createdAt, 'createtime'),
		updatetime: core.displayTime(sn.updatedAt),
	};
}

function renderFirewall(core, fw) {
	const node = nodeOf(core, fw.nodeid) || { id: fw.nodeid, areaname: '' };
	return {
		id: str(fw.id),
		firewall_id: fw.firewall_id,
		name: fw.name,
		uid: str(fw.uid),
		username: accountName(core, fw.uid),
		node: { id: str(node.id), areaname: node.areaname },
		note: fw.note,
		num: str(hostsIn(core, 'firewallId', fw.id).length),
		...core.stamp(fw.createdAt, 'createtime'),
		updatetime: core.displayTime(fw.updatedAt),
	};
}

function renderRule(core, r, extra = false) {
	const out = {
		id: str(r.id),
		fid: str(r.fid),
		seq: str(r.seq),
		direction: r.direction,
		action: r.action,
		protocol: r.protocol,
		sourceport: str(r.sourceport),
		destport: r.destport,
		source: r.source,
		destination: r.destination,
		status: str(r.status),
		note: r.note,
		createtime: core.displayTime(r.createdAt),
		updatetime: core.displayTime(r.updatedAt),
	};
	if (extra) {
		const fw = S(core).firewalls[r.fid];
		out.firewall_id = fw ? fw.firewall_id : '';
	}
	return out;
}

function renderNetwork(core, n) {
	const node = nodeOf(core, n.nodeid) || { id: n.nodeid, areaname: '' };
	return {
		id: str(n.id),
		vxnet_id: n.vxnet_id,
		name: n.name,
		uid: str(n.uid),
		username: accountName(core, n.uid),
		node: { id: str(node.id), areaname: node.areaname },
		tag: str(n.tag),
		note: n.note,
		num: str(hostsIn(core, 'netId', n.id).length),
		...core.stamp(n.createdAt, 'createtime'),
	};
}

// ---------------------------------------------------------------- validation of shared fields

function openNode(core, p, param = 'nodeid') {
	const nodeid = p.int(param, { required: true });
	const node = nodeOf(core, nodeid);
	if (!node) throw new ApiError(`${param}: data centre ${nodeid} does not exist`);
	if (node.status !== 1) throw new ApiError(`${param}: data centre ${nodeid} (${node.areaname}) is not open for new resources`);
	return node;
}

function catalogueItem(list, p, param, what, required = true) {
	const id = p.int(param, { required });
	if (id === undefined) return undefined;
	const item = list.find((x) => x.id === id);
	if (!item) throw new ApiError(`${param}: ${what} ${id} does not exist`);
	if (Number(item.status) !== 1) throw new ApiError(`${param}: ${what} ${id} is not available`);
	return item;
}

function nameParam(p, param, required = true) {
	const v = p.str(param, { required, max: 64 });
	if (v !== undefined && !v.trim()) throw new ApiError(`${param} must not be blank`);
	return v === undefined ? undefined : v.trim();
}

/** A note sent as '' clears it (a remark is free text; empty is a value, not an absence). */
function noteParam(p, param = 'note') {
	if (p.raw(param) === '') return '';
	return p.str(param, { max: 255 });
}

/** Data centre, name and note of a new firewall or private network. */
function placedFields(rq) {
	const node = openNode(rq.core, rq.p);
	const name = nameParam(rq.p, 'name');
	const note = noteParam(rq.p) || '';
	return { nodeid: node.id, name, note };
}

/** The name (`nameKey`) and note of an update, each only when sent. */
function updateNameAndNote(rq, obj, nameKey = 'name') {
	const name = nameParam(rq.p, nameKey, false);
	const note = noteParam(rq.p);
	if (name !== undefined) obj[nameKey] = name;
	if (note !== undefined) obj.note = note;
	obj.updatedAt = rq.core.now();
}

/** Host `h` (param iid) joins `target`, a firewall (`key` firewallId) or private network (netId). */
function joinHost(h, key, target, what) {
	if (h.status === 9) throw new ApiError(`iid: host ${h.id} is in the recycle bin`);
	if (h.nodeid !== target.nodeid) throw new ApiError(`iid: host ${h.id} is in another data centre than ${what} ${target.id}`);
	if (h[key] === target.id) throw new ApiError(`iid: host ${h.id} is already in ${what} ${target.id}`);
	if (h[key]) throw new ApiError(`iid: host ${h.id} is in ${what} ${h[key]}; let it leave that one first`);
	h[key] = target.id;
}

/** Host `h` (param id) leaves its firewall or private network (of `coll`), which is answered. */
function leaveHost(h, key, coll, what) {
	const target = h[key] && coll[h[key]];
	if (!target) throw new ApiError(`id: host ${h.id} is not in a ${what}`);
	h[key] = null;
	return target;
}

function portSpec(value) {
	const parts = String(value).split(',');
	for (const part of parts) {
		const m = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(part);
		if (!m) return false;
		const lo = Number(m[1]);
		const hi = m[2] === undefined ? lo : Number(m[2]);
		if (lo < 1 || hi > 65535 || lo > hi) return false;
	}
	return true;
}

function ipOrCidr(value) {
	const m = /^([^/]+)(?:\/(\d{1,2}))?$/.exec(value);
	return Boolean(m && net.isIPv4(m[1]) && (m[2] === undefined || Number(m[2]) <= 32));
}

/** Rule fields of firewallRuleAdd / firewallRuleUpdate; `base` holds the current values. */
function ruleFields(p, base) {
	const out = { ...base };
	if (p.has('direction') || !base) out.direction = p.oneOf('direction', ['in', 'out'], { def: 'in' });
	if (p.has('action') || !base) {
		const a = p.str('action', { def: 'ACCEPT' }).toUpperCase();
		if (!['ACCEPT', 'REJECT'].includes(a)) throw new ApiError('action must be one of ACCEPT, REJECT');
		out.action = a;
	}
	if (p.has('protocol') || !base) {
		const pr = p.str('protocol', { def: 'tcp' }).toLowerCase();
		if (!['tcp', 'udp', 'icmp', 'all'].includes(pr)) throw new ApiError('protocol must be one of tcp, udp, icmp, all');
		out.protocol = pr;
	}
	if (p.has('sourceport') || !base) out.sourceport = p.int('sourceport', { min: 1, max: 65535, def: '' });
	if (p.has('destport') || !base) {
		const dp = p.str('destport', { def: '' }).replace(/\s+/g, '');
		if (dp && !portSpec(dp)) {
			throw new ApiError('destport must be a port 1-65535, a range such as 1000-2000, or a comma-separated list of them');
		}
		out.destport = dp;
	}
	for (const k of ['source', 'destination']) {
		if (p.has(k) || !base) {
			const v = p.str(k, { def: '' }).trim();
			if (v && !ipOrCidr(v)) throw new ApiError(`${k} must be an IPv4 address or CIDR block such as 10.0.0.0/8`);
			out[k] = v;
		}
	}
	if (p.has('status') || !base) out.status = Number(p.oneOf('status', [0, 1], { def: 1 }));
	if (p.has('note') || !base) out.note = noteParam(p) || '';
	return out;
}

function parseDiskResize(core, h, text) {
	const entries = String(text)
		.split(';')
		.map((e) => e.trim())
		.filter(Boolean);
	if (!entries.length) throw new ApiError('diskresize must hold <disk_id>,<size> entries joined by ;');
	const s = S(core);
	const seen = new Set();
	return entries.map((entry, i) => {
		const m = /^([\w-]+)\s*,\s*(\d+)$/.exec(entry);
		if (!m) throw new ApiError(`diskresize entry ${i + 1} must be <disk_id>,<size>`);
		const d = Object.values(s.disks).find((x) => (x.disk_id === m[1] || String(x.id) === m[1]) && x.iid === h.id && x.status === 0);
		if (!d) throw new ApiError(`diskresize entry ${i + 1}: disk ${m[1]} is not a disk of host ${h.id}`);
		if (seen.has(d.id)) throw new ApiError(`diskresize entry ${i + 1}: disk ${m[1]} is given twice`);
		seen.add(d.id);
		const size = Number(m[2]);
		checkGrow(d, size, `diskresize entry ${i + 1}`);
		return { disk: d, size };
	});
}

function checkGrow(d, size, label) {
	if (size <= d.value) throw new ApiError(`${label}: disk ${d.disk_id} can only grow (it has ${d.value}G now)`);
	if (size > 2000) throw new ApiError(`${label}: disk size must be at most 2000G`);
	if (d.kind === 'cloud' && size % 10 !== 0) throw new ApiError(`${label}: a cloud disk size must be a multiple of 10`);
}

function joinIds(list, key) {
	return list.map((x) => x[key]).join(',');
}

// ---------------------------------------------------------------- routes

const routes = {
	// ---- catalogue
	'instance/nodeList': route('Data centres', (rq, s) => ({ data: s.nodes.map(renderNode) }), { read: true }),
	'instance/cpuResourceList': route(
		'CPU packages',
		(rq, s) => ({ data: s.cpus.map((c) => ({ id: str(c.id), volume: c.volume, status: str(c.status) })) }),
		{ read: true },
	),
	'instance/memResourceList': route(
		'Memory packages',
		(rq, s) => ({ result: s.mems.map((m) => ({ id: str(m.id), volume: m.volume, status: str(m.status) })) }),
		{ read: true },
	),
	'instance/networkResourceList': route(
		'Bandwidth lines',
		(rq, s) => {
			let nodes = s.nodes;
			if (rq.p.has('nodeid')) {
				const nodeid = rq.p.int('nodeid');
				const node = nodeOf(rq.core, nodeid);
				if (!node) throw new ApiError(`nodeid: data centre ${nodeid} does not exist`);
				nodes = [node];
			}
			// dialect lineIdsDiffer: row ids 101, 102, ... over all data centres (see the header)
			const rowId = lineRowIds(rq.core);
			const result = [];
			for (const n of nodes) {
				for (const lt of n.lines) {
					result.push({ id: str(rowId.get(`${n.id}/${lt}`)), linetype: str(lt), node: renderNode(n), status: str(n.status) });
				}
			}
			return { result };
		},
		{ read: true },
	),
	'instance/imageList': route(
		'Images',
		(rq, s) => ({
			data: s.images.map((i) => ({
				id: str(i.id),
				image_id: i.image_id,
				osname: i.osname,
				ostype: i.ostype,
				osdigit: i.osdigit,
				status: str(i.status),
			})),
		}),
		{ read: true },
	),

	// ---- hosts
	'instance/list': route.list(
		'Cloud hosts',
		(rq, s) => {
			const { p } = rq;
			const filters = {
				id: p.int('id'),
				nodeid: p.int('nodeid'),
				imageid: p.int('imageid'),
				status: p.oneOf('status', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
				mark: p.oneOf('mark', [0, 1]),
			};
			return where(ownedList(rq, s.hosts, 1), filters).sort(sortDesc);
		},
		renderHost,
	),

	'instance/create': route('Create cloud host', (rq, s) => {
		const { p, core, owner } = rq;
		const name = nameParam(p, 'name');
		const node = openNode(core, p);
		const paytype = Number(p.oneOf('type', [1, 2, 3], { def: 1 }));
		const cpu = catalogueItem(s.cpus, p, 'cpuid', 'CPU package');
		const mem = catalogueItem(s.mems, p, 'memid', 'memory package');
		const image = catalogueItem(s.images, p, 'imageid', 'image');
		const networkid = p.int('networkid', { required: true });
		if (!node.lines.includes(networkid)) {
			const what = LINE_TYPES[networkid] ? `line ${networkid} (${LINE_TYPES[networkid]}) is not offered` : `${networkid} is not a line code`;
			throw new ApiError(
				`networkid: ${what} in data centre ${node.id}; the line codes offered there are ${node.lines.join(', ')} (linetype of instance/networkResourceList)`,
			);
		}
		let networkvalue = 0;
		if (networkid !== 1) {
			if (!p.has('networkvalue')) throw new ApiError('networkvalue is required for a public line (networkid 2-6)');
			networkvalue = p.int('networkvalue', { min: 1, max: 1000 });
		}
		const diskvalue = p.int('diskvalue', { min: 20, max: 500, def: 40 });
		const pass = p.str('pass', { required: true });
		checkPassword('pass', pass);
		const num = p.int('num', { min: 1, max: 10, def: 1 });
		let coupon = 0;
		if (p.has('couponprice')) {
			coupon = p.decimal('couponprice', { min: 0 });
			if (paytype === 1 && coupon > 0) throw new ApiError('couponprice is only allowed for monthly or yearly billing (type 2 or 3)');
		}
		const note = noteParam(p) || '';
		const cfg = { cpuid: cpu.id, memid: mem.id, imageid: image.id, networkid, networkvalue, diskvalue, nodeid: node.id, paytype, note };
		const each = periodPrice(monthlyPrice(core, cfg), paytype);
		const total = round2(each * num);
		if (coupon > total) throw new ApiError(`couponprice must not exceed the order price ${money(total)}`);
		requireBalance(core, owner, round2(total - coupon));
		const hosts = [];
		for (let i = 0; i < num; i++) {
			const h = makeHost(core, owner, { ...cfg, name: num > 1 ? `${name}-${i + 1}` : name, status: 0 });
			const share = round2(each - coupon / num);
			core.charge(owner, { price: Math.max(0, share), paytype: 1, bid: h.id, name: `Cloud host ${h.name}` });
			hosts.push(h);
		}
		return { data: { instance_id: joinIds(hosts, 'instance_id'), id: hosts.map((h) => h.id).join(',') } };
	}),

	'instance/restore': route('Reinstall cloud host', (rq) => {
		const { p, core } = rq;
		const h = hostById(rq, p.int('id', { required: true }));
		const change = Number(p.oneOf('is_change_pass', [0, 1], { def: 0 }));
		if (change === 1) {
			const pw = p.str('password');
			if (!pw) throw new ApiError('password is required when is_change_pass is 1');
			checkPassword('password', pw);
		}
		requireStatus(h, OPERABLE, 'reinstall');
		startReinstall(core, h);
		h.updatedAt = core.now();
		return { data: { instance_id: h.instance_id, name: h.name } };
	}),

	'instance/delete': route('Delete cloud host', (rq, s) => {
		const { p, core } = rq;
		const hosts = p.idList('id', { required: true }).map((id) => hostById(rq, id));
		for (const h of hosts) {
			if (h.status === 9) throw new ApiError(`id: host ${h.id} is already in the recycle bin`);
		}
		const now = core.now();
		for (const h of hosts) {
			h.status = 9;
			h.pending = null;
			h.deletedAt = now;
			h.updatedAt = now;
			h.firewallId = null;
			h.netId = null;
			for (const d of Object.values(s.disks)) {
				if (d.iid !== h.id) continue;
				if (d.kind === 'system') {
					d.status = 2;
					d.deletedAt = now;
				} else {
					d.iid = null;
					d.status = 1;
				}
				d.updatedAt = now;
			}
		}
		return {
			message: `moved to the recycle bin; ${hosts.length > 1 ? 'the hosts are' : 'the host is'} kept for 2 hours`,
			data: { instance_id: joinIds(hosts, 'instance_id'), name: joinIds(hosts, 'name') },
		};
	}),

	'instance/upgrade': route('Change cloud host configuration', (rq, s) => {
		const { p, core, owner } = rq;
		const h = hostById(rq, p.int('id', { required: true }));
		const paytype = p.has('paytype') ? Number(p.oneOf('paytype', [1, 2, 3])) : undefined;
		const cpu = catalogueItem(s.cpus, p, 'cpuid', 'CPU package', false);
		const mem = catalogueItem(s.mems, p, 'memid', 'memory package', false);
		let networkvalue;
		if (p.has('networkvalue')) {
			if (h.networkid === 1) throw new ApiError(`networkvalue: host ${h.id} is on the inner network and has no public bandwidth`);
			networkvalue = p.int('networkvalue', { min: 1, max: 1000 });
		}
		requireStatus(h, OPERABLE, 'change the configuration of');
		const resize = p.has('diskresize') ? parseDiskResize(core, h, p.str('diskresize')) : [];
		if (paytype === undefined && !cpu && !mem && networkvalue === undefined && !resize.length) {
			throw new ApiError('nothing to change: give paytype, cpuid, memid, networkvalue or diskresize');
		}
		const sys = systemDiskOf(core, h);
		const sysResize = resize.find((r) => r.disk === sys);
		const before = { ...h };
		const after = {
			...h,
			paytype: paytype ?? h.paytype,
			cpuid: cpu ? cpu.id : h.cpuid,
			memid: mem ? mem.id : h.memid,
			networkvalue: networkvalue ?? h.networkvalue,
			diskvalue: sysResize ? sysResize.size : h.diskvalue,
		};
		const newCost = periodPrice(monthlyPrice(core, after), after.paytype);
		const oldCost = after.paytype === before.paytype ? periodPrice(monthlyPrice(core, before), before.paytype) : 0;
		const price = round2(Math.max(0, newCost - oldCost));
		requireBalance(core, owner, price);
		Object.assign(h, {
			paytype: after.paytype,
			cpuid: after.cpuid,
			memid: after.memid,
			networkvalue: after.networkvalue,
			diskvalue: after.diskvalue,
			updatedAt: core.now(),
		});
		for (const r of resize) {
			r.disk.value = r.size;
			r.disk.updatedAt = core.now();
		}
		if (price > 0) core.charge(owner, { price, paytype: 1, bid: h.id, name: `Cloud host ${h.name} configuration change` });
		return { data: { instance_id: h.instance_id, name: h.name } };
	}),

	'instance/updateBasicinfo': route('Update cloud host name and note', (rq) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, h);
		return { data: { instance_id: h.instance_id, name: h.name, note: h.note } };
	}),

	'instance/update': route('Power operation on cloud hosts', (rq) => {
		const { p, core } = rq;
		const ids = p.idList('id', { required: true });
		const op = p.oneOf('op', ['start', 'stop', 'reset'], { required: true });
		const hosts = ids.map((id) => hostById(rq, id));
		const verb = { start: 'start', stop: 'stop', reset: 'restart' }[op];
		for (const h of hosts) requireStatus(h, OPERABLE, verb);
		const status = op === 'stop' ? 2 : 1;
		for (const h of hosts) {
			h.status = status;
			h.pending = null;
			h.updatedAt = core.now();
		}
		return { data: { instance_id: joinIds(hosts, 'instance_id'), name: joinIds(hosts, 'name'), status: str(status) } };
	}),

	'instance/mark': route('Star cloud host', (rq) => {
		const { p } = rq;
		const h = hostById(rq, p.int('id', { required: true }));
		h.mark = Number(p.oneOf('mark', [0, 1], { def: 0 }));
		return { data: { instance_id: h.instance_id, name: h.name, mark: str(h.mark) } };
	}),

	'instance/vncproxy': route('Console access', (rq) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		requireStatus(h, [1], 'open the console of');
		const node = nodeOf(rq.core, h.nodeid);
		return {
			data: {
				host: `vnc.${node ? node.code : 'zone'}.emulator.invalid`,
				port: str(5900 + (h.id % 100)),
				ticket: crypto.randomBytes(16).toString('hex'),
				vendortoken: crypto.randomBytes(20).toString('hex'),
			},
		};
	}),

	'instance/sendkey': route('Send key combination', (rq) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		const key = rq.p.str('key', { required: true, max: 64 }).trim();
		if (!/^[A-Za-z0-9]+([-+][A-Za-z0-9]+)*$/.test(key)) {
			throw new ApiError('key must be a key combination such as ctrl-alt-delete');
		}
		requireStatus(h, [1], 'send keys to');
		return {};
	}),

	'instance/monitor': route(
		'Cloud host monitoring',
		(rq) => {
			const { p, core } = rq;
			const h = hostById(rq, p.int('id', { required: true }));
			const type = p.oneOf('type', Object.keys(MONITOR_SPANS), { def: 'hour' });
			const formatted = Number(p.oneOf('resultType', [0, 1], { def: 0 })) === 1;
			const [count, step] = MONITOR_SPANS[type];
			const last = Math.floor(core.now() / step) * step;
			const cpu = [];
			for (let i = count - 1; i >= 0; i--) {
				const ts = last - i * step;
				const r = crypto.createHash('sha256').update(`cpu:${h.id}:${ts}`).digest().readUInt32BE(0) / 2 ** 32;
				const base = 5 + ((h.id * 37) % 40);
				const v = base + r * 30;
				cpu.push([ts, formatted ? round2(v) : Math.round(v * 10000) / 10000]);
			}
			return { data: { cpu } };
		},
		{ read: true },
	),

	// ---- host disks
	'instance/diskList': route.list(
		'Cloud host disks',
		(rq, s) => {
			const { p } = rq;
			const h = p.has('iid') ? hostById(rq, p.int('iid'), 'iid') : undefined;
			const status = p.oneOf('status', [0, 1, 2]);
			const mine = Object.values(s.disks).filter((d) => d.uid === rq.owner.uid && mayUseDisk(rq, d));
			return where(mine, { iid: h && h.id, status }).sort(sortAsc);
		},
		renderHostDisk,
	),

	'instance/diskResize': route('Resize disk', (rq, s) => {
		const { p, core } = rq;
		const id = p.int('id', { required: true });
		const d = s.disks[id];
		if (!d || d.uid !== rq.owner.uid || d.status === 2) throw new ApiError(`id: disk ${id} does not exist`);
		if (!mayUseDisk(rq, d)) {
			throw new ApiError(`permission denied: this sub-account may not use disk ${id}`);
		}
		const value = p.int('value', { required: true });
		checkGrow(d, value, 'value');
		const h = d.iid && s.hosts[d.iid];
		if (h) requireStatus(h, OPERABLE, 'resize a disk of');
		d.value = value;
		d.updatedAt = core.now();
		if (d.kind === 'system' && h) h.diskvalue = value;
		return { data: { iid: h ? str(h.id) : '', instance_id: h ? h.instance_id : '', disk_id: d.disk_id, value: str(d.value) } };
	}),

	// ---- backups
	'instance/backupList': route.list(
		'Cloud host backups',
		(rq, s) => {
			const filters = { iid: rq.p.int('iid'), status: rq.p.oneOf('status', [0, 1, 2, 3, 4]) };
			return where(ofVisibleHosts(rq, s.backups), filters).sort(sortDesc);
		},
		renderBackup,
	),

	'instance/backupAdd': route('Create backup', (rq, s) => {
		const { p, core } = rq;
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		const name = nameParam(p, 'name');
		const backupType = Number(p.oneOf('backup_type', [1, 2], { def: 1 }));
		const note = noteParam(p) || '';
		requireStatus(h, [1, 2], 'back up');
		if (Object.values(s.backups).some((b) => b.iid === h.id && b.status === 0)) {
			throw new ApiError(`iid: a backup of host ${h.id} is already in progress`);
		}
		const b = makeBackup(core, h, { name, backup_type: backupType, note });
		return {
			data: { id: str(b.id), instance_id: h.instance_id, name: h.name, backup_id: b.backup_id, snaphsot_name: b.name, note: b.note },
		};
	}),

	'instance/backupUpdate': route('Update backup', (rq, s) => {
		const { p } = rq;
		const b = owned(rq, s.backups, p.int('id', { required: true }), { what: 'backup' });
		const note = noteParam(p);
		if (note !== undefined) b.note = note;
		return { data: { instance_id: b.hostCopy.instance_id, backup_id: b.backup_id, name: b.name, note: b.note } };
	}),

	'instance/backupDelete': route('Delete backup', (rq, s) => {
		const { p, core } = rq;
		const b = owned(rq, s.backups, p.int('id', { required: true }), { what: 'backup' });
		if (b.status === 4) throw new ApiError(`id: backup ${b.id} is already in the recycle bin`);
		if (b.status === 0) throw new ApiError(`id: backup ${b.id} is still in progress`);
		b.status = 4;
		b.deletedAt = core.now();
		return {
			message: 'the backup has been moved to the recycle bin and is kept for 2 hours',
			data: { instance_id: b.hostCopy.instance_id, name: b.name, backup_id: b.backup_id },
		};
	}),

	'instance/backupRestore': route('Restore backup', (rq, s) => {
		const { p, core } = rq;
		const b = owned(rq, s.backups, p.int('id', { required: true }), { what: 'backup' });
		if (b.status !== 1) throw new ApiError(`id: backup ${b.id} is not completed (status ${b.status})`);
		const h = s.hosts[b.iid];
		if (!h) throw new ApiError(`id: the host of backup ${b.id} no longer exists`);
		requireStatus(h, OPERABLE, 'restore a backup onto');
		startReinstall(core, h);
		// dialect objectIdInAnswers (docs/vendor/readings.md#r67): the answer's id is the backup's
		const extra = core.emu.dialects && core.emu.dialects.has('objectIdInAnswers') ? { id: str(b.id) } : {};
		return { data: { ...extra, instance_id: h.instance_id, backup_id: b.backup_id } };
	}),

	// ---- snapshots
	'instance/snapshotList': route.list(
		'Cloud host snapshots',
		(rq, s) => where(ofVisibleHosts(rq, s.snapshots), { iid: rq.p.int('iid') }).sort(sortDesc),
		renderSnapshot,
	),

	'instance/snapshotAdd': route('Create snapshot', (rq) => {
		const { p, core } = rq;
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		const name = nameParam(p, 'name');
		const note = noteParam(p) || '';
		requireStatus(h, [1, 2], 'take a snapshot of');
		const sn = makeSnapshot(core, h, { name, note });
		return {
			data: {
				id: str(sn.id),
				instance_id: h.instance_id,
				name: h.name,
				snapshot_id: sn.snapshot_id,
				snaphsot_name: sn.name,
				note: sn.note,
			},
		};
	}),

	'instance/snapshotUpdate': route('Update snapshot', (rq, s) => {
		const { p, core } = rq;
		const sn = owned(rq, s.snapshots, p.int('id', { required: true }), { what: 'snapshot' });
		const note = noteParam(p);
		if (note !== undefined) sn.note = note;
		sn.updatedAt = core.now();
		return { data: { instance_id: sn.hostCopy.instance_id, snapshot_id: sn.snapshot_id, name: sn.name, note: sn.note } };
	}),

	'instance/snapshotDelete': route('Delete snapshot', (rq, s) => {
		const sn = owned(rq, s.snapshots, rq.p.int('id', { required: true }), { what: 'snapshot' });
		delete s.snapshots[sn.id];
		return { data: { instance_id: sn.hostCopy.instance_id, snapshot_id: sn.snapshot_id, name: sn.name } };
	}),

	'instance/snapshotRollback': route('Roll back to snapshot', (rq, s) => {
		const { core } = rq;
		const sn = owned(rq, s.snapshots, rq.p.int('id', { required: true }), { what: 'snapshot' });
		const h = s.hosts[sn.iid];
		if (!h) throw new ApiError(`id: the host of snapshot ${sn.id} no longer exists`);
		requireStatus(h, OPERABLE, 'roll back');
		startReinstall(core, h);
		// dialect objectIdInAnswers (docs/vendor/readings.md#r67): the answer's id is the snapshot's
		const extra = core.emu.dialects && core.emu.dialects.has('objectIdInAnswers') ? { id: str(sn.id) } : {};
		return { data: { ...extra, instance_id: h.instance_id, snapshot_id: sn.snapshot_id, name: sn.name } };
	}),

	// ---- firewalls
	'instance/firewallList': route.list(
		'Firewalls',
		(rq, s) => where(ownedList(rq, s.firewalls, 3), { id: rq.p.int('id'), nodeid: rq.p.int('nodeid') }).sort(sortDesc),
		renderFirewall,
	),

	'instance/firewallAdd': route('Create firewall', (rq) => {
		const fw = makeFirewall(rq.core, rq.owner, placedFields(rq));
		return { data: firewallReply(rq.core, fw) };
	}),

	'instance/firewallUpdate': route('Update firewall', (rq) => {
		const fw = firewallById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, fw);
		return { data: firewallReply(rq.core, fw) };
	}),

	'instance/firewallDelete': route('Delete firewall', (rq, s) => {
		const fw = firewallById(rq, rq.p.int('id', { required: true }));
		const members = hostsIn(rq.core, 'firewallId', fw.id);
		if (members.length) {
			throw new ApiError(`id: firewall ${fw.id} still protects ${members.length} host(s); let them leave it first`);
		}
		for (const r of Object.values(s.rules)) if (r.fid === fw.id) delete s.rules[r.id];
		delete s.firewalls[fw.id];
		return { data: { firewall_id: fw.firewall_id, name: fw.name } };
	}),

	'instance/joinFirewall': route('Join firewall', (rq) => {
		const { p } = rq;
		const fw = firewallById(rq, p.int('fid', { required: true }), 'fid');
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		joinHost(h, 'firewallId', fw, 'firewall');
		return { data: { firewall_id: fw.firewall_id, name: fw.name, instance_id: h.instance_id } };
	}),

	'instance/leaveFirewall': route('Leave firewall', (rq, s) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		const fw = leaveHost(h, 'firewallId', s.firewalls, 'firewall');
		return { data: { firewall_id: fw.firewall_id, name: fw.name, instance_id: h.instance_id } };
	}),

	'instance/firewallRuleList': route.list(
		'Firewall rules',
		(rq, s) => {
			const { p } = rq;
			const id = p.int('id');
			const fid = p.int('fid');
			if (fid !== undefined) firewallById(rq, fid, 'fid');
			const filters = { id, fid, direction: p.oneOf('direction', ['in', 'out']), status: p.oneOf('status', [0, 1]) };
			const visible = new Set(ownedList(rq, s.firewalls, 3).map((fw) => fw.id));
			const rules = Object.values(s.rules).filter((r) => visible.has(r.fid));
			return where(rules, filters).sort((a, b) => a.fid - b.fid || a.seq - b.seq);
		},
		renderRule,
	),

	'instance/firewallRuleAdd': route('Add firewall rule', (rq) => {
		const { p, core } = rq;
		const fw = firewallById(rq, p.int('fid', { required: true }), 'fid');
		const fields = ruleFields(p, null);
		const r = makeRule(core, fw, fields);
		fw.updatedAt = core.now();
		return {
			data: {
				id: str(r.id),
				seq: str(r.seq),
				firewall_id: fw.firewall_id,
				direction: r.direction,
				action: r.action,
				protocol: r.protocol,
				sourceport: str(r.sourceport),
				destport: r.destport,
				source: r.source,
				destination: r.destination,
				status: str(r.status),
				note: r.note,
			},
		};
	}),

	'instance/firewallRuleUpdate': route('Update firewall rule', (rq, s) => {
		const { p, core } = rq;
		const r = ruleById(rq, s, p.int('id', { required: true }));
		const { id, fid, seq, createdAt, ...current } = r;
		const fields = ruleFields(p, current);
		Object.assign(r, fields, { updatedAt: core.now() });
		return { data: renderRule(core, r, true) };
	}),

	'instance/firewallRuleDelete': route('Delete firewall rule', (rq, s) => {
		const r = ruleById(rq, s, rq.p.int('id', { required: true }));
		const out = renderRule(rq.core, r, true);
		delete s.rules[r.id];
		return { data: out };
	}),

	// ---- cloud disks
	'instance/cloudDiskList': route.list(
		'Cloud disks',
		(rq, s) => {
			const { p } = rq;
			const filters = { nodeid: p.int('nodeid'), iid: p.int('iid'), status: p.oneOf('status', [0, 1, 2]) };
			const disks = ownedList(rq, s.disks, 2).filter((d) => d.kind === 'cloud');
			return where(disks, filters).sort(sortDesc);
		},
		renderCloudDisk,
	),

	'instance/cloudDiskAdd': route('Create cloud disk', (rq) => {
		const { p, core, owner } = rq;
		const node = openNode(core, p);
		const diskName = nameParam(p, 'disk_name');
		const value = p.int('value', { required: true });
		if (value < 10 || value > 2000 || value % 10 !== 0) throw new ApiError('value must be a multiple of 10 between 10 and 2000 (G)');
		const note = noteParam(p) || '';
		const price = round2(value * PRICE.cloudDisk);
		requireBalance(core, owner, price);
		const d = makeCloudDisk(core, owner, { nodeid: node.id, disk_name: diskName, value, note });
		core.charge(owner, { price, paytype: 2, bid: d.id, name: `Cloud disk ${d.disk_name}` });
		return { data: { id: str(d.id), disk_name: d.disk_name, nodeid: str(d.nodeid), note: d.note, value: str(d.value) } };
	}),

	'instance/cloudDiskUpdate': route('Update cloud disk', (rq) => {
		const d = cloudDiskById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, d, 'disk_name');
		return { data: { id: str(d.id), disk_name: d.disk_name, note: d.note } };
	}),

	'instance/cloudDiskDelete': route('Delete cloud disk', (rq) => {
		const { core } = rq;
		const d = cloudDiskById(rq, rq.p.int('id', { required: true }));
		if (d.status === 2) throw new ApiError(`id: disk ${d.id} is already in the recycle bin`);
		if (d.status === 0) throw new ApiError(`id: disk ${d.id} is bound to host ${d.iid}; unbind it first`);
		d.status = 2;
		d.deletedAt = core.now();
		d.updatedAt = core.now();
		return {
			message: 'the cloud disk has been moved to the recycle bin and is kept for 2 hours',
			data: { disk_id: d.disk_id, disk_name: d.disk_name },
		};
	}),

	'instance/cloudDiskBind': route('Bind cloud disk', (rq, s) => {
		const { p, core } = rq;
		const disks = p.idList('id', { required: true }).map((id) => cloudDiskById(rq, id));
		if (!p.has('iid')) return unbindDisks(rq, disks);
		const h = hostById(rq, p.int('iid'), 'iid');
		requireStatus(h, OPERABLE, 'bind disks to');
		for (const d of disks) {
			if (d.status === 0) throw new ApiError(`id: disk ${d.id} is already bound to host ${d.iid}`);
			if (d.status !== 1) throw new ApiError(`id: disk ${d.id} is in the recycle bin`);
			if (d.nodeid !== h.nodeid) throw new ApiError(`id: disk ${d.id} is in another data centre than host ${h.id}`);
		}
		const attached = Object.values(s.disks).filter((d) => d.kind === 'cloud' && d.iid === h.id).length;
		if (attached + disks.length > MAX_DATA_DISKS) {
			throw new ApiError(`iid: host ${h.id} can hold at most ${MAX_DATA_DISKS} cloud disks`);
		}
		for (const d of disks) {
			d.iid = h.id;
			d.status = 0;
			d.updatedAt = core.now();
		}
		return {
			data: { disk_id: joinIds(disks, 'disk_id'), disk_name: joinIds(disks, 'disk_name'), instance_id: h.instance_id, name: h.name },
		};
	}),

	'instance/unbind': route('Unbind cloud disk', (rq) => {
		const disks = rq.p.idList('id', { required: true }).map((id) => cloudDiskById(rq, id));
		return unbindDisks(rq, disks);
	}),

	// ---- private networks
	'instance/networkList': route.list(
		'Private networks',
		(rq, s) => where(ownedList(rq, s.networks, 4), { id: rq.p.int('id'), nodeid: rq.p.int('nodeid') }).sort(sortDesc),
		renderNetwork,
	),

	'instance/networkAdd': route('Create private network', (rq) => {
		const n = makeNetwork(rq.core, rq.owner, placedFields(rq));
		return { data: networkReply(rq.core, n) };
	}),

	'instance/networkUpdate': route('Update private network', (rq) => {
		const n = networkById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, n);
		return { data: networkReply(rq.core, n) };
	}),

	'instance/networkDelete': route('Delete private network', (rq, s) => {
		const n = networkById(rq, rq.p.int('id', { required: true }));
		const members = hostsIn(rq.core, 'netId', n.id);
		if (members.length) {
			throw new ApiError(`id: private network ${n.id} still holds ${members.length} host(s); let them leave it first`);
		}
		delete s.networks[n.id];
		return { data: { vxnet_id: n.vxnet_id } };
	}),

	'instance/joinVxnet': route('Join private network', (rq) => {
		const { p } = rq;
		const n = networkById(rq, p.int('id', { required: true }));
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		joinHost(h, 'netId', n, 'private network');
		return { data: { vxnet_id: n.vxnet_id, instance_id: h.instance_id } };
	}),

	'instance/leaveVxnet': route('Leave private network', (rq, s) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		const n = leaveHost(h, 'netId', s.networks, 'private network');
		return { data: { vxnet_id: n.vxnet_id, instance_id: h.instance_id } };
	}),
};

function firewallReply(core, fw) {
	return {
		id: str(fw.id),
		nodeid: str(fw.nodeid),
		name: fw.name,
		note: fw.note,
		createtime: core.displayTime(fw.createdAt),
		firewall_id: fw.firewall_id,
	};
}

function networkReply(core, n) {
	return {
		id: str(n.id),
		nodeid: str(n.nodeid),
		name: n.name,
		tag: str(n.tag),
		note: n.note,
		createtime: core.displayTime(n.createdAt),
		vxnet_id: n.vxnet_id,
	};
}

function unbindDisks(rq, disks) {
	const s = S(rq.core);
	for (const d of disks) if (d.status !== 0) throw new ApiError(`id: disk ${d.id} is not bound to a host`);
	const hosts = [...new Set(disks.map((d) => d.iid))].map((iid) => s.hosts[iid]).filter(Boolean);
	for (const d of disks) {
		d.iid = null;
		d.status = 1;
		d.updatedAt = rq.core.now();
	}
	return {
		data: {
			disk_id: joinIds(disks, 'disk_id'),
			disk_name: joinIds(disks, 'disk_name'),
			instance_id: joinIds(hosts, 'instance_id'),
			name: joinIds(hosts, 'name'),
		},
	};
}

function makeBackup(core, h, { name, backup_type = 1, note = '', status = 0 }, now = core.now()) {
	const s = S(core);
	const id = core.nextId('instance.backup', 301);
	const sys = systemDiskOf(core, h);
	let value = sys ? sys.value : h.diskvalue;
	if (backup_type === 2) {
		for (const d of Object.values(s.disks)) if (d.kind === 'cloud' && d.iid === h.id) value += d.value;
	}
	const b = {
		id,
		uid: h.uid,
		iid: h.id,
		hostCopy: hostRef(h),
		backup_id: extId('bak', id),
		name,
		backup_type,
		value,
		status,
		progress: status === 1 ? 100 : 0,
		note,
		startedAt: now,
		doneAt: now + timing(core, 'backupMs'),
		createdAt: now,
		deletedAt: null,
	};
	s.backups[id] = b;
	return b;
}

function makeSnapshot(core, h, { name, note = '' }, now = core.now()) {
	const id = core.nextId('instance.snapshot', 401);
	const sn = {
		id,
		uid: h.uid,
		iid: h.id,
		hostCopy: hostRef(h),
		snapshot_id: extId('snap', id),
		name,
		status: 1,
		note,
		createdAt: now,
		updatedAt: now,
	};
	S(core).snapshots[id] = sn;
	return sn;
}

// ---------------------------------------------------------------- init, demo data, control

function init(core) {
	core.state.instance = {
		nodes: CATALOGUE.nodes.map((n) => ({ ...n, lines: [...n.lines] })),
		cpus: CATALOGUE.cpus.map((c) => ({ ...c })),
		mems: CATALOGUE.mems.map((m) => ({ ...m })),
		images: CATALOGUE.images.map((i) => ({ ...i })),
		hosts: {},
		disks: {},
		backups: {},
		snapshots: {},
		firewalls: {},
		rules: {},
		networks: {},
	};
}

function seedDemo(core) {
	const owner = core.accountByName('demo');
	if (!owner) return;
	const now = core.now();
	const day = 86400e3;
	const base = { cpuid: 2, memid: 3, imageid: 2, networkid: 5, networkvalue: 5, diskvalue: 40, paytype: 2, status: 1 };
	const web = makeHost(core, owner, { ...base, name: 'web-1', nodeid: 1, note: 'demo web server' }, now - 30 * day);
	const db = makeHost(core, owner, { ...base, name: 'db-1', nodeid: 1, memid: 4, networkid: 1, diskvalue: 100 }, now - 29 * day);
	makeHost(core, owner, { ...base, name: 'batch-1', nodeid: 2, imageid: 3, paytype: 1, status: 2 }, now - 7 * day);
	const disk = makeCloudDisk(core, owner, { nodeid: 1, disk_name: 'db-data', value: 100, note: 'database volume' }, now - 29 * day);
	disk.iid = db.id;
	disk.status = 0;
	const fw = makeFirewall(core, owner, { nodeid: 1, name: 'web-sg', note: 'web servers' }, now - 30 * day);
	makeRule(
		core,
		fw,
		{
			direction: 'in',
			action: 'ACCEPT',
			protocol: 'tcp',
			sourceport: '',
			destport: '22',
			source: '0.0.0.0/0',
			destination: '',
			status: 1,
			note: 'SSH',
		},
		now - 30 * day,
	);
	web.firewallId = fw.id;
	const vx = makeNetwork(core, owner, { nodeid: 1, name: 'backend', note: 'web to database' }, now - 30 * day);
	web.netId = vx.id;
	db.netId = vx.id;
	makeBackup(core, db, { name: 'db-1-weekly', backup_type: 2, note: 'weekly backup', status: 1 }, now - 2 * day);
	makeSnapshot(core, web, { name: 'web-1-before-upgrade', note: 'before the kernel upgrade' }, now - 3 * day);
}

/**
 * Control routes (/__emulator/management/instance/...) of one emulator's core. Their bodies run
 * synchronously (tests call them from inside a handler).
 */
function control(core) {
	return {
		/** Force a host's status, e.g. { id, status: 3 } or { name: 'web-1', status: 3 } for abnormal. */
		'POST /instance/hosts/status': async (b) => {
			tick(core);
			const hosts = S(core).hosts;
			const h = b.id !== undefined ? hosts[Number(b.id)] : Object.values(hosts).find((x) => x.name === b.name && !x.deletedAt);
			if (!h) {
				const known = Object.values(hosts).filter((x) => !x.deletedAt).map((x) => `${x.id} (${x.name})`);
				return { ok: false, error: `no host ${b.id !== undefined ? b.id : JSON.stringify(b.name)}; the hosts are ${known.join(', ') || 'none'}` };
			}
			h.status = Number(b.status);
			h.pending = null;
			if (b.suspend_note !== undefined) h.suspend_note = String(b.suspend_note);
			if (h.status === 9 && !h.deletedAt) h.deletedAt = core.now();
			h.updatedAt = core.now();
			return { ok: true, host: renderHost(core, h) };
		},
		/** A host disappears entirely, with its system disk, backups and snapshots. */
		'POST /instance/hosts/remove': async (b) => {
			return { ok: purgeHost(core, Number(b.id)) };
		},
		/** A host appears: { username?, name, nodeid, cpuid, memid, imageid, networkid, networkvalue, diskvalue, paytype, status, mark, note }. */
		'POST /instance/hosts/add': async (b) => {
			tick(core);
			const account = core.controlAccount(b);
			const owner = account ? core.ownerOf(account) : null;
			if (!owner) return { ok: false, error: 'no such account' };
			const num = (k, def) => (b[k] === undefined || b[k] === '' ? def : Number(b[k]));
			const networkid = num('networkid', 5);
			const h = makeHost(core, owner, {
				name: b.name,
				note: b.note,
				nodeid: num('nodeid', 1),
				cpuid: num('cpuid', 1),
				memid: num('memid', 2),
				imageid: num('imageid', 2),
				networkid,
				networkvalue: num('networkvalue', networkid === 1 ? 0 : 1),
				diskvalue: num('diskvalue', 40),
				paytype: num('paytype', 1),
				status: num('status', 1),
				mark: num('mark', 0),
				suspend_note: b.suspend_note,
			});
			return { ok: true, host: renderHost(core, h) };
		},
		/** Finish every pending transition (hosts creating / reinstalling, backups in progress). */
		'POST /instance/settle': async () => {
			return { ok: true, settled: settleAll(core) };
		},
		/** Force a backup's status { id, status } (0-4); 1 completes it. */
		'POST /instance/backups/status': async (b) => {
			tick(core);
			const bk = S(core).backups[Number(b.id)];
			if (!bk) return { ok: false, error: `no backup ${b.id}` };
			bk.status = Number(b.status);
			if (bk.status === 1) bk.progress = 100;
			if (bk.status === 0) {
				bk.startedAt = core.now();
				bk.doneAt = core.now() + timing(core, 'backupMs');
				bk.progress = 0;
			}
			if (bk.status === 4 && !bk.deletedAt) bk.deletedAt = core.now();
			return { ok: true, backup: renderBackup(core, bk) };
		},
	};
}

module.exports = {
	group: 'instance',
	name: 'Cloud hosts, disks, networks and firewalls',
	init,
	seedDemo,
	routes,
	control,
};

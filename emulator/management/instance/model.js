'use strict';
/**
 * Group `instance`, its model: the constants (lines, host statuses, prices, the catalogue), the
 * state slice `state.instance` and its due transitions (tick, settleAll), the route builder, the
 * look-ups of the caller's objects, prices, and the make* functions that create hosts, disks,
 * firewalls, rules, private networks, backups and snapshots. The choices they follow are listed
 * in the header of ../instance.js.
 */
const crypto = require('node:crypto');
const { ApiError, str, round2 } = require('../util');
const { routeBuilder, owned, ownedChild } = require('../common');

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
	// hostLineWords writes a host's network as its row, whose ids are then 101... too (see the
	// header of ../instance.js)
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

module.exports = {
	KEEP_MS,
	TIMING_DEFAULTS,
	LINE_TYPES,
	LINE_WORDS_ZH,
	HOST_STATUS,
	OPERABLE,
	PRICE,
	MAX_DATA_DISKS,
	MONITOR_SPANS,
	CATALOGUE,
	S,
	timing,
	extId,
	lineRowIds,
	nodeOf,
	tick,
	settleAll,
	startReinstall,
	purgeHost,
	route,
	hostById,
	cloudDiskById,
	firewallById,
	networkById,
	ruleById,
	mayUseDisk,
	ofVisibleHosts,
	hostsIn,
	requireStatus,
	checkPassword,
	monthlyPrice,
	periodPrice,
	makeHost,
	makeCloudDisk,
	makeFirewall,
	makeRule,
	makeNetwork,
	makeBackup,
	makeSnapshot,
	systemDiskOf,
	hostRef,
};

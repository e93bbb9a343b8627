'use strict';
/**
 * Group `instance`: how its objects are written in answers (data centres, hosts and their
 * network, host disks, cloud disks, backups, snapshots, firewalls, rules, private networks).
 */
const { str } = require('../util');
const { accountName } = require('../common');
const { LINE_TYPES, LINE_WORDS_ZH, S, lineRowIds, nodeOf, hostsIn, hostRef } = require('./model');

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

module.exports = {
	renderNode,
	renderHostNetwork,
	renderHost,
	renderHostDisk,
	renderCloudDisk,
	backupProgress,
	renderBackup,
	renderSnapshot,
	renderFirewall,
	renderRule,
	renderNetwork,
};

'use strict';
/**
 * Group `instance`: validation of the fields its routes share (data centre, catalogue items,
 * names and notes, joining and leaving a firewall or private network, firewall rule fields,
 * disk resizing) and joinIds.
 */
const net = require('node:net');
const { ApiError } = require('../util');
const { S, nodeOf } = require('./model');

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

module.exports = {
	openNode,
	catalogueItem,
	nameParam,
	noteParam,
	placedFields,
	updateNameAndNote,
	joinHost,
	leaveHost,
	portSpec,
	ipOrCidr,
	ruleFields,
	parseDiskResize,
	checkGrow,
	joinIds,
};

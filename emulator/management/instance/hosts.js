'use strict';
/**
 * Group `instance`, routes of the catalogue (data centres, CPU and memory packages, lines,
 * images) and of cloud hosts, in four tables that ../instance.js merges in this order.
 */
const crypto = require('node:crypto');
const { ApiError, str, round2, money } = require('../util');
const { sortDesc, ownedList, where, requireBalance } = require('../common');
const {
	LINE_TYPES,
	OPERABLE,
	MONITOR_SPANS,
	lineRowIds,
	nodeOf,
	startReinstall,
	route,
	hostById,
	requireStatus,
	checkPassword,
	monthlyPrice,
	periodPrice,
	makeHost,
	systemDiskOf,
} = require('./model');
const { renderNode, renderHost } = require('./render');
const { openNode, catalogueItem, nameParam, noteParam, updateNameAndNote, parseDiskResize, joinIds } = require('./params');

/** The catalogue. */
const catalogueRoutes = {
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
			// dialect lineIdsDiffer: row ids 101, 102, ... over all data centres (see the header of
			// ../instance.js)
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
};

/** Cloud hosts: listed, created, reinstalled, deleted. */
const hostRoutes = {
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
};

/** Cloud hosts: configuration, name and note, power, star. */
const hostSettingRoutes = {
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
};

/** Cloud hosts: console, keys, monitoring. */
const hostConsoleRoutes = {
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
};

module.exports = {
	catalogueRoutes,
	hostRoutes,
	hostSettingRoutes,
	hostConsoleRoutes,
};

'use strict';
/**
 * Group `instance`, routes of cloud disks (created, bound to a host, unbound, deleted).
 */
const { ApiError, str, round2 } = require('../util');
const { sortDesc, ownedList, where, requireBalance } = require('../common');
const { OPERABLE, PRICE, MAX_DATA_DISKS, S, route, hostById, cloudDiskById, requireStatus, makeCloudDisk } = require('./model');
const { renderCloudDisk } = require('./render');
const { openNode, nameParam, noteParam, updateNameAndNote, joinIds } = require('./params');

const cloudDiskRoutes = {
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
};

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

module.exports = {
	cloudDiskRoutes,
};

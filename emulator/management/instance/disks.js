'use strict';
/**
 * Group `instance`, routes of host disks, backups and snapshots, in two tables that
 * ../instance.js merges in this order.
 */
const { ApiError, str } = require('../util');
const { sortDesc, sortAsc, owned, where } = require('../common');
const {
	OPERABLE,
	startReinstall,
	route,
	hostById,
	mayUseDisk,
	ofVisibleHosts,
	requireStatus,
	makeBackup,
	makeSnapshot,
} = require('./model');
const { renderHostDisk, renderBackup, renderSnapshot } = require('./render');
const { nameParam, noteParam, checkGrow } = require('./params');

/** Host disks and backups. */
const diskBackupRoutes = {
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
};

/** Snapshots. */
const snapshotRoutes = {
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
};

module.exports = {
	diskBackupRoutes,
	snapshotRoutes,
};

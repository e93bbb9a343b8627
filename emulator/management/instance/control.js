'use strict';
/**
 * Group `instance`: its state created (init), the demo data (seedDemo) and its control routes
 * (control).
 */
const {
	CATALOGUE,
	S,
	timing,
	tick,
	settleAll,
	purgeHost,
	makeHost,
	makeCloudDisk,
	makeFirewall,
	makeRule,
	makeNetwork,
	makeBackup,
	makeSnapshot,
} = require('./model');
const { renderHost, renderBackup } = require('./render');

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
	init,
	seedDemo,
	control,
};

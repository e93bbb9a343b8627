'use strict';
/** The dialect matrix's entries for Vendor Cloud Host, in run order, and their fallbacks (see index.js). */
const { must, show, same, count, one, has, byId, fromList, inst, host } = require('./checks');

const HOST_PASS = 'Matrix-pass9';

const entries = [
	{
		resource: 'dataCentre',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.areaname).join(','), 'North Zone 1,East Zone 2,South Zone 3,West Zone 4 (sold out)', 'data centres');
		},
	},
	{
		resource: 'cpuPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.volume).join(','), '1,2,4,8,16', 'CPU packages');
		},
	},
	{
		resource: 'memoryPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((m) => m.volume).join(','), '1,2,4,8,16,32', 'memory packages');
		},
	},
	{
		resource: 'image',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			must(has(json, (i) => i.image_id === 'img-ubuntu2204' && i.osname === 'Ubuntu 22.04 64-bit'), `Ubuntu 22.04 missing from ${show(json.map((i) => i.osname))}`);
		},
	},
	{
		resource: 'line',
		operation: 'getAll',
		params: { simplify: false, nodeid: byId(2), returnAll: true },
		async check(json) {
			count(json, 4, 'lines of East Zone 2');
			must(json.every((l) => l.node && String(l.node.id) === '2'), 'a line of another data centre');
			// the line codes of data centre 2 (docs/vendor/hosts-network-dns.md#lines: 1 inner network, 4 Mobile, 5 BGP, 6 dual line)
			same(json.map((l) => (l.linetype !== undefined && /^\d+$/.test(String(l.linetype)) ? l.linetype : l.id)).join(','), '1,4,5,6', 'line codes');
		},
	},
	{
		resource: 'host',
		operation: 'create',
		// the line as the user picks it: from the Line dropdown of data centre 1
		async setup(ctx) {
			const lines = await ctx.listSearch('vendorCloudHost', 'searchLines', { resource: 'host', operation: 'create', nodeid: fromList(1) });
			const bgp = lines.results.find((r) => /BGP/.test(r.name));
			must(bgp, `no BGP line in the dropdown: ${show(lines.results)}`);
			ctx.put('bgpLine', String(bgp.value));
		},
		params: (ctx) => ({
			name: 'matrix-host',
			nodeid: fromList(1),
			cpuid: fromList(1),
			memid: fromList(2),
			imageid: fromList(2),
			networkid: fromList(ctx.get('bgpLine')),
			networkvalue: 2,
			type: 1,
			pass: HOST_PASS,
			additionalFields: { note: 'made by the dialect matrix' },
			waitUntilRunning: true,
			waitTimeout: 20,
		}),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.status} ${item.statusCode}`, 'Running 1', 'status in words and its code (simplified)');
			const h = host(ctx, item.id);
			must(h, `host ${item.id} is not at the emulator`);
			same(`${h.name} ${h.status} ${h.networkid} ${h.networkvalue}`, 'matrix-host 1 5 2', 'name, status, line and bandwidth at the emulator');
			ctx.put('hostId', String(item.id));
		},
	},
	{
		resource: 'host',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('hostId')) } }),
		async check(json, ctx) {
			const h = one(json, 'hosts');
			same(h.id, ctx.get('hostId'), 'id');
			same(h.name, 'matrix-host', 'name');
		},
	},
	{
		resource: 'host',
		operation: 'findInText',
		params: { text: 'Hi! matrix-host stopped answering, could you restart it?' },
		async check(json, ctx) {
			const item = one(json, 'answers');
			same(item.found, true, 'found');
			same(item.id, ctx.get('hostId'), 'id');
			same(item.name, 'matrix-host', 'name');
			const h = host(ctx, ctx.get('hostId'));
			same(item.statusCode, h.status, 'status code');
			must(typeof item.status === 'string' && !/^\d+$/.test(item.status), `status in words: ${show(item.status)}`);
			must(/^The text names host matrix-host /.test(item.message), `message: ${show(item.message)}`);
		},
	},
	{
		resource: 'host',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), updateFields: { name: 'matrix-host-2', note: 'renamed' } }),
		async check(json, ctx) {
			const h = host(ctx, ctx.get('hostId'));
			same(`${h.name} ${h.note}`, 'matrix-host-2 renamed', 'name and note at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'star',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), mark: true }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('hostId')).mark, 1, 'star at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'getConsole',
		params: (ctx) => ({ simplify: false, id: byId(ctx.get('hostId')) }),
		async check(json) {
			const c = one(json, 'console items');
			must(/^vnc\./.test(String(c.host)) && /^\d+$/.test(String(c.port)) && c.ticket, `console ${show(c)}`);
		},
	},
	{
		resource: 'host',
		operation: 'sendKeys',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), key: 'ctrl-alt-delete' }),
		async check(json, ctx) {
			one(json, 'items');
			const sent = ctx.state('logs').filter((l) => l.op === 'instance/sendkey').map((l) => JSON.parse(l.content));
			must(sent.length === 1, `instance/sendkey reached the emulator ${sent.length} times`);
			same(`${sent[0].id} ${sent[0].key}`, `${ctx.get('hostId')} ctrl-alt-delete`, 'host and keys sent');
		},
	},
	{
		resource: 'host',
		operation: 'getMonitoring',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), type: 'hour' }),
		async check(json) {
			count(json, 60, 'points of an hour');
			// `value` as the service sent it (a number, or a numeric string under numbersAsStrings: docs/vendor/readings.md#r36)
			const numeric = (x) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Number.isFinite(Number(x));
			for (const p of json) must(p.metric === 'cpu' && numeric(p.value) && p.time === new Date(p.timestamp).toISOString(), `point ${show(p)}`);
		},
	},
	{
		resource: 'host',
		operation: 'stop',
		params: (ctx) => ({ id: [ctx.get('hostId')] }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('hostId')).status, 2, 'status at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'start',
		params: (ctx) => ({ id: [ctx.get('hostId')], waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.status} ${item.statusCode}`, 'Running 1', 'status in words and its code (simplified)');
			same(host(ctx, ctx.get('hostId')).status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'reboot',
		async setup(ctx) {
			ctx.put('rebootsBefore', ctx.state('logs').filter((l) => l.op === 'instance/update').length);
		},
		params: (ctx) => ({ id: [ctx.get('hostId')], waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.status} ${item.statusCode}`, 'Running 1', 'status in words and its code (simplified)');
			const log = ctx.state('logs').filter((l) => l.op === 'instance/update');
			must(log.length > ctx.get('rebootsBefore'), 'no instance/update reached the emulator');
			same(JSON.parse(log[log.length - 1].content).op, 'reset', 'power operation sent');
		},
	},
	{
		resource: 'hostDisk',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const d = one(json, 'disks of the host');
			same(d.value, 40, 'system disk size');
			ctx.put('diskId', String(d.id));
		},
	},
	{
		resource: 'hostDisk',
		operation: 'resize',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('diskId')), value: 60 }),
		async check(json, ctx) {
			same(one(json, 'resize items').value, 60, 'size (value, simplified: the documents state no unit)');
			same(host(ctx, ctx.get('hostId')).diskvalue, 60, 'disk size at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'updateConfiguration',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), updateFields: { cpuid: '2', memid: '3', networkvalue: 5 } }),
		async check(json, ctx) {
			const h = host(ctx, ctx.get('hostId'));
			same(`${h.cpuid} ${h.memid} ${h.networkvalue}`, '2 3 5', 'CPU, memory and bandwidth at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'create',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), name: 'matrix-snap', additionalFields: { note: 'before' } }),
		async check(json, ctx) {
			const item = one(json, 'snapshot items');
			const s = Object.values(inst(ctx).snapshots).find((x) => x.snapshot_id === item.snapshotId);
			must(s, `snapshot ${item.snapshotId} is not at the emulator`);
			same(`${s.iid} ${s.name}`, `${ctx.get('hostId')} matrix-snap`, 'host and name at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const s = one(json, 'snapshots of the host');
			same(s.name, 'matrix-snap', 'name');
			ctx.put('snapshotId', String(s.id));
		},
	},
	{
		resource: 'snapshot',
		operation: 'update',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('snapshotId')), updateFields: { note: 'kept' } }),
		async check(json, ctx) {
			same(inst(ctx).snapshots[ctx.get('snapshotId')].note, 'kept', 'note at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'rollback',
		params: (ctx) => ({ id: byId(ctx.get('snapshotId')), waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.id} ${item.status} ${item.statusCode}`, `${ctx.get('hostId')} Running 1`, 'host and status in words and its code (simplified)');
			const log = ctx.state('logs').filter((l) => l.op === 'instance/snapshotRollback');
			must(log.length > 0, 'no roll back reached the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('snapshotId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).snapshots[ctx.get('snapshotId')], 'the snapshot is still at the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'create',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), name: 'matrix-backup', backupType: 1, additionalFields: { note: 'system disk' }, waitForCompletion: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'backup items');
			same(`${item.status} ${item.statusCode} ${item.progress}`, 'Completed 1 100', 'status in words, its code and progress (simplified)');
			const b = Object.values(inst(ctx).backups).find((x) => x.backup_id === item.backupId);
			must(b && b.status === 1, `backup ${item.backupId} is not completed at the emulator`);
		},
	},
	{
		resource: 'backup',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const b = one(json, 'backups of the host');
			same(b.name, 'matrix-backup', 'name');
			ctx.put('backupId', String(b.id));
		},
	},
	{
		resource: 'backup',
		operation: 'update',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('backupId')), updateFields: { note: 'kept' } }),
		async check(json, ctx) {
			same(inst(ctx).backups[ctx.get('backupId')].note, 'kept', 'note at the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'restore',
		params: (ctx) => ({ id: byId(ctx.get('backupId')), waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.id} ${item.status} ${item.statusCode}`, `${ctx.get('hostId')} Running 1`, 'host and status in words and its code (simplified)');
			must(ctx.state('logs').some((l) => l.op === 'instance/backupRestore'), 'no restore reached the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('backupId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(inst(ctx).backups[ctx.get('backupId')].status, 4, 'status at the emulator (4 is the recycle bin)');
		},
	},
	{
		resource: 'host',
		operation: 'reinstall',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), isChangePass: true, password: 'Fresh-pass9', waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.status} ${item.statusCode}`, 'Running 1', 'status in words and its code (simplified)');
			must(ctx.state('logs').some((l) => l.op === 'instance/restore'), 'no reinstall reached the emulator');
			must(!JSON.stringify(json).includes('Fresh-pass9'), 'the password appears in the output');
		},
	},
	{
		resource: 'host',
		operation: 'delete',
		params: (ctx) => ({ id: [ctx.get('hostId')] }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(host(ctx, ctx.get('hostId')).status, 9, 'status at the emulator (9 is the recycle bin)');
		},
	},
];

const fallbacks = {
	'vendorCloudHost/host/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).hosts).find((h) => h.name === 'matrix-host');
		if (!find()) {
			const spec = { name: 'matrix-host', nodeid: 1, cpuid: 1, memid: 2, imageid: 2, networkid: 5, networkvalue: 2, status: 1, note: 'made by the dialect matrix' };
			await ctx.control('POST', '/management/instance/hosts/add', spec);
		}
		await ctx.control('POST', '/management/instance/settle', {});
		ctx.put('hostId', String(find().id));
	},
	'vendorCloudHost/hostDisk/getAll': async (ctx) => {
		ctx.put('diskId', String(Object.values(inst(ctx).disks).find((d) => String(d.iid) === ctx.get('hostId') && d.kind === 'system').id));
	},
	'vendorCloudHost/snapshot/create': async (ctx) => {
		const iid = Number(ctx.get('hostId'));
		if (!Object.values(inst(ctx).snapshots).some((s) => s.iid === iid)) await ctx.api('instance/snapshotAdd', { iid, name: 'matrix-snap', note: 'before' });
	},
	'vendorCloudHost/snapshot/getAll': async (ctx) => {
		ctx.put('snapshotId', String(Object.values(inst(ctx).snapshots).find((s) => String(s.iid) === ctx.get('hostId')).id));
	},
	'vendorCloudHost/backup/create': async (ctx) => {
		const iid = Number(ctx.get('hostId'));
		if (!Object.values(inst(ctx).backups).some((b) => b.iid === iid)) await ctx.api('instance/backupAdd', { iid, name: 'matrix-backup', backup_type: 1 });
		await ctx.control('POST', '/management/instance/settle', {});
	},
	'vendorCloudHost/backup/getAll': async (ctx) => {
		ctx.put('backupId', String(Object.values(inst(ctx).backups).find((b) => String(b.iid) === ctx.get('hostId')).id));
	},
};

module.exports = { entries, fallbacks };

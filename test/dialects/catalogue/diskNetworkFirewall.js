'use strict';
/** The dialect matrix's entries for Vendor Disk, Network & Firewall, in run order, and their fallbacks (see index.js). */
const { must, same, one, byId, inst, host } = require('./checks');

const entries = [
	{
		resource: 'cloudDisk',
		operation: 'create',
		async setup(ctx) {
			// a host of its own in data centre 1 (the demo hosts are already in a network and a firewall)
			const r = await ctx.control('POST', '/management/instance/hosts/add', { name: 'matrix-dnf', nodeid: 1 });
			ctx.put('dnfHost', String(r.host.id));
		},
		params: { nodeid: byId(1), diskName: 'matrix-disk', value: 20, additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'disk items');
			const d = inst(ctx).disks[Number(item.id)];
			must(d, `disk ${item.id} is not at the emulator`);
			same(`${d.disk_name} ${d.value} ${d.nodeid}`, 'matrix-disk 20 1', 'name, size and data centre at the emulator');
			ctx.put('diskId', String(item.id));
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { nodeid: '1', status: 1 } },
		async check(json, ctx) {
			same(json.map((d) => String(d.id)).join(','), ctx.get('diskId'), 'usable disks of data centre 1');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'update',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')), updateFields: { diskName: 'matrix-disk-2' } }),
		async check(json, ctx) {
			same(inst(ctx).disks[ctx.get('diskId')].disk_name, 'matrix-disk-2', 'name at the emulator');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'attach',
		params: (ctx) => ({ diskIds: [ctx.get('diskId')], iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			const d = inst(ctx).disks[ctx.get('diskId')];
			same(`${d.iid} ${d.status}`, `${ctx.get('dnfHost')} 0`, 'host and status at the emulator');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'detach',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')) }),
		async check(json, ctx) {
			const d = inst(ctx).disks[ctx.get('diskId')];
			same(d.status, 1, 'status at the emulator (1 is usable)');
			must(!d.iid, `still bound to host ${d.iid}`);
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'delete',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(inst(ctx).disks[ctx.get('diskId')].status, 2, 'status at the emulator (2 is the recycle bin)');
		},
	},
	{
		resource: 'network',
		operation: 'create',
		params: { nodeid: byId(1), name: 'matrix-net', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'network items');
			const n = inst(ctx).networks[Number(item.id)];
			must(n, `network ${item.id} is not at the emulator`);
			same(n.vxnet_id, item.networkId, 'vxnet_id (networkId, simplified)');
			ctx.put('networkId', String(item.id));
		},
	},
	{
		resource: 'network',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('networkId')) } }),
		async check(json, ctx) {
			const n = one(json, 'networks');
			same(`${n.id} ${n.name}`, `${ctx.get('networkId')} matrix-net`, 'id and name');
		},
	},
	{
		resource: 'network',
		operation: 'update',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')), updateFields: { name: 'matrix-net-2', note: 'renamed' } }),
		async check(json, ctx) {
			const n = inst(ctx).networks[ctx.get('networkId')];
			same(`${n.name} ${n.note}`, 'matrix-net-2 renamed', 'name and note at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'join',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')), iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('dnfHost')).netId, ctx.get('networkId'), 'network of the host at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'leave',
		params: (ctx) => ({ iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			must(!host(ctx, ctx.get('dnfHost')).netId, 'the host is still in the network at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'delete',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).networks[ctx.get('networkId')], 'the network is still at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'create',
		params: { nodeid: byId(1), name: 'matrix-fw', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'firewall items');
			const f = inst(ctx).firewalls[Number(item.id)];
			must(f, `firewall ${item.id} is not at the emulator`);
			same(f.firewall_id, item.firewallId, 'firewall_id (firewallId, simplified)');
			ctx.put('firewallId', String(item.id));
		},
	},
	{
		resource: 'firewall',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('firewallId')) } }),
		async check(json, ctx) {
			const f = one(json, 'firewalls');
			same(`${f.id} ${f.name}`, `${ctx.get('firewallId')} matrix-fw`, 'id and name');
		},
	},
	{
		resource: 'firewall',
		operation: 'update',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), updateFields: { note: 'public web servers' } }),
		async check(json, ctx) {
			same(inst(ctx).firewalls[ctx.get('firewallId')].note, 'public web servers', 'note at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'join',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('dnfHost')).firewallId, ctx.get('firewallId'), 'firewall of the host at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'leave',
		params: (ctx) => ({ iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			must(!host(ctx, ctx.get('dnfHost')).firewallId, 'the host is still in the firewall at the emulator');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'add',
		params: (ctx) => ({
			fid: byId(ctx.get('firewallId')),
			direction: 'in',
			ruleAction: 'ACCEPT',
			protocol: 'tcp',
			destport: '22',
			source: '0.0.0.0/0',
			status: 1,
			additionalFields: { note: 'SSH' },
		}),
		async check(json, ctx) {
			const item = one(json, 'rule items');
			const r = inst(ctx).rules[Number(item.id)];
			must(r, `rule ${item.id} is not at the emulator`);
			same(`${r.fid} ${r.direction} ${r.action} ${r.protocol} ${r.destport} ${r.source}`, `${ctx.get('firewallId')} in ACCEPT tcp 22 0.0.0.0/0`, 'rule at the emulator');
			ctx.put('ruleId', String(item.id));
		},
	},
	{
		resource: 'firewallRule',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, fid: byId(ctx.get('firewallId')), returnAll: true }),
		async check(json, ctx) {
			same(json.map((r) => String(r.id)).join(','), ctx.get('ruleId'), 'rules of the firewall');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'update',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), ruleId: byId(ctx.get('ruleId')), updateFields: { destport: '2222', ruleAction: 'REJECT' } }),
		async check(json, ctx) {
			const r = inst(ctx).rules[ctx.get('ruleId')];
			same(`${r.action} ${r.destport}`, 'REJECT 2222', 'action and port at the emulator');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'delete',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), ruleId: byId(ctx.get('ruleId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).rules[ctx.get('ruleId')], 'the rule is still at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'delete',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).firewalls[ctx.get('firewallId')], 'the firewall is still at the emulator');
		},
	},
];

const fallbacks = {
	'vendorDiskNetworkFirewall/cloudDisk/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).disks).find((d) => d.disk_name === 'matrix-disk');
		if (!find()) await ctx.api('instance/cloudDiskAdd', { nodeid: 1, disk_name: 'matrix-disk', value: 20 });
		ctx.put('diskId', String(find().id));
	},
	'vendorDiskNetworkFirewall/network/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).networks).find((n) => n.name === 'matrix-net');
		if (!find()) await ctx.api('instance/networkAdd', { nodeid: 1, name: 'matrix-net' });
		ctx.put('networkId', String(find().id));
	},
	'vendorDiskNetworkFirewall/firewall/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).firewalls).find((f) => f.name === 'matrix-fw');
		if (!find()) await ctx.api('instance/firewallAdd', { nodeid: 1, name: 'matrix-fw' });
		ctx.put('firewallId', String(find().id));
	},
	'vendorDiskNetworkFirewall/firewallRule/add': async (ctx) => {
		const fid = Number(ctx.get('firewallId'));
		const find = () => Object.values(inst(ctx).rules).find((r) => r.fid === fid);
		if (!find()) await ctx.api('instance/firewallRuleAdd', { fid, direction: 'in', action: 'ACCEPT', protocol: 'tcp', destport: '22', source: '0.0.0.0/0', status: 1 });
		ctx.put('ruleId', String(find().id));
	},
};

module.exports = { entries, fallbacks };

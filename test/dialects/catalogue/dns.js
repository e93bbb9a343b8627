'use strict';
/** The dialect matrix's entries for Vendor DNS, in run order, and their fallbacks (see index.js). */
const { must, same, count, one, byId, dns } = require('./checks');
const { dnsRecords } = require('../../support/vendor');

// no line: the service chooses (readings R69; under dnsLinesOwn the English words are refused)
const row = (subdomain, recordtype, value, extra = {}) => ({ subdomain, recordtype, value, mx: 10, ttl: 300, weight: 1, ...extra });

const PERSONAL = 2;
const BUSINESS = 3;
const domain = (ctx) => dns(ctx).domains[ctx.get('domainId')];
const did = (ctx) => byId(ctx.get('domainId'));
const record = (ctx, id) => dns(ctx).records[Number(id)];

const entries = [
	{
		resource: 'plan',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((p) => p.name).join(','), 'Free,Personal,Business,Enterprise', 'plans');
			same(Number(json[1].price).toFixed(2), '29.00', 'price of Personal');
		},
	},
	{
		resource: 'domain',
		operation: 'add',
		params: { domain: 'matrix-example.com', pid: byId(PERSONAL), additionalFields: { period: 1, note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'domain items');
			const d = dns(ctx).domains[Number(item.id)];
			must(d, `domain ${item.id} is not at the emulator`);
			same(`${d.name} ${d.pid}`, 'matrix-example.com 2', 'name and plan at the emulator');
			ctx.put('domainId', String(item.id));
		},
	},
	{
		resource: 'domain',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('domainId')) } }),
		async check(json, ctx) {
			const d = one(json, 'domains');
			same(`${d.id} ${d.name}`, `${ctx.get('domainId')} matrix-example.com`, 'id and name');
		},
	},
	{
		resource: 'domain',
		operation: 'star',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(domain(ctx).mark, 1, 'star at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'unstar',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(domain(ctx).mark, 0, 'star at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), status: 2 }),
		async check(json, ctx) {
			same(domain(ctx).status, 2, 'status at the emulator (2 is paused)');
		},
	},
	{
		resource: 'domain',
		operation: 'updateNote',
		async setup(ctx) {
			await ctx.control('POST', '/management/dns/domains/status', { id: Number(ctx.get('domainId')), status: 1 });
		},
		params: (ctx) => ({ did: did(ctx), note: 'matrix note' }),
		async check(json, ctx) {
			same(domain(ctx).note, 'matrix note', 'note at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'upgrade',
		params: (ctx) => ({ did: did(ctx), pid: byId(BUSINESS), additionalFields: { period: 1 } }),
		async check(json, ctx) {
			same(domain(ctx).pid, BUSINESS, 'plan at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'add',
		params: (ctx) => ({
			simplify: false,
			did: did(ctx),
			...dnsRecords([row('www', 'A', '203.0.113.10', { ttl: 600 }), row('@', 'MX', 'mail.matrix-example.com', { mx: 5 }), row('mail', 'AAAA', '2001:db8::25')]),
		}),
		async check(json, ctx) {
			count(json, 3, 'records');
			const stored = json.map((r) => record(ctx, r.id));
			must(stored.every(Boolean), 'a record is not at the emulator');
			same(stored.map((r) => `${r.subdomain} ${r.recordtype} ${r.value}`).join(', '), 'www A 203.0.113.10, @ MX mail.matrix-example.com, mail AAAA 2001:db8::25', 'records at the emulator');
			ctx.put('www', String(json[0].id));
			ctx.put('mx', String(json[1].id));
			ctx.put('mail', String(json[2].id));
		},
	},
	{
		resource: 'record',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, did: did(ctx), returnAll: true, filters: { recordtype: 'A' } }),
		async check(json, ctx) {
			same(json.map((r) => String(r.id)).join(','), ctx.get('www'), 'A records');
		},
	},
	{
		resource: 'record',
		operation: 'update',
		params: (ctx) => ({ simplify: false, did: did(ctx), recordId: byId(ctx.get('mx')), updateFields: { mx: 20, ttl: 3600 } }),
		async check(json, ctx) {
			const r = record(ctx, ctx.get('mx'));
			same(`${r.mx} ${r.ttl} ${r.value}`, '20 3600 mail.matrix-example.com', 'MX priority, TTL and value at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), recordId: byId(ctx.get('mail')), status: 0 }),
		async check(json, ctx) {
			same(record(ctx, ctx.get('mail')).status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'updateNote',
		params: (ctx) => ({ did: did(ctx), recordId: byId(ctx.get('www')), note: 'storefront' }),
		async check(json, ctx) {
			same(record(ctx, ctx.get('www')).note, 'storefront', 'note at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'add',
		params: (ctx) => ({ simplify: false, did: did(ctx), subdomain: 'www', additionalFields: { retry: 5, interval: 10, port: 443, path: '/health' } }),
		async check(json, ctx) {
			const item = one(json, 'monitor items');
			const m = dns(ctx).monitors[Number(item.id)];
			must(m, `monitor ${item.id} is not at the emulator`);
			same(`${m.subdomain} ${m.port} ${m.path}`, 'www 443 /health', 'host record, port and path at the emulator');
			ctx.put('monitorId', String(item.id));
		},
	},
	{
		resource: 'monitor',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { did: Number(ctx.get('domainId')) } }),
		async check(json, ctx) {
			same(json.map((m) => String(m.id)).join(','), ctx.get('monitorId'), 'monitors of the domain');
		},
	},
	{
		resource: 'monitor',
		operation: 'update',
		params: (ctx) => ({ simplify: false, mid: byId(ctx.get('monitorId')), updateFields: { retry: 3, path: '/ping' } }),
		async check(json, ctx) {
			const m = dns(ctx).monitors[ctx.get('monitorId')];
			same(`${m.retry} ${m.path}`, '3 /ping', 'retries and path at the emulator');
		},
	},
	{
		resource: 'monitorRecord',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, mid: byId(ctx.get('monitorId')), returnAll: true }),
		async check(json, ctx) {
			const mr = one(json, 'monitor records');
			same(`${mr.subdomain} ${mr.ip}`, 'www 203.0.113.10', 'host record and address');
			ctx.put('monitorRecordId', String(mr.id));
		},
	},
	{
		resource: 'monitorRecord',
		operation: 'setStatus',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')), monitorRecordId: byId(ctx.get('monitorRecordId')), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).monitorRecords[ctx.get('monitorRecordId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'setStatus',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')), monitorRecordIds: [ctx.get('monitorRecordId')], status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).monitors[ctx.get('monitorId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'create',
		params: { pid: byId(PERSONAL), name: 'matrix-tpl', additionalFields: { status: 0, note: 'v1' } },
		async check(json, ctx) {
			const item = one(json, 'template items');
			const t = dns(ctx).templates[Number(item.id)];
			must(t, `template ${item.id} is not at the emulator`);
			same(`${t.name} ${t.pid} ${t.status}`, 'matrix-tpl 2 0', 'name, plan and status at the emulator');
			ctx.put('templateId', String(item.id));
		},
	},
	{
		resource: 'template',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			same(json.map((t) => String(t.id)).join(','), ctx.get('templateId'), 'templates');
		},
	},
	{
		resource: 'template',
		operation: 'update',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), updateFields: { name: 'matrix-tpl-2', note: 'v2' } }),
		async check(json, ctx) {
			const t = dns(ctx).templates[ctx.get('templateId')];
			same(`${t.name} ${t.note}`, 'matrix-tpl-2 v2', 'name and note at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'setStatus',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), status: 1 }),
		async check(json, ctx) {
			same(dns(ctx).templates[ctx.get('templateId')].status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'add',
		// two records in one run, one per input item
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), ip: '={{ $json.ip }}', additionalFields: { country: 'CN', isp: '={{ $json.isp }}' } }),
		opts: () => ({ input: [{ ip: '203.0.113.50', isp: 'telecom' }, { ip: '203.0.113.60', isp: 'unicom' }] }),
		async check(json, ctx) {
			count(json, 2, 'items');
			const recs = Object.values(dns(ctx).tempStys).filter((r) => String(r.tid) === ctx.get('templateId'));
			same(recs.map((r) => `${r.isp} ${r.ip}`).sort().join(', '), 'telecom 203.0.113.50, unicom 203.0.113.60', 'template records at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, tid: byId(ctx.get('templateId')), returnAll: true }),
		async check(json, ctx) {
			same(json.map((r) => r.ip).join(','), '203.0.113.50,203.0.113.60', 'template records');
			ctx.put('tempRecords', json.map((r) => String(r.id)));
		},
	},
	{
		resource: 'templateRecord',
		operation: 'update',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[0]), updateFields: { ip: '203.0.113.51', city: 'Shanghai' } }),
		async check(json, ctx) {
			const r = dns(ctx).tempStys[ctx.get('tempRecords')[0]];
			same(`${r.ip} ${r.city}`, '203.0.113.51 Shanghai', 'address and city at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'setStatus',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[0]), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).tempStys[ctx.get('tempRecords')[0]].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'delete',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[1]) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).tempStys[ctx.get('tempRecords')[1]], 'the template record is still at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'add',
		params: (ctx) => ({ did: did(ctx), subdomain: 'www', sty: 'auto', tid: byId(ctx.get('templateId')), status: 1, additionalFields: { maxip: 2 } }),
		async check(json, ctx) {
			const ys = Object.values(dns(ctx).strategies).filter((y) => String(y.did) === ctx.get('domainId'));
			const y = one(ys, 'strategies of the domain at the emulator');
			same(`${y.subdomain} ${y.sty} ${y.tid} ${y.maxip}`, `www auto ${ctx.get('templateId')} 2`, 'strategy at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, did: did(ctx), returnAll: true }),
		async check(json, ctx) {
			const y = one(json, 'strategies');
			same(`${y.subdomain} ${y.sty}`, 'www auto', 'host record and strategy');
			ctx.put('strategyId', String(y.id));
		},
	},
	{
		resource: 'strategy',
		operation: 'update',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')), updateFields: { maxip: 3, sty: 'null' } }),
		async check(json, ctx) {
			const y = dns(ctx).strategies[ctx.get('strategyId')];
			same(`${y.maxip} ${y.sty}`, '3 null', 'max IPs and strategy at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).strategies[ctx.get('strategyId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).strategies[ctx.get('strategyId')], 'the strategy is still at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx), recordIds: [ctx.get('mail'), ctx.get('mx')] }),
		async check(json, ctx) {
			same(json.map((d) => `${d.deleted} ${d.id}`).join(','), `true ${ctx.get('mail')},true ${ctx.get('mx')}`, 'deleted records');
			must(!record(ctx, ctx.get('mail')) && !record(ctx, ctx.get('mx')), 'a record is still at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'delete',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).monitors[ctx.get('monitorId')], 'the monitor is still at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'delete',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).templates[ctx.get('templateId')], 'the template is still at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!domain(ctx), 'the domain is still at the emulator');
			must(!record(ctx, ctx.get('www')), 'its records are still at the emulator');
		},
	},
];

const fallbacks = {
	'vendorDns/domain/add': async (ctx) => {
		const find = () => Object.values(dns(ctx).domains).find((d) => d.name === 'matrix-example.com');
		if (!find()) await ctx.api('dns/domainAdd', { domain: 'matrix-example.com', pid: PERSONAL, period: 1 });
		ctx.put('domainId', String(find().id));
	},
	'vendorDns/record/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		const find = (sub) => Object.values(dns(ctx).records).find((r) => r.did === dId && r.subdomain === sub);
		if (!find('www')) await ctx.api('dns/recordAdd', { did: dId, records: 'www;A;;203.0.113.10;;600;1#@;MX;;mail.matrix-example.com;5;300;1#mail;AAAA;;2001:db8::25;;300;1' });
		ctx.put('www', String(find('www').id));
		ctx.put('mx', String(find('@').id));
		ctx.put('mail', String(find('mail').id));
	},
	'vendorDns/monitor/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		const find = () => Object.values(dns(ctx).monitors).find((m) => m.did === dId);
		if (!find()) await ctx.api('dns/monitorAdd', { did: dId, subdomain: 'www' });
		ctx.put('monitorId', String(find().id));
	},
	'vendorDns/monitorRecord/getAll': async (ctx) => {
		ctx.put('monitorRecordId', String(Object.values(dns(ctx).monitorRecords).find((r) => String(r.mid) === ctx.get('monitorId')).id));
	},
	'vendorDns/template/create': async (ctx) => {
		const find = () => Object.values(dns(ctx).templates).find((t) => t.name === 'matrix-tpl');
		if (!find()) await ctx.api('dns/tempAdd', { pid: PERSONAL, name: 'matrix-tpl', status: 0 });
		ctx.put('templateId', String(find().id));
	},
	'vendorDns/templateRecord/add': async (ctx) => {
		const tid = Number(ctx.get('templateId'));
		const ips = Object.values(dns(ctx).tempStys).filter((r) => r.tid === tid).map((r) => r.ip);
		for (const [ip, isp] of [['203.0.113.50', 'telecom'], ['203.0.113.60', 'unicom']]) if (!ips.includes(ip)) await ctx.api('dns/tempStyAdd', { tid, ip, country: 'CN', isp });
	},
	'vendorDns/templateRecord/getAll': async (ctx) => {
		const recs = Object.values(dns(ctx).tempStys).filter((r) => String(r.tid) === ctx.get('templateId'));
		ctx.put('tempRecords', recs.sort((a, b) => a.id - b.id).map((r) => String(r.id)));
	},
	'vendorDns/strategy/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		if (!Object.values(dns(ctx).strategies).some((y) => y.did === dId)) await ctx.api('dns/styAdd', { did: dId, subdomain: 'www', sty: 'auto', tid: Number(ctx.get('templateId')), maxip: 2, status: 1 });
	},
	'vendorDns/strategy/getAll': async (ctx) => {
		ctx.put('strategyId', String(Object.values(dns(ctx).strategies).find((y) => String(y.did) === ctx.get('domainId')).id));
	},
};

module.exports = { entries, fallbacks };

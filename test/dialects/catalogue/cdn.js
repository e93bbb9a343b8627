'use strict';
/** The dialect matrix's entries for Vendor CDN, in run order, and their fallbacks (see index.js). */
const { must, show, same, one, has, byId, cdn, channel, task } = require('./checks');

const pem = (cn) => `subject=CN=${cn}\n-----BEGIN CERTIFICATE-----\nZGVtbyBjZXJ0aWZpY2F0ZQ==\n-----END CERTIFICATE-----\n`;
const KEY = '-----BEGIN PRIVATE KEY-----\nbWF0cml4LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n';
const GIB = 1073741824;

const channelId = (ctx, name) => String(cdn(ctx).channels.find((c) => c.name === name).id);
const yyyymm = (ms) => {
	const d = new Date(ms);
	return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

const entries = [
	{
		resource: 'accelerationProfile',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			for (const t of ['cloud', 'live', 'static']) must(has(json, (p) => p.type === t), `type ${t} missing from ${show(json.map((p) => p.type))}`);
		},
	},
	{
		resource: 'channel',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			const names = json.map((c) => c.name).sort();
			same(names.join(','), 'download.example.com,live.example.com,static.example.com,www.example.com', 'channels');
			same(json.find((c) => c.name === 'www.example.com').id, channelId(ctx, 'www.example.com'), 'id of www.example.com');
		},
	},
	{
		resource: 'channel',
		operation: 'create',
		params: {
			name: 'matrix.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: '203.0.113.10', port: 80, weight: 0 }, { ip: '203.0.113.11', port: 8080, weight: 0 }] },
			additionalFields: { note: 'made by the dialect matrix' },
		},
		async check(json, ctx) {
			const item = one(json, 'channel items');
			const c = channel(ctx, item.id);
			must(c, `channel ${item.id} is not at the emulator`);
			same(c.name, 'matrix.example.com', 'name at the emulator');
			same(JSON.stringify(c.ip), JSON.stringify({ '203.0.113.10': '80', '203.0.113.11': '8080' }), 'origins at the emulator');
			ctx.put('channelId', String(item.id));
		},
	},
	{
		resource: 'channel',
		operation: 'get',
		params: (ctx) => ({ simplify: false, id: byId(ctx.get('channelId')) }),
		async check(json, ctx) {
			const c = one(json, 'channel items');
			same(c.id, ctx.get('channelId'), 'id');
			same(c.name, 'matrix.example.com', 'name');
		},
	},
	{
		resource: 'certificate',
		operation: 'create',
		params: { name: 'matrix-cert', sslCrt: pem('matrix.example.com'), sslKey: KEY },
		async check(json, ctx) {
			const item = one(json, 'certificate items');
			same(item.commonname, 'matrix.example.com', 'common name');
			must(!/PRIVATE KEY|bWF0cml4/.test(JSON.stringify(json)), 'the private key appears in the output');
			must(cdn(ctx).certs.some((c) => String(c.id) === String(item.id)), 'the certificate is not at the emulator');
			ctx.put('certId', String(item.id));
		},
	},
	{
		resource: 'certificate',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.name).sort().join(','), 'example-wildcard,matrix-cert', 'certificates');
		},
	},
	{
		resource: 'certificate',
		operation: 'get',
		params: (ctx) => ({ simplify: false, id: byId(ctx.get('certId')) }),
		async check(json, ctx) {
			const c = one(json, 'certificate items');
			same(c.id, ctx.get('certId'), 'id');
			same(c.name, 'matrix-cert', 'name');
		},
	},
	{
		resource: 'certificate',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('certId')), updateFields: { name: 'matrix-cert-2' } }),
		async check(json, ctx) {
			same(cdn(ctx).certs.find((c) => String(c.id) === ctx.get('certId')).name, 'matrix-cert-2', 'name at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('channelId')), updateFields: { mark: 1, note: 'changed by the matrix', origins: { rows: [{ ip: '203.0.113.12', port: 8443, weight: 0 }] } } }),
		async check(json, ctx) {
			const c = channel(ctx, ctx.get('channelId'));
			same(`${c.mark} ${c.note}`, '1 changed by the matrix', 'star and note at the emulator');
			same(JSON.stringify(c.ip), JSON.stringify({ '203.0.113.12': '8443' }), 'origins at the emulator');
		},
	},
	{
		resource: 'certificate',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('certId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!cdn(ctx).certs.some((c) => String(c.id) === ctx.get('certId')), 'the certificate is still at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'close',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(one(json, 'close items').id, ctx.get('channelId'), 'id');
			same(channel(ctx, ctx.get('channelId')).status, 2, 'status at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'start',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(channel(ctx, ctx.get('channelId')).status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'getCurrentData',
		params: (ctx) => ({ simplify: false, ids: [channelId(ctx, 'www.example.com')] }),
		async check(json, ctx) {
			const item = one(json, 'current data items');
			same(item.did, channelId(ctx, 'www.example.com'), 'channel id');
			must(Number.isFinite(Number(item.reqs)), `requests ${show(item.reqs)}`);
		},
	},
	{
		resource: 'channelLog',
		operation: 'getAll',
		params: (ctx) => ({ id: byId(channelId(ctx, 'www.example.com')), returnAll: true, filters: { begintime: '2026-01-01', endtime: '2026-01-03' } }),
		async check(json) {
			same(json.map((l) => l.name).join(','), '20260103_www.example.com.log.gz,20260102_www.example.com.log.gz,20260101_www.example.com.log.gz', 'log files');
			must(json.every((l) => /^https:\/\//.test(l.url)), 'a log file without a download address');
		},
	},
	{
		resource: 'livePushOrigin',
		operation: 'getAll',
		params: { returnAll: true, filters: { type: 'live' } },
		async check(json, ctx) {
			same(json.map((o) => `${o.id} ${o.name}`).join(','), `${channelId(ctx, 'live.example.com')} live.example.com`, 'live channels');
		},
	},
	{
		resource: 'serviceNode',
		operation: 'getAll',
		params: { name: 'www.example.com', type: 'core', returnAll: true },
		async check(json) {
			must(json.length > 0, 'no node');
			must(json.every((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n.ip)), `a node without an IP address: ${show(json)}`);
		},
	},
	{
		resource: 'serviceNode',
		operation: 'getForClient',
		params: { clientIp: '203.0.113.45', name: 'www.example.com', absolute: true },
		async check(json) {
			const item = one(json, 'items');
			same(item.client && item.client.client_ip, '203.0.113.45', 'client IP');
			must(Array.isArray(item.server) && item.server.length > 0, `no server in ${show(item)}`);
		},
	},
	{
		resource: 'ipAddress',
		operation: 'getLocation',
		params: { ip: '8.8.8.8\n10.1.2.3' },
		async check(json) {
			same(json.map((x) => x.ip).join(','), '8.8.8.8,10.1.2.3', 'addresses');
			same(json[1].isp, 'LAN', 'ISP of 10.1.2.3');
		},
	},
	{
		resource: 'statistic',
		operation: 'getBandwidth',
		params: (ctx) => ({
			simplify: false,
			domainIds: [channelId(ctx, 'www.example.com')],
			viewtype: 'custom',
			begintime: '2026-01-01T00:00:00',
			endtime: '2026-01-02T00:00:00',
			additionalFields: { serviceTypes: ['cloud'] },
		}),
		async check(json) {
			must(json.length > 0, 'no time slot');
			same(json[0].logtime, Date.UTC(2026, 0, 1) / 1000, 'first time slot');
			must(json.every((s) => Number.isFinite(Number(s.tx))), 'a slot without traffic');
		},
	},
	{
		resource: 'statistic',
		operation: 'getBreakdown',
		params: (ctx) => ({ domainIds: [channelId(ctx, 'www.example.com')], viewtype: 'yesterday', additionalFields: { types: ['cache', 'code'] } }),
		async check(json) {
			const item = one(json, 'breakdown items');
			same((item.cacheGraph || []).map((x) => x[0]).join(','), 'hit,miss', 'cache graph');
			must(item.code && typeof item.code === 'object' && Object.keys(item.code).includes('200'), `response codes ${show(item.code)}`);
		},
	},
	{
		resource: 'bill',
		operation: 'getByAccount',
		params: (ctx) => ({ simplify: false, months: yyyymm(ctx.now()), additionalFields: { type: ['cloud', 'download'] } }),
		async check(json, ctx) {
			same(json.map((b) => b.srvtype).sort().join(','), 'cloud,download', 'service types');
			same(json[0].month, yyyymm(ctx.now()), 'month');
		},
	},
	{
		resource: 'bill',
		operation: 'getByChannel',
		params: (ctx) => ({ simplify: false, domainIds: [channelId(ctx, 'www.example.com')], begintime: '2026-01-01T00:00:00Z', endtime: '2026-01-01T01:00:00Z' }),
		async check(json) {
			const item = one(json, 'bill items');
			same(item.billtype, 'flow', 'bill type');
			must(Number(item.total) > 0, `total ${show(item.total)}`);
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getPriceTiers',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((t) => Number(t.price).toFixed(2)).join(','), '0.20,0.18,0.15,0.12', 'prices');
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'buy',
		params: { flow: 100 * GIB },
		async check(json, ctx) {
			const pkgs = cdn(ctx).packages;
			same(pkgs.length, 2, 'packages at the emulator');
			same(pkgs[1].flow, 100 * GIB, 'size of the new package at the emulator');
			// the answer is the account's traffic: what is left of every bought package
			same(one(json, 'buy items').flow, pkgs.reduce((sum, p) => sum + Number(p.flowover), 0), 'bought traffic left');
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.length, 2, 'packages');
			must(json.every((p) => Number(p.flow) === 100 * GIB), `flows ${show(json.map((p) => p.flow))}`);
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getBalance',
		params: {},
		async check(json) {
			const item = one(json, 'balance items');
			same(item.buy && item.buy.total, 200 * GIB, 'bought traffic');
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'create',
		params: { type: 'file', urls: 'https://www.example.com/matrix.html\nhttps://static.example.com/matrix.css', waitForCompletion: true, waitTimeout: 20, pollInterval: 0.1 },
		async check(json, ctx) {
			const item = one(json, 'task items');
			// the result of the wait: `outcome` (the task's own `status` stays as the service sent it)
			same(item.outcome !== undefined ? item.outcome : item.status, 'success', 'outcome of the wait');
			const t = task(ctx, item.id);
			must(t && t.kind === 'refresh', `task ${item.id} is not a refresh at the emulator`);
			same(t.urls.join(' '), 'https://www.example.com/matrix.html https://static.example.com/matrix.css', 'URLs at the emulator');
			ctx.put('refreshId', String(item.id));
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'getStatus',
		params: (ctx) => ({ id: [ctx.get('refreshId')] }),
		async check(json, ctx) {
			same(json.map((s) => `${s.id} ${s.status}`).join(','), `${ctx.get('refreshId')} success`, 'statuses');
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'repeat',
		params: (ctx) => ({ id: byId(ctx.get('refreshId')) }),
		async check(json, ctx) {
			const item = one(json, 'task items');
			must(Number(item.id) > Number(ctx.get('refreshId')), `the repeated task has id ${item.id}`);
			same(task(ctx, item.id).urls.join(' '), task(ctx, ctx.get('refreshId')).urls.join(' '), 'URLs of the new task');
		},
	},
	{
		resource: 'prefetch',
		operation: 'create',
		params: { preloadtype: 0, urls: 'https://www.example.com/big.bin' },
		async check(json, ctx) {
			const item = one(json, 'task items');
			const t = task(ctx, item.id);
			must(t && t.kind === 'preload', `task ${item.id} is not a prefetch at the emulator`);
			same(t.urls.join(' '), 'https://www.example.com/big.bin', 'URLs at the emulator');
			ctx.put('prefetchId', String(item.id));
		},
	},
	{
		resource: 'prefetch',
		operation: 'getStatus',
		params: (ctx) => ({ id: [ctx.get('prefetchId')] }),
		async check(json, ctx) {
			const s = one(json, 'status items');
			same(s.id, ctx.get('prefetchId'), 'id');
			must(['processing', 'success'].includes(s.status), `status ${show(s.status)}`);
		},
	},
	{
		resource: 'prefetch',
		operation: 'repeat',
		params: (ctx) => ({ id: byId(ctx.get('prefetchId')) }),
		async check(json, ctx) {
			const item = one(json, 'task items');
			must(Number(item.id) > Number(ctx.get('prefetchId')), `the repeated task has id ${item.id}`);
			same(task(ctx, item.id).kind, 'preload', 'kind of the new task');
		},
	},
	{
		resource: 'task',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			same(json.length, cdn(ctx).tasks.length, 'tasks');
			const ids = json.map((t) => Number(t.id));
			same(ids.join(','), [...ids].sort((a, b) => b - a).join(','), 'order (newest first)');
			must(ids.includes(Number(ctx.get('refreshId'))), 'the refresh task is missing');
		},
	},
	{
		resource: 'task',
		operation: 'delete',
		params: (ctx) => ({ ids: [ctx.get('refreshId'), ctx.get('prefetchId')] }),
		async check(json, ctx) {
			same(json.map((d) => `${d.deleted} ${d.id}`).join(','), `true ${ctx.get('refreshId')},true ${ctx.get('prefetchId')}`, 'deleted tasks');
			must(!task(ctx, ctx.get('refreshId')) && !task(ctx, ctx.get('prefetchId')), 'a task is still at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'delete',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!channel(ctx, ctx.get('channelId')), 'the channel is still at the emulator');
		},
	},
];

const fallbacks = {
	'vendorCdn/channel/create': async (ctx) => {
		const find = () => cdn(ctx).channels.find((c) => c.name === 'matrix.example.com');
		if (!find()) await ctx.api('cdn/domainAdd', { name: 'matrix.example.com', type: 'cloud', ip: { '203.0.113.10': '80', '203.0.113.11': '8080' } });
		ctx.put('channelId', String(find().id));
	},
	'vendorCdn/certificate/create': async (ctx) => {
		const find = () => cdn(ctx).certs.find((c) => c.name === 'matrix-cert');
		if (!find()) await ctx.api('cdn/sslAdd', { name: 'matrix-cert', ssl_crt: pem('matrix.example.com'), ssl_key: KEY });
		ctx.put('certId', String(find().id));
	},
	'vendorCdn/cacheRefresh/create': async (ctx) => {
		const find = () => cdn(ctx).tasks.find((t) => t.kind === 'refresh' && t.urls.includes('https://www.example.com/matrix.html'));
		if (!find()) await ctx.api('cdn/refresh', { type: 'file', urls: 'https://www.example.com/matrix.html,https://static.example.com/matrix.css' });
		await ctx.control('POST', '/management/cdn/tasks/settle', {});
		ctx.put('refreshId', String(find().id));
	},
	'vendorCdn/prefetch/create': async (ctx) => {
		const find = () => cdn(ctx).tasks.find((t) => t.kind === 'preload' && t.urls.includes('https://www.example.com/big.bin'));
		if (!find()) await ctx.api('cdn/preload', { preloadtype: 0, urls: 'https://www.example.com/big.bin' });
		ctx.put('prefetchId', String(find().id));
	},
};

module.exports = { entries, fallbacks };

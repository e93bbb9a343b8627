'use strict';
/**
 * Vendor CDN: channels, certificates, statistics, nodes, traffic packages and bills through
 * n8n-core against the emulator. Refresh, prefetch and tasks are in cdn.tasks.test.js.
 */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorCdn';
let v;

beforeAll(async () => {
	v = await startVendor();
});
afterAll(() => v.close());

const run = (parameters, opts) => v.ok(NODE, parameters, opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const cdn = () => v.emu.management.state.cdn;
const channelState = (id) => cdn().channels.find((c) => c.id === Number(id));
const creds = () => ({ vendorApi: v.apiRef });

/** Asserts that `parameters` fail before any request reaches the emulator; returns the error. */
async function rejectedBeforeSending(parameters) {
	const before = await requests();
	const error = await fails(parameters);
	expect(await requests()).toBe(before);
	return error;
}

const pem = (cn) => `subject=CN=${cn}\n-----BEGIN CERTIFICATE-----\nZGVtbyBjZXJ0aWZpY2F0ZQ==\n-----END CERTIFICATE-----\n`;
const KEY = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n';

let main; // www1.example.com, created through the node
let second;

describe('channels', () => {
	test('create sends origin rows as an object, backup origins as an array and cache rules as rows', async () => {
		const [item] = await run({
			resource: 'channel',
			operation: 'create',
			name: 'www1.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: '203.0.113.10', port: 80, weight: 0 }, { ip: '203.0.113.11', port: 8080, weight: 0 }] },
			additionalFields: {
				originSty: 'isp',
				backupOrigins: { rows: [{ ip: 'backup.example.net', port: 443 }] },
				cachetype: 'custom',
				cacheRules: { rows: [{ pattern: 'jpg,png', type: 'cache', ttl: 30, unit: 'd', checkOrigin: true }, { path: '/api/', type: 'noCache', ttl: 0, unit: 'm', checkOrigin: false }] },
				cacheIgnoreQuery: 'on',
				denyIp: '198.51.100.7, 198.51.100.0/24\n2001:db8::/32',
				note: 'made by n8n',
			},
		});
		main = Number(item.id);
		expect(item).toMatchObject({
			name: 'www1.example.com',
			type: 'cloud',
			ip: { '203.0.113.10': '80', '203.0.113.11': '8080' },
			originback: { 'backup.example.net': '443' },
			cachetype: 'custom',
			note: 'made by n8n',
		});
		expect(item.cacheconf).toEqual([
			{ pattern: 'jpg,png', ttl: '30', unit: 'd', type: 'cache', path: '', check_origin: '1' },
			{ pattern: '', ttl: '0', unit: 'm', type: 'noCache', path: '/api/', check_origin: '0' },
		]);
		const state = channelState(main);
		expect(state.origin_sty).toBe('isp');
		expect(state.settings).toMatchObject({ cache_ignore_query: 'on', deny_ip: '198.51.100.7\n198.51.100.0/24\n2001:db8::/32' });
	});

	test('weighted origins are sent as "port,weight"', async () => {
		const [item] = await run({
			resource: 'channel',
			operation: 'create',
			name: 'weighted.example.com',
			type: 'download',
			origins: { rows: [{ ip: '203.0.113.20', port: 80, weight: 70 }, { ip: '203.0.113.21', port: 80, weight: 30 }] },
			additionalFields: { originSty: 'wgt' },
		});
		second = Number(item.id);
		expect(item.ip).toEqual({ '203.0.113.20': '80,70', '203.0.113.21': '80,30' });
	});

	test('get many lists the channel with its settings; Simplify shows the main fields in words', async () => {
		const simple = await run({ resource: 'channel', operation: 'getAll', returnAll: true });
		expect(simple.map((c) => c.domain)).toEqual(['weighted.example.com', 'www1.example.com']);
		expect(simple[1]).toMatchObject({ domain: 'www1.example.com', type: 'Cloud', typeCode: 'cloud', status: 'Enabled', statusCode: '1', starred: false });
		expect(Object.keys(simple[1]).filter((k) => /_/.test(k))).toEqual([]);
		const full = await run({ resource: 'channel', operation: 'getAll', returnAll: true, simplify: false, filters: { type: 'cloud' } });
		expect(full).toHaveLength(1);
		expect(full[0]).toMatchObject({ name: 'www1.example.com', cname: 'www1.example.com.cdn.vendor.example', originback: { 'backup.example.net': '443' } });
		expect(full[0].cacheconf).toHaveLength(2);
	});

	test('get returns one channel; an unknown ID is an error naming it', async () => {
		const [item] = await run({ resource: 'channel', operation: 'get', simplify: false, id: v.byId(main) });
		expect(item).toMatchObject({ id: String(main), name: 'www1.example.com', status: '1' });
		const error = await fails({ resource: 'channel', operation: 'get', simplify: false, id: v.byId(999999) });
		expect(error.message).toBe('Channel 999999 was not found');
	});

	test('update changes settings, star, certificate and speed limits', async () => {
		const [cert] = await run({ resource: 'certificate', operation: 'create', name: 'www1-cert', sslCrt: pem('www1.example.com'), sslKey: KEY });
		const [item] = await run({
			resource: 'channel',
			operation: 'update',
			id: v.byId(main),
			updateFields: {
				mark: 1,
				sslconfId: cert.id,
				sslRedirect: true,
				origins: { rows: [{ ip: '203.0.113.12', port: 8443, weight: 0 }] },
				refererEnable: 'on',
				refererWhite: 'www.example.com\nexample.com',
				limitUrlEnable: 'on',
				limitRate: 512,
				limitRateTime: '08:00-12:00,19:00-23:00',
				limitRateFilter: '/video/,/download/',
				accesskey: 'on',
				accesskeySignature: 'token-signing-key',
			},
		});
		expect(item).toMatchObject({ mark: '1', sslconf_id: cert.id, ssl_redirect: '1', ip: { '203.0.113.12': '8443' } });
		expect(JSON.stringify(item)).not.toContain('token-signing-key');
		const state = channelState(main);
		expect(state.limits).toMatchObject({ limit_url_enable: 'on', limit_rate: 512, limit_rate_time: '08:00-12:00,19:00-23:00', limit_rate_filter: '/video/,/download/' });
		expect(state.settings).toMatchObject({ referer_enable: 'on', referer_white: 'www.example.com\nexample.com', accesskey: 'on' });
		const starred = await run({ resource: 'channel', operation: 'getAll', simplify: false, returnAll: true, filters: { mark: 1 } });
		expect(starred.map((c) => c.id)).toEqual([String(main)]);
	});

	test('close, start and delete take several channels from the multi-select, sent as an array', async () => {
		const [a] = await run({ resource: 'channel', operation: 'create', name: 'a.example.org', type: 'static', origins: { rows: [{ ip: '192.0.2.1', port: 80, weight: 0 }] } });
		const [b] = await run({ resource: 'channel', operation: 'create', name: 'b.example.org', type: 'static', origins: { rows: [{ ip: '192.0.2.2', port: 80, weight: 0 }] } });
		const ids = [a.id, b.id];
		const closed = await run({ resource: 'channel', operation: 'close', domainIds: ids });
		expect(closed).toEqual([
			{ id: a.id, name: 'a.example.org' },
			{ id: b.id, name: 'b.example.org' },
		]);
		expect(ids.map((id) => channelState(id).status)).toEqual([2, 2]);
		const log = v.emu.management.state.logs.filter((l) => l.op === 'cdn/domainClose').pop();
		expect(JSON.parse(log.content).domain_ids).toEqual(ids.map(Number));
		const [current] = await run({ resource: 'channel', operation: 'getCurrentData', simplify: false, ids: [a.id] });
		expect(current).toMatchObject({ did: a.id, reqs: '0', tx: '0' });
		await run({ resource: 'channel', operation: 'start', domainIds: [a.id] });
		expect(channelState(a.id).status).toBe(1);
		const [live] = await run({ resource: 'channel', operation: 'getCurrentData', simplify: false, ids: [a.id] });
		expect(Number(live.reqs)).toBeGreaterThan(0);
		const deleted = await run({ resource: 'channel', operation: 'delete', domainIds: ids });
		expect(deleted).toEqual([
			{ deleted: true, id: a.id, name: 'a.example.org' },
			{ deleted: true, id: b.id, name: 'b.example.org' },
		]);
		expect(channelState(a.id)).toBeUndefined();
		expect(channelState(b.id)).toBeUndefined();
	});

	test('the channel dropdowns list channels, by ID and by name', async () => {
		const options = await n8n.loadOptions(NODE, 'getChannelOptions', { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data } });
		expect(options).toEqual(
			expect.arrayContaining([
				{ name: 'www1.example.com (cloud)', value: String(main) },
				{ name: 'weighted.example.com (download)', value: String(second) },
			]),
		);
		const found = await n8n.listSearch(NODE, 'searchChannels', { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data }, filter: 'weighted' });
		expect(found.results).toEqual([{ name: 'weighted.example.com (download)', value: String(second) }]);
		const names = await n8n.loadOptions(NODE, 'getChannelNameOptions', { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data } });
		expect(names.map((o) => o.value)).toEqual(expect.arrayContaining(['www1.example.com', 'weighted.example.com']));
	});

	test('Return All reads every page (concurrently after the first); Limit stops early', async () => {
		for (let i = 0; i < 205; i++) {
			const r = await v.api('cdn/domainAdd', { name: `bulk${i}.example.net`, type: 'cloud', ip: { '192.0.2.50': 80 } });
			expect(r.code).toBe(1);
		}
		const total = cdn().channels.length;
		expect(total).toBeGreaterThan(200);
		let before = await requests();
		const all = await run({ resource: 'channel', operation: 'getAll', simplify: false, returnAll: true });
		expect(all).toHaveLength(total);
		expect(new Set(all.map((c) => c.id)).size).toBe(total);
		expect(await requests()).toBe(before + Math.ceil(total / 100));
		before = await requests();
		const some = await run({ resource: 'channel', operation: 'getAll', simplify: false, returnAll: false, limit: 7 });
		expect(some).toHaveLength(7);
		expect(await requests()).toBe(before + 1);
	});

	test('log files, live push origins and service nodes', async () => {
		const logs = await run({ resource: 'channelLog', operation: 'getAll', id: v.byId(main), returnAll: true, filters: { begintime: '2026-01-01', endtime: '2026-01-03' } });
		expect(logs.map((l) => l.name)).toEqual(['20260103_www1.example.com.log.gz', '20260102_www1.example.com.log.gz', '20260101_www1.example.com.log.gz']);
		expect(logs[0].url).toMatch(/^https:\/\//);

		const [live] = await run({ resource: 'channel', operation: 'create', name: 'live.example.com', type: 'live', additionalFields: { inputType: 'rtmp_push', flvEnabled: '1' } });
		expect(channelState(live.id).isflv).toBe(1);
		const origins = await run({ resource: 'livePushOrigin', operation: 'getAll', returnAll: true, filters: { domain: 'live.', type: 'live' } });
		expect(origins).toEqual([{ id: live.id, name: 'live.example.com' }]);

		const core = await run({ resource: 'serviceNode', operation: 'getAll', name: 'www1.example.com', type: 'core', returnAll: true });
		expect(core).toHaveLength(4);
		for (const n of core) expect(n.ip).toMatch(/^198\.51\.100\.\d+$/);
		const edge = await run({ resource: 'serviceNode', operation: 'getAll', name: 'www1.example.com', type: 'edge', returnAll: false, limit: 3 });
		expect(edge).toHaveLength(3);

		const [client] = await run({ resource: 'serviceNode', operation: 'getForClient', clientIp: '203.0.113.45', name: 'www1.example.com', absolute: true });
		expect(client.client.client_ip).toBe('203.0.113.45');
		expect(client.server).toHaveLength(1);

		const located = await run({ resource: 'ipAddress', operation: 'getLocation', ip: '8.8.8.8\n10.1.2.3' });
		expect(located.map((x) => x.ip)).toEqual(['8.8.8.8', '10.1.2.3']);
		expect(located[1]).toMatchObject({ country: 'Reserved', isp: 'LAN' });
		expect(located[0].country).toBeTruthy();
	});
});

describe('statistics and bills', () => {
	test('bandwidth: one item per hour; a custom period sends Y-m-d dates and service types as an array', async () => {
		const today = await run({ resource: 'statistic', operation: 'getBandwidth', simplify: false, domainIds: [String(main)], viewtype: 'today' });
		expect(today.length).toBeGreaterThan(0);
		expect(Object.keys(today[0]).sort()).toEqual(['hit', 'logtime', 'reqs', 'rx', 'tpr', 'tx']);
		const custom = await run({
			resource: 'statistic',
			operation: 'getBandwidth', simplify: false,
			domainIds: [String(main)],
			viewtype: 'custom',
			begintime: '2026-01-01T00:00:00',
			endtime: '2026-01-02T00:00:00',
			additionalFields: { serviceTypes: ['cloud', 'download'] },
		});
		expect(custom).toHaveLength(48);
		expect(custom[0].logtime).toBe(String(Date.UTC(2026, 0, 1) / 1000));
		const none = await run({
			resource: 'statistic',
			operation: 'getBandwidth', simplify: false,
			domainIds: [String(main)],
			viewtype: 'custom',
			begintime: '2026-01-01T00:00:00',
			endtime: '2026-01-01T00:00:00',
			additionalFields: { serviceTypes: ['hls'] },
		});
		expect(none.every((r) => r.reqs === '0')).toBe(true);
	});

	test('breakdown returns the chosen splits', async () => {
		const [item] = await run({
			resource: 'statistic',
			operation: 'getBreakdown',
			domainIds: [String(main), String(second)],
			viewtype: 'yesterday',
			additionalFields: { types: ['cache', 'code', 'isp'] },
		});
		expect(item.cacheGraph.map((x) => x[0])).toEqual(['hit', 'miss']);
		expect(Object.keys(item.code)).toEqual(expect.arrayContaining(['200', '404']));
		expect(item.isp).toBeDefined();
		expect(item.country).toBeUndefined();
	});

	test('bills by account (months as an array of yyyymm) and by channel (Unix times)', async () => {
		const now = new Date();
		const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
		const bills = await run({ resource: 'bill', operation: 'getByAccount', simplify: false, months: month, additionalFields: { type: ['cloud', 'download'] } });
		expect(bills.map((b) => b.srvtype).sort()).toEqual(['cloud', 'download']);
		expect(bills[0]).toMatchObject({ month, billtype: 'flow' });
		const [byChannel] = await run({
			resource: 'bill',
			operation: 'getByChannel', simplify: false,
			domainIds: [String(main)],
			begintime: '2026-01-01T00:00:00Z',
			endtime: '2026-01-01T01:00:00Z',
		});
		expect(byChannel.billtype).toBe('flow');
		expect(Number(byChannel.total)).toBeGreaterThan(0);
	});

	test("a sub-account's bill: the sub-account dropdown gives its uid", async () => {
		const made = await v.api('profile/update', { uid: '', username: 'cdn_ops', password: 'Cdn-ops-pass1', password2: 'Cdn-ops-pass1' });
		expect(made.code).toBe(1);
		const options = await n8n.loadOptions(NODE, 'getSubAccountOptions', { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data } });
		expect(options).toEqual([{ name: 'cdn_ops', value: String(made.data.uid) }]);
		const now = new Date();
		const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
		// the sub-account has no channels of its own, so its bill is empty
		expect(await run({ resource: 'bill', operation: 'getByAccount', simplify: false, months: month, additionalFields: { subUid: options[0].value } })).toEqual([]);
		const error = await fails({ resource: 'bill', operation: 'getByAccount', simplify: false, months: month, additionalFields: { subUid: '99999' } });
		expect(error.message).toBe('"Sub-Account": 99999 is not a sub-account of this account');
		expect(error.description).toMatch(/cdn\/getBillByUser with code 0/);
	});
});

describe('certificates', () => {
	test('create, list, get, update and delete; the private key never appears in output', async () => {
		const [made] = await run({
			resource: 'certificate',
			operation: 'create',
			name: 'shop-cert',
			sslCrt: pem('shop.example.com'),
			sslKey: KEY,
			additionalFields: { sslCa: pem('Example CA') },
		});
		expect(made).toMatchObject({ name: 'shop-cert', commonname: 'shop.example.com', subjectAltName: ['shop.example.com'] });
		const id = made.id;
		const all = await run({ resource: 'certificate', operation: 'getAll', simplify: false, returnAll: true });
		expect(all.map((c) => c.name)).toEqual(expect.arrayContaining(['shop-cert', 'www1-cert']));
		const [one] = await run({ resource: 'certificate', operation: 'get', simplify: false, id: v.byId(id) });
		expect(one).toMatchObject({ id, name: 'shop-cert' });
		const [changed] = await run({ resource: 'certificate', operation: 'update', id: v.byId(id), updateFields: { name: 'shop-cert-2', sslKey: KEY.replace('c2Vj', 'bmV3') } });
		expect(changed.name).toBe('shop-cert-2');
		expect(v.emu.management.state.cdn.certs.find((c) => c.id === Number(id)).ssl_key).toContain('bmV3');
		for (const item of [made, ...all, one, changed]) expect(JSON.stringify(item)).not.toMatch(/PRIVATE KEY|c2VjcmV0/);
		const options = await n8n.loadOptions(NODE, 'getCertificateOptions', { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data } });
		expect(options).toEqual(expect.arrayContaining([{ name: 'shop-cert-2 (shop.example.com)', value: id }]));
		const [gone] = await run({ resource: 'certificate', operation: 'delete', id: v.byId(id) });
		expect(gone).toEqual({ deleted: true, id, name: 'shop-cert-2' });
		expect(v.emu.management.state.cdn.certs.some((c) => c.id === Number(id))).toBe(false);
	});

	test('a key that is not PEM reaches the service (no form is documented, readings R57), whose error does not echo it', async () => {
		const before = await requests();
		const error = await fails({ resource: 'certificate', operation: 'create', name: 'bad', sslCrt: pem('x.example.com'), sslKey: 'my-secret-key-text' });
		expect(await requests()).toBe(before + 1);
		expect(error.message).toMatch(/^"Private Key"/);
		expect(error.description).toMatch(/cdn\/sslAdd with code/);
		expect(`${error.message} ${error.description}`).not.toContain('my-secret-key-text');
	});
});

describe('traffic packages and acceleration profiles', () => {
	test('price tiers, buy, list and balance', async () => {
		const tiers = await run({ resource: 'trafficPackage', operation: 'getPriceTiers', simplify: false, returnAll: true });
		expect(tiers.map((t) => t.price)).toEqual(['0.20', '0.18', '0.15', '0.12']);
		// simplified: the price a number, with what is known of its currency (docs/vendor/readings.md#r71)
		const simpleTiers = await run({ resource: 'trafficPackage', operation: 'getPriceTiers', returnAll: true });
		expect(simpleTiers[0]).toMatchObject({ price: 0.2 });
		expect(simpleTiers[0]).not.toHaveProperty('currencyNote'); // said once per run instead (issue 36)
		const GIB = 1073741824;
		const [bought] = await run({ resource: 'trafficPackage', operation: 'buy', flow: 100 * GIB });
		expect(bought).toMatchObject({ username: 'demo', flow: String(100 * GIB) });
		const packages = await run({ resource: 'trafficPackage', operation: 'getAll', simplify: false, returnAll: true });
		expect(packages).toHaveLength(1);
		expect(packages[0]).toMatchObject({ flow: String(100 * GIB), flowover: String(100 * GIB), status: '1' });
		const [simple] = await run({ resource: 'trafficPackage', operation: 'getAll', returnAll: true });
		expect(simple).toMatchObject({ sizeBytes: 100 * GIB, flowOver: 100 * GIB, status: '1', billing: packages[0].paytype_zh });
		expect(Object.keys(simple).filter((k) => /_zh$/.test(k))).toEqual([]);
		const [balance] = await run({ resource: 'trafficPackage', operation: 'getBalance' });
		expect(balance.buy).toEqual({ total: String(100 * GIB), used: '0' });
	});

	test('acceleration profiles list the types with billing types', async () => {
		const profiles = await run({ resource: 'accelerationProfile', operation: 'getAll', simplify: false, returnAll: true });
		expect(profiles.map((p) => p.type)).toEqual(expect.arrayContaining(['cloud', 'live', 'static']));
		expect(profiles[0].billtype).toBe('flow');
	});
});

describe('input checked before sending', () => {
	test('an invalid IP in the origin rows', async () => {
		const error = await rejectedBeforeSending({
			resource: 'channel',
			operation: 'create',
			name: 'bad-ip.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: '203.0.113.1', port: 80, weight: 0 }, { ip: '300.1.2.3', port: 80, weight: 0 }] },
		});
		expect(error.message).toBe('Invalid "Origins 2: Address": "300.1.2.3" is not an IP address');
		const domain = await rejectedBeforeSending({
			resource: 'channel',
			operation: 'create',
			name: 'bad-ip.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: 'origin.example.com', port: 80, weight: 0 }] },
		});
		expect(domain.message).toMatch(/"Origins 1: Address": "origin\.example\.com" is not an IP address/);
		expect(domain.description).toMatch(/Origin Type/);
	});

	test('weights only with the weighted policy, and required with it', async () => {
		const stray = await rejectedBeforeSending({
			resource: 'channel',
			operation: 'create',
			name: 'w.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: '203.0.113.1', port: 80, weight: 10 }] },
			additionalFields: { originSty: 'isp' },
		});
		expect(stray.message).toMatch(/"Origins 1: Weight" is only used when Origin Policy is Weighted/);
		const missing = await rejectedBeforeSending({
			resource: 'channel',
			operation: 'update',
			id: v.byId(main),
			updateFields: { originSty: 'wgt', origins: { rows: [{ ip: '203.0.113.1', port: 80, weight: 0 }] } },
		});
		expect(missing.message).toMatch(/"Origins 1: Weight" is required when Origin Policy is Weighted/);
	});

	test('a bad speed-limit time range, a bad blacklist entry and a bad port', async () => {
		const time = await rejectedBeforeSending({ resource: 'channel', operation: 'update', id: v.byId(main), updateFields: { limitRateTime: '08:00-12:00,25:00-26:00' } });
		expect(time.message).toBe('Invalid "Speed Limit Time Ranges": "25:00-26:00" is not a time range such as 08:00-18:00');
		// the blacklist's forms are the service's (the documents say only that `deny_ip` is a newline-separated list: docs/vendor/account-billing-cdn.md#channel-settings)
		const before = await requests();
		const deny = await v.run(NODE, { resource: 'channel', operation: 'update', id: v.byId(main), updateFields: { denyIp: '198.51.100.1\n198.51.100.0/40' } });
		expect(await requests()).toBe(before + 1);
		if (deny.error) expect(deny.error.message).toMatch(/^"IP Blacklist"/);
		const port = await rejectedBeforeSending({ resource: 'channel', operation: 'update', id: v.byId(main), updateFields: { origins: { rows: [{ ip: '203.0.113.1', port: 70000, weight: 0 }] } } });
		expect(port.message).toMatch(/^Invalid "Origins 1: Port"/);
	});

	test('months more than 12 back, and a malformed month; exactly 12 back is sent', async () => {
		const now = new Date();
		const back = (k) => {
			const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 1));
			return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
		};
		const month = back(13);
		const bills = await run({ resource: 'bill', operation: 'getByAccount', simplify: false, months: `${back(12)}\n${back(0)}`, additionalFields: { type: ['cloud'] } });
		expect(bills.map((b) => b.month)).toEqual([back(12), back(0)]);
		const error = await rejectedBeforeSending({ resource: 'bill', operation: 'getByAccount', simplify: false, months: month });
		expect(error.message).toBe(`Invalid "Months": ${month} is more than 12 months back; the service keeps bills of the latest 12 months`);
		const bad = await rejectedBeforeSending({ resource: 'bill', operation: 'getByAccount', simplify: false, months: '2026-11' });
		expect(bad.message).toMatch(/"Months".*yyyymm/);
	});

	test('a custom period needs its dates (an expression that gives nothing included)', async () => {
		const error = await rejectedBeforeSending({ resource: 'statistic', operation: 'getBandwidth', simplify: false, viewtype: 'custom', begintime: '={{ "" }}', endtime: '={{ $now }}' });
		expect(error.message).toBe('The "From" field is required');
	});
});

describe('service errors', () => {
	test('an error envelope shows the service message under the names of the fields, the endpoint and code in the description', async () => {
		const error = await fails({ resource: 'channel', operation: 'create', name: 'www1.example.com', type: 'cloud', origins: { rows: [{ ip: '203.0.113.1', port: 80, weight: 0 }] } });
		expect(error.message).toBe('"Domain": channel www1.example.com already exists');
		expect(error.description).toBe('The service refused cdn/domainAdd with code 0. Nothing was changed. Check the values sent.');
		const inUse = await fails({ resource: 'certificate', operation: 'delete', id: v.byId(channelState(main).sslconf_id) });
		expect(inUse.message).toMatch(/^"Certificate": certificate \d+ is used by channel www1\.example\.com$/);
	});

	test('continue on fail turns the error into an item', async () => {
		const { items, error } = await v.run(NODE, { resource: 'channel', operation: 'get', simplify: false, id: v.byId(424242) }, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ error: 'Channel 424242 was not found', description: 'Check the ID; choose the channel from the list to be sure it exists.' }]);
	});
});

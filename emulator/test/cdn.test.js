'use strict';
/**
 * The content delivery operations of the emulator's management interface
 * (docs/vendor/account-billing-cdn.md):
 * channels, certificates, refresh/prefetch tasks, traffic packages, statistics, bills and
 * node look-ups, called over HTTP the way a client does.
 */
const { createEmulator } = require('..');
const { DEMO, client, useEmulator } = require('./helpers');

const GIB = 1073741824;
// tasks stay processing for a minute of emulator time; tests move the clock past it
const OPTIONS = { management: { timing: { taskDelayMs: 60000 } } };

/** A real self-signed certificate: CN cdn.example.net, SAN cdn.example.net, img.example.net. */
const REAL_CERT = `-----BEGIN CERTIFICATE-----
MIIBuDCCAV2gAwIBAgIUARm51NwTknikCWOyzFEtwFpEJe4wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPY2RuLmV4YW1wbGUubmV0MB4XDTI2MTEyMjA2MTg1M1oXDTM2
MTExOTA2MTg1M1owGjEYMBYGA1UEAwwPY2RuLmV4YW1wbGUubmV0MFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEcGIA7dCPahXLvQfcmJAAvVAOGj6QGNYFbUUb09kr
PN8+CPT/TtbSERBQApx9xg/WdE6c3+Hv6UcPf0CKlECE9KOBgDB+MB0GA1UdDgQW
BBS5ocZRONlsgRQGAeKtDlFQTQcaFzAfBgNVHSMEGDAWgBS5ocZRONlsgRQGAeKt
DlFQTQcaFzAPBgNVHRMBAf8EBTADAQH/MCsGA1UdEQQkMCKCD2Nkbi5leGFtcGxl
Lm5ldIIPaW1nLmV4YW1wbGUubmV0MAoGCCqGSM49BAMCA0kAMEYCIQCFmz3QmVQx
WrrRFFrwASKnn5G5HOrAHaq+vZxqg70YhwIhALTFywjcgbrqSBLwNPwdAw+aQpHT
/uB4GDbBlWzRuo+A
-----END CERTIFICATE-----
`;
const FAKE_KEY = '-----BEGIN PRIVATE KEY-----\nZmFrZSBrZXk=\n-----END PRIVATE KEY-----\n';
const markerCert = (text) => `${text}\n-----BEGIN CERTIFICATE-----\nZmFrZQ==\n-----END CERTIFICATE-----\n`;

const c = useEmulator(OPTIONS, { login: DEMO });
const origin = { '192.0.2.10': 80 };

const balance = async () => Number((await c.ok('profile/balance')).data[0].price);

describe('channels', () => {
	test('profileDetail lists the six acceleration types', async () => {
		const { data } = await c.ok('cdn/profileDetail');
		expect(data.map((p) => p.type)).toEqual(['cloud', 'download', 'hls', 'music', 'live', 'static']);
		expect(data[0]).toEqual({ type: 'cloud', type_zh: expect.any(String), billtype: 'flow', billtype_zh: expect.any(String) });
	});

	test('domainAdd validates every setting and names the parameter', async () => {
		const base = { name: 'www.shop.example', type: 'cloud', ip: origin };
		const cases = [
			[{ ...base, name: 'not a domain' }, /name: .* is not a domain/],
			[{ ...base, name: undefined }, /name is required/],
			[{ ...base, type: 'video' }, /type must be one of cloud, download, hls, music, live, static/],
			[{ ...base, ip: undefined }, /ip is required/],
			[{ ...base, ip: '192.0.2.10:80' }, /ip must be an object/],
			[{ ...base, ip: { 'origin.example': 80 } }, /ip: origin\.example is not an IP address/],
			[{ ...base, ip: { '192.0.2.10': 99999 } }, /ip: port 99999/],
			[{ ...base, ip: { '192.0.2.10': '80,5' } }, /ip: the value of 192\.0\.2\.10 must be a port/],
			[{ ...base, origin_sty: 'wgt' }, /port,weight/],
			[{ ...base, origin_sty: 'wgt', ip: { '192.0.2.10': '80,500' } }, /weight 500/],
			[{ ...base, origin_sty: 'nearest' }, /origin_sty must be one of/],
			[{ ...base, origintype: 'ftp' }, /origintype must be one of ip, domain, bucket/],
			[{ ...base, cachetype: 'always' }, /cachetype must be one of followOrigin, cacheStatic, custom/],
			[{ ...base, cachetype: 'custom' }, /cacheconf must hold at least one rule/],
			[{ ...base, cacheconf: { pattern: 'jpg' } }, /cacheconf must be an array/],
			[{ ...base, cacheconf: [{ pattern: 'jpg', ttl: 1, unit: 'w', type: 'cache' }] }, /cacheconf\[0\]\.unit must be one of m, h, d/],
			[
				{ ...base, cacheconf: [{ pattern: 'jpg', ttl: 1, unit: 'd', type: 'keep' }] },
				/cacheconf\[0\]\.type must be one of cache, noCache, cacheHome/,
			],
			[{ ...base, cacheconf: [{ pattern: 'jpg', ttl: 'long', unit: 'd', type: 'cache' }] }, /cacheconf\[0\]\.ttl/],
			[{ ...base, cacheconf: [{ pattern: 'jpg', ttl: 1, unit: 'd', type: 'cache', check_origin: 2 }] }, /cacheconf\[0\]\.check_origin/],
			[{ ...base, ssl_redirect: 1 }, /ssl_redirect 1 needs a certificate/],
			[{ ...base, sslconf_id: 77 }, /sslconf_id: certificate 77 does not exist/],
			[{ ...base, cache_ignore_query: 'yes' }, /cache_ignore_query must be one of on, off/],
			[{ ...base, referer_enable: 1 }, /referer_enable must be one of on, off/],
			[{ ...base, deny_ip: '192.0.2.1\nbad-ip' }, /deny_ip: bad-ip/],
			[{ ...base, accesskey: 'on' }, /accesskey_signature is required/],
			[{ ...base, limit_rate: 100 }, /limit_rate can only be set by cdn\/domainUpdate/],
			[{ ...base, monitorurl: 'ftp://x' }, /monitorurl/],
			[{ ...base, originback: { '192.0.2.11': 80 } }, /originback must be an array/],
			[{ ...base, inputType: 'udp' }, /inputType must be one of rtmp_push, rtmp, hls/],
		];
		for (const [body, pattern] of cases) await c.fail('cdn/domainAdd', body, pattern);
		expect(await c.state('cdn').then((s) => s.channels)).toEqual([]);
	});

	test('domainAdd creates an enabled channel with a cname and charges the balance', async () => {
		const before = await balance();
		const r = await c.ok('cdn/domainAdd', {
			name: 'www.shop.example',
			type: 'cloud',
			ip: origin,
			originback: [{ 'backup.shop.example': '8080' }],
			icp: 'ICP-1',
			monitorurl: 'https://www.shop.example/health',
			siteinfo: 'shop',
			cachetype: 'custom',
			cacheconf: [
				{ pattern: 'jpg, png', ttl: 7, unit: 'd', type: 'cache', check_origin: 1 },
				{ path: '/api/', type: 'noCache' },
			],
			note: 'main site',
			deny_ip: '198.51.100.0/24',
		});
		expect(r.data).toEqual({
			id: '1001',
			name: 'www.shop.example',
			icp: 'ICP-1',
			type: 'cloud',
			ip: { '192.0.2.10': '80' },
			monitorurl: 'https://www.shop.example/health',
			siteinfo: 'shop',
			cacheconf: [
				{ pattern: 'jpg,png', ttl: '7', unit: 'd', type: 'cache', path: '', check_origin: '1' },
				{ pattern: '', ttl: '0', unit: 'd', type: 'noCache', path: '/api/', check_origin: '0' },
			],
			cachetype: 'custom',
			sslconf_id: '0',
			ssl_redirect: '0',
			originback: { 'backup.shop.example': '8080' },
			note: 'main site',
		});
		expect(await balance()).toBeCloseTo(before - 1, 2);
		const pay = await c.ok('profile/payList', { bid: 1001, paytype: 5 });
		expect(pay.data).toEqual([expect.objectContaining({ price: '1.00', name: 'CDN channel www.shop.example' })]);
		await c.fail('cdn/domainAdd', { name: 'WWW.shop.example', type: 'cloud', ip: origin }, /already exists/);

		const list = await c.ok('cdn/domainList', { id: 1001 });
		const ch = list.data[0];
		for (const f of [
			'id',
			'uid',
			'sub_uid',
			'username',
			'name',
			'monitorurl',
			'mark',
			'type',
			'type_zh',
			'origin_sty',
			'tx',
			'reqs',
			'tpr',
			'ip',
			'originback',
			'icp',
			'cname',
			'powerheader',
			'inputType',
			'isflv',
			'ishls',
			'cacheconf',
			'cachetype',
			'siteinfo',
			'sslconf_id',
			'sslconf_name',
			'ssl_redirect',
			'vcorigin',
			'status',
			'status_zh',
			'note',
			'createtime',
			'createtime_ago',
			'endtime',
		]) {
			expect(ch).toHaveProperty(f);
		}
		expect(ch).toMatchObject({
			username: 'demo',
			status: '1',
			status_zh: 'Enabled',
			cname: 'www.shop.example.cdn.vendor.example',
			mark: '0',
			sub_uid: '0',
		});
		expect(ch.tx).toMatch(/^\d+\.\d\d Mbps$/);
	});

	test('weighted origins, live channels and domain origins', async () => {
		const w = await c.ok('cdn/domainAdd', {
			name: 'dl.shop.example',
			type: 'download',
			origin_sty: 'wgt',
			ip: { '192.0.2.20': '80,30', '192.0.2.21': '8080,70' },
		});
		expect(w.data.ip).toEqual({ '192.0.2.20': '80,30', '192.0.2.21': '8080,70' });
		const live = await c.ok('cdn/domainAdd', { name: 'live.shop.example', type: 'live', inputType: 'rtmp_push', flv_enabled: 1 });
		expect(live.data.ip).toEqual({});
		await c.fail('cdn/domainAdd', { name: 'pull.shop.example', type: 'live', inputType: 'rtmp' }, /ip or rtmp_host is required/);
		const dom = await c.ok('cdn/domainAdd', {
			name: '*.img.shop.example',
			type: 'static',
			origintype: 'domain',
			ip: { 'origin.shop.example': 443 },
		});
		expect((await c.ok('cdn/domainList', { id: Number(dom.data.id) })).data[0].cname).toBe('wildcard.img.shop.example.cdn.vendor.example');
		expect((await c.ok('cdn/domainList', { id: Number(live.data.id) })).data[0]).toMatchObject({
			isflv: '1',
			inputType: 'rtmp_push',
			type_zh: expect.any(String),
		});
		const push = await c.ok('cdn/getLivePushOrigin', { domain: 'shop' });
		expect(push.data).toEqual([{ id: live.data.id, name: 'live.shop.example' }]);
		expect((await c.ok('cdn/getLivePushOrigin', { type: 'download' })).data).toEqual([{ id: w.data.id, name: 'dl.shop.example' }]);
		await c.fail('cdn/getLivePushOrigin', { type: 'tv' }, /type must be one of/);
	});

	test('domainUpdate: mark, settings and speed limits with validation', async () => {
		await c.fail('cdn/domainUpdate', { id: 9999, mark: 1 }, /channel 9999 does not exist/);
		await c.fail('cdn/domainUpdate', { id: 1001, mark: 5 }, /mark must be one of 0, 1/);
		await c.fail('cdn/domainUpdate', { id: 1001, name: 'other.example' }, /cannot be changed/);
		await c.fail('cdn/domainUpdate', { id: 1001, limit_rate_time: '08:00-25:00' }, /limit_rate_time: 08:00-25:00/);
		await c.fail('cdn/domainUpdate', { id: 1001, limit_rate_time: '8-9' }, /limit_rate_time/);
		await c.fail('cdn/domainUpdate', { id: 1001, limit_url_enable: 'on' }, /limit_rate .* is required/);
		await c.fail('cdn/domainUpdate', { id: 1001, limit_url_enable: 'on', limit_rate: 'fast' }, /limit_rate must be an integer/);
		await c.fail('cdn/domainUpdate', { id: 1001, limit_rate_filter: 'videos' }, /limit_rate_filter: videos/);
		await c.fail('cdn/domainUpdate', { id: 1001, origin_sty: 'wgt' }, /port,weight/);
		const r = await c.ok('cdn/domainUpdate', {
			id: 1001,
			mark: 1,
			note: 'starred',
			limit_url_enable: 'on',
			limit_rate: 512,
			limit_rate_size: 10,
			limit_rate_time: '08:00-12:00, 20:00-24:00',
			limit_rate_after: 1024,
			limit_rate_filter: '/video/,/dl/',
			referer_enable: 'on',
			referer_white: 'shop.example',
		});
		expect(r.data).toMatchObject({ id: '1001', mark: '1', note: 'starred', cachetype: 'custom', ip: { '192.0.2.10': '80' } });
		const stored = (await c.state('cdn')).channels.find((x) => x.id === 1001);
		expect(stored.limits).toEqual({
			limit_url_enable: 'on',
			limit_rate: 512,
			limit_rate_size: 10,
			limit_rate_time: '08:00-12:00,20:00-24:00',
			limit_rate_after: 1024,
			limit_rate_filter: '/video/,/dl/',
		});
		expect(stored.settings).toMatchObject({ referer_enable: 'on', referer_white: 'shop.example' });
		// A failed update leaves the channel as it was.
		await c.fail('cdn/domainUpdate', { id: 1001, note: 'changed', cachetype: 'nope' }, /cachetype/);
		expect((await c.ok('cdn/domainList', { id: 1001 })).data[0].note).toBe('starred');
		expect((await c.ok('cdn/domainList', { mark: 1 })).data.map((x) => x.id)).toEqual(['1001']);
	});

	test('domainClose, domainStart and domainDelete change state and return [{id, name}]', async () => {
		await c.fail('cdn/domainClose', { domain_ids: 1001 }, /domain_ids must be an array/);
		await c.fail('cdn/domainClose', { domain_ids: '1001,1002' }, /domain_ids must be an array/);
		await c.fail('cdn/domainClose', { domain_ids: [1001, 4242] }, /channel 4242 does not exist/);
		const closed = await c.ok('cdn/domainClose', { domain_ids: [1001, '1002'] });
		expect(closed.data).toEqual([
			{ id: '1001', name: 'www.shop.example' },
			{ id: '1002', name: 'dl.shop.example' },
		]);
		let list = await c.ok('cdn/domainList', { limit: 100 });
		expect(list.data.filter((x) => x.status === '2').map((x) => [x.id, x.status_zh])).toEqual([
			['1002', 'Closed'],
			['1001', 'Closed'],
		]);
		expect(list.data.find((x) => x.id === '1001')).toMatchObject({ tx: '0.00 Mbps', reqs: '0' });
		const started = await c.ok('cdn/domainStart', { domain_ids: [1001] });
		expect(started.data).toEqual([{ id: '1001', name: 'www.shop.example' }]);
		list = await c.ok('cdn/domainList', { id: 1001 });
		expect(list.data[0]).toMatchObject({ status: '1', status_zh: 'Enabled' });
		await c.ok('cdn/domainAdd', { name: 'gone.shop.example', type: 'cloud', ip: origin });
		const gone = (await c.ok('cdn/domainList', { limit: 100 })).data.find((x) => x.name === 'gone.shop.example');
		const del = await c.ok('cdn/domainDelete', { domain_ids: [Number(gone.id)] });
		expect(del.data).toEqual([{ id: gone.id, name: 'gone.shop.example' }]);
		expect((await c.ok('cdn/domainList', { limit: 100 })).data.map((x) => x.name)).not.toContain('gone.shop.example');
		await c.fail('cdn/domainStart', { domain_ids: [Number(gone.id)] }, /does not exist/);
	});

	test('domainList pages over 3+ pages and filters by type', async () => {
		for (let i = 0; i < 4; i++) await c.ok('cdn/domainAdd', { name: `p${i}.shop.example`, type: 'music', ip: origin });
		const first = await c.ok('cdn/domainList', { limit: 3 });
		expect(first).toMatchObject({ limit: '3', page: '1', total: '8', totalpage: '3' });
		const ids = [];
		for (let page = 1; page <= 3; page++) ids.push(...(await c.ok('cdn/domainList', { limit: 3, page })).data.map((x) => x.id));
		expect(ids).toHaveLength(8);
		expect(new Set(ids).size).toBe(8);
		expect((await c.ok('cdn/domainList', { type: 'music' })).total).toBe('4');
		await c.fail('cdn/domainList', { type: 'tv' }, /type must be one of/);
		await c.fail('cdn/domainList', { id: 'abc' }, /id must be an integer/);
	});

	test('a sub-account sees only the channels its resource permissions allow', async () => {
		const g = await c.ok('profile/groupAdd', { name: 'cdn-ops' });
		await c.ok('profile/groupRoleAdd', {
			gid: g.data.id,
			value: ['API/cdn/domainList', 'API/cdn/domainAdd', 'API/cdn/domainClose', 'API/cdn/refresh', 'API/cdn/refreshStatus'],
		});
		const sub = await c.ok('profile/update', {
			uid: '',
			username: 'cdn_sub',
			password: 'cdn-password',
			password2: 'cdn-password',
			gid: Number(g.data.id),
			cdnconfig: [{ type: 'cloud', billtype: 'flow' }],
		});
		await c.ok('profile/subaccountPerm', { uid: sub.data.uid, perms: { 5: [1001] } });
		const t = await c.login('cdn_sub', 'cdn-password');
		expect((await c.ok('cdn/domainList', {}, t)).data.map((x) => x.id)).toEqual(['1001']);
		await c.fail('cdn/domainClose', { domain_ids: [1002] }, /permission denied for channel 1002/, t);
		await c.fail('cdn/domainAdd', { name: 'sub.shop.example', type: 'static', ip: origin }, /may not use acceleration type static/, t);
		const added = await c.ok('cdn/domainAdd', { name: 'sub.shop.example', type: 'cloud', ip: origin }, t);
		const mine = (await c.ok('cdn/domainList', {}, t)).data;
		expect(mine.map((x) => x.id).sort()).toEqual(['1001', added.data.id].sort());
		expect(mine.find((x) => x.id === added.data.id)).toMatchObject({ sub_uid: sub.data.uid, username: 'demo' });
		// A URL of a channel it cannot see makes its refresh task fail.
		const task = await c.ok('cdn/refresh', { type: 'file', urls: 'https://dl.shop.example/a.zip' }, t);
		c.emu.clock.advance(60001);
		expect((await c.ok('cdn/refreshStatus', { id: Number(task.data.id) }, t)).data).toEqual([{ [task.data.id]: 'failed' }]);
		// Not granted by its group.
		await c.fail('cdn/sslList', {}, /permission denied/, t);
		await c.ok('cdn/domainDelete', { domain_ids: [Number(added.data.id)] });
	});
});

describe('certificates', () => {
	let realId;
	test('sslAdd requires PEM content and derives the names', async () => {
		await c.fail('cdn/sslAdd', { name: 'x', ssl_crt: 'hello', ssl_key: FAKE_KEY }, /ssl_crt must hold a certificate in PEM form/);
		await c.fail('cdn/sslAdd', { name: 'x', ssl_crt: REAL_CERT, ssl_key: 'secret' }, /ssl_key must hold a private key/);
		await c.fail('cdn/sslAdd', { name: 'x', ssl_crt: REAL_CERT, ssl_key: FAKE_KEY, ssl_ca: 'ca' }, /ssl_ca/);
		await c.fail('cdn/sslAdd', { ssl_crt: REAL_CERT, ssl_key: FAKE_KEY }, /name is required/);
		const real = await c.ok('cdn/sslAdd', { name: 'real', ssl_crt: REAL_CERT, ssl_key: FAKE_KEY, ssl_ca: REAL_CERT });
		expect(real.data).toEqual({
			id: expect.stringMatching(/^\d+$/),
			name: 'real',
			commonname: 'cdn.example.net',
			subjectAltName: ['cdn.example.net', 'img.example.net'],
		});
		realId = Number(real.data.id);
		const marked = await c.ok('cdn/sslAdd', {
			name: 'marked',
			ssl_crt: markerCert('subject=CN=www.shop.example\nDNS:www.shop.example, DNS:shop.example'),
			ssl_key: FAKE_KEY,
		});
		expect(marked.data).toMatchObject({ commonname: 'www.shop.example', subjectAltName: ['www.shop.example', 'shop.example'] });
		const plain = await c.ok('cdn/sslAdd', { name: 'plain-name', ssl_crt: markerCert(''), ssl_key: FAKE_KEY });
		expect(plain.data).toMatchObject({ commonname: 'plain-name', subjectAltName: ['plain-name'] });
		await c.fail('cdn/sslAdd', { name: 'real', ssl_crt: REAL_CERT, ssl_key: FAKE_KEY }, /already exists/);
	});

	test('sslList, sslUpdate and sslDelete (refused while a channel uses it)', async () => {
		const list = await c.ok('cdn/sslList', {});
		expect(list.total).toBe('3');
		expect(list.data[0]).toEqual({
			id: expect.any(String),
			uid: expect.any(String),
			username: 'demo',
			name: 'plain-name',
			commonname: 'plain-name',
			subjectAltName: ['plain-name'],
			createtime: expect.any(String),
			createtime_ago: expect.any(String),
		});
		expect((await c.ok('cdn/sslList', { id: realId })).data.map((x) => x.name)).toEqual(['real']);
		const plainId = Number(list.data[0].id);
		const upd = await c.ok('cdn/sslUpdate', { id: plainId, name: 'renamed', ssl_crt: markerCert('CN=api.shop.example') });
		expect(upd.data).toEqual({
			id: String(plainId),
			name: 'renamed',
			commonname: 'api.shop.example',
			subjectAltName: ['api.shop.example'],
		});
		await c.fail('cdn/sslUpdate', { id: plainId, ssl_key: 'nope' }, /ssl_key/);
		await c.fail('cdn/sslUpdate', { id: 999 }, /certificate 999 does not exist/);
		await c.ok('cdn/domainUpdate', { id: 1001, sslconf_id: realId, ssl_redirect: 1 });
		expect((await c.ok('cdn/domainList', { id: 1001 })).data[0]).toMatchObject({
			sslconf_id: String(realId),
			sslconf_name: 'real',
			ssl_redirect: '1',
		});
		await c.fail('cdn/sslDelete', { id: realId }, /used by channel www\.shop\.example/);
		const del = await c.ok('cdn/sslDelete', { id: plainId });
		expect(del.data).toEqual({ id: String(plainId), name: 'renamed' });
		expect((await c.ok('cdn/sslList', {})).total).toBe('2');
	});
});

describe('refresh and prefetch', () => {
	test('refresh validates type, urls and partition', async () => {
		await c.fail('cdn/refresh', { urls: 'https://www.shop.example/a' }, /type is required/);
		await c.fail('cdn/refresh', { type: 'page', urls: 'https://www.shop.example/a' }, /type must be one of file, dir/);
		await c.fail('cdn/refresh', { type: 'file' }, /urls is required/);
		await c.fail(
			'cdn/refresh',
			{ type: 'file', urls: 'https://www.shop.example/a', partition: '||' },
			/partition must be at most one character/,
		);
		await c.fail('cdn/refresh', { type: 'file', urls: 'www.shop.example/a' }, /not a valid URL/);
		await c.fail('cdn/refresh', { type: 'file', urls: 'ftp://www.shop.example/a' }, /http or https/);
		await c.fail('cdn/refresh', { type: 'dir', urls: 'https://www.shop.example/img' }, /must end with \//);
		await c.fail('cdn/refresh', { type: 'file', urls: ['https://www.shop.example/a'] }, /urls must be a string/);
	});

	let fileTask;
	let dirTask;
	test('a task is processing until the delay passes, then success', async () => {
		const r = await c.ok('cdn/refresh', {
			type: 'file',
			urls: 'https://www.shop.example/a.css|https://www.shop.example/b,c.js',
			partition: '|',
		});
		expect(r.data).toEqual({
			id: expect.stringMatching(/^\d+$/),
			type: 'file',
			status: '0',
			urls: ['https://www.shop.example/a.css', 'https://www.shop.example/b,c.js'],
			preload: '0',
			preloadtype: '0',
			is_api: '1',
			created: expect.any(String),
			objectnum: '2',
		});
		fileTask = r.data.id;
		const d = await c.ok('cdn/refresh', { type: 'dir', urls: 'https://x.img.shop.example/img/, https://www.shop.example/css/' });
		dirTask = d.data.id;
		expect(d.data.urls).toHaveLength(2);
		expect((await c.ok('cdn/refreshStatus', { id: `${fileTask},${dirTask}` })).data).toEqual([
			{ [fileTask]: 'processing', [dirTask]: 'processing' },
		]);
		c.emu.clock.advance(60001);
		expect((await c.ok('cdn/refreshStatus', { id: `${fileTask},${dirTask}` })).data).toEqual([
			{ [fileTask]: 'success', [dirTask]: 'success' },
		]);
		expect((await c.ok('cdn/refreshStatus', { id: Number(fileTask) })).data).toEqual([{ [fileTask]: 'success' }]);
		const list = await c.ok('cdn/refreshList', { type: 'file', preload: 0 });
		expect(list.data.find((t) => t.id === fileTask)).toMatchObject({ status: '1' });
		await c.fail('cdn/refreshStatus', { id: '1,x' }, /id must be an id or ids/);
		await c.fail('cdn/refreshStatus', { id: 9999 }, /task 9999 does not exist/);
	});

	test("a URL outside the caller's channels fails the task", async () => {
		const r = await c.ok('cdn/refresh', { type: 'file', urls: 'https://www.shop.example/ok.js,https://elsewhere.example/x.js' });
		expect((await c.ok('cdn/refreshStatus', { id: r.data.id })).data).toEqual([{ [r.data.id]: 'processing' }]);
		c.emu.clock.advance(60001);
		expect((await c.ok('cdn/refreshStatus', { id: r.data.id })).data).toEqual([{ [r.data.id]: 'failed' }]);
	});

	test('refreshById and refresh with id submit the task again', async () => {
		const again = await c.ok('cdn/refreshById', { id: Number(fileTask) });
		expect(Number(again.data.id)).toBeGreaterThan(Number(fileTask));
		expect(again.data).toMatchObject({
			status: '0',
			type: 'file',
			urls: ['https://www.shop.example/a.css', 'https://www.shop.example/b,c.js'],
		});
		const viaRefresh = await c.ok('cdn/refresh', { id: dirTask });
		expect(viaRefresh.data).toMatchObject({ status: '0', type: 'dir', objectnum: '2' });
		await c.fail('cdn/refreshById', { id: 4040 }, /does not exist/);
		const settled = await c.control('/cdn/tasks/settle');
		expect(settled.settled).toBe(2);
		expect((await c.ok('cdn/refreshStatus', { id: `${again.data.id},${viaRefresh.data.id}` })).data).toEqual([
			{ [again.data.id]: 'success', [viaRefresh.data.id]: 'success' },
		]);
	});

	let preloadTask;
	test('preload, preloadById and preloadStatus', async () => {
		await c.fail('cdn/preload', { preloadtype: 3, urls: 'https://www.shop.example/a' }, /preloadtype must be one of 0, 1/);
		await c.fail('cdn/preload', { urls: 'https://www.shop.example/a', partition: ';;' }, /partition/);
		const r = await c.ok('cdn/preload', {
			preloadtype: 0,
			urls: 'https://www.shop.example/big.iso;https://www.shop.example/small.iso',
			partition: ';',
		});
		expect(r.data).toMatchObject({ type: 'file', status: '0', preload: '1', preloadtype: '0', objectnum: '2' });
		preloadTask = r.data.id;
		expect((await c.ok('cdn/preloadStatus', { id: preloadTask })).data).toEqual([{ [preloadTask]: 'processing' }]);
		await c.fail('cdn/preloadStatus', { id: fileTask }, /preload task .* does not exist/);
		await c.fail('cdn/refreshStatus', { id: preloadTask }, /refresh task .* does not exist/);
		c.emu.clock.advance(60001);
		expect((await c.ok('cdn/preloadStatus', { id: preloadTask })).data).toEqual([{ [preloadTask]: 'success' }]);
		const again = await c.ok('cdn/preloadById', { id: preloadTask });
		expect(again.data).toMatchObject({ preload: '1', preloadtype: '0', status: '0' });
		await c.fail('cdn/preloadById', { id: fileTask }, /does not exist/);
	});

	test('refreshList filters by domain_ids, preload and type; refreshDelete removes tasks', async () => {
		const all = await c.ok('cdn/refreshList', { limit: 100 });
		expect(all.total).toBe('8');
		const preloads = await c.ok('cdn/refreshList', { preload: 1 });
		expect(preloads.data.every((t) => t.preload === '1')).toBe(true);
		expect(preloads.total).toBe('2');
		expect((await c.ok('cdn/refreshList', { type: 'dir' })).total).toBe('2');
		const wild = (await c.ok('cdn/domainList', { type: 'static' })).data[0];
		const byDomain = await c.ok('cdn/refreshList', { domain_ids: [Number(wild.id)] });
		expect(byDomain.data.map((t) => t.type)).toEqual(['dir', 'dir']);
		await c.fail('cdn/refreshList', { domain_ids: wild.id }, /domain_ids must be an array/);
		const p = await c.ok('cdn/refreshList', { limit: 3, page: 3 });
		expect(p).toMatchObject({ totalpage: '3', page: '3' });
		expect(p.data).toHaveLength(2);

		await c.fail('cdn/refreshDelete', { ids: fileTask }, /ids must be an array/);
		await c.fail('cdn/refreshDelete', { ids: [Number(fileTask), 9999] }, /task 9999 does not exist/);
		const del = await c.ok('cdn/refreshDelete', { ids: [Number(fileTask), preloadTask] });
		expect(del.data).toEqual([
			{ id: fileTask, urls: ['https://www.shop.example/a.css', 'https://www.shop.example/b,c.js'] },
			{ id: preloadTask, urls: ['https://www.shop.example/big.iso', 'https://www.shop.example/small.iso'] },
		]);
		expect((await c.ok('cdn/refreshList', { limit: 100 })).total).toBe('6');
		await c.fail('cdn/refreshStatus', { id: fileTask }, /does not exist/);
	});
});

describe('traffic packages', () => {
	test('flowPriceList tiers', async () => {
		const { data } = await c.ok('cdn/flowPriceList');
		expect(data.map((t) => [t.lower, t.upper, t.price])).toEqual([
			['0', '10240', '0.20'],
			['10240', '51200', '0.18'],
			['51200', '102400', '0.15'],
			['102400', '0', '0.12'],
		]);
		for (const f of ['id', 'type', 'created', 'created_ago', 'updatetime', 'updatetime_ago']) expect(data[0]).toHaveProperty(f);
	});

	test('payFlowAdd charges the balance (and coupons), payFlowList and payFlowBalance follow', async () => {
		const b0 = await c.ok('cdn/payFlowBalance');
		expect(b0.data).toEqual({
			free: { total: String(10 * GIB), used: '0' },
			buy: { total: '0', used: '0' },
			month: { total: '0', month: expect.stringMatching(/^\d{6}$/) },
		});
		await c.fail('cdn/payFlowAdd', { flow: 1000 }, /flow must be at least/);
		await c.fail('cdn/payFlowAdd', { flow: '100GB' }, /flow must be an integer/);
		await c.fail('cdn/payFlowAdd', { flow: 100 * GIB, couponprice: 5 }, /exceeds the coupon balance/);
		await c.control('/profile/coupons', { couponid: 'CDN5', price: 5 });
		await c.ok('profile/couponExchange', { couponid: 'CDN5' });
		await c.fail('cdn/payFlowAdd', { flow: GIB, couponprice: 5 }, /exceeds the package price 0\.20/);
		const before = await balance();
		const r = await c.ok('cdn/payFlowAdd', { flow: 100 * GIB, couponprice: '5' });
		expect(r.data).toEqual({ username: 'demo', freeflowtotal: String(10 * GIB), freeflow: String(10 * GIB), flow: String(100 * GIB) });
		expect(await balance()).toBeCloseTo(before - 15, 2);
		expect((await c.ok('profile/couponExchange')).data).toBe('0.00');
		const pays = await c.ok('profile/payList', { paytype: 6 });
		expect(pays.data.map((p) => [p.type_zh, p.price])).toEqual(
			expect.arrayContaining([
				['Consumption', '15.00'],
				['Coupon', '5.00'],
			]),
		);
		const list = await c.ok('cdn/payFlowList');
		expect(list.data).toEqual([
			{
				username: 'demo',
				id: expect.any(String),
				uid: expect.any(String),
				sub_uid: '0',
				bid: expect.any(String),
				name: 'Traffic package 100.00 GB',
				code: expect.any(String),
				type: '1',
				paytype: '6',
				type_zh: 'Purchase',
				paytype_zh: 'CDN traffic package',
				flowtype_zh: 'Purchased traffic',
				flow: String(100 * GIB),
				flowover: String(100 * GIB),
				monthflow: '0',
				status: '1',
				created: expect.any(String),
				created_ago: expect.any(String),
			},
		]);
	});

	test('traffic uses the free quota, then packages, then the balance', async () => {
		const b = await balance();
		const u1 = await c.control('/cdn/traffic', { id: 1001, bytes: 12 * GIB });
		expect(u1).toEqual({ free: 10 * GIB, packages: 2 * GIB, overage: 0, charged: '0.00' });
		const u2 = await c.control('/cdn/traffic', { id: 1001, bytes: 99 * GIB });
		expect(u2).toEqual({ free: 0, packages: 98 * GIB, overage: GIB, charged: '0.20' });
		expect(await balance()).toBeCloseTo(b - 0.2, 2);
		const fb = await c.ok('cdn/payFlowBalance');
		expect(fb.data).toMatchObject({
			free: { used: String(10 * GIB) },
			buy: { total: String(100 * GIB), used: String(100 * GIB) },
			month: { total: String(111 * GIB) },
		});
		const pkg = (await c.ok('cdn/payFlowList')).data[0];
		expect(pkg).toMatchObject({ flowover: '0', monthflow: String(100 * GIB), status: '0' });
		expect((await c.ok('profile/payList', { bid: 1001, paytype: 5 })).data.map((p) => p.price)).toContain('0.20');
	});
});

describe('statistics and bills', () => {
	const day = '2024-01-01';

	test('domainBandwidth: deterministic hourly records for a custom day', async () => {
		const r = await c.ok('cdn/domainBandwidth', { domain_ids: [1001], viewtype: 'custom', begintime: day, endtime: day });
		const bw = r.data.bandwidth;
		expect(bw).toHaveLength(24);
		expect(bw[0]).toEqual({ logtime: '1704067200', hit: '6790', reqs: '8206', rx: '35613816', tx: '206389106', tpr: '55' });
		expect(bw[23]).toEqual({ logtime: '1704150000', hit: '2007', reqs: '2343', rx: '88238976', tx: '615309288', tpr: '165' });
		// Same channel id and date in another emulator: the same numbers.
		const other = await createEmulator(OPTIONS);
		try {
			const o = client(other);
			o.token = await o.login('demo', 'demo-password');
			await o.ok('cdn/domainAdd', { name: 'another.example', type: 'cloud', ip: origin });
			const r2 = await o.ok('cdn/domainBandwidth', { domain_ids: [1001], begintime: day, endtime: day });
			expect(r2.data.bandwidth).toEqual(bw);
		} finally {
			await other.close();
		}
		// Two channels add up.
		const two = await c.ok('cdn/domainBandwidth', { domain_ids: [1001, 1002], begintime: day, endtime: day });
		const one2 = await c.ok('cdn/domainBandwidth', { domain_ids: [1002], begintime: day, endtime: day });
		expect(Number(two.data.bandwidth[5].tx)).toBe(Number(bw[5].tx) + Number(one2.data.bandwidth[5].tx));
	});

	test('domainBandwidth validates viewtype, dates and serviceTypes', async () => {
		await c.fail(
			'cdn/domainBandwidth',
			{ viewtype: 'decade' },
			/viewtype must be one of today, yesterday, week, month, last_month, custom/,
		);
		await c.fail('cdn/domainBandwidth', { viewtype: 'custom', begintime: day }, /endtime is required/);
		await c.fail('cdn/domainBandwidth', { begintime: '2024-02-30', endtime: '2024-03-01' }, /begintime must be a date/);
		await c.fail('cdn/domainBandwidth', { begintime: '2024-03-02', endtime: '2024-03-01' }, /begintime must not be later/);
		await c.fail('cdn/domainBandwidth', { begintime: '2024-01-01', endtime: '2024-03-01' }, /at most 31 days/);
		await c.fail('cdn/domainBandwidth', { domain_ids: '1001' }, /domain_ids must be an array/);
		await c.fail('cdn/domainBandwidth', { domain_ids: ['x'] }, /domain_ids must hold integer ids/);
		await c.fail('cdn/domainBandwidth', { serviceTypes: 'cloud' }, /serviceTypes must be an array/);
		await c.fail('cdn/domainBandwidth', { serviceTypes: ['video'] }, /serviceTypes: video/);
		const none = await c.ok('cdn/domainBandwidth', { domain_ids: [1001], serviceTypes: ['download'], begintime: day, endtime: day });
		expect(none.data.bandwidth.every((x) => x.tx === '0')).toBe(true);
		const cloud = await c.ok('cdn/domainBandwidth', { domain_ids: [1001, 1002], serviceTypes: ['cloud'], begintime: day, endtime: day });
		expect(cloud.data.bandwidth[0].tx).toBe('206389106');
		const today = await c.ok('cdn/domainBandwidth', { viewtype: 'today' });
		const nowS = c.emu.clock.now() / 1000;
		expect(today.data.bandwidth.length).toBeGreaterThan(0);
		expect(today.data.bandwidth.length).toBeLessThanOrEqual(24);
		expect(today.data.bandwidth.every((x) => Number(x.logtime) <= nowS)).toBe(true);
		expect((await c.ok('cdn/domainBandwidth', { viewtype: 'week', domain_ids: [1001] })).data.bandwidth.length).toBeGreaterThan(6 * 24);
	});

	test('domainLogstat agrees with the bandwidth records', async () => {
		const bw = (await c.ok('cdn/domainBandwidth', { domain_ids: [1001], begintime: day, endtime: '2024-01-02' })).data.bandwidth;
		const sum = (k) => bw.reduce((a, x) => a + Number(x[k]), 0);
		const r = await c.ok('cdn/domainLogstat', {
			domain_ids: [1001],
			begintime: day,
			endtime: '2024-01-02',
			types: ['cache', 'code', 'country', 'province', 'isp'],
		});
		const d = r.data;
		expect(d.cache.hit.reqs).toBe(String(sum('hit')));
		expect(Number(d.cache.hit.reqs) + Number(d.cache.miss.reqs)).toBe(sum('reqs'));
		expect(Number(d.cache.hit.tx) + Number(d.cache.miss.tx)).toBe(sum('tx'));
		expect(d.cache.miss.tx).toBe(String(sum('rx')));
		expect(d.cacheGraph.map((x) => x[0])).toEqual(['hit', 'miss']);
		expect(Number(d.cacheGraph[0][1]) + Number(d.cacheGraph[1][1])).toBeCloseTo(100, 1);
		expect(Object.keys(d.code)).toEqual(['200', '206', '304', '404', '500']);
		expect(Object.values(d.code).reduce((a, x) => a + Number(x.reqs), 0)).toBe(sum('reqs'));
		for (const k of ['country', 'province', 'isp']) expect(Object.values(d[k]).reduce((a, x) => a + Number(x.tx), 0)).toBe(sum('tx'));
		expect(d.summary).toEqual({ timestamp: bw[bw.length - 1].logtime });
		const cacheOnly = await c.ok('cdn/domainLogstat', { domain_ids: [1001], begintime: day, endtime: day, types: ['cache'] });
		expect(cacheOnly.data).not.toHaveProperty('code');
		await c.fail('cdn/domainLogstat', { types: 'cache' }, /types must be an array/);
		await c.fail('cdn/domainLogstat', { types: ['browser'] }, /types: browser/);
	});

	test('domainCurrentData: one record per channel, zero when closed', async () => {
		await c.fail('cdn/domainCurrentData', {}, /ids is required/);
		await c.fail('cdn/domainCurrentData', { ids: 1001 }, /ids must be an array/);
		await c.ok('cdn/domainClose', { domain_ids: [1002] });
		const r = await c.ok('cdn/domainCurrentData', { ids: [1001, 1002] });
		expect(r.data.map((x) => x.did)).toEqual(['1001', '1002']);
		expect(Number(r.data[0].reqs)).toBeGreaterThan(0);
		expect(r.data[1]).toMatchObject({ reqs: '0', rx: '0', tx: '0', tpr: '0' });
		expect(Number(r.data[0].updatetime) % 300).toBe(0);
		expect((await c.ok('cdn/domainCurrentData', { ids: [1001] })).data).toEqual([r.data[0]]);
		await c.ok('cdn/domainStart', { domain_ids: [1002] });
	});

	test('getBillByDomainID sums the traffic of a time range', async () => {
		const begin = Date.UTC(2024, 0, 1) / 1000;
		const end = Date.UTC(2024, 1, 1) / 1000 - 1;
		const r = await c.ok('cdn/getBillByDomainID', { domain_ids: [1001], begintime: begin, endtime: end });
		expect(r.data).toEqual([{ billtype: 'flow', total_format: '946.46 GB', total: '1016251160752' }]);
		await c.fail('cdn/getBillByDomainID', { begintime: begin, endtime: end }, /domain_ids is required/);
		await c.fail('cdn/getBillByDomainID', { domain_ids: [1001], begintime: end, endtime: begin }, /begintime must not be later/);
		await c.fail('cdn/getBillByDomainID', { domain_ids: [1001], begintime: '2024-01-01', endtime: end }, /begintime must be an integer/);
	});

	test('getBillByUser: months reach back 12 months; totals match getBillByDomainID', async () => {
		const now = new Date(c.emu.clock.now());
		const ym = (back) => {
			const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
			return {
				s: `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`,
				from: d.getTime() / 1000,
				to: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000 - 1,
			};
		};
		await c.fail('cdn/getBillByUser', { months: [ym(13).s] }, /more than 12 months back/);
		await c.fail('cdn/getBillByUser', { months: [ym(-1).s] }, /in the future/);
		await c.fail('cdn/getBillByUser', { months: ['2024-01'] }, /months: .* is not a month/);
		await c.fail('cdn/getBillByUser', { months: ym(1).s }, /months must be an array/);
		await c.fail('cdn/getBillByUser', { type: ['video'] }, /type: video/);
		await c.fail('cdn/getBillByUser', { sub_uid: 1 }, /sub_uid: 1 is not a sub-account/);
		const last = ym(1);
		const r = await c.ok('cdn/getBillByUser', { months: [last.s, ym(12).s], type: ['cloud', 'music'] });
		expect(r.data.map((b) => [b.month, b.srvtype])).toEqual([
			[ym(12).s, 'cloud'],
			[ym(12).s, 'music'],
			[last.s, 'cloud'],
			[last.s, 'music'],
		]);
		expect(r.data[0]).toEqual({
			billtype: 'flow',
			billtype_zh: 'Traffic',
			srvtype: 'cloud',
			srvtype_zh: expect.any(String),
			month: ym(12).s,
			total_format: expect.stringMatching(/^\d+\.\d\d [KMGT]?B$/),
			total: expect.stringMatching(/^\d+$/),
		});
		const cloudIds = (await c.ok('cdn/domainList', { type: 'cloud', limit: 100 })).data.map((x) => Number(x.id));
		const byId = await c.ok('cdn/getBillByDomainID', { domain_ids: cloudIds, begintime: last.from, endtime: last.to });
		expect(r.data[2].total).toBe(byId.data[0].total);
		// A sub-account's bill covers the channels it made.
		const sub = (await c.ok('profile/subaccountList')).data.find((s) => s.name === 'cdn_sub');
		const t = await c.login('cdn_sub', 'cdn-password');
		const own = await c.ok('cdn/domainAdd', { name: 'bill.shop.example', type: 'cloud', ip: origin }, t);
		const subBill = await c.ok('cdn/getBillByUser', { months: [last.s], sub_uid: Number(sub.uid) });
		const ownBill = await c.ok('cdn/getBillByDomainID', { domain_ids: [Number(own.data.id)], begintime: last.from, endtime: last.to });
		expect(subBill.data).toEqual([expect.objectContaining({ srvtype: 'cloud', total: ownBill.data[0].total })]);
	});

	test('domainLogList: one log file per day, paged, dir filter', async () => {
		await c.fail('cdn/domainLogList', {}, /id is required/);
		await c.fail('cdn/domainLogList', { id: 1001, begintime: '01/02/2024' }, /begintime must be a date/);
		await c.fail('cdn/domainLogList', { id: 1001, dir: 'logs' }, /dir must be a day directory/);
		const r = await c.ok('cdn/domainLogList', { id: 1001, begintime: '2024-01-01', endtime: '2024-01-03' });
		expect(r.data.map((f) => f.name)).toEqual([
			'20240103_www.shop.example.log.gz',
			'20240102_www.shop.example.log.gz',
			'20240101_www.shop.example.log.gz',
		]);
		expect(r.data[0]).toEqual({
			name: '20240103_www.shop.example.log.gz',
			size: expect.stringMatching(/^\d+$/),
			url: expect.stringMatching(/^https:\/\/.*20240103_www\.shop\.example\.log\.gz$/),
		});
		const pages = [];
		for (let page = 1; page <= 3; page++) {
			const p = await c.ok('cdn/domainLogList', { id: 1001, begintime: '2024-01-01', endtime: '2024-01-03', limit: 1, page });
			expect(p.totalpage).toBe('3');
			pages.push(p.data[0]);
		}
		expect(pages).toEqual(r.data);
		const dir = await c.ok('cdn/domainLogList', { id: 1001, dir: '20240102' });
		expect(dir.data).toEqual([r.data[1]]);
		expect((await c.ok('cdn/domainLogList', { id: 1001 })).total).toBe('7');
	});
});

describe('nodes and IP look-ups', () => {
	test('nodes: core and edge lists, per channel', async () => {
		expect((await c.ok('cdn/nodes', { type: 'core' })).data).toHaveLength(8);
		expect((await c.ok('cdn/nodes', {})).data).toHaveLength(32);
		const core = await c.ok('cdn/nodes', { name: 'www.shop.example', type: 'core' });
		expect(core.data).toHaveLength(4);
		expect(core.data.every((ip) => ip.startsWith('198.51.100.'))).toBe(true);
		const edge = await c.ok('cdn/nodes', { name: 'www.shop.example', type: 'edge' });
		expect(edge.data).toHaveLength(8);
		expect((await c.ok('cdn/nodes', { name: 'www.shop.example', type: 'edge' })).data).toEqual(edge.data);
		await c.fail('cdn/nodes', { type: 'middle' }, /type must be one of core, edge/);
		await c.fail('cdn/nodes', { name: 'nobody.example' }, /channel nobody\.example does not exist/);
	});

	test('getNodesByClientIP picks edge nodes of the channel', async () => {
		const edge = (await c.ok('cdn/nodes', { name: 'www.shop.example', type: 'edge' })).data;
		const three = await c.ok('cdn/getNodesByClientIP', { client_ip: '203.0.113.200', name: 'www.shop.example' });
		expect(three.data.client).toEqual({ client_ip: '203.0.113.200', client_isp: expect.any(String) });
		expect(three.data.server).toHaveLength(3);
		for (const s of three.data.server) {
			expect(edge).toContain(s.server_ip);
			expect(typeof s.server_isp).toBe('string');
		}
		const one = await c.ok('cdn/getNodesByClientIP', { client_ip: '203.0.113.200', name: 'www.shop.example', absolute: 1 });
		expect(one.data.server).toEqual([three.data.server[0]]);
		await c.fail('cdn/getNodesByClientIP', { client_ip: '300.1.1.1', name: 'www.shop.example' }, /client_ip: 300\.1\.1\.1/);
		await c.fail(
			'cdn/getNodesByClientIP',
			{ client_ip: '203.0.113.200', name: 'www.shop.example', absolute: 2 },
			/absolute must be one of 0, 1/,
		);
		await c.fail('cdn/getNodesByClientIP', { client_ip: '203.0.113.200' }, /name is required/);
	});

	test('queryVmIp locates each address', async () => {
		const r = await c.ok('cdn/queryVmIp', { ip: '8.8.8.8, 192.168.1.1,2001:db8::1' });
		expect(Object.keys(r.data)).toEqual(['8.8.8.8', '192.168.1.1', '2001:db8::1']);
		expect(Object.keys(r.data['8.8.8.8']).sort()).toEqual(['area', 'city', 'country', 'isp', 'province']);
		expect(r.data['192.168.1.1']).toMatchObject({ country: 'Reserved', isp: 'LAN' });
		expect((await c.ok('cdn/queryVmIp', { ip: '8.8.8.8' })).data['8.8.8.8']).toEqual(r.data['8.8.8.8']);
		await c.fail('cdn/queryVmIp', { ip: '8.8.8.8,1.2.3' }, /ip: 1\.2\.3 is not an IP address/);
		await c.fail('cdn/queryVmIp', {}, /ip is required/);
		await c.fail('cdn/queryVmIp', { ip: ['8.8.8.8'] }, /ip must be a string/);
	});
});

describe('demo data', () => {
	test('the demo seed holds channels, a certificate, finished tasks and a package', async () => {
		const demo = await createEmulator({ ...OPTIONS, seed: 'demo' });
		try {
			const d = client(demo);
			d.token = await d.login('demo', 'demo-password');
			const channels = await d.ok('cdn/domainList', {});
			expect(channels.data.map((x) => [x.name, x.status])).toEqual([
				['live.example.com', '1'],
				['download.example.com', '2'],
				['static.example.com', '1'],
				['www.example.com', '1'],
			]);
			expect(channels.data.find((x) => x.name === 'www.example.com').sslconf_name).toBe('example-wildcard');
			expect((await d.ok('cdn/sslList')).data[0]).toMatchObject({
				commonname: '*.example.com',
				subjectAltName: ['*.example.com', 'example.com'],
			});
			const tasks = await d.ok('cdn/refreshList');
			expect(tasks.total).toBe('3');
			expect(tasks.data.every((t) => t.status === '1')).toBe(true);
			expect((await d.ok('cdn/refreshStatus', { id: '1,2' })).data).toEqual([{ 1: 'success', 2: 'success' }]);
			expect((await d.ok('cdn/payFlowList')).data).toHaveLength(1);
			// The operators' sub-account may list channels and refresh, nothing else.
			const t = await d.login('demo_ops', 'ops-password');
			expect((await d.ok('cdn/domainList', {}, t)).total).toBe('4');
			const task = await d.ok('cdn/refresh', { type: 'file', urls: 'https://img.example.com/logo.png' }, t);
			demo.clock.advance(60001);
			expect((await d.ok('cdn/refreshStatus', { id: task.data.id }, t)).data).toEqual([{ [task.data.id]: 'failed' }]);
			await d.fail('cdn/domainAdd', { name: 'x.example.com', type: 'cloud', ip: origin }, /permission denied/, t);
		} finally {
			await demo.close();
		}
	});
});

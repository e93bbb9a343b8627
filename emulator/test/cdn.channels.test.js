'use strict';
/**
 * The content delivery operations of the emulator's management interface
 * (docs/vendor/account-billing-cdn.md):
 * channels, certificates, refresh/prefetch tasks, traffic packages, statistics, bills and
 * node look-ups, called over HTTP the way a client does. This file: channels and
 * certificates, from an emulator with no channels; refresh/prefetch tasks and traffic packages
 * are in cdn.tasks.test.js, statistics, bills, node look-ups and the demo data in
 * cdn.statistics.test.js, what they share in cdn-helpers.js.
 */
const { DEMO, useEmulator } = require('./helpers');
const { OPTIONS, origin } = require('./cdn-helpers');

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

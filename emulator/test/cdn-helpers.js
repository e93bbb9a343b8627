'use strict';
/**
 * What the CDN tests (cdn.channels, cdn.tasks, cdn.statistics) share: the emulator options, an
 * origin, and addShop(c), which builds the shop the channels tests of cdn.channels.test.js build
 * with their own calls (channels 1001 www.shop.example, 1002 dl.shop.example, 1003
 * live.shop.example, 1004 *.img.shop.example, four music channels; the sub-account cdn_sub
 * and its failed refresh task), so that the files that go on from there can run on their own.
 */
const GIB = 1073741824;
// tasks stay processing for a minute of emulator time; tests move the clock past it
const OPTIONS = { management: { timing: { taskDelayMs: 60000 } } };
const origin = { '192.0.2.10': 80 };

/** The channels and the sub-account the channels tests leave behind, made with the same calls. */
async function addShop(c) {
	await c.ok('cdn/domainAdd', {
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
	await c.ok('cdn/domainAdd', {
		name: 'dl.shop.example',
		type: 'download',
		origin_sty: 'wgt',
		ip: { '192.0.2.20': '80,30', '192.0.2.21': '8080,70' },
	});
	await c.ok('cdn/domainAdd', { name: 'live.shop.example', type: 'live', inputType: 'rtmp_push', flv_enabled: 1 });
	await c.ok('cdn/domainAdd', {
		name: '*.img.shop.example',
		type: 'static',
		origintype: 'domain',
		ip: { 'origin.shop.example': 443 },
	});
	// gone.shop.example (1005) is added and deleted; four music channels follow
	const gone = await c.ok('cdn/domainAdd', { name: 'gone.shop.example', type: 'cloud', ip: origin });
	await c.ok('cdn/domainDelete', { domain_ids: [Number(gone.data.id)] });
	for (let i = 0; i < 4; i++) await c.ok('cdn/domainAdd', { name: `p${i}.shop.example`, type: 'music', ip: origin });
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
	const added = await c.ok('cdn/domainAdd', { name: 'sub.shop.example', type: 'cloud', ip: origin }, t);
	// A URL of a channel it cannot see: its refresh task fails.
	await c.ok('cdn/refresh', { type: 'file', urls: 'https://dl.shop.example/a.zip' }, t);
	c.emu.clock.advance(60001);
	await c.ok('cdn/domainDelete', { domain_ids: [Number(added.data.id)] });
}

module.exports = { GIB, OPTIONS, origin, addShop };

'use strict';
/**
 * The content delivery operations of the emulator's management interface
 * (docs/vendor/account-billing-cdn.md), called over HTTP the way a client does: statistics,
 * bills, node look-ups and the demo data. The emulator starts with the channels and the
 * sub-account the channels tests of cdn.channels.test.js build (addShop of cdn-helpers.js).
 */
const { createEmulator } = require('..');
const { DEMO, client, useEmulator } = require('./helpers');
const { OPTIONS, origin, addShop } = require('./cdn-helpers');

const c = useEmulator(OPTIONS, { login: DEMO });
beforeAll(() => addShop(c));

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

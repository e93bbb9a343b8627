'use strict';
/**
 * The content delivery operations of the emulator's management interface
 * (docs/vendor/account-billing-cdn.md), called over HTTP the way a client does: refresh/prefetch
 * tasks and traffic packages. The emulator starts with the channels and the sub-account the
 * channels tests of cdn.channels.test.js build (addShop of cdn-helpers.js).
 */
const { DEMO, useEmulator } = require('./helpers');
const { GIB, OPTIONS, addShop } = require('./cdn-helpers');

const c = useEmulator(OPTIONS, { login: DEMO });
beforeAll(() => addShop(c));

const balance = async () => Number((await c.ok('profile/balance')).data[0].price);

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

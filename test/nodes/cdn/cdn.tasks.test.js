'use strict';
/** Vendor CDN: cache refresh, prefetch and the task list through n8n-core against the emulator. */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorCdn';
let v;

beforeAll(async () => {
	v = await startVendor();
	// two channels of the demo account: URLs on them succeed, URLs elsewhere fail
	for (const name of ['www.example.com', 'img.example.com']) {
		const r = await v.api('cdn/domainAdd', { name, type: 'cloud', ip: { '192.0.2.10': 80 } });
		if (r.code !== 1) throw new Error(r.message);
	}
});
afterAll(() => v.close());

const run = (parameters, opts) => v.ok(NODE, parameters, opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const tasks = () => v.emu.management.state.cdn.tasks;
const taskState = (id) => tasks().find((t) => t.id === Number(id));
const timing = () => v.emu.management.core.settings.timing;
const loadOptions = (method) => n8n.loadOptions(NODE, method, { credentials: { vendorApi: v.store.data.get(v.apiRef.id).data } });

const WAIT = { waitForCompletion: true, waitTimeout: 10, pollInterval: 0.1 };

/** Tasks made inside `fn` stay processing for a minute, however slow the machine. */
async function slowly(fn) {
	timing().taskDelayMs = 60000;
	try {
		return await fn();
	} finally {
		timing().taskDelayMs = 150;
	}
}

/** Requests that reached one endpoint of the emulator. */
const sentTo = async (path) => (await v.control('GET', '/stats')).management.requests[path] ?? 0;

/** A refresh or prefetch refused before it was sent (the channel listing of the check is a read). */
async function refusedUnsent(parameters, path) {
	const before = await sentTo(path);
	const error = await fails(parameters);
	expect(await sentTo(path)).toBe(before);
	return error;
}

async function rejectedBeforeSending(parameters) {
	const before = await requests();
	const error = await fails(parameters);
	expect(await requests()).toBe(before);
	return error;
}

let refreshId;
let prefetchId;

describe('cache refresh', () => {
	test('create without waiting returns the processing task; URLs are joined with a comma', async () => {
		const [task] = await slowly(() => run({
			resource: 'cacheRefresh',
			operation: 'create',
			type: 'file',
			urls: 'https://www.example.com/index.html\nhttps://img.example.com/logo.png\n',
		}));
		refreshId = task.id;
		expect(task).toMatchObject({ type: 'file', status: '0', preload: '0', objectnum: '2', urls: ['https://www.example.com/index.html', 'https://img.example.com/logo.png'] });
		const log = v.emu.management.state.logs.filter((l) => l.op === 'cdn/refresh').pop();
		expect(JSON.parse(log.content)).toEqual({ type: 'file', urls: 'https://www.example.com/index.html,https://img.example.com/logo.png' });
	});

	test('Wait for Completion ends with success for URLs of the account', async () => {
		const [task] = await run({ resource: 'cacheRefresh', operation: 'create', type: 'dir', urls: 'https://www.example.com/assets/', ...WAIT });
		// the task as the service returned it (status "0" refreshing), the wait's result in "outcome"
		expect(task).toMatchObject({ type: 'dir', status: '0', outcome: 'success', urls: ['https://www.example.com/assets/'] });
	});

	test('a URL outside the account channels is refused before sending, naming the URL and the channels', async () => {
		const error = await refusedUnsent(
			{
				resource: 'cacheRefresh',
				operation: 'create',
				type: 'file',
				urls: 'https://www.example.com/a.html\nhttps://not-mine.example.org/b.html',
				additionalFields: { checkChannels: true },
				...WAIT,
			},
			'cdn/refresh',
		);
		expect(error.message).toBe(
			'URL 2 (https://not-mine.example.org/b.html) is outside every CDN channel of the account, so the CDN cannot purge it; channels: img.example.com, www.example.com',
		);
		expect(error.description).toMatch(/add a channel for not-mine\.example\.org with Channel > Create/);
	});

	test('sent anyway (check off), the failed task is reported in the item with the reason in words', async () => {
		const [task] = await run({
			resource: 'cacheRefresh',
			operation: 'create',
			type: 'file',
			urls: 'https://www.example.com/a.html\nhttps://not-mine.example.org/b.html',
			additionalFields: { checkChannels: false },
			...WAIT,
		});
		expect(task.outcome).toBe('failed');
		expect(taskState(task.id).failed).toBe(true);
		expect(task.reason).toBe(
			'The CDN reports the cache refresh as failed: https://not-mine.example.org/b.html is outside every channel of the account (channels: img.example.com, www.example.com)',
		);
	});

	test('a custom separator keeps commas inside URLs', async () => {
		const url = 'https://www.example.com/list?ids=1,2,3';
		const [task] = await run({
			resource: 'cacheRefresh',
			operation: 'create',
			type: 'file',
			urls: `${url}\nhttps://www.example.com/b.html`,
			additionalFields: { partition: '|' },
		});
		expect(task.urls).toEqual([url, 'https://www.example.com/b.html']);
		const log = v.emu.management.state.logs.filter((l) => l.op === 'cdn/refresh').pop();
		expect(JSON.parse(log.content)).toMatchObject({ partition: '|', urls: `${url}|https://www.example.com/b.html` });
	});

	test('a URL that contains the separator, a longer separator and a URL without its scheme are refused before sending (issue 36: "add https://")', async () => {
		const comma = await rejectedBeforeSending({ resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.example.com/list?ids=1,2' });
		expect(comma.message).toBe('Invalid "URLs": URL 1 contains the separator "," (https://www.example.com/list?ids=1,2)');
		expect(comma.description).toMatch(/Separator/);
		const long = await rejectedBeforeSending({ resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.example.com/a', additionalFields: { partition: '||' } });
		expect(long.message).toBe('Invalid "Separator": "||" is 2 characters; the separator must be at most one character');
		const bare = await rejectedBeforeSending({ resource: 'prefetch', operation: 'create', preloadtype: 1, urls: 'https://www.example.com/a\nwww.example.com/b' });
		expect(bare.message).toBe('Invalid "URLs": URL 2 (www.example.com/b) has no https:// at the start');
		expect(bare.description).toBe('Write the full address with its scheme, for example https://www.example.com/b.');
		// another scheme is the service's to refuse, in its words, under the field's name
		const before = await sentTo('cdn/preload');
		const ftp = await fails({ resource: 'prefetch', operation: 'create', preloadtype: 1, urls: 'ftp://www.example.com/a' });
		expect(await sentTo('cdn/preload')).toBe(before + 1);
		expect(ftp.message).toMatch(/^"URLs": /);
		expect(ftp.description).toMatch(/cdn\/preload with code/);
	});

	test('repeat submits the URLs again as a new task and can wait for it', async () => {
		const [task] = await run({ resource: 'cacheRefresh', operation: 'repeat', id: v.byId(refreshId), ...WAIT });
		expect(Number(task.id)).toBeGreaterThan(Number(refreshId));
		expect(task).toMatchObject({ status: '0', outcome: 'success', urls: ['https://www.example.com/index.html', 'https://img.example.com/logo.png'] });
	});

	test('get status reports each task; the dropdown lists refresh tasks only', async () => {
		await v.control('POST', '/management/cdn/tasks/settle', {});
		const [fresh] = await slowly(() => run({ resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://img.example.com/x.png' }));
		const one = await run({ resource: 'cacheRefresh', operation: 'getStatus', id: [refreshId] });
		expect(one).toEqual([{ id: refreshId, status: 'success' }]);
		const several = await run({ resource: 'cacheRefresh', operation: 'getStatus', id: [refreshId, fresh.id] });
		expect(several).toEqual([
			{ id: refreshId, status: 'success' },
			{ id: fresh.id, status: 'processing' },
		]);
		const options = await loadOptions('getRefreshTaskOptions');
		expect(options.map((o) => o.value)).toEqual(expect.arrayContaining([refreshId, fresh.id]));
		expect(options.every((o) => taskState(o.value).kind === 'refresh')).toBe(true);
	});

	test('a task still processing at the timeout is an error naming the task', async () => {
		timing().taskDelayMs = 60000;
		try {
			const error = await fails({ resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.example.com/slow.html', waitForCompletion: true, waitTimeout: 1, pollInterval: 0.2 });
			const id = Math.max(...tasks().map((t) => t.id));
			expect(error.message).toBe(`The cache refresh task ${id} did not finish within 1 seconds`);
			expect(error.description).toMatch(/Get Status/);
		} finally {
			timing().taskDelayMs = 150;
		}
	});
});

describe('prefetch', () => {
	test('create on core nodes only, waiting until success', async () => {
		const [task] = await run({ resource: 'prefetch', operation: 'create', preloadtype: 0, urls: 'https://img.example.com/big.bin', ...WAIT });
		prefetchId = task.id;
		expect(task).toMatchObject({ status: '0', outcome: 'success', preload: '1', preloadtype: '0', urls: ['https://img.example.com/big.bin'] });
	});

	test('create for a foreign URL fails; repeat and get status', async () => {
		const refused = await refusedUnsent({ resource: 'prefetch', operation: 'create', preloadtype: 1, urls: 'https://elsewhere.example.net/f.bin', additionalFields: { checkChannels: true }, ...WAIT }, 'cdn/preload');
		expect(refused.message).toMatch(/^URL 1 \(https:\/\/elsewhere\.example\.net\/f\.bin\) is outside every CDN channel/);
		const [bad] = await run({ resource: 'prefetch', operation: 'create', preloadtype: 1, urls: 'https://elsewhere.example.net/f.bin', additionalFields: { checkChannels: false }, ...WAIT });
		expect(bad).toMatchObject({ status: '0', outcome: 'failed', preloadtype: '1' });
		const [again] = await slowly(() => run({ resource: 'prefetch', operation: 'repeat', id: v.byId(prefetchId) }));
		expect(again).toMatchObject({ status: '0', preload: '1', urls: ['https://img.example.com/big.bin'] });
		await v.control('POST', '/management/cdn/tasks/settle', {});
		const statuses = await run({ resource: 'prefetch', operation: 'getStatus', id: [prefetchId, bad.id, again.id] });
		expect(statuses).toEqual([
			{ id: prefetchId, status: 'success' },
			{ id: bad.id, status: 'failed' },
			{ id: again.id, status: 'success' },
		]);
		const options = await loadOptions('getPrefetchTaskOptions');
		expect(options.map((o) => o.value).sort()).toEqual([prefetchId, bad.id, again.id].sort());
	});
});

describe('tasks', () => {
	test('get many with filters, Return All across pages, Limit', async () => {
		for (let i = 0; i < 210; i++) {
			const r = await v.api('cdn/refresh', { type: 'file', urls: `https://img.example.com/bulk/${i}.png` });
			if (r.code !== 1) throw new Error(r.message);
		}
		const total = tasks().length;
		let before = await requests();
		const all = await run({ resource: 'task', operation: 'getAll', simplify: false, returnAll: true });
		expect(all).toHaveLength(total);
		expect(await requests()).toBe(before + Math.ceil(total / 100));
		expect(all.map((t) => Number(t.id))).toEqual([...all.map((t) => Number(t.id))].sort((a, b) => b - a));
		before = await requests();
		expect(await run({ resource: 'task', operation: 'getAll', simplify: false, limit: 5 })).toHaveLength(5);
		expect(await requests()).toBe(before + 1);
		const prefetches = await run({ resource: 'task', operation: 'getAll', simplify: false, returnAll: true, filters: { preload: 1 } });
		expect(prefetches).toHaveLength(3);
		const dirs = await run({ resource: 'task', operation: 'getAll', simplify: false, returnAll: true, filters: { type: 'dir' } });
		expect(dirs.map((t) => t.urls)).toEqual([['https://www.example.com/assets/']]);
		const channels = await loadOptions('getChannelOptions');
		const www = channels.find((c) => c.name.startsWith('www.example.com')).value;
		const onWww = await run({ resource: 'task', operation: 'getAll', simplify: false, returnAll: true, filters: { domainIds: [www] } });
		expect(onWww.length).toBeGreaterThan(0);
		expect(onWww.every((t) => t.urls.some((u) => u.startsWith('https://www.example.com/')))).toBe(true);
	});

	test('delete removes several tasks chosen from the dropdown', async () => {
		const options = await loadOptions('getCdnTaskOptions');
		expect(options.length).toBe(tasks().length);
		const ids = [refreshId, prefetchId];
		const deleted = await run({ resource: 'task', operation: 'delete', ids });
		expect(deleted.map((d) => ({ deleted: d.deleted, id: d.id }))).toEqual(ids.map((id) => ({ deleted: true, id })));
		expect(deleted[0].urls).toEqual(['https://www.example.com/index.html', 'https://img.example.com/logo.png']);
		expect(taskState(refreshId)).toBeUndefined();
		expect(taskState(prefetchId)).toBeUndefined();
		const error = await fails({ resource: 'task', operation: 'delete', ids: [refreshId] });
		expect(error.message).toBe(`"Tasks": task ${refreshId} does not exist`);
	});
});

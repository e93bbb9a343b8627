'use strict';
/**
 * CDN cache purge says why (issue 11, section 2): when asked (Check URLs Against Channels), each
 * URL's host is checked against the account's channels before anything is sent (one listing per run; a wildcard channel serves
 * its subdomains), refused with the channels named; a task the service reports as failed comes
 * back with the reason in words.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCdn';
const WAIT = { waitForCompletion: true, waitTimeout: 10, pollInterval: 0.1 };
let v;

beforeAll(async () => {
	v = await startVendor();
	for (const [name, type] of [
		['www.shop-example.com', 'cloud'],
		['*.img.shop-example.com', 'cloud'],
		['old.shop-example.com', 'download'],
	]) {
		const r = await v.api('cdn/domainAdd', { name, type, ip: { '192.0.2.10': 80 } });
		if (r.code !== 1) throw new Error(r.message);
	}
});
afterAll(() => v.close());

const stats = async () => (await v.control('GET', '/stats')).management.requests;
const channelId = async (name) => (await v.api('cdn/domainList', { page: 1, limit: 100 })).data.find((c) => c.name === name).id;

test('URLs of a wildcard channel pass; one listing of the channels serves every item of the run', async () => {
	const before = await stats();
	const { items, error } = await v.run(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: '={{ $json.url }}', additionalFields: { checkChannels: true } }, {
		input: [{ url: 'https://a.img.shop-example.com/1.png' }, { url: 'https://b.c.img.shop-example.com/2.png' }, { url: 'HTTPS://WWW.SHOP-EXAMPLE.COM/index.html' }],
	});
	expect(error).toBeUndefined();
	expect(items).toHaveLength(3);
	const after = await stats();
	expect(after['cdn/refresh'] - (before['cdn/refresh'] ?? 0)).toBe(3);
	expect(after['cdn/domainList'] - (before['cdn/domainList'] ?? 0)).toBe(1);
});

test('not asked: the vendor\'s documentation states no channel rule, so a URL outside every channel is sent, and no channel list is read', async () => {
	const before = await stats();
	const [task] = await v.ok(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.other-example.org/c' });
	expect(task.urls).toEqual(['https://www.other-example.org/c']);
	const after = await stats();
	expect(after['cdn/refresh'] - (before['cdn/refresh'] ?? 0)).toBe(1);
	expect(after['cdn/domainList'] ?? 0).toBe(before['cdn/domainList'] ?? 0);
});

test('asked, but the channel list cannot be read (a sub-account allowed only to refresh): the URLs are sent unchecked', async () => {
	await v.control('POST', '/faults', { inject: [{ op: 'cdn/domainList', kind: 'envelope', code: 0, message: 'no permission: API/cdn/domainList', times: 10 }] });
	try {
		const before = (await stats())['cdn/refresh'] ?? 0;
		const [task] = await v.ok(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://www.shop-example.com/x.html', additionalFields: { checkChannels: true } });
		expect(task.urls).toEqual(['https://www.shop-example.com/x.html']);
		expect((await stats())['cdn/refresh']).toBe(before + 1);
	} finally {
		await v.control('POST', '/faults', { inject: [] });
	}
});

test('the wildcard does not serve its own name, and another domain is refused naming every channel', async () => {
	const before = (await stats())['cdn/refresh'] ?? 0;
	const error = await v.fails(NODE, {
		resource: 'cacheRefresh',
		operation: 'create',
		type: 'file',
		urls: 'https://www.shop-example.com/a\nhttps://img.shop-example.com/b\nhttps://www.other-example.org/c',
		additionalFields: { checkChannels: true },
	});
	expect(error.message).toBe(
		'URL 2 (https://img.shop-example.com/b), URL 3 (https://www.other-example.org/c) are outside every CDN channel of the account, so the CDN cannot purge them; ' +
			'channels: old.shop-example.com, *.img.shop-example.com, www.shop-example.com',
	);
	expect(error.description).toMatch(/add a channel for img\.shop-example\.com, www\.other-example\.org with Channel > Create/);
	expect((await stats())['cdn/refresh'] ?? 0).toBe(before);
});

test('Repeat of a task whose channel is gone: failed, and the reason names the URL and the channels left', async () => {
	const [task] = await v.ok(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'https://old.shop-example.com/file.zip', ...WAIT });
	expect(task.outcome).toBe('success');
	expect(task.reason).toBeUndefined();
	await v.api('cdn/domainDelete', { domain_ids: [Number(await channelId('old.shop-example.com'))] });
	const [again] = await v.ok(NODE, { resource: 'cacheRefresh', operation: 'repeat', id: v.byId(task.id), ...WAIT });
	expect(again).toMatchObject({
		outcome: 'failed',
		reason: 'The CDN reports the cache refresh as failed: https://old.shop-example.com/file.zip is outside every channel of the account (channels: *.img.shop-example.com, www.shop-example.com)',
	});
});

test('with Continue On Fail, a refused item says why and the others go on', async () => {
	const { items, error } = await v.run(NODE, { resource: 'prefetch', operation: 'create', preloadtype: 1, urls: '={{ $json.url }}', additionalFields: { checkChannels: true } }, {
		input: [{ url: 'https://www.shop-example.com/big.bin' }, { url: 'https://nowhere.example.net/x.bin' }],
		continueOnFail: true,
	});
	expect(error).toBeUndefined();
	expect(items[0].json.id).toMatch(/^\d+$/);
	expect(items[1].json.error).toMatch(/^URL 1 \(https:\/\/nowhere\.example\.net\/x\.bin\) is outside every CDN channel of the account/);
	expect(items[1].json.description).toMatch(/Channel > Create/);
});

test('On Error "Continue (using error output)": a refused item goes to the error output with its reason', async () => {
	const { result, error } = await v.run(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: '={{ $json.url }}', additionalFields: { checkChannels: true } }, {
		input: [{ url: 'https://www.shop-example.com/a.html' }, { url: 'https://nowhere.example.net/b.html' }],
		onError: 'continueErrorOutput',
	});
	expect(error).toBeUndefined();
	const ok = result.output('Node', 0).map((i) => i.json);
	const failed = result.output('Node', 1).map((i) => i.json);
	expect(ok).toHaveLength(1);
	expect(ok[0].urls).toEqual(['https://www.shop-example.com/a.html']);
	expect(failed).toHaveLength(1);
	expect(failed[0].error).toMatch(/^URL 1 \(https:\/\/nowhere\.example\.net\/b\.html\) is outside every CDN channel/);
	expect(failed[0].message).toMatch(/Channel > Create/); // how to fix it: n8n 1.x routes json of {error, message} only, 2.x of any of error, message, details
	expect(Object.keys(failed[0]).sort()).toEqual(['error', 'message', 'url']);
	expect(failed[0].url).toBe('https://nowhere.example.net/b.html'); // n8n adds the input item's fields
});

test('Find URLs in Text: the http(s) addresses of a chat message, each once, without the punctuation after them', async () => {
	const text = 'Please purge https://www.shop-example.com/index.html, and (https://a.img.shop-example.com/logo.png). Also https://www.shop-example.com/index.html!';
	const [task] = await v.ok(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: text, additionalFields: { urlsInText: true } });
	expect(task.urls).toEqual(['https://www.shop-example.com/index.html', 'https://a.img.shop-example.com/logo.png']);
	const before = (await stats())['cdn/refresh'] ?? 0;
	const none = await v.fails(NODE, { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'purge the cache please', additionalFields: { urlsInText: true } });
	expect(none.message).toBe('No URL found in the text of "URLs"');
	expect((await stats())['cdn/refresh'] ?? 0).toBe(before);
});

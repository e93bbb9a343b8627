'use strict';
/**
 * Issue 27, what n8n's S3 node offers and this node had not: Bucket > Get Many, Object > Copy,
 * Move, Get Info and Delete Many, Folder > Create, Get Many and Delete; through n8n-core against
 * the emulator over HTTP. (The same against s3rver in AWS mode: s3rver.test.js.)
 */
const crypto = require('node:crypto');
const http = require('node:http');
const { startVendor } = require('../../support/vendor');
const { n8n, NODE, rl, md5, countRequests } = require('../../support/storage');

let v;
let counter;
beforeAll(async () => {
	v = await startVendor();
	counter = countRequests(v.emu);
	await ok({ resource: 'bucket', operation: 'create', bucketName: 'ops-a' });
	await ok({ resource: 'bucket', operation: 'create', bucketName: 'ops-b' });
});
afterAll(() => v.close());
afterEach(() => v.control('POST', '/faults', { inject: [] }));

const ok = (parameters, opts) => v.ok(NODE, parameters, opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const keysOf = async (bucket) => (await v.control('GET', `/storage/objects?bucket=${bucket}`)).objects.map((o) => o.key).sort();
const objectAt = async (bucket, key) => (await v.control('GET', `/storage/objects?bucket=${bucket}`)).objects.find((o) => o.key === key);
const put = (bucket, key, body, extra = {}) => v.control('POST', '/storage/objects', { bucket, key, body, ...extra });
const putBytes = (bucket, key, buf) => v.control('POST', '/storage/objects', { bucket, key, base64: buf.toString('base64') });
const seeded = (n, seed) => {
	const out = Buffer.alloc(Math.ceil(n / 4) * 4);
	let x = seed;
	for (let i = 0; i < out.length; i += 4) {
		x = (Math.imul(x, 1103515245) + 12345) >>> 0;
		out.writeUInt32LE(x, i);
	}
	return Buffer.from(out.subarray(0, n));
};

describe('Bucket > Get Many', () => {
	test('lists the buckets with their creation date; Limit cuts the list', async () => {
		const all = await ok({ resource: 'bucket', operation: 'getAll', returnAll: true });
		expect(all.map((b) => b.name)).toEqual(expect.arrayContaining(['ops-a', 'ops-b']));
		for (const b of all) expect(Date.parse(b.creationDate)).not.toBeNaN();
		const one = await ok({ resource: 'bucket', operation: 'getAll', returnAll: false, limit: 1 });
		expect(one).toHaveLength(1);
	});

	test('a service that does not answer GET / gets a message saying to type the bucket name', async () => {
		const server = http.createServer((req, res) => {
			res.writeHead(501, { 'content-type': 'application/xml' });
			res.end('<?xml version="1.0"?><Error><Code>NotImplemented</Code><Message>A header you provided implies functionality that is not implemented</Message></Error>');
		});
		await new Promise((r) => server.listen(0, '127.0.0.1', r));
		try {
			const store = new n8n.CredentialStore();
			const ref = store.add('vendorObjectStorageApi', { endpoint: `http://127.0.0.1:${server.address().port}`, accessKey: 'K', accessSecret: 'the-secret-value' });
			const error = await fails({ resource: 'bucket', operation: 'getAll', returnAll: true }, { credentials: { vendorObjectStorageApi: ref }, store });
			expect(error.message).toMatch(/^The service does not list buckets/);
			expect(error.description).toMatch(/By Name/);
			expect(JSON.stringify(error)).not.toContain('the-secret-value');
		} finally {
			server.close();
		}
	});
});

describe('Object > Get Info', () => {
	test('size, ETag and last modified from the listing entry, type and metadata from one ranged GET; the body is not downloaded', async () => {
		const body = seeded(300 * 1024, 3);
		await ok({
			resource: 'object',
			operation: 'upload',
			bucket: rl('ops-a'),
			key: 'info/report.bin',
			binaryData: false,
			fileContent: body.toString('latin1'),
			additionalFields: { contentType: 'application/x-test', cacheControl: 'max-age=60', metadata: { values: [{ name: 'origin', value: 'n8n' }] } },
		});
		const stored = await objectAt('ops-a', 'info/report.bin');
		stored.etag = stored.etag.replace(/"/g, '');
		const mark = counter.count;
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'info/report.bin' } });
		expect(counter.since(mark)).toEqual([expect.stringMatching(/^GET \/ops-a\/?\?max-keys=1&prefix=info%2Freport\.bin$/), 'GET /ops-a/info/report.bin']);
		expect(info).toMatchObject({ bucket: 'ops-a', key: 'info/report.bin', size: stored.size, sizeFrom: 'listing', etag: stored.etag, contentType: 'application/x-test', cacheControl: 'max-age=60', metadata: { origin: 'n8n' } });
		expect(Date.parse(info.lastModified)).not.toBeNaN();
	});

	test('an empty object works (no first byte: 416, then its headers)', async () => {
		await put('ops-a', 'info/empty.txt', '', { contentType: 'text/plain' });
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'info/empty.txt' } });
		expect(info).toMatchObject({ size: 0, etag: md5(Buffer.alloc(0)), contentType: 'text/plain' });
	});

	test('an empty object copies (its first range is refused with 416)', async () => {
		const [c] = await ok({ resource: 'object', operation: 'copy', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'info/empty.txt' }, destinationBucket: rl('ops-b'), destinationKey: 'empty-copy.txt' });
		expect(c).toMatchObject({ size: 0, md5: md5(Buffer.alloc(0)), contentType: 'text/plain' });
		expect((await objectAt('ops-b', 'empty-copy.txt')).size).toBe(0);
	});

	test('a missing object fails with NoSuchKey', async () => {
		const error = await fails({ resource: 'object', operation: 'getInfo', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'info/none' } });
		expect(error.context.serviceCode).toBe('NoSuchKey');
	});
});

describe('Object > Copy and Move', () => {
	test('a small object within the bucket: one PUT, headers and metadata kept, MD5 checked', async () => {
		await put('ops-a', 'src/small.txt', 'hello copy', { contentType: 'text/plain', meta: { origin: 'n8n' }, headers: { 'cache-control': 'no-cache' } });
		const [c] = await ok({ resource: 'object', operation: 'copy', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'src/small.txt' }, destinationBucket: rl('ops-a'), destinationKey: 'dst/small.txt' });
		expect(c).toMatchObject({ sourceBucket: 'ops-a', sourceKey: 'src/small.txt', bucket: 'ops-a', key: 'dst/small.txt', size: 10, md5: md5(Buffer.from('hello copy')), multipart: false, sourceVerified: 'etagIsMd5', copyVerified: 'etagIsMd5' });
		expect(c.verification).toBe("The MD5 of the 10 bytes read equals the source's ETag; the copy's ETag equals the MD5 of the bytes written.");
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'dst/small.txt' } });
		expect(info).toMatchObject({ size: 10, contentType: 'text/plain', metadata: { origin: 'n8n' } });
		expect(await objectAt('ops-a', 'src/small.txt')).toBeDefined();
	});

	test('replaced headers and metadata replace the source\'s', async () => {
		const [c] = await ok({
			resource: 'object',
			operation: 'copy',
			bucket: rl('ops-a'),
			key: { __rl: true, mode: 'id', value: 'src/small.txt' },
			destinationBucket: rl('ops-b'),
			destinationKey: 'replaced.txt',
			additionalFields: { contentType: 'text/markdown', metadata: { values: [{ name: 'stage', value: 'two' }] } },
		});
		expect(c.bucket).toBe('ops-b');
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('ops-b'), key: { __rl: true, mode: 'id', value: 'replaced.txt' } });
		expect(info.contentType).toBe('text/markdown');
		expect(info.metadata).toEqual({ stage: 'two' });
	});

	test('a large object across buckets: multipart with parts in parallel, the ETag checked', async () => {
		const body = seeded(5 * 1024 * 1024 + 12345, 7);
		await putBytes('ops-a', 'big/source.bin', body);
		const mark = counter.count;
		const [c] = await ok({
			resource: 'object',
			operation: 'copy',
			bucket: rl('ops-a'),
			key: { __rl: true, mode: 'id', value: 'big/source.bin' },
			destinationBucket: rl('ops-b'),
			destinationKey: 'big/copy.bin',
			options: { partSize: 1, partConcurrency: 4 },
		});
		expect(c).toMatchObject({ size: body.length, md5: md5(body), multipart: true, partCount: 6, sourceVerified: 'etagIsMd5', copyVerified: 'multipartEtag' });
		const sent = counter.since(mark);
		expect(sent.filter((r) => r.startsWith('GET /ops-a/big/source.bin'))).toHaveLength(6);
		expect(sent.filter((r) => r.startsWith('PUT /ops-b/big/copy.bin?') && /partNumber=/.test(r))).toHaveLength(6);
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('ops-b'), key: { __rl: true, mode: 'id', value: 'big/copy.bin' } });
		expect(info.size).toBe(body.length);
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	}, 120000);

	test('a source replaced during a multipart copy: If-Match and the ETag of each answer stop it, the upload is aborted, nothing is written', async () => {
		const body = seeded(6 * 1024 * 1024, 9);
		await putBytes('ops-a', 'big/changing.bin', body);
		// every request waits 150 ms; the source is replaced (by the control route, not delayed) while parts are read one at a time
		await v.control('POST', '/faults', { latencyMs: 150 });
		const mark = counter.count;
		try {
			const running = fails({
				resource: 'object',
				operation: 'copy',
				bucket: rl('ops-a'),
				key: { __rl: true, mode: 'id', value: 'big/changing.bin' },
				destinationBucket: rl('ops-b'),
				destinationKey: 'big/changing-copy.bin',
				options: { partSize: 1, partConcurrency: 1 },
			});
			while (!counter.since(mark).some((r) => r.startsWith('PUT ') && /partNumber=/.test(r))) await new Promise((r) => setTimeout(r, 20));
			await putBytes('ops-a', 'big/changing.bin', seeded(6 * 1024 * 1024, 10));
			const error = await running;
			expect(error.message).toMatch(/big\/changing\.bin changed while it was copied/);
		} finally {
			await v.control('POST', '/faults', { latencyMs: 0 });
		}
		expect(await objectAt('ops-b', 'big/changing-copy.bin')).toBeUndefined();
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	}, 120000);

	test('Move: the source is deleted only after the copy is checked', async () => {
		await put('ops-a', 'inbox/move-me.txt', 'moving', { contentType: 'text/plain' });
		const [m] = await ok({ resource: 'object', operation: 'move', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'inbox/move-me.txt' }, destinationBucket: rl('ops-a'), destinationKey: 'processed/2026-11-26/move-me.txt' });
		expect(m).toMatchObject({ key: 'processed/2026-11-26/move-me.txt', size: 6, sourceDeleted: true, sourceVerified: 'etagIsMd5', copyVerified: 'etagIsMd5' });
		expect(m.verification).toMatch(/Just before the delete the source was listed again with the same size, ETag and LastModified\.$/);
		expect(await objectAt('ops-a', 'inbox/move-me.txt')).toBeUndefined();
		expect((await objectAt('ops-a', 'processed/2026-11-26/move-me.txt')).size).toBe(6);
	});

	test('Move whose write fails keeps the source', async () => {
		await put('ops-a', 'inbox/keep-me.txt', 'keep');
		await inject({ op: 'PutObject', kind: 'http', status: 500, code: 'InternalError' });
		const error = await fails({ resource: 'object', operation: 'move', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'inbox/keep-me.txt' }, destinationBucket: rl('ops-a'), destinationKey: 'out/keep-me.txt' });
		expect(error.context.serviceCode).toBe('InternalError');
		expect(await objectAt('ops-a', 'inbox/keep-me.txt')).toBeDefined();
		expect(await objectAt('ops-a', 'out/keep-me.txt')).toBeUndefined();
	}, 60000);

	test('Move onto itself is refused before any request', async () => {
		const mark = counter.count;
		const error = await fails({ resource: 'object', operation: 'move', bucket: rl('ops-a'), key: { __rl: true, mode: 'id', value: 'inbox/keep-me.txt' }, destinationBucket: rl('ops-a'), destinationKey: 'inbox/keep-me.txt' });
		expect(error.message).toMatch(/moving an object onto itself/);
		expect(counter.since(mark)).toEqual([]);
	});
});

describe('Folders', () => {
	beforeAll(async () => {
		await v.control('POST', '/storage/objects', {
			bucket: 'ops-b',
			objects: [
				...Array.from({ length: 25 }, (_, i) => ({ key: `photos/${String(i).padStart(2, '0')}.jpg`, body: `p${i}` })),
				{ key: 'photos/2025/old.jpg', body: 'old' },
				{ key: 'photos-old/keep.jpg', body: 'keep' },
				{ key: 'photos.txt', body: 'keep' },
				{ key: 'docs/a.txt', body: 'a' },
			],
		});
	});

	test('Create writes an empty object whose key ends in "/"; creating it again changes nothing', async () => {
		const [f] = await ok({ resource: 'folder', operation: 'create', bucket: rl('ops-b'), folder: 'reports/2026' });
		expect(f).toMatchObject({ created: true, bucket: 'ops-b', folder: 'reports/2026/' });
		await ok({ resource: 'folder', operation: 'create', bucket: rl('ops-b'), folder: 'reports/2026/' });
		const o = await objectAt('ops-b', 'reports/2026/');
		expect(o.size).toBe(0);
	});

	test('Get Many lists one level: the common prefixes', async () => {
		const top = await ok({ resource: 'folder', operation: 'getAll', bucket: rl('ops-b'), returnAll: true });
		expect(top.map((f) => f.folder)).toEqual(['big/', 'docs/', 'photos-old/', 'photos/', 'reports/']);
		const inside = await ok({ resource: 'folder', operation: 'getAll', bucket: rl('ops-b'), parentFolder: 'photos', returnAll: true });
		expect(inside).toEqual([{ bucket: 'ops-b', folder: 'photos/2025/', name: '2025' }]);
		const limited = await ok({ resource: 'folder', operation: 'getAll', bucket: rl('ops-b'), returnAll: false, limit: 2 });
		expect(limited.map((f) => f.name)).toEqual(['big', 'docs']);
	});

	test('Delete above the Safety Limit is refused and deletes nothing', async () => {
		const before = await keysOf('ops-b');
		const error = await fails({ resource: 'folder', operation: 'delete', bucket: rl('ops-b'), folder: 'photos', safetyLimit: 10 });
		expect(error.message).toBe('The folder "photos/" holds 26 objects, more than the Safety Limit of 10');
		expect(error.description).toMatch(/Raise "Safety Limit" to at least 26/);
		expect(await keysOf('ops-b')).toEqual(before);
	});

	test('Delete removes everything under the prefix concurrently and nothing that only shares its text', async () => {
		const mark = counter.count;
		const [d] = await ok({ resource: 'folder', operation: 'delete', bucket: rl('ops-b'), folder: 'photos', safetyLimit: 100, options: { concurrency: 8 } });
		expect(d).toMatchObject({ bucket: 'ops-b', folder: 'photos/', count: 26, deleted: 26, failed: 0, notSent: 0, notDeleted: [] });
		expect(d.deletedKeys).toHaveLength(26);
		const keys = await keysOf('ops-b');
		expect(keys.filter((k) => k.startsWith('photos'))).toEqual(['photos-old/keep.jpg', 'photos.txt']);
		const deletes = counter.since(mark).filter((r) => r.startsWith('DELETE '));
		expect(deletes).toHaveLength(26);
		for (const r of deletes) expect(r).toMatch(/^DELETE \/ops-b\/photos\//);
	});

	test('Delete reports the keys that failed and deletes the others', async () => {
		await v.control('POST', '/storage/objects', { bucket: 'ops-b', objects: Array.from({ length: 6 }, (_, i) => ({ key: `tmp/${i}.txt`, body: 'x' })) });
		// a refusal (not retried, unlike a 500) for two of the keys
		await inject({ op: 'DeleteObject', kind: 'http', status: 403, code: 'AccessDenied', times: 2 });
		const [d] = await ok({ resource: 'folder', operation: 'delete', bucket: rl('ops-b'), folder: 'tmp/', safetyLimit: 100, options: { concurrency: 1 } });
		expect(d).toMatchObject({ count: 6, failed: 2, deleted: 4, notSent: 0 });
		expect(d.notDeleted.map((f) => f.code)).toEqual(['AccessDenied', 'AccessDenied']);
		expect((await keysOf('ops-b')).filter((k) => k.startsWith('tmp/'))).toEqual(d.notDeleted.map((f) => f.key).sort());
		expect([...d.deletedKeys, ...d.notDeleted.map((f) => f.key)].sort()).toEqual(Array.from({ length: 6 }, (_, i) => `tmp/${i}.txt`));
	}, 60000);

	test('an empty or "/" folder is refused (a folder is never the whole bucket)', async () => {
		const mark = counter.count;
		// (an empty field is stopped by n8n itself: the parameter is required)
		for (const folder of ['/', '  ', '//']) {
			const error = await fails({ resource: 'folder', operation: 'delete', bucket: rl('ops-b'), folder, safetyLimit: 100 });
			expect(error.message).toMatch(/The "Folder" field (is empty|holds only "\/")/);
		}
		expect(counter.since(mark)).toEqual([]);
	});
});

describe('Object > Delete Many', () => {
	test('keys from a list: one item per key with its outcome; a bad key fails alone', async () => {
		await v.control('POST', '/storage/objects', { bucket: 'ops-a', objects: ['dm/1', 'dm/2', 'dm/3'].map((key) => ({ key, body: key })) });
		const out = await ok({ resource: 'object', operation: 'deleteMany', bucket: rl('ops-a'), keysFrom: 'list', keys: 'dm/1\ndm/2\n\ndm/3\n../x' });
		expect(out.map((o) => [o.key, o.gone])).toEqual([
			['dm/1', true],
			['dm/2', true],
			['dm/3', true],
			['../x', false],
		]);
		expect(out[3].error).toMatch(/Keys/);
		expect((await keysOf('ops-a')).filter((k) => k.startsWith('dm/'))).toEqual([]);
	});

	test('keys from the input items, paired with their item', async () => {
		await v.control('POST', '/storage/objects', { bucket: 'ops-a', objects: ['dm/a', 'dm/b'].map((key) => ({ key, body: key })) });
		const { items, error } = await v.run(NODE, { resource: 'object', operation: 'deleteMany', bucket: rl('ops-a'), keysFrom: 'items', key: '={{ $json.name }}' }, { input: [{ name: 'dm/a' }, { name: 'dm/b' }] });
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.key, i.json.gone, i.pairedItem.item])).toEqual([
			['dm/a', true, 0],
			['dm/b', true, 1],
		]);
	});

	test('a bucket that does not exist stops the run with NoSuchBucket', async () => {
		const error = await fails({ resource: 'object', operation: 'deleteMany', bucket: rl('no-such-bucket'), keysFrom: 'list', keys: 'a\nb' });
		expect(error.context.serviceCode).toBe('NoSuchBucket');
	});
});

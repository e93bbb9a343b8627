'use strict';
/**
 * The storage emulator's objects and listings, spoken to with hand-built, hand-signed requests
 * in the VENDOR scheme (the client: vendor-client.js; its signer is checked against the
 * published AWS vectors in storage.vendor.test.js).
 */
const {
	crypto,
	emu,
	encodeKey,
	expectError,
	md5b64,
	md5hex,
	newBucket,
	putText,
	control,
	useEmulator,
	vreq,
} = require('./vendor-client');

useEmulator();

describe('objects', () => {
	const NASTY = [
		'plain.txt',
		'unicode/日本語/файл ü.txt',
		'space in name',
		'a+b=c:d',
		'per%cent',
		'what?#hash',
		'tilde~and!bang',
		'deep/er/and/deeper/',
		'emoji 😀.bin',
		"quote'(paren)*",
	];

	test('nasty keys round-trip; "+" in a path is a literal plus', async () => {
		const b = await newBucket();
		for (const key of NASTY) await putText(b, key, `body of ${key}`);
		for (const key of NASTY) {
			const res = await vreq('GET', `/${b}/${encodeKey(key)}`);
			expect(res.status).toBe(200);
			expect(res.text).toBe(`body of ${key}`);
		}
		const list = await vreq('GET', `/${b}`);
		const sorted = [...NASTY].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
		expect(list.xml.ListBucketResult.Contents.map((c) => c.Key)).toEqual(sorted);
		// unencoded "+" stays a plus, never a space
		expect((await vreq('GET', `/${b}/a+b=c:d`)).text).toBe('body of a+b=c:d');
		expectError(await vreq('GET', `/${b}/a%20b=c:d`), 404, 'NoSuchKey');
		for (const key of NASTY)
			expect((await vreq('DELETE', `/${b}/${encodeKey(key)}`)).status).toBe(204);
		expect((await vreq('GET', `/${b}`)).xml.ListBucketResult.Contents).toBeUndefined();
	});

	test('stored headers and metadata come back on GET and HEAD; Last-Modified and ETag', async () => {
		const b = await newBucket();
		const headers = [
			['Content-Type', 'application/json'],
			['Cache-Control', 'max-age=60'],
			['Content-Disposition', 'attachment; filename="report.json"'],
			['Content-Encoding', 'identity'],
			['Expires', '3600000'],
			['x-vendor-meta-owner', 'team-a'],
		];
		await putText(b, 'report.json', '{"a":1}', headers);
		for (const method of ['GET', 'HEAD']) {
			const res = await vreq(method, `/${b}/report.json`);
			expect(res.status).toBe(200);
			expect(res.headers).toMatchObject({
				'content-type': 'application/json',
				'cache-control': 'max-age=60',
				'content-disposition': 'attachment; filename="report.json"',
				'content-encoding': 'identity',
				expires: '3600000',
				'x-vendor-meta-owner': 'team-a',
				etag: `"${md5hex('{"a":1}')}"`,
				'content-length': '7',
			});
			expect(Date.parse(res.headers['last-modified'])).toBeGreaterThan(Date.now() - 60000);
			expect(res.text).toBe(method === 'GET' ? '{"a":1}' : '');
		}
		expectError(await vreq('GET', `/${b}/nothing-here`), 404, 'NoSuchKey');
		expect((await vreq('HEAD', `/${b}/nothing-here`)).status).toBe(404);
	});

	test('Content-MD5: malformed is InvalidDigest, mismatch is BadDigest and nothing is stored', async () => {
		const b = await newBucket();
		expectError(
			await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', 'not-base64']] }),
			400,
			'InvalidDigest',
		);
		expectError(
			await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', md5b64('abd')]] }),
			400,
			'BadDigest',
		);
		expect((await control('GET', `/storage/objects?bucket=${b}`)).objects).toEqual([]);
		expect(
			(await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', md5b64('abc')]] }))
				.status,
		).toBe(200);
	});

	test('PUT without Content-Length is 411 MissingContentLength', async () => {
		const b = await newBucket();
		const res = await vreq('PUT', `/${b}/chunked`, { body: 'chunked body', chunked: true });
		expectError(res, 411, 'MissingContentLength');
		expectError(await vreq('GET', `/${b}/chunked`), 404, 'NoSuchKey');
	});

	test('Expect: 100-continue is served', async () => {
		const b = await newBucket();
		const body = crypto.randomBytes(256 * 1024);
		const res = await vreq('PUT', `/${b}/continued.bin`, {
			body,
			expectContinue: true,
			headers: [['Content-MD5', md5b64(body)]],
		});
		expect(res.continued).toBe(true);
		expect(res.status).toBe(200);
		expect((await vreq('GET', `/${b}/continued.bin`)).body.equals(body)).toBe(true);
	});

	test('ranges: a-b, a-, -n, clamped end, 416 InvalidRange, ignored when malformed', async () => {
		const b = await newBucket();
		await putText(b, 'digits', '0123456789');
		const get = (range) => vreq('GET', `/${b}/digits`, { headers: [['Range', range]] });
		let r = await get('bytes=0-4');
		expect([r.status, r.text, r.headers['content-range'], r.headers['content-length']]).toEqual([
			206,
			'01234',
			'bytes 0-4/10',
			'5',
		]);
		r = await get('bytes=7-');
		expect([r.status, r.text, r.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
		r = await get('bytes=-3');
		expect([r.status, r.text, r.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
		r = await get('bytes=8-100');
		expect([r.status, r.text]).toEqual([206, '89']);
		r = await get('bytes=10-12');
		expectError(r, 416, 'InvalidRange');
		expect(r.headers['content-range']).toBe('bytes */10');
		r = await get('chars=1-2');
		expect([r.status, r.text]).toEqual([200, '0123456789']);
	});

	test('conditional GET per docs/vendor/object-storage.md#conditions: 304 without body, 412 PreconditionFailed', async () => {
		const b = await newBucket();
		await putText(b, 'cond', 'conditional');
		const etag = `"${md5hex('conditional')}"`;
		const head = await vreq('HEAD', `/${b}/cond`);
		const lm = Date.parse(head.headers['last-modified']);
		const get = (...headers) => vreq('GET', `/${b}/cond`, { headers });
		const before = new Date(lm - 60000).toUTCString();
		const same = new Date(lm).toUTCString();
		const later = new Date(lm + 60000).toUTCString();

		expect((await get(['If-Modified-Since', before])).status).toBe(200);
		let r = await get(['If-Modified-Since', same]);
		expect([r.status, r.body.length, r.headers.etag]).toEqual([304, 0, etag]);
		expect((await get(['If-Modified-Since', later])).status).toBe(304);

		expect((await get(['If-Unmodified-Since', same])).status).toBe(200);
		expect((await get(['If-Unmodified-Since', later])).status).toBe(200);
		expectError(await get(['If-Unmodified-Since', before]), 412, 'PreconditionFailed');

		expect((await get(['If-Match', etag])).status).toBe(200);
		expect((await get(['If-Match', md5hex('conditional')])).status).toBe(200);
		expectError(await get(['If-Match', '"0000"']), 412, 'PreconditionFailed');

		expect((await get(['If-None-Match', '"0000"'])).status).toBe(200);
		r = await get(['If-None-Match', etag]);
		expect([r.status, r.body.length]).toEqual([304, 0]);

		// S3's documented combinations
		expect((await get(['If-Match', etag], ['If-Unmodified-Since', before])).status).toBe(200);
		expect((await get(['If-None-Match', etag], ['If-Modified-Since', before])).status).toBe(304);
	});

	test('overwrite replaces; DELETE of a missing key is 204', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'first');
		await putText(b, 'k', 'second version');
		expect((await vreq('GET', `/${b}/k`)).text).toBe('second version');
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		expectError(await vreq('GET', `/${b}/k`), 404, 'NoSuchKey');
	});
});

// ---- listing -----------------------------------------------------------------------------

describe('list objects', () => {
	test('prefix, delimiter, marker, max-keys, NextMarker (also without delimiter), CommonPrefixes', async () => {
		const b = await newBucket();
		const keys = [
			'a.txt',
			'photos/2025/x.jpg',
			'photos/2026/y.jpg',
			'photos/2026/z.jpg',
			'photos/top.jpg',
			'z.txt',
		];
		for (const k of [...keys].reverse()) await putText(b, k, k);
		const list = async (q) => (await vreq('GET', `/${b}?${q}`)).xml.ListBucketResult;

		let r = await list('delimiter=/');
		expect(r.Contents.map((c) => c.Key)).toEqual(['a.txt', 'z.txt']);
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['photos/']);
		expect([r.IsTruncated, r.MaxKeys, r.Delimiter, r.Prefix]).toEqual(['false', '1000', '/', '']);
		expect(r.Contents[0]).toMatchObject({
			StorageClass: 'STANDARD',
			Size: '5',
			Owner: { ID: 'vendor-test', DisplayName: 'vendor-test' },
		});
		expect(r.Contents[0].LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

		r = await list('prefix=photos/&delimiter=/');
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/top.jpg']);
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['photos/2025/', 'photos/2026/']);

		// paging without delimiter
		r = await list('max-keys=2');
		expect([r.IsTruncated, r.NextMarker, r.Contents.length]).toEqual([
			'true',
			'photos/2025/x.jpg',
			2,
		]);
		r = await list(`max-keys=2&marker=${encodeURIComponent(r.NextMarker)}`);
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/2026/y.jpg', 'photos/2026/z.jpg']);
		expect(r.Marker).toBe('photos/2025/x.jpg');
		r = await list(`max-keys=2&marker=${encodeURIComponent(r.NextMarker)}`);
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/top.jpg', 'z.txt']);
		expect(r.IsTruncated).toBe('false');
		expect(r.NextMarker).toBeUndefined();

		// paging with delimiter: a common prefix counts once and is never repeated
		const seen = [];
		let marker = '';
		for (let i = 0; i < 10; i++) {
			r = await list(
				`delimiter=/&max-keys=1&prefix=photos/${marker ? '&marker=' + encodeURIComponent(marker) : ''}`,
			);
			seen.push(
				...(r.Contents || []).map((c) => c.Key),
				...(r.CommonPrefixes || []).map((c) => c.Prefix),
			);
			if (r.IsTruncated !== 'true') break;
			marker = r.NextMarker;
		}
		expect(seen).toEqual(['photos/2025/', 'photos/2026/', 'photos/top.jpg']);

		expectError(await vreq('GET', `/${b}?max-keys=-1`), 400, 'InvalidArgument');
		r = await list('max-keys=0');
		expect([r.IsTruncated, r.Contents]).toEqual(['true', undefined]);
	});

	test('listing hooks write between the pages of a listing and say at which marker they did', async () => {
		const b = await newBucket();
		await control('POST', '/storage/objects', { bucket: b, objects: ['a', 'c', 'e', 'g'].map((key) => ({ key, body: key })) });
		const old = Date.parse('2020-01-02T03:04:05.678Z');
		await control('POST', '/storage/listing-hooks', {
			hooks: [
				// before the second request of the listing: one write behind the position, one ahead, one delete ahead
				{ bucket: b, request: 2, put: [{ key: 'b', body: 'behind' }, { key: 'f', body: 'ahead', lastModified: old }], delete: ['g'] },
				{ bucket: 'other-bucket', request: 1, put: [{ key: 'x' }] },
			],
		});
		const list = async (q) => (await vreq('GET', `/${b}?${q}`)).xml.ListBucketResult;
		const first = await list('max-keys=2');
		expect(first.Contents.map((c) => c.Key)).toEqual(['a', 'c']);
		const second = await list('max-keys=10&marker=c');
		expect(second.Contents.map((c) => c.Key)).toEqual(['e', 'f']);
		// a time given with a write is kept, to the second (as a service that stamps the start of a long upload)
		expect(second.Contents[1].LastModified).toBe('2020-01-02T03:04:05.000Z');
		const { hooks } = await control('GET', '/storage/listing-hooks');
		expect(hooks[0]).toMatchObject({ bucket: b, request: 2, seen: 2, fired: true, marker: 'c', put: ['b', 'f'], delete: ['g'] });
		expect(hooks[1]).toMatchObject({ fired: false, seen: 0 });
		expect((await list('')).Contents.map((c) => c.Key)).toEqual(['a', 'b', 'c', 'e', 'f']);
		// removing objects by control route, and clearing the hooks
		expect(await control('POST', '/storage/objects/delete', { bucket: b, keys: ['a', 'zz'] })).toEqual({ bucket: b, deleted: 1, count: 4 });
		expect(await control('POST', '/storage/listing-hooks', { hooks: [] })).toEqual({ hooks: 0 });
		const bad = await fetch(`${emu().url}/__emulator/storage/listing-hooks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ hooks: [{ bucket: b, request: 0 }] }) });
		expect(bad.status).toBe(400);
	});

	test('100,000 keys page by page, in order, and a delimiter listing of them as one group (times printed, not asserted)', async () => {
		const b = await newBucket();
		const n = 100000;
		const objects = [];
		for (let i = 0; i < n; i++)
			objects.push({ key: `k/${String((i * 7919) % n).padStart(6, '0')}` });
		await control('POST', '/storage/objects', { bucket: b, objects });
		let marker = '';
		let total = 0;
		let prev = '';
		let pages = 0;
		const t0 = Date.now();
		for (;;) {
			// 100 pages of 270 kB: read the few fields by pattern, a full XML parse would dominate the time
			const res = await vreq(
				'GET',
				`/${b}?max-keys=1000${marker ? '&marker=' + encodeURIComponent(marker) : ''}`,
				{ raw: true },
			);
			const field = (name) => (new RegExp(`<${name}>([^<]*)</${name}>`).exec(res.text) || [])[1];
			const r = { IsTruncated: field('IsTruncated'), NextMarker: field('NextMarker') };
			const page = [...res.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
			expect(page[0] > prev).toBe(true);
			prev = page[page.length - 1];
			total += page.length;
			pages++;
			if (r.IsTruncated !== 'true') break;
			marker = r.NextMarker;
		}
		const ms = Date.now() - t0;
		expect([total, pages, prev]).toEqual([n, 100, 'k/099999']);
		// a delimiter listing of one huge group is one entry
		const t1 = Date.now();
		const r = (await vreq('GET', `/${b}?delimiter=/`)).xml.ListBucketResult;
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['k/']);
		// speed is a figure to read, not a pass mark (a loaded machine is slower)
		console.log(`[emulator] 100,000 keys in 100 pages: ${ms} ms; one delimiter listing of them: ${Date.now() - t1} ms`);
	});
});

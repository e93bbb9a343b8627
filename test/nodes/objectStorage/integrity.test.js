'use strict';
/**
 * Object storage integrity (issues 24 and 25): nothing cut short, nothing read wrong, nothing
 * unbounded, nothing invented. Each reading the documentation allows two ways is played by an
 * emulator dialect (booleansCapitalized, booleansNumeric, numericReferences, bucketPathSlash,
 * partEtagMissing: docs/vendor/readings.md R10, R25, R26, R27); what the emulator cannot play
 * (small List Parts pages, an endless or dripping answer) a small server in front of it does.
 * Timeouts are configured at 1 s where a test needs them; no test asserts a duration.
 */
const http = require('node:http');
const { startVendor } = require('../../support/vendor');
const { n8n, NODE, rl, readBinary } = require('../../support/storage');

jest.setTimeout(120 * 1000);

const KiB = 1024;

/** A credential on `endpoint` with `extra` settings. */
function creds(endpoint, extra = {}) {
	const store = new n8n.CredentialStore();
	const ref = store.add('vendorObjectStorageApi', { endpoint, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret', ...extra });
	return { credentials: { vendorObjectStorageApi: ref }, store };
}

async function listen(server) {
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${server.address().port}`;
}

/**
 * A server in front of the emulator: `url(u)` may rewrite the request's URL (query parameters
 * that are not signed), `body(text, req)` the answer's text; every request's method, URL and
 * headers are kept in `seen`.
 */
async function proxy(target, { url = (u) => u, body } = {}) {
	const to = new URL(target);
	const seen = [];
	const server = http.createServer((req, res) => {
		seen.push({ method: req.method, url: req.url, headers: req.headers });
		const up = http.request({ host: to.hostname, port: to.port, path: url(req.url), method: req.method, headers: req.headers }, (answer) => {
			if (!body) {
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
				return;
			}
			const chunks = [];
			answer.on('data', (c) => chunks.push(c));
			answer.on('end', () => {
				const out = Buffer.from(body(Buffer.concat(chunks).toString('utf8'), req));
				res.writeHead(answer.statusCode, { ...answer.headers, 'content-length': out.length });
				res.end(out);
			});
		});
		req.pipe(up);
	});
	const address = await listen(server);
	return { url: address, seen, close: () => new Promise((r) => server.close(r)) };
}

/** Uploads `texts` as parts 1..n of a new upload of `key`; the Upload Part output items. */
async function uploadParts(v, bucket, key, texts, opts = {}) {
	const [init] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'initiate', bucket: rl(bucket), key }, opts);
	const parts = await v.ok(
		NODE,
		{ resource: 'multipartUpload', operation: 'uploadPart', bucket: rl(bucket), key, uploadId: init.uploadId, partNumber: '={{ $json.n }}' },
		{ ...opts, binaryInput: texts.map((text, i) => ({ json: { n: i + 1 }, binary: { data: { text, mimeType: 'text/plain' } } })) },
	);
	return { uploadId: init.uploadId, parts };
}

async function download(v, bucket, key, opts = {}) {
	const { items, error } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl(bucket), key }, opts);
	if (error) throw error;
	return (await readBinary(items[0].binary.data)).toString('utf8');
}

const PARTS = ['one;', 'two;', 'three;', 'four;', 'five;'];

describe.each([['default'], ['booleansCapitalized'], ['booleansNumeric']])('objects never cut short (XML booleans: %s)', (dialect) => {
	let v;
	let small;
	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'whole' });
		// pages of 2 parts and of 2 keys, whatever the node asks for (these parameters are not signed)
		small = await proxy(v.url, { url: (u) => u.replace(/([?&]max-parts=)\d+/, '$12').replace(/([?&]max-keys=)\d+/, '$12') });
	});
	afterAll(async () => {
		await small.close();
		await v.close();
	});

	test('Complete with Every Uploaded Part pages through List Parts to the last part (IsTruncated read as an XML boolean)', async () => {
		const opts = creds(small.url);
		const { uploadId } = await uploadParts(v, 'whole', 'five-parts.txt', PARTS, opts);
		const [done] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'complete', bucket: rl('whole'), key: 'five-parts.txt', uploadId, partsSource: 'list' }, opts);
		expect(done.partCount).toBe(5);
		expect(await download(v, 'whole', 'five-parts.txt')).toBe(PARTS.join(''));
		expect(small.seen.filter((r) => r.method === 'GET' && /[?&]max-parts=/.test(r.url)).length).toBeGreaterThanOrEqual(3);
	});

	test('List Objects with Return All reads every page', async () => {
		await v.control('POST', '/storage/objects', { bucket: 'whole', objects: ['k1', 'k2', 'k3', 'k4', 'k5'].map((key) => ({ key: `keys/${key}`, body: key })) });
		const all = await v.ok(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('whole'), returnAll: true, options: { prefix: 'keys/' } }, creds(small.url));
		expect(all.map((o) => o.key)).toEqual(['keys/k1', 'keys/k2', 'keys/k3', 'keys/k4', 'keys/k5']);
	});
});

describe('a Complete is never sent with a part missing', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor();
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'parts' });
	});
	afterAll(() => v.close());
	const uploads = async () => (await v.control('GET', '/storage/uploads')).uploads;

	test('From Input Items with Continue On Fail: an item whose Upload Part failed stops the Complete, naming it; the upload stays open', async () => {
		const [init] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'initiate', bucket: rl('parts'), key: 'gap.txt' });
		// item 2 has no binary data: Upload Part gives an error item in its place
		const input = [1, 2, 3].map((n) => ({ json: { n }, binary: n === 2 ? undefined : { data: { text: PARTS[n - 1], mimeType: 'text/plain' } } }));
		const { items: uploaded } = await v.run(
			NODE,
			{ resource: 'multipartUpload', operation: 'uploadPart', bucket: rl('parts'), key: 'gap.txt', uploadId: init.uploadId, partNumber: '={{ $json.n }}' },
			{ binaryInput: input, continueOnFail: true },
		);
		expect(uploaded.map((i) => (i.json.error ? 'error' : i.json.partNumber))).toEqual([1, 'error', 3]);
		const { items } = await v.run(
			NODE,
			{ resource: 'multipartUpload', operation: 'complete', bucket: rl('parts'), key: 'gap.txt', uploadId: init.uploadId },
			{ input: uploaded.map((i) => i.json), continueOnFail: true },
		);
		const failed = items.filter((i) => i.json.error);
		// the error item of item 2 in its place, then the upload's
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, [{ item: 0 }, { item: 1 }, { item: 2 }]]);
		expect(failed[0].json.error).toMatch(/^Input item 2 is the error of an earlier node, not a part: /);
		expect(items.some((i) => i.json.partCount !== undefined || i.json.etag !== undefined)).toBe(false);
		expect(failed.at(-1).json.error).toMatch(/The upload of "gap\.txt" was not completed: 1 input item gives no part/);
		expect(JSON.stringify(failed.at(-1).json)).toMatch(/item 2/);
		expect((await v.control('GET', '/storage/objects?bucket=parts')).objects.map((o) => o.key)).not.toContain('gap.txt');
		expect((await uploads()).map((u) => u.uploadId ?? u.id)).toContain(init.uploadId);
	});

	test('parts 1 and 3 given, 2 held by the service: refused naming part 2', async () => {
		const { uploadId, parts } = await uploadParts(v, 'parts', 'skip.txt', PARTS.slice(0, 3));
		const error = await v.fails(
			NODE,
			{ resource: 'multipartUpload', operation: 'complete', bucket: rl('parts'), key: 'skip.txt', uploadId },
			{ input: [parts[0], parts[2]] },
		);
		expect(error.message).toBe('Part 2 of "skip.txt" is missing from the input');
		expect(error.description).toMatch(/Complete was not sent/);
		expect((await v.control('GET', '/storage/objects?bucket=parts')).objects.map((o) => o.key)).not.toContain('skip.txt');
	});

	test('parts 1 and 3 only, and only they uploaded: refused naming part 2 (numbers must run from 1 without a gap)', async () => {
		const [init] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'initiate', bucket: rl('parts'), key: 'holes.txt' });
		const parts = await v.ok(
			NODE,
			{ resource: 'multipartUpload', operation: 'uploadPart', bucket: rl('parts'), key: 'holes.txt', uploadId: init.uploadId, partNumber: '={{ $json.n }}' },
			{ binaryInput: [1, 3].map((n) => ({ json: { n }, binary: { data: { text: `p${n}`, mimeType: 'text/plain' } } })) },
		);
		for (const source of ['input', 'list']) {
			const error = await v.fails(NODE, { resource: 'multipartUpload', operation: 'complete', bucket: rl('parts'), key: 'holes.txt', uploadId: init.uploadId, partsSource: source }, { input: parts });
			expect(error.message).toBe('Part 2 of "holes.txt" is missing');
		}
	});

	test('an IsTruncated that is neither true nor false fails the list instead of ending it', async () => {
		const odd = await proxy(v.url, { body: (text) => text.replace(/<IsTruncated>[^<]*<\/IsTruncated>/, '<IsTruncated>maybe</IsTruncated>') });
		try {
			const error = await v.fails(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('parts'), returnAll: true }, creds(odd.url));
			expect(error.message).toBe(`List Objects parts: the answer's IsTruncated is "maybe", neither true nor false`);
		} finally {
			await odd.close();
		}
	});
});

describe.each([['default'], ['numericReferences']])('XML text read as XML defines it (%s)', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'refs' });
	});
	afterAll(() => v.close());

	test(`a key with ' and " and a tab is listed as stored and downloads; ETags come without quotes or references`, async () => {
		const key = `it's "quoted"\tkey.txt`;
		await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('refs'), key, binaryData: false, fileContent: 'quoted' });
		const [listed] = await v.ok(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('refs'), returnAll: true, options: { prefix: 'it' } });
		expect(listed.key).toBe(key);
		expect(listed.etag).toMatch(/^[0-9a-f]{32}$/);
		expect(await download(v, 'refs', listed.key)).toBe('quoted');
	});

	test('a key that holds the text of a reference (&#39;) stays that text: decoded once, nothing more', async () => {
		const key = 'a&#39;b&amp;c&nbsp;.txt';
		await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('refs'), key, binaryData: false, fileContent: 'literal' });
		const [listed] = await v.ok(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('refs'), returnAll: true, options: { prefix: 'a&' } });
		expect(listed.key).toBe(key);
	});

	test('Complete with Every Uploaded Part takes the ETags as List Parts gives them', async () => {
		const { uploadId } = await uploadParts(v, 'refs', 'joined.txt', PARTS.slice(0, 2));
		const [done] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'complete', bucket: rl('refs'), key: 'joined.txt', uploadId, partsSource: 'list' });
		expect(done.partCount).toBe(2);
		expect(await download(v, 'refs', 'joined.txt')).toBe('one;two;');
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	});
});

describe.each([['default'], ['bucketPathSlash']])('the bucket path (%s)', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
	});
	afterAll(() => v.close());

	test('with the default Bucket Path every bucket-level operation works, sent and signed at /{bucket}/', async () => {
		const seen = await proxy(v.url);
		try {
			const opts = creds(seen.url);
			await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'path-bucket' }, opts);
			await v.ok(NODE, { resource: 'bucket', operation: 'setAcl', bucket: rl('path-bucket'), acl: 'public-read' }, opts);
			const [acl] = await v.ok(NODE, { resource: 'bucket', operation: 'getAcl', bucket: rl('path-bucket') }, opts);
			expect(acl.cannedAclDerived).toBe('public-read');
			expect(await v.ok(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('path-bucket'), returnAll: true }, opts)).toEqual([]);
			await v.ok(NODE, { resource: 'bucket', operation: 'delete', bucket: rl('path-bucket') }, opts);
			const bucketLevel = seen.seen.filter((r) => r.url.startsWith('/path-bucket'));
			expect(bucketLevel.length).toBe(5);
			for (const r of bucketLevel) expect(r.url).toMatch(/^\/path-bucket\/(\?|$)/);
		} finally {
			await seen.close();
		}
	});

	test('Bucket Path /bucket: works where the service signs the path as sent, refused where it signs /{bucket}/', async () => {
		const opts = creds(v.url, { advanced: true, bucketPath: 'noSlash' });
		if (dialect === 'default') {
			await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'plain-path' }, opts);
			await v.ok(NODE, { resource: 'bucket', operation: 'delete', bucket: rl('plain-path') }, opts);
		} else {
			const error = await v.fails(NODE, { resource: 'bucket', operation: 'create', bucketName: 'plain-path' }, opts);
			expect(error.context.serviceCode).toBe('SignatureDoesNotMatch');
		}
	});

	test('Check Compatibility reports how the service signs the bucket path and names the setting', async () => {
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'compat-path' });
		for (const bucketPath of ['slash', 'noSlash']) {
			const items = await v.ok(
				NODE,
				{ resource: 'bucket', operation: 'checkCompatibility', bucket: rl('compat-path'), options: { firstPartSize: 0.01 } },
				creds(v.url, { advanced: true, bucketPath }),
			);
			const finding = items.find((i) => i.check === 'bucketPath');
			const summary = items.at(-1);
			if (dialect === 'default') {
				expect(summary.readings.bucketPath).toBe('asSent');
				expect(finding.setting).toBe('Bucket Path: either (/bucket/ by default)');
				expect(summary.settings.bucketPath).toBe(bucketPath);
			} else {
				expect(summary.readings.bucketPath).toBe('slashOnly');
				expect(finding.setting).toBe('Bucket Path: /bucket/');
				expect(summary.settings.bucketPath).toBe('slash');
				if (bucketPath === 'noSlash') expect(summary.reading).toMatch(/set Bucket Path: \/bucket\//);
			}
		}
	});
});

describe.each([['default'], ['partEtagMissing']])('part ETags (%s)', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'etags' });
	});
	afterAll(() => v.close());

	test('Complete From Input Items: a part without an ETag takes the one List Parts gives, never its MD5', async () => {
		const { uploadId, parts } = await uploadParts(v, 'etags', 'no-etag.txt', PARTS.slice(0, 3));
		if (dialect === 'partEtagMissing') for (const p of parts) expect(p).not.toHaveProperty('etag');
		const [done] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'complete', bucket: rl('etags'), key: 'no-etag.txt', uploadId }, { input: parts });
		expect(done.partCount).toBe(3);
		expect(await download(v, 'etags', 'no-etag.txt')).toBe('one;two;three;');
	});

	test('the automatic multipart upload of Upload completes too', async () => {
		const data = 'm'.repeat(2 * 1024 * 1024 + 10);
		const [up] = await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('etags'), key: 'auto.bin', binaryData: false, fileContent: data, options: { multipartThreshold: 1, partSize: 1 } });
		expect(up).toMatchObject({ multipart: true, partCount: 3, size: data.length });
		expect(await download(v, 'etags', 'auto.bin')).toBe(data);
	});
});

describe('answers bounded in size and time', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor();
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'caps' });
	});
	afterAll(() => v.close());

	/** A server that answers every request with `answer(req, res)`. */
	async function fake(answer) {
		const sockets = new Set();
		const server = http.createServer(answer);
		server.on('connection', (s) => {
			sockets.add(s);
			s.on('close', () => sockets.delete(s));
		});
		const url = await listen(server);
		return {
			url,
			close: () => {
				for (const s of sockets) s.destroy();
				return new Promise((r) => server.close(r));
			},
		};
	}

	test('an endless List Objects answer stops at the cap, naming the request and the size', async () => {
		let sent = 0;
		const endless = await fake((req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/xml' });
			res.write('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>');
			const chunk = Buffer.from(`<Contents><Key>${'k'.repeat(1000)}</Key></Contents>`.repeat(64));
			const more = () => {
				while (!res.destroyed && sent < 4 * 1024 * 1024 * 1024) {
					sent += chunk.length;
					if (!res.write(chunk)) return res.once('drain', more);
				}
			};
			res.on('error', () => {});
			more();
		});
		try {
			const error = await v.fails(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('caps'), returnAll: false, limit: 10 }, creds(endless.url));
			expect(error.message).toMatch(/^List Objects caps answered more than [\d.]+ (MiB|KiB) \(more than \d+ bytes arrived\): the node stops reading an answer past that size$/);
			expect(sent).toBeLessThan(512 * 1024 * 1024);
		} finally {
			await endless.close();
		}
	});

	test('an answer that announces more than the cap is refused before it is read', async () => {
		let wrote = 0;
		const big = await fake((req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': String(3 * 1024 * 1024 * 1024) });
			res.on('error', () => {});
			const chunk = Buffer.alloc(64 * KiB, 0x20);
			const more = () => {
				while (!res.destroyed && wrote < 3 * 1024 * 1024 * 1024) {
					wrote += chunk.length;
					if (!res.write(chunk)) return res.once('drain', more);
				}
			};
			more();
		});
		try {
			const error = await v.fails(NODE, { resource: 'multipartUpload', operation: 'listParts', bucket: rl('caps'), key: 'k', uploadId: 'u', returnAll: true }, creds(big.url));
			expect(error.message).toMatch(/^List Parts caps\/k .*answered more than [\d.]+ (MiB|KiB) \(3221225472 bytes announced\)/);
		} finally {
			await big.close();
		}
	});

	test('an answer that drips one byte at a time ends at the request deadline, not never', async () => {
		const drip = await fake((req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/xml' });
			res.on('error', () => {});
			const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 200);
			res.on('close', () => clearInterval(timer));
		});
		try {
			// a 1 s Response Timeout gives a deadline of 3 s (plus 1 s per 32 KiB moved); the idle
			// timeout (1 s) never fires, since a byte comes every 0.2 s
			const error = await v.fails(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('caps'), returnAll: true }, creds(drip.url, { advanced: true, responseTimeout: 1, idleTimeout: 1 }));
			expect(error.message).toMatch(/^List Objects caps timed out: the answer was not finished within the request's deadline of 3(\.\d+)? s \(\d+ bytes arrived\)$/);
		} finally {
			await drip.close();
		}
	});
});

describe('honest tries and nothing invented on the wire', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor();
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'words' });
	});
	afterAll(() => v.close());
	afterEach(() => v.control('POST', '/faults', { inject: [] }));

	test('a part that fails every try: the count of tries matches what they met', async () => {
		await v.control('POST', '/faults', { inject: [{ op: 'UploadPart', kind: 'http', status: 500 }] });
		const error = await v.fails(NODE, {
			resource: 'object',
			operation: 'upload',
			bucket: rl('words'),
			key: 'fails.bin',
			binaryData: false,
			fileContent: 'f'.repeat(1024 * 1024 + 1),
			options: { multipartThreshold: 1, partSize: 1 },
		});
		expect(error.message).not.toMatch(/after \d+ tries/);
		expect(error.description).not.toMatch(/tried 1 times/);
		const said = /It was tried (\d+) times(?: \(([^)]*)\))?\./.exec(error.description);
		expect(said).not.toBeNull();
		if (said[2]) {
			const total = said[2].split(', then ').reduce((n, run) => n + Number(/ (\d+) times$/.exec(run)?.[1] ?? 1), 0);
			expect(total).toBe(Number(said[1]));
		}
	});

	test('Create Bucket without an ACL sends no ACL header; Initiate without a Content Type sends none', async () => {
		const seen = await proxy(v.url);
		try {
			const opts = creds(seen.url);
			await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'no-acl' }, opts);
			const create = seen.seen.find((r) => r.method === 'PUT' && r.url.startsWith('/no-acl'));
			expect(Object.keys(create.headers).filter((h) => h.endsWith('-acl'))).toEqual([]);
			const [init] = await v.ok(NODE, { resource: 'multipartUpload', operation: 'initiate', bucket: rl('no-acl'), key: 'x.bin' }, opts);
			const initiate = seen.seen.find((r) => r.method === 'POST' && r.url.startsWith('/no-acl/x.bin'));
			expect(initiate.headers).not.toHaveProperty('content-type');
			await v.ok(NODE, { resource: 'multipartUpload', operation: 'abort', bucket: rl('no-acl'), key: 'x.bin', uploadId: init.uploadId }, opts);
			await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'with-acl', acl: 'private' }, opts);
			const withAcl = seen.seen.find((r) => r.method === 'PUT' && r.url.startsWith('/with-acl'));
			expect(withAcl.headers['x-vendor-acl']).toBe('private');
		} finally {
			await seen.close();
		}
	});
});

describe('words that claim no more than the documentation says', () => {
	const description = () => Object.values(n8n.loadPackage().nodes).find((node) => node.description.name === NODE).description;
	const find = (props, name, out = []) => {
		for (const p of props ?? []) {
			if (p.name === name) out.push(p);
			find(p.options, name, out);
			find(p.values, name, out);
		}
		return out;
	};

	test('the Expires placeholder is milliseconds, as the documentation describes the header (readings R19)', () => {
		const fields = find(description().properties, 'expires');
		expect(fields.length).toBeGreaterThan(0);
		for (const f of fields) {
			expect(f.placeholder).toMatch(/^e\.g\. \d+$/);
			expect(f.description).toMatch(/milliseconds/);
		}
	});

	test('Delete Object does not claim buckets keep no versions; Create Bucket offers not sending an ACL, by default', () => {
		const text = JSON.stringify(description().properties);
		expect(text).not.toMatch(/keep no versions/);
		const acl = description().properties.find((p) => p.name === 'acl' && p.displayOptions?.show?.operation?.includes('create'));
		expect(acl.default).toBe('');
		expect(acl.options.find((o) => o.value === '')).toMatchObject({ name: 'Not Sent (Service Default)' });
	});
});

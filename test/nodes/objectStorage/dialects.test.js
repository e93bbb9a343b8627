'use strict';
/**
 * Object storage under each reading the documents leave open (the emulator's storage dialects,
 * docs/vendor/readings.md R12-R14, R20-R22): listings (both CommonPrefixes forms, a marker
 * that starts the listing at or after its key), Get Bucket ACL when only FULL_CONTROL grants are
 * listed, and the multipart signing readings with the credential settings that match them.
 * Each dialect gets its own emulator; the same scenarios run under every one.
 */
const http = require('node:http');
const { startVendor } = require('../../support/vendor');
const { n8n, NODE, rl, readBinary } = require('../../support/storage');

const STORAGE_DIALECTS = ['commonPrefixesPlain', 'markerInclusive', 'aclOwnerOnly', 'underscoreSigned', 'subresourceDecoded', 'trickyUploadIds', 'extraFields'];

/** The credential settings each dialect needs (none: the node reads both forms by itself). */
const SETTINGS = {
	underscoreSigned: { advanced: true, multipartQueryNames: 'snake', signUnderscoreSubResources: true },
	subresourceDecoded: { advanced: true, subResourceValues: 'decoded' },
};

const KEYS = ['a/1.txt', 'a/2.txt', 'b/c/3.txt', 'b/4.txt', 'top.txt', 'z/5.txt'];
const FLAT = Array.from({ length: 23 }, (_, n) => `k-${String(n).padStart(3, '0')}`);

describe.each([['default'], ...STORAGE_DIALECTS.map((d) => [d])])('dialect %s', (dialect) => {
	let v;
	const ok = (parameters, opts) => v.ok(NODE, parameters, opts);
	const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
	const list = (options, extra = {}) => {
		const { credentials, store, ...parameters } = extra;
		return ok({ resource: 'bucket', operation: 'listObjects', bucket: rl('dialect-bucket'), returnAll: true, options, ...parameters }, credentials ? { credentials, store } : undefined);
	};

	/** A credential with the settings this dialect needs (plus `extra`). */
	function creds(extra = {}) {
		const store = new n8n.CredentialStore();
		const ref = store.add('vendorObjectStorageApi', { endpoint: v.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret', ...(SETTINGS[dialect] || {}), ...extra });
		return { credentials: { vendorObjectStorageApi: ref }, store };
	}

	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
		const enabled = (await v.control('GET', '/dialects')).enabled;
		expect(enabled).toEqual(dialect === 'default' ? [] : [dialect]);
		await ok({ resource: 'bucket', operation: 'create', bucketName: 'dialect-bucket', acl: 'public-read' });
		await v.control('POST', '/storage/objects', {
			bucket: 'dialect-bucket',
			objects: [...KEYS, ...FLAT.map((k) => `flat/${k}`)].map((key) => ({ key, body: key })),
		});
	});
	afterAll(() => v.close());

	test('a delimiter gives the folders (either CommonPrefixes form), also paging one entry at a time', async () => {
		const top = await list({ delimiter: '/' });
		expect(top.map((e) => `${e.type}:${e.prefix ?? e.key}`)).toEqual(['folder:a/', 'folder:b/', 'folder:flat/', 'object:top.txt', 'folder:z/']);
		expect(await list({ delimiter: '/', maxKeys: 1 })).toEqual(top);
		const inB = await list({ delimiter: '/', prefix: 'b/', maxKeys: 1 });
		expect(inB.map((e) => e.prefix ?? e.key)).toEqual(['b/4.txt', 'b/c/']);
	});

	test('Return All pages through every key exactly once, whether the listing starts at or after the marker', async () => {
		for (const maxKeys of [1, 2, 5, 1000]) {
			const all = await list({ prefix: 'flat/', maxKeys });
			expect(all.map((o) => o.key)).toEqual(FLAT.map((k) => `flat/${k}`));
		}
	});

	test('without NextMarker (S3 sends it only with a delimiter), paging from the last key lists every key once', async () => {
		// a proxy that drops NextMarker from the answers (answers are not signed)
		const target = new URL(v.url);
		const proxy = http.createServer((req, res) => {
			const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
				const chunks = [];
				answer.on('data', (c) => chunks.push(c));
				answer.on('end', () => {
					const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replace(/<NextMarker>[^<]*<\/NextMarker>/g, ''));
					const headers = { ...answer.headers, 'content-length': body.length };
					res.writeHead(answer.statusCode, headers);
					res.end(body);
				});
			});
			req.pipe(up);
		});
		await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
		try {
			const opts = creds({ endpoint: `http://127.0.0.1:${proxy.address().port}` });
			for (const maxKeys of [1, 3]) {
				const all = await list({ prefix: 'flat/', maxKeys }, opts);
				expect(all.map((o) => o.key)).toEqual(FLAT.map((k) => `flat/${k}`));
			}
			const limited = await list({ prefix: 'flat/', maxKeys: 4 }, { ...opts, returnAll: false, limit: 10 });
			expect(limited.map((o) => o.key)).toEqual(FLAT.slice(0, 10).map((k) => `flat/${k}`));
		} finally {
			proxy.close();
		}
	});

	test('Limit across pages, and a marker of the user: the keys after it', async () => {
		const limited = await list({ prefix: 'flat/', maxKeys: 4 }, { returnAll: false, limit: 10 });
		expect(limited.map((o) => o.key)).toEqual(FLAT.slice(0, 10).map((k) => `flat/${k}`));
		const after = await list({ prefix: 'flat/', maxKeys: 3, marker: 'flat/k-019' });
		expect(after.map((o) => o.key)).toEqual(['flat/k-020', 'flat/k-021', 'flat/k-022']);
		const one = await list({ prefix: 'flat/', marker: 'flat/k-019' }, { returnAll: false, limit: 1 });
		expect(one.map((o) => o.key)).toEqual(['flat/k-020']);
	});

	test('objects in a listing carry the fields the service gave', async () => {
		const [obj] = await list({ prefix: 'top.txt' });
		expect(obj).toEqual({
			type: 'object',
			key: 'top.txt',
			size: 7,
			lastModified: expect.any(String),
			etag: expect.stringMatching(/^[0-9a-f]{32}$/),
			storageClass: 'STANDARD',
			owner: { id: 'vendor-test', displayName: 'vendor-test' },
		});
	});

	test('Get ACL: the grants as listed; a canned ACL only where the grants prove it', async () => {
		const [acl] = await ok({ resource: 'bucket', operation: 'getAcl', bucket: rl('dialect-bucket') });
		const owner = { type: 'CanonicalUser', id: 'vendor-test', displayName: 'vendor-test' };
		if (dialect === 'aclOwnerOnly') {
			// the bucket is public-read, but the service lists only the owner's FULL_CONTROL
			expect(acl.grants).toEqual([{ grantee: owner, permission: 'FULL_CONTROL' }]);
			expect(acl).not.toHaveProperty('cannedAclDerived');
		} else {
			expect(acl.grants).toEqual([
				{ grantee: owner, permission: 'FULL_CONTROL' },
				{ grantee: { type: 'Group', uri: 'http://acs.amazonaws.com/groups/global/AllUsers' }, permission: 'READ' },
			]);
			expect(acl.cannedAclDerived).toBe('public-read');
		}
		expect(acl).not.toHaveProperty('cannedAcl');
	});

	test('the multipart operations and the automatic upload work with the credential settings this reading needs', async () => {
		const opts = creds();
		const [init] = await ok({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('dialect-bucket'), key: 'mp/joined.txt' }, opts);
		if (dialect === 'subresourceDecoded' || dialect === 'trickyUploadIds') expect(init.uploadId).toMatch(/[+/=]/);
		const parts = await ok(
			{ resource: 'multipartUpload', operation: 'uploadPart', bucket: rl('dialect-bucket'), key: 'mp/joined.txt', uploadId: init.uploadId, partNumber: '={{ $json.n }}' },
			{ ...opts, binaryInput: [1, 2].map((n) => ({ json: { n }, binary: { data: { text: `part ${n};`, mimeType: 'text/plain' } } })) },
		);
		const listed = await ok({ resource: 'multipartUpload', operation: 'listParts', bucket: rl('dialect-bucket'), key: 'mp/joined.txt', uploadId: init.uploadId, returnAll: true }, opts);
		expect(listed.map((p) => p.partNumber)).toEqual([1, 2]);
		await ok({ resource: 'multipartUpload', operation: 'complete', bucket: rl('dialect-bucket'), key: 'mp/joined.txt', uploadId: init.uploadId }, { ...opts, input: parts });
		const { items } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl('dialect-bucket'), key: 'mp/joined.txt' }, opts);
		expect((await readBinary(items[0].binary.data)).toString()).toBe('part 1;part 2;');

		const data = 'q'.repeat(3 * 1024 * 1024);
		const [up] = await ok({ resource: 'object', operation: 'upload', bucket: rl('dialect-bucket'), key: 'mp/auto.bin', binaryData: false, fileContent: data, options: { multipartThreshold: 1, partSize: 1 } }, opts);
		expect(up).toMatchObject({ multipart: true, partCount: 3, size: data.length });
		const [abortable] = await ok({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('dialect-bucket'), key: 'mp/aborted.bin' }, opts);
		await ok({ resource: 'multipartUpload', operation: 'abort', bucket: rl('dialect-bucket'), key: 'mp/aborted.bin', uploadId: abortable.uploadId }, opts);
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	});

	if (SETTINGS[dialect]) {
		test('without those settings the service refuses the signature of multipart requests', async () => {
			const plain = dialect === 'underscoreSigned' ? creds({ signUnderscoreSubResources: false }) : creds({ advanced: false });
			const [init] = await ok({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('dialect-bucket'), key: 'mp/refused.bin' }, plain);
			const error = await fails({ resource: 'multipartUpload', operation: 'listParts', bucket: rl('dialect-bucket'), key: 'mp/refused.bin', uploadId: init.uploadId, returnAll: true }, plain);
			expect(error.context.serviceCode).toBe('SignatureDoesNotMatch');
			await ok({ resource: 'multipartUpload', operation: 'abort', bucket: rl('dialect-bucket'), key: 'mp/refused.bin', uploadId: init.uploadId }, creds());
		});
	}
});

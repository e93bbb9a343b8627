'use strict';
/** The dialect matrix's entries for Vendor Object Storage, in run order, and their fallbacks (see index.js). */
const { must, show, same, count, one, has, md5 } = require('./checks');
const { readBinary } = require('../../support/storage');

const bucketRl = (name) => ({ __rl: true, mode: 'name', value: name });
const BUCKET = 'matrix-bucket';
const EMPTY_BUCKET = 'matrix-empty';
const HELLO = 'Hello from the vendor object storage emulator!\n';
const UPLOAD_TEXT = 'uploaded by the dialect matrix\n';
const PARTS = ['first part of the matrix upload, ', 'second and last part'];
/** The source of Copy and Move: 5,000 bytes made by a multipart upload in parts of 1,000 (its ETag is no MD5). */
const BIG = Buffer.from(Array.from({ length: 5000 }, (_, n) => (n * 7919) % 251));
/** Copy and Move in parts of 0.001 MiB (1,049 bytes): five ranged reads, a multipart write. */
const SMALL_PARTS = { partSize: 0.001, partConcurrency: 2 };

const entries = [
	{
		resource: 'bucket',
		operation: 'create',
		params: { bucketName: BUCKET, acl: 'public-read' },
		async check(json, ctx) {
			const b = (await ctx.buckets()).find((x) => x.name === BUCKET);
			must(b, `bucket ${BUCKET} does not exist at the emulator`);
			same(b.acl, 'public-read', 'the bucket ACL at the emulator');
		},
	},
	{
		resource: 'bucket',
		operation: 'checkCompatibility',
		// probes the open readings under a scratch prefix of the new bucket, and removes what it made
		// small first parts (the emulator takes them; the default 5 MiB makes this the slowest entry),
		// and the ACL probed in a scratch bucket of its own
		params: { bucket: bucketRl(BUCKET), options: { firstPartSize: 0.01, scratchBucket: true } },
		async check(json, ctx) {
			for (const f of json) must(typeof f.check === 'string' && typeof f.observed === 'string' && typeof f.reading === 'string', `a finding without check, observed or reading: ${show(f)}`);
			const summary = json.find((f) => f.check === 'summary');
			must(summary && summary.readings && summary.settings, `no summary with readings and settings: ${show(summary)}`);
			// what it found is what this column's emulator plays
			const r = summary.readings;
			same(r.commonPrefixes, ctx.dialect === 'commonPrefixesPlain' ? 'plainString' : 'prefixElement', 'CommonPrefixes form found');
			// listingRepeats lists the keys up to the marker again: the marker itself too, as markerInclusive does
			same(r.marker, ['markerInclusive', 'listingRepeats'].includes(ctx.dialect) ? 'startsAt' : 'startsAfter', 'marker reading found');
			same(r.bucketAcl, ctx.dialect === 'aclOwnerOnly' ? 'fullControlOnly' : 'allGrants', 'ACL reading found');
			same(r.bucketPath, ctx.dialect === 'bucketPathSlash' ? 'slashOnly' : 'asSent', 'bucket path reading found');
			same(r.xmlBooleans, { booleansCapitalized: 'capitalized', booleansNumeric: 'numeric' }[ctx.dialect] || 'lowercase', 'XML booleans found');
			same(r.xmlEscapes, ctx.dialect === 'numericReferences' ? 'numeric' : 'predefined', 'XML escapes found');
			same(r.partEtag, ctx.dialect === 'partEtagMissing' ? 'listPartsOnly' : 'header', 'part ETag reading found');
			// issue 33: how a range and If-Match are answered, the form of multipart ETags, repeated entries
			same(r.range, { rangeAs200: 'rangeOnly200', rangeIgnored: 'whole200' }[ctx.dialect] || 'partial206', 'range answer found');
			same(r.ifMatch, ctx.dialect === 'ifMatchIgnored' ? 'ignored' : 'honoured', 'If-Match reading found');
			same(r.multipartEtag, { multipartEtagPlain: 'plainHex', partEtagMissing: 'other' }[ctx.dialect] || 's3Form', 'multipart ETag form found');
			same(r.listing, ctx.dialect === 'listingRepeats' ? 'repeats' : 'once', 'repeated listing entries found');
			// the settings it recommends include those this column's credential needs
			for (const [k, val] of Object.entries(ctx.storageSettings())) if (k !== 'advanced') same(summary.settings[k], val, `recommended setting ${k}`);
			must(!JSON.stringify(json).includes('vendor-test-secret'), 'the access secret appears in the output');
			same((await ctx.objects(BUCKET)).length, 0, 'objects left in the bucket');
			same((await ctx.uploads()).length, 0, 'uploads left open');
			same((await ctx.buckets()).map((b) => b.name).sort().join(','), `demo-bucket,${BUCKET}`, 'buckets left (the scratch bucket removed)');
		},
	},
	{
		resource: 'bucket',
		operation: 'getAcl',
		params: { bucket: bucketRl(BUCKET) },
		async check(json) {
			const acl = one(json, 'ACL items');
			same(acl.owner && acl.owner.id, 'vendor-test', 'owner id');
			must(
				has(acl.grants, (g) => g.permission === 'FULL_CONTROL' && g.grantee && g.grantee.id === 'vendor-test'),
				`no FULL_CONTROL grant of the owner in ${show(acl.grants)}`,
			);
			// a canned ACL may only be derived from grants that prove it (docs/vendor/readings.md#r22); the storage
			// branch names it cannedAclDerived
			const derived = acl.cannedAclDerived !== undefined ? acl.cannedAclDerived : acl.cannedAcl;
			const allUsersRead = has(acl.grants, (g) => g.grantee && /\/AllUsers$/.test(String(g.grantee.uri)) && g.permission === 'READ');
			if (allUsersRead) same(derived, 'public-read', 'canned ACL derived from the grants');
			else must(derived === undefined || derived === null, `canned ACL ${show(derived)} claimed from grants that do not prove it: ${show(acl.grants)}`);
		},
	},
	{
		resource: 'bucket',
		operation: 'setAcl',
		params: { bucket: bucketRl(BUCKET), acl: 'authenticated-read' },
		async check(json, ctx) {
			const b = (await ctx.buckets()).find((x) => x.name === BUCKET);
			same(b && b.acl, 'authenticated-read', 'the bucket ACL at the emulator');
		},
	},
	{
		resource: 'object',
		operation: 'upload',
		params: {
			bucket: bucketRl(BUCKET),
			key: 'docs/matrix file.txt',
			binaryData: false,
			fileContent: UPLOAD_TEXT,
			additionalFields: { contentType: 'text/plain', metadata: { values: [{ name: 'source', value: 'matrix' }] } },
		},
		async check(json, ctx) {
			const item = one(json, 'upload items');
			same(item.etag, md5(UPLOAD_TEXT), 'ETag');
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'docs/matrix file.txt');
			must(o, 'the object is not at the emulator');
			same(o.size, Buffer.byteLength(UPLOAD_TEXT), 'stored size');
			same(o.meta && o.meta.source, 'matrix', 'stored metadata "source"');
		},
	},
	{
		resource: 'bucket',
		operation: 'listObjects',
		// folders and objects of the demo bucket, one per page: the node pages with the marker
		params: { bucket: bucketRl('demo-bucket'), returnAll: true, options: { delimiter: '/', maxKeys: 1 } },
		async check(json) {
			const got = json.map((o) => (o.type === 'folder' ? `folder ${o.prefix}` : `${o.type} ${o.key}`));
			same(got.join(', '), 'folder data/, object hello.txt, folder images/, folder reports/', 'listing');
			same(json[1].size, Buffer.byteLength(HELLO), 'size of hello.txt');
			same(json[1].etag, md5(HELLO), 'ETag of hello.txt');
		},
	},
	{
		resource: 'object',
		operation: 'download',
		params: { bucket: bucketRl('demo-bucket'), key: 'hello.txt', binaryPropertyName: 'data' },
		async check(json, ctx, items) {
			const item = one(items, 'download items');
			must(item.binary && item.binary.data, 'no binary field "data"');
			same((await readBinary(item.binary.data)).toString('utf8'), HELLO, 'downloaded bytes');
			same(item.json.size, Buffer.byteLength(HELLO), 'size');
		},
	},
	{
		resource: 'object',
		operation: 'getPresignedUrl',
		params: { bucket: bucketRl(BUCKET), key: 'docs/matrix file.txt', method: 'GET', expiresIn: 600 },
		async check(json) {
			const { url } = one(json, 'presigned items');
			must(/^http:\/\/127\.0\.0\.1:\d+\//.test(String(url)), `not a URL of the emulator: ${show(url)}`);
			const res = await fetch(url);
			same(res.status, 200, 'HTTP status of a GET of the presigned URL');
			same(await res.text(), UPLOAD_TEXT, 'body fetched through the presigned URL');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'initiate',
		// two uploads in one run: one is completed, the other aborted
		params: { bucket: bucketRl(BUCKET), key: '={{ $json.key }}', additionalFields: { contentType: 'application/octet-stream' } },
		opts: () => ({ input: [{ key: 'big/joined.bin' }, { key: 'big/aborted.bin' }] }),
		async check(json, ctx) {
			count(json, 2, 'initiated uploads');
			for (const u of json) must(typeof u.uploadId === 'string' && u.uploadId.length > 0, `no upload ID in ${show(u)}`);
			const open = (await ctx.uploads()).map((u) => u.uploadId);
			for (const u of json) must(open.includes(u.uploadId), `upload ${u.uploadId} is not open at the emulator`);
			ctx.put('uploadId', json[0].uploadId);
			ctx.put('abortId', json[1].uploadId);
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'uploadPart',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), partNumber: '={{ $json.n }}', binaryPropertyName: 'data' }),
		opts: () => ({ binaryInput: PARTS.map((text, i) => ({ json: { n: i + 1 }, binary: { data: { text, mimeType: 'application/octet-stream' } } })) }),
		async check(json, ctx) {
			count(json, 2, 'uploaded parts');
			json.forEach((p, i) => {
				same(p.partNumber, i + 1, `part ${i + 1} number`);
				// partEtagMissing: Upload Part gets no ETag header, so its output has none (readings R25)
				same(p.etag, ctx.dialect === 'partEtagMissing' ? undefined : md5(PARTS[i]), `part ${i + 1} ETag`);
				same(p.md5, md5(PARTS[i]), `part ${i + 1} MD5`);
			});
			const u = (await ctx.uploads()).find((x) => x.uploadId === ctx.get('uploadId'));
			same(u && u.parts, 2, 'parts held by the emulator');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'listParts',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), returnAll: true }),
		async check(json, ctx) {
			// partEtagMissing: the emulator's part ETag is then the MD5 of "<MD5>:<part number>", not the MD5
			const etag = (t, n) => (ctx.dialect === 'partEtagMissing' ? md5(`${md5(t)}:${n}`) : md5(t));
			same(json.map((p) => `${p.partNumber}:${p.etag}:${p.size}`).join(' '), PARTS.map((t, i) => `${i + 1}:${etag(t, i + 1)}:${t.length}`).join(' '), 'parts listed');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'complete',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), partsSource: 'list' }),
		async check(json, ctx) {
			const done = one(json, 'completed items');
			same(done.partCount, 2, 'part count');
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'big/joined.bin');
			must(o, 'the joined object is not at the emulator');
			same(o.size, PARTS.join('').length, 'size of the joined object');
			must(!(await ctx.uploads()).some((u) => u.uploadId === ctx.get('uploadId')), 'the upload is still open');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'abort',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/aborted.bin', uploadId: ctx.get('abortId') }),
		async check(json, ctx) {
			same(one(json, 'abort items').aborted, true, 'aborted');
			must(!(await ctx.uploads()).some((u) => u.uploadId === ctx.get('abortId')), 'the upload is still open at the emulator');
		},
	},
	{
		resource: 'bucket',
		operation: 'getAll',
		params: { returnAll: true },
		async check(json) {
			const names = json.map((b) => b.name);
			for (const name of ['demo-bucket', BUCKET]) must(names.includes(name), `bucket ${name} not listed: ${show(names)}`);
		},
	},
	{
		resource: 'object',
		operation: 'getInfo',
		params: { bucket: bucketRl('demo-bucket'), key: 'hello.txt' },
		async check(json) {
			const info = one(json, 'info items');
			same(info.size, Buffer.byteLength(HELLO), 'size of hello.txt');
			same(info.etag, md5(HELLO), 'ETag of hello.txt');
		},
	},
	{
		resource: 'object',
		operation: 'copy',
		// a multipart-made source in ranges of 1,048 bytes: every reading of a range, of If-Match and of its ETag
		async setup(ctx) {
			await ctx.control('POST', '/storage/objects', { bucket: BUCKET, key: 'docs/big source.bin', base64: BIG.toString('base64'), partSize: 1000, contentType: 'application/x-matrix', meta: { source: 'matrix' } });
		},
		params: { bucket: bucketRl(BUCKET), key: 'docs/big source.bin', destinationBucket: bucketRl(BUCKET), destinationKey: 'copies/big copy.bin', options: SMALL_PARTS },
		async check(json, ctx) {
			const c = one(json, 'copy items');
			same(`${c.size}:${c.md5}`, `${BIG.length}:${md5(BIG)}`, 'size and MD5 of the bytes copied');
			must(typeof c.verification === 'string' && c.sourceVerified && c.copyVerified, `no verification in ${show(c)}`);
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'copies/big copy.bin');
			must(o, 'the copy is not at the emulator');
			same(o.size, BIG.length, 'size of the copy');
			same(o.meta && o.meta.source, 'matrix', 'metadata "source" kept');
			must((await ctx.objects(BUCKET)).some((x) => x.key === 'docs/big source.bin'), 'the source is gone');
			same((await ctx.uploads()).length, 0, 'uploads left open');
		},
	},
	{
		resource: 'object',
		operation: 'move',
		params: { bucket: bucketRl(BUCKET), key: 'copies/big copy.bin', destinationBucket: bucketRl(BUCKET), destinationKey: 'moved/big.bin', options: SMALL_PARTS },
		async check(json, ctx) {
			const m = one(json, 'move items');
			same(m.sourceDeleted, true, 'sourceDeleted');
			same(`${m.size}:${m.md5}`, `${BIG.length}:${md5(BIG)}`, 'size and MD5 of the bytes moved');
			const objects = await ctx.objects(BUCKET);
			const o = objects.find((x) => x.key === 'moved/big.bin');
			must(o, 'the moved object is not at the emulator');
			same(o.size, BIG.length, 'size of the moved object');
			must(!objects.some((x) => x.key === 'copies/big copy.bin'), 'the source is still at the emulator');
		},
	},
	{
		resource: 'folder',
		operation: 'create',
		params: { bucket: bucketRl(BUCKET), folder: 'made/by matrix' },
		async check(json, ctx) {
			same(one(json, 'folder items').folder, 'made/by matrix/', 'folder key');
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'made/by matrix/');
			same(o && o.size, 0, 'size of the folder object');
		},
	},
	{
		resource: 'folder',
		operation: 'getAll',
		params: { bucket: bucketRl('demo-bucket'), returnAll: true },
		async check(json) {
			same(json.map((f) => f.folder).join(', '), 'data/, images/, reports/', 'folders of the demo bucket');
		},
	},
	{
		resource: 'folder',
		operation: 'delete',
		async setup(ctx) {
			await ctx.control('POST', '/storage/objects', { bucket: BUCKET, objects: ['moved/a.txt', 'moved/deep/b.txt', 'moved-not/c.txt'].map((key) => ({ key, body: key })) });
		},
		params: { bucket: bucketRl(BUCKET), folder: 'moved', safetyLimit: 10 },
		async check(json, ctx) {
			const d = one(json, 'folder delete items');
			same(`${d.count}/${d.deleted}/${d.failed}`, '3/3/0', 'count/deleted/failed');
			const keys = (await ctx.objects(BUCKET)).map((x) => x.key);
			must(!keys.some((k) => k.startsWith('moved/')), `keys left in the folder: ${show(keys)}`);
			must(keys.includes('moved-not/c.txt'), 'a key outside the folder was deleted');
		},
	},
	{
		resource: 'object',
		operation: 'deleteMany',
		params: { bucket: bucketRl(BUCKET), keysFrom: 'list', keys: 'moved-not/c.txt\nmade/by matrix/' },
		async check(json, ctx) {
			same(json.map((o) => `${o.key}:${o.gone}`).join(' '), 'moved-not/c.txt:true made/by matrix/:true', 'outcomes');
			const keys = (await ctx.objects(BUCKET)).map((x) => x.key);
			must(!keys.includes('moved-not/c.txt') && !keys.includes('made/by matrix/'), `keys not deleted: ${show(keys)}`);
		},
	},
	{
		resource: 'object',
		operation: 'delete',
		params: { bucket: bucketRl(BUCKET), key: 'docs/matrix file.txt' },
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!(await ctx.objects(BUCKET)).some((o) => o.key === 'docs/matrix file.txt'), 'the object is still at the emulator');
		},
	},
	{
		resource: 'bucket',
		operation: 'delete',
		async setup(ctx) {
			await ctx.control('POST', '/storage/buckets', { name: EMPTY_BUCKET });
		},
		params: { bucket: bucketRl(EMPTY_BUCKET) },
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!(await ctx.buckets()).some((b) => b.name === EMPTY_BUCKET), 'the bucket is still at the emulator');
		},
	},
];

const fallbacks = {
	'vendorObjectStorage/bucket/create': async (ctx) => {
		if (!(await ctx.buckets()).some((b) => b.name === BUCKET)) await ctx.control('POST', '/storage/buckets', { name: BUCKET, acl: 'public-read' });
	},
	'vendorObjectStorage/object/upload': async (ctx) => {
		await ctx.control('POST', '/storage/objects', { bucket: BUCKET, key: 'docs/matrix file.txt', body: UPLOAD_TEXT, contentType: 'text/plain' });
	},
	'vendorObjectStorage/object/copy': async (ctx) => {
		await ctx.control('POST', '/storage/objects', { bucket: BUCKET, key: 'copies/big copy.bin', base64: BIG.toString('base64'), partSize: 1049 });
	},
	// no route makes an upload: only uploads the operation made (when its output failed the check)
	'vendorObjectStorage/multipartUpload/initiate': async (ctx) => {
		const open = await ctx.uploads();
		const find = (key) => open.find((u) => u.bucket === BUCKET && u.key === key);
		if (find('big/joined.bin')) ctx.put('uploadId', find('big/joined.bin').uploadId);
		if (find('big/aborted.bin')) ctx.put('abortId', find('big/aborted.bin').uploadId);
	},
};

module.exports = { entries, fallbacks };

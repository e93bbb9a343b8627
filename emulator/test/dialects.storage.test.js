'use strict';
/**
 * The emulator's storage dialects (emulator/dialects.js): for each one, what the default does
 * and what the dialect does instead, over plain HTTP. Storage requests are signed by the small
 * V2 signer of dialects-helpers.js, written from docs/vendor/object-storage.md#signing (not the
 * package's signer and not the emulator's verifier); it can sign sub-resource values as sent or
 * decoded and with or without upload_id/part_number, so each signing dialect is shown to refuse
 * the default signature and accept its own. aws-sdk v2 (AWS words) checks the upload-ID dialects
 * from the outside. The registry and the management dialects are in dialects.test.js.
 */
const crypto = require('node:crypto');
const AWS = require('aws-sdk');
const { createEmulator } = require('..');
const { USER, hmac, stringToSign, useDemoEmulator, sreq, presign, errorCode, control, dialects, newBucket, put } = require('./dialects-helpers');

const emu = useDemoEmulator();

describe('storage dialects', () => {
	test('commonPrefixesPlain: <CommonPrefixes>p/</CommonPrefixes> instead of <CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes>', async () => {
		const b = await newBucket();
		for (const k of ['a/1', 'a/2', 'b/1', 'top']) await put(b, k);
		const path = `/${b}?delimiter=%2F`;
		const s3 = await sreq('GET', path);
		expect(s3.text).toContain('<CommonPrefixes><Prefix>a/</Prefix></CommonPrefixes><CommonPrefixes><Prefix>b/</Prefix></CommonPrefixes>');
		expect(s3.doc.ListBucketResult.CommonPrefixes).toEqual([{ Prefix: 'a/' }, { Prefix: 'b/' }]);
		await dialects(['commonPrefixesPlain']);
		const plain = await sreq('GET', path);
		expect(plain.text).toContain('<CommonPrefixes>a/</CommonPrefixes><CommonPrefixes>b/</CommonPrefixes>');
		expect(plain.text).not.toContain('<Prefix>a/</Prefix>');
		expect(plain.doc.ListBucketResult.CommonPrefixes).toEqual(['a/', 'b/']);
		expect(plain.doc.ListBucketResult.Contents.map((c) => c.Key)).toEqual(['top']);
	});

	test('markerInclusive: the listing starts at the marker; following NextMarker lists every key once in both readings', async () => {
		const b = await newBucket();
		const keys = ['k1', 'k2', 'k3', 'k4', 'k5'];
		for (const k of keys) await put(b, k);
		const listed = async (q) => {
			const r = (await sreq('GET', `/${b}?${q}`)).doc.ListBucketResult;
			return { keys: (r.Contents || []).map((c) => c.Key), next: r.NextMarker, truncated: r.IsTruncated };
		};
		expect((await listed('marker=k2')).keys).toEqual(['k3', 'k4', 'k5']);
		expect(await listed('marker=k2&max-keys=2')).toEqual({ keys: ['k3', 'k4'], next: 'k4', truncated: 'true' });
		await dialects(['markerInclusive']);
		expect((await listed('marker=k2')).keys).toEqual(['k2', 'k3', 'k4', 'k5']);
		expect(await listed('marker=k2&max-keys=2')).toEqual({ keys: ['k2', 'k3'], next: 'k4', truncated: 'true' });
		expect((await listed('marker=k25')).keys).toEqual(['k3', 'k4', 'k5']); // not a key: from the next one
		for (const mode of [[], ['markerInclusive']]) {
			await dialects(mode);
			const all = [];
			let marker = '';
			for (let page = 0; page < 10; page++) {
				const r = await listed(`max-keys=2${marker ? `&marker=${marker}` : ''}`);
				all.push(...r.keys);
				if (r.truncated !== 'true') break;
				marker = r.next;
			}
			expect(all).toEqual(keys);
		}
	});

	test('aclOwnerOnly: only the owner FULL_CONTROL grant, whatever the canned ACL', async () => {
		const b = await newBucket('public-read-write');
		const grants = async () => (await sreq('GET', `/${b}?acl`)).doc.AccessControlPolicy.AccessControlList.Grant;
		const s3 = await grants();
		expect(s3.map((g) => g.Permission)).toEqual(['FULL_CONTROL', 'READ', 'WRITE']);
		expect(s3[1].Grantee.URI).toBe('http://acs.amazonaws.com/groups/global/AllUsers');
		await dialects(['aclOwnerOnly']);
		const only = await grants();
		expect(only).toHaveLength(1);
		expect(only[0]).toMatchObject({ Grantee: { ID: 'vendor-test', DisplayName: 'vendor-test' }, Permission: 'FULL_CONTROL' });
		// the canned ACL still acts: anyone may list the bucket
		expect((await fetch(`${emu().url}/${b}`)).status).toBe(200);
		await dialects([]);
		const priv = await newBucket();
		await dialects(['aclOwnerOnly']);
		expect((await fetch(`${emu().url}/${priv}`)).status).toBe(403);
	});

	test('trickyUploadIds: upload IDs carry +, / and =; signed as sent they work, signed decoded they do not', async () => {
		const b = await newBucket();
		const plain = (await sreq('POST', `/${b}/obj?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		expect(plain).toMatch(/^[A-Za-z0-9_-]+$/);
		await dialects(['trickyUploadIds']);
		const id = (await sreq('POST', `/${b}/obj?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		expect(id).toMatch(/\+/);
		expect(id).toMatch(/\//);
		expect(id).toMatch(/=/);
		const path = `/${b}/obj?uploadId=${encodeURIComponent(id)}`;
		expect((await sreq('GET', path)).status).toBe(200);
		const decoded = await sreq('GET', path, { how: { decoded: true } });
		expect({ status: decoded.status, code: errorCode(decoded) }).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
		const part = await sreq('PUT', `/${b}/obj?partNumber=1&uploadId=${encodeURIComponent(id)}`, { body: 'part one' });
		expect(part.status).toBe(200);
		const done = await sreq('POST', path, {
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.get('etag')}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(done.status).toBe(200);
		expect((await sreq('GET', `/${b}/obj`)).text).toBe('part one');
	});

	test('subresourceDecoded: sub-resource values are signed decoded; the as-sent signature fails, also in presigned URLs', async () => {
		const b = await newBucket();
		await dialects(['subresourceDecoded']);
		const id = (await sreq('POST', `/${b}/obj?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		expect(id).toMatch(/^(?=.*\+)(?=.*\/)(?=.*=)/);
		const path = `/${b}/obj?uploadId=${encodeURIComponent(id)}`;
		const asSent = await sreq('GET', path);
		expect({ status: asSent.status, code: errorCode(asSent) }).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
		const decoded = await sreq('GET', path, { how: { decoded: true } });
		expect(decoded.status).toBe(200);
		expect(decoded.doc.ListPartsResult.UploadId).toBe(id);
		expect((await fetch(presign('GET', path))).status).toBe(403);
		expect((await fetch(presign('GET', path, { decoded: true }))).status).toBe(200);
		// the default: as sent passes, decoded fails (the IDs made under the dialect stay tricky)
		await dialects([]);
		expect((await sreq('GET', path)).status).toBe(200);
		expect((await sreq('GET', path, { how: { decoded: true } })).status).toBe(403);
		expect((await fetch(presign('GET', path))).status).toBe(200);
		expect((await fetch(presign('GET', path, { decoded: true }))).status).toBe(403);
	});

	test('underscoreSigned: upload_id and part_number are sub-resources; the default leaves them out of the signature', async () => {
		const b = await newBucket();
		const id = (await sreq('POST', `/${b}/obj?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		const partPath = `/${b}/obj?upload_id=${id}&part_number=1`;
		const listPath = `/${b}/obj?upload_id=${id}`;
		// default: the underscore names are not signed
		expect((await sreq('PUT', partPath, { body: 'one' })).status).toBe(200);
		const underscoreByDefault = await sreq('GET', listPath, { how: { underscore: true } });
		expect({ status: underscoreByDefault.status, code: errorCode(underscoreByDefault) }).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
		await dialects(['underscoreSigned']);
		const plain = await sreq('PUT', partPath, { body: 'one' });
		expect({ status: plain.status, code: errorCode(plain) }).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
		// the string to sign the emulator reports names them, sorted: part_number before upload_id
		expect(plain.doc.Error.StringToSign).toMatch(new RegExp(`/${b}/obj\\?part_number=1&upload_id=${id}$`));
		expect((await sreq('PUT', partPath, { body: 'one', how: { underscore: true } })).status).toBe(200);
		expect((await sreq('GET', listPath, { how: { underscore: true } })).doc.ListPartsResult.Part).toHaveLength(1);
		expect((await fetch(presign('GET', listPath))).status).toBe(403);
		expect((await fetch(presign('GET', listPath, { underscore: true }))).status).toBe(200);
		// the camel-case spelling is signed the same way in both readings
		expect((await sreq('GET', `/${b}/obj?uploadId=${id}`)).status).toBe(200);
	});

	test('extraFields: XML answers carry an unknown element and every answer an unknown header', async () => {
		const b = await newBucket();
		await put(b, 'x.txt', 'x');
		const before = await sreq('GET', `/${b}`);
		expect(before.text).not.toContain('x-vendor-extra');
		expect(before.headers.get('x-vendor-extra')).toBeNull();
		await dialects(['extraFields']);
		for (const path of [`/${b}`, `/${b}?acl`, '/']) {
			const r = await sreq('GET', path);
			expect(r.status).toBe(200);
			expect(r.text).toMatch(/^<\?xml[^>]*\?>\s*<\w+[^>]*><x-vendor-extra>1<\/x-vendor-extra>/);
			expect(r.headers.get('x-vendor-extra')).toBe('1');
		}
		const init = await sreq('POST', `/${b}/big?uploads`);
		expect(init.text).toContain('<InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><x-vendor-extra>1</x-vendor-extra>');
		const id = init.doc.InitiateMultipartUploadResult.UploadId;
		const part = await sreq('PUT', `/${b}/big?partNumber=1&uploadId=${id}`, { body: 'abc' });
		expect(part.headers.get('x-vendor-extra')).toBe('1');
		expect((await sreq('GET', `/${b}/big?uploadId=${id}`)).text).toContain('<x-vendor-extra>1</x-vendor-extra>');
		const done = await sreq('POST', `/${b}/big?uploadId=${id}`, {
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.get('etag')}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(done.doc.CompleteMultipartUploadResult['x-vendor-extra']).toBe('1');
		const got = await sreq('GET', `/${b}/x.txt`);
		expect(got.text).toBe('x');
		expect(got.headers.get('x-vendor-extra')).toBe('1');
		const missing = await sreq('GET', `/${b}/nothing`);
		expect(missing.doc.Error).toMatchObject({ Code: 'NoSuchKey', 'x-vendor-extra': '1' });
	});
});

describe('storage dialects of the integrity readings (R10, R25, R26, R27)', () => {
	test('bucketPathSlash: a bucket-level request is checked against /{bucket}/, sent either way; the default signs the path as sent', async () => {
		const b = await newBucket();
		const slash = { path: `/${b}/`, sign: `/${b}/` };
		const plain = { path: `/${b}`, sign: `/${b}` };
		const send = async ({ path, sign }) => {
			const h = { Date: new Date().toUTCString() };
			h.Authorization = `VENDOR ${USER.accessKey}:${hmac(stringToSign('GET', sign, h, h.Date))}`;
			return (await fetch(emu().url + path, { headers: h })).status;
		};
		expect([await send(slash), await send(plain)]).toEqual([200, 200]);
		await dialects(['bucketPathSlash']);
		expect(await send(slash)).toBe(200);
		expect(await send(plain)).toBe(403);
		// sent to /{bucket}, signed as /{bucket}/: accepted, the documentation's signing rule
		expect(await send({ path: `/${b}`, sign: `/${b}/` })).toBe(200);
		// object paths are unchanged
		await put(b, 'k.txt');
	});

	test('booleansCapitalized and booleansNumeric: IsTruncated of List Objects and List Parts', async () => {
		const b = await newBucket();
		for (const k of ['a', 'b']) await put(b, k);
		const init = (await sreq('POST', `/${b}/mp?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		for (const n of [1, 2]) await sreq('PUT', `/${b}/mp?partNumber=${n}&uploadId=${init}`, { body: `p${n}` });
		const flags = async () => [
			/<IsTruncated>([^<]*)<\/IsTruncated>/.exec((await sreq('GET', `/${b}?max-keys=1`)).text)[1],
			/<IsTruncated>([^<]*)<\/IsTruncated>/.exec((await sreq('GET', `/${b}?max-keys=5`)).text)[1],
			/<IsTruncated>([^<]*)<\/IsTruncated>/.exec((await sreq('GET', `/${b}/mp?max-parts=1&uploadId=${init}`)).text)[1],
		];
		expect(await flags()).toEqual(['true', 'false', 'true']);
		await dialects(['booleansCapitalized']);
		expect(await flags()).toEqual(['True', 'False', 'True']);
		await dialects(['booleansNumeric']);
		expect(await flags()).toEqual(['1', '0', '1']);
	});

	test("numericReferences: ' and \" and tab written &#39; &#34; &#x9; in every XML answer", async () => {
		const b = await newBucket();
		const key = "it's \"q\"\tk";
		await put(b, encodeURIComponent(key), 'x');
		const s3 = await sreq('GET', `/${b}`);
		expect(s3.text).toContain('<Key>it&apos;s &quot;q&quot;\tk</Key>');
		expect(s3.text).toMatch(/<ETag>&quot;[0-9a-f]{32}&quot;<\/ETag>/);
		await dialects(['numericReferences']);
		const go = await sreq('GET', `/${b}`);
		expect(go.text).toContain('<Key>it&#39;s &#34;q&#34;&#x9;k</Key>');
		expect(go.text).toMatch(/<ETag>&#34;[0-9a-f]{32}&#34;<\/ETag>/);
		expect(go.text).not.toMatch(/&quot;|&apos;/);
		// (a parser that decodes only the five predefined entities reads this key wrong: the node's
		// own reading is tested in test/nodes/objectStorage/integrity.test.js)
	});

	test('partEtagMissing: Upload Part answers without an ETag; List Parts gives one that is not the MD5, and Complete takes it', async () => {
		const b = await newBucket();
		await dialects(['partEtagMissing']);
		const id = (await sreq('POST', `/${b}/mp?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
		const part = await sreq('PUT', `/${b}/mp?partNumber=1&uploadId=${id}`, { body: 'abc' });
		expect(part.status).toBe(200);
		expect(part.headers.get('etag')).toBeNull();
		const listed = (await sreq('GET', `/${b}/mp?uploadId=${id}`)).doc.ListPartsResult.Part[0].ETag;
		const md5 = crypto.createHash('md5').update('abc').digest('hex');
		expect(listed).not.toBe(`"${md5}"`);
		const complete = (etag) => sreq('POST', `/${b}/mp?uploadId=${id}`, { body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${etag}</ETag></Part></CompleteMultipartUpload>` });
		expect(errorCode(await complete(`"${md5}"`))).toBe('InvalidPart');
		expect((await complete(listed)).status).toBe(200);
	});
});

describe('storage dialects of the evidence readings (R74): ranges, If-Match, multipart ETags, repeated entries', () => {
	const md5 = (t) => crypto.createHash('md5').update(t).digest('hex');
	const TEXT = 'abcdefghijklmnopqrstuvwxyz';

	test('rangeAs200: 200 with only the bytes asked for and no Content-Range; rangeIgnored: 200 with the whole object; the default 206', async () => {
		const b = await newBucket();
		await put(b, 'r.txt', TEXT);
		const get = async () => {
			const r = await sreq('GET', `/${b}/r.txt`, { headers: { Range: 'bytes=2-4' } });
			return [r.status, r.text, r.headers.get('content-range'), r.headers.get('content-length'), r.headers.get('etag')];
		};
		expect(await get()).toEqual([206, 'cde', 'bytes 2-4/26', '3', `"${md5(TEXT)}"`]);
		await dialects(['rangeAs200']);
		expect(await get()).toEqual([200, 'cde', null, '3', `"${md5(TEXT)}"`]);
		// a range that starts past the end is still refused
		expect((await sreq('GET', `/${b}/r.txt`, { headers: { Range: 'bytes=40-50' } })).status).toBe(416);
		await dialects(['rangeIgnored']);
		expect(await get()).toEqual([200, TEXT, null, '26', `"${md5(TEXT)}"`]);
	});

	test('ifMatchIgnored: If-Match of another ETag gives the object instead of 412; If-None-Match still works', async () => {
		const b = await newBucket();
		await put(b, 'm.txt', TEXT);
		const other = { 'If-Match': '"00000000000000000000000000000000"' };
		expect((await sreq('GET', `/${b}/m.txt`, { headers: other })).status).toBe(412);
		await dialects(['ifMatchIgnored']);
		const r = await sreq('GET', `/${b}/m.txt`, { headers: other });
		expect([r.status, r.text]).toEqual([200, TEXT]);
		expect((await sreq('GET', `/${b}/m.txt`, { headers: { 'If-None-Match': `"${md5(TEXT)}"` } })).status).toBe(304);
	});

	test('multipartEtagPlain: a multipart object\'s ETag is 32 hex digits that are not its MD5; the default "<hex>-<parts>"', async () => {
		const b = await newBucket();
		const upload = async (key) => {
			const id = (await sreq('POST', `/${b}/${key}?uploads`)).doc.InitiateMultipartUploadResult.UploadId;
			const etags = [];
			for (const [n, t] of [[1, 'part one '], [2, 'part two']]) etags.push((await sreq('PUT', `/${b}/${key}?partNumber=${n}&uploadId=${id}`, { body: t })).headers.get('etag'));
			const body = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
			return (await sreq('POST', `/${b}/${key}?uploadId=${id}`, { body })).doc.CompleteMultipartUploadResult.ETag;
		};
		const joined = crypto.createHash('md5').update(Buffer.concat([md5('part one '), md5('part two')].map((h) => Buffer.from(h, 'hex')))).digest('hex');
		expect(await upload('s3.bin')).toBe(`"${joined}-2"`);
		await dialects(['multipartEtagPlain']);
		expect(await upload('plain.bin')).toBe(`"${joined}"`);
		expect(joined).not.toBe(md5('part one part two'));
		// the control route makes such objects too (partSize), in the form the dialect in force gives
		const seeded = await control('POST', '/storage/objects', { bucket: b, key: 'seeded.bin', body: 'part one part two', partSize: 9 });
		expect(seeded.status).toBe(200);
		const listed = (await sreq('GET', `/${b}?prefix=seeded`)).doc.ListBucketResult.Contents[0].ETag;
		expect(listed).toBe(`"${joined}"`);
	});

	test('listingRepeats: a page after a marker starts with the two keys before it again, and every third key is listed twice', async () => {
		const b = await newBucket();
		for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await put(b, k);
		const keys = async (q) => (await sreq('GET', `/${b}?${q}`)).doc.ListBucketResult.Contents.map((c) => c.Key);
		expect(await keys('max-keys=3')).toEqual(['a', 'b', 'c']);
		expect(await keys('marker=c&max-keys=3')).toEqual(['d', 'e', 'f']);
		await dialects(['listingRepeats']);
		expect(await keys('max-keys=3')).toEqual(['a', 'b', 'c', 'c']);
		expect(await keys('marker=c&max-keys=3')).toEqual(['b', 'c', 'd', 'e', 'f', 'f']);
	});

	test('fault flipByte: one byte of a Get Object answer inverted, length and headers unchanged; skip lets the first requests pass', async () => {
		const b = await newBucket();
		await put(b, 'f.txt', TEXT);
		await control('POST', '/faults', { inject: [{ op: 'GetObject', kind: 'flipByte', afterBytes: 3, times: 1, skip: 1 }] });
		try {
			expect((await sreq('GET', `/${b}/f.txt`)).text).toBe(TEXT);
			const flipped = await sreq('GET', `/${b}/f.txt`);
			expect(flipped.headers.get('etag')).toBe(`"${md5(TEXT)}"`);
			const bytes = Buffer.from(flipped.text, 'latin1');
			expect(bytes.length).toBe(26);
			expect(Buffer.from(flipped.text, 'utf8').equals(Buffer.from(TEXT))).toBe(false);
			expect((await sreq('GET', `/${b}/f.txt`)).text).toBe(TEXT);
		} finally {
			await control('POST', '/faults', { inject: [] });
		}
	});

	test('Get Object hooks: an object replaced before the n-th Get Object of its key is answered', async () => {
		const b = await newBucket();
		await put(b, 'h.txt', 'first');
		await control('POST', '/storage/listing-hooks', { hooks: [{ bucket: b, op: 'GetObject', key: 'h.txt', request: 2, put: [{ key: 'h.txt', body: 'second' }] }] });
		expect((await sreq('GET', `/${b}/h.txt`)).text).toBe('first');
		expect((await sreq('GET', `/${b}/h.txt`)).text).toBe('second');
		await control('POST', '/storage/listing-hooks', { hooks: [] });
	});
});

describe('storage dialects against aws-sdk v2 (AWS words, signs sub-resources as sent)', () => {
	let aws;
	let s3;
	beforeAll(async () => {
		process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
		aws = await createEmulator({ storage: { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' } });
		s3 = new AWS.S3({
			endpoint: aws.url,
			s3ForcePathStyle: true,
			signatureVersion: 's3',
			region: 'us-east-1',
			maxRetries: 0,
			accessKeyId: USER.accessKey,
			secretAccessKey: USER.secretKey,
		});
		await s3.createBucket({ Bucket: 'sdk-dialects' }).promise();
	});
	afterAll(async () => {
		if (aws) await aws.close();
	});

	const multipart = async (Key) => {
		const { UploadId } = await s3.createMultipartUpload({ Bucket: 'sdk-dialects', Key }).promise();
		const { ETag } = await s3.uploadPart({ Bucket: 'sdk-dialects', Key, UploadId, PartNumber: 1, Body: 'sdk part' }).promise();
		const parts = await s3.listParts({ Bucket: 'sdk-dialects', Key, UploadId }).promise();
		expect(parts.Parts).toHaveLength(1);
		await s3.completeMultipartUpload({ Bucket: 'sdk-dialects', Key, UploadId, MultipartUpload: { Parts: [{ ETag, PartNumber: 1 }] } }).promise();
		return UploadId;
	};

	test('trickyUploadIds: a whole multipart upload works (the default reading); subresourceDecoded refuses the same client', async () => {
		aws.dialects.set(['trickyUploadIds']);
		expect(await multipart('tricky')).toMatch(/^(?=.*\+)(?=.*\/)(?=.*=)/);
		aws.dialects.set(['subresourceDecoded']);
		const err = await multipart('decoded').catch((e) => e);
		expect({ statusCode: err.statusCode, code: err.code }).toEqual({ statusCode: 403, code: 'SignatureDoesNotMatch' });
		aws.dialects.set([]);
	});

	test('extraFields and commonPrefixesPlain: aws-sdk reads the extra element; the plain prefixes are not S3 form', async () => {
		await s3.putObject({ Bucket: 'sdk-dialects', Key: 'dir/a', Body: 'a' }).promise();
		aws.dialects.set(['extraFields']);
		const listed = await s3.listObjects({ Bucket: 'sdk-dialects', Delimiter: '/' }).promise();
		expect(listed.CommonPrefixes).toEqual([{ Prefix: 'dir/' }]);
		expect(listed.$response.httpResponse.headers['x-amz-extra']).toBe('1');
		aws.dialects.set(['commonPrefixesPlain']);
		const plain = await s3.listObjects({ Bucket: 'sdk-dialects', Delimiter: '/' }).promise();
		expect(plain.CommonPrefixes).not.toEqual([{ Prefix: 'dir/' }]);
		aws.dialects.set([]);
	});
});

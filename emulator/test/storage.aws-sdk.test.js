'use strict';
/**
 * The storage emulator in AWS mode (`AWS` / `x-amz-` / `AWSAccessKeyId`) driven by an
 * independent client: aws-sdk v2 with signature version 2 ("s3"), path-style addressing.
 * If aws-sdk signs, encodes, parses and pages against it without complaint, the emulator is
 * wire-compatible with S3 signature V2, not just consistent with itself.
 */
const crypto = require('node:crypto');
const AWS = require('aws-sdk');
const { createEmulator } = require('..');

const KEY = { accessKeyId: 'VENDORTESTKEY', secretAccessKey: 'vendor-test-secret' };
const md5hex = (buf) => crypto.createHash('md5').update(buf).digest('hex');
const multipartEtag = (parts) =>
	`"${md5hex(Buffer.concat(parts.map((p) => crypto.createHash('md5').update(p).digest())))}-${parts.length}"`;

let emu;
let s3;
const BUCKET = 'sdk-bucket';

async function rejects(promise, statusCode, code) {
	let err;
	try {
		await promise;
	} catch (e) {
		err = e;
	}
	expect(err).toBeDefined();
	expect({ statusCode: err.statusCode, code: err.code }).toEqual({ statusCode, code });
	return err;
}

beforeAll(async () => {
	process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
	emu = await createEmulator({
		storage: { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' },
	});
	s3 = new AWS.S3({
		endpoint: emu.url,
		s3ForcePathStyle: true,
		signatureVersion: 's3',
		region: 'us-east-1',
		maxRetries: 0,
		...KEY,
	});
	await s3.createBucket({ Bucket: BUCKET }).promise();
});

afterAll(async () => {
	if (emu) await emu.close();
});

describe('aws-sdk v2 against the emulator in AWS mode', () => {
	test('buckets: create, list, head, already exists, not empty, delete', async () => {
		await s3.createBucket({ Bucket: 'sdk-temp', ACL: 'public-read' }).promise();
		const { Buckets, Owner } = await s3.listBuckets().promise();
		expect(Buckets.map((b) => b.Name)).toEqual(expect.arrayContaining([BUCKET, 'sdk-temp']));
		expect(Buckets[0].CreationDate).toBeInstanceOf(Date);
		expect(Owner).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
		await s3.headBucket({ Bucket: 'sdk-temp' }).promise();
		await rejects(s3.createBucket({ Bucket: 'sdk-temp' }).promise(), 409, 'BucketAlreadyExists');
		await s3.putObject({ Bucket: 'sdk-temp', Key: 'x', Body: 'x' }).promise();
		await rejects(s3.deleteBucket({ Bucket: 'sdk-temp' }).promise(), 409, 'BucketNotEmpty');
		await s3.deleteObject({ Bucket: 'sdk-temp', Key: 'x' }).promise();
		await s3.deleteBucket({ Bucket: 'sdk-temp' }).promise();
		await rejects(s3.listObjects({ Bucket: 'sdk-temp' }).promise(), 404, 'NoSuchBucket');
		await rejects(s3.createBucket({ Bucket: 'Bad_Name' }).promise(), 400, 'InvalidBucketName');
	});

	test('nasty keys: put, get, list and delete round-trip', async () => {
		const keys = [
			'nasty/unicode-ÄÖÜ-日本語-😀.txt',
			'nasty/spaces in  name.txt',
			'nasty/plus+equals=colon:.txt',
			'nasty/percent%20not-a-space%.txt',
			'nasty/question?hash#tilde~.txt',
			'nasty/deep/ly/nested/key',
			"nasty/brackets[]{}()!*'&$@,;.txt",
		];
		for (const Key of keys)
			await s3.putObject({ Bucket: BUCKET, Key, Body: `content of ${Key}` }).promise();
		for (const Key of keys) {
			const got = await s3.getObject({ Bucket: BUCKET, Key }).promise();
			expect(got.Body.toString()).toBe(`content of ${Key}`);
		}
		const listed = await s3.listObjects({ Bucket: BUCKET, Prefix: 'nasty/' }).promise();
		expect(listed.Contents.map((c) => c.Key).sort()).toEqual([...keys].sort());
		for (const Key of keys) await s3.deleteObject({ Bucket: BUCKET, Key }).promise();
		expect((await s3.listObjects({ Bucket: BUCKET, Prefix: 'nasty/' }).promise()).Contents).toEqual(
			[],
		);
	});

	test('metadata and content headers; headObject; NoSuchKey', async () => {
		await s3
			.putObject({
				Bucket: BUCKET,
				Key: 'meta/doc.html',
				Body: '<p>hi</p>',
				ContentType: 'text/html; charset=utf-8',
				CacheControl: 'no-cache',
				ContentDisposition: 'inline; filename="doc.html"',
				ContentEncoding: 'identity',
				Metadata: { author: 'Ada', 'client-side-key': 'abc123' },
			})
			.promise();
		const got = await s3.getObject({ Bucket: BUCKET, Key: 'meta/doc.html' }).promise();
		expect(got).toMatchObject({
			ContentType: 'text/html; charset=utf-8',
			CacheControl: 'no-cache',
			ContentDisposition: 'inline; filename="doc.html"',
			ContentEncoding: 'identity',
			Metadata: { author: 'Ada', 'client-side-key': 'abc123' },
			ContentLength: 9,
			ETag: `"${md5hex('<p>hi</p>')}"`,
		});
		expect(got.LastModified).toBeInstanceOf(Date);
		const head = await s3.headObject({ Bucket: BUCKET, Key: 'meta/doc.html' }).promise();
		expect(head.Metadata).toEqual({ author: 'Ada', 'client-side-key': 'abc123' });
		await rejects(s3.getObject({ Bucket: BUCKET, Key: 'meta/none' }).promise(), 404, 'NoSuchKey');
		await rejects(s3.headObject({ Bucket: BUCKET, Key: 'meta/none' }).promise(), 404, 'NotFound');
	});

	test('bucket ACL get/put', async () => {
		await s3.createBucket({ Bucket: 'sdk-acl' }).promise();
		let acl = await s3.getBucketAcl({ Bucket: 'sdk-acl' }).promise();
		expect(acl.Owner).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
		expect(acl.Grants).toEqual([
			{
				Grantee: { Type: 'CanonicalUser', ID: 'vendor-test', DisplayName: 'vendor-test' },
				Permission: 'FULL_CONTROL',
			},
		]);
		await s3.putBucketAcl({ Bucket: 'sdk-acl', ACL: 'public-read' }).promise();
		acl = await s3.getBucketAcl({ Bucket: 'sdk-acl' }).promise();
		expect(acl.Grants[1]).toEqual({
			Grantee: { Type: 'Group', URI: 'http://acs.amazonaws.com/groups/global/AllUsers' },
			Permission: 'READ',
		});
		// anonymous listing now allowed; anonymous reading of a private object is not
		await s3.putObject({ Bucket: 'sdk-acl', Key: 'private.txt', Body: 'p' }).promise();
		await s3
			.putObject({ Bucket: 'sdk-acl', Key: 'public.txt', Body: 'pub', ACL: 'public-read' })
			.promise();
		expect((await fetch(`${emu.url}/sdk-acl`)).status).toBe(200);
		expect((await fetch(`${emu.url}/sdk-acl/private.txt`)).status).toBe(403);
		const pub = await fetch(`${emu.url}/sdk-acl/public.txt`);
		expect([pub.status, await pub.text()]).toEqual([200, 'pub']);
	});

	test('listObjects with prefix, delimiter and marker paging', async () => {
		const keys = [];
		for (let i = 0; i < 25; i++) keys.push(`paging/${String(i).padStart(2, '0')}.txt`);
		for (let i = 0; i < 5; i++) keys.push(`paging/sub${i}/a.txt`, `paging/sub${i}/b.txt`);
		await Promise.all(
			keys.map((Key) => s3.putObject({ Bucket: BUCKET, Key, Body: Key }).promise()),
		);
		// all keys, 7 per page
		const seen = [];
		let Marker;
		let pages = 0;
		for (;;) {
			const r = await s3
				.listObjects({ Bucket: BUCKET, Prefix: 'paging/', MaxKeys: 7, Marker })
				.promise();
			seen.push(...r.Contents.map((c) => c.Key));
			pages++;
			if (!r.IsTruncated) break;
			expect(r.NextMarker).toBe(r.Contents[r.Contents.length - 1].Key);
			Marker = r.NextMarker;
		}
		expect(seen).toEqual([...keys].sort());
		expect(pages).toBe(5);
		// with a delimiter, 4 entries per page: 25 keys + 5 common prefixes
		const entries = [];
		Marker = undefined;
		for (;;) {
			const r = await s3
				.listObjects({ Bucket: BUCKET, Prefix: 'paging/', Delimiter: '/', MaxKeys: 4, Marker })
				.promise();
			entries.push(...r.Contents.map((c) => c.Key), ...r.CommonPrefixes.map((p) => p.Prefix));
			if (!r.IsTruncated) break;
			Marker = r.NextMarker;
		}
		expect(entries.sort()).toEqual(
			[
				...keys.filter((k) => !k.includes('/sub')),
				...[0, 1, 2, 3, 4].map((i) => `paging/sub${i}/`),
			].sort(),
		);
	});

	test('multipart: create, upload parts, list parts (paged), complete; abort', async () => {
		const Key = 'multi/part file+.bin';
		const { UploadId } = await s3
			.createMultipartUpload({
				Bucket: BUCKET,
				Key,
				ContentType: 'application/x-parts',
				Metadata: { origin: 'sdk' },
			})
			.promise();
		const parts = [
			crypto.randomBytes(5 * 1024 * 1024),
			crypto.randomBytes(5 * 1024 * 1024),
			crypto.randomBytes(12345),
		];
		const done = [];
		for (let i = 0; i < parts.length; i++) {
			const r = await s3
				.uploadPart({ Bucket: BUCKET, Key, UploadId, PartNumber: i + 1, Body: parts[i] })
				.promise();
			expect(r.ETag).toBe(`"${md5hex(parts[i])}"`);
			done.push({ PartNumber: i + 1, ETag: r.ETag });
		}
		const p1 = await s3.listParts({ Bucket: BUCKET, Key, UploadId, MaxParts: 2 }).promise();
		expect(p1.IsTruncated).toBe(true);
		expect(p1.Parts.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
			[1, parts[0].length, done[0].ETag],
			[2, parts[1].length, done[1].ETag],
		]);
		const p2 = await s3
			.listParts({
				Bucket: BUCKET,
				Key,
				UploadId,
				PartNumberMarker: String(p1.NextPartNumberMarker),
			})
			.promise();
		expect(p2.Parts.map((p) => p.PartNumber)).toEqual([3]);
		expect(p2.IsTruncated).toBe(false);
		const result = await s3
			.completeMultipartUpload({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: done } })
			.promise();
		expect(result.ETag).toBe(multipartEtag(parts));
		expect(result.Key).toBe(Key);
		const got = await s3.getObject({ Bucket: BUCKET, Key }).promise();
		expect(md5hex(got.Body)).toBe(md5hex(Buffer.concat(parts)));
		expect(got.ContentType).toBe('application/x-parts');
		expect(got.Metadata).toEqual({ origin: 'sdk' });

		const ab = await s3.createMultipartUpload({ Bucket: BUCKET, Key: 'multi/aborted' }).promise();
		await s3
			.uploadPart({
				Bucket: BUCKET,
				Key: 'multi/aborted',
				UploadId: ab.UploadId,
				PartNumber: 1,
				Body: 'x',
			})
			.promise();
		await s3
			.abortMultipartUpload({ Bucket: BUCKET, Key: 'multi/aborted', UploadId: ab.UploadId })
			.promise();
		await rejects(
			s3.listParts({ Bucket: BUCKET, Key: 'multi/aborted', UploadId: ab.UploadId }).promise(),
			404,
			'NoSuchUpload',
		);
		await rejects(
			s3
				.completeMultipartUpload({
					Bucket: BUCKET,
					Key,
					UploadId: 'no-such-upload',
					MultipartUpload: { Parts: done },
				})
				.promise(),
			404,
			'NoSuchUpload',
		);
		const res = await fetch(`${emu.url}/__emulator/storage/uploads`);
		expect((await res.json()).uploads).toEqual([]);
	});

	test('getSignedUrl GET and PUT used with plain fetch; expired URL rejected', async () => {
		await s3
			.putObject({ Bucket: BUCKET, Key: 'signed/hello world.txt', Body: 'signed hello' })
			.promise();
		const getUrl = s3.getSignedUrl('getObject', {
			Bucket: BUCKET,
			Key: 'signed/hello world.txt',
			Expires: 120,
		});
		expect(getUrl).toContain('AWSAccessKeyId=VENDORTESTKEY');
		const got = await fetch(getUrl);
		expect([got.status, await got.text()]).toEqual([200, 'signed hello']);

		const putUrl = s3.getSignedUrl('putObject', {
			Bucket: BUCKET,
			Key: 'signed/up+loaded.bin',
			Expires: 120,
			ContentType: 'application/octet-stream',
		});
		const put = await fetch(putUrl, {
			method: 'PUT',
			body: new Uint8Array([9, 8, 7]),
			headers: { 'Content-Type': 'application/octet-stream' },
		});
		expect(put.status).toBe(200);
		const back = await s3.getObject({ Bucket: BUCKET, Key: 'signed/up+loaded.bin' }).promise();
		expect([...back.Body]).toEqual([9, 8, 7]);

		emu.clock.advance(121 * 1000);
		try {
			const late = await fetch(getUrl);
			expect(late.status).toBe(403);
			expect(await late.text()).toMatch(/<Code>AccessDenied<\/Code>/);
		} finally {
			emu.clock.advancedMs = 0;
		}
	});

	test('conditional GETs and ranges', async () => {
		const Body = Buffer.from('abcdefghijklmnopqrstuvwxyz');
		const { ETag } = await s3.putObject({ Bucket: BUCKET, Key: 'cond/alpha', Body }).promise();
		const head = await s3.headObject({ Bucket: BUCKET, Key: 'cond/alpha' }).promise();
		await rejects(
			s3.getObject({ Bucket: BUCKET, Key: 'cond/alpha', IfNoneMatch: ETag }).promise(),
			304,
			'NotModified',
		);
		await rejects(
			s3
				.getObject({ Bucket: BUCKET, Key: 'cond/alpha', IfModifiedSince: head.LastModified })
				.promise(),
			304,
			'NotModified',
		);
		await rejects(
			s3.getObject({ Bucket: BUCKET, Key: 'cond/alpha', IfMatch: '"deadbeef"' }).promise(),
			412,
			'PreconditionFailed',
		);
		const older = new Date(head.LastModified.getTime() - 3600 * 1000);
		await rejects(
			s3.getObject({ Bucket: BUCKET, Key: 'cond/alpha', IfUnmodifiedSince: older }).promise(),
			412,
			'PreconditionFailed',
		);
		expect(
			(
				await s3
					.getObject({ Bucket: BUCKET, Key: 'cond/alpha', IfMatch: ETag, IfModifiedSince: older })
					.promise()
			).Body.toString(),
		).toBe(Body.toString());

		const r1 = await s3
			.getObject({ Bucket: BUCKET, Key: 'cond/alpha', Range: 'bytes=2-5' })
			.promise();
		expect([r1.Body.toString(), r1.ContentRange, r1.ContentLength]).toEqual([
			'cdef',
			'bytes 2-5/26',
			4,
		]);
		const r2 = await s3
			.getObject({ Bucket: BUCKET, Key: 'cond/alpha', Range: 'bytes=-4' })
			.promise();
		expect(r2.Body.toString()).toBe('wxyz');
		await rejects(
			s3.getObject({ Bucket: BUCKET, Key: 'cond/alpha', Range: 'bytes=26-' }).promise(),
			416,
			'InvalidRange',
		);
	});

	test('upload() of a 20 MiB buffer (managed multipart with Expect: 100-continue)', async () => {
		const Body = crypto.randomBytes(20 * 1024 * 1024);
		const r = await s3
			.upload(
				{ Bucket: BUCKET, Key: 'big/twenty.bin', Body },
				{ partSize: 5 * 1024 * 1024, queueSize: 4 },
			)
			.promise();
		expect(r.ETag).toMatch(/-4"$/);
		const head = await s3.headObject({ Bucket: BUCKET, Key: 'big/twenty.bin' }).promise();
		expect(head.ContentLength).toBe(Body.length);
		const got = await s3.getObject({ Bucket: BUCKET, Key: 'big/twenty.bin' }).promise();
		expect(md5hex(got.Body)).toBe(md5hex(Body));
	});

	test('a wrong secret is SignatureDoesNotMatch to aws-sdk as well', async () => {
		const bad = new AWS.S3({
			endpoint: emu.url,
			s3ForcePathStyle: true,
			signatureVersion: 's3',
			region: 'us-east-1',
			maxRetries: 0,
			accessKeyId: KEY.accessKeyId,
			secretAccessKey: 'wrong',
		});
		await rejects(bad.listObjects({ Bucket: BUCKET }).promise(), 403, 'SignatureDoesNotMatch');
		const unknown = new AWS.S3({
			endpoint: emu.url,
			s3ForcePathStyle: true,
			signatureVersion: 's3',
			region: 'us-east-1',
			maxRetries: 0,
			accessKeyId: 'NOBODY',
			secretAccessKey: 'x',
		});
		await rejects(unknown.listObjects({ Bucket: BUCKET }).promise(), 403, 'InvalidAccessKeyId');
	});

	test('fault switch: UploadPart errors reach aws-sdk as SlowDown / InternalError', async () => {
		emu.faults.set({ errorRate: 1, errorOps: ['UploadPart'] });
		try {
			const { UploadId } = await s3
				.createMultipartUpload({ Bucket: BUCKET, Key: 'faulty' })
				.promise();
			const codes = new Set();
			for (let i = 0; i < 6; i++) {
				try {
					await s3
						.uploadPart({ Bucket: BUCKET, Key: 'faulty', UploadId, PartNumber: 1, Body: 'x' })
						.promise();
				} catch (e) {
					codes.add(`${e.statusCode} ${e.code}`);
				}
			}
			for (const c of codes) expect(['503 SlowDown', '500 InternalError']).toContain(c);
			const parts = await s3.listParts({ Bucket: BUCKET, Key: 'faulty', UploadId }).promise();
			expect(parts.Parts).toEqual([]);
			await s3.abortMultipartUpload({ Bucket: BUCKET, Key: 'faulty', UploadId }).promise();
		} finally {
			emu.faults.reset();
		}
	});
});

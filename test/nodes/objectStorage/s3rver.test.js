'use strict';
/**
 * The same node and credential with the advanced settings AWS / x-amz- / AWSAccessKeyId against
 * the npm s3rver server, an independent S3 implementation that checks V2 signatures itself.
 */
const fs = require('node:fs');
const S3rver = require('s3rver');
const { n8n, NODE, MiB, rl, readBinary, binaryMd5, md5, tmpDir, writeRandomFile } = require('../../support/storage');

let server;
let dir;
let endpoint;
const store = new n8n.CredentialStore();
let credentials;

const AWS_WORDS = { advanced: true, schemeWord: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId', bucketPath: 'noSlash' };

beforeAll(async () => {
	dir = tmpDir('vendor-s3rver-');
	server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
	const { port } = await server.run();
	endpoint = `http://127.0.0.1:${port}`;
	credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint, accessKey: 'S3RVER', accessSecret: 'S3RVER', ...AWS_WORDS }) };
});

afterAll(async () => {
	await server.close();
	fs.rmSync(dir, { recursive: true, force: true });
});

function awsSdk() {
	const AWS = require('aws-sdk');
	return new AWS.S3({ endpoint, s3ForcePathStyle: true, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', signatureVersion: 'v2', region: 'us-east-1' });
}

const run = (parameters, opts = {}) => n8n.runNode(NODE, parameters, { credentials, store, ...opts });
async function ok(parameters, opts) {
	const { items, error } = await run(parameters, opts);
	if (error) throw new Error(`${parameters.resource}/${parameters.operation} failed: ${error.message} (${error.description})`);
	return items;
}

const KEYS = ['hello.txt', 'ünïcødé/日本語 file.txt', 'a+b=c:d%e?f#g~h', 'deep/er/path/x.csv'];

test('create a bucket and find it From list', async () => {
	const [created] = await ok({ resource: 'bucket', operation: 'create', bucketName: 's3rver-bucket' });
	expect(created.json).toMatchObject({ bucket: 's3rver-bucket', created: true });
	const found = await n8n.listSearch(NODE, 'searchBuckets', { credentials: { vendorObjectStorageApi: { endpoint, accessKey: 'S3RVER', accessSecret: 'S3RVER', ...AWS_WORDS } } });
	expect(found.results).toEqual([{ name: 's3rver-bucket', value: 's3rver-bucket' }]);
});

test.each(KEYS.map((k) => [k]))('upload and download %j with x-amz- metadata', async (key) => {
	const content = `s3rver says ${key}`;
	const [up] = await ok({
		resource: 'object',
		operation: 'upload',
		bucket: rl('s3rver-bucket'),
		key,
		binaryData: false,
		fileContent: content,
		additionalFields: { contentType: 'text/plain', metadata: { values: [{ name: 'origin', value: 'n8n' }] } },
	});
	expect(up.json).toMatchObject({ size: Buffer.byteLength(content), etag: md5(Buffer.from(content)) });
	const [down] = await ok({ resource: 'object', operation: 'download', bucket: rl('s3rver-bucket'), key });
	expect((await readBinary(down.binary.data)).toString()).toBe(content);
	expect(down.json).toMatchObject({ contentType: 'text/plain', metadata: { origin: 'n8n' }, etag: md5(Buffer.from(content)) });
});

test('list: Return All pages by the last key where s3rver sends no NextMarker; folders with a delimiter', async () => {
	const all = await ok({ resource: 'bucket', operation: 'listObjects', bucket: rl('s3rver-bucket'), returnAll: true, options: { maxKeys: 2 } });
	expect(all.map((i) => i.json.key).sort()).toEqual([...KEYS].sort());
	expect(all[0].json).toMatchObject({ type: 'object', storageClass: 'STANDARD' });
	// The node lists what aws-sdk lists from the same server. (s3rver 3.7 leaves out "deep/": its
	// file store reports a common prefix only for a folder that holds an object directly.)
	const top = await ok({ resource: 'bucket', operation: 'listObjects', bucket: rl('s3rver-bucket'), returnAll: true, options: { delimiter: '/' } });
	const sdk = await awsSdk().listObjects({ Bucket: 's3rver-bucket', Delimiter: '/' }).promise();
	expect(top.filter((i) => i.json.type === 'object').map((i) => i.json.key)).toEqual(sdk.Contents.map((c) => c.Key));
	expect(top.filter((i) => i.json.type === 'folder').map((i) => i.json.prefix)).toEqual(sdk.CommonPrefixes.map((c) => c.Prefix));
	expect(top.map((i) => i.json.prefix || i.json.key)).toEqual(['a+b=c:d%e?f#g~h', 'hello.txt', 'ünïcødé/']);
});

test('presigned GET with AWSAccessKeyId works with plain fetch', async () => {
	const [pre] = await ok({ resource: 'object', operation: 'getPresignedUrl', bucket: rl('s3rver-bucket'), key: KEYS[1], expiresIn: 120 });
	expect(pre.json.url).toMatch(/\?AWSAccessKeyId=S3RVER&Expires=\d+&Signature=/);
	const res = await fetch(pre.json.url);
	expect(res.status).toBe(200);
	expect(await res.text()).toBe(`s3rver says ${KEYS[1]}`);
});

test('a file from the binary store up to the Multipart Threshold: one streamed PUT with Content-MD5, ETag its MD5', async () => {
	const f = writeRandomFile(dir, 'single.bin', 12 * MiB, 12);
	const [up] = await ok(
		{ resource: 'object', operation: 'upload', bucket: rl('s3rver-bucket'), key: 'single.bin' },
		{ binaryInput: [{ binary: { data: { path: f.file, fileName: 'single.bin', mimeType: 'application/octet-stream' } } }] },
	);
	expect(up.json).toMatchObject({ size: 12 * MiB, partCount: 1, multipart: false, md5: f.md5, etag: f.md5 });
	const [down] = await ok({ resource: 'object', operation: 'download', bucket: rl('s3rver-bucket'), key: 'single.bin' });
	expect(await binaryMd5(down.binary.data)).toEqual({ md5: f.md5, size: 12 * MiB });
	await ok({ resource: 'object', operation: 'delete', bucket: rl('s3rver-bucket'), key: 'single.bin' });
	fs.rmSync(f.file);
});

test('a streamed multipart upload from the binary store', async () => {
	const f = writeRandomFile(dir, 'multi.bin', 11 * MiB, 11);
	const [up] = await ok(
		{ resource: 'object', operation: 'upload', bucket: rl('s3rver-bucket'), key: 'multi.bin', options: { multipartThreshold: 10, partSize: 5 } },
		{ binaryInput: [{ binary: { data: { path: f.file, fileName: 'multi.bin', mimeType: 'application/octet-stream' } } }] },
	);
	// s3rver gives a completed multipart object the MD5 of its content as ETag (S3 gives "<md5 of part MD5s>-3")
	expect(up.json).toMatchObject({ size: 11 * MiB, partCount: 3, multipart: true, etag: f.md5 });
	const [down] = await ok({ resource: 'object', operation: 'download', bucket: rl('s3rver-bucket'), key: 'multi.bin' });
	expect(await binaryMd5(down.binary.data)).toEqual({ md5: f.md5, size: 11 * MiB });
	await ok({ resource: 'object', operation: 'delete', bucket: rl('s3rver-bucket'), key: 'multi.bin' });
});

test('delete objects; a wrong secret is refused by s3rver', async () => {
	for (const key of KEYS) {
		const [gone] = await ok({ resource: 'object', operation: 'delete', bucket: rl('s3rver-bucket'), key });
		expect(gone.json).toEqual({ deleted: true, bucket: 's3rver-bucket', key });
	}
	const left = await ok({ resource: 'bucket', operation: 'listObjects', bucket: rl('s3rver-bucket'), returnAll: true });
	expect(left).toEqual([]);
	const wrong = { vendorObjectStorageApi: { endpoint, accessKey: 'S3RVER', accessSecret: 'not-the-secret', ...AWS_WORDS } };
	const { error } = await n8n.runNode(NODE, { resource: 'bucket', operation: 'listObjects', bucket: rl('s3rver-bucket') }, { credentials: wrong });
	expect(error.context.serviceCode).toBe('SignatureDoesNotMatch');
	expect(JSON.stringify(error)).not.toContain('not-the-secret');
});

describe('issue 27 against s3rver: Copy, Move, Get Info, Folder Delete', () => {
	const id = (key) => ({ __rl: true, mode: 'id', value: key });
	const sdkKeys = async (bucket) => ((await awsSdk().listObjects({ Bucket: bucket }).promise()).Contents || []).map((c) => c.Key).sort();

	beforeAll(async () => {
		const s3 = awsSdk();
		await s3.createBucket({ Bucket: 's3rver-other' }).promise();
		await s3.putObject({ Bucket: 's3rver-bucket', Key: 'src/small.txt', Body: 'small copy', ContentType: 'text/plain', Metadata: { origin: 'sdk' } }).promise();
		await s3.putObject({ Bucket: 's3rver-bucket', Key: 'src/empty', Body: '' }).promise();
		for (const key of ['photos/1.jpg', 'photos/2.jpg', 'photos/sub/3.jpg', 'photos-old/keep.jpg', 'photos.txt']) await s3.putObject({ Bucket: 's3rver-bucket', Key: key, Body: key }).promise();
	});

	test('Copy keeps type and x-amz-meta- metadata and checks the MD5', async () => {
		const [{ json: c }] = await ok({ resource: 'object', operation: 'copy', bucket: rl('s3rver-bucket'), key: id('src/small.txt'), destinationBucket: rl('s3rver-other'), destinationKey: 'copied/small.txt' });
		expect(c).toMatchObject({ size: 10, md5: md5(Buffer.from('small copy')), sourceVerified: 'etagIsMd5', copyVerified: 'etagIsMd5' });
		const head = await awsSdk().headObject({ Bucket: 's3rver-other', Key: 'copied/small.txt' }).promise();
		expect(head).toMatchObject({ ContentType: 'text/plain', Metadata: { origin: 'sdk' }, ContentLength: 10 });
	});

	test('Copy of a multipart-sized object in parallel ranged parts', async () => {
		const f = writeRandomFile(dir, 'copy-src.bin', 11 * MiB, 27);
		await awsSdk().putObject({ Bucket: 's3rver-bucket', Key: 'big/src.bin', Body: fs.readFileSync(f.file) }).promise();
		const [{ json: c }] = await ok({ resource: 'object', operation: 'copy', bucket: rl('s3rver-bucket'), key: id('big/src.bin'), destinationBucket: rl('s3rver-bucket'), destinationKey: 'big/copy.bin', options: { partSize: 5, partConcurrency: 3 } });
		expect(c).toMatchObject({ size: 11 * MiB, md5: f.md5, multipart: true, partCount: 3, sourceVerified: 'etagIsMd5' });
		const [down] = await ok({ resource: 'object', operation: 'download', bucket: rl('s3rver-bucket'), key: 'big/copy.bin' });
		expect(await binaryMd5(down.binary.data)).toEqual({ md5: f.md5, size: 11 * MiB });
	}, 120000);

	test('Get Info of an object and of an empty object', async () => {
		const [{ json: info }] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('s3rver-bucket'), key: id('src/small.txt') });
		expect(info).toMatchObject({ size: 10, etag: md5(Buffer.from('small copy')), contentType: 'text/plain', metadata: { origin: 'sdk' } });
		const [{ json: empty }] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl('s3rver-bucket'), key: id('src/empty') });
		expect(empty).toMatchObject({ size: 0, etag: md5(Buffer.alloc(0)) });
		// s3rver answers a range of an empty object with 206 "bytes 0-0/0" and then closes: read as empty
		const [{ json: copied }] = await ok({ resource: 'object', operation: 'copy', bucket: rl('s3rver-bucket'), key: id('src/empty'), destinationBucket: rl('s3rver-other'), destinationKey: 'copied/empty' });
		expect(copied).toMatchObject({ size: 0, md5: md5(Buffer.alloc(0)), sourceVerified: 'etagIsMd5', copyVerified: 'etagIsMd5' });
		expect((await awsSdk().headObject({ Bucket: 's3rver-other', Key: 'copied/empty' }).promise()).ContentLength).toBe(0);
	});

	test('Move deletes the source after the checked copy', async () => {
		const [{ json: m }] = await ok({ resource: 'object', operation: 'move', bucket: rl('s3rver-bucket'), key: id('src/small.txt'), destinationBucket: rl('s3rver-bucket'), destinationKey: 'processed/small.txt' });
		expect(m).toMatchObject({ sourceDeleted: true, size: 10 });
		const keys = await sdkKeys('s3rver-bucket');
		expect(keys).toContain('processed/small.txt');
		expect(keys).not.toContain('src/small.txt');
	});

	test('Folder Delete removes photos/ and keeps photos-old/ and photos.txt', async () => {
		const [{ json: d }] = await ok({ resource: 'folder', operation: 'delete', bucket: rl('s3rver-bucket'), folder: 'photos', safetyLimit: 10, options: { concurrency: 4 } });
		expect(d).toMatchObject({ count: 3, deleted: 3, failed: 0 });
		const keys = await sdkKeys('s3rver-bucket');
		expect(keys.filter((k) => k.startsWith('photos'))).toEqual(['photos-old/keep.jpg', 'photos.txt']);
	});
});

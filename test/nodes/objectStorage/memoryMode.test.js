'use strict';
/**
 * Binaries held in memory (n8n's "default" binary mode, where items carry their data): uploads
 * above the multipart threshold go in parallel parts cut from the buffer, smaller ones in one PUT.
 * (Jest gives each test file its own copy of process.env, so the mode stays in this file.)
 */
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'default';

const crypto = require('node:crypto');
const { startVendor } = require('../../support/vendor');
const { NODE, MiB, rl, md5 } = require('../../support/storage');

let v;
beforeAll(async () => {
	v = await startVendor();
	await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'memory-mode' });
});
afterAll(() => v.close());

const input = (buf) => ({ binaryInput: [{ binary: { data: { base64: buf.toString('base64'), fileName: 'f.bin', mimeType: 'application/octet-stream' } } }] });

test('an in-memory binary above the threshold is cut into parts; below it, one PUT; downloads come back in memory', async () => {
	const big = crypto.randomBytes(11 * MiB);
	const [above] = await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('memory-mode'), key: 'big.bin', options: { multipartThreshold: 8, partSize: 5 } }, input(big));
	expect(above).toMatchObject({ size: 11 * MiB, partCount: 3, multipart: true, partSize: 5 * MiB });
	const [below] = await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('memory-mode'), key: 'small.bin' }, input(big.subarray(0, MiB)));
	expect(below).toMatchObject({ size: MiB, partCount: 1, multipart: false, etag: md5(big.subarray(0, MiB)) });

	const { items } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl('memory-mode'), key: 'big.bin' });
	const binary = items[0].binary.data;
	expect(binary.id).toBeUndefined();
	expect(md5(Buffer.from(binary.data, 'base64'))).toBe(md5(big));
});

'use strict';
/**
 * Object storage under network faults (issue 14): bounded waits with messages that name the
 * request, the node's own messages kept (not n8n's generic ones), downloads that stall or break
 * off never delivered as files, Initiate Multipart Upload never repeated after an answer that
 * leaves open whether the upload was created. The emulator's fault rules play the service's
 * side; two tiny servers play what it cannot (a body that stalls mid-way, a peer that stops
 * reading). Timeouts are configured at 1 s; no test asserts a duration.
 */
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { startVendor } = require('../../support/vendor');
const { ROOT } = require('../../support/n8n');
const { n8n, NODE, rl, readBinary } = require('../../support/storage');

let v;
beforeAll(async () => {
	v = await startVendor();
	await ok({ resource: 'bucket', operation: 'create', bucketName: 'fault-bucket' });
	await ok({ resource: 'object', operation: 'upload', bucket: rl('fault-bucket'), key: 'big.bin', binaryData: false, fileContent: 'x'.repeat(200 * 1024) });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [] });
	await v.control('POST', '/stats/reset', {});
});

const ok = (parameters, opts) => v.ok(NODE, parameters, opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const count = async (op) => ((await v.control('GET', '/stats')).storage.requests[op] ?? 0);
const uploads = async () => (await v.control('GET', '/storage/uploads')).uploads;

/** A credential with 1 s timeouts (Advanced Protocol Settings), on the emulator or another endpoint. */
function quick(endpoint = v.url, extra = {}) {
	const store = new n8n.CredentialStore();
	const ref = store.add('vendorObjectStorageApi', {
		endpoint,
		accessKey: 'VENDORTESTKEY',
		accessSecret: 'vendor-test-secret',
		advanced: true,
		responseTimeout: 1,
		idleTimeout: 1,
		...extra,
	});
	return { credentials: { vendorObjectStorageApi: ref }, store };
}

async function listen(server) {
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${server.address().port}`;
}

describe('timeouts', () => {
	test('defaults without Advanced Protocol Settings: 30 s to the first byte, 300 s for Complete, 120 s idle', () => {
		const { storageSettings } = require(path.join(ROOT, 'dist/nodes/shared/storage/auth.js'));
		const s = storageSettings({ endpoint: 'http://x', accessKey: 'k', accessSecret: 's' });
		expect([s.responseTimeoutMs, s.completeTimeoutMs, s.idleTimeoutMs]).toEqual([30e3, 300e3, 120e3]);
		const custom = storageSettings({ endpoint: 'http://x', advanced: true, responseTimeout: 2, idleTimeout: 0.5 });
		expect([custom.responseTimeoutMs, custom.idleTimeoutMs]).toEqual([2000, 500]);
	});

	test('a service that never answers a read: the download ends with the timeout error naming the request, after the usual retries', async () => {
		await inject({ op: 'GetObject', kind: 'hang' });
		const error = await fails({ resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'big.bin' }, quick());
		expect(error.message).toBe('Get Object fault-bucket/big.bin timed out: no answer within 1 s');
		expect(error.description).toMatch(/Response Timeout is set in the credential under Advanced Protocol Settings \(1 s now\).*It was tried 3 times\. Running it again is safe\./);
		expect(await count('GetObject')).toBe(3);
	});

	test('a service that takes the body of a PUT but never answers: timeout naming Put Object', async () => {
		await inject({ op: 'PutObject', kind: 'hang' });
		const error = await fails({ resource: 'object', operation: 'upload', bucket: rl('fault-bucket'), key: 'hung.txt', binaryData: false, fileContent: 'never stored' }, quick());
		expect(error.message).toBe('Put Object fault-bucket/hung.txt timed out: no answer within 1 s');
		expect(await count('PutObject')).toBe(3);
	});

	test('a list that never answers fails the same way (List Objects)', async () => {
		await inject({ op: 'ListObjects', kind: 'hang', times: 3 });
		const error = await fails({ resource: 'bucket', operation: 'listObjects', bucket: rl('fault-bucket') }, quick());
		expect(error.message).toBe('List Objects fault-bucket timed out: no answer within 1 s');
	});

	test('a hang on one try only: the retry succeeds', async () => {
		await inject({ op: 'GetObject', kind: 'hang', times: 1 });
		const { items, error } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'big.bin' }, quick());
		expect(error).toBeUndefined();
		expect((await readBinary(items[0].binary.data)).length).toBe(200 * 1024);
		expect(await count('GetObject')).toBe(2);
	});

	test('a peer that stops reading the body of an upload: the idle timeout says no data was taken in', async () => {
		const sockets = [];
		const server = net.createServer((socket) => {
			sockets.push(socket);
			socket.pause(); // accept the connection, never read: the body backs up
		});
		const url = await listen(server);
		try {
			const body = 'y'.repeat(48 * 1024 * 1024);
			const error = await fails(
				{ resource: 'object', operation: 'upload', bucket: rl('fault-bucket'), key: 'stuck.bin', binaryData: false, fileContent: body, options: { multipartThreshold: 1024 } },
				quick(url),
			);
			expect(error.message).toBe('Put Object fault-bucket/stuck.bin timed out: the service took in no data for 1 s while the request body was sent');
			expect(error.description).toMatch(/Idle Timeout is set in the credential.*It was tried 3 times/);
		} finally {
			for (const s of sockets) s.destroy();
			server.close();
		}
	});

	test('a download whose body stalls mid-way fails with the idle timeout, never as a short file', async () => {
		const server = http.createServer((req, res) => {
			res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 204800, etag: '"abc"' });
			res.write(Buffer.alloc(65536, 1)); // then nothing more
		});
		const url = await listen(server);
		try {
			const { items, error } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'stall.bin' }, quick(url));
			expect(items).toEqual([]);
			expect(error.message).toBe('Get Object fault-bucket/stall.bin timed out: no data for 1 s after 65536 of 204800 bytes of the answer');
			expect(error.description).toMatch(/^The answer is incomplete and was not used\. The Idle Timeout is set in the credential/);
		} finally {
			server.closeAllConnections();
			server.close();
		}
	});
});

describe('connections lost', () => {
	test('resetMidBody: the download fails naming the request and the bytes received; no file is delivered', async () => {
		await inject({ op: 'GetObject', kind: 'resetMidBody', afterBytes: 65536 });
		const { items, error } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'big.bin' });
		expect(items).toEqual([]);
		expect(error.message).toMatch(/^Get Object fault-bucket\/big\.bin broke off after 65536 of 204800 bytes of the answer \((ECONNRESET|aborted)\)$/);
		expect(error.description).toMatch(/incomplete and was not used.*Running it again is safe/);
	});

	test('resetMidBody with Continue On Fail: an error item with the description, paired, and the next item still downloads', async () => {
		await inject({ op: 'GetObject', kind: 'resetMidBody', times: 1 });
		const { items, error } = await v.run(
			NODE,
			{ resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'big.bin' },
			{ input: [{}, {}], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.error).toMatch(/^Get Object fault-bucket\/big\.bin broke off after/);
		expect(items[0].json.description).toMatch(/was not used/);
		expect(items[0].binary).toBeUndefined();
		expect((await readBinary(items[1].binary.data)).length).toBe(200 * 1024);
	});

	test("a reset connection: the node's own message stays the error's message (not n8n's generic text), with what is safe to do", async () => {
		await inject({ op: 'GetObject', kind: 'reset' });
		const error = await fails({ resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'big.bin' });
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Could not reach the object storage for Get Object fault-bucket/big.bin (ECONNRESET)');
		expect(error.message).not.toMatch(/closed unexpectedly/);
		expect(error.description).toMatch(/Check the credential's Endpoint \(http:\/\/127\.0\.0\.1:\d+\) and the network\. It was tried 3 times\. Running it again is safe\./);
		expect(await count('GetObject')).toBe(3);
	});

	test('a refused connection names the request too', async () => {
		const server = net.createServer();
		const url = await listen(server);
		server.close(); // nothing listens there now
		const error = await fails({ resource: 'bucket', operation: 'getAcl', bucket: rl('fault-bucket') }, quick(url));
		expect(error.message).toBe('Could not reach the object storage for Get Bucket ACL fault-bucket (ECONNREFUSED)');
	});

	test('Continue On Fail items carry the description of a service error', async () => {
		const { items } = await v.run(
			NODE,
			{ resource: 'object', operation: 'download', bucket: rl('fault-bucket'), key: 'missing.bin' },
			{ continueOnFail: true },
		);
		expect(items[0].json).toEqual({ error: 'The object "missing.bin" does not exist in the bucket "fault-bucket"', description: expect.stringMatching(/keys are case-sensitive.*NoSuchKey.*X-Trans-Id/) });
	});
});

describe('Initiate Multipart Upload is not repeated after an answer that leaves open whether it was performed', () => {
	test('afterCreate500: sent once; the error says an upload may be left and how to remove it', async () => {
		await inject({ op: 'InitiateMultipartUpload', kind: 'afterCreate500' });
		const before = (await uploads()).length;
		const error = await fails({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('fault-bucket'), key: 'orphan.bin' });
		expect(await count('InitiateMultipartUpload')).toBe(1);
		expect(error.context.serviceCode).toBe('InternalError');
		expect(error.description).toMatch(/Initiate Multipart Upload fault-bucket\/orphan\.bin was sent once and not repeated, because the service may have performed it before failing\./);
		expect(error.description).toMatch(/may have created a multipart upload for "orphan\.bin".*offers no way to list uploads.*Multipart Upload > Abort and its upload ID/);
		// the service did create one: exactly one, and the remedy the message names removes it
		const left = (await uploads()).filter((u) => u.key === 'orphan.bin');
		expect((await uploads()).length).toBe(before + 1);
		expect(left).toHaveLength(1);
		await inject();
		await ok({ resource: 'multipartUpload', operation: 'abort', bucket: rl('fault-bucket'), key: 'orphan.bin', uploadId: left[0].uploadId });
		expect((await uploads()).filter((u) => u.key === 'orphan.bin')).toEqual([]);
	});

	test('the automatic multipart upload of Upload: one Initiate, the same explanation', async () => {
		await inject({ op: 'InitiateMultipartUpload', kind: 'afterCreate500' });
		const error = await fails({
			resource: 'object',
			operation: 'upload',
			bucket: rl('fault-bucket'),
			key: 'auto-orphan.bin',
			binaryData: false,
			fileContent: 'z'.repeat(3 * 1024 * 1024),
			options: { multipartThreshold: 1, partSize: 1 },
		});
		expect(await count('InitiateMultipartUpload')).toBe(1);
		expect(error.description).toMatch(/may have created a multipart upload for "auto-orphan\.bin"/);
		const left = (await uploads()).filter((u) => u.key === 'auto-orphan.bin');
		expect(left).toHaveLength(1);
		await inject();
		await ok({ resource: 'multipartUpload', operation: 'abort', bucket: rl('fault-bucket'), key: 'auto-orphan.bin', uploadId: left[0].uploadId });
	});

	test('a hang on Initiate: one request, the timeout error says it was not repeated', async () => {
		await inject({ op: 'InitiateMultipartUpload', kind: 'hang' });
		const error = await fails({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('fault-bucket'), key: 'hang.bin' }, quick());
		expect(error.message).toBe('Initiate Multipart Upload fault-bucket/hang.bin timed out: no answer within 1 s');
		expect(error.description).toMatch(/sent once and not repeated/);
		expect(await count('InitiateMultipartUpload')).toBe(1);
	});

	test('SlowDown (the service did nothing) is retried for Initiate too', async () => {
		await inject({ op: 'InitiateMultipartUpload', kind: 'slowDown', times: 1 });
		const [init] = await ok({ resource: 'multipartUpload', operation: 'initiate', bucket: rl('fault-bucket'), key: 'slow.bin' });
		expect(await count('InitiateMultipartUpload')).toBe(2);
		expect((await uploads()).filter((u) => u.key === 'slow.bin').map((u) => u.uploadId)).toEqual([init.uploadId]);
		await ok({ resource: 'multipartUpload', operation: 'abort', bucket: rl('fault-bucket'), key: 'slow.bin', uploadId: init.uploadId });
	});

	test('Complete is repeated after a 500 (a repeat cannot make a second object)', async () => {
		await inject({ op: 'CompleteMultipartUpload', kind: 'http', status: 500, times: 1 });
		const [up] = await ok({
			resource: 'object',
			operation: 'upload',
			bucket: rl('fault-bucket'),
			key: 'complete-retry.bin',
			binaryData: false,
			fileContent: 'c'.repeat(3 * 1024 * 1024),
			options: { multipartThreshold: 1, partSize: 1 },
		});
		expect(up).toMatchObject({ multipart: true, partCount: 3 });
		expect(await count('CompleteMultipartUpload')).toBe(2);
	});

	test('Complete performed but answered 500: the upload is gone on the repeat, and the error says the object may exist', async () => {
		await inject({ op: 'CompleteMultipartUpload', kind: 'afterCreate500', times: 1 });
		const error = await fails({
			resource: 'object',
			operation: 'upload',
			bucket: rl('fault-bucket'),
			key: 'complete-lost.bin',
			binaryData: false,
			fileContent: 'd'.repeat(3 * 1024 * 1024),
			options: { multipartThreshold: 1, partSize: 1 },
		});
		expect(error.message).toMatch(/^The multipart upload of "complete-lost\.bin" failed: The multipart upload of "complete-lost\.bin" does not exist any more/);
		expect(error.description).toMatch(/already gone when the node aborted it: the Complete may have succeeded.*Check whether "complete-lost\.bin" exists/);
		const objects = (await v.control('GET', '/storage/objects?bucket=fault-bucket')).objects.map((o) => o.key);
		expect(objects).toContain('complete-lost.bin');
	});
});

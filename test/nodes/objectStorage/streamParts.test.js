'use strict';
/**
 * The part source of streamed uploads (helpers/transfer StreamParts): parts come out whole and
 * in order whatever the chunking, the chunks of a file stream are released (their ArrayBuffer
 * detached) as soon as they are copied and no other stream's are, a stream that fails fails
 * the part that needed it (never a short part), and close() releases the stream while a read
 * is pending. Plus the upload with Initiate sent while the first part
 * is read: a failed Initiate leaves nothing behind.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Readable } = require('node:stream');
const { StreamParts } = require('../../../dist/nodes/VendorObjectStorage/helpers/transfer.js');
const { n8n, NODE, MiB, rl, tmpDir, writeRandomFile, fileInput } = require('../../support/storage');
const { spawnEmulator } = require('../../../emulator/spawn');

const KiB = 1024;

/** A stream of `sizes` chunks of pseudo-random bytes that counts how many bytes were pulled. */
function counted(sizes, { failAfter } = {}) {
	const data = crypto.randomBytes(sizes.reduce((a, b) => a + b, 0));
	let offset = 0;
	let index = 0;
	const stats = { pulled: 0, destroyed: false };
	const stream = new Readable({
		highWaterMark: 1,
		read() {
			if (failAfter !== undefined && index === failAfter) return this.destroy(new Error('disk read failed'));
			if (index === sizes.length) return this.push(null);
			const chunk = data.subarray(offset, offset + sizes[index]);
			offset += sizes[index++];
			stats.pulled += chunk.length;
			this.push(chunk);
		},
		destroy(err, cb) {
			stats.destroyed = true;
			cb(err);
		},
	});
	return { stream, data, stats };
}

const tick = () => new Promise((r) => setImmediate(r));

async function allParts(source, partSize) {
	const buf = Buffer.allocUnsafe(partSize);
	const parts = [];
	for (;;) {
		const part = await source.next(() => buf);
		if (part.length === 0) break;
		parts.push(Buffer.from(part));
		if (source.ended) break;
	}
	return parts;
}

describe('StreamParts', () => {
	test.each([
		['chunks smaller than a part', [3, 5, 7, 1, 9, 4, 2].map((n) => n * KiB), 10 * KiB],
		['chunks larger than a part', [25, 31, 3].map((n) => n * KiB), 10 * KiB],
		['chunks of exactly a part', [10, 10, 10].map((n) => n * KiB), 10 * KiB],
		['one byte', [1], 10 * KiB],
	])('%s: whole parts in order, the last one short, ended right after it', async (_label, sizes, partSize) => {
		const { stream, data } = counted(sizes);
		const source = new StreamParts(stream, partSize);
		const parts = await allParts(source, partSize);
		expect(source.ended).toBe(true);
		expect(Buffer.concat(parts).equals(data)).toBe(true);
		for (const p of parts.slice(0, -1)) expect(p.length).toBe(partSize);
		expect(parts.at(-1).length).toBe(data.length - (parts.length - 1) * partSize);
		expect((await source.next(() => Buffer.alloc(partSize))).length).toBe(0);
	});

	describe('consumed chunks are released at once (ArrayBuffer transfer)', () => {
		// Node 20 has no ArrayBuffer.prototype.transfer (n8n runs on 24): stand one in that detaches
		// the buffer the same way, so that these tests run the release path on any runtime.
		const proto = Object.getPrototypeOf(Buffer.alloc(1).buffer);
		const native = Object.getOwnPropertyDescriptor(proto, 'transfer');
		beforeAll(() => {
			if (!native) {
				Object.defineProperty(proto, 'transfer', {
					configurable: true,
					writable: true,
					value(length = 0) {
						structuredClone(this, { transfer: [this] });
						return new ArrayBuffer(length);
					},
				});
			}
		});
		afterAll(() => {
			if (!native) delete proto.transfer;
		});

		test('a file stream: every chunk is detached once copied; the parts are whole and in order', async () => {
			const dir = tmpDir('vendor-parts-');
			try {
				const f = writeRandomFile(dir, 'chunks.bin', 200 * KiB + 5, 3);
				const stream = fs.createReadStream(f.file, { highWaterMark: 16 * KiB });
				const seen = [];
				const push = stream.push.bind(stream);
				stream.push = (chunk, ...rest) => {
					if (chunk) seen.push(chunk);
					return push(chunk, ...rest);
				};
				const partSize = 40 * KiB;
				const parts = await allParts(new StreamParts(stream, partSize), partSize);
				expect(Buffer.concat(parts).equals(fs.readFileSync(f.file))).toBe(true);
				expect(parts.slice(0, -1).every((p) => p.length === partSize)).toBe(true);
				expect(seen.length).toBeGreaterThan(10);
				expect(seen.map((c) => c.buffer.byteLength)).toEqual(seen.map(() => 0));
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		});

		test('any other stream: its chunks are left alone (they may still be in use)', async () => {
			const data = crypto.randomBytes(64 * KiB);
			const chunks = [0, 1, 2, 3].map((n) => {
				const own = Buffer.allocUnsafeSlow(16 * KiB);
				data.copy(own, 0, n * 16 * KiB, (n + 1) * 16 * KiB);
				return own;
			});
			const partSize = 24 * KiB;
			const parts = await allParts(new StreamParts(Readable.from(chunks, { objectMode: false }), partSize), partSize);
			expect(Buffer.concat(parts).equals(data)).toBe(true);
			expect(Buffer.concat(chunks).equals(data)).toBe(true);
		});

		test('a chunk that is a view into a larger or pooled buffer is left alone', async () => {
			const big = crypto.randomBytes(64 * KiB);
			const copy = Buffer.from(big);
			const views = [0, 1, 2, 3].map((n) => big.subarray(n * 16 * KiB, (n + 1) * 16 * KiB));
			const partSize = 24 * KiB;
			const parts = await allParts(new StreamParts(Readable.from(views, { objectMode: false }), partSize), partSize);
			expect(Buffer.concat(parts).equals(copy)).toBe(true);
			expect(big.buffer.byteLength).toBeGreaterThanOrEqual(64 * KiB);
			expect(big.equals(copy)).toBe(true);
			// small Buffers share Node's pool: releasing one would wreck its neighbours
			const small = [Buffer.from('abc'), Buffer.from('defg')];
			const neighbour = Buffer.from('neighbour');
			const got = await allParts(new StreamParts(Readable.from(small, { objectMode: false }), 5), 5);
			expect(Buffer.concat(got).toString()).toBe('abcdefg');
			expect(neighbour.toString()).toBe('neighbour');
			expect(small.every((b) => b.buffer.byteLength > 0)).toBe(true);
		});
	});

	test('a stream that fails fails the part that needed its bytes: no short part comes out', async () => {
		const { stream } = counted(Array(10).fill(4 * KiB), { failAfter: 6 });
		const partSize = 16 * KiB;
		const source = new StreamParts(stream, partSize);
		const buf = Buffer.alloc(partSize);
		// 24 KiB arrive, then the stream fails: whatever parts come out are whole, then next() throws
		let error;
		for (let n = 0; n < 5 && !error; n++) {
			try {
				const part = await source.next(() => buf);
				expect(part.length).toBe(partSize);
			} catch (e) {
				error = e;
			}
		}
		expect(error && error.message).toBe('disk read failed');
	});

	test('close() while a read is pending releases the stream and the pending part ends empty', async () => {
		let destroyed = false;
		// a stream that hands out one chunk and then never another
		const stream = new Readable({
			read() {
				if (!this.sent) {
					this.sent = true;
					this.push(Buffer.alloc(KiB, 1));
				}
			},
			destroy(err, cb) {
				destroyed = true;
				cb(err);
			},
		});
		const source = new StreamParts(stream, 16 * KiB);
		const buf = Buffer.alloc(16 * KiB);
		const pending = source.next(() => buf);
		await tick();
		await source.close();
		expect(destroyed).toBe(true);
		expect(source.ended).toBe(true);
		// the pending part ends: with the stream's close error, or short (the engine, which has
		// failed, discards it); it does not hang
		const part = await pending.then(
			(buf) => ({ length: buf.length }),
			(e) => ({ error: e.code || e.message }),
		);
		expect(part.error ? part.error : part.length <= KiB).toBe(part.error ? 'ERR_STREAM_PREMATURE_CLOSE' : true);
	});
});

describe('upload with the size known: Initiate while the first part is read', () => {
	let dir;
	let emulator;
	let url;
	let credentials;
	let store;
	const BUCKET = 'initiate-early';

	beforeAll(async () => {
		dir = tmpDir('vendor-initiate-');
		emulator = await spawnEmulator(['--data', path.join(dir, 'emulator')]);
		url = emulator.url;
		store = new n8n.CredentialStore();
		credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' }) };
		await control('POST', '/storage/buckets', { name: BUCKET });
	});

	afterAll(async () => {
		if (emulator) await emulator.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	const control = (method, route, body) => emulator.control(method, route, body);

	test('a failing Initiate fails the upload clearly; nothing is left behind', async () => {
		const f = writeRandomFile(dir, 'no-initiate.bin', 20 * MiB, 11);
		await control('POST', '/faults', { errorRate: 1, errorOps: ['InitiateMultipartUpload'] });
		try {
			const { error } = await n8n.runNode(NODE, { resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: 'no-initiate.bin', options: { multipartThreshold: 0 } }, { credentials, store, ...fileInput(f) });
			expect(error).toBeDefined();
			expect(['SlowDown', 'InternalError']).toContain(error.context.serviceCode);
		} finally {
			await control('POST', '/faults', { errorRate: 0, errorOps: [] });
		}
		expect((await control('GET', '/storage/uploads')).uploads).toEqual([]);
		expect((await control('GET', `/storage/objects?bucket=${BUCKET}`)).objects).toEqual([]);
	});

	test('the parts uploaded after an early Initiate make the right object', async () => {
		const f = writeRandomFile(dir, 'early.bin', 21 * MiB + 3, 12);
		const { items, error } = await n8n.runNode(
			NODE,
			{ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: 'early.bin', options: { multipartThreshold: 0, partSize: 5, concurrency: 3 } },
			{ credentials, store, ...fileInput(f) },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ size: 21 * MiB + 3, partCount: 5, multipart: true });
		const [down] = (await n8n.runNode(NODE, { resource: 'object', operation: 'download', bucket: rl(BUCKET), key: 'early.bin' }, { credentials, store })).items;
		const { binaryMd5 } = require('../../support/storage');
		expect((await binaryMd5(down.binary.data)).md5).toBe(f.md5);
		expect((await control('GET', '/storage/uploads')).uploads).toEqual([]);
	});
});

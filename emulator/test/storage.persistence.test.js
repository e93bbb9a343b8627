'use strict';
/**
 * The storage emulator with a dataDir: bodies on disk, state saved on close and restored on
 * the next start, streaming of large bodies; plus the memory-mode snapshot and the demo seed.
 * Spoken to with aws-sdk v2 in AWS mode.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Readable } = require('node:stream');
const AWS = require('aws-sdk');
const { createEmulator } = require('..');

const AWS_MODE = { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' };
const md5hex = (buf) => crypto.createHash('md5').update(buf).digest('hex');

function client(emu) {
	return new AWS.S3({
		endpoint: emu.url,
		s3ForcePathStyle: true,
		signatureVersion: 's3',
		region: 'us-east-1',
		maxRetries: 0,
		accessKeyId: 'VENDORTESTKEY',
		secretAccessKey: 'vendor-test-secret',
	});
}

const tmpDirs = [];
function tmpDir() {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-storage-'));
	tmpDirs.push(d);
	return d;
}
const filesIn = (dir, sub) => fs.readdirSync(path.join(dir, 'storage', sub));

afterAll(() => {
	for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
	process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
});

/**
 * Runs `check` (which throws until it holds) until it holds or 10 s have passed: bodies that are
 * no longer referenced are removed asynchronously, later on a loaded machine.
 */
async function eventually(check) {
	const end = Date.now() + 10000;
	for (;;) {
		try {
			return check();
		} catch (error) {
			if (Date.now() > end) throw error;
			await new Promise((r) => setTimeout(r, 25));
		}
	}
}

/** A full garbage collection on demand (global.gc when exposed, else V8's flag set at run time). */
function collector() {
	if (global.gc) return global.gc;
	require('node:v8').setFlagsFromString('--expose-gc');
	return require('node:vm').runInNewContext('gc');
}

describe('dataDir persistence', () => {
	test('write, close, start again with the same dataDir, read back (objects, metadata, ACL, uploads in progress)', async () => {
		const dataDir = tmpDir();
		const big = crypto.randomBytes(12 * 1024 * 1024);
		const part1 = crypto.randomBytes(64 * 1024);
		let uploadId;
		let e1 = await createEmulator({ dataDir, storage: AWS_MODE });
		try {
			const s3 = client(e1);
			await s3.createBucket({ Bucket: 'persist-me', ACL: 'public-read' }).promise();
			await s3
				.putObject({
					Bucket: 'persist-me',
					Key: 'notes/a b+c.txt',
					Body: 'kept on disk',
					ContentType: 'text/plain',
					Metadata: { color: 'green' },
				})
				.promise();
			await s3
				.upload({ Bucket: 'persist-me', Key: 'big.bin', Body: big }, { partSize: 5 * 1024 * 1024 })
				.promise();
			await s3.putObject({ Bucket: 'persist-me', Key: 'overwritten', Body: 'v1' }).promise();
			await s3.putObject({ Bucket: 'persist-me', Key: 'overwritten', Body: 'v2' }).promise();
			uploadId = (
				await s3.createMultipartUpload({ Bucket: 'persist-me', Key: 'resumed.bin' }).promise()
			).UploadId;
			await s3
				.uploadPart({
					Bucket: 'persist-me',
					Key: 'resumed.bin',
					UploadId: uploadId,
					PartNumber: 1,
					Body: part1,
				})
				.promise();
		} finally {
			await e1.close();
		}
		e1 = null;
		// bodies are files: one per object put whole, one per part of a completed multipart
		// object (big.bin: 3 parts of at most 5 MiB, hard-linked), one for the pending part
		expect(fs.existsSync(path.join(dataDir, 'state.json'))).toBe(true);
		await eventually(() => expect(filesIn(dataDir, 'objects')).toHaveLength(5)); // replaced bodies go asynchronously
		expect(filesIn(dataDir, 'parts')).toHaveLength(1);
		expect(filesIn(dataDir, 'tmp')).toHaveLength(0);
		fs.writeFileSync(
			path.join(dataDir, 'storage', 'objects', 'stray-orphan'),
			'left over by a crash',
		);

		const e2 = await createEmulator({ dataDir, storage: AWS_MODE });
		try {
			const s3 = client(e2);
			const got = await s3.getObject({ Bucket: 'persist-me', Key: 'notes/a b+c.txt' }).promise();
			expect([got.Body.toString(), got.ContentType, got.Metadata]).toEqual([
				'kept on disk',
				'text/plain',
				{ color: 'green' },
			]);
			expect(
				md5hex((await s3.getObject({ Bucket: 'persist-me', Key: 'big.bin' }).promise()).Body),
			).toBe(md5hex(big));
			expect(
				(
					await s3.getObject({ Bucket: 'persist-me', Key: 'overwritten' }).promise()
				).Body.toString(),
			).toBe('v2');
			const range = await s3
				.getObject({ Bucket: 'persist-me', Key: 'big.bin', Range: 'bytes=5242870-5242889' })
				.promise();
			expect(range.Body.equals(big.subarray(5242870, 5242890))).toBe(true);
			// the bucket ACL survived: anonymous listing is allowed
			expect((await fetch(`${e2.url}/persist-me`)).status).toBe(200);
			// the upload in progress survived and can be finished
			const parts = await s3
				.listParts({ Bucket: 'persist-me', Key: 'resumed.bin', UploadId: uploadId })
				.promise();
			expect(parts.Parts.map((p) => [p.PartNumber, p.Size])).toEqual([[1, part1.length]]);
			const part2 = Buffer.from('tail');
			const p2 = await s3
				.uploadPart({
					Bucket: 'persist-me',
					Key: 'resumed.bin',
					UploadId: uploadId,
					PartNumber: 2,
					Body: part2,
				})
				.promise();
			await s3
				.completeMultipartUpload({
					Bucket: 'persist-me',
					Key: 'resumed.bin',
					UploadId: uploadId,
					MultipartUpload: {
						Parts: [
							{ PartNumber: 1, ETag: parts.Parts[0].ETag },
							{ PartNumber: 2, ETag: p2.ETag },
						],
					},
				})
				.promise();
			const resumed = await s3.getObject({ Bucket: 'persist-me', Key: 'resumed.bin' }).promise();
			expect(resumed.Body.equals(Buffer.concat([part1, part2]))).toBe(true);
			await eventually(() => expect(filesIn(dataDir, 'parts')).toHaveLength(0));
			expect(filesIn(dataDir, 'objects')).not.toContain('stray-orphan');
			expect(filesIn(dataDir, 'objects')).toHaveLength(7);

			// a reset removes every body
			const reset = await fetch(`${e2.url}/__emulator/reset`, { method: 'POST', body: '{}' });
			expect(reset.status).toBe(200);
			expect(filesIn(dataDir, 'objects')).toHaveLength(0);
			expect((await s3.listBuckets().promise()).Buckets).toEqual([]);
		} finally {
			await e2.close();
		}
	});

	test('bodies stream: a 256 MiB object goes through without being held in memory', async () => {
		const dataDir = tmpDir();
		const emu = await createEmulator({ dataDir, storage: AWS_MODE });
		try {
			const s3 = client(emu);
			await s3.createBucket({ Bucket: 'stream-bucket' }).promise();
			const size = 256 * 1024 * 1024;
			const block = crypto.randomBytes(1024 * 1024);
			const hashIn = crypto.createHash('md5');
			let sent = 0;
			const source = new Readable({
				read() {
					if (sent >= size) return this.push(null);
					sent += block.length;
					hashIn.update(block);
					this.push(block);
				},
			});
			// What is held, not what awaits collection: every 100 ms a young-generation GC (cheap; it
			// frees the chunks just let go of), then the bytes in Buffers (where bodies travel). An
			// emulator that held the object would hold 256 MiB. (RSS was tried first: on a loaded
			// machine V8 let garbage chunks pile up to 469 MiB; a full GC every 100 ms starved the
			// transfer past the test's timeout.)
			const gc = collector();
			gc();
			const base = process.memoryUsage().arrayBuffers;
			let peak = base;
			const timer = setInterval(() => {
				gc({ type: 'minor' });
				peak = Math.max(peak, process.memoryUsage().arrayBuffers);
			}, 100);
			try {
				const put = await s3
					.putObject({
						Bucket: 'stream-bucket',
						Key: 'huge.bin',
						Body: source,
						ContentLength: size,
					})
					.promise();
				const expected = hashIn.digest('hex');
				expect(put.ETag).toBe(`"${expected}"`);
				const hashOut = crypto.createHash('md5');
				let received = 0;
				await new Promise((resolve, reject) => {
					const rs = s3.getObject({ Bucket: 'stream-bucket', Key: 'huge.bin' }).createReadStream();
					rs.on('data', (c) => {
						received += c.length;
						hashOut.update(c);
					});
					rs.on('end', resolve);
					rs.on('error', reject);
				});
				expect([received, hashOut.digest('hex')]).toEqual([size, expected]);
			} finally {
				clearInterval(timer);
			}
			expect(peak - base).toBeLessThan(128 * 1024 * 1024);
			expect(
				fs.statSync(path.join(dataDir, 'storage', 'objects', filesIn(dataDir, 'objects')[0])).size,
			).toBe(size);
		} finally {
			await emu.close();
		}
	});
});

/** 40 part bodies of 64 KiB + n bytes each, received and committed; with their bytes. */
async function fortyParts(bodies) {
	const buffers = [];
	const parts = [];
	for (let n = 0; n < 40; n++) {
		const buf = crypto.randomBytes(64 * 1024 + n);
		buffers.push(buf);
		const got = await bodies.receive(Readable.from([buf]));
		parts.push(await bodies.commit(got.body, 'parts'));
	}
	return { buffers, parts };
}

describe('concatenation of part bodies on disk', () => {
	test('Complete links the parts: 40 parts read back in order, whole and in ranges across part boundaries', async () => {
		const { Bodies } = require('../storage/bodies');
		const dataDir = tmpDir();
		const bodies = new Bodies(dataDir);
		const { buffers, parts } = await fortyParts(bodies);
		const all = Buffer.concat(buffers);
		const joined = await bodies.concat(parts);
		expect(joined.size).toBe(all.length);
		expect(joined.files).toHaveLength(40);
		for (const p of parts) bodies.discard(p);
		await eventually(() => expect(filesIn(dataDir, 'parts')).toEqual([]));
		const read = async (start, end) => {
			const chunks = [];
			for await (const c of await bodies.open(joined, start, end)) chunks.push(c);
			return Buffer.concat(chunks);
		};
		expect(md5hex(await read(0, all.length - 1))).toBe(md5hex(all));
		for (const [start, end] of [
			[65536 - 3, 65536 + 2],
			[100, 5 * 65536],
			[all.length - 70000, all.length - 1],
			[0, 0],
		]) {
			expect((await read(start, end)).equals(all.subarray(start, end + 1))).toBe(true);
		}
		// a reader that stops early leaves no file handle open on the later parts
		const fds = () => fs.readdirSync('/proc/self/fd').length;
		const before = fds();
		const stream = await bodies.open(joined, 0, all.length - 1);
		expect(fds()).toBe(before + 40);
		for await (const c of stream) {
			void c;
			break;
		}
		await eventually(() => expect(fds()).toBe(before));
		bodies.discard(joined);
		await eventually(() => expect(filesIn(dataDir, 'objects')).toEqual([]));
	});

	test('40 parts copied into one file (no hard links) join in order without piling up listeners on the output stream', async () => {
		const { Bodies } = require('../storage/bodies');
		const bodies = new Bodies(tmpDir());
		const { buffers, parts } = await fortyParts(bodies);
		// the most listeners of one kind that concat's output stream ever had at once
		let most = 0;
		const createWriteStream = fs.createWriteStream;
		fs.createWriteStream = (...args) => {
			const out = createWriteStream(...args);
			out.on('newListener', (name) => (most = Math.max(most, out.listenerCount(name) + 1)));
			return out;
		};
		try {
			const joined = await bodies.copyConcat(parts, buffers.reduce((n, b) => n + b.length, 0));
			expect(joined.size).toBe(buffers.reduce((n, b) => n + b.length, 0));
			expect(md5hex(fs.readFileSync(bodies.abs(joined)))).toBe(md5hex(Buffer.concat(buffers)));
			expect(most).toBeLessThanOrEqual(2);
		} finally {
			fs.createWriteStream = createWriteStream;
		}
	});

	test('a part that has gone fails the concatenation and leaves no file behind', async () => {
		const { Bodies } = require('../storage/bodies');
		const dataDir = tmpDir();
		const bodies = new Bodies(dataDir);
		const got = await bodies.receive(Readable.from([crypto.randomBytes(1024)]));
		const part = await bodies.commit(got.body, 'parts');
		await expect(bodies.concat([part, { file: 'parts/missing', size: 1 }])).rejects.toThrow(
			/ENOENT/,
		);
		expect(filesIn(dataDir, 'tmp')).toEqual([]);
		expect(filesIn(dataDir, 'objects')).toEqual([]);
	});
});

describe('memory mode', () => {
	test('snapshot() is JSON and restore() brings objects and uploads back', async () => {
		const e1 = await createEmulator({ storage: AWS_MODE });
		let saved;
		let uploadId;
		try {
			const s3 = client(e1);
			await s3.createBucket({ Bucket: 'mem-bucket' }).promise();
			await s3
				.putObject({ Bucket: 'mem-bucket', Key: 'k1', Body: 'one', Metadata: { m: '1' } })
				.promise();
			uploadId = (await s3.createMultipartUpload({ Bucket: 'mem-bucket', Key: 'mp' }).promise())
				.UploadId;
			await s3
				.uploadPart({
					Bucket: 'mem-bucket',
					Key: 'mp',
					UploadId: uploadId,
					PartNumber: 1,
					Body: 'part',
				})
				.promise();
			saved = JSON.parse(JSON.stringify(e1.storage.snapshot()));
		} finally {
			await e1.close();
		}
		const e2 = await createEmulator({ storage: AWS_MODE });
		try {
			e2.storage.restore(saved);
			const s3 = client(e2);
			const got = await s3.getObject({ Bucket: 'mem-bucket', Key: 'k1' }).promise();
			expect([got.Body.toString(), got.Metadata]).toEqual(['one', { m: '1' }]);
			const parts = await s3
				.listParts({ Bucket: 'mem-bucket', Key: 'mp', UploadId: uploadId })
				.promise();
			expect(parts.Parts).toHaveLength(1);
		} finally {
			await e2.close();
		}
	});

	test('seed "demo" creates demo-bucket with a text file, a JSON file and nested reports', async () => {
		const emu = await createEmulator({ seed: 'demo', storage: AWS_MODE });
		try {
			const s3 = client(emu);
			const list = await s3.listObjects({ Bucket: 'demo-bucket' }).promise();
			const keys = list.Contents.map((c) => c.Key);
			expect(keys).toEqual(expect.arrayContaining(['hello.txt', 'data/sample.json']));
			expect(keys.some((k) => k.startsWith('reports/2026/'))).toBe(true);
			const json = await s3.getObject({ Bucket: 'demo-bucket', Key: 'data/sample.json' }).promise();
			expect(json.ContentType).toBe('application/json');
			expect(JSON.parse(json.Body.toString())).toMatchObject({ name: 'sample' });
			const objects = await (
				await fetch(`${emu.url}/__emulator/storage/objects?bucket=demo-bucket`)
			).json();
			expect(objects.objects.map((o) => o.key)).toEqual(keys);
		} finally {
			await emu.close();
		}
	});
});

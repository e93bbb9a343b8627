'use strict';
/**
 * Helpers of the object-storage tests: the node's name, bucket locators, reading binaries back
 * from n8n's binary store, counting the requests that reach the emulator's storage half,
 * seeded random data and test files.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const n8n = require('./n8n');

const NODE = 'vendorObjectStorage';
const MiB = 1024 * 1024;

/** A bucket resource locator: "By Name" (default) or "From List". */
const rl = (name, mode = 'name') => ({ __rl: true, mode, value: name });

function binaryService() {
	const core = require('n8n-core');
	const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }));
	return Container.get(core.BinaryDataService);
}

/** The bytes of an output binary, read back from n8n's binary store. */
async function readBinary(binary) {
	return await binaryService().getAsBuffer(binary);
}

/** MD5 (hex) and size of an output binary, streamed from n8n's binary store. */
async function binaryMd5(binary) {
	if (!binary.id) return { md5: md5(Buffer.from(binary.data, 'base64')), size: Buffer.from(binary.data, 'base64').length };
	const stream = await binaryService().getAsStream(binary.id, MiB);
	const hash = crypto.createHash('md5');
	let size = 0;
	for await (const chunk of stream) {
		hash.update(chunk);
		size += chunk.length;
	}
	return { md5: hash.digest('hex'), size };
}

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('hex');

/** Counts the requests the emulator's storage half receives (wraps its handler in process). */
function countRequests(emu) {
	const storage = emu.storage;
	const original = storage.handle;
	const seen = [];
	storage.handle = (req, res, url) => {
		seen.push(`${req.method} ${req.url}`);
		return original(req, res, url);
	};
	return {
		get count() {
			return seen.length;
		},
		get requests() {
			return [...seen];
		},
		since(mark) {
			return seen.slice(mark);
		},
	};
}

/** Deterministic pseudo-random numbers (mulberry32). */
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function tmpDir(prefix) {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Writes `size` pseudo-random bytes (an AES-CTR keystream of `seed`: repeatable and fast) to a
 * file, 1 MiB at a time; resolves { file, md5, size }.
 */
function writeRandomFile(dir, name, size, seed) {
	const file = path.join(dir, name);
	const key = crypto.createHash('sha256').update(`seed:${seed}`).digest().subarray(0, 16);
	const cipher = crypto.createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
	const zeros = Buffer.alloc(MiB);
	const fd = fs.openSync(file, 'w');
	const hash = crypto.createHash('md5');
	let left = size;
	while (left > 0) {
		const chunk = cipher.update(zeros.subarray(0, Math.min(left, MiB)));
		hash.update(chunk);
		fs.writeSync(fd, chunk);
		left -= chunk.length;
	}
	fs.closeSync(fd);
	return { file, md5: hash.digest('hex'), size };
}

/** Harness input: one item whose binary `data` is the file `f.file` (put into n8n's binary store). */
const fileInput = (f) => ({ binaryInput: [{ binary: { data: { path: f.file, fileName: path.basename(f.file), mimeType: 'application/octet-stream' } } }] });

module.exports = { n8n, NODE, MiB, rl, readBinary, binaryMd5, md5, countRequests, prng, tmpDir, writeRandomFile, fileInput };

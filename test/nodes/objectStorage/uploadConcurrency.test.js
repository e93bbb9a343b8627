'use strict';
/**
 * Upload of many files at once (issue 37): items run up to Concurrent Requests at a time and the
 * parts of large files share that bound, counted at the service (every request from its arrival
 * to the end of its answer); the output keeps the input order with each item's pairedItem.
 *
 * Nothing here is timed. A gate in front of the emulator's storage holds the first requests until
 * as many as the bound have arrived (a node that sends fewer at once would only ever be released
 * by the gate's 20 s fallback, and then fails the count), so the count reaches the bound by
 * itself; after the gate, item 0's request is answered last, so the output order is the node's
 * doing, not the order of the answers.
 */
const fs = require('node:fs');
const { startVendor } = require('../../support/vendor');
const { NODE, MiB, rl, md5, readBinary, tmpDir, writeRandomFile } = require('../../support/storage');

const BUCKET = 'upload-concurrency';
const BOUND = 4;

let v;
let dir;

beforeAll(async () => {
	v = await startVendor();
	dir = tmpDir('vendor-upload-concurrency-');
	await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: BUCKET });
});

afterAll(async () => {
	if (v) await v.emu.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Wraps the emulator's storage half: counts the storage requests it holds at once (from arrival
 * to the end of the answer), and holds the first ones until `bound` are there together (or 20 s
 * have passed: a node that never sends that many). The request for the key `last` is answered
 * only after another request has been answered since it arrived (or 20 s), so it is not the first
 * answer the node gets.
 */
function watch(emu, { bound, last }) {
	const storage = emu.storage;
	const original = storage.handle;
	const seen = { now: 0, max: 0, puts: 0, gateOpenedBy: undefined };
	const timers = [];
	const later = (fn) => timers.push(setTimeout(fn, 20000));
	let open = false;
	let release;
	const gate = new Promise((resolve) => (release = resolve));
	later(() => {
		seen.gateOpenedBy ??= 'timeout';
		open = true;
		release();
	});
	let answered = [];
	storage.handle = async (req, res, url) => {
		seen.now++;
		seen.max = Math.max(seen.max, seen.now);
		if (req.method === 'PUT') seen.puts++;
		if (!open && seen.now >= bound) {
			seen.gateOpenedBy ??= 'bound';
			open = true;
			release();
		}
		await gate;
		if (last && url.pathname.endsWith(`/${last}`)) {
			await new Promise((resolve) => {
				answered.push(resolve);
				later(resolve);
			});
		}
		res.once('close', () => {
			seen.now--;
			const waiting = answered;
			answered = [];
			for (const resolve of waiting) resolve();
		});
		return original.call(storage, req, res, url);
	};
	return {
		seen,
		restore() {
			for (const t of timers) clearTimeout(t);
			release();
			for (const resolve of answered) resolve();
			storage.handle = original;
		},
	};
}

test('items upload Concurrent Requests at a time, parts of large files within the same bound, output in input order with pairedItem', async () => {
	// 10 small files (one PUT each) and 2 of 11 MiB sent as 3 parts of 5 MiB (Initiate, parts, Complete)
	const files = [];
	for (let i = 0; i < 12; i++) {
		const big = i === 3 || i === 8;
		files.push({ ...writeRandomFile(dir, `f-${i}.bin`, big ? 11 * MiB : 100 * 1000 + i, 300 + i), key: `many/f-${i}.bin` });
	}
	const binaryInput = files.map((f, i) => ({ json: { n: i, key: f.key }, binary: { data: { path: f.file, fileName: `f-${i}.bin`, mimeType: 'application/octet-stream' } } }));
	const w = watch(v.emu, { bound: BOUND, last: 'f-0.bin' });
	let result;
	try {
		result = await v.run(
			NODE,
			{
				resource: 'object',
				operation: 'upload',
				bucket: rl(BUCKET),
				key: '={{ $json.key }}',
				options: { multipartThreshold: 10, partSize: 5, concurrency: BOUND },
			},
			{ binaryInput },
		);
	} finally {
		w.restore();
	}
	expect(result.error).toBeUndefined();
	// in flight at the service: more than one, never more than the bound, whatever the mix
	expect(w.seen.gateOpenedBy).toBe('bound');
	expect(w.seen.max).toBe(BOUND);
	// 10 single PUTs + 2 × 3 part PUTs
	expect(w.seen.puts).toBe(16);
	// the output: one item per input item, in input order, each paired with its own input
	expect(result.items.map((item) => item.json.key)).toEqual(files.map((f) => f.key));
	expect(result.items.map((item) => item.pairedItem)).toEqual(files.map((_, i) => ({ item: i })));
	expect(result.items.map((item) => item.json.multipart)).toEqual(files.map((f) => f.size > 10 * MiB));
	for (const [i, item] of result.items.entries()) {
		expect(item.json.size).toBe(files[i].size);
		if (!item.json.multipart) expect(item.json.md5).toBe(files[i].md5);
	}
	// and each object holds its own file
	for (const f of files) {
		const { items } = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl(BUCKET), key: f.key });
		expect(md5(await readBinary(items[0].binary.data))).toBe(f.md5);
	}
});

test('Concurrent Requests 1 sends one request at a time, parts included', async () => {
	const files = [0, 1, 2].map((i) => ({ ...writeRandomFile(dir, `one-${i}.bin`, i === 1 ? 11 * MiB : 50 * 1000, 400 + i), key: `one/f-${i}.bin` }));
	const binaryInput = files.map((f, i) => ({ json: { key: f.key }, binary: { data: { path: f.file, fileName: `one-${i}.bin`, mimeType: 'application/octet-stream' } } }));
	const w = watch(v.emu, { bound: 1 });
	let result;
	try {
		result = await v.run(NODE, { resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: '={{ $json.key }}', options: { multipartThreshold: 10, partSize: 5, concurrency: 1 } }, { binaryInput });
	} finally {
		w.restore();
	}
	expect(result.error).toBeUndefined();
	expect(w.seen.max).toBe(1);
	expect(result.items.map((item) => item.json.key)).toEqual(files.map((f) => f.key));
});

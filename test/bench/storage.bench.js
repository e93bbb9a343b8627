'use strict';
/**
 * Object storage benchmark (issue 3). Figures, not assertions; not part of `npm test`.
 *
 *   npm run bench storage
 *
 * The emulator runs in its own process with its bodies on disk (`--data` in a temp dir), in
 * AWS mode (`AWS` / `x-amz-` / `AWSAccessKeyId`), so that aws-sdk v2 and the node (its
 * credential's Advanced Protocol Settings set to the same words) talk to the same emulator.
 * The node is run by n8n-core (test/support/n8n.js) in filesystem binary mode; the peer is aws-sdk v2
 * (signature version "s3", path style). Node and peer run one after the other, never at once,
 * and their order alternates from run to run.
 *
 *  1. 1 GiB upload: the node (Upload; the input file, written to disk first, is put into n8n's
 *     binary store once and handed to the node as that filesystem binary, so the node streams
 *     it; part size 8 MiB, concurrency 4) against aws-sdk `upload()` of the same file
 *     (partSize 8 MiB, queueSize 4). 1 GiB download: the node (Download into n8n's binary
 *     store) against aws-sdk `getObject().createReadStream()` piped into a file.
 *     Throughput (MiB/s) of each, ratio node/aws-sdk, and the peak RSS growth of each.
 *     The limit of this machine (issue 27): the same bytes between the same emulator and the same
 *     disk by Node's plain `http` (a presigned URL signed by aws-sdk, one request, the file
 *     streamed), printed as node/limit for upload and download. Copy (issue 27) of the same
 *     object within the bucket by the node, against the copy by hand in n8n (Download into the
 *     binary store, then Upload): time and peak RSS growth of each.
 *     Every one of these transfers, the node's and aws-sdk's, runs in a fresh process (storage-run.js; n8n-core
 *     or aws-sdk loaded, nothing transferred yet), so a growth is not hidden by memory an
 *     earlier run left to the allocator, and neither client runs in a process the other used.
 *  2. The node's upload of 256 MiB (1 GiB would take minutes at concurrency 1) at 50 ms added
 *     latency per request, concurrency 1 and 4: the speed-up; aws-sdk (queueSize 1 and 4)
 *     alongside. 2b, diagnostic: the same against a minimal S3 sink (test/bench/s3-sink.js:
 *     same latency, no hashing, no storage), which shows what the clients do when the service
 *     costs nothing per byte.
 *  3. List Objects, Return All over 100,000 keys (seeded through the emulator's control route)
 *     against aws-sdk's listObjects loop (MaxKeys 1000, Marker): ratio of the times node/aws-sdk.
 *
 * Every measure is taken BENCH_RUNS times (default 3); medians are printed. Dirty pages are
 * written out (`sync`) before every timed transfer, so no run pays for the previous one's
 * writes. The node's time runs from n8n-core's nodeExecuteBefore hook to its nodeExecuteAfter
 * hook: the node's whole execution, n8n's handling of its output included.
 *
 * Memory: baseline after GC in the nodeExecuteBefore hook; `process.memoryUsage().rss` sampled
 * every 50 ms until nodeExecuteAfter; where Linux allows it the kernel's own peak (VmHWM, reset
 * through /proc/self/clear_refs at the baseline) is read too, and the larger growth is reported.
 *
 * Environment: BENCH_SIZE_MIB (1024), BENCH_LATENCY_SIZE_MIB (256), BENCH_LATENCY_MS (50),
 * BENCH_KEYS (100000), BENCH_RUNS (3), BENCH_ONLY (comma list of transfer,latency,sink,list),
 * BENCH_CPU_PROFILE (a directory: CPU profiles of the measured stretches).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

// n8n-core's binary store lives in the bench's temp dir (the measured runs, storage-run.js,
// inherit it), so it goes when the bench ends
process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-storage-'));
const benchDir = process.env.N8N_USER_FOLDER;
const { AWS_WORDS, SAMPLE_MS, binaryService, gc, kernelPeak, nodeCredentials, rl, runInChild, runNode, s3Client, storeBinary, syncDisk } = require('./storage-run');

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB || 1024) * MiB;
const LATENCY_SIZE = Number(process.env.BENCH_LATENCY_SIZE_MIB || 256) * MiB;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 50);
const KEYS = Number(process.env.BENCH_KEYS || 100000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 3));
const ONLY = (process.env.BENCH_ONLY || 'transfer,latency,sink,list').split(',');
const PART_MIB = 8;
const CONCURRENCY = 4;
const BUCKET = 'bench-transfer';
const LIST_BUCKET = 'bench-list';

/* ------------------------------------------------------------ small helpers */

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const mibps = (bytes, ms) => bytes / MiB / (ms / 1000);
const verdict = (ok) => (ok ? 'MET' : 'NOT MET');
const load = () =>
	os
		.loadavg()
		.map((x) => x.toFixed(2))
		.join(' ');
const list = (xs, f) => xs.map(f).join(', ');

/** Spawns `script` (prints one JSON line with its url), resolves { url, close }. */
async function spawnServer(script, args) {
	const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
	const line = await new Promise((resolve, reject) => {
		readline.createInterface({ input: proc.stdout }).once('line', resolve);
		proc.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code}`)));
	});
	return {
		url: JSON.parse(line).url,
		async close() {
			proc.kill('SIGTERM');
			await new Promise((r) => proc.once('exit', r));
		},
	};
}

/* ------------------------------------------------------------ the parts */

async function transfer(ctx, input) {
	const { s3, emu } = ctx;
	const names = ['nodeUp', 'sdkUp', 'nodeDown', 'sdkDown', 'httpUp', 'httpDown', 'nodeCopy', 'getPut'];
	const rows = { upRatio: [], downRatio: [], upLimit: [], downLimit: [], copyRatio: [] };
	for (const n of names) rows[n] = [];
	const downloadKey = 'download/object.bin';
	const sdkOut = path.join(benchDir, 'sdk-download.bin');
	// the object both download: uploaded once by aws-sdk
	await s3.upload({ Bucket: BUCKET, Key: downloadKey, Body: fs.createReadStream(input.file) }, { partSize: PART_MIB * MiB, queueSize: CONCURRENCY }).promise();
	const uploadParams = {
		resource: 'object',
		operation: 'upload',
		bucket: rl(BUCKET),
		key: 'upload/node.bin',
		binaryData: true,
		binaryPropertyName: 'data',
		// in parts, as aws-sdk's upload() sends them (the node's default sends up to 1 GiB in one request)
		options: { multipartThreshold: 0, partSize: PART_MIB, concurrency: CONCURRENCY },
	};
	const downloadParams = { resource: 'object', operation: 'download', bucket: rl(BUCKET), key: downloadKey, binaryPropertyName: 'data' };
	const sdkJob = { endpoint: emu.url, bucket: BUCKET, partSize: PART_MIB * MiB, queueSize: CONCURRENCY };
	const httpOut = path.join(benchDir, 'http-download.bin');

	// the limit of this machine: plain http, presigned URLs (signed by aws-sdk, sent by Node's http)
	const httpUpload = async () => {
		const url = s3.getSignedUrl('putObject', { Bucket: BUCKET, Key: 'upload/http.bin', Expires: 3600 });
		const r = await runInChild('--http-run', { op: 'upload', url, file: input.file });
		if (r.etag !== input.md5) throw new Error(`plain http upload: ETag ${r.etag}`);
		rows.httpUp.push(r);
	};
	const httpDownload = async () => {
		const url = s3.getSignedUrl('getObject', { Bucket: BUCKET, Key: downloadKey, Expires: 3600 });
		const r = await runInChild('--http-run', { op: 'download', url, file: httpOut });
		if (r.size !== input.size) throw new Error(`plain http download: size ${r.size}`);
		fs.rmSync(httpOut);
		rows.httpDown.push(r);
	};
	// Copy (issue 27) against the same copy made by hand in n8n: Download into the binary store, then Upload
	const copyParams = {
		resource: 'object',
		operation: 'copy',
		bucket: rl(BUCKET),
		key: { __rl: true, mode: 'id', value: downloadKey },
		destinationBucket: rl(BUCKET),
		destinationKey: 'copy/node.bin',
		options: { partSize: PART_MIB, partConcurrency: CONCURRENCY },
	};
	const nodeCopy = async () => {
		const r = await runInChild('--node-run', { endpoint: emu.url, parameters: copyParams });
		if (r.json.size !== input.size || r.json.md5 !== input.md5) throw new Error(`node copy: size ${r.json.size} MD5 ${r.json.md5}`);
		rows.nodeCopy.push(r);
	};
	const getPut = async () => {
		const r = await runInChild('--getput-run', { endpoint: emu.url, download: downloadParams, upload: { ...uploadParams, key: 'copy/by-hand.bin' } });
		if (r.json.size !== input.size) throw new Error(`Download + Upload: size ${r.json.size}`);
		rows.getPut.push(r);
	};

	const nodeUpload = async () => {
		const r = await runInChild('--node-run', { endpoint: emu.url, parameters: uploadParams, binary: input.binary });
		if (r.json.size !== input.size) throw new Error(`node upload: size ${r.json.size}`);
		rows.nodeUp.push(r);
		return r.json.etag;
	};
	const sdkUpload = async () => {
		const r = await runInChild('--sdk-run', { ...sdkJob, op: 'upload', key: 'upload/sdk.bin', file: input.file });
		rows.sdkUp.push(r);
		return r.etag;
	};
	const nodeDownload = async (verify) => {
		const r = await runInChild('--node-run', { endpoint: emu.url, parameters: downloadParams });
		if (!String(r.binary.id).startsWith('filesystem')) throw new Error(`node download: not in the filesystem store (${r.binary.id})`);
		if (verify) {
			const { binaryMd5 } = require('../support/storage');
			const got = await binaryMd5(r.binary);
			if (got.md5 !== input.md5 || got.size !== input.size) throw new Error(`node download: MD5 ${got.md5} size ${got.size}`);
		}
		await binaryService().deleteManyByBinaryDataId([r.binary.id]);
		rows.nodeDown.push(r);
	};
	const sdkDownload = async () => {
		const r = await runInChild('--sdk-run', { ...sdkJob, op: 'download', key: downloadKey, file: sdkOut });
		if (r.size !== input.size) throw new Error(`aws-sdk download: size ${r.size}`);
		fs.rmSync(sdkOut);
		rows.sdkDown.push(r);
	};

	for (let run = 0; run < RUNS; run++) {
		const nodeFirst = run % 2 === 0;
		let nodeEtag;
		let sdkEtag;
		if (nodeFirst) {
			nodeEtag = await nodeUpload();
			sdkEtag = await sdkUpload();
		} else {
			sdkEtag = await sdkUpload();
			nodeEtag = await nodeUpload();
		}
		if (nodeEtag !== sdkEtag) throw new Error(`the ETags differ: node ${nodeEtag}, aws-sdk ${sdkEtag}`);
		await deleteKeys(s3, ['upload/node.bin', 'upload/sdk.bin']);
		if (nodeFirst) {
			await sdkDownload();
			await nodeDownload(run === 0);
		} else {
			await nodeDownload(run === 0);
			await sdkDownload();
		}
		if (nodeFirst) {
			await httpUpload();
			await httpDownload();
			await nodeCopy();
			await getPut();
		} else {
			await getPut();
			await nodeCopy();
			await httpDownload();
			await httpUpload();
		}
		await deleteKeys(s3, ['upload/http.bin', 'copy/node.bin', 'copy/by-hand.bin']);
		const [nu, su, nd, sd, hu, hd, nc, gp] = names.map((n) => rows[n][run]);
		rows.upRatio.push(su.ms / nu.ms);
		rows.downRatio.push(sd.ms / nd.ms);
		rows.upLimit.push(hu.ms / nu.ms);
		rows.downLimit.push(hd.ms / nd.ms);
		rows.copyRatio.push(gp.ms / nc.ms);
		const mem = (r) => `${fmt(r.growth / MiB)} (array buffers ${fmt(r.arrayBuffersGrowth / MiB)}, JS heap ${fmt(r.heapGrowth / MiB)})`;
		console.log(
			`  run ${run + 1}: upload node ${fmt(mibps(input.size, nu.ms))} / aws-sdk ${fmt(mibps(input.size, su.ms))} MiB/s (ratio ${fmt(rows.upRatio[run], 2)}); ` +
				`download node ${fmt(mibps(input.size, nd.ms))} / aws-sdk ${fmt(mibps(input.size, sd.ms))} MiB/s (ratio ${fmt(rows.downRatio[run], 2)}) (load ${load()})`,
		);
		console.log(`         RSS growth, MiB: upload node ${mem(nu)}, aws-sdk ${mem(su)}; download node ${mem(nd)}, aws-sdk ${mem(sd)}`);
		console.log(
			`         limit (plain http): upload ${fmt(mibps(input.size, hu.ms))} MiB/s (node/limit ${fmt(rows.upLimit[run], 2)}), download ${fmt(mibps(input.size, hd.ms))} MiB/s (node/limit ${fmt(rows.downLimit[run], 2)}); ` +
				`copy: node ${fmt(nc.ms / 1000, 1)} s, Download + Upload ${fmt(gp.ms / 1000, 1)} s (ratio ${fmt(rows.copyRatio[run], 2)}), RSS growth node ${mem(nc)}, by hand ${mem(gp)}`,
		);
	}
	await deleteKeys(s3, [downloadKey]);
	return rows;
}

/** Deletes objects one by one (the emulator has no multi-object delete). */
async function deleteKeys(s3, keys) {
	for (const Key of keys) await s3.deleteObject({ Bucket: BUCKET, Key }).promise();
}

/** Node (in this process) and aws-sdk uploads of `input` at concurrency 1 and 4 against `target`. */
async function concurrencyRuns(target, input, label) {
	const rows = { c1: [], c4: [], speedup: [], sdk1: [], sdk4: [], sdkSpeedup: [] };
	const { store, credentials } = nodeCredentials(target.url, AWS_WORDS);
	const upload = async (concurrency) => {
		const params = {
			resource: 'object',
			operation: 'upload',
			bucket: rl(BUCKET),
			key: `latency/node-${concurrency}.bin`,
			binaryData: true,
			binaryPropertyName: 'data',
			options: { multipartThreshold: 0, partSize: PART_MIB, concurrency },
		};
		return (await runNode(params, credentials, store, { binary: input.binary })).ms;
	};
	const sdk = async (queueSize) => {
		syncDisk();
		const t = performance.now();
		await target.s3.upload({ Bucket: BUCKET, Key: `latency/sdk-${queueSize}.bin`, Body: fs.createReadStream(input.file) }, { partSize: PART_MIB * MiB, queueSize }).promise();
		return performance.now() - t;
	};
	for (let run = 0; run < RUNS; run++) {
		const order = run % 2 === 0 ? [1, CONCURRENCY] : [CONCURRENCY, 1];
		const node = {};
		const peer = {};
		for (const c of order) node[c] = await upload(c);
		for (const c of order) peer[c] = await sdk(c);
		rows.c1.push(node[1]);
		rows.c4.push(node[CONCURRENCY]);
		rows.speedup.push(node[1] / node[CONCURRENCY]);
		rows.sdk1.push(peer[1]);
		rows.sdk4.push(peer[CONCURRENCY]);
		rows.sdkSpeedup.push(peer[1] / peer[CONCURRENCY]);
		console.log(
			`  run ${run + 1} (${label}): node concurrency 1 ${fmt(node[1], 0)} ms, ${CONCURRENCY} ${fmt(node[CONCURRENCY], 0)} ms, speed-up ${fmt(rows.speedup[run], 2)}x; ` +
				`aws-sdk queueSize 1 ${fmt(peer[1], 0)} ms, ${CONCURRENCY} ${fmt(peer[CONCURRENCY], 0)} ms, speed-up ${fmt(rows.sdkSpeedup[run], 2)}x (load ${load()})`,
		);
	}
	return rows;
}

async function latency(ctx, input) {
	const { emu, s3 } = ctx;
	await emu.control('POST', '/faults', { latencyMs: LATENCY_MS });
	try {
		return await concurrencyRuns({ url: emu.url, s3 }, input, 'emulator');
	} finally {
		await emu.control('POST', '/faults', { latencyMs: 0 });
		const keys = ['latency/node-1.bin', `latency/node-${CONCURRENCY}.bin`, 'latency/sdk-1.bin', `latency/sdk-${CONCURRENCY}.bin`];
		await deleteKeys(s3, keys);
	}
}

async function sink(ctx, input) {
	const server = await spawnServer(path.join(__dirname, 's3-sink.js'), ['--latency', String(LATENCY_MS)]);
	try {
		return await concurrencyRuns({ url: server.url, s3: ctx.client(server.url) }, input, 'sink');
	} finally {
		await server.close();
	}
}

async function listing(ctx) {
	const { emu, s3 } = ctx;
	const { store, credentials } = nodeCredentials(emu.url, AWS_WORDS);
	// keys of varied shape and length, seeded through the control route 10,000 at a time
	const keyOf = (i) => `logs/${String(i % 97).padStart(2, '0')}/${String(i).padStart(6, '0')}-${(i * 2654435761) % 1e9}.json`;
	for (let i = 0; i < KEYS; i += 10000) {
		const objects = [];
		for (let j = i; j < Math.min(KEYS, i + 10000); j++) objects.push({ key: keyOf(j), body: String(j) });
		const res = await emu.control('POST', '/storage/objects', { bucket: LIST_BUCKET, objects });
		if (res.error) throw new Error(res.error);
	}
	const rows = { node: [], sdk: [], ratio: [] };
	const nodeList = async () => {
		const r = await runNode({ resource: 'bucket', operation: 'listObjects', bucket: rl(LIST_BUCKET), returnAll: true }, credentials, store);
		if (r.items.length !== KEYS) throw new Error(`node listed ${r.items.length} keys`);
		return r.ms;
	};
	const sdkList = async () => {
		gc();
		const t = performance.now();
		let marker;
		let count = 0;
		for (;;) {
			const page = await s3.listObjects({ Bucket: LIST_BUCKET, MaxKeys: 1000, Marker: marker }).promise();
			count += page.Contents.length;
			if (!page.IsTruncated) break;
			marker = page.NextMarker || page.Contents[page.Contents.length - 1].Key;
		}
		if (count !== KEYS) throw new Error(`aws-sdk listed ${count} keys`);
		return performance.now() - t;
	};
	// warm-up: both code paths loaded and compiled once
	await runNode({ resource: 'bucket', operation: 'listObjects', bucket: rl(LIST_BUCKET), returnAll: false, limit: 2000 }, credentials, store);
	await s3.listObjects({ Bucket: LIST_BUCKET, MaxKeys: 1000 }).promise();
	for (let run = 0; run < RUNS; run++) {
		let nodeMs;
		let sdkMs;
		if (run % 2 === 0) {
			nodeMs = await nodeList();
			sdkMs = await sdkList();
		} else {
			sdkMs = await sdkList();
			nodeMs = await nodeList();
		}
		rows.node.push(nodeMs);
		rows.sdk.push(sdkMs);
		rows.ratio.push(nodeMs / sdkMs);
		console.log(`  run ${run + 1}: node ${fmt(nodeMs, 0)} ms, aws-sdk ${fmt(sdkMs, 0)} ms, ratio ${fmt(nodeMs / sdkMs, 2)} (load ${load()})`);
	}
	return rows;
}

/* ------------------------------------------------------------ main */

async function main() {
	const { writeRandomFile } = require('../support/storage');
	const { spawnEmulator } = require('../../emulator/spawn');
	const emu = await spawnEmulator(['--data', path.join(benchDir, 'emulator')]);
	const client = s3Client;
	const out = {};
	const loadAtStart = load();
	try {
		await emu.control('POST', '/storage/config', AWS_WORDS);
		await emu.control('POST', '/storage/buckets', { name: BUCKET });
		const s3 = client(emu.url);
		const ctx = { emu, s3, client };
		const { store, credentials } = nodeCredentials(emu.url, AWS_WORDS);
		console.log(`object storage benchmark: ${RUNS} runs of each measure, medians; emulator in its own process, bodies on disk; node run by n8n-core, filesystem binary mode`);
		console.log(`  ${os.cpus().length} CPUs, node ${process.version}, load average at start ${loadAtStart}`);
		console.log(`  RSS: baseline after GC, sampled every ${SAMPLE_MS} ms${kernelPeak ? ' and the kernel peak (VmHWM)' : ''}; the larger growth is reported`);

		// warm-up of the clients in this process, on an object below the part size (one PUT)
		const warm = writeRandomFile(benchDir, 'warm.bin', MiB, 7);
		const warmBinary = await storeBinary(warm.file, credentials, store);
		await runNode({ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: 'warm.bin', binaryData: true, binaryPropertyName: 'data' }, credentials, store, { binary: warmBinary });
		await s3.upload({ Bucket: BUCKET, Key: 'warm-sdk.bin', Body: fs.createReadStream(warm.file) }, { partSize: PART_MIB * MiB, queueSize: CONCURRENCY }).promise();
		await deleteKeys(s3, ['warm.bin', 'warm-sdk.bin']);

		if (ONLY.includes('transfer')) {
			const input = writeRandomFile(benchDir, 'input.bin', SIZE, 1);
			input.binary = await storeBinary(input.file, credentials, store);
			console.log(`\n1. ${SIZE / MiB} MiB upload and download, part size ${PART_MIB} MiB, concurrency ${CONCURRENCY}; each transfer in a fresh process`);
			out.transfer = await transfer(ctx, input);
			fs.rmSync(input.file);
			await binaryService().deleteManyByBinaryDataId([input.binary.id]);
		}
		if (ONLY.includes('latency') || ONLY.includes('sink')) {
			const input = writeRandomFile(benchDir, 'latency.bin', LATENCY_SIZE, 2);
			input.binary = await storeBinary(input.file, credentials, store);
			if (ONLY.includes('latency')) {
				console.log(`\n2. ${LATENCY_SIZE / MiB} MiB upload at ${LATENCY_MS} ms added latency per request, part size ${PART_MIB} MiB, concurrency 1 and ${CONCURRENCY}`);
				out.latency = await latency(ctx, input);
			}
			if (ONLY.includes('sink')) {
				console.log(`\n2b. diagnostic: the same against a minimal S3 sink (${LATENCY_MS} ms latency, no hashing, no storage)`);
				out.sink = await sink(ctx, input);
			}
			fs.rmSync(input.file);
		}
		if (ONLY.includes('list')) {
			console.log(`\n3. List Objects, Return All over ${KEYS} keys (1000 per page)`);
			out.list = await listing(ctx);
		}
	} finally {
		await emu.close();
		fs.rmSync(benchDir, { recursive: true, force: true });
	}

	const lines = [];
	if (out.transfer) {
		const t = out.transfer;
		const ms = (n) => median(t[n].map((r) => r.ms));
		const up = median(t.upRatio);
		const down = median(t.downRatio);
		const most = (n, k = 'growth') => Math.max(...t[n].map((r) => r[k])) / MiB;
		const growth = Math.max(most('nodeUp'), most('nodeDown'));
		const sz = SIZE === 1024 * MiB ? '1 GiB' : `${SIZE / MiB} MiB`;
		const ratios = (xs) => `[${list(xs, (x) => fmt(x, 2))}]`;
		lines.push(
			`  ${sz} upload:   node ${fmt(mibps(SIZE, ms('nodeUp')))} MiB/s, aws-sdk ${fmt(mibps(SIZE, ms('sdkUp')))} MiB/s, ratio node/aws-sdk ${fmt(up, 2)} ${ratios(t.upRatio)} (target >= 0.8) ${verdict(up >= 0.8)}`,
		);
		lines.push(
			`  ${sz} download: node ${fmt(mibps(SIZE, ms('nodeDown')))} MiB/s, aws-sdk ${fmt(mibps(SIZE, ms('sdkDown')))} MiB/s, ratio node/aws-sdk ${fmt(down, 2)} ${ratios(t.downRatio)} (target >= 0.8) ${verdict(down >= 0.8)}`,
		);
		lines.push(
			`  peak RSS growth, largest of ${RUNS} runs, MiB: node upload ${fmt(most('nodeUp'))} (array buffers ${fmt(most('nodeUp', 'arrayBuffersGrowth'))}), download ${fmt(most('nodeDown'))} (array buffers ${fmt(most('nodeDown', 'arrayBuffersGrowth'))}); ` +
				`aws-sdk upload ${fmt(most('sdkUp'))}, download ${fmt(most('sdkDown'))} (target node <= 64 MiB for ${sz}) ${verdict(growth <= 64)}`,
		);
		const upL = median(t.upLimit);
		const downL = median(t.downLimit);
		lines.push(
			`  limit of this machine (Node's plain http, presigned URL, one request, file streamed): upload ${fmt(mibps(SIZE, ms('httpUp')))} MiB/s, node/limit ${fmt(upL, 2)} ${ratios(t.upLimit)}; ` +
				`download ${fmt(mibps(SIZE, ms('httpDown')))} MiB/s, node/limit ${fmt(downL, 2)} ${ratios(t.downLimit)}${upL < 0.8 || downL < 0.8 ? ' (below 0.8: see BENCH_CPU_PROFILE)' : ''}`,
		);
		lines.push(
			`  ${sz} copy: node Copy ${fmt(ms('nodeCopy') / 1000, 1)} s, Download + Upload by hand ${fmt(ms('getPut') / 1000, 1)} s, by hand/node ${fmt(median(t.copyRatio), 2)} ${ratios(t.copyRatio)}; ` +
				`peak RSS growth, MiB: node Copy ${fmt(most('nodeCopy'))}, by hand ${fmt(most('getPut'))}`,
		);
	}
	const speedups = (l, what) => {
		const s = median(l.speedup);
		return (
			`  ${LATENCY_SIZE / MiB} MiB upload at ${LATENCY_MS} ms, ${what}: node concurrency 1 ${fmt(median(l.c1), 0)} ms, ${CONCURRENCY} ${fmt(median(l.c4), 0)} ms, speed-up ${fmt(s, 2)}x [${list(l.speedup, (x) => fmt(x, 2))}]` +
			`${what === 'emulator' ? ` (target >= 3x) ${verdict(s >= 3)}` : ''}; aws-sdk queueSize 1 ${fmt(median(l.sdk1), 0)} ms, ${CONCURRENCY} ${fmt(median(l.sdk4), 0)} ms, speed-up ${fmt(median(l.sdkSpeedup), 2)}x`
		);
	};
	if (out.latency) lines.push(speedups(out.latency, 'emulator'));
	if (out.sink) lines.push(speedups(out.sink, 'minimal sink (diagnostic)'));
	if (out.list) {
		const r = median(out.list.ratio);
		lines.push(
			`  List Objects, Return All, ${KEYS} keys: node ${fmt(median(out.list.node), 0)} ms, aws-sdk ${fmt(median(out.list.sdk), 0)} ms, ratio node/aws-sdk ${fmt(r, 2)} [${list(out.list.ratio, (x) => fmt(x, 2))}] (target <= 1.2) ${verdict(r <= 1.2)}`,
		);
	}
	console.log(`\nsummary (medians of ${RUNS} runs; load average at start ${loadAtStart}, at the end ${load()})`);
	for (const l of lines) console.log(l);
	return out;
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
module.exports = { main };

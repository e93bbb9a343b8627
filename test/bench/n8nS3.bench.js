'use strict';
/**
 * The node against n8n's own S3 node, both in the real n8n (issue 27). Figures, not assertions;
 * not part of `npm test`.
 *
 *   npm run bench n8nS3
 *
 * One `n8n start` (the version the real-n8n tests run on, 2.40.7 by default; VENDOR_N8N_VERSION=1.123.x
 * for the 1.x line, and VENDOR_N8N_NODE=22 to run it on Node 22 as n8n 1.x images did; filesystem
 * binary data, 2.x's default, set for 1.x too) with this package installed from its packed tarball, against s3rver (the
 * npm S3 test server, in its own process, bodies on disk) in AWS mode. Two workflows, each a
 * production webhook, then Download of the same 1 GiB object into n8n's binary store, then
 * Upload of that binary under another key: one with this package's Object Storage nodes (the
 * defaults: up to the 1 GiB Multipart Threshold one streamed PUT, above it 8 MiB parts, 4 in
 * parallel), one with n8n's S3 node (File > Download, File > Upload); both built by
 * downloadUploadWorkflow (test/real-n8n/objects-lib.js), as the large-object test's is.
 * The time of each node is n8n's own record of it (executionTime in the execution's run data);
 * the RSS of the n8n process is read from /proc every 100 ms and each node's growth is its peak
 * while it ran minus the last sample before it started; its CPU time (all threads, from
 * /proc/<pid>/stat, in 10 ms ticks) over the same samples is printed too: on this 2-core machine
 * n8n shares the CPUs with s3rver, so CPU spent per byte is what decides the speed.
 *
 * The limit of this machine, in the same run: the same bytes between the same s3rver and the
 * same disk by Node's plain `http` (a presigned URL, one request, the file streamed in or out),
 * no n8n; printed as node/limit.
 *
 * BENCH_MEASUREMENTS (2) measurements of BENCH_RUNS (3) runs each, the two workflows alternated
 * (ours, n8n's, ours, ...; the limit after each pair); each measurement prints the ratio n8n's
 * time / ours (sums of its runs; above 1 means ours is faster) for upload and download.
 * BENCH_SIZE_MIB (1024). BENCH_CPU_PROFILE=dir: n8n runs with --cpu-prof into dir (written when
 * it stops; open in Chrome's DevTools).
 *
 * Each node's row also says how many mark-compacts (collections of n8n's whole heap) the n8n
 * process made while the node ran, written down by a preload (perf_hooks' gc entries).
 * BENCH_V8_FLAGS="--flag ...": V8 flags the preload sets in the n8n process at its start
 * (v8.setFlagsFromString; NODE_OPTIONS refuses most V8 flags), to show what n8n's own settings do
 * to both nodes. docs/developers/performance.md ("Download speed and n8n's garbage collector") reports the
 * default and --external-memory-accounted-in-global-limit.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pipeline } = require('node:stream/promises');
const { performance } = require('node:perf_hooks');

process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
const n8n = require('../real-n8n/lib');
const { downloadUploadWorkflow, waitForWebhook } = require('../real-n8n/objects-lib');
const { writeRandomFile } = require('../support/storage');
const { startS3rver } = require('./s3rver-server');

const ROOT = path.resolve(__dirname, '..', '..');
const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB || 1024) * MiB;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 3));
const MEASUREMENTS = Math.max(1, Number(process.env.BENCH_MEASUREMENTS || 2));
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE ? path.resolve(process.env.BENCH_CPU_PROFILE) : undefined;
const V8_FLAGS = (process.env.BENCH_V8_FLAGS || '').trim();
const BUCKET = 'bench-n8n';
const SOURCE = 'source/object.bin';
const KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const mibps = (ms) => SIZE / MiB / (ms / 1000);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const load = () =>
	os
		.loadavg()
		.map((x) => x.toFixed(2))
		.join(' ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* ------------------------------------------------------------ s3rver and the limit */


function s3Client(endpoint) {
	const AWS = require('aws-sdk');
	return new AWS.S3({ endpoint, s3ForcePathStyle: true, signatureVersion: 'v2', region: 'us-east-1', maxRetries: 0, ...KEY });
}

/** Plain `http`: the file PUT to a presigned URL, or a GET piped into a file. Resolves the time in ms. */
async function plainHttp(s3, op, key, file) {
	const http = require('node:http');
	if (op === 'upload') {
		const url = new URL(s3.getSignedUrl('putObject', { Bucket: BUCKET, Key: key, Expires: 3600 }));
		const size = fs.statSync(file).size;
		const t0 = performance.now();
		const res = await new Promise((resolve, reject) => {
			const req = http.request(url, { method: 'PUT', headers: { 'Content-Length': size } }, resolve);
			req.once('error', reject);
			fs.createReadStream(file).once('error', reject).pipe(req);
		});
		res.resume();
		await new Promise((r) => res.once('end', r));
		const ms = performance.now() - t0;
		if (res.statusCode !== 200) throw new Error(`plain PUT answered ${res.statusCode}`);
		return ms;
	}
	const url = new URL(s3.getSignedUrl('getObject', { Bucket: BUCKET, Key: key, Expires: 3600 }));
	const t0 = performance.now();
	const res = await new Promise((resolve, reject) => http.get(url, resolve).once('error', reject));
	if (res.statusCode !== 200) throw new Error(`plain GET answered ${res.statusCode}`);
	await pipeline(res, fs.createWriteStream(file));
	const ms = performance.now() - t0;
	if (fs.statSync(file).size !== SIZE) throw new Error(`plain GET: ${fs.statSync(file).size} bytes`);
	return ms;
}

/** RSS of `pid` every 100 ms, stamped with the wall clock (n8n's run data uses it too). */
function sampleRss(pid) {
	const series = [];
	const read = () => {
		try {
			const kib = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
			// utime and stime (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms): every thread's CPU
			const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
			series.push([Date.now(), kib * 1024, (Number(fields[11]) + Number(fields[12])) * 10]);
		} catch {
			// gone
		}
	};
	read();
	const timer = setInterval(read, 100);
	return () => {
		clearInterval(timer);
		read();
		return series;
	};
}

/**
 * NODE_OPTIONS for the n8n process: the CPU profile when asked for, and a preload that sets
 * BENCH_V8_FLAGS and writes down every mark-compact (a collection of the whole heap, from
 * perf_hooks' gc entries) as `pid wall-clock-ms` lines in `gcFile`.
 */
function n8nNodeOptions(dir, gcFile) {
	const options = [];
	if (PROFILE_DIR) options.push(`--cpu-prof --cpu-prof-dir=${PROFILE_DIR}`);
	const preload = path.join(dir, 'n8n-preload.js');
	fs.writeFileSync(
		preload,
		[
			"'use strict';",
			V8_FLAGS ? `require('node:v8').setFlagsFromString(${JSON.stringify(V8_FLAGS)});` : '',
			"const fs = require('node:fs');",
			"const { PerformanceObserver, performance, constants } = require('node:perf_hooks');",
			`const fd = fs.openSync(${JSON.stringify(gcFile)}, 'a');`,
			'new PerformanceObserver((list) => {',
			'\tfor (const e of list.getEntries()) if (e.detail && e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fs.writeSync(fd, `${process.pid} ${Math.round(performance.timeOrigin + e.startTime)}\\n`);',
			"}).observe({ entryTypes: ['gc'] });",
			'',
		].join('\n'),
	);
	options.push(`--require ${preload}`);
	return { NODE_OPTIONS: options.join(' ') };
}

/** Mark-compacts the process `pid` made between `from` and `to` (wall clock, ms), from the preload's file. */
function markCompacts(gcFile, pid, from, to) {
	const lines = fs.existsSync(gcFile) ? fs.readFileSync(gcFile, 'utf8').split('\n') : [];
	return lines.filter((l) => {
		const [p, t] = l.split(' ').map(Number);
		return p === pid && t >= from && t <= to;
	}).length;
}

/** CPU milliseconds the process used (all its threads) between the last sample before `from` and the first after `to`. */
function cpuUsed(series, from, to) {
	let base;
	for (const [t, , cpu] of series) {
		if (t < from) base = cpu;
		else if (t >= to && base !== undefined) return cpu - base;
	}
	return NaN;
}

/** Peak RSS while [from, to] minus the last sample before `from`. */
function growth(series, from, to) {
	let base;
	let peak = 0;
	for (const [t, b] of series) {
		if (t < from) base = b;
		else if (t <= to + 100) peak = Math.max(peak, b);
	}
	return base === undefined ? NaN : Math.max(0, peak - base);
}

/* ------------------------------------------------------------ main */

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-n8ns3-'));
	let s3rver;
	let server;
	let home;
	let tgz;
	try {
		const { nodeBin } = await n8n.ensureRuntime({ quiet: true });
		const nodeVersion = require('node:child_process').execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
		s3rver = await startS3rver(path.join(dir, 's3rver'));
		const s3 = s3Client(s3rver.url);
		await s3.createBucket({ Bucket: BUCKET }).promise();
		const input = writeRandomFile(dir, 'input.bin', SIZE, 27);
		await s3.upload({ Bucket: BUCKET, Key: SOURCE, Body: fs.createReadStream(input.file) }, { partSize: 64 * MiB, queueSize: 1 }).promise();

		tgz = n8n.packPackage(ROOT);
		home = await n8n.createN8nHome({ tgz });
		const [oursCred, peerCred] = await n8n.importCredentials(home, [
			{
				name: 'Vendor Object Storage (s3rver)',
				type: 'vendorObjectStorageApi',
				data: { endpoint: s3rver.url, accessKey: KEY.accessKeyId, accessSecret: KEY.secretAccessKey, advanced: true, schemeWord: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId', bucketPath: 'noSlash' },
			},
			{ name: 'S3 (s3rver)', type: 's3', data: { endpoint: s3rver.url, region: 'us-east-1', accessKeyId: KEY.accessKeyId, secretAccessKey: KEY.secretAccessKey, forcePathStyle: true } },
		]);
		const ours = downloadUploadWorkflow({ name: 'Bench: Vendor Object Storage download and upload', hook: 'bench-ours', bucket: BUCKET, credential: { id: oursCred, name: 'Vendor Object Storage (s3rver)' } });
		const peer = downloadUploadWorkflow({ name: "Bench: n8n's S3 node download and upload", hook: 'bench-peer', bucket: BUCKET, credential: { id: peerCred, name: 'S3 (s3rver)' }, peer: true });
		const flows = {
			ours: { id: await n8n.importWorkflow(home, ours), hook: 'bench-ours' },
			peer: { id: await n8n.importWorkflow(home, peer), hook: 'bench-peer' },
		};
		const gcFile = path.join(dir, 'mark-compacts.txt');
		const env = n8nNodeOptions(dir, gcFile);
		// filesystem binary data, as users run n8n 2.x by default and 1.x when they set it
		server = await n8n.startN8n(home, { env: { ...env, N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }, timeoutMs: 300000 });
		for (const f of Object.values(flows)) await server.activateWorkflow(f.id);
		for (const f of Object.values(flows)) await waitForWebhook(server, f.hook);

		let serial = 0;
		/** One execution of `which`: the node times from n8n's run data and the RSS growth of each. */
		const run = async (which) => {
			const f = flows[which];
			const target = `copies/${which}-${++serial}.bin`;
			await sleep(1000);
			const stop = sampleRss(server.pid);
			const answer = await fetch(`${server.url}/webhook/${f.hook}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ key: SOURCE, target }),
				signal: AbortSignal.timeout(30 * 60 * 1000),
			}).then(async (r) => ({ status: r.status, text: await r.text() }));
			const series = stop();
			const [execution] = await server.listExecutions({ workflowId: f.id, limit: 1 });
			const ex = await server.getExecution(execution.id);
			if (ex.status !== 'success') throw new Error(`${which}: ${ex.status} ${JSON.stringify(ex.error)} (webhook ${answer.status} ${answer.text.slice(0, 300)})`);
			const runData = ex.raw.data.resultData.runData;
			const node = (name) => {
				const r = runData[name][0];
				return { ms: r.executionTime, growth: growth(series, r.startTime, r.startTime + r.executionTime), cpu: cpuUsed(series, r.startTime, r.startTime + r.executionTime), gcs: markCompacts(gcFile, server.pid, r.startTime, r.startTime + r.executionTime) };
			};
			const copy = await s3.headObject({ Bucket: BUCKET, Key: target }).promise();
			if (copy.ContentLength !== SIZE) throw new Error(`${which}: the copy has ${copy.ContentLength} bytes`);
			await s3.deleteObject({ Bucket: BUCKET, Key: target }).promise();
			// its binary data goes with it
			await server.rest('POST', '/executions/delete', { ids: [execution.id] });
			return { down: node('Download'), up: node('Upload') };
		};
		const limit = async () => {
			const out = path.join(dir, 'limit-download.bin');
			const down = await plainHttp(s3, 'download', SOURCE, out);
			fs.rmSync(out);
			const up = await plainHttp(s3, 'upload', 'copies/limit.bin', input.file);
			await s3.deleteObject({ Bucket: BUCKET, Key: 'copies/limit.bin' }).promise();
			return { down, up };
		};

		const mib = (b) => fmt(b / MiB, 0);
		console.log(`n8n ${n8n.version} on Node ${nodeVersion} (real, filesystem binary data) against s3rver, ${SIZE / MiB} MiB, ${MEASUREMENTS} measurements of ${RUNS} runs alternated; ${os.cpus().length} CPUs, load average at start ${load()}`);
		console.log('  Download then Upload of the same object in one workflow; node times from n8n\'s run data; RSS growth of the n8n process while the node ran');
		const results = [];
		// one warm-up execution of each (code loaded, connections made), not counted
		if (process.env.BENCH_WARMUP !== '0') {
			await run('ours');
			await run('peer');
		}
		for (let m = 1; m <= MEASUREMENTS; m++) {
			const rows = { ours: [], peer: [], limit: [] };
			for (let i = 0; i < RUNS; i++) {
				for (const which of ['ours', 'peer']) {
					const r = await run(which);
					rows[which].push(r);
					console.log(
						`  measurement ${m} run ${i + 1} ${which === 'ours' ? 'ours' : "n8n's"}: download ${fmt(r.down.ms / 1000, 2)} s (${fmt(mibps(r.down.ms))} MiB/s, RSS +${mib(r.down.growth)} MiB, CPU ${fmt(r.down.cpu / 1000, 2)} s, ${r.down.gcs} mark-compacts), ` +
							`upload ${fmt(r.up.ms / 1000, 2)} s (${fmt(mibps(r.up.ms))} MiB/s, RSS +${mib(r.up.growth)} MiB, CPU ${fmt(r.up.cpu / 1000, 2)} s, ${r.up.gcs} mark-compacts) (load ${load()})`,
					);
				}
				const l = await limit();
				rows.limit.push(l);
				console.log(`  measurement ${m} run ${i + 1} limit (plain http): download ${fmt(l.down / 1000, 2)} s (${fmt(mibps(l.down))} MiB/s), upload ${fmt(l.up / 1000, 2)} s (${fmt(mibps(l.up))} MiB/s) (load ${load()})`);
			}
			const t = (which, dir2) => sum(rows[which].map((r) => r[dir2].ms));
			const lim = (dir2) => sum(rows.limit.map((r) => r[dir2]));
			const res = {
				up: t('peer', 'up') / t('ours', 'up'),
				down: t('peer', 'down') / t('ours', 'down'),
				upLimit: lim('up') / t('ours', 'up'),
				downLimit: lim('down') / t('ours', 'down'),
				peerUpLimit: lim('up') / t('peer', 'up'),
				peerDownLimit: lim('down') / t('peer', 'down'),
				growth: (which, d) => Math.max(...rows[which].map((r) => r[d].growth)),
				cpu: (which, d) => sum(rows[which].map((r) => r[d].cpu)),
				gcs: (which, d) => sum(rows[which].map((r) => r[d].gcs)),
			};
			results.push(res);
			console.log(
				`  measurement ${m}: n8n's time / ours: upload ${fmt(res.up, 2)}, download ${fmt(res.down, 2)}; node/limit: ours upload ${fmt(res.upLimit, 2)}, download ${fmt(res.downLimit, 2)}; ` +
					`n8n's upload ${fmt(res.peerUpLimit, 2)}, download ${fmt(res.peerDownLimit, 2)}; ` +
					`largest RSS growth, MiB: ours upload ${mib(res.growth('ours', 'up'))}, download ${mib(res.growth('ours', 'down'))}; n8n's upload ${mib(res.growth('peer', 'up'))}, download ${mib(res.growth('peer', 'down'))}; ` +
					`CPU s of the n8n process: ours upload ${fmt(res.cpu('ours', 'up') / 1000, 1)}, download ${fmt(res.cpu('ours', 'down') / 1000, 1)}; n8n's upload ${fmt(res.cpu('peer', 'up') / 1000, 1)}, download ${fmt(res.cpu('peer', 'down') / 1000, 1)}; ` +
					`mark-compacts: ours upload ${res.gcs('ours', 'up')}, download ${res.gcs('ours', 'down')}; n8n's upload ${res.gcs('peer', 'up')}, download ${res.gcs('peer', 'down')}`,
			);
		}
		console.log(`\nsummary (load average at the end ${load()})`);
		for (const [i, r] of results.entries()) {
			console.log(`  measurement ${i + 1}: n8n's S3 node time / ours: upload ${fmt(r.up, 2)} ${r.up > 1 ? 'faster' : 'NOT faster'}, download ${fmt(r.down, 2)} ${r.down > 1 ? 'faster' : 'NOT faster'}; ours/limit upload ${fmt(r.upLimit, 2)}, download ${fmt(r.downLimit, 2)}`);
		}
	} finally {
		if (server) await server.stop();
		if (home) home.cleanup();
		if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
		if (s3rver) await s3rver.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

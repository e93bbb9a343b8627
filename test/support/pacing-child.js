'use strict';
/**
 * One measured series of downloads in a process of its own, for the young-heap pacing's benchmark
 * (test/bench/pacing.bench.js) and test (test/nodes/objectStorage/pacing.test.js). Run it on
 * the Node.js to measure, with V8's --trace-gc-nvp (one line per collection on stdout):
 *
 *   node --expose-gc --trace-gc-nvp test/support/pacing-child.js '<job as JSON>'
 *
 * job: { endpoint, bucket, keys: [key, ...] (downloaded by one Download node run, key from each
 * item), rounds (node runs, default 1), concurrency (Concurrent Requests, default 4), pacing:
 * 'auto' (what the runtime chooses) | 'on' | 'off', liveMiB (live heap held while measuring, as
 * n8n's about 175 MB; default 0), warmKey (downloaded once before the baseline) }.
 *
 * The node runs in n8n-core (test/support/n8n.js), binary data in the filesystem store (a
 * scratch folder, removed at the end). Between the marker lines `PACING-START` and `PACING-END`
 * (written synchronously, so V8's own lines fall in order between them) V8 writes one line per
 * collection: `gc=s` a young collection (scavenge), `gc=ms` (V8 11-12) or `gc=mc` a mark-compact, `allocated=` the heap
 * bytes allocated since the collection before. The last line is `RESULT {json}`: the runtime's
 * choice (`auto`), whether pacing was on, the bytes downloaded, CPU time of the process (all
 * threads; user and system apart) and its minor page faults (memory the kernel had to map), wall time of the measured stretch, and its RSS growth (peak over a baseline taken
 * after a full collection: sampled every 50 ms and the kernel's VmHWM, the larger).
 * parseTrace(stdout) reads the lines back.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { kernelPeak } = require('./peak-rss');

const ROOT = path.resolve(__dirname, '..', '..');

/** The collections and allocations V8 wrote between the markers, and the RESULT line. */
function parseTrace(stdout) {
	const lines = String(stdout).split('\n');
	const from = lines.indexOf('PACING-START');
	const to = lines.indexOf('PACING-END');
	const window = from >= 0 && to > from ? lines.slice(from + 1, to) : [];
	const gc = { scavenges: 0, markCompacts: 0, allocated: 0 };
	for (const line of window) {
		const kind = /\bgc=(\w+)/.exec(line)?.[1];
		if (!kind) continue;
		// V8 11-12 write a mark-compact as gc=ms, V8 13 and later as gc=mc; young ones are gc=s
		if (kind === 's' || kind === 'mmc') gc.scavenges++;
		else if (kind === 'ms' || kind === 'mc') gc.markCompacts++;
		gc.allocated += Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0);
	}
	const resultLine = lines.find((l) => l.startsWith('RESULT '));
	const result = resultLine ? JSON.parse(resultLine.slice(7)) : undefined;
	return { ...gc, result };
}

/** About `mib` MiB of live objects, as a long-running n8n holds (workflows, node types, caches). */
function liveHeap(mib) {
	const v8 = require('node:v8');
	const keep = [];
	const target = v8.getHeapStatistics().used_heap_size + mib * 1024 * 1024;
	for (let i = 0; v8.getHeapStatistics().used_heap_size < target; i++) {
		const block = [];
		for (let j = 0; j < 10000; j++) block.push({ id: i * 10000 + j, name: `node-${j}`, position: [j, i], parameters: { value: j * 2 } });
		keep.push(block);
	}
	return keep;
}

async function child(job) {
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-pacing-'));
	process.env.N8N_USER_FOLDER = scratch;
	process.env.VENDOR_EXERCISED_DIR = path.join(scratch, 'exercised');
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	const n8n = require('./n8n');
	const { youngHeapPacing } = require(path.join(ROOT, 'dist', 'nodes', 'shared', 'storage', 'body.js'));
	const auto = youngHeapPacing.on;
	youngHeapPacing.on = job.pacing === 'on' ? true : job.pacing === 'off' ? false : auto;

	const store = new n8n.CredentialStore();
	const credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: job.endpoint, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret', ...(job.credential || {}) }) };
	const parameters = {
		resource: 'object',
		operation: 'download',
		bucket: { __rl: true, mode: 'name', value: job.bucket },
		key: '={{ $json.key }}',
		options: { concurrency: job.concurrency ?? 4 },
	};
	const download = async (keys) => {
		const { items, error } = await n8n.runNode('vendorObjectStorage', parameters, { credentials, store, input: keys.map((key) => ({ key })) });
		if (error) throw new Error(`Download failed: ${error.message} ${error.description ?? ''}`);
		let bytes = 0;
		for (const item of items) bytes += Number(item.binary.data.bytes ?? item.json.size ?? 0);
		return bytes;
	};
	const keep = liveHeap(job.liveMiB ?? 0);
	if (job.warmKey) await download([job.warmKey]);

	const peak = kernelPeak();
	global.gc?.();
	global.gc?.();
	const base = process.memoryUsage().rss;
	let sampled = base;
	const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 50);
	peak?.reset();
	const cpu0 = process.cpuUsage();
	const faults0 = process.resourceUsage().minorPageFault;
	const t0 = process.hrtime.bigint();
	fs.writeSync(1, 'PACING-START\n');
	let bytes = 0;
	for (let round = 0; round < (job.rounds ?? 1); round++) bytes += await download(job.keys);
	fs.writeSync(1, 'PACING-END\n');
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = process.cpuUsage(cpu0);
	const faults = process.resourceUsage().minorPageFault - faults0;
	clearInterval(timer);
	sampled = Math.max(sampled, process.memoryUsage().rss);
	const growth = Math.max(sampled, peak ? peak.read() : 0) - base;
	fs.writeSync(1, `RESULT ${JSON.stringify({ node: process.version, auto, on: youngHeapPacing.on, bytes, cpuMs: (cpu.user + cpu.system) / 1000, userMs: cpu.user / 1000, systemMs: cpu.system / 1000, pageFaults: faults, wallMs, rssGrowth: growth, live: keep.length })}\n`);
	fs.rmSync(scratch, { recursive: true, force: true });
}

/**
 * Runs the child on `nodeBin` and resolves its parsed trace: { scavenges, markCompacts, allocated,
 * result } (rejects, with its stderr, when it fails).
 */
function runPacingChild(nodeBin, job, { timeoutMs = 10 * 60 * 1000 } = {}) {
	const { spawn } = require('node:child_process');
	return new Promise((resolve, reject) => {
		const proc = spawn(nodeBin, ['--expose-gc', '--trace-gc-nvp', __filename, JSON.stringify(job)], {
			cwd: ROOT,
			env: { ...process.env, N8N_LOG_LEVEL: 'silent', NODE_OPTIONS: '' },
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: timeoutMs,
		});
		let stdout = '';
		let stderr = '';
		proc.stdout.on('data', (d) => (stdout += d));
		proc.stderr.on('data', (d) => (stderr += d));
		proc.once('error', reject);
		proc.once('close', (code, signal) => {
			const parsed = parseTrace(stdout);
			if (code === 0 && parsed.result) resolve(parsed);
			else reject(new Error(`pacing child on ${nodeBin} ended with ${code ?? signal}: ${stderr.slice(-2000)}`));
		});
	});
}

module.exports = { parseTrace, runPacingChild };

if (require.main === module) {
	child(JSON.parse(process.argv[2])).catch((error) => {
		process.stderr.write(`${error.stack || error}\n`);
		process.exit(1);
	});
}

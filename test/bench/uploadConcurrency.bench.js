'use strict';
/**
 * Upload of many files at once (issue 37). Figures, not assertions; not part of `npm test`
 * (test/nodes/objectStorage/uploadConcurrency.test.js holds the bound and the order).
 *
 *   npm run bench uploadConcurrency
 *
 * The emulator in its own process (bodies on disk) with BENCH_LATENCY_MS (50) added before every
 * answer; the node run by n8n-core, the files in n8n's filesystem binary store (put there once,
 * before the runs). Two sets: BENCH_SMALL (1000) files of 100 KB, and BENCH_LARGE (50) files of
 * 5 MB (one PUT each below the Multipart Threshold). Each set is uploaded by one Upload node run at
 * Concurrent Requests 1 (one at a time, what Upload did before) and at BENCH_CONCURRENCY (4,16,64),
 * the order of the variants reversed from one run to the next (BENCH_RUNS, default 1).
 * Printed per run: the node's time (n8n-core's executionTime), the speed-up against one at a
 * time (dirty pages written out before each), the most requests the emulator held at once (its inFlight counter) and the peak RSS growth
 * of this process while the node ran (baseline after a full collection, sampled every 50 ms).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-uploads-'));
process.env.VENDOR_EXERCISED_DIR = path.join(process.env.N8N_USER_FOLDER, 'exercised');
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
const dir = process.env.N8N_USER_FOLDER;

const { Workflow } = require('n8n-workflow');
const { WorkflowExecute } = require('n8n-core');
const { n8n, NODE, MiB, rl, writeRandomFile } = require('../support/storage');
const { spawnEmulator } = require('../../emulator/spawn');

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 50);
const SMALL = Number(process.env.BENCH_SMALL || 1000);
const LARGE = Number(process.env.BENCH_LARGE || 50);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY || '4,16,64').split(',').map(Number);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
const BUCKET = 'bench-uploads';

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const load = () =>
	os
		.loadavg()
		.map((x) => x.toFixed(2))
		.join(' ');

/** Writes dirty pages out (the emulator's bodies of the run before), so that a run does not pay for another's writes. */
function syncDisk() {
	try {
		require('node:child_process').execFileSync('sync');
	} catch {
		// no sync(1): noisier figures, nothing else
	}
}

/** Start node that emits the prepared items (binaries already in n8n's binary store). */
class StoredItems {
	constructor() {
		this.description = { displayName: 'Stored Items', name: 'storedItems', group: ['trigger'], version: 1, defaults: { name: 'Start' }, inputs: [], outputs: ['main'], properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }] };
	}
	async trigger() {
		const raw = this.getNodeParameter('items', '[]');
		const items = typeof raw === 'string' ? JSON.parse(raw) : raw;
		return { manualTriggerFunction: async () => this.emit([items]) };
	}
}

let counter = 0;

/** Runs Start → the Object Storage node; resolves { items, ms (n8n-core's executionTime), growth }. */
async function runUpload(items, parameters, credentials, store) {
	await n8n.ensureBinaryData();
	const types = n8n.nodeTypes();
	types.all['bench.storedItems'] = new StoredItems();
	const id = `wf-uploads-${++counter}`;
	const nodes = [
		{ id: 's', name: 'Start', type: 'bench.storedItems', typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(items) } },
		{ id: 'n', name: 'Node', type: `${n8n.PREFIX}.${NODE}`, typeVersion: 1, position: [200, 0], parameters, credentials },
	];
	const connections = { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } };
	const workflowData = { id, name: id, nodes, connections, active: false, settings: { executionOrder: 'v1' }, staticData: {} };
	const workflow = new Workflow({ id, name: id, nodes, connections, active: false, nodeTypes: types, staticData: {}, settings: workflowData.settings });
	const hooks = new n8n.ExecutionLifecycleHooks('manual', `exec-${id}`, workflowData);
	let base = 0;
	let peak = 0;
	let timer;
	hooks.addHandler('nodeExecuteBefore', async (name) => {
		if (name !== 'Node') return;
		global.gc?.();
		base = peak = process.memoryUsage().rss;
		timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
	});
	hooks.addHandler('nodeExecuteAfter', async (name) => {
		if (name === 'Node') clearInterval(timer);
	});
	const run = await new WorkflowExecute(n8n.additionalDataFor(store, workflowData, 'manual', hooks), 'manual').run({ workflow, startNode: workflow.getNode('Start') });
	clearInterval(timer);
	const task = run.data.resultData.runData.Node?.[0];
	const error = task?.error || run.data.resultData.error;
	if (error) throw new Error(`Upload failed: ${error.message} ${error.description || ''}`);
	return { items: task.data.main[0], ms: task.executionTime, growth: peak - base };
}

/** `count` files of `size` bytes put into n8n's binary store once (100 at a time); resolves the items that carry them. */
async function storedFiles(name, count, size) {
	const out = [];
	for (let i = 0; i < count; i += 100) {
		const files = [];
		for (let j = i; j < Math.min(count, i + 100); j++) {
			files.push({ json: { key: `${name}/${j}.bin` }, binary: { data: { path: writeRandomFile(dir, `${name}-${j}.bin`, size, j + 1).file, fileName: `${j}.bin`, mimeType: 'application/octet-stream' } } });
		}
		out.push(...(await fixtureItems(files)));
		for (const f of files) fs.rmSync(f.binary.data.path);
	}
	return out;
}

/** The Binary Fixture's output items for `files` (their binaries in n8n's store). */
async function fixtureItems(files) {
	const result = await n8n.runWorkflow({
		nodes: [
			{ name: 'Start', type: 'test.startItems', parameters: { items: '[{}]' } },
			{ name: 'Fixture', type: 'test.binaryFixture', parameters: { files: JSON.stringify(files) } },
		],
		connections: { Start: { main: [[{ node: 'Fixture', type: 'main', index: 0 }]] } },
	});
	return result.output('Fixture').map((item) => ({ json: item.json, binary: item.binary }));
}

async function main() {
	const emulator = await spawnEmulator(['--data', path.join(dir, 'emulator')]);
	const store = new n8n.CredentialStore();
	const credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: emulator.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' }) };
	try {
		console.log(`uploads of many files: ${LATENCY_MS} ms added latency, Concurrent Requests 1 against ${CONCURRENCY.join(', ')}; ${os.cpus().length} CPUs, load average at start ${load()}`);
		await emulator.control('POST', '/storage/buckets', { name: BUCKET });
		const sets = [
			{ name: `${SMALL} x 100 KB`, items: await storedFiles('small', SMALL, 100 * 1000) },
			{ name: `${LARGE} x 5 MB`, items: await storedFiles('large', LARGE, 5 * 1000 * 1000) },
		];
		await emulator.control('POST', '/faults', { latencyMs: LATENCY_MS });
		const parameters = (concurrency) => ({ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: '={{ $json.key }}', options: { concurrency } });
		const summary = [];
		for (const set of sets) {
			const rows = {};
			for (let run = 0; run < RUNS; run++) {
				const order = run % 2 === 0 ? [1, ...CONCURRENCY] : [...CONCURRENCY].reverse().concat(1);
				for (const c of order) {
					syncDisk();
					await emulator.control('POST', '/stats/reset');
					const r = await runUpload(set.items, parameters(c), credentials, store);
					if (r.items.length !== set.items.length || r.items.some((item, i) => item.json.key !== set.items[i].json.key)) throw new Error('the output is not the input order');
					const inFlight = (await emulator.control('GET', '/stats')).inFlight.max;
					(rows[c] ??= []).push({ ms: r.ms, inFlight, growth: r.growth });
					console.log(`  ${set.name}, run ${run + 1}, Concurrent Requests ${c}: ${fmt(r.ms / 1000, 2)} s, at most ${inFlight} requests in flight at the service, RSS +${fmt(r.growth / MiB, 0)} MiB (load ${load()})`);
				}
			}
			const mean = (c, f) => rows[c].reduce((a, r) => a + f(r), 0) / rows[c].length;
			for (const c of CONCURRENCY) {
				summary.push(`  ${set.name}: Concurrent Requests ${c} ${fmt(mean(c, (r) => r.ms) / 1000, 2)} s against one at a time ${fmt(mean(1, (r) => r.ms) / 1000, 2)} s: ${fmt(mean(1, (r) => r.ms) / mean(c, (r) => r.ms), 1)}x; in flight at most ${Math.max(...rows[c].map((r) => r.inFlight))} (one at a time: ${Math.max(...rows[1].map((r) => r.inFlight))}); RSS growth ${fmt(Math.max(...rows[c].map((r) => r.growth)) / MiB, 0)} MiB (one at a time ${fmt(Math.max(...rows[1].map((r) => r.growth)) / MiB, 0)})`);
			}
		}
		console.log(`\nsummary (load average at the end ${load()})`);
		for (const line of summary) console.log(line);
	} finally {
		await emulator.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

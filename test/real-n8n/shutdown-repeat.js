#!/usr/bin/env node
'use strict';
/**
 * How `n8n start` ends on SIGTERM, many times over (issue 37: the smoke test's n8n 2.40.7 once
 * ended with SIGSEGV instead of exit 0). A diagnostic, not a test: it prints each stop and a
 * summary per variant, and keeps a backtrace of every crash.
 *
 *   bash -c 'ulimit -c unlimited; node test/real-n8n/shutdown-repeat.js [--runs 20] [--load 2] [--variants none,tiny,vendor] [--out dir]'
 *
 * Variants, each with its own n8n home kept across its runs (the database migrated once):
 *   none    no community package installed
 *   tiny    the smoke test's fixture package (test/fixtures/tiny-package)
 *   vendor  this package (packed from dist/: build first)
 * Each run starts n8n (startN8n of lib.js: owner set up, its own ports), publishes a workflow a
 * Schedule Trigger runs every second (a Set node with an expression, evaluated by n8n's
 * isolated-vm engine, then the variant's node: TinyEcho, or the Object Storage node's Get
 * Presigned URL, which signs locally and sends nothing), waits for two successful executions and
 * sends SIGTERM to n8n's process group (n8n and its task runner) while the schedule keeps firing,
 * exactly as the smoke test's stop does. The runs of the variants alternate, so the machine's
 * load weighs on each alike; `--load N` adds N busy processes for the whole time.
 *
 * A crash leaves a core file in the home (core dumps must be allowed: `ulimit -c unlimited` in the
 * shell that starts this script, and /proc/sys/kernel/core_pattern a plain file name): gdb's
 * backtrace of every thread is written to <out>/crash-<variant>-<run>.txt with n8n's last output.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const n8n = require('./lib');

const ROOT = path.resolve(__dirname, '..', '..');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('runs', 20));
const LOAD = Number(arg('load', 0));
const VARIANTS = arg('variants', 'none,tiny,vendor').split(',');
const OUT = path.resolve(arg('out', fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-shutdown-'))));

const workflow = (variant, credId) => {
	const nodes = [
		{ id: 's1', name: 'Schedule', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1.2, position: [0, 0], parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 1 }] } } },
		{
			id: 's2',
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: { assignments: { assignments: [{ id: 'a1', name: 'at', value: '={{ $now.toMillis() + 1 }}', type: 'number' }] }, options: {} },
		},
	];
	if (variant === 'tiny') nodes.push({ id: 's3', name: 'Node', type: 'n8n-nodes-tiny-echo.tinyEcho', typeVersion: 1, position: [400, 0], parameters: { text: '={{ $json.at }}' } });
	if (variant === 'vendor') {
		nodes.push({
			id: 's3',
			name: 'Node',
			type: 'n8n-nodes-vendor-cloud.vendorObjectStorage',
			typeVersion: 1,
			position: [400, 0],
			parameters: { resource: 'object', operation: 'getPresignedUrl', bucket: { __rl: true, mode: 'name', value: 'shutdown' }, key: '={{ "k-" + $json.at }}' },
			credentials: { vendorObjectStorageApi: { id: credId, name: 'Storage' } },
		});
	}
	const connections = { Schedule: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } };
	if (nodes.length > 2) connections.Set = { main: [[{ node: 'Node', type: 'main', index: 0 }]] };
	return { name: `Shutdown probe (${variant})`, nodes, connections };
};

async function prepare(variant) {
	const tgz = variant === 'tiny' ? n8n.packPackage(path.join(ROOT, 'test', 'fixtures', 'tiny-package')) : variant === 'vendor' ? n8n.packPackage(ROOT) : undefined;
	const home = await n8n.createN8nHome({ tgz });
	let credId;
	if (variant === 'vendor') {
		[credId] = await n8n.importCredentials(home, [{ name: 'Storage', type: 'vendorObjectStorageApi', data: { endpoint: 'http://127.0.0.1:9', accessKey: 'KEY', accessSecret: 'secret' } }]);
	}
	const id = await n8n.importWorkflow(home, workflow(variant, credId));
	return { variant, home, id, results: [] };
}

function backtrace(nodeBin, core) {
	const r = spawnSync('gdb', ['-batch', '-ex', 'info threads', '-ex', 'thread apply all bt 25', nodeBin, core], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 5 * 60 * 1000 });
	return `${r.stdout}\n${r.stderr}`;
}

async function once(v, run, nodeBin) {
	for (const f of fs.readdirSync(v.home.userFolder)) if (/^core(\.\d+)?$/.test(f)) fs.rmSync(path.join(v.home.userFolder, f));
	const server = await n8n.startN8n(v.home, { timeoutMs: 300000 });
	let res;
	let ms;
	try {
		if (run === 1) await server.activateWorkflow(v.id);
		await server.waitForExecutions(v.id, 2, { timeoutMs: 120000 });
		const t0 = Date.now();
		res = await server.stop();
		ms = Date.now() - t0;
	} finally {
		await server.stop();
	}
	const crashed = res.signal !== null || res.code !== 0;
	const line = { variant: v.variant, run, code: res.code, signal: res.signal, stopMs: ms, startMs: server.startMs, load: os.loadavg()[0] };
	if (crashed) {
		const core = fs.readdirSync(v.home.userFolder).find((f) => /^core(\.\d+)?$/.test(f));
		const file = path.join(OUT, `crash-${v.variant}-${run}.txt`);
		const trace = core ? backtrace(nodeBin, path.join(v.home.userFolder, core)) : '(no core file: allow core dumps with ulimit -c unlimited)';
		fs.writeFileSync(file, `${JSON.stringify(line)}\n\n--- gdb ---\n${trace}\n\n--- n8n output (last 200 lines) ---\n${server.logs().split('\n').slice(-200).join('\n')}\n`);
		if (core) fs.renameSync(path.join(v.home.userFolder, core), path.join(OUT, `core-${v.variant}-${run}`));
		line.details = file;
	}
	return line;
}

async function main() {
	const { nodeBin } = await n8n.ensureRuntime({ quiet: true });
	fs.mkdirSync(OUT, { recursive: true });
	const busy = Array.from({ length: LOAD }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
	const variants = [];
	try {
		for (const name of VARIANTS) variants.push(await prepare(name));
		console.log(`n8n ${n8n.version}: ${RUNS} stops per variant (${VARIANTS.join(', ')}), ${LOAD} busy processes added; core limit ${spawnSync('bash', ['-c', 'ulimit -c'], { encoding: 'utf8' }).stdout.trim()}; out ${OUT}`);
		for (let run = 1; run <= RUNS; run++) {
			for (const v of variants) {
				let line;
				try {
					line = await once(v, run, nodeBin);
				} catch (error) {
					line = { variant: v.variant, run, error: String(error.message).split('\n')[0] };
				}
				v.results.push(line);
				console.log(JSON.stringify(line));
			}
		}
	} finally {
		for (const b of busy) b.kill('SIGKILL');
		for (const v of variants) v.home.cleanup?.();
	}
	console.log('\nsummary');
	for (const v of variants) {
		const count = (f) => v.results.filter(f).length;
		console.log(
			`  ${v.variant}: ${v.results.length} stops, ${count((r) => r.code === 0 && r.signal === null)} exit 0, ${count((r) => r.signal)} by a signal (${[...new Set(v.results.filter((r) => r.signal).map((r) => r.signal))].join(', ') || 'none'}), ${count((r) => r.code !== undefined && r.code !== 0 && r.code !== null)} other exit codes, ${count((r) => r.error)} runs that failed before the stop`,
		);
	}
	console.log(`homes: ${variants.map((v) => v.home.userFolder).join(' ')}`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

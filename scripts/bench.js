#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: builds, then runs every test/bench/*.bench.js in its own process and prints
 * their figures. Not part of `npm test`: figures, not assertions.
 *   npm run bench -- management     only the benchmarks whose file name contains "management"
 *
 * The benchmarks run on the Node.js that n8n 2.x runs on (Node 24, from the n8n runtime that
 * `npm start` and `npm test` install into .cache/; installed here when missing), so the figures
 * are those of n8n's own runtime; their child processes (emulator, peers) inherit it.
 * BENCH_NODE=current runs them on the Node.js that runs this script instead.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const filter = process.argv[2] || '';
const dir = path.join(root, 'test', 'bench');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.js') && f.includes(filter)).sort();

let r = spawnSync(path.join(root, 'node_modules', '.bin', 'gulp'), ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (r.status !== 0) process.exit(r.status || 1);

async function runtimeNode() {
	if (process.env.BENCH_NODE === 'current') return process.execPath;
	const { ensureRuntime } = require('./n8n-runtime');
	return (await ensureRuntime()).nodeBin;
}

async function main() {
	const node = await runtimeNode();
	let failed = 0;
	for (const f of files) {
		console.log(`\n=== ${f}`);
		r = spawnSync(node, ['--expose-gc', path.join(dir, f)], {
			cwd: root,
			stdio: 'inherit',
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
		});
		if (r.status !== 0) failed++;
	}
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

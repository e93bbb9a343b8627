'use strict';
/**
 * The emulator in its own process (cli.js), so that its CPU and memory are not
 * those of the process under test: used by the large-object tests and the benchmarks.
 * `args` go to the CLI (e.g. ['--data', dir]); BENCH_EMULATOR_NODE_ARGS adds Node.js flags.
 * Resolves { url, control(method, route, body), close() }.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

async function spawnEmulator(args = []) {
	const child = spawn(process.execPath, [...(process.env.BENCH_EMULATOR_NODE_ARGS ? process.env.BENCH_EMULATOR_NODE_ARGS.split(' ') : []), path.join(__dirname, 'cli.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
	const line = await new Promise((resolve, reject) => {
		const rl = readline.createInterface({ input: child.stdout });
		rl.once('line', resolve);
		child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
	});
	const { url } = JSON.parse(line);
	const control = async (method, p, body) =>
		(await fetch(`${url}/__emulator${p}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : JSON.stringify(body || {}) })).json();
	return {
		url,
		control,
		async close() {
			child.kill('SIGTERM');
			await new Promise((r) => child.once('exit', r));
		},
	};
}

module.exports = { spawnEmulator };

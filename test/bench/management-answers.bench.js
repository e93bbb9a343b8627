'use strict';
/**
 * Answers of the management interface (test/bench/answers.bench.js: object storage) that misbehave on size, time or depth (issue 24 §2): each
 * case runs Account & Billing > Balance > Get once through n8n-core (WorkflowExecute) in a
 * child process of its own, against the emulator in that process with a fault rule, and prints
 * how the run ended, its wall time and the child's peak RSS. A child still running after
 * BENCH_CAP_S (60) is stopped and reported as such.
 *
 *   200 MB answer        a valid envelope of 200 MB with Content-Length
 *   endless answer       a valid envelope that never ends (chunked, as fast as it is read)
 *   drip                 one byte every 4 s (credential Timeout 5 s: a read ends within 15 s)
 *   100,000 deep         `data` nested 100,000 arrays deep
 *
 * `node test/bench/management-answers.bench.js` (BENCH_ONLY: one case by name). Run it in another checkout
 * to compare (the child loads the package built in the checkout the script is in).
 */
const { spawn } = require('node:child_process');

const CAP_S = Number(process.env.BENCH_CAP_S || 60);
const ONLY = process.env.BENCH_ONLY || '';
const CASES = [
	{ name: '200 MB answer', rule: { kind: 'bigAnswer', bytes: 200 * 1048576 } },
	{ name: 'endless answer', rule: { kind: 'bigAnswer', endless: true } },
	{ name: 'drip', rule: { kind: 'drip', intervalMs: 4000 }, timeout: 5 },
	{ name: '100,000 deep', rule: { kind: 'deepJson', depth: 100000 } },
];

/** The child: one node run against an in-process emulator with `rule`; prints one JSON line. */
async function child(spec) {
	const { startVendor } = require('../support/vendor');
	const v = await startVendor({ seed: 'demo' });
	await v.control('POST', '/faults', { inject: [{ op: 'profile/balance', ...spec.rule }] });
	const credentials = { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', ...(spec.timeout ? { timeout: spec.timeout } : {}) } };
	const started = Date.now();
	let outcome;
	try {
		const { items, error } = await v.run('vendorAccountBilling', { resource: 'balance', operation: 'get', simplify: false }, { credentials });
		// what n8n does next with the output: it stores it as JSON
		JSON.stringify(items);
		outcome = error ? `error: ${String(error.message).slice(0, 140)}` : `success, ${items.length} item(s)`;
	} catch (e) {
		outcome = `threw: ${String(e && e.message).slice(0, 140)}`;
	}
	const ms = Date.now() - started;
	process.stdout.write(`${JSON.stringify({ outcome, ms, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
	process.exit(0);
}

async function main() {
	for (const spec of CASES) {
		if (ONLY && spec.name !== ONLY) continue;
		const started = Date.now();
		const proc = spawn(process.execPath, ['--max-old-space-size=4096', __filename, '--child', JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		proc.stdout.on('data', (c) => (out += c));
		proc.stderr.on('data', (c) => (err += c));
		let capped = false;
		let hwm = '';
		const timer = setTimeout(() => {
			capped = true;
			try {
				hwm = /VmHWM:\s*(\d+)/.exec(require('node:fs').readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1];
			} catch {
				// not Linux: no figure
			}
			proc.kill('SIGKILL');
		}, CAP_S * 1000);
		const code = await new Promise((resolve) => proc.on('exit', (c, signal) => resolve(signal || c)));
		clearTimeout(timer);
		const line = out.trim().split('\n').pop();
		let result;
		try {
			result = JSON.parse(line);
		} catch {
			result = undefined;
		}
		if (result) console.log(`${spec.name.padEnd(16)} ${String(result.ms).padStart(7)} ms  peak RSS ${String(result.rssMiB).padStart(5)} MiB  ${result.outcome}`);
		else if (capped) console.log(`${spec.name.padEnd(16)} still running after ${CAP_S} s: stopped${hwm ? ` (peak RSS ${Math.round(Number(hwm) / 1024)} MiB)` : ''}`);
		else console.log(`${spec.name.padEnd(16)} ${Date.now() - started} ms  the process died (${code}): ${err.trim().split('\n').slice(-2).join(' ').slice(0, 160)}`);
	}
}

if (process.argv[2] === '--child') child(JSON.parse(process.argv[3]));
else main();

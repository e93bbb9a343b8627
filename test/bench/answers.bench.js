'use strict';
/**
 * Object storage answers that are too large or never end (issue 24 §2): peak RSS and time of one
 * node run (n8n-core, in a child process of its own so its RSS is the node's) against a small
 * server that plays the case. Prints one line per case; run it in two checkouts to compare.
 *
 *   page    List Objects answered by a BENCH_PAGE_MIB (64) MiB page
 *   endless List Objects answered by an endless body (the server stops at 4 GiB or when the node stops)
 *   drip    List Objects answered one byte every BENCH_DRIP_MS (5000) ms, at the default timeouts
 *   hang    a read never answered, at the default timeouts
 *
 * BENCH_ONLY (a case name), BENCH_CUT_S (200: a run still going then is stopped and reported as such).
 */
const http = require('node:http');
const { spawn } = require('node:child_process');

const PAGE_MIB = Number(process.env.BENCH_PAGE_MIB || 64);
const DRIP_MS = Number(process.env.BENCH_DRIP_MS || 5000);
const CUT_S = Number(process.env.BENCH_CUT_S || 200);
const ONLY = process.env.BENCH_ONLY || '';

/** In the child: run List Objects against `url`, print { ms, rssMiB, outcome } as JSON. */
async function child(url) {
	const n8n = require('../support/n8n');
	const store = new n8n.CredentialStore();
	const ref = store.add('vendorObjectStorageApi', { endpoint: url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' });
	const started = Date.now();
	let outcome;
	try {
		const { items, error } = await n8n.runNode(
			'vendorObjectStorage',
			{ resource: 'bucket', operation: 'listObjects', bucket: { __rl: true, mode: 'name', value: 'b' }, returnAll: true },
			{ credentials: { vendorObjectStorageApi: ref }, store },
		);
		outcome = error ? `error: ${error.message}` : `${items.length} items`;
	} catch (e) {
		outcome = `thrown: ${e.message}`;
	}
	const ms = Date.now() - started;
	process.stdout.write(JSON.stringify({ ms, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024), outcome: outcome.slice(0, 200) }) + '\n');
	process.exit(0);
}

const CASES = {
	page: (req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/xml' });
		res.write('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><IsTruncated>false</IsTruncated>');
		const entry = (i) => `<Contents><Key>key-${String(i).padStart(9, '0')}-${'x'.repeat(400)}</Key><Size>1</Size><ETag>"0"</ETag></Contents>`;
		const total = PAGE_MIB * 1024 * 1024;
		let sent = 0;
		let i = 0;
		const more = () => {
			while (sent < total) {
				let chunk = '';
				for (let k = 0; k < 100; k++) chunk += entry(i++);
				sent += chunk.length;
				if (!res.write(chunk)) return res.once('drain', more);
			}
			res.end('</ListBucketResult>');
		};
		res.on('error', () => {});
		more();
	},
	endless: (req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/xml' });
		res.write('<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>');
		const chunk = Buffer.from(`<Contents><Key>${'k'.repeat(1000)}</Key></Contents>`.repeat(64));
		let sent = 0;
		const more = () => {
			while (!res.destroyed && sent < 4 * 1024 ** 3) {
				sent += chunk.length;
				if (!res.write(chunk)) return res.once('drain', more);
			}
		};
		res.on('error', () => {});
		more();
	},
	drip: (req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/xml' });
		res.on('error', () => {});
		const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), DRIP_MS);
		res.on('close', () => clearInterval(timer));
	},
	hang: () => {},
};

async function runCase(name) {
	const sockets = new Set();
	const server = http.createServer(CASES[name]);
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const url = `http://127.0.0.1:${server.address().port}`;
	const started = Date.now();
	const proc = spawn(process.execPath, [__filename, '--child', url], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	proc.stdout.on('data', (d) => (out += d));
	const cut = setTimeout(() => proc.kill('SIGKILL'), CUT_S * 1000);
	const code = await new Promise((r) => proc.on('exit', (c, signal) => r(signal || c)));
	clearTimeout(cut);
	for (const s of sockets) s.destroy();
	server.close();
	const line = out.trim().split('\n').pop();
	let result;
	try {
		result = JSON.parse(line);
	} catch {
		result = { ms: Date.now() - started, rssMiB: '?', outcome: code === 'SIGKILL' ? `still running after ${CUT_S} s (stopped)` : `process ended (${code})` };
	}
	console.log(`${name.padEnd(8)} ${String(result.ms).padStart(7)} ms  peak RSS ${String(result.rssMiB).padStart(5)} MiB  ${result.outcome}`);
}

async function main() {
	if (process.argv[2] === '--child') return child(process.argv[3]);
	console.log(`answers bench (page ${PAGE_MIB} MiB, drip every ${DRIP_MS} ms, cut at ${CUT_S} s)`);
	for (const name of Object.keys(CASES)) if (!ONLY || ONLY === name) await runCase(name);
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

'use strict';
/**
 * What the evidence of issue 33 costs on Copy and Move of 1 GiB against s3rver (an independent
 * S3 server, in a process of its own, bodies on disk) and against the emulator (its own process,
 * bodies on disk), whose multipart ETags are not MD5s, so that every kind of check shows. Figures,
 * not assertions; not part of `npm test`.
 *
 *   npm run bench copyMove
 *
 * "Before" is the node code of BENCH_BEFORE (a git ref, default 978a28b: main before issue 33),
 * built into a temp folder; "after" is this tree's build. Both run in the same run, one after the
 * other (the order alternates), each transfer in a fresh process that loads only its own build
 * (test/support/n8n.js of its tree), so neither inherits the other's memory. Per case: the node's
 * time and peak RSS growth over a baseline after GC (RSS sampled every 50 ms and the kernel's
 * VmHWM), before and after, and the ratio after/before. Cases (the source written by aws-sdk v2
 * `upload()` in parts of the size named, Copy and Move in parts of 8 MiB, 4 at a time):
 *   s3rver copy, s3rver move   s3rver's ETags are MD5s: the bytes read prove it; Move lists the
 *                      source again before the delete
 *   emulator copy 8    S3's multipart ETag, proven by the copy's own parts (no extra work)
 *   emulator copy 5    proven by a usual part size the copy does not use: one more MD5 of every byte
 *   emulator copy 7 plain  dialect multipartEtagPlain, parts of 7 MiB: 32 hex digits the bytes do
 *                      not give, so the source is read a second time (before: the copy failed)
 *   emulator move 7    nothing proves the ETag: the source is read again whole before the delete
 * Before, the same cases cost what the code of BENCH_BEFORE did (an ETag it could not check was
 * not checked: the "verified" it gave compared the service's own part ETags).
 *
 * Environment: BENCH_SIZE_MIB (1024), BENCH_RUNS (1; medians are printed), BENCH_BEFORE (a git ref,
 * or "none": after only), BENCH_ONLY (cases whose name contains it, e.g. "s3rver").
 */
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { performance } = require('node:perf_hooks');

process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB || 1024) * MiB;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
const BEFORE = process.env.BENCH_BEFORE || '978a28b';
const ROOT = path.resolve(__dirname, '..', '..');
const BUCKET = 'bench-copy';
const KEYS = { s3rver: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, emulator: { accessKeyId: 'VENDORTESTKEY', secretAccessKey: 'vendor-test-secret' } };
const CASES = [
	{ name: 's3rver copy', server: 's3rver', operation: 'copy', sourcePartMiB: 8 },
	{ name: 's3rver move', server: 's3rver', operation: 'move', sourcePartMiB: 8 },
	{ name: 'emulator copy 8', server: 'emulator', operation: 'copy', sourcePartMiB: 8 },
	{ name: 'emulator copy 5', server: 'emulator', operation: 'copy', sourcePartMiB: 5 },
	{ name: 'emulator copy 7 plain', server: 'emulator', operation: 'copy', sourcePartMiB: 7, dialect: 'multipartEtagPlain' },
	{ name: 'emulator move 7', server: 'emulator', operation: 'move', sourcePartMiB: 7 },
];

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/* ------------------------------------------------------------ one measured run, in a child */

/** The kernel's peak RSS (VmHWM) of this process, and its reset; undefined when unavailable. */
const kernelPeak = require('../support/peak-rss').kernelPeak();

/** Child: runs the job's node with the harness of the tree it was started from; prints RESULT {...}. */
async function child(job) {
	process.env.VENDOR_EXERCISED_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-exercised-'));
	const n8n = require(path.join(job.tree, 'test', 'support', 'n8n'));
	const store = new n8n.CredentialStore();
	const key = KEYS[job.server];
	const credentials = {
		vendorObjectStorageApi: store.add('vendorObjectStorageApi', {
			endpoint: job.endpoint,
			accessKey: key.accessKeyId,
			accessSecret: key.secretAccessKey,
			advanced: true,
			schemeWord: 'AWS',
			headerPrefix: 'x-amz-',
			presignKeyParam: 'AWSAccessKeyId',
			// s3rver signs a bucket-level request with the path as sent and refuses /{bucket}/ (readings R10)
			bucketPath: job.server === 's3rver' ? 'noSlash' : 'slash',
		}),
	};
	// the node's code loaded before the baseline: a Get Info of the source
	const warm = await n8n.runNode('vendorObjectStorage', { resource: 'object', operation: 'getInfo', bucket: { __rl: true, mode: 'name', value: BUCKET }, key: { __rl: true, mode: 'id', value: job.key } }, { credentials, store });
	if (warm.error) throw new Error(`Get Info failed: ${warm.error.message}`);
	execFileSync('sync');
	global.gc?.();
	global.gc?.();
	const base = process.memoryUsage().rss;
	let peak = base;
	kernelPeak?.reset();
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
	const t0 = performance.now();
	const r = await n8n.runNode('vendorObjectStorage', job.parameters, { credentials, store });
	const ms = performance.now() - t0;
	clearInterval(timer);
	peak = Math.max(peak, process.memoryUsage().rss);
	const growth = Math.max(peak - base, kernelPeak ? kernelPeak.read() - base : 0);
	const out = r.error ? { ms, growth, error: String(r.error.message).slice(0, 200) } : { ms, growth, json: r.items[0].json };
	process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

function runInChild(node, tree, job) {
	return new Promise((resolve, reject) => {
		// the child is this file, copied into the tree whose build it measures
		const script = path.join(tree, 'test', 'bench', path.basename(__filename));
		const proc = spawn(node, ['--expose-gc', script, '--child', JSON.stringify({ ...job, tree })], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, N8N_LOG_LEVEL: 'silent' } });
		let result;
		readline.createInterface({ input: proc.stdout }).on('line', (line) => {
			if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7));
		});
		proc.once('error', reject);
		proc.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`the ${path.basename(tree)} run exited with ${code}`))));
	});
}

/* ------------------------------------------------------------ the bench */

/** The node code of `ref` with this tree's harness, built in a temp folder; resolves its path. */
function buildBefore(ref) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-before-'));
	execFileSync('sh', ['-c', `git archive ${ref} | tar -x -C "${dir}"`], { cwd: ROOT });
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
	fs.copyFileSync(__filename, path.join(dir, 'test', 'bench', path.basename(__filename)));
	execFileSync(path.join(ROOT, 'node_modules', '.bin', 'gulp'), ['build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
	return dir;
}

/** A file of `size` pseudo-random bytes (AES-CTR keystream), 1 MiB at a time; resolves its MD5. */
function writeRandomFile(file, size) {
	const cipher = crypto.createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), Buffer.alloc(16));
	const zeros = Buffer.alloc(MiB);
	const hash = crypto.createHash('md5');
	const fd = fs.openSync(file, 'w');
	for (let left = size; left > 0; left -= MiB) {
		const chunk = cipher.update(zeros.subarray(0, Math.min(left, MiB)));
		hash.update(chunk);
		fs.writeSync(fd, chunk);
	}
	fs.closeSync(fd);
	return hash.digest('hex');
}

async function main() {
	const AWS = require('aws-sdk');
	const { startS3rver } = require('./s3rver-server');
	const { spawnEmulator } = require('../../emulator/spawn');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-copymove-'));
	const node = process.execPath;
	const trees = [{ name: 'after', dir: ROOT }];
	let beforeDir;
	if (BEFORE !== 'none') {
		beforeDir = buildBefore(BEFORE);
		trees.unshift({ name: 'before', dir: beforeDir });
	}
	fs.mkdirSync(path.join(work, 'emulator'));
	const servers = { s3rver: await startS3rver(path.join(work, 's3rver')), emulator: await spawnEmulator(['--data', path.join(work, 'emulator'), '--seed', 'empty']) };
	try {
		await servers.emulator.control('POST', '/storage/config', { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' });
		const clients = {};
		for (const [name, server] of Object.entries(servers)) {
			clients[name] = new AWS.S3({ endpoint: server.url, s3ForcePathStyle: true, signatureVersion: 's3', region: 'us-east-1', maxRetries: 0, ...KEYS[name] });
			await clients[name].createBucket({ Bucket: BUCKET }).promise();
		}
		const file = path.join(work, 'source.bin');
		const md5 = writeRandomFile(file, SIZE);
		const seed = (server, key, partMiB) => clients[server].upload({ Bucket: BUCKET, Key: key, Body: fs.createReadStream(file) }, { partSize: partMiB * MiB, queueSize: 4 }).promise();
		console.log(`Copy and Move of ${SIZE / MiB} MiB against s3rver and the emulator: ${trees.map((t) => t.name).join(' and ')}${beforeDir ? ` (before: ${BEFORE})` : ''}, ${RUNS} run(s), medians; each run in a fresh process`);
		console.log(`  ${os.cpus().length} CPUs, node ${process.version}, load average at start ${load()}`);
		const rows = [];
		for (const c of CASES.filter((x) => x.name.includes(process.env.BENCH_ONLY || ''))) {
			const m = { before: { ms: [], growth: [] }, after: { ms: [], growth: [] } };
			const sourceKey = `src/${c.sourcePartMiB}${c.dialect ? `-${c.dialect}` : ''}.bin`;
			const s3 = clients[c.server];
			if (c.server === 'emulator') await servers.emulator.control('POST', '/dialects', { set: c.dialect ? [c.dialect] : [] });
			if (c.operation === 'copy') await seed(c.server, sourceKey, c.sourcePartMiB);
			for (let run = 0; run < RUNS; run++) {
				const order = run % 2 === 0 ? trees : [...trees].reverse();
				for (const t of order) {
					if (c.operation === 'move') await seed(c.server, sourceKey, c.sourcePartMiB);
					const parameters = {
						resource: 'object',
						operation: c.operation,
						bucket: { __rl: true, mode: 'name', value: BUCKET },
						key: { __rl: true, mode: 'id', value: sourceKey },
						destinationBucket: { __rl: true, mode: 'name', value: BUCKET },
						destinationKey: `dst/${t.name}-${c.operation}-${c.sourcePartMiB}.bin`,
						options: { partSize: 8, partConcurrency: 4 },
					};
					const r = await runInChild(node, t.dir, { server: c.server, endpoint: servers[c.server].url, key: sourceKey, parameters });
					if (r.error) {
						console.log(`  ${c.name}, ${t.name} run ${run + 1}: FAILED after ${fmt(r.ms / 1000, 1)} s: ${r.error}`);
						m[t.name].failed = true;
						continue;
					}
					if (r.json.md5 !== md5 || r.json.size !== SIZE) throw new Error(`${c.name} (${t.name}) copied ${r.json.size} bytes with MD5 ${r.json.md5}`);
					m[t.name].ms.push(r.ms);
					m[t.name].growth.push(r.growth);
					const checked = r.json.verification ?? `verified: ${r.json.verified}, sourceChecked: ${r.json.sourceChecked}`;
					console.log(`  ${c.name}, ${t.name} run ${run + 1}: ${fmt(r.ms / 1000, 1)} s, peak RSS +${fmt(r.growth / MiB, 0)} MiB (${checked}) (load ${load()})`);
					await s3.deleteObject({ Bucket: BUCKET, Key: parameters.destinationKey }).promise();
				}
			}
			rows.push({ name: c.name, before: m.before, after: m.after });
		}
		console.log('');
		console.log('  case                   before s  after s  after/before   before RSS MiB  after RSS MiB  after/before');
		for (const r of rows) {
			const b = r.before.failed || !r.before.ms.length ? { ms: NaN, growth: NaN } : { ms: median(r.before.ms), growth: median(r.before.growth) };
			const a = { ms: median(r.after.ms), growth: median(r.after.growth) };
			const cell = (x, d, w) => (Number.isNaN(x) ? (r.before.failed ? 'failed' : '-') : fmt(x, d)).padStart(w);
			console.log(
				`  ${r.name.padEnd(21)}  ${cell(b.ms / 1000, 1, 8)}  ${fmt(a.ms / 1000).padStart(7)}  ${cell(a.ms / b.ms, 2, 12)}   ${cell(b.growth / MiB, 0, 14)}  ${fmt(a.growth / MiB, 0).padStart(13)}  ${cell(a.growth / b.growth, 2, 12)}`,
			);
		}
	} finally {
		await servers.s3rver.close();
		await servers.emulator.close();
		fs.rmSync(work, { recursive: true, force: true });
		if (beforeDir) fs.rmSync(beforeDir, { recursive: true, force: true });
	}
}

if (process.argv[2] === '--child') {
	child(JSON.parse(process.argv[3])).catch((e) => {
		console.error(e);
		process.exit(1);
	});
} else if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
module.exports = { main };

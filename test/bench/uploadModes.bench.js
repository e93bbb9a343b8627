'use strict';
/**
 * One streamed PUT against a parallel multipart upload, for a file in n8n's binary store: the
 * figures behind the default of Upload's "Multipart Threshold (MiB)" (docs/developers/performance.md,
 * "Upload: one request or parts"). Figures, not assertions; not part of `npm test`.
 *
 *   npm run bench -- uploadModes
 *
 * The node runs in n8n-core (test/support/n8n.js, filesystem binary data) against the emulator
 * and against s3rver (the npm S3 test server), each in its own process with its bodies on disk.
 * For each server and size the same file is uploaded with the threshold above its size (one
 * PUT: a pass for its MD5, then the body streamed) and at 0 (multipart, 8 MiB parts, 4 in
 * parallel, the defaults), alternated, BENCH_RUNS times (2). The time is the node's own
 * `durationMs` (its upload, MD5 pass included); the ratio is multipart time / PUT time (above 1:
 * the PUT is faster). BENCH_SIZES_MIB: comma list (256,1024).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-bench-modes-'));
process.env.N8N_USER_FOLDER = dir;
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';

const { n8n, NODE, MiB, rl, writeRandomFile, fileInput } = require('../support/storage');
const { startS3rver } = require('./s3rver-server');
const { spawnEmulator } = require('../../emulator/spawn');

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 2));
const SIZES = (process.env.BENCH_SIZES_MIB || '256,1024').split(',').map(Number);
const BUCKET = 'modes';
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const sum = (xs) => xs.reduce((a, b) => a + b, 0);


async function main() {
	const emu = await spawnEmulator(['--data', path.join(dir, 'emulator')]);
	const s3rver = await startS3rver(path.join(dir, 's3rver'));
	const servers = {
		emulator: { url: emu.url, data: { accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' } },
		s3rver: { url: s3rver.url, data: { accessKey: 'S3RVER', accessSecret: 'S3RVER', advanced: true, schemeWord: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId', bucketPath: 'noSlash' } },
	};
	console.log(`one streamed PUT vs multipart (8 MiB x 4) of a binary-store file, n8n-core; ${os.cpus().length} CPUs, load average ${load()}`);
	try {
		for (const [name, s] of Object.entries(servers)) {
			const store = new n8n.CredentialStore();
			const credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: s.url, ...s.data }) };
			const ok = async (parameters, opts) => {
				const { items, error } = await n8n.runNode(NODE, parameters, { credentials, store, ...opts });
				if (error) throw new Error(`${parameters.operation}: ${error.message} ${error.description || ''}`);
				return items;
			};
			await ok({ resource: 'bucket', operation: 'create', bucketName: BUCKET });
			for (const mib of SIZES) {
				const f = writeRandomFile(dir, `input-${mib}.bin`, mib * MiB, mib);
				const times = { put: [], multipart: [] };
				for (let i = 0; i < RUNS; i++) {
					for (const mode of i % 2 ? ['multipart', 'put'] : ['put', 'multipart']) {
						const threshold = mode === 'put' ? mib + 1 : 0;
						const [up] = await ok({ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key: `${mode}.bin`, options: { multipartThreshold: threshold } }, fileInput(f));
						if (up.json.multipart !== (mode === 'multipart') || up.json.size !== f.size) throw new Error(`${mode}: ${JSON.stringify(up.json)}`);
						if (mode === 'put' && up.json.etag !== f.md5) throw new Error(`put: ETag ${up.json.etag}, MD5 ${f.md5}`);
						times[mode].push(up.json.durationMs);
						console.log(`  ${name} ${mib} MiB run ${i + 1} ${mode}: ${(up.json.durationMs / 1000).toFixed(2)} s (${((mib * 1000) / up.json.durationMs).toFixed(1)} MiB/s) (load ${load()})`);
					}
				}
				console.log(`  ${name} ${mib} MiB: multipart time / PUT time ${(sum(times.multipart) / sum(times.put)).toFixed(2)} over ${RUNS} runs each`);
				fs.rmSync(f.file);
			}
		}
	} finally {
		await emu.close();
		await s3rver.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

'use strict';
/**
 * s3rver (the npm S3 test server, an independent implementation that checks signatures itself)
 * in a process of its own, for the benchmarks: its CPU and memory are not the measured process's.
 *
 *   node test/bench/s3rver-server.js <directory>    prints {"url": ...} and serves until SIGTERM
 *   const { startS3rver } = require('./s3rver-server');
 *   const s3rver = await startS3rver(directory);      // { url, close() }
 *
 * Its access key and secret are both S3RVER.
 */
const { spawn } = require('node:child_process');
const readline = require('node:readline');

/** Starts this file as a child process serving `directory`; resolves { url, close }. */
async function startS3rver(directory) {
	const proc = spawn(process.execPath, [__filename, directory], { stdio: ['ignore', 'pipe', 'inherit'] });
	const line = await new Promise((resolve, reject) => {
		readline.createInterface({ input: proc.stdout }).once('line', resolve);
		proc.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
	});
	return {
		url: JSON.parse(line).url,
		async close() {
			proc.kill('SIGTERM');
			await new Promise((r) => proc.once('exit', r));
		},
	};
}

module.exports = { startS3rver };

if (require.main === module) {
	const S3rver = require('s3rver');
	const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[2] });
	server.run().then(({ port }) => process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + '\n'));
	process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
}

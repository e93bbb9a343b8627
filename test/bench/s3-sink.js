'use strict';
/**
 * A minimal S3 endpoint for the benchmark's diagnostic runs: every request waits `--latency` ms
 * (like the emulator's latency fault, before the body is read), bodies are read and dropped
 * (no hashing, no storage), and the answers are the smallest ones the clients accept:
 * Initiate gives an UploadId, a part PUT an ETag, Complete a CompleteMultipartUploadResult.
 * No signature is checked. It shows what a client achieves when the service costs nothing
 * per byte, which the emulator (MD5 and a disk write of every byte, in one process) does not.
 *
 *   node test/bench/s3-sink.js [--latency 50]    prints {"url": ...} and serves until SIGTERM
 */
const crypto = require('node:crypto');
const http = require('node:http');

const arg = process.argv.indexOf('--latency');
const latencyMs = arg > 0 ? Number(process.argv[arg + 1]) : 0;
let uploads = 0;

const server = http.createServer(async (req, res) => {
	if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
	const url = new URL(req.url, 'http://sink.local');
	for await (const chunk of req) void chunk;
	res.setHeader('x-amz-request-id', 'sink');
	if (req.method === 'POST' && url.searchParams.has('uploads')) {
		res.setHeader('content-type', 'application/xml');
		return res.end(
			`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>sink-${++uploads}</UploadId></InitiateMultipartUploadResult>`,
		);
	}
	if (req.method === 'PUT') {
		res.setHeader('etag', `"${crypto.randomBytes(16).toString('hex')}"`);
		return res.end();
	}
	if (req.method === 'POST') {
		res.setHeader('content-type', 'application/xml');
		return res.end(
			'<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Location>sink</Location><Bucket>b</Bucket><Key>k</Key><ETag>"00000000000000000000000000000000-1"</ETag></CompleteMultipartUploadResult>',
		);
	}
	res.statusCode = req.method === 'DELETE' ? 204 : 200;
	res.end();
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => {
	process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));

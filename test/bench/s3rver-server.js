'use strict';
/**
 * s3rver (the npm S3 test server, an independent implementation that checks signatures itself)
 * in a process of its own, for the benchmarks: its CPU and memory are not the measured process's.
 *
 *   node test/bench/s3rver-server.js <directory>    prints {"url": ...} and serves until SIGTERM
 *
 * Its access key and secret are both S3RVER.
 */
const S3rver = require('s3rver');

const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[2] });
server.run().then(({ port }) => process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + '\n'));
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));

'use strict';
/**
 * One measured run of the storage benchmark (storage.bench.js), in a fresh process:
 *
 *   node --expose-gc test/bench/storage-run.js --node-run|--sdk-run|--http-run|--getput-run '<job JSON>'
 *
 * prints `RESULT {...}`: the node run by n8n-core (`--node-run`), aws-sdk v2 (`--sdk-run`), Node's
 * plain `http` (`--http-run`) or Download then Upload by the node (`--getput-run`, a copy by
 * hand), each timed and its memory measured by a Meter. runInChild() starts such a process from
 * the bench; runNode(), nodeCredentials() and storeBinary() serve the bench's own process too.
 * n8n-core's binary store is filesystem mode in N8N_USER_FOLDER (the bench's temp dir, which the
 * children inherit).
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { pipeline } = require('node:stream/promises');
const { performance } = require('node:perf_hooks');

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';

const { Workflow } = require('n8n-workflow');
const { WorkflowExecute } = require('n8n-core');
const n8n = require('../support/n8n');
const { kernelPeak: peakReader } = require('../support/peak-rss');

const SAMPLE_MS = 50;
const AWS_WORDS = { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' };
const KEY = { accessKeyId: 'VENDORTESTKEY', secretAccessKey: 'vendor-test-secret' };

/** The kernel's peak RSS of this process (VmHWM) in bytes, and a way to reset it; undefined when unavailable. */
const kernelPeak = peakReader();

function gc() {
	if (global.gc) {
		global.gc();
		global.gc();
	}
}

/** Writes dirty pages out, so that a timed transfer does not pay for earlier writes. */
function syncDisk() {
	try {
		execFileSync('sync');
	} catch {
		// no sync(1): the figures are noisier, nothing else
	}
}



/**
 * BENCH_CPU_PROFILE=dir: every measured stretch of the node is CPU-profiled into dir (open the
 * .cpuprofile files in Chrome's DevTools). A diagnostic: profiling slows the run down.
 */
const profiler = (() => {
	const dir = process.env.BENCH_CPU_PROFILE;
	if (!dir) return { start() {}, stop() {} };
	const session = new (require('node:inspector').Session)();
	session.connect();
	let n = 0;
	return {
		start() {
			session.post('Profiler.enable', () => session.post('Profiler.start'));
		},
		stop() {
			session.post('Profiler.stop', (err, res) => {
				if (err) return;
				fs.mkdirSync(dir, { recursive: true });
				fs.writeFileSync(path.join(dir, `${process.pid}-${++n}.cpuprofile`), JSON.stringify(res.profile));
			});
		},
	};
})();

/**
 * Time and memory of one measured stretch: start() writes dirty pages out, collects garbage and
 * takes the baseline; stop() gives the time and the peak growth of RSS (sampled every 50 ms,
 * and the kernel's peak where readable: the larger is `growth`) and of array buffers.
 */
class Meter {
	start() {
		syncDisk();
		gc();
		const now = process.memoryUsage();
		this.base = now.rss;
		this.peak = now.rss;
		this.abBase = now.arrayBuffers;
		this.abPeak = now.arrayBuffers;
		this.heapBase = now.heapTotal;
		this.heapPeak = now.heapTotal;
		kernelPeak?.reset();
		this.timer = setInterval(() => this.sample(), SAMPLE_MS);
		profiler.start();
		this.t0 = performance.now();
	}
	sample() {
		const now = process.memoryUsage();
		this.peak = Math.max(this.peak, now.rss);
		this.abPeak = Math.max(this.abPeak, now.arrayBuffers);
		this.heapPeak = Math.max(this.heapPeak, now.heapTotal);
	}
	stop() {
		const ms = performance.now() - this.t0;
		this.sample();
		clearInterval(this.timer);
		profiler.stop();
		const kernelGrowth = kernelPeak ? kernelPeak.read() - this.base : null;
		const sampledGrowth = this.peak - this.base;
		this.result = { ms, sampledGrowth, kernelGrowth, growth: Math.max(sampledGrowth, kernelGrowth ?? 0), arrayBuffersGrowth: this.abPeak - this.abBase, heapGrowth: this.heapPeak - this.heapBase };
		return this.result;
	}
	cancel() {
		clearInterval(this.timer);
	}
}

/* ------------------------------------------------------------ the node, run by n8n-core */

/** Start node that emits one item carrying a binary already in n8n's binary store. */
class BinaryItems {
	constructor() {
		this.description = {
			displayName: 'Bench Binary Items',
			name: 'benchBinaryItems',
			group: ['trigger'],
			version: 1,
			defaults: { name: 'Start' },
			inputs: [],
			outputs: ['main'],
			properties: [{ displayName: 'Binary', name: 'binary', type: 'json', default: '{}' }],
		};
	}
	async trigger() {
		const raw = this.getNodeParameter('binary', '{}');
		const binary = typeof raw === 'string' ? JSON.parse(raw) : raw;
		return {
			manualTriggerFunction: async () => {
				this.emit([[{ json: {}, binary: { data: binary } }]]);
			},
		};
	}
}

function nodeTypes() {
	const types = n8n.nodeTypes();
	types.all['bench.binaryItems'] = new BinaryItems();
	return types;
}

let runCounter = 0;

/**
 * Runs a two-node workflow, `start` → the Object Storage node, and measures the node's execution
 * alone: time, and peak RSS growth over a baseline taken after GC.
 */
async function runNode(parameters, credentials, store, { binary, fixtureFile } = {}) {
	await n8n.ensureBinaryData();
	const types = nodeTypes();
	const id = `wf-bench-${process.pid}-${++runCounter}`;
	const nodes = [
		binary
			? { id: 's', name: 'Start', type: 'bench.binaryItems', typeVersion: 1, position: [0, 0], parameters: { binary: JSON.stringify(binary) } }
			: { id: 's', name: 'Start', type: 'test.startItems', typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
	];
	const connections = { Start: { main: [[]] } };
	let previous = 'Start';
	if (fixtureFile) {
		const files = [{ binary: { data: { path: fixtureFile, fileName: path.basename(fixtureFile), mimeType: 'application/octet-stream' } } }];
		nodes.push({ id: 'f', name: 'Fixture', type: 'test.binaryFixture', typeVersion: 1, position: [200, 0], parameters: { files: JSON.stringify(files) } });
		connections.Start.main[0].push({ node: 'Fixture', type: 'main', index: 0 });
		connections.Fixture = { main: [[]] };
		previous = 'Fixture';
	}
	if (parameters) {
		nodes.push({ id: 'n', name: 'Node', type: `${n8n.PREFIX}.vendorObjectStorage`, typeVersion: 1, position: [400, 0], parameters, credentials });
		connections[previous].main[0].push({ node: 'Node', type: 'main', index: 0 });
	}
	const measured = parameters ? 'Node' : previous;
	const workflowData = { id, name: id, nodes, connections, active: false, settings: { executionOrder: 'v1' }, staticData: {} };
	const workflow = new Workflow({ id, name: id, nodes, connections, active: false, nodeTypes: types, staticData: {}, settings: workflowData.settings });
	const hooks = new n8n.ExecutionLifecycleHooks('manual', `exec-${id}`, workflowData);

	const meter = new Meter();
	hooks.addHandler('nodeExecuteBefore', async (name) => {
		if (name === measured) meter.start();
	});
	hooks.addHandler('nodeExecuteAfter', async (name) => {
		if (name === measured) meter.stop();
	});
	const additionalData = n8n.additionalDataFor(store, workflowData, 'manual', hooks);
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode: workflow.getNode('Start') });
	meter.cancel();
	const task = run.data.resultData.runData[measured]?.[0];
	const error = task?.error || run.data.resultData.error;
	if (error) throw new Error(`${parameters ? parameters.operation : measured} failed: ${error.message} ${error.description || ''}`);
	return { items: task.data.main[0], ...meter.result };
}

function nodeCredentials(endpoint, words) {
	const store = new n8n.CredentialStore();
	const data = { endpoint, accessKey: KEY.accessKeyId, accessSecret: KEY.secretAccessKey };
	if (words) Object.assign(data, { advanced: true, schemeWord: words.scheme, headerPrefix: words.headerPrefix, presignKeyParam: words.presignKeyParam });
	return { store, credentials: { vendorObjectStorageApi: store.add('vendorObjectStorageApi', data) } };
}

function s3Client(endpoint) {
	const AWS = require('aws-sdk');
	return new AWS.S3({ endpoint, s3ForcePathStyle: true, signatureVersion: 's3', region: 'us-east-1', maxRetries: 0, ...KEY });
}

/** The peer's transfers: aws-sdk v2 upload() of a file, getObject().createReadStream() into a file. */
async function sdkTransfer(s3, job) {
	if (job.op === 'upload') {
		const res = await s3.upload({ Bucket: job.bucket, Key: job.key, Body: fs.createReadStream(job.file) }, { partSize: job.partSize, queueSize: job.queueSize }).promise();
		return { etag: res.ETag.replace(/"/g, '') };
	}
	await pipeline(s3.getObject({ Bucket: job.bucket, Key: job.key }).createReadStream(), fs.createWriteStream(job.file));
	return { size: fs.statSync(job.file).size };
}

/**
 * The limit of this machine: the same bytes between the same server and the same disk by Node's
 * plain `http` (a presigned URL, one request, the file streamed in or out), no n8n, no SDK.
 */
async function plainHttp(job) {
	const http = require('node:http');
	const url = new URL(job.url);
	if (job.op === 'upload') {
		const size = fs.statSync(job.file).size;
		const res = await new Promise((resolve, reject) => {
			const req = http.request(url, { method: 'PUT', headers: { 'Content-Length': size } }, resolve);
			req.once('error', reject);
			fs.createReadStream(job.file).once('error', reject).pipe(req);
		});
		res.resume();
		await new Promise((r) => res.once('end', r));
		if (res.statusCode !== 200) throw new Error(`plain PUT answered ${res.statusCode}`);
		return { etag: String(res.headers.etag).replace(/"/g, '') };
	}
	const res = await new Promise((resolve, reject) => http.get(url, resolve).once('error', reject));
	if (res.statusCode !== 200) throw new Error(`plain GET answered ${res.statusCode}`);
	await pipeline(res, fs.createWriteStream(job.file));
	return { size: fs.statSync(job.file).size };
}

/**
 * Child process: one measured run, the node's (`--node-run`), aws-sdk's (`--sdk-run`), plain
 * http's (`--http-run`) or Download then Upload by the node (`--getput-run`, a copy by hand);
 * argv[3] holds the job as JSON. Prints `RESULT {...}`.
 */
async function child() {
	const job = JSON.parse(process.argv[3]);
	let out;
	if (process.argv[2] === '--http-run') {
		// http loaded before the baseline
		require('node:http');
		const meter = new Meter();
		meter.start();
		const res = await plainHttp(job);
		out = { ...res, ...meter.stop() };
	} else if (process.argv[2] === '--getput-run') {
		const { store, credentials } = nodeCredentials(job.endpoint, AWS_WORDS);
		const down = await runNode(job.download, credentials, store);
		const binary = down.items[0].binary.data;
		const up = await runNode(job.upload, credentials, store, { binary });
		await binaryService().deleteManyByBinaryDataId([binary.id]);
		out = { json: up.items[0].json, ms: down.ms + up.ms, growth: Math.max(down.growth, up.growth), arrayBuffersGrowth: Math.max(down.arrayBuffersGrowth, up.arrayBuffersGrowth), heapGrowth: Math.max(down.heapGrowth, up.heapGrowth) };
	} else if (process.argv[2] === '--sdk-run') {
		const s3 = s3Client(job.endpoint);
		// aws-sdk's code loaded before the baseline, as n8n-core's is for the node
		await s3.listObjects({ Bucket: job.bucket, MaxKeys: 1 }).promise();
		const meter = new Meter();
		meter.start();
		const res = await sdkTransfer(s3, job);
		out = { ...res, ...meter.stop() };
	} else {
		const { store, credentials } = nodeCredentials(job.endpoint, AWS_WORDS);
		const r = await runNode(job.parameters, credentials, store, { binary: job.binary });
		const item = r.items[0];
		out = { json: item.json, binary: item.binary?.data, ms: r.ms, growth: r.growth, sampledGrowth: r.sampledGrowth, kernelGrowth: r.kernelGrowth, arrayBuffersGrowth: r.arrayBuffersGrowth, heapGrowth: r.heapGrowth };
	}
	process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

/** Runs the node (mode '--node-run') or aws-sdk ('--sdk-run') in a fresh process; resolves what it measured. */
function runInChild(mode, job) {
	return new Promise((resolve, reject) => {
		const proc = spawn(process.execPath, ['--expose-gc', __filename, mode, JSON.stringify(job)], {
			stdio: ['ignore', 'pipe', 'inherit'],
			env: process.env,
		});
		let result;
		readline.createInterface({ input: proc.stdout }).on('line', (line) => {
			if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7));
		});
		proc.once('error', reject);
		proc.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`${mode} exited with ${code}`))));
	});
}

const rl = (value) => ({ __rl: true, mode: 'name', value });

/** Puts a file into n8n's binary store (filesystem mode) through the harness's fixture node. */
async function storeBinary(file, credentials, store) {
	const r = await runNode(undefined, credentials, store, { fixtureFile: file });
	return r.items[0].binary.data;
}

function binaryService() {
	const core = require('n8n-core');
	const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }));
	return Container.get(core.BinaryDataService);
}

module.exports = { AWS_WORDS, KEY, SAMPLE_MS, Meter, binaryService, gc, kernelPeak, nodeCredentials, rl, runInChild, runNode, s3Client, storeBinary, syncDisk };

if (require.main === module) {
	child().catch((err) => {
		process.stderr.write(`${err.stack || err}\n`);
		process.exit(1);
	});
}

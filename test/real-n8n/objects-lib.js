'use strict';
/**
 * Large objects from the test's side, shared by the real-n8n tests that move them through n8n
 * (queue.test.js, large-objects.test.js): signed object-storage requests to an emulator (signed
 * as the vendor's documents say, with the built signer of dist/), a seeded object of any size PUT
 * without holding it in memory, the MD5 of what a GET returns, and the resident memory of
 * processes sampled from /proc.
 *
 *   const store = objectStore(emulatorUrl, 'bucket');
 *   const md5 = await store.put('big.bin', 1024 * MiB);  // seeded 1 MiB blocks, each numbered
 *   await store.md5('copy.bin');                         // { status, size, md5 }
 *   const stop = sampleRss([{ name: 'main', pid }]);     // every 100 ms
 *   stop();                                              // { main: { baseKiB, peakKiB, samples, series } }
 *
 * And the workflow both the large-object test and the n8n S3 bench run (downloadUploadWorkflow):
 * a webhook, Download of an object into n8n's binary store, Upload of that binary under another
 * key, with this package's node or n8n's own S3 node; waitForWebhook until n8n serves its hook.
 */
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const crypto = require('node:crypto');

const ROOT = path.resolve(__dirname, '..', '..');
const MiB = 1024 * 1024;
const STORAGE_KEY = Object.freeze({ accessKey: 'VENDORTESTKEY', secret: 'vendor-test-secret' });

const signer = () => require(path.join(ROOT, 'dist', 'nodes', 'shared', 'storage', 'signer.js'));

/** An object store at `url` (the emulator), one bucket: { request(), put(), md5() }. */
function objectStore(url, bucket) {
	function request(method, key, { size, write } = {}) {
		const s = signer();
		const p = s.objectPath(bucket, key);
		const headers = { 'x-vendor-date': new Date().toUTCString() };
		if (size !== undefined) Object.assign(headers, { 'content-length': String(size), 'content-type': 'application/octet-stream' });
		headers.authorization = s.authorization(STORAGE_KEY.accessKey, STORAGE_KEY.secret, { method, path: p, headers }, s.VENDOR_PROFILE);
		const u = new URL(url);
		return new Promise((resolve, reject) => {
			const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers }, resolve);
			req.on('error', reject);
			if (write) write(req).catch(reject);
			else req.end();
		});
	}

	/** PUTs `size` bytes of seeded data (1 MiB blocks, each numbered) as `key`; returns their MD5. */
	async function put(key, size) {
		const block = crypto.createHash('sha512').update(key).digest();
		const chunk = Buffer.alloc(MiB);
		for (let i = 0; i < MiB; i += block.length) block.copy(chunk, i);
		crypto.randomFillSync(chunk, 64);
		const hash = crypto.createHash('md5');
		const res = await request('PUT', key, {
			size,
			write: async (req) => {
				for (let i = 0; i < size / MiB; i++) {
					chunk.writeUInt32BE(i, 0);
					hash.update(chunk);
					if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
				}
				req.end();
			},
		});
		res.resume();
		await new Promise((r) => res.on('end', r));
		if (res.statusCode !== 200) throw new Error(`PUT ${key}: HTTP ${res.statusCode}`);
		return hash.digest('hex');
	}

	/** GETs `key` and returns { status, size, md5 } of what came. */
	async function md5(key) {
		const res = await request('GET', key);
		const hash = crypto.createHash('md5');
		let size = 0;
		for await (const c of res) {
			hash.update(c);
			size += c.length;
		}
		return { status: res.statusCode, size, md5: hash.digest('hex') };
	}

	return { url, bucket, request, put, md5 };
}

/** Resident set size of a process in KiB (from /proc), undefined when it is gone. */
function rssKiB(pid) {
	try {
		const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Samples the RSS of processes ([{ name, pid }]) every `everyMs` until stop(); stop() gives
 * { name: { baseKiB, peakKiB, samples, series: [[msSinceStart, kib], ...] } } (series only
 * with keepSeries).
 */
function sampleRss(procs, { everyMs = 100, keepSeries = false } = {}) {
	const t0 = Date.now();
	const rec = {};
	for (const p of procs) {
		const kib = rssKiB(p.pid);
		rec[p.name] = { baseKiB: kib, peakKiB: kib, samples: 0, series: [] };
	}
	const timer = setInterval(() => {
		for (const p of procs) {
			const kib = rssKiB(p.pid);
			if (kib === undefined) continue;
			const r = rec[p.name];
			r.samples += 1;
			if (keepSeries) r.series.push([Date.now() - t0, kib]);
			if (kib > r.peakKiB) r.peakKiB = kib;
		}
	}, everyMs);
	return () => {
		clearInterval(timer);
		return rec;
	};
}

/** KiB to MiB, one decimal. */
const mib = (kib) => Math.round((kib / 1024) * 10) / 10;

const PKG = require(path.join(ROOT, 'package.json')).name;

/**
 * A production webhook (`hook`, POST, answers with the last node's first item), then Download of
 * the object `body.key` of `bucket` into n8n's binary store, then Upload of that binary as
 * `body.target`: with Vendor Object Storage (`uploadOptions`: the Upload's Options), or with
 * `peer` n8n's own S3 node (File > Download, File > Upload). `credential`: { id, name } of a
 * vendorObjectStorageApi credential, or of an s3 one for the peer.
 */
function downloadUploadWorkflow({ name, hook, bucket, credential, peer = false, uploadOptions = {} }) {
	const { webhookNode } = require('./lib');
	const body = (field) => `={{ $('Webhook').first().json.body.${field} }}`;
	const rl = (value) => ({ __rl: true, mode: 'name', value });
	const credentials = { [peer ? 's3' : 'vendorObjectStorageApi']: credential };
	const node = (id, nodeName, position, parameters) => ({
		id,
		name: nodeName,
		type: peer ? 'n8n-nodes-base.s3' : `${PKG}.vendorObjectStorage`,
		typeVersion: 1,
		position: [position, 0],
		parameters,
		credentials,
	});
	const nodes = peer
		? [
				node('down', 'Download', 220, { resource: 'file', operation: 'download', bucketName: bucket, fileKey: body('key'), binaryPropertyName: 'data' }),
				node('up', 'Upload', 440, { resource: 'file', operation: 'upload', bucketName: bucket, fileName: body('target'), binaryData: true, binaryPropertyName: 'data', additionalFields: {}, tagsUi: {} }),
			]
		: [
				node('down', 'Download', 220, { resource: 'object', operation: 'download', bucket: rl(bucket), key: body('key') }),
				node('up', 'Upload', 440, { resource: 'object', operation: 'upload', bucket: rl(bucket), key: body('target'), binaryData: true, binaryPropertyName: 'data', options: uploadOptions }),
			];
	return {
		name,
		nodes: [{ ...webhookNode(hook, 'firstEntryJson'), webhookId: `${hook}-hook` }, ...nodes],
		connections: { Webhook: { main: [[{ node: 'Download', type: 'main', index: 0 }]] }, Download: { main: [[{ node: 'Upload', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Waits until n8n serves the POST webhook `hook` (activation may register it in the background):
 * a GET to it then says "not registered for GET requests" and starts nothing.
 */
async function waitForWebhook(server, hook, timeoutMs = 60000) {
	for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
		const text = await fetch(`${server.url}/webhook/${hook}`).then((r) => r.text(), () => '');
		if (/not registered for GET|Did you mean to make a POST/i.test(text)) return;
		if (Date.now() > until) throw new Error(`webhook ${hook} not registered (${text}):\n${server.logs ? server.logs().slice(-3000) : ''}`);
	}
}

module.exports = { MiB, STORAGE_KEY, objectStore, rssKiB, sampleRss, mib, downloadUploadWorkflow, waitForWebhook };

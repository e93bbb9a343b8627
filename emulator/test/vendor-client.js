'use strict';
/**
 * A client of the storage emulator for its VENDOR-scheme tests (storage.vendor, storage.objects,
 * storage.multipart): hand-built requests, signed by a signer written from
 * docs/vendor/object-storage.md#signing on its own (it deliberately duplicates the emulator's
 * verifier; storage.vendor.test.js checks it against the published AWS signature V2 examples).
 * useEmulator() starts an emulator for the calling test file and resets its faults and clock
 * after each test; emu() is that emulator.
 */
const crypto = require('node:crypto');
const http = require('node:http');
const { XMLParser } = require('fast-xml-parser');
const { createEmulator } = require('..');
const VECTORS = require('../../test/fixtures/spec/aws-v2-signing.json');

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const USER = { accessKey: 'VENDORTESTKEY', secretKey: 'vendor-test-secret', id: 'vendor-test' };
const SUBS = [
	'acl',
	'delete',
	'logging',
	'partNumber',
	'uploadId',
	'uploads',
	'versioning',
	'versions',
];

// ---- independent V2 signer ---------------------------------------------------------------

const hmac = (secret, sts) =>
	crypto.createHmac('sha1', secret).update(sts, 'utf8').digest('base64');
const md5b64 = (buf) => crypto.createHash('md5').update(buf).digest('base64');
const md5hex = (buf) => crypto.createHash('md5').update(buf).digest('hex');

function canonicalResource(pathAndQuery) {
	const i = pathAndQuery.indexOf('?');
	const p = i < 0 ? pathAndQuery : pathAndQuery.slice(0, i);
	const q = i < 0 ? '' : pathAndQuery.slice(i + 1);
	const subs = q
		.split('&')
		.filter(Boolean)
		.map((s) => {
			const j = s.indexOf('=');
			return j < 0 ? [s] : [s.slice(0, j), decodeURIComponent(s.slice(j + 1))];
		})
		.filter(([n]) => SUBS.includes(n))
		.sort((a, b) => (a[0] < b[0] ? -1 : 1))
		.map((a) => a.join('='));
	return p + (subs.length ? '?' + subs.join('&') : '');
}

/** headers: [[name, value], ...] (repeats allowed). resource: the path (and query) as sent. */
function stringToSign({ method, resource, headers, prefix = 'x-vendor-', dateSlot }) {
	const first = (n) => {
		const hit = headers.find(([k]) => k.toLowerCase() === n);
		return hit ? String(hit[1]) : '';
	};
	const groups = new Map();
	for (const [k, v] of headers) {
		const n = k.toLowerCase();
		if (!n.startsWith(prefix)) continue;
		if (!groups.has(n)) groups.set(n, []);
		groups.get(n).push(String(v).trim());
	}
	const vendorHeaders = [...groups.keys()]
		.sort()
		.map((n) => `${n}:${groups.get(n).join(',')}\n`)
		.join('');
	const date = dateSlot !== undefined ? dateSlot : groups.has(prefix + 'date') ? '' : first('date');
	return `${method}\n${first('content-md5')}\n${first('content-type')}\n${date}\n${vendorHeaders}${canonicalResource(resource)}`;
}

const encodeSegment = (s) =>
	encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
const encodeKey = (key) => key.split('/').map(encodeSegment).join('/');

// ---- HTTP ------------------------------------------------------------------------------

let emu;
/** The emulator of the test file that called useEmulator(). */
const current = () => emu;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const xml = new XMLParser({
	ignoreAttributes: false,
	parseTagValue: false,
	isArray: (n, jpath) =>
		['Contents', 'CommonPrefixes', 'Part', 'Grant'].includes(n) ||
		jpath === 'ListAllMyBucketsResult.Buckets.Bucket',
});

function send(
	base,
	{ method, path, headers = [], body, chunked = false, expectContinue = false, raw = false },
) {
	const u = new URL(base);
	const hdrs = {};
	for (const [k, v] of headers) {
		const existing = Object.keys(hdrs).find((x) => x.toLowerCase() === k.toLowerCase());
		if (existing) hdrs[existing] = [].concat(hdrs[existing], v);
		else hdrs[k] = v;
	}
	const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
	if (payload && !chunked && !Object.keys(hdrs).some((k) => k.toLowerCase() === 'content-length'))
		hdrs['Content-Length'] = payload.length;
	if (expectContinue) hdrs.Expect = '100-continue';
	return new Promise((resolve, reject) => {
		const req = http.request(
			{ host: u.hostname, port: u.port, method, path, headers: hdrs, agent },
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const buf = Buffer.concat(chunks);
					let doc;
					if (!raw && /xml/.test(res.headers['content-type'] || '') && buf.length)
						doc = xml.parse(buf.toString('utf8'));
					resolve({
						status: res.statusCode,
						headers: res.headers,
						body: buf,
						text: buf.toString('utf8'),
						xml: doc,
						continued: req.continued,
					});
				});
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		if (expectContinue) {
			req.on('continue', () => {
				req.continued = true;
				req.end(payload);
			});
			req.flushHeaders();
		} else if (chunked && payload) {
			req.write(payload.subarray(0, 1));
			req.end(payload.subarray(1));
		} else req.end(payload);
	});
}

/**
 * A signed (or anonymous) request. opts: headers [[k, v]], body, user, anonymous,
 * vendorDate (use x-vendor-date instead of Date), date (override), secret (override).
 */
function vreq(method, path, opts = {}) {
	const user = opts.user || USER;
	const headers = [...(opts.headers || [])];
	const date = opts.date || new Date().toUTCString();
	if (!opts.anonymous) {
		if (opts.vendorDate) headers.push(['x-vendor-date', date]);
		else headers.push(['Date', date]);
		const sts = stringToSign({ method, resource: path, headers });
		headers.push([
			'Authorization',
			`VENDOR ${user.accessKey}:${hmac(opts.secret || user.secretKey, sts)}`,
		]);
	}
	return send(emu.url, {
		method,
		path,
		headers,
		body: opts.body,
		chunked: opts.chunked,
		expectContinue: opts.expectContinue,
		raw: opts.raw,
	});
}

function presign(method, path, { expires, user = USER, headers = [] }) {
	const sts = stringToSign({ method, resource: path, headers, dateSlot: String(expires) });
	const sep = path.includes('?') ? '&' : '?';
	return `${path}${sep}VENDORAccessKeyId=${encodeURIComponent(user.accessKey)}&Expires=${expires}&Signature=${encodeURIComponent(hmac(user.secretKey, sts))}`;
}

async function control(method, path, body) {
	const res = await fetch(`${emu.url}/__emulator${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(res.status).toBe(200);
	return res.json();
}

function expectError(res, status, code) {
	expect({ status: res.status, code: res.xml && res.xml.Error && res.xml.Error.Code }).toEqual({
		status,
		code,
	});
	expect(res.headers['x-trans-id']).toMatch(/^[0-9a-f-]{36}$/);
	expect(res.xml.Error.RequestId).toBe(res.headers['x-trans-id']);
	expect(typeof res.xml.Error.Message).toBe('string');
}

let seq = 0;
async function newBucket(acl) {
	seq += 1;
	const name = `vt-bucket-${seq}`;
	const res = await vreq('PUT', `/${name}`, { headers: acl ? [['x-vendor-acl', acl]] : [] });
	expect(res.status).toBe(200);
	return name;
}

async function putText(bucket, key, text, headers = []) {
	const body = Buffer.from(text);
	const res = await vreq('PUT', `/${bucket}/${encodeKey(key)}`, {
		body,
		headers: [['Content-MD5', md5b64(body)], ...headers],
	});
	expect(res.status).toBe(200);
	expect(res.headers.etag).toBe(`"${md5hex(body)}"`);
	return res;
}

function useEmulator() {
	beforeAll(async () => {
		emu = await createEmulator();
	});
	afterAll(async () => {
		agent.destroy();
		if (emu) await emu.close();
	});
	afterEach(() => {
		emu.faults.reset();
		emu.clock.advancedMs = 0;
	});
}

module.exports = {
	NS,
	USER,
	VECTORS,
	crypto,
	emu: current,
	encodeKey,
	encodeSegment,
	expectError,
	hmac,
	http,
	md5b64,
	md5hex,
	newBucket,
	presign,
	putText,
	send,
	stringToSign,
	control,
	useEmulator,
	vreq,
	xml,
};

'use strict';
/**
 * The storage emulator spoken to with hand-built, hand-signed requests in the VENDOR scheme.
 *
 * The signer below is written from docs/vendor/object-storage.md#signing on its own (it
 * deliberately duplicates the emulator's verifier). It is first checked against the published
 * AWS signature V2 examples, and those examples are then replayed against the emulator in AWS
 * mode, so the emulator's verifier is pinned to an outside source too, not only to this file.
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

// ---- the signer against published vectors ------------------------------------------------

/** Canonical resource prefix of a virtual-hosted request (the vectors' Host header). */
function hostBucket(host) {
	const h = host.replace(/:\d+$/, '');
	if (h === 's3.amazonaws.com') return '';
	if (h.endsWith('.s3.amazonaws.com')) return '/' + h.slice(0, -'.s3.amazonaws.com'.length);
	return '/' + h; // CNAME style: the whole host is the bucket
}

describe('test signer reproduces the published AWS V2 vectors', () => {
	for (const v of VECTORS) {
		test(v.name, () => {
			if (v.docQuirk) {
				// As published, the signature does not follow the page's own rule: check only StringToSign -> signature.
				expect(hmac(v.secretAccessKey, v.stringToSign)).toBe(v.signature);
				const host = v.headers.find(([k]) => k === 'Host')[1];
				const sts = stringToSign({
					method: v.method,
					resource: hostBucket(host) + v.path,
					headers: v.headers,
					prefix: 'x-amz-',
				});
				expect(sts).not.toBe(v.stringToSign);
				return;
			}
			const host = v.headers.find(([k]) => k === 'Host')[1];
			const sts = stringToSign({
				method: v.method,
				resource: hostBucket(host) + v.path,
				headers: v.headers,
				prefix: 'x-amz-',
				dateSlot: v.expires !== undefined ? String(v.expires) : undefined,
			});
			expect(sts).toBe(v.stringToSign);
			expect(hmac(v.secretAccessKey, sts)).toBe(v.signature);
		});
	}
});

describe('emulator verifier accepts the published vectors (AWS mode, replayed path-style)', () => {
	let aws;
	beforeAll(async () => {
		const v = VECTORS[0];
		aws = await createEmulator({
			storage: {
				scheme: 'AWS',
				headerPrefix: 'x-amz-',
				presignKeyParam: 'AWSAccessKeyId',
				users: [{ accessKey: v.accessKeyId, secretKey: v.secretAccessKey, id: 'johnsmith' }],
			},
		});
	});
	afterAll(() => aws.close());

	for (const v of VECTORS) {
		test(v.name, async () => {
			const host = v.headers.find(([k]) => k === 'Host')[1];
			const path = hostBucket(host) + v.path; // same canonical resource, sent path-style
			const dateHeader = (v.headers.find(([k]) => k.toLowerCase() === 'x-amz-date') ||
				v.headers.find(([k]) => k === 'Date') ||
				[])[1];
			const when = v.expires !== undefined ? (v.expires - 3600) * 1000 : Date.parse(dateHeader);
			aws.faults.set({ clockOffsetMs: when - Date.now() });
			const headers = v.headers.filter(
				([k]) => !['host', 'content-length', 'user-agent'].includes(k.toLowerCase()),
			);
			const len = v.headers.find(([k]) => k.toLowerCase() === 'content-length');
			const body = len ? Buffer.alloc(Number(len[1])) : undefined;
			let target = path;
			if (v.expires !== undefined) {
				target += `?AWSAccessKeyId=${v.accessKeyId}&Expires=${v.expires}&Signature=${encodeURIComponent(v.signature)}`;
			} else {
				headers.push(['Authorization', `AWS ${v.accessKeyId}:${v.signature}`]);
			}
			const res = await send(aws.url, { method: v.method, path: target, headers, body });
			if (v.docQuirk) return expectError(res, 403, 'SignatureDoesNotMatch');
			// Past the signature check: the buckets do not exist (or the service list is empty).
			if (path === '/') expect(res.status).toBe(200);
			else expectError(res, 404, 'NoSuchBucket');
		});
	}
});

// ---- signing and authentication ---------------------------------------------------------

describe('authentication', () => {
	test('signed requests work with Date and with x-vendor-date; repeated vendor headers merge', async () => {
		const b = await newBucket();
		const body = Buffer.from('metadata test');
		const put = await vreq('PUT', `/${b}/meta.txt`, {
			vendorDate: true,
			body,
			headers: [
				['Content-Type', 'text/plain'],
				['X-Vendor-Meta-Reviewer', 'joe'],
				['x-vendor-meta-reviewer', 'jane'],
				['x-vendor-meta-Color', '  blue  '],
			],
		});
		expect(put.status).toBe(200);
		const get = await vreq('GET', `/${b}/meta.txt`);
		expect(get.status).toBe(200);
		expect(get.text).toBe('metadata test');
		expect(get.headers['x-vendor-meta-reviewer']).toBe('joe,jane');
		expect(get.headers['x-vendor-meta-color']).toBe('blue');
		expect(get.headers['content-type']).toBe('text/plain');
	});

	test('wrong secret: 403 SignatureDoesNotMatch, X-Trans-Id header = RequestId in the body', async () => {
		const res = await vreq('GET', '/', { secret: 'not-the-secret' });
		expectError(res, 403, 'SignatureDoesNotMatch');
		expect(res.xml.Error.StringToSign).toMatch(/^GET\n\n\n.+\n\/$/);
	});

	test('unknown access key, wrong scheme word, missing date', async () => {
		expectError(
			await vreq('GET', '/', { user: { accessKey: 'NOPE', secretKey: 'x' } }),
			403,
			'InvalidAccessKeyId',
		);
		const date = new Date().toUTCString();
		const sig = hmac(
			USER.secretKey,
			stringToSign({ method: 'GET', resource: '/', headers: [['Date', date]] }),
		);
		const aws = await send(emu.url, {
			method: 'GET',
			path: '/',
			headers: [
				['Date', date],
				['Authorization', `AWS ${USER.accessKey}:${sig}`],
			],
		});
		expectError(aws, 400, 'InvalidArgument');
		const noDate = await send(emu.url, {
			method: 'GET',
			path: '/',
			headers: [
				['Authorization', `VENDOR ${USER.accessKey}:${hmac(USER.secretKey, 'GET\n\n\n\n/')}`],
			],
		});
		expectError(noDate, 403, 'AccessDenied');
	});

	test('clock skew: 14 minutes is accepted, 16 minutes is RequestTimeTooSkewed (both directions)', async () => {
		emu.faults.set({ clockOffsetMs: 14 * 60 * 1000 });
		expect((await vreq('GET', '/')).status).toBe(200);
		emu.faults.set({ clockOffsetMs: 16 * 60 * 1000 });
		expectError(await vreq('GET', '/'), 403, 'RequestTimeTooSkewed');
		emu.faults.set({ clockOffsetMs: -16 * 60 * 1000 });
		expectError(await vreq('GET', '/', { vendorDate: true }), 403, 'RequestTimeTooSkewed');
	});

	test('the resource is signed as sent: a differently encoded path does not verify', async () => {
		const b = await newBucket();
		await putText(b, 'a b', 'x');
		const date = new Date().toUTCString();
		const headers = [['Date', date]];
		const sig = hmac(
			USER.secretKey,
			stringToSign({ method: 'GET', resource: `/${b}/a%20b`, headers }),
		);
		headers.push(['Authorization', `VENDOR ${USER.accessKey}:${sig}`]);
		expect((await send(emu.url, { method: 'GET', path: `/${b}/a%20b`, headers })).status).toBe(200);
		expectError(
			await send(emu.url, { method: 'GET', path: `/${b}/a%20%62`, headers }),
			403,
			'SignatureDoesNotMatch',
		);
		// non-sub-resource query parameters are not signed, sub-resources are
		expect(
			(await send(emu.url, { method: 'GET', path: `/${b}/a%20b?foo=bar`, headers })).status,
		).toBe(200);
		expectError(
			await send(emu.url, { method: 'GET', path: `/${b}/a%20b?acl`, headers }),
			403,
			'SignatureDoesNotMatch',
		);
	});

	test("ListAllMyBuckets on GET / lists only the caller's buckets; anonymous is denied", async () => {
		const b = await newBucket();
		await control('POST', '/storage/users', {
			accessKey: 'OTHERKEY',
			secretKey: 'other-secret',
			id: 'other-user',
		});
		const other = { accessKey: 'OTHERKEY', secretKey: 'other-secret' };
		const mine = await vreq('GET', '/');
		expect(mine.headers['content-type']).toBe('application/xml');
		expect(mine.xml.ListAllMyBucketsResult['@_xmlns']).toBe(NS);
		expect(mine.xml.ListAllMyBucketsResult.Owner.ID).toBe('vendor-test');
		expect(mine.xml.ListAllMyBucketsResult.Buckets.Bucket.map((x) => x.Name)).toContain(b);
		const theirs = await vreq('GET', '/', { user: other });
		expect(theirs.status).toBe(200);
		expect(theirs.xml.ListAllMyBucketsResult.Buckets).toBe('');
		expectError(await vreq('GET', '/', { anonymous: true }), 403, 'AccessDenied');
	});

	test('control route POST /config switches the scheme word at run time', async () => {
		await control('POST', '/storage/config', { scheme: 'ACME' });
		try {
			expectError(await vreq('GET', '/'), 400, 'InvalidArgument');
			const date = new Date().toUTCString();
			const sig = hmac(
				USER.secretKey,
				stringToSign({ method: 'GET', resource: '/', headers: [['Date', date]] }),
			);
			const res = await send(emu.url, {
				method: 'GET',
				path: '/',
				headers: [
					['Date', date],
					['Authorization', `ACME ${USER.accessKey}:${sig}`],
				],
			});
			expect(res.status).toBe(200);
		} finally {
			await control('POST', '/storage/config', { scheme: 'VENDOR' });
		}
		expect(await control('GET', '/storage/config')).toEqual({
			scheme: 'VENDOR',
			headerPrefix: 'x-vendor-',
			presignKeyParam: 'VENDORAccessKeyId',
		});
	});
});

describe('presigned URLs', () => {
	test('GET and PUT within Expires work; after Expires (emulator clock) they are rejected', async () => {
		const b = await newBucket();
		await putText(b, 'dir/pre signed+file.txt', 'presigned body');
		const path = `/${b}/${encodeKey('dir/pre signed+file.txt')}`;
		const expires = Math.floor(Date.now() / 1000) + 300;
		const url = presign('GET', path, { expires });
		const ok = await fetch(emu.url + url);
		expect(ok.status).toBe(200);
		expect(await ok.text()).toBe('presigned body');

		const putUrl = presign('PUT', `/${b}/uploaded.bin`, {
			expires,
			headers: [['Content-Type', 'application/octet-stream']],
		});
		const put = await fetch(emu.url + putUrl, {
			method: 'PUT',
			body: new Uint8Array([1, 2, 3]),
			headers: { 'Content-Type': 'application/octet-stream' },
		});
		expect(put.status).toBe(200);

		emu.clock.advance(301 * 1000);
		const late = await send(emu.url, { method: 'GET', path: url });
		expectError(late, 403, 'AccessDenied');
		expect(late.xml.Error.Message).toMatch(/expired/i);
	});

	test('a tampered presigned URL is SignatureDoesNotMatch', async () => {
		const b = await newBucket();
		await putText(b, 'x.txt', 'x');
		await putText(b, 'y.txt', 'y');
		const url = presign('GET', `/${b}/x.txt`, { expires: Math.floor(Date.now() / 1000) + 60 });
		expectError(
			await send(emu.url, { method: 'GET', path: url.replace('x.txt', 'y.txt') }),
			403,
			'SignatureDoesNotMatch',
		);
	});
});

// ---- ACLs --------------------------------------------------------------------------------

describe('canned ACLs', () => {
	test('anonymous read: public-read object yes, private object AccessDenied, private bucket list AccessDenied', async () => {
		const b = await newBucket();
		await putText(b, 'public.txt', 'for everyone', [['x-vendor-acl', 'public-read']]);
		await putText(b, 'private.txt', 'secret');
		const pub = await vreq('GET', `/${b}/public.txt`, { anonymous: true });
		expect(pub.status).toBe(200);
		expect(pub.text).toBe('for everyone');
		expectError(await vreq('GET', `/${b}/private.txt`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}/missing.txt`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}`, { anonymous: true }), 403, 'AccessDenied');
		expectError(
			await vreq('PUT', `/${b}/anon.txt`, { anonymous: true, body: 'x' }),
			403,
			'AccessDenied',
		);
	});

	test('bucket ACL via PUT ?acl; GET ?acl shows the grants with xsi:type', async () => {
		const b = await newBucket();
		const initial = await vreq('GET', `/${b}?acl`);
		expect(initial.status).toBe(200);
		expect(initial.headers['last-modified']).toBeTruthy();
		const policy = initial.xml.AccessControlPolicy;
		expect(policy['@_xmlns']).toBe(NS);
		expect(policy.Owner).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
		expect(policy.AccessControlList.Grant).toHaveLength(1);
		expect(policy.AccessControlList.Grant[0].Permission).toBe('FULL_CONTROL');
		expect(policy.AccessControlList.Grant[0].Grantee['@_xsi:type']).toBe('CanonicalUser');
		expect(policy.AccessControlList.Grant[0].Grantee.ID).toBe('vendor-test');

		const set = await vreq('PUT', `/${b}/?acl`, {
			headers: [['x-vendor-acl', 'public-read-write']],
		});
		expect(set.status).toBe(200);
		expect(set.headers['content-length']).toBe('0');
		const after = (await vreq('GET', `/${b}/?acl`)).xml.AccessControlPolicy.AccessControlList.Grant;
		expect(
			after.map((g) => [g.Grantee['@_xsi:type'], g.Grantee.URI || g.Grantee.ID, g.Permission]),
		).toEqual([
			['CanonicalUser', 'vendor-test', 'FULL_CONTROL'],
			['Group', 'http://acs.amazonaws.com/groups/global/AllUsers', 'READ'],
			['Group', 'http://acs.amazonaws.com/groups/global/AllUsers', 'WRITE'],
		]);
		// public-read-write: anonymous may list and put
		expect(
			(await vreq('PUT', `/${b}/from-anon.txt`, { anonymous: true, body: 'anon' })).status,
		).toBe(200);
		const list = await vreq('GET', `/${b}`, { anonymous: true });
		expect(list.status).toBe(200);
		expect(list.xml.ListBucketResult.Contents.map((c) => c.Key)).toEqual(['from-anon.txt']);

		expectError(
			await vreq('PUT', `/${b}?acl`, { headers: [['x-vendor-acl', 'everyone']] }),
			400,
			'InvalidArgument',
		);
		expectError(await vreq('PUT', `/${b}?acl`), 400, 'InvalidArgument');
		expectError(await vreq('GET', `/${b}?acl`, { anonymous: true }), 403, 'AccessDenied');
	});

	test('authenticated-read: other users may list, anonymous may not; others cannot read private objects', async () => {
		await control('POST', '/storage/users', {
			accessKey: 'READERKEY',
			secretKey: 'reader-secret',
			id: 'reader',
		});
		const reader = { accessKey: 'READERKEY', secretKey: 'reader-secret' };
		const b = await newBucket('authenticated-read');
		await putText(b, 'doc.txt', 'doc');
		const grants = (await vreq('GET', `/${b}?acl`)).xml.AccessControlPolicy.AccessControlList.Grant;
		expect(grants[1]).toMatchObject({
			Grantee: { URI: 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers' },
			Permission: 'READ',
		});
		expect((await vreq('GET', `/${b}`, { user: reader })).status).toBe(200);
		expectError(await vreq('GET', `/${b}`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}/doc.txt`, { user: reader }), 403, 'AccessDenied');
		expectError(await vreq('DELETE', `/${b}`, { user: reader }), 403, 'AccessDenied');
	});
});

// ---- buckets -----------------------------------------------------------------------------

describe('buckets', () => {
	test('name rules', async () => {
		for (const bad of [
			'ab',
			'Upper-case',
			'-starts',
			'ends-',
			'under_score',
			'192.168.1.10',
			'x'.repeat(64),
			'sp ace',
		]) {
			expectError(await vreq('PUT', `/${encodeSegment(bad)}`), 400, 'InvalidBucketName');
		}
		for (const good of ['abc', 'a.b-c.9', 'x'.repeat(63), '1.2.3.4.5']) {
			expect((await vreq('PUT', `/${good}`)).status).toBe(200);
			expect((await vreq('DELETE', `/${good}`)).status).toBe(204);
		}
	});

	test('create, exists, empty body and headers; /bucket and /bucket/ both address the bucket', async () => {
		const b = await newBucket();
		const again = await vreq('PUT', `/${b}/`);
		expectError(again, 409, 'BucketAlreadyExists');
		await putText(b, 'one', '1');
		const a = await vreq('GET', `/${b}`);
		const c = await vreq('GET', `/${b}/`);
		expect(a.xml).toEqual(c.xml);
		expect(a.xml.ListBucketResult.Name).toBe(b);
		expect((await vreq('HEAD', `/${b}`)).status).toBe(200);
		expect((await vreq('HEAD', '/vt-no-such-bucket')).status).toBe(404);
	});

	test('delete: BucketNotEmpty with objects or uploads in progress, NoSuchBucket afterwards', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'v');
		expectError(await vreq('DELETE', `/${b}`), 409, 'BucketNotEmpty');
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		const init = await vreq('POST', `/${b}/mp?uploads`);
		expectError(await vreq('DELETE', `/${b}`), 409, 'BucketNotEmpty');
		expect(
			(await vreq('DELETE', `/${b}/mp?uploadId=${init.xml.InitiateMultipartUploadResult.UploadId}`))
				.status,
		).toBe(204);
		const del = await vreq('DELETE', `/${b}/`);
		expect(del.status).toBe(204);
		expectError(await vreq('GET', `/${b}`), 404, 'NoSuchBucket');
		expectError(await vreq('PUT', `/${b}/k`, { body: 'x' }), 404, 'NoSuchBucket');
	});

	test('unsupported sub-resources answer 501 instead of acting on the object', async () => {
		const b = await newBucket();
		await putText(b, 'keep', 'me');
		expectError(await vreq('GET', `/${b}?versioning`), 501, 'NotImplemented');
		expectError(await vreq('DELETE', `/${b}/keep?tagging`), 501, 'NotImplemented');
		expect((await vreq('GET', `/${b}/keep`)).text).toBe('me');
	});
});

// ---- objects -----------------------------------------------------------------------------

describe('objects', () => {
	const NASTY = [
		'plain.txt',
		'unicode/日本語/файл ü.txt',
		'space in name',
		'a+b=c:d',
		'per%cent',
		'what?#hash',
		'tilde~and!bang',
		'deep/er/and/deeper/',
		'emoji 😀.bin',
		"quote'(paren)*",
	];

	test('nasty keys round-trip; "+" in a path is a literal plus', async () => {
		const b = await newBucket();
		for (const key of NASTY) await putText(b, key, `body of ${key}`);
		for (const key of NASTY) {
			const res = await vreq('GET', `/${b}/${encodeKey(key)}`);
			expect(res.status).toBe(200);
			expect(res.text).toBe(`body of ${key}`);
		}
		const list = await vreq('GET', `/${b}`);
		const sorted = [...NASTY].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
		expect(list.xml.ListBucketResult.Contents.map((c) => c.Key)).toEqual(sorted);
		// unencoded "+" stays a plus, never a space
		expect((await vreq('GET', `/${b}/a+b=c:d`)).text).toBe('body of a+b=c:d');
		expectError(await vreq('GET', `/${b}/a%20b=c:d`), 404, 'NoSuchKey');
		for (const key of NASTY)
			expect((await vreq('DELETE', `/${b}/${encodeKey(key)}`)).status).toBe(204);
		expect((await vreq('GET', `/${b}`)).xml.ListBucketResult.Contents).toBeUndefined();
	});

	test('stored headers and metadata come back on GET and HEAD; Last-Modified and ETag', async () => {
		const b = await newBucket();
		const headers = [
			['Content-Type', 'application/json'],
			['Cache-Control', 'max-age=60'],
			['Content-Disposition', 'attachment; filename="report.json"'],
			['Content-Encoding', 'identity'],
			['Expires', '3600000'],
			['x-vendor-meta-owner', 'team-a'],
		];
		await putText(b, 'report.json', '{"a":1}', headers);
		for (const method of ['GET', 'HEAD']) {
			const res = await vreq(method, `/${b}/report.json`);
			expect(res.status).toBe(200);
			expect(res.headers).toMatchObject({
				'content-type': 'application/json',
				'cache-control': 'max-age=60',
				'content-disposition': 'attachment; filename="report.json"',
				'content-encoding': 'identity',
				expires: '3600000',
				'x-vendor-meta-owner': 'team-a',
				etag: `"${md5hex('{"a":1}')}"`,
				'content-length': '7',
			});
			expect(Date.parse(res.headers['last-modified'])).toBeGreaterThan(Date.now() - 60000);
			expect(res.text).toBe(method === 'GET' ? '{"a":1}' : '');
		}
		expectError(await vreq('GET', `/${b}/nothing-here`), 404, 'NoSuchKey');
		expect((await vreq('HEAD', `/${b}/nothing-here`)).status).toBe(404);
	});

	test('Content-MD5: malformed is InvalidDigest, mismatch is BadDigest and nothing is stored', async () => {
		const b = await newBucket();
		expectError(
			await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', 'not-base64']] }),
			400,
			'InvalidDigest',
		);
		expectError(
			await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', md5b64('abd')]] }),
			400,
			'BadDigest',
		);
		expect((await control('GET', `/storage/objects?bucket=${b}`)).objects).toEqual([]);
		expect(
			(await vreq('PUT', `/${b}/d`, { body: 'abc', headers: [['Content-MD5', md5b64('abc')]] }))
				.status,
		).toBe(200);
	});

	test('PUT without Content-Length is 411 MissingContentLength', async () => {
		const b = await newBucket();
		const res = await vreq('PUT', `/${b}/chunked`, { body: 'chunked body', chunked: true });
		expectError(res, 411, 'MissingContentLength');
		expectError(await vreq('GET', `/${b}/chunked`), 404, 'NoSuchKey');
	});

	test('Expect: 100-continue is served', async () => {
		const b = await newBucket();
		const body = crypto.randomBytes(256 * 1024);
		const res = await vreq('PUT', `/${b}/continued.bin`, {
			body,
			expectContinue: true,
			headers: [['Content-MD5', md5b64(body)]],
		});
		expect(res.continued).toBe(true);
		expect(res.status).toBe(200);
		expect((await vreq('GET', `/${b}/continued.bin`)).body.equals(body)).toBe(true);
	});

	test('ranges: a-b, a-, -n, clamped end, 416 InvalidRange, ignored when malformed', async () => {
		const b = await newBucket();
		await putText(b, 'digits', '0123456789');
		const get = (range) => vreq('GET', `/${b}/digits`, { headers: [['Range', range]] });
		let r = await get('bytes=0-4');
		expect([r.status, r.text, r.headers['content-range'], r.headers['content-length']]).toEqual([
			206,
			'01234',
			'bytes 0-4/10',
			'5',
		]);
		r = await get('bytes=7-');
		expect([r.status, r.text, r.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
		r = await get('bytes=-3');
		expect([r.status, r.text, r.headers['content-range']]).toEqual([206, '789', 'bytes 7-9/10']);
		r = await get('bytes=8-100');
		expect([r.status, r.text]).toEqual([206, '89']);
		r = await get('bytes=10-12');
		expectError(r, 416, 'InvalidRange');
		expect(r.headers['content-range']).toBe('bytes */10');
		r = await get('chars=1-2');
		expect([r.status, r.text]).toEqual([200, '0123456789']);
	});

	test('conditional GET per docs/vendor/object-storage.md#conditions: 304 without body, 412 PreconditionFailed', async () => {
		const b = await newBucket();
		await putText(b, 'cond', 'conditional');
		const etag = `"${md5hex('conditional')}"`;
		const head = await vreq('HEAD', `/${b}/cond`);
		const lm = Date.parse(head.headers['last-modified']);
		const get = (...headers) => vreq('GET', `/${b}/cond`, { headers });
		const before = new Date(lm - 60000).toUTCString();
		const same = new Date(lm).toUTCString();
		const later = new Date(lm + 60000).toUTCString();

		expect((await get(['If-Modified-Since', before])).status).toBe(200);
		let r = await get(['If-Modified-Since', same]);
		expect([r.status, r.body.length, r.headers.etag]).toEqual([304, 0, etag]);
		expect((await get(['If-Modified-Since', later])).status).toBe(304);

		expect((await get(['If-Unmodified-Since', same])).status).toBe(200);
		expect((await get(['If-Unmodified-Since', later])).status).toBe(200);
		expectError(await get(['If-Unmodified-Since', before]), 412, 'PreconditionFailed');

		expect((await get(['If-Match', etag])).status).toBe(200);
		expect((await get(['If-Match', md5hex('conditional')])).status).toBe(200);
		expectError(await get(['If-Match', '"0000"']), 412, 'PreconditionFailed');

		expect((await get(['If-None-Match', '"0000"'])).status).toBe(200);
		r = await get(['If-None-Match', etag]);
		expect([r.status, r.body.length]).toEqual([304, 0]);

		// S3's documented combinations
		expect((await get(['If-Match', etag], ['If-Unmodified-Since', before])).status).toBe(200);
		expect((await get(['If-None-Match', etag], ['If-Modified-Since', before])).status).toBe(304);
	});

	test('overwrite replaces; DELETE of a missing key is 204', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'first');
		await putText(b, 'k', 'second version');
		expect((await vreq('GET', `/${b}/k`)).text).toBe('second version');
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		expectError(await vreq('GET', `/${b}/k`), 404, 'NoSuchKey');
	});
});

// ---- listing -----------------------------------------------------------------------------

describe('list objects', () => {
	test('prefix, delimiter, marker, max-keys, NextMarker (also without delimiter), CommonPrefixes', async () => {
		const b = await newBucket();
		const keys = [
			'a.txt',
			'photos/2025/x.jpg',
			'photos/2026/y.jpg',
			'photos/2026/z.jpg',
			'photos/top.jpg',
			'z.txt',
		];
		for (const k of [...keys].reverse()) await putText(b, k, k);
		const list = async (q) => (await vreq('GET', `/${b}?${q}`)).xml.ListBucketResult;

		let r = await list('delimiter=/');
		expect(r.Contents.map((c) => c.Key)).toEqual(['a.txt', 'z.txt']);
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['photos/']);
		expect([r.IsTruncated, r.MaxKeys, r.Delimiter, r.Prefix]).toEqual(['false', '1000', '/', '']);
		expect(r.Contents[0]).toMatchObject({
			StorageClass: 'STANDARD',
			Size: '5',
			Owner: { ID: 'vendor-test', DisplayName: 'vendor-test' },
		});
		expect(r.Contents[0].LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

		r = await list('prefix=photos/&delimiter=/');
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/top.jpg']);
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['photos/2025/', 'photos/2026/']);

		// paging without delimiter
		r = await list('max-keys=2');
		expect([r.IsTruncated, r.NextMarker, r.Contents.length]).toEqual([
			'true',
			'photos/2025/x.jpg',
			2,
		]);
		r = await list(`max-keys=2&marker=${encodeURIComponent(r.NextMarker)}`);
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/2026/y.jpg', 'photos/2026/z.jpg']);
		expect(r.Marker).toBe('photos/2025/x.jpg');
		r = await list(`max-keys=2&marker=${encodeURIComponent(r.NextMarker)}`);
		expect(r.Contents.map((c) => c.Key)).toEqual(['photos/top.jpg', 'z.txt']);
		expect(r.IsTruncated).toBe('false');
		expect(r.NextMarker).toBeUndefined();

		// paging with delimiter: a common prefix counts once and is never repeated
		const seen = [];
		let marker = '';
		for (let i = 0; i < 10; i++) {
			r = await list(
				`delimiter=/&max-keys=1&prefix=photos/${marker ? '&marker=' + encodeURIComponent(marker) : ''}`,
			);
			seen.push(
				...(r.Contents || []).map((c) => c.Key),
				...(r.CommonPrefixes || []).map((c) => c.Prefix),
			);
			if (r.IsTruncated !== 'true') break;
			marker = r.NextMarker;
		}
		expect(seen).toEqual(['photos/2025/', 'photos/2026/', 'photos/top.jpg']);

		expectError(await vreq('GET', `/${b}?max-keys=-1`), 400, 'InvalidArgument');
		r = await list('max-keys=0');
		expect([r.IsTruncated, r.Contents]).toEqual(['true', undefined]);
	});

	test('listing hooks write between the pages of a listing and say at which marker they did', async () => {
		const b = await newBucket();
		await control('POST', '/storage/objects', { bucket: b, objects: ['a', 'c', 'e', 'g'].map((key) => ({ key, body: key })) });
		const old = Date.parse('2020-01-02T03:04:05.678Z');
		await control('POST', '/storage/listing-hooks', {
			hooks: [
				// before the second request of the listing: one write behind the position, one ahead, one delete ahead
				{ bucket: b, request: 2, put: [{ key: 'b', body: 'behind' }, { key: 'f', body: 'ahead', lastModified: old }], delete: ['g'] },
				{ bucket: 'other-bucket', request: 1, put: [{ key: 'x' }] },
			],
		});
		const list = async (q) => (await vreq('GET', `/${b}?${q}`)).xml.ListBucketResult;
		const first = await list('max-keys=2');
		expect(first.Contents.map((c) => c.Key)).toEqual(['a', 'c']);
		const second = await list('max-keys=10&marker=c');
		expect(second.Contents.map((c) => c.Key)).toEqual(['e', 'f']);
		// a time given with a write is kept, to the second (as a service that stamps the start of a long upload)
		expect(second.Contents[1].LastModified).toBe('2020-01-02T03:04:05.000Z');
		const { hooks } = await control('GET', '/storage/listing-hooks');
		expect(hooks[0]).toMatchObject({ bucket: b, request: 2, seen: 2, fired: true, marker: 'c', put: ['b', 'f'], delete: ['g'] });
		expect(hooks[1]).toMatchObject({ fired: false, seen: 0 });
		expect((await list('')).Contents.map((c) => c.Key)).toEqual(['a', 'b', 'c', 'e', 'f']);
		// removing objects by control route, and clearing the hooks
		expect(await control('POST', '/storage/objects/delete', { bucket: b, keys: ['a', 'zz'] })).toEqual({ bucket: b, deleted: 1, count: 4 });
		expect(await control('POST', '/storage/listing-hooks', { hooks: [] })).toEqual({ hooks: 0 });
		const bad = await fetch(`${emu.url}/__emulator/storage/listing-hooks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ hooks: [{ bucket: b, request: 0 }] }) });
		expect(bad.status).toBe(400);
	});

	test('100,000 keys page by page, in order, and a delimiter listing of them as one group (times printed, not asserted)', async () => {
		const b = await newBucket();
		const n = 100000;
		const objects = [];
		for (let i = 0; i < n; i++)
			objects.push({ key: `k/${String((i * 7919) % n).padStart(6, '0')}` });
		await control('POST', '/storage/objects', { bucket: b, objects });
		let marker = '';
		let total = 0;
		let prev = '';
		let pages = 0;
		const t0 = Date.now();
		for (;;) {
			// 100 pages of 270 kB: read the few fields by pattern, a full XML parse would dominate the time
			const res = await vreq(
				'GET',
				`/${b}?max-keys=1000${marker ? '&marker=' + encodeURIComponent(marker) : ''}`,
				{ raw: true },
			);
			const field = (name) => (new RegExp(`<${name}>([^<]*)</${name}>`).exec(res.text) || [])[1];
			const r = { IsTruncated: field('IsTruncated'), NextMarker: field('NextMarker') };
			const page = [...res.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
			expect(page[0] > prev).toBe(true);
			prev = page[page.length - 1];
			total += page.length;
			pages++;
			if (r.IsTruncated !== 'true') break;
			marker = r.NextMarker;
		}
		const ms = Date.now() - t0;
		expect([total, pages, prev]).toEqual([n, 100, 'k/099999']);
		// a delimiter listing of one huge group is one entry
		const t1 = Date.now();
		const r = (await vreq('GET', `/${b}?delimiter=/`)).xml.ListBucketResult;
		expect(r.CommonPrefixes.map((c) => c.Prefix)).toEqual(['k/']);
		// speed is a figure to read, not a pass mark (a loaded machine is slower)
		console.log(`[emulator] 100,000 keys in 100 pages: ${ms} ms; one delimiter listing of them: ${Date.now() - t1} ms`);
	});
});

// ---- multipart ---------------------------------------------------------------------------

/** The multipart ETag computed here, independently: md5 of the binary part md5s, "-n". */
const multipartEtag = (parts) =>
	`"${md5hex(Buffer.concat(parts.map((p) => crypto.createHash('md5').update(p).digest())))}-${parts.length}"`;

function completeBody(parts) {
	return `<CompleteMultipartUpload xmlns="${NS}">${parts.map((p) => `<Part><PartNumber>${p.n}</PartNumber><ETag>${p.etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
}

describe('multipart upload', () => {
	for (const [label, U, P] of [
		['uploadId/partNumber', 'uploadId', 'partNumber'],
		['upload_id/part_number (underscore spelling)', 'upload_id', 'part_number'],
	]) {
		test(`full flow with ${label}`, async () => {
			const b = await newBucket();
			const key = 'big/file name+1.bin';
			const path = `/${b}/${encodeKey(key)}`;
			const init = await vreq('POST', `${path}?uploads`, {
				headers: [
					['Content-Type', 'application/x-test'],
					['x-vendor-meta-kind', 'multi'],
				],
			});
			expect(init.status).toBe(200);
			const r = init.xml.InitiateMultipartUploadResult;
			expect([r['@_xmlns'], r.Bucket, r.Key]).toEqual([NS, b, key]);
			const id = r.UploadId;
			const parts = [crypto.randomBytes(70000), crypto.randomBytes(1), crypto.randomBytes(33333)];
			const etags = [];
			for (let i = 0; i < parts.length; i++) {
				const res = await vreq('PUT', `${path}?${P}=${i + 1}&${U}=${encodeURIComponent(id)}`, {
					body: parts[i],
					headers: [['Content-MD5', md5b64(parts[i])]],
				});
				expect(res.status).toBe(200);
				expect(res.headers.etag).toBe(`"${md5hex(parts[i])}"`);
				etags.push(res.headers.etag);
			}
			// list parts, paged
			const lp = await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}&max-parts=2`);
			const l = lp.xml.ListPartsResult;
			expect([
				l.Bucket,
				l.Key,
				l.UploadId,
				l.IsTruncated,
				l.NextPartNumberMarker,
				l.MaxParts,
				l.StorageClass,
			]).toEqual([b, key, id, 'true', '2', '2', 'STANDARD']);
			expect(l.Initiator).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
			expect(l.Part.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([
				['1', etags[0], '70000'],
				['2', etags[1], '1'],
			]);
			const l2 = (await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}&part-number-marker=2`))
				.xml.ListPartsResult;
			expect([
				l2.IsTruncated,
				l2.NextPartNumberMarker,
				l2.PartNumberMarker,
				l2.Part.map((p) => p.PartNumber),
			]).toEqual(['false', undefined, '2', ['3']]);
			expect((await control('GET', '/storage/uploads')).uploads).toContainEqual(
				expect.objectContaining({ bucket: b, key, uploadId: id, parts: 3 }),
			);

			const done = await vreq('POST', `${path}?${U}=${encodeURIComponent(id)}`, {
				body: completeBody(etags.map((etag, i) => ({ n: i + 1, etag }))),
				headers: [['Content-Type', 'application/xml']],
			});
			expect(done.status).toBe(200);
			const c = done.xml.CompleteMultipartUploadResult;
			expect([c.Bucket, c.Key, c.ETag]).toEqual([b, key, multipartEtag(parts)]);
			expect(c.Location).toBe(`${emu.url}${path}`);
			const got = await vreq('GET', path);
			expect(got.body.equals(Buffer.concat(parts))).toBe(true);
			expect(got.headers).toMatchObject({
				'content-type': 'application/x-test',
				'x-vendor-meta-kind': 'multi',
				etag: multipartEtag(parts),
			});
			expect(
				(await control('GET', '/storage/uploads')).uploads.filter((u) => u.uploadId === id),
			).toEqual([]);
			expectError(await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}`), 404, 'NoSuchUpload');
		});
	}

	test('InvalidPart, InvalidPartOrder, MalformedXML, part number range; a subset of parts may be completed', async () => {
		const b = await newBucket();
		const path = `/${b}/mp`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		const q = `uploadId=${id}`;
		for (const bad of ['0', '10001', 'x', '-1', '1.5']) {
			expectError(
				await vreq('PUT', `${path}?partNumber=${bad}&${q}`, { body: 'x' }),
				400,
				'InvalidArgument',
			);
		}
		expectError(await vreq('PUT', `${path}?partNumber=1`, { body: 'x' }), 400, 'InvalidArgument');
		const e1 = (await vreq('PUT', `${path}?partNumber=1&${q}`, { body: 'one' })).headers.etag;
		const e2 = (await vreq('PUT', `${path}?partNumber=2&${q}`, { body: 'two' })).headers.etag;
		const e3 = (await vreq('PUT', `${path}?partNumber=10000&${q}`, { body: 'three' })).headers.etag;
		const complete = (parts) => vreq('POST', `${path}?${q}`, { body: completeBody(parts) });
		expectError(
			await complete([
				{ n: 2, etag: e2 },
				{ n: 1, etag: e1 },
			]),
			400,
			'InvalidPartOrder',
		);
		expectError(
			await complete([
				{ n: 1, etag: e1 },
				{ n: 1, etag: e1 },
			]),
			400,
			'InvalidPartOrder',
		);
		expectError(
			await complete([
				{ n: 1, etag: e1 },
				{ n: 2, etag: e1 },
			]),
			400,
			'InvalidPart',
		);
		expectError(
			await complete([
				{ n: 1, etag: e1 },
				{ n: 3, etag: e2 },
			]),
			400,
			'InvalidPart',
		);
		expectError(
			await vreq('POST', `${path}?${q}`, { body: '<CompleteMultipartUpload><Part>' }),
			400,
			'MalformedXML',
		);
		expectError(
			await vreq('POST', `${path}?${q}`, {
				body: '<CompleteMultipartUpload></CompleteMultipartUpload>',
			}),
			400,
			'MalformedXML',
		);
		// still in progress after all those failures; etags accepted without quotes too
		const ok = await complete([
			{ n: 1, etag: e1.replace(/"/g, '') },
			{ n: 10000, etag: e3 },
		]);
		expect(ok.status).toBe(200);
		expect((await vreq('GET', path)).text).toBe('onethree');
		expect(ok.xml.CompleteMultipartUploadResult.ETag).toBe(
			multipartEtag([Buffer.from('one'), Buffer.from('three')]),
		);
	});

	test('abort: 204, then NoSuchUpload everywhere; unknown ids are NoSuchUpload', async () => {
		const b = await newBucket();
		const path = `/${b}/ab`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		await vreq('PUT', `${path}?partNumber=1&uploadId=${id}`, { body: 'part' });
		const del = await vreq('DELETE', `${path}?upload_id=${id}`);
		expect(del.status).toBe(204);
		expectError(await vreq('DELETE', `${path}?uploadId=${id}`), 404, 'NoSuchUpload');
		expectError(
			await vreq('PUT', `${path}?partNumber=2&uploadId=${id}`, { body: 'x' }),
			404,
			'NoSuchUpload',
		);
		expectError(
			await vreq('POST', `${path}?uploadId=${id}`, { body: completeBody([{ n: 1, etag: '"x"' }]) }),
			404,
			'NoSuchUpload',
		);
		expectError(await vreq('GET', `${path}?uploadId=nope`), 404, 'NoSuchUpload');
		expectError(await vreq('GET', `/${b}/other-key?uploadId=${id}`), 404, 'NoSuchUpload');
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads).toEqual([]);
		expectError(await vreq('GET', path), 404, 'NoSuchKey');
	});
});

// ---- faults ------------------------------------------------------------------------------

describe('fault switch', () => {
	test('errorRate 1 on UploadPart: parts fail with 503 SlowDown / 500 InternalError, nothing stored, other operations work', async () => {
		const b = await newBucket();
		const path = `/${b}/faulty`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		emu.faults.set({ errorRate: 1, errorOps: ['UploadPart'] });
		const codes = new Set();
		for (let i = 1; i <= 12; i++) {
			const res = await vreq('PUT', `${path}?partNumber=${i}&uploadId=${id}`, {
				body: crypto.randomBytes(100000),
			});
			expect([500, 503]).toContain(res.status);
			expect(res.xml.Error.Code).toBe(res.status === 503 ? 'SlowDown' : 'InternalError');
			expect(res.xml.Error.RequestId).toBe(res.headers['x-trans-id']);
			codes.add(res.xml.Error.Code);
		}
		expect([...codes].sort()).toEqual(['InternalError', 'SlowDown']);
		// the same kept-alive connections still work: the bodies were drained
		await putText(b, 'still-works', 'yes');
		const lp = (await vreq('GET', `${path}?uploadId=${id}`)).xml.ListPartsResult;
		expect(lp.Part).toBeUndefined();
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads[0].parts).toBe(0);
		emu.faults.reset();
		expect((await vreq('DELETE', `${path}?uploadId=${id}`)).status).toBe(204);
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads).toEqual([]);
	});

	test('storageErrors: injected errors only of the codes asked for (a service that fails hard without SlowDown); a bad list is refused', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'v');
		await control('POST', '/faults', { errorRate: 1, errorOps: ['GetObject'], storageErrors: ['InternalError'] });
		for (let i = 0; i < 12; i++) expectError(await vreq('GET', `/${b}/k`), 500, 'InternalError');
		await control('POST', '/faults', { storageErrors: ['SlowDown'] });
		for (let i = 0; i < 4; i++) expectError(await vreq('GET', `/${b}/k`), 503, 'SlowDown');
		expect((await control('GET', '/faults')).storageErrors).toEqual(['SlowDown']);
		const bad = await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ storageErrors: ['Teapot'] }) });
		expect(bad.status).toBe(400);
		emu.faults.reset();
		expect(emu.faults.storageErrors).toEqual(['SlowDown', 'InternalError']);
		expect((await vreq('GET', `/${b}/k`)).status).toBe(200);
	});

	test('errorRate 1 on PutObject leaves no partial object', async () => {
		const b = await newBucket();
		emu.faults.set({ errorRate: 1, errorOps: ['PutObject'] });
		const res = await vreq('PUT', `/${b}/never`, { body: crypto.randomBytes(1 << 20) });
		expect([500, 503]).toContain(res.status);
		emu.faults.reset();
		expect((await control('GET', `/storage/objects?bucket=${b}`)).objects).toEqual([]);
	});
});

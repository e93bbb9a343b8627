'use strict';
/**
 * The pure V2 signer (dist/nodes/shared/storage/signer.js) in AWS mode: every published vector,
 * then a cross-check against aws-sdk v2's own S3 signer on generated requests.
 */
const crypto = require('node:crypto');
const path = require('node:path');
const AWS = require('aws-sdk');
const { ROOT } = require('../../support/n8n');
const { prng } = require('../../support/storage');

const signer = require(path.join(ROOT, 'dist/nodes/shared/storage/signer.js'));
const VECTORS = require('../../fixtures/spec/aws-v2-signing.json');

const AWS_PROFILE = { scheme: 'AWS', headerPrefix: 'x-amz-' };

/**
 * The path as signed: virtual-host requests carry the bucket in Host, so the canonical
 * resource starts with `/<bucket>` (the Host minus ".s3.amazonaws.com", or the whole CNAME).
 */
function signedPath(vector) {
	const host = (vector.headers.find(([k]) => k.toLowerCase() === 'host') || [])[1] || '';
	const name = host.replace(/:\d+$/, '');
	const [rawPath, query = ''] = vector.path.split('?');
	if (name === 's3.amazonaws.com') return { path: rawPath, query };
	const bucket = name.endsWith('.s3.amazonaws.com') ? name.slice(0, -'.s3.amazonaws.com'.length) : name;
	return { path: `/${bucket}${rawPath}`, query };
}

describe('published AWS signature version 2 vectors', () => {
	test.each(VECTORS.map((v) => [v.name, v]))('%s', (_name, v) => {
		if (v.docQuirk) {
			// As published, the example contradicts its own rule: only StringToSign -> signature holds.
			expect(signer.signString(v.secretAccessKey, v.stringToSign)).toBe(v.signature);
			return;
		}
		const { path: p, query } = signedPath(v);
		const req = { method: v.method, path: p, query, headers: v.headers };
		const toSign = signer.stringToSign(req, AWS_PROFILE, v.expires);
		expect(toSign).toBe(v.stringToSign);
		expect(signer.signString(v.secretAccessKey, toSign)).toBe(v.signature);
		if (v.expires === undefined) {
			expect(signer.authorization(v.accessKeyId, v.secretAccessKey, req, AWS_PROFILE)).toBe(`AWS ${v.accessKeyId}:${v.signature}`);
		} else {
			const [bucket, ...key] = p.slice(1).split('/');
			const url = new URL(
				signer.presignedUrl({
					endpoint: 'http://s3.amazonaws.com',
					method: v.method,
					bucket,
					key: key.join('/'),
					accessKey: v.accessKeyId,
					secret: v.secretAccessKey,
					expires: v.expires,
					profile: AWS_PROFILE,
					keyParam: 'AWSAccessKeyId',
				}),
			);
			const expected = new URL(v.url);
			for (const name of ['AWSAccessKeyId', 'Expires', 'Signature']) {
				expect(url.searchParams.get(name)).toBe(expected.searchParams.get(name));
			}
			expect(url.search).toContain('Signature=NpgCjnDzrM%2BWFzoENXmpNDUsSn8%3D');
		}
	});

	test('the vendor profile signs the same way with its own words', () => {
		const v = VECTORS.find((x) => x.name === 'upload-cname-x-amz-meta');
		const vendorHeaders = v.headers.map(([k, val]) => [k.replace(/^x-amz-/i, 'x-vendor-'), val]);
		const toSign = signer.stringToSign({ method: v.method, path: '/static.johnsmith.net/db-backup.dat.gz', headers: vendorHeaders }, signer.VENDOR_PROFILE);
		expect(toSign).toBe(v.stringToSign.replace(/x-amz-/g, 'x-vendor-'));
	});
});

/* ---------------- cross-check against aws-sdk v2 ---------------- */

const SUBS = ['acl', 'delete', 'logging', 'partNumber', 'uploadId', 'uploads', 'versioning', 'versions'];
const PLAIN_PARAMS = ['prefix', 'marker', 'max-keys', 'delimiter', 'list-type', 'foo', 'x-id', 'encoding-type'];
const KEY_PIECES = ['report', 'a b', 'ünïcødé', '日本語', '😀', 'x+y', 'k=v', 'a:b', '100%', 'what?', '#tag', '~home', "it's", '(1)', '[2]', 'a*b', '!', '$&@', ',;', 'MiXeD', 'dots.in.name', '-_'];
const TYPES = ['text/plain', 'text/plain; charset=utf-8', 'application/octet-stream', 'image/png', 'application/xml', 'multipart/form-data; boundary=x'];
const META = ['x-amz-meta-author', 'x-amz-meta-reviewed-by', 'x-amz-acl', 'x-amz-meta-a', 'x-amz-storage-class', 'x-amz-meta-zeta', 'x-amz-meta-checksum'];
const VALUE_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.:/=+@,;!*()';

function generate(rand, n) {
	const pick = (list) => list[Math.floor(rand() * list.length)];
	const int = (max) => Math.floor(rand() * max);
	const value = () => {
		let s = '';
		const len = 1 + int(24);
		for (let i = 0; i < len; i++) s += VALUE_CHARS[int(VALUE_CHARS.length)];
		return s.trim() || 'v';
	};
	const mixCase = (name) => [...name].map((c) => (rand() < 0.4 ? c.toUpperCase() : c)).join('');

	const method = pick(['GET', 'PUT', 'POST', 'DELETE', 'HEAD']);
	const bucket = `bucket-${int(1000)}`;
	const segments = [];
	for (let s = 0, count = int(4); s < count; s++) segments.push(Array.from({ length: 1 + int(3) }, () => pick(KEY_PIECES)).join(''));
	let p = signer.objectPath(bucket, segments.length ? segments.join('/') : undefined);
	// Escapes are signed exactly as sent: lower-case some of them.
	if (rand() < 0.2) p = p.replace(/%[0-9A-F]{2}/g, (e) => (rand() < 0.5 ? e.toLowerCase() : e));
	if (segments.length === 0 && rand() < 0.3) p += '/';

	const params = [];
	const names = new Set();
	for (let q = 0, count = int(5); q < count; q++) {
		const isSub = rand() < 0.6;
		const name = isSub ? pick(SUBS) : pick(PLAIN_PARAMS);
		if (names.has(name)) continue;
		names.add(name);
		if (name === 'uploads' || name === 'acl' || name === 'delete' || name === 'versioning' || name === 'versions' || name === 'logging') {
			params.push(rand() < 0.8 ? name : `${name}=`);
		} else if (name === 'partNumber') params.push(`partNumber=${1 + int(10000)}`);
		else if (name === 'uploadId') params.push(`uploadId=${signer.encodeSegment(Buffer.from(String(rand())).toString('base64'))}`);
		else params.push(`${name}=${signer.encodeSegment(pick(KEY_PIECES))}`);
	}
	const query = params.join('&');

	const headers = { Host: 'storage.example', 'User-Agent': 'cross-check', 'X-Amz-Date': new Date(Date.UTC(2026, 0, 1) + int(1e9) * 1000).toUTCString() };
	if (rand() < 0.5) headers['Content-Type'] = pick(TYPES);
	if (rand() < 0.5) headers['Content-MD5'] = crypto.createHash('md5').update(String(n)).digest('base64');
	const used = new Set();
	for (let h = 0, count = int(5); h < count; h++) {
		const name = pick(META);
		if (used.has(name)) continue;
		used.add(name);
		headers[mixCase(name)] = rand() < 0.3 ? [value(), value(), ...(rand() < 0.3 ? [value()] : [])] : value();
	}
	const presign = rand() < 0.25 ? 1700000000 + int(1e8) : undefined;
	if (presign !== undefined) delete headers['X-Amz-Date'];
	return { method, path: p, query, headers, presign };
}

test('aws-sdk v2 S3 signer agrees on generated requests', () => {
	const rand = prng(20261122);
	const credentials = { accessKeyId: 'AKIDCROSSCHECK', secretAccessKey: 'cross/check+secret=' };
	const mismatches = [];
	const COUNT = 2000;
	const seen = { repeated: 0, subResources: 0, presigned: 0, unicode: 0, contentMd5: 0 };
	for (let n = 0; n < COUNT; n++) {
		const g = generate(rand, n);
		const req = new AWS.HttpRequest(new AWS.Endpoint('http://storage.example'), 'us-east-1');
		req.method = g.method;
		req.path = g.query ? `${g.path}?${g.query}` : g.path;
		req.headers = { ...g.headers };
		if (g.presign !== undefined) req.headers['presigned-expires'] = String(g.presign);
		const sdk = new AWS.Signers.S3(req);
		const theirs = sdk.stringToSign();
		const theirSignature = sdk.sign(credentials.secretAccessKey, theirs);
		const ours = signer.stringToSign({ method: g.method, path: g.path, query: g.query, headers: g.headers }, AWS_PROFILE, g.presign);
		const ourSignature = signer.signString(credentials.secretAccessKey, ours);
		let authOk = true;
		if (g.presign === undefined) {
			const date = new Date(g.headers['X-Amz-Date']);
			const r2 = new AWS.HttpRequest(new AWS.Endpoint('http://storage.example'), 'us-east-1');
			r2.method = g.method;
			r2.path = req.path;
			r2.headers = { ...g.headers };
			new AWS.Signers.S3(r2).addAuthorization(credentials, date);
			const ourAuth = signer.authorization(credentials.accessKeyId, credentials.secretAccessKey, { method: g.method, path: g.path, query: g.query, headers: r2.headers }, AWS_PROFILE);
			authOk = r2.headers.Authorization === ourAuth;
		}
		if (Object.values(g.headers).some(Array.isArray)) seen.repeated++;
		if (/[?&](acl|delete|logging|partNumber|uploadId|uploads|versioning|versions)/.test(`?${g.query}`)) seen.subResources++;
		if (g.presign !== undefined) seen.presigned++;
		if (/%[Ee][0-9A-Fa-f]|%F0/.test(g.path)) seen.unicode++;
		if (g.headers['Content-MD5']) seen.contentMd5++;
		if (theirs !== ours || theirSignature !== ourSignature || !authOk) mismatches.push({ n, request: g, theirs, ours });
	}
	console.log(`aws-sdk v2 cross-check: ${COUNT} generated requests compared, ${mismatches.length} mismatches (${JSON.stringify(seen)})`);
	for (const n of Object.values(seen)) expect(n).toBeGreaterThan(100);
	expect(mismatches.slice(0, 3)).toEqual([]);
	expect(COUNT).toBeGreaterThanOrEqual(1000);
});

test('canonical pieces: repeats merged, folded values unfolded, only the listed sub-resources', () => {
	const headers = [
		['X-Vendor-Meta-B', 'two'],
		['x-vendor-meta-a', ' one  '],
		['X-VENDOR-META-B', 'three'],
		['x-vendor-meta-c', 'folded\r\n   value'],
		['Content-Length', '3'],
	];
	expect(signer.canonicalVendorHeaders(headers, signer.VENDOR_PROFILE)).toBe('x-vendor-meta-a:one\nx-vendor-meta-b:two,three\nx-vendor-meta-c:folded value\n');
	expect(signer.canonicalResource('/b/k', 'uploadId=x&partNumber=2&foo=1&uploads&tagging')).toBe('/b/k?partNumber=2&uploadId=x&uploads');
	expect(signer.objectPath('b', 'a b/ü+=:%?#~/c')).toBe('/b/a%20b/%C3%BC%2B%3D%3A%25%3F%23~/c');
});

test('signing readings the documents leave open (readings R13, R14): underscore names as sub-resources, values decoded (credential settings)', () => {
	const query = 'part_number=2&upload_id=a%2Bb%2Fc%3D';
	// default: the underscore names are not among the documented sub-resources (docs/vendor/object-storage.md#sub-resources), so nothing is signed
	expect(signer.canonicalResource('/b/k', query)).toBe('/b/k');
	expect(signer.canonicalResource('/b/k', query, { extraSubResources: ['part_number', 'upload_id'] })).toBe('/b/k?part_number=2&upload_id=a%2Bb%2Fc%3D');
	expect(signer.canonicalResource('/b/k', query, { extraSubResources: ['part_number', 'upload_id'], decodeSubResourceValues: true })).toBe('/b/k?part_number=2&upload_id=a+b/c=');
	// sorted with the listed ones by name (byte order: partNumber < part_number)
	expect(signer.canonicalResource('/b/k', 'uploadId=x%3D&partNumber=1&part_number=3', { extraSubResources: ['part_number'], decodeSubResourceValues: true })).toBe('/b/k?partNumber=1&part_number=3&uploadId=x=');
	// the profile carries them into StringToSign
	const profile = { ...signer.VENDOR_PROFILE, decodeSubResourceValues: true };
	expect(signer.stringToSign({ method: 'GET', path: '/b/k', query: 'uploadId=a%2Bb', headers: { 'x-vendor-date': 'd' } }, profile)).toBe('GET\n\n\n\nx-vendor-date:d\n/b/k?uploadId=a+b');
	// the credential's settings choose them (defaults unchanged)
	const { storageSettings } = require(path.join(ROOT, 'dist/nodes/shared/storage/auth.js'));
	expect(storageSettings({ endpoint: 'http://x' }).profile).toEqual({ scheme: 'VENDOR', headerPrefix: 'x-vendor-' });
	expect(storageSettings({ endpoint: 'http://x', advanced: true, multipartQueryNames: 'snake', signUnderscoreSubResources: true, subResourceValues: 'decoded' }).profile).toEqual({
		scheme: 'VENDOR',
		headerPrefix: 'x-vendor-',
		extraSubResources: ['part_number', 'upload_id'],
		decodeSubResourceValues: true,
	});
	// settings under a closed Advanced Protocol Settings do not apply
	expect(storageSettings({ endpoint: 'http://x', advanced: false, signUnderscoreSubResources: true, subResourceValues: 'decoded' }).profile).toEqual({ scheme: 'VENDOR', headerPrefix: 'x-vendor-' });
});

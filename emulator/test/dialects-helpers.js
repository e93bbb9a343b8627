'use strict';
/**
 * What the dialect tests (dialects.test.js, dialects.storage.test.js) share. Storage requests
 * are signed by the small V2 signer here, written from docs/vendor/object-storage.md#signing
 * (not the package's signer and not the emulator's verifier); it can sign sub-resource values
 * as sent or decoded and with or without upload_id/part_number, so each signing dialect is
 * shown to refuse the default signature and accept its own.
 *
 * Each test file calls useDemoEmulator(): its own emulator with the demo data, every dialect
 * off again and the clock back after each test; the helpers below speak to that emulator (jest
 * loads this module afresh for every test file).
 */
const crypto = require('node:crypto');
const { XMLParser } = require('fast-xml-parser');
const { createEmulator } = require('..');
const { client } = require('./helpers');

const USER = { accessKey: 'VENDORTESTKEY', secretKey: 'vendor-test-secret' };
const DOCUMENTED_SUBS = ['versioning', 'acl', 'logging', 'versions', 'uploads', 'partNumber', 'uploadId', 'delete'];
const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (n) => ['Contents', 'CommonPrefixes', 'Grant', 'Part'].includes(n) });

// ---- a V2 signer written from docs/vendor/object-storage.md#signing ---------------------------

/**
 * CanonicalizedResource of `pathAndQuery` as sent. `decoded`: sub-resource values decoded
 * instead of as sent; `underscore`: upload_id and part_number count as sub-resources.
 */
function canonicalResource(pathAndQuery, { decoded = false, underscore = false } = {}) {
	const [path, query = ''] = pathAndQuery.split('?');
	const names = underscore ? [...DOCUMENTED_SUBS, 'upload_id', 'part_number'] : DOCUMENTED_SUBS;
	const subs = query
		.split('&')
		.filter(Boolean)
		.map((pair) => {
			const i = pair.indexOf('=');
			if (i < 0) return { name: pair, text: pair };
			const value = pair.slice(i + 1);
			return { name: pair.slice(0, i), text: `${pair.slice(0, i)}=${decoded ? decodeURIComponent(value) : value}` };
		})
		.filter((s) => names.includes(s.name))
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return path + (subs.length ? '?' + subs.map((s) => s.text).join('&') : '');
}

function stringToSign(method, pathAndQuery, headers, dateSlot, how) {
	const vendor = Object.entries(headers)
		.map(([k, v]) => [k.toLowerCase(), String(v).trim()])
		.filter(([k]) => k.startsWith('x-vendor-'))
		.sort((a, b) => (a[0] < b[0] ? -1 : 1))
		.map(([k, v]) => `${k}:${v}\n`)
		.join('');
	return `${method}\n${headers['Content-MD5'] || ''}\n${headers['Content-Type'] || ''}\n${dateSlot}\n${vendor}${canonicalResource(pathAndQuery, how)}`;
}

const hmac = (sts) => crypto.createHmac('sha1', USER.secretKey).update(sts, 'utf8').digest('base64');

let emu;
const http = client(undefined);

/**
 * Starts the calling test file's emulator (demo data) before its tests and closes it after them;
 * after each test every dialect is off and the clock back. Returns a getter of that emulator.
 */
function useDemoEmulator() {
	beforeAll(async () => {
		emu = await createEmulator({ seed: 'demo' });
		http.emu = emu;
	});
	afterAll(async () => {
		if (emu) await emu.close();
	});
	afterEach(async () => {
		await dialects([]);
		emu.clock.advancedMs = 0;
	});
	return () => emu;
}

/** A signed storage request; `how` picks the signing reading. Resolves { status, headers, text, doc }. */
async function sreq(method, pathAndQuery, { headers = {}, body, how } = {}) {
	const h = { Date: new Date().toUTCString(), ...headers };
	h.Authorization = `VENDOR ${USER.accessKey}:${hmac(stringToSign(method, pathAndQuery, h, h.Date, how))}`;
	// a Buffer body, so fetch adds no Content-Type of its own
	const res = await fetch(emu.url + pathAndQuery, { method, headers: h, body: body === undefined ? undefined : Buffer.from(body) });
	const text = await res.text();
	const doc = /xml/.test(res.headers.get('content-type') || '') && text ? xml.parse(text) : undefined;
	return { status: res.status, headers: res.headers, text, doc };
}

/** A presigned URL for `pathAndQuery`, valid 5 minutes. */
function presign(method, pathAndQuery, how) {
	const expires = Math.floor(Date.now() / 1000) + 300;
	const sig = hmac(stringToSign(method, pathAndQuery, {}, String(expires), how));
	const sep = pathAndQuery.includes('?') ? '&' : '?';
	return `${emu.url}${pathAndQuery}${sep}VENDORAccessKeyId=${USER.accessKey}&Expires=${expires}&Signature=${encodeURIComponent(sig)}`;
}

const errorCode = (r) => r.doc && r.doc.Error && r.doc.Error.Code;

async function control(method, route, body) {
	const res = await fetch(`${emu.url}/__emulator${route}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: method === 'GET' ? undefined : JSON.stringify(body || {}),
	});
	return { status: res.status, json: await res.json() };
}

async function dialects(list) {
	const r = await control('POST', '/dialects', { set: list });
	expect(r.status).toBe(200);
	expect(r.json.enabled).toEqual(list);
}

// ---- management helpers ------------------------------------------------------------------

/** POST /API/<path>; the reply must be HTTP 200 (helpers.js's client does the request). */
function api(path, body = {}) {
	return http.post(`/API/${path}`, body);
}

async function login(username = 'demo', password = 'demo-password') {
	const r = await api('OAuth/authorize', { username, password });
	expect(String(r.code)).toBe('1');
	return r;
}

let seq = 0;
async function newBucket(acl) {
	const name = `dialect-bucket-${++seq}`;
	const r = await sreq('PUT', `/${name}`, { headers: acl ? { 'x-vendor-acl': acl } : {} });
	expect(r.status).toBe(200);
	return name;
}

async function put(bucket, key, text = key) {
	expect((await sreq('PUT', `/${bucket}/${key}`, { body: text })).status).toBe(200);
}

module.exports = { USER, hmac, stringToSign, useDemoEmulator, sreq, presign, errorCode, control, dialects, api, login, newBucket, put };

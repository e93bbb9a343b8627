'use strict';
/**
 * The framing dialects (framing.js; docs/vendor/readings.md R46, R29): what a JSON and an XML
 * answer look like on the wire by default and under each dialect, read over plain HTTP (no
 * client that decompresses or decodes for us). The document inside stays the same.
 */
const http = require('node:http');
const zlib = require('node:zlib');
const { createEmulator } = require('..');

let emu;
beforeAll(async () => {
	emu = await createEmulator({ seed: 'empty' });
	await emu.management.core.createAccount({ username: 'framed', password: 'framed-pass', balance: 1 });
});
afterAll(() => emu.close());

/** One exchange, the body's bytes as they came. */
function raw(path, { method = 'POST', body, acceptEncoding = 'gzip, deflate, br' } = {}) {
	return new Promise((resolve, reject) => {
		const headers = { 'content-type': 'application/json' };
		if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
		const req = http.request(`${emu.url}${path}`, { method, headers }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body === undefined ? undefined : JSON.stringify(body));
	});
}

const UNZIP = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };
/** A management answer: a group whose name is beyond ASCII, read back by groupList. */
const NAME = 'Crème — 東京';
async function jsonAnswer(opts) {
	const login = JSON.parse(decoded(await raw('/API/OAuth/authorize', { body: { username: 'framed', password: 'framed-pass' } })));
	return await raw('/API/profile/groupList', { body: { token: login.access_token, name: 'Crème' }, ...opts });
}
/** The text of an answer: decompressed, without a UTF-8 mark, in the charset its type or declaration names. */
function decoded({ headers, bytes }) {
	const plain = UNZIP[headers['content-encoding']]?.(bytes) ?? bytes;
	const latin1 = /charset=ISO-8859-1/i.test(headers['content-type'] ?? '') || /^\s*<\?xml[^>]*encoding="ISO-8859-1"/.test(plain.toString('latin1'));
	return plain.toString(latin1 ? 'latin1' : 'utf8').replace(/^\uFEFF/, '');
}
const xmlAnswer = (opts) => raw('/no-such-bucket-framing', { method: 'GET', ...opts }); // unsigned: an <Error> document

async function play(dialects) {
	await fetch(`${emu.url}/__emulator/dialects`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ set: dialects }) });
}

beforeAll(async () => {
	const login = JSON.parse((await raw('/API/OAuth/authorize', { body: { username: 'framed', password: 'framed-pass' } })).bytes.toString('utf8'));
	await raw('/API/profile/groupAdd', { body: { token: login.access_token, name: NAME } });
});
afterEach(() => play([]));

test('default: JSON in UTF-8 as application/json; charset=utf-8, XML in UTF-8 as application/xml, nothing around them, uncompressed', async () => {
	const json = await jsonAnswer();
	expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
	expect(json.headers['content-encoding']).toBeUndefined();
	expect(json.bytes.toString('utf8')).toMatch(/^\{"code":1,/);
	expect(JSON.parse(json.bytes.toString('utf8')).data.map((g) => g.name)).toEqual([NAME]);
	const xml = await xmlAnswer();
	expect(xml.headers['content-type']).toBe('application/xml');
	expect(xml.bytes.toString('utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error>/);
});

test('byteOrderMark: EF BB BF before every JSON and XML answer', async () => {
	await play(['byteOrderMark']);
	const json = await jsonAnswer();
	expect([...json.bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x7b]);
	expect(JSON.parse(decoded(json)).data.map((g) => g.name)).toEqual([NAME]);
	const xml = await xmlAnswer();
	expect(xml.bytes.subarray(0, 9).toString('latin1')).toBe('\xEF\xBB\xBF<?xml ');
});

test('charsetLatin1: JSON says ISO-8859-1 in its type, XML in its declaration; one byte per character up to U+00FF, escapes or references beyond', async () => {
	await play(['charsetLatin1']);
	const json = await jsonAnswer();
	expect(json.headers['content-type']).toBe('application/json; charset=ISO-8859-1');
	expect(json.bytes.includes(Buffer.from('Cr\xE8me \\u2014 \\u6771\\u4eac', 'latin1'))).toBe(true);
	expect(JSON.parse(decoded(json)).data.map((g) => g.name)).toEqual([NAME]);
	const xml = await xmlAnswer();
	expect(xml.headers['content-type']).toBe('application/xml');
	expect(xml.bytes.toString('latin1')).toMatch(/^<\?xml version="1.0" encoding="ISO-8859-1"\?>\n<Error>/);
});

test('jsonContentTypes: JSON under other types, the same type for an endpoint every time; XML unchanged', async () => {
	await play(['jsonContentTypes']);
	const types = new Set();
	for (const path of ['OAuth/authorize', 'profile/groupList', 'profile/detail', 'profile/balance', 'cdn/domainList', 'instance/list', 'dns/domainList', 'profile/logs']) {
		const first = await raw(`/API/${path}`, { body: {} });
		const again = await raw(`/API/${path}`, { body: {} });
		expect(again.headers['content-type']).toBe(first.headers['content-type']);
		types.add(first.headers['content-type'] ?? '(none)');
		expect(JSON.parse(first.bytes.toString('utf8')).code).toBeDefined();
	}
	expect(types.has('application/json; charset=utf-8')).toBe(false);
	expect(types.size).toBeGreaterThan(1);
	expect((await xmlAnswer()).headers['content-type']).toBe('application/xml');
});

test('whitespaceAround: JSON between line breaks and spaces, a line break before the XML declaration', async () => {
	await play(['whitespaceAround']);
	const json = await jsonAnswer();
	expect(json.bytes.toString('utf8')).toMatch(/^\r\n {2}\{"code":1,[\s\S]*\}\n\n$/);
	const xml = await xmlAnswer();
	expect(xml.bytes.toString('utf8')).toMatch(/^\n<\?xml /);
});

test('compressedAnswers: a coding the request accepts, with Content-Encoding and Vary; none when it accepts none', async () => {
	await play(['compressedAnswers']);
	const codings = new Set();
	for (const path of ['OAuth/authorize', 'profile/groupList', 'profile/detail', 'profile/balance', 'cdn/domainList', 'instance/list', 'dns/domainList', 'profile/logs']) {
		const answer = await raw(`/API/${path}`, { body: {} });
		codings.add(answer.headers['content-encoding']);
		expect(answer.headers.vary).toBe('Accept-Encoding');
		expect(JSON.parse(decoded(answer)).code).toBeDefined();
	}
	expect([...codings].sort()).toEqual(['br', 'deflate', 'gzip']);
	const gzipOnly = await jsonAnswer({ acceptEncoding: 'gzip;q=1, br;q=0' });
	expect(gzipOnly.headers['content-encoding']).toBe('gzip');
	expect(JSON.parse(decoded(gzipOnly)).data.map((g) => g.name)).toEqual([NAME]);
	const none = await jsonAnswer({ acceptEncoding: null });
	expect(none.headers['content-encoding']).toBeUndefined();
	const xml = await xmlAnswer();
	expect(xml.headers['content-encoding']).toBe('gzip');
	expect(decoded(xml)).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error>/);
});

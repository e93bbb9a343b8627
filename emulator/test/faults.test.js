'use strict';
/**
 * Fault rules (`POST /__emulator/faults {"inject": [...]}`) and request counters
 * (`/__emulator/stats`), driven over plain HTTP. Storage requests are hand-signed
 * (docs/vendor/object-storage.md#signing, VENDOR words) with node:http, so a cut body can be measured byte by byte.
 * For each kind: what the client sees, and whether the operation was performed (state read
 * through the emulator's control routes or a later request).
 */
const crypto = require('node:crypto');
const http = require('node:http');
const { createEmulator } = require('..');

const USER = { accessKey: 'VENDORTESTKEY', secretKey: 'vendor-test-secret' };
const SUBS = ['versioning', 'acl', 'logging', 'versions', 'uploads', 'partNumber', 'uploadId', 'delete'];

let emu;

// ---- storage: hand-signed requests over node:http -------------------------------------------

function sign(method, pathAndQuery, headers) {
	const [path, query = ''] = pathAndQuery.split('?');
	const subs = query
		.split('&')
		.filter((p) => SUBS.includes(p.split('=')[0]))
		.sort();
	const vendor = Object.keys(headers)
		.filter((k) => k.toLowerCase().startsWith('x-vendor-'))
		.sort()
		.map((k) => `${k.toLowerCase()}:${headers[k]}\n`)
		.join('');
	const sts = `${method}\n\n${headers['Content-Type'] || ''}\n${headers.Date}\n${vendor}${path}${subs.length ? '?' + subs.join('&') : ''}`;
	return crypto.createHmac('sha1', USER.secretKey).update(sts).digest('base64');
}

/**
 * A signed storage request. Resolves { status, headers, body, complete, error }: `complete`
 * false and `error` set when the connection ended before the body announced; rejects when no
 * answer came at all.
 */
function sreq(method, pathAndQuery, { body, headers = {}, signal } = {}) {
	const h = { Date: new Date().toUTCString(), ...headers };
	h.Authorization = `VENDOR ${USER.accessKey}:${sign(method, pathAndQuery, h)}`;
	const payload = body === undefined ? undefined : Buffer.from(body);
	if (payload) h['Content-Length'] = payload.length;
	const u = new URL(emu.url);
	return new Promise((resolve, reject) => {
		const req = http.request({ host: u.hostname, port: u.port, method, path: pathAndQuery, headers: h, agent: false, signal }, (res) => {
			const chunks = [];
			const done = (error) =>
				resolve({
					status: res.statusCode,
					headers: res.headers,
					body: Buffer.concat(chunks),
					text: Buffer.concat(chunks).toString('utf8'),
					complete: res.complete,
					error,
				});
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => done());
			res.on('aborted', () => done(new Error('aborted')));
			res.on('error', (e) => done(e));
		});
		req.on('error', reject);
		req.end(payload);
	});
}

// ---- management -----------------------------------------------------------------------------

const post = (path, body, init = {}) =>
	fetch(`${emu.url}/API/${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
		body: JSON.stringify(body),
		...init,
	});

let token;
async function api(path, body = {}) {
	const res = await post(path, { token, ...body });
	expect(res.status).toBe(200);
	return res.json();
}

async function control(method, route, body) {
	const res = await fetch(`${emu.url}/__emulator${route}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: method === 'GET' ? undefined : JSON.stringify(body || {}),
	});
	return { status: res.status, json: await res.json() };
}

async function inject(...rules) {
	const r = await control('POST', '/faults', { inject: rules });
	expect(r.status).toBe(200);
	return r.json;
}

const groupNames = async () => (await api('profile/groupList', { limit: 100 })).data.map((g) => g.name);
const objects = async (bucket) => (await control('GET', `/storage/objects?bucket=${bucket}`)).json.objects.map((o) => o.key);
const uploads = async (bucket) => (await control('GET', `/storage/uploads?bucket=${bucket}`)).json.uploads;

let seq = 0;
async function newBucket() {
	const name = `fault-bucket-${++seq}`;
	expect((await sreq('PUT', `/${name}`)).status).toBe(200);
	return name;
}

beforeAll(async () => {
	emu = await createEmulator({ seed: 'demo' });
	token = (await (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).json()).access_token;
});

afterAll(async () => {
	if (emu) await emu.close();
});

afterEach(async () => {
	await inject(); // {"inject": []} clears the rules
});

describe('rules: matching, times, rate, listing, clearing', () => {
	test('times fires on the next N matching requests; GET shows the rules with how often each fired; [] and reset clear them', async () => {
		const listed = await inject({ op: 'profile/balance', kind: 'envelope', times: 2, message: 'busy' });
		expect(listed.rules).toEqual([{ op: 'profile/balance', kind: 'envelope', times: 2, message: 'busy', fired: 0 }]);
		expect(listed.latencyMs).toBe(0); // the older switches are still shown
		expect((await api('profile/balance')).code).toBe(0);
		expect((await api('profile/detail')).code).toBe(1); // another path
		expect((await api('profile/balance')).code).toBe(0);
		expect((await api('profile/balance')).code).toBe(1); // spent
		expect((await control('GET', '/faults')).json.rules[0].fired).toBe(2);
		await inject({ op: '*', kind: 'envelope' });
		expect((await control('GET', '/faults')).json.rules).toHaveLength(2); // appended
		expect((await api('profile/detail')).code).toBe(0);
		await inject();
		expect((await control('GET', '/faults')).json.rules).toEqual([]);
		expect((await api('profile/detail')).code).toBe(1);
		await inject({ op: 'management', kind: 'envelope' });
		await control('POST', '/reset');
		expect((await control('GET', '/faults')).json.rules).toEqual([]);
		token = (await (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).json()).access_token;
	});

	test('a rule only hits the area its kind applies to: "*" slowDown leaves management alone, "*" tooFrequent leaves storage alone', async () => {
		const b = await newBucket();
		await inject({ op: '*', kind: 'slowDown' });
		expect((await api('profile/detail')).code).toBe(1);
		expect((await sreq('GET', `/${b}`)).status).toBe(503);
		await inject();
		await inject({ op: '*', kind: 'tooFrequent' }, { op: 'storage', kind: 'http', status: 502 });
		expect((await api('profile/detail')).message).toBe('Requests too frequent, please try again later');
		expect((await sreq('GET', `/${b}`)).status).toBe(502);
	});

	test('rate fires on that share of matching requests (seeded), so tooFrequent at 0.1 suits benchmarks', async () => {
		await control('POST', '/faults', { seed: 99 });
		await inject({ op: 'profile/balance', kind: 'tooFrequent', rate: 0.1 });
		let refused = 0;
		for (let i = 0; i < 200; i++) if ((await api('profile/balance')).code === 0) refused++;
		const { rules } = (await control('GET', '/faults')).json;
		expect(rules[0].fired).toBe(refused);
		expect(refused).toBeGreaterThan(5);
		expect(refused).toBeLessThan(45);
	});

	test('malformed rules are refused with HTTP 400 and nothing is added', async () => {
		for (const rule of [{ op: 'x', kind: 'explode' }, { kind: 'hang' }, { op: 'x', kind: 'http', rate: 2 }, { op: 'x', kind: 'http', times: -1 }]) {
			const r = await control('POST', '/faults', { inject: [rule] });
			expect(r.status).toBe(400);
			expect(r.json.error).toMatch(/^fault rule /);
		}
		expect((await control('GET', '/faults')).json.rules).toEqual([]);
	});
});

describe('kinds', () => {
	test('hang: the client gives up by its own timeout; the emulator serves other requests meanwhile', async () => {
		await inject({ op: 'profile/detail', kind: 'hang', times: 1 });
		const err = await post('profile/detail', { token }, { signal: AbortSignal.timeout(300) }).catch((e) => e);
		expect(err.name).toBe('TimeoutError');
		expect((await api('profile/balance')).code).toBe(1);
		expect((await api('profile/detail')).code).toBe(1);
		const b = await newBucket();
		await inject({ op: 'ListObjects', kind: 'hang' });
		const sErr = await sreq('GET', `/${b}`, { signal: AbortSignal.timeout(300) }).catch((e) => e);
		expect(sErr.name).toBe('AbortError');
		expect((await sreq('PUT', `/${b}/still`, { body: 'ok' })).status).toBe(200);
	});

	test('hang: emu.close() ends the held connections and does not wait for them', async () => {
		const other = await createEmulator({ faults: { inject: [{ op: '*', kind: 'hang' }] } });
		const held = fetch(`${other.url}/API/profile/detail`, { method: 'POST', body: '{}' }).catch((e) => e);
		await new Promise((r) => setTimeout(r, 100));
		expect((await fetch(`${other.url}/__emulator/stats`).then((r) => r.json())).management.requests['profile/detail']).toBe(1);
		await other.close();
		const outcome = await held;
		expect(outcome.message).toBe('fetch failed'); // the connection was closed without an answer
	});

	test('reset: the connection is dropped and the operation not performed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'reset', times: 1 });
		await expect(post('profile/groupAdd', { token, name: 'reset-group', note: '' })).rejects.toThrow();
		expect(await groupNames()).not.toContain('reset-group');
		const b = await newBucket();
		await inject({ op: 'PutObject', kind: 'reset', times: 1 });
		await expect(sreq('PUT', `/${b}/dropped`, { body: 'x' })).rejects.toThrow();
		expect(await objects(b)).toEqual([]);
	});

	test('http: the status with no JSON (management) or an S3 <Error> (storage); not performed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'http', status: 503, times: 1 });
		const res = await post('profile/groupAdd', { token, name: 'http-group', note: '' });
		expect(res.status).toBe(503);
		expect(res.headers.get('content-type')).toMatch(/text\/html/);
		await expect(res.clone().json()).rejects.toThrow();
		expect(await groupNames()).not.toContain('http-group');
		await inject({ op: 'cdn/refresh', kind: 'http', times: 1 });
		expect((await post('cdn/refresh', { token, type: 'file', urls: 'http://x.example/a' })).status).toBe(500);

		const b = await newBucket();
		await inject({ op: 'PutObject', kind: 'http', times: 1 });
		const put = await sreq('PUT', `/${b}/no`, { body: 'x' });
		expect(put.status).toBe(500);
		expect(put.text).toMatch(/<Error><Code>InternalError<\/Code><Message>[^<]+<\/Message><RequestId>[0-9a-f-]{36}<\/RequestId><\/Error>/);
		await inject({ op: 'PutObject', kind: 'http', status: 503, times: 1 }, { op: 'PutObject', kind: 'http', status: 409, code: 'OperationAborted', times: 1 });
		expect((await sreq('PUT', `/${b}/no`, { body: 'x' })).text).toContain('<Code>ServiceUnavailable</Code>');
		const custom = await sreq('PUT', `/${b}/no`, { body: 'x' });
		expect(custom.status).toBe(409);
		expect(custom.text).toContain('<Code>OperationAborted</Code>');
		expect(await objects(b)).toEqual([]);
	});

	test('html200: HTTP 200 with an HTML page; not performed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'html200', times: 1 });
		const res = await post('profile/groupAdd', { token, name: 'html-group', note: '' });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
		expect(await groupNames()).not.toContain('html-group');
		const b = await newBucket();
		await inject({ op: 'PutObject', kind: 'html200', times: 1 });
		const put = await sreq('PUT', `/${b}/html`, { body: 'x' });
		expect(put.status).toBe(200);
		expect(put.headers['content-type']).toMatch(/^text\/html/);
		expect(await objects(b)).toEqual([]);
	});

	test('truncatedJson: the write is applied, the answer is the real JSON cut in half', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'truncatedJson', times: 1 });
		const res = await post('profile/groupAdd', { token, name: 'half-group', note: 'n' });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		const text = await res.text();
		expect(() => JSON.parse(text)).toThrow();
		expect(text).toMatch(/^\{"code":1,"message":"success","data":\{/);
		expect(await groupNames()).toContain('half-group');
		// the full answer of the same kind is twice as long, give or take a byte
		const full = await (await post('profile/groupAdd', { token, name: 'full-group', note: 'n' })).text();
		expect(Math.abs(full.length - 2 * text.length)).toBeLessThanOrEqual(4);
	});

	test('envelope: code 0 with the message, no message when it is null, another code when given; not performed', async () => {
		await inject(
			{ op: 'profile/groupAdd', kind: 'envelope', message: 'system busy', times: 1 },
			{ op: 'profile/groupAdd', kind: 'envelope', message: null, times: 1 },
			{ op: 'profile/groupAdd', kind: 'envelope', code: 500, message: 'internal', times: 1 },
		);
		const body = { name: 'envelope-group', note: '' };
		expect(await api('profile/groupAdd', body)).toEqual({ code: 0, message: 'system busy' });
		expect(await api('profile/groupAdd', body)).toEqual({ code: 0 });
		expect(await api('profile/groupAdd', body)).toEqual({ code: 500, message: 'internal' });
		expect(await groupNames()).not.toContain('envelope-group');
	});

	test('tooFrequent: code 0 "Requests too frequent, please try again later"; not performed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'tooFrequent', times: 1 });
		expect(await api('profile/groupAdd', { name: 'busy-group', note: '' })).toEqual({ code: 0, message: 'Requests too frequent, please try again later' });
		expect(await groupNames()).not.toContain('busy-group');
	});

	test('slowDown: 503 <Error><Code>SlowDown</Code>; not performed', async () => {
		const b = await newBucket();
		await inject({ op: 'PutObject', kind: 'slowDown', times: 1 });
		const put = await sreq('PUT', `/${b}/slow`, { body: 'x' });
		expect(put.status).toBe(503);
		expect(put.text).toContain('<Code>SlowDown</Code>');
		expect(await objects(b)).toEqual([]);
		expect((await sreq('PUT', `/${b}/slow`, { body: 'x' })).status).toBe(200);
	});

	test('resetMidBody: GetObject announces the whole length, sends afterBytes bytes, then the connection ends', async () => {
		const b = await newBucket();
		const data = crypto.randomBytes(200000);
		expect((await sreq('PUT', `/${b}/big.bin`, { body: data })).status).toBe(200);
		await inject({ op: 'GetObject', kind: 'resetMidBody', afterBytes: 1000, times: 1 });
		const cut = await sreq('GET', `/${b}/big.bin`);
		expect(cut.status).toBe(200);
		expect(cut.headers['content-length']).toBe('200000');
		expect(cut.complete).toBe(false);
		expect(cut.body.length).toBe(1000);
		expect(cut.body.equals(data.subarray(0, 1000))).toBe(true);
		// default afterBytes 65536, and a range: counted from the range start
		await inject({ op: 'GetObject', kind: 'resetMidBody', times: 1 });
		const ranged = await sreq('GET', `/${b}/big.bin`, { headers: { Range: 'bytes=100-199999' } });
		expect(ranged.status).toBe(206);
		expect(ranged.body.length).toBe(65536);
		expect(ranged.body.equals(data.subarray(100, 100 + 65536))).toBe(true);
		expect(ranged.complete).toBe(false);
		// the next read is whole
		const whole = await sreq('GET', `/${b}/big.bin`);
		expect(whole.complete).toBe(true);
		expect(whole.body.equals(data)).toBe(true);
		// XML reads are cut too, never whole; writes are not hit
		await inject({ op: 'storage', kind: 'resetMidBody', afterBytes: 1000000 });
		expect((await sreq('PUT', `/${b}/small`, { body: 'x' })).status).toBe(200);
		const list = await sreq('GET', `/${b}`);
		expect(Number(list.headers['content-length'])).toBe(list.body.length + 1);
		expect(list.complete).toBe(false);
	});

	test('afterCreate500: Initiate creates the upload, a management write is applied, then HTTP 500', async () => {
		const b = await newBucket();
		await inject({ op: 'InitiateMultipartUpload', kind: 'afterCreate500', times: 1 });
		const init = await sreq('POST', `/${b}/mp?uploads`);
		expect(init.status).toBe(500);
		expect(init.text).toContain('<Code>InternalError</Code>');
		expect((await uploads(b)).map((u) => u.key)).toEqual(['mp']);
		await inject({ op: 'PutObject', kind: 'afterCreate500', times: 1 });
		expect((await sreq('PUT', `/${b}/written`, { body: 'x' })).status).toBe(500);
		expect(await objects(b)).toEqual(['written']);

		await inject({ op: 'profile/groupAdd', kind: 'afterCreate500', times: 1 });
		const res = await post('profile/groupAdd', { token, name: 'late-group', note: '' });
		expect(res.status).toBe(500);
		expect(await groupNames()).toContain('late-group');
	});

	test('otherLogin: the answer as usual, then the account logs in once more; under loginInvalidates that ends the token just used or given', async () => {
		const logins = async () => (await control('GET', '/stats')).json.management.loginsByUser.demo || 0;
		try {
			await control('POST', '/dialects', { set: ['loginInvalidates'] });
			// after a read: the read is answered with the token, which the other log-in then ends
			await inject({ op: 'profile/detail', kind: 'otherLogin', times: 1 });
			const before = await logins();
			expect((await api('profile/detail')).code).toBe(1);
			expect(await logins()).toBe(before + 1);
			const [rule] = (await control('GET', '/faults')).json.rules;
			expect(rule).toMatchObject({ kind: 'otherLogin', fired: 1, tokens: [expect.stringMatching(/^[0-9a-f]{48}$/)] });
			expect((await api('profile/detail')).code).toBe(-1);
			// the other client's token works
			expect((await (await post('profile/detail', { token: rule.tokens[0] })).json()).code).toBe(1);
			// after a log-in: the token it gave is ended before the client can use it
			await inject();
			await inject({ op: 'OAuth/authorize', kind: 'otherLogin', times: 1 });
			token = (await (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).json()).access_token;
			expect((await api('profile/detail')).code).toBe(-1);
			const [again] = (await control('GET', '/faults')).json.rules;
			expect((await (await post('profile/detail', { token: again.tokens[0] })).json()).code).toBe(1);
		} finally {
			await control('POST', '/dialects', { set: [] });
			token = (await (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).json()).access_token;
		}
	});
});

describe('kinds of a service that misbehaves on size, time or shape (management)', () => {
	/** Reads an answer over node:http: { status, headers, bytes, text, firstByteMs, doneMs }. */
	const raw = (path, body, { keep = 200, abortAfter } = {}) =>
		new Promise((resolve, reject) => {
			const u = new URL(emu.url);
			const started = Date.now();
			const payload = Buffer.from(JSON.stringify({ token, ...body }));
			const req = http.request({ host: u.hostname, port: u.port, method: 'POST', path: `/API/${path}`, headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length }, agent: false }, (res) => {
				let bytes = 0;
				let firstByteMs;
				const kept = [];
				res.on('data', (c) => {
					firstByteMs ??= Date.now() - started;
					if (bytes < keep) kept.push(c.subarray(0, keep - bytes));
					bytes += c.length;
					if (abortAfter !== undefined && bytes >= abortAfter) res.destroy();
				});
				const done = () => resolve({ status: res.statusCode, headers: res.headers, bytes, text: Buffer.concat(kept).toString('utf8'), firstByteMs, doneMs: Date.now() - started });
				res.on('end', done);
				res.on('close', done);
			});
			req.on('error', reject);
			req.end(payload);
		});

	test('bigAnswer: a valid envelope of exactly `bytes` bytes; endless: never ends (the client stops it); not performed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'bigAnswer', bytes: 3 * 1048576 + 7, times: 1 });
		const r = await raw('profile/groupAdd', { name: 'big-group' }, { keep: 1e9 });
		expect(r.status).toBe(200);
		expect(Number(r.headers['content-length'])).toBe(3 * 1048576 + 7);
		expect(r.bytes).toBe(3 * 1048576 + 7);
		expect(JSON.parse(r.text)).toMatchObject({ code: 1, message: 'success', data: [] });
		expect(await groupNames()).not.toContain('big-group');
		await inject({ op: 'profile/groupList', kind: 'bigAnswer', endless: true, times: 1 });
		const endless = await raw('profile/groupList', {}, { abortAfter: 20 * 1048576 });
		expect(endless.headers['content-length']).toBeUndefined();
		expect(endless.bytes).toBeGreaterThanOrEqual(20 * 1048576);
		expect(endless.text).toMatch(/^\{"code":1,"message":"success","data":\[\],"pad":"xxx/);
	});

	test('drip: the headers at once, then one byte every intervalMs of a valid envelope', async () => {
		await inject({ op: 'profile/balance', kind: 'drip', intervalMs: 5, times: 1 });
		const r = await raw('profile/balance', {});
		expect(r.status).toBe(200);
		expect(JSON.parse(r.text)).toEqual({ code: 1, message: 'success', data: [] });
		expect(r.doneMs).toBeGreaterThanOrEqual(5 * (r.bytes - 1));
	});

	test('deepJson: data nested `depth` arrays deep', async () => {
		await inject({ op: 'profile/balance', kind: 'deepJson', depth: 1000, times: 1 });
		const r = await raw('profile/balance', {}, { keep: 1e6 });
		expect(r.text).toBe(`{"code":1,"message":"success","data":${'['.repeat(1000)}${']'.repeat(1000)}}`);
	});

	test('emptyList: an empty page once, then the list again', async () => {
		await api('profile/groupAdd', { name: 'still-here', note: '' });
		await inject({ op: 'profile/groupList', kind: 'emptyList', times: 1 });
		expect(await api('profile/groupList', { page: 1, limit: 10 })).toMatchObject({ code: 1, data: [], total: '0', totalpage: '1', page: '1', limit: '10' });
		expect(await groupNames()).toContain('still-here');
	});

	test('envelopeFields: fields of the answer set or dropped; the operation is performed', async () => {
		await inject({ op: 'profile/groupList', kind: 'envelopeFields', drop: ['totalpage'], set: { total: '250' }, times: 1 });
		const r = await api('profile/groupList', { page: 1, limit: 10 });
		expect(r.code).toBe(1);
		expect(r.totalpage).toBeUndefined();
		expect(r.total).toBe('250');
		expect(r.data.length).toBeGreaterThan(0);
	});

	test('listShift: pages from 2 on are answered as if rows were added (duplicates) or removed (gaps) at the head after page 1', async () => {
		for (let i = 0; i < 12; i++) await api('profile/groupAdd', { name: `shift-${String(i).padStart(2, '0')}`, note: '' });
		const page = async (n) => (await api('profile/groupList', { name: 'shift-', page: n, limit: 5 })).data.map((g) => g.name);
		const whole = [...(await page(1)), ...(await page(2)), ...(await page(3))];
		expect(whole).toHaveLength(12);
		await inject({ op: 'profile/groupList', kind: 'listShift', by: 2 });
		expect(await page(1)).toEqual(whole.slice(0, 5)); // page 1 is never shifted
		expect(await page(2)).toEqual(whole.slice(3, 8)); // two rows of page 1 again
		const added = await api('profile/groupList', { name: 'shift-', page: 3, limit: 5 });
		expect(added.data.map((g) => g.name)).toEqual(whole.slice(8, 12));
		expect(added).toMatchObject({ total: '14', totalpage: '3' });
		await inject();
		await inject({ op: 'profile/groupList', kind: 'listShift', by: -2 });
		expect(await page(2)).toEqual(whole.slice(7, 12)); // rows 5 and 6 are skipped
		expect((await api('profile/groupList', { name: 'shift-', page: 2, limit: 5 })).total).toBe('10');
	});

	test('malformed rules of these kinds are refused', async () => {
		for (const rule of [
			{ op: 'x', kind: 'bigAnswer', bytes: -1 },
			{ op: 'x', kind: 'listShift', by: 1.5 },
			{ op: 'x', kind: 'envelopeFields', set: [1] },
			{ op: 'x', kind: 'envelopeFields', drop: 'totalpage' },
		]) {
			expect((await control('POST', '/faults', { inject: [rule] })).status).toBe(400);
		}
	});
});

describe('counters', () => {
	test('per-path management requests, log-ins (refused too) and log-ins per user, per-operation storage requests; fault answers count; reset zeroes', async () => {
		expect((await control('POST', '/stats/reset')).json).toEqual({
			management: { logins: 0, loginsByUser: {}, requests: {}, tokenRefusals: 0 },
			storage: { requests: {} },
			inFlight: { now: 0, max: 0 },
		});
		await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
		await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
		await post('OAuth/authorize', { username: 'demo_ops', password: 'ops-password' });
		await post('OAuth/authorize', { username: 'demo', password: 'wrong' });
		await api('profile/detail');
		await api('profile/detail');
		await inject({ op: 'profile/balance', kind: 'tooFrequent', times: 1 });
		await api('profile/balance');
		await fetch(`${emu.url}/API/no/such`, { method: 'POST', body: '{}' });
		const b = await newBucket();
		await sreq('PUT', `/${b}/k`, { body: 'x' });
		await sreq('GET', `/${b}/k`);
		await sreq('HEAD', `/${b}/k`);
		await sreq('GET', `/${b}`);
		await inject({ op: 'GetObject', kind: 'slowDown', times: 1 });
		await sreq('GET', `/${b}/k`);
		const { json } = await control('GET', '/stats');
		expect(json).toEqual({
			management: {
				logins: 4,
				loginsByUser: { demo: 2, demo_ops: 1 },
				requests: { 'OAuth/authorize': 4, 'profile/detail': 2, 'profile/balance': 1, 'no/such': 1 },
				tokenRefusals: 0,
			},
			storage: { requests: { CreateBucket: 1, PutObject: 1, GetObject: 3, ListObjects: 1 } },
			// one after another: never two at once
			inFlight: { now: 0, max: 1 },
		});
		// the control routes are not counted, and reset zeroes
		expect((await control('GET', '/stats')).json).toEqual(json);
		await control('POST', '/stats/reset');
		expect((await control('GET', '/stats')).json.management).toEqual({ logins: 0, loginsByUser: {}, requests: {}, tokenRefusals: 0 });
	});

	test('inFlight counts the requests the service holds at once, from arrival to the end of the answer', async () => {
		const b = await newBucket();
		await control('POST', '/stats/reset');
		await inject({ op: 'PutObject', kind: 'hang', times: 3 });
		const abort = new AbortController();
		const held = [1, 2, 3].map((n) => sreq('PUT', `/${b}/k${n}`, { body: 'x', signal: abort.signal }).catch(() => 'aborted'));
		const inFlight = async () => (await control('GET', '/stats')).json.inFlight;
		const until = async (check) => {
			for (let i = 0; i < 400 && !check(await inFlight()); i++) await new Promise((r) => setTimeout(r, 25));
			return inFlight();
		};
		expect(await until((f) => f.now === 3)).toEqual({ now: 3, max: 3 });
		abort.abort();
		expect(await Promise.all(held)).toEqual(['aborted', 'aborted', 'aborted']);
		expect(await until((f) => f.now === 0)).toEqual({ now: 0, max: 3 });
	});
});

'use strict';
/**
 * What the management tests of the emulator share: an emulator per test file and a client
 * that speaks to it over HTTP the way the package's nodes do.
 *
 *   const c = useEmulator({ seed: 'demo' }, { group: 'dns', login: DEMO });
 *   c.emu                          the emulator (after beforeAll)
 *   c.post(path, body)             any JSON POST; the reply must be HTTP 200
 *   c.api(op, body, token)         POST /API/<group/>op with the token (c.token unless given)
 *   c.ok(op, body, token)          api, throwing unless code is 1
 *   c.fail(op, body, pattern, token)  api, which must answer code 0 with a message matching pattern
 *   c.login(username, password)    the access token of OAuth/authorize (undefined when refused)
 *   c.authorize(username, password)   login, which must succeed; the token becomes c.token
 *   c.control(route, body)         POST /__emulator/management<route>
 *   c.state(slice)                 GET /__emulator/management/state?slice=<slice>
 *
 * The methods do not use `this`, so they can be taken apart: `const { ok, fail } = c`.
 */
const { createEmulator } = require('..');

const DEMO = ['demo', 'demo-password'];

/** A client of `emu` (or of `c.emu` set later); `group` prefixes the operations of api/ok/fail. */
function client(emu, { group } = {}) {
	const c = {
		emu,
		token: undefined,
		async post(path, body) {
			const res = await fetch(`${c.emu.url}${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
				body: JSON.stringify(body),
			});
			expect(res.status).toBe(200);
			return res.json();
		},
		api(op, body = {}, token = c.token) {
			return c.post(`/API/${group ? `${group}/` : ''}${op}`, token ? { token, ...body } : body);
		},
		async ok(op, body, token) {
			const r = await c.api(op, body, token);
			if (r.code !== 1) throw new Error(`${group ? `${group}/` : ''}${op} failed: ${r.message}`);
			return r;
		},
		async fail(op, body, pattern, token) {
			const r = await c.api(op, body, token);
			if (r.code !== 0) throw new Error(`${op} ${JSON.stringify(body)} should have failed, got ${JSON.stringify(r).slice(0, 300)}`);
			if (pattern) expect(r.message).toMatch(pattern);
			return r;
		},
		async login(username, password) {
			return (await c.post('/API/OAuth/authorize', { username, password })).access_token;
		},
		async authorize(username, password) {
			const auth = await c.post('/API/OAuth/authorize', { username, password });
			expect(auth.code).toBe(1);
			c.token = auth.access_token;
			return c.token;
		},
		control(route, body = {}) {
			return c.post(`/__emulator/management${route}`, body);
		},
		async state(slice) {
			return (await fetch(`${c.emu.url}/__emulator/management/state?slice=${slice}`)).json();
		},
	};
	return c;
}

/**
 * Starts an emulator with `options` before the tests of the file and closes it after them. The
 * client is returned at once; with `login` ([username, password]) it is authorized first.
 */
function useEmulator(options, { group, login } = {}) {
	const c = client(undefined, { group });
	beforeAll(async () => {
		c.emu = await createEmulator(options);
		if (login) await c.authorize(...login);
	});
	afterAll(async () => {
		if (c.emu) await c.emu.close();
	});
	return c;
}

/** The balance of the demo account, read from the emulator's state. */
function demoBalance(emu) {
	const core = emu.management.core;
	return Number(core.balanceOf(core.accountByName('demo').uid).price);
}

module.exports = { DEMO, client, useEmulator, demoBalance };

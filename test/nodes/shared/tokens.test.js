'use strict';
/**
 * Tokens of the management interface (nodes/shared/api/tokens.ts, auth.ts readExpires): a
 * refused token recognised whatever its code and words (docs/vendor/readings.md#r30, #r44), at
 * most one log-in and one repeat per call, no repeat of a refusal that is not about the token,
 * and `expires` used to renew a token before it runs out, read as a lifetime or as a time
 * (#r32, #r45), a value that makes no sense ignored. Against the emulator's dialects
 * tokenRefusedOtherCode, tokenRefusedChinese and expiresTimestamp, its `loginExpires` switch and
 * its counters (log-ins, token refusals, requests per path).
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
const BALANCE = { resource: 'balance', operation: 'get', simplify: false };
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [], latencyMs: 0, tokenLifetimeS: 7200, loginExpires: null });
	await v.control('POST', '/dialects', { set: [] });
});

const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const stats = async () => (await v.control('GET', '/stats')).management;
/** What the emulator counted while `fn` ran: log-ins, refused tokens, requests to `path`. */
async function counted(path, fn) {
	const before = await stats();
	const result = await fn();
	const after = await stats();
	return {
		result,
		logins: after.logins - before.logins,
		refusals: after.tokenRefusals - before.tokenRefusals,
		requests: (after.requests[path] ?? 0) - (before.requests[path] ?? 0),
	};
}
/** A credential of its own (a fresh token state in this process), logged in once by a first run. */
async function loggedIn() {
	const ref = v.store.add('vendorApi', { apiUrl: v.url, username: 'demo', password: 'demo-password' });
	const credentials = { vendorApi: ref };
	await v.ok(NODE, BALANCE, { credentials });
	return credentials;
}

describe('a refused token, whatever its code and words (readings R30, R44)', () => {
	test.each([
		['code -1 (the default reading)', []],
		['code 0 and "access token expired, please log in again" (tokenRefusedOtherCode)', ['tokenRefusedOtherCode']],
		['code 401 and "登录已失效，请重新登录" (tokenRefusedChinese)', ['tokenRefusedChinese']],
	])('%s: one log-in, the request repeated once, success', async (_name, dialects) => {
		await v.control('POST', '/dialects', { set: dialects });
		const credentials = await loggedIn();
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(c.result.error).toBeUndefined();
		expect(c.result.items[0].json.price).toBeDefined();
		expect({ logins: c.logins, refusals: c.refusals, requests: c.requests }).toEqual({ logins: 1, refusals: 1, requests: 2 });
	});

	test('16 concurrent items after a revocation answered in Chinese: one log-in for all of them', async () => {
		await v.control('POST', '/dialects', { set: ['tokenRefusedChinese'] });
		const credentials = await loggedIn();
		await v.control('POST', '/faults', { latencyMs: 20 });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const c = await counted('profile/balance', () =>
			v.run(NODE, { ...BALANCE, options: { concurrency: 16 } }, { credentials, input: Array.from({ length: 16 }, () => ({})) }),
		);
		expect(c.result.error).toBeUndefined();
		expect(c.result.items).toHaveLength(16);
		expect(c.logins).toBe(1);
	});

	test.each([
		['code -1', -1, 'token is invalid'],
		['code 40001 in Chinese', 40001, '令牌已过期'],
	])("a token the service always refuses (%s) costs one log-in and one repeat per call, then the service's words", async (_name, code, message) => {
		const credentials = await loggedIn();
		await inject({ op: 'profile/balance', kind: 'envelope', code, message });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(c.result.error.message).toBe(`The service refused the token for "Get the balance" even after logging in again: ${message}`);
		expect(c.result.error.description).toContain(`Service request: API/profile/balance, service code ${code}.`);
		expect({ logins: c.logins, requests: c.requests }).toEqual({ logins: 1, requests: 2 });
		// the next call knows both tokens were refused: one log-in, one request
		const next = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(next.result.error.message).toMatch(/even after logging in again/);
		expect({ logins: next.logins, requests: next.requests }).toEqual({ logins: 1, requests: 1 });
	});

	test.each([
		['a refusal in English', 0, 'insufficient balance, please recharge first'],
		['a refusal in Chinese', 0, '余额不足，请先充值'],
		['a permission refusal', 2, 'permission denied: this sub-account has no permission for API/profile/balance'],
		['a wrong old password', 0, 'old password is incorrect'],
		['a refusal naming the anti-hotlink token key', 0, 'accesskey_signature: the token key must be 6-32 letters or digits'],
	])('%s that is not about the token is never repeated and logs nobody in', async (_name, code, message) => {
		const credentials = await loggedIn();
		await inject({ op: 'profile/balance', kind: 'envelope', code, message });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		// the service's words, its path said as what the user asked for (issue 36)
		expect(c.result.error.message).toContain(message.replace('API/profile/balance', '"Get the balance"'));
		expect({ logins: c.logins, requests: c.requests }).toEqual({ logins: 0, requests: 1 });
	});
});

describe('expires: the token renewed before it runs out (readings R32, R45)', () => {
	const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

	test.each([
		['a lifetime in seconds (the default reading)', []],
		['a Unix time (expiresTimestamp)', ['expiresTimestamp']],
	])('%s: once it is nearly over the node logs in first, and the service refuses nothing', async (_name, dialects) => {
		await v.control('POST', '/dialects', { set: dialects });
		await v.control('POST', '/faults', { tokenLifetimeS: 6 });
		const credentials = await loggedIn();
		// still well inside its life: no log-in
		const early = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect({ logins: early.logins, refusals: early.refusals }).toEqual({ logins: 0, refusals: 0 });
		await sleep(5200);
		const late = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(late.result.error).toBeUndefined();
		expect({ logins: late.logins, refusals: late.refusals, requests: late.requests }).toEqual({ logins: 1, refusals: 0, requests: 1 });
	}, 30000);

	test('16 concurrent items when the token is due: one log-in for all of them', async () => {
		await v.control('POST', '/faults', { tokenLifetimeS: 6 });
		const credentials = await loggedIn();
		await sleep(5200);
		await v.control('POST', '/faults', { latencyMs: 20 });
		const c = await counted('profile/balance', () =>
			v.run(NODE, { ...BALANCE, options: { concurrency: 16 } }, { credentials, input: Array.from({ length: 16 }, () => ({})) }),
		);
		expect(c.result.error).toBeUndefined();
		expect({ logins: c.logins, refusals: c.refusals }).toEqual({ logins: 1, refusals: 0 });
	}, 30000);

	test.each([[-5], [0], ['soon'], [1], [1000000000], [999999999999999]])('expires %p makes no sense: ignored, no log-in per call, a refusal still renews', async (value) => {
		await v.control('POST', '/faults', { loginExpires: value });
		const credentials = await loggedIn();
		const again = await counted('profile/balance', async () => {
			for (let i = 0; i < 3; i++) await v.ok(NODE, BALANCE, { credentials });
		});
		expect(again.logins).toBe(0);
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const renewed = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(renewed.result.error).toBeUndefined();
		expect(renewed.logins).toBe(1);
	});
});

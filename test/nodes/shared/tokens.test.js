'use strict';
/**
 * Tokens of the management interface (nodes/shared/api/tokens.ts, renew.ts, auth.ts readExpires):
 * a refused token recognised whatever its code and words (docs/vendor/readings.md#r30, #r44), one
 * log-in and one repeat after a refusal, no repeat of a refusal that is not about the token;
 * other clients of the same account that log in too (#r33, the emulator's otherLogin fault
 * under loginInvalidates): a call succeeds while someone else's log-in ends its token, fails
 * naming the account when the service refuses every new token, and gives up within its time
 * limit when the tokens keep being ended; and `expires` used to renew a token before it runs
 * out, read as a lifetime or as a time (#r32, #r45), a value that makes no sense ignored.
 * Against the emulator's dialects tokenRefusedOtherCode, tokenRefusedChinese, loginInvalidates
 * and expiresTimestamp, its fault rules and `loginExpires` switch, and its counters (log-ins,
 * token refusals, requests per path).
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
		['code -2 and "token timeout"', -2, 'token timeout'],
		['code -2 and "Token has timed out"', -2, 'Token has timed out'],
		['code 0 and "access token time out, please log in"', 0, 'access token time out, please log in'],
		['code 0 and "session timed out"', 0, 'session timed out'],
		['code 3 and "令牌超时"', 3, '令牌超时'],
	])('%s: read as a refused token (readings R44), one log-in, the request repeated once, success', async (_name, code, message) => {
		const credentials = await loggedIn();
		await inject({ op: 'profile/balance', kind: 'envelope', code, message, times: 1 });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(c.result.error).toBeUndefined();
		expect(c.result.items[0].json.price).toBeDefined();
		expect({ logins: c.logins, requests: c.requests }).toEqual({ logins: 1, requests: 2 });
	});

	test.each([
		['a timeout that is not about the token', -2, 'request timeout, please try again later'],
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

describe('other clients of the same account log in too (readings R33, issue 39)', () => {
	const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
	const rules = async () => (await v.control('GET', '/faults')).rules;

	beforeEach(() => v.control('POST', '/dialects', { set: ['loginInvalidates'] }));

	test("another worker logs in right after the node's log-in and stores its token 2 s later: the call still succeeds", async () => {
		const credentials = await loggedIn();
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		// the other worker: logs in right after the node (which ends the node's new token) ...
		await inject({ op: 'OAuth/authorize', kind: 'otherLogin', times: 1 });
		const entry = v.store.data.get(credentials.vendorApi.id);
		const worker = (async () => {
			let tokens;
			while (!(tokens = (await rules())[0].tokens)) await sleep(20);
			// ... and its token reaches the credential 2 s later (a worker slow to write to the database)
			await sleep(2000);
			const [prefix, fingerprint] = entry.data.accessToken.split(':');
			entry.data = { ...entry.data, accessToken: `${prefix}:${fingerprint}::${tokens[0]}` };
		})();
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		await worker;
		expect(c.result.error).toBeUndefined();
		expect(c.result.items[0].json.price).toBeDefined();
		// (the counter counts OAuth/authorize requests: the node's, not the other worker's) the
		// node logs in again, or takes the other worker's token if it came by the end of its pause
		expect(c.logins).toBeGreaterThanOrEqual(1);
		expect(c.logins).toBeLessThanOrEqual(2);
	}, 30000);

	test('every new token refused at once although the log-in is accepted: two log-ins, then the account is named as the cause', async () => {
		const credentials = await loggedIn();
		await inject({ op: 'profile/balance', kind: 'envelope', code: -1, message: 'token is invalid' }, { op: 'profile/detail', kind: 'envelope', code: -1, message: 'token is invalid' });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(c.result.error.message).toBe('The service refused the token for "Get the balance" even after logging in again: token is invalid');
		expect(c.result.error.description).toMatch(/^The log-ins were accepted, but the service refused each new token at once, 2 times/);
		expect({ logins: c.logins, requests: c.requests }).toEqual({ logins: 2, requests: 3 });
	}, 30000);

	test('another client ends every token right after its first answer: the call gives up within its time limit and says why', async () => {
		// Timeout 1 s: a read ends within 3 s
		const ref = v.store.add('vendorApi', { apiUrl: v.url, username: 'demo', password: 'demo-password', timeout: 1 });
		const credentials = { vendorApi: ref };
		await v.ok(NODE, BALANCE, { credentials });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		// the log-in's own read (profile/detail) is answered, then another client logs in
		await inject({ op: 'profile/detail', kind: 'otherLogin' });
		const c = await counted('profile/balance', () => v.run(NODE, BALANCE, { credentials }));
		expect(c.result.error.message).toMatch(/^The service kept refusing the tokens for "Get the balance" for [\d.]+ s \(\d+ refused, \d+ log-ins? by this call\): token is invalid or has expired, please authorize again$/);
		expect(c.result.error.description).toMatch(/keep logging in with the same account/);
		expect(c.logins).toBeGreaterThanOrEqual(1);
	}, 30000);
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

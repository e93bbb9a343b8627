'use strict';
/**
 * The management transport under faults (issue 14), tokens under concurrency (issues 11, 12)
 * and the concurrent item loop (issue 12), against the emulator's fault rules and counters.
 * Timing is never asserted as a figure: a bounded request is shown by the test ending with the
 * timeout error and by the number of requests the emulator counted.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [], latencyMs: 0 });
	await v.control('POST', '/dialects', { set: [] });
});

/** Credentials with a 1 s timeout: a read ends within 3 s, a write within 2 s. */
const quick = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', timeout: 1 } });
const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const stats = () => v.control('GET', '/stats');
const requestsTo = async (path) => (await stats()).management.requests[path] ?? 0;
const logins = async () => (await stats()).management.logins;

describe('every request bounded in time, the timeout told as such', () => {
	test('a hanging read is retried within its total time, then reported as a timeout of that endpoint', async () => {
		await inject({ op: 'profile/balance', kind: 'hang' });
		const before = await requestsTo('profile/balance');
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		const sent = (await requestsTo('profile/balance')) - before;
		// what the user asked for, not the service's path (issue 36); the path in the description
		expect(error.message).toMatch(/^The API did not answer "Get the balance" in time: \d attempts? over [\d.]+ s, each given at most 1 s$/);
		expect(error.description).toMatch(/Nothing was changed.*Service request: API\/profile\/balance\./);
		expect(sent).toBeGreaterThanOrEqual(2);
		expect(sent).toBeLessThanOrEqual(4);
	});

	test('a hanging write is sent once and says the change may or may not have been made', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'hang' });
		const before = await requestsTo('profile/groupAdd');
		const error = await v.fails(NODE, { resource: 'group', operation: 'create', name: 'hang-once' }, { credentials: quick() });
		expect((await requestsTo('profile/groupAdd')) - before).toBe(1);
		expect(error.message).toBe('The API did not answer "Create a group" within 2 s; the change may or may not have been made, check before repeating it');
	});
});

describe("the node's own message, never n8n's generic text", () => {
	test('a write whose connection drops: the endpoint, and not "retry immediately"', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'reset' });
		const error = await v.fails(NODE, { resource: 'group', operation: 'create', name: 'reset-once' });
		expect(error.message).toMatch(/^The connection failed while "Create a group" was under way \(ECONNRESET\); the change may or may not have been made/);
		expect(error.message).not.toMatch(/closed unexpectedly|retry the request immediately/);
	});

	test('a read whose connection drops is retried and succeeds', async () => {
		await inject({ op: 'profile/balance', kind: 'reset', times: 2 });
		const [balance] = await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(balance.price).toBeDefined();
	});

	test('an HTML page with 200: a read is retried, then says what came back', async () => {
		await inject({ op: 'profile/balance', kind: 'html200' });
		const before = await requestsTo('profile/balance');
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect((await requestsTo('profile/balance')) - before).toBe(4);
		expect(error.message).toBe('The service failed to answer "Get the balance": an HTML page ("Maintenance") where JSON was expected (HTTP 200) after 4 attempts');
	});

	test('a write answered with broken JSON says the change may have been made (and it was)', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'truncatedJson' });
		const before = await requestsTo('profile/groupAdd');
		const error = await v.fails(NODE, { resource: 'group', operation: 'create', name: 'made-but-broken' });
		expect((await requestsTo('profile/groupAdd')) - before).toBe(1);
		expect(error.message).toBe('The service answered "Create a group" with broken JSON (HTTP 200); the change may or may not have been made, check before repeating it');
		const groups = await v.api('profile/groupList', { name: 'made-but-broken' });
		expect(groups.data.map((g) => g.name)).toEqual(['made-but-broken']);
	});

	test('a failure envelope: the service message first, the endpoint and its code in the description; HTTP status and service code kept apart', async () => {
		await inject({ op: 'profile/balance', kind: 'envelope', code: 2, message: 'account frozen', times: 1 });
		let error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(error.message).toBe('account frozen');
		expect(error.description).toBe('The service refused profile/balance with code 2. Nothing was changed. Check the values sent.');
		expect(error.httpCode).toBeNull();
		expect(error.context.serviceCode).toBe('2');
		await inject({ op: 'profile/balance', kind: 'envelope', code: 0, message: null, times: 1 });
		error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(error.message).toBe('The service refused "Get the balance" without a message');
	});

	test('Continue On Fail items carry the message and the description', async () => {
		await inject({ op: 'profile/balance', kind: 'envelope', code: 3, message: 'no', times: 1 });
		const { items, error } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false }, { input: [{}, {}], continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ error: 'no', description: expect.stringMatching(/profile\/balance with code 3/) });
		expect(items[1].json.price).toBeDefined();
		expect(items.map((i) => i.pairedItem.item)).toEqual([0, 1]);
	});
});

describe('log-in failures: only a refusal blames the password', () => {
	const fresh = (extra = {}) => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', ...extra } });

	test('a server fault at log-in is retried like a read, and the log-in then succeeds', async () => {
		await inject({ op: 'OAuth/authorize', kind: 'http', status: 500, times: 2 });
		const before = await logins();
		const [balance] = await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: fresh() });
		expect(balance.price).toBeDefined();
		expect((await logins()) - before).toBe(3);
	});

	test.each([
		['an HTML page', { kind: 'html200' }, /an HTML page instead of JSON/],
		['broken JSON', { kind: 'truncatedJson' }, /a body that is not JSON instead of JSON/],
		['a reset', { kind: 'reset' }, /the connection failed \(ECONNRESET\)/],
		['HTTP 502', { kind: 'http', status: 502 }, /HTTP 502/],
	])('a log-in answered with %s says the service failed, not the password', async (_name, rule, what) => {
		await inject({ op: 'OAuth/authorize', ...rule });
		const before = await logins();
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: fresh() });
		expect((await logins()) - before).toBe(4);
		expect(error.message).toMatch(/^The log-in service failed \(/);
		expect(error.message).toMatch(what);
		expect(error.message).toMatch(/the credentials were not checked/);
		expect(`${error.message} ${error.description}`).not.toMatch(/correct the username|check the username/i);
	});

	test('a refused log-in names the credential fields, the same for Log In and any other operation', async () => {
		const wrong = fresh({ password: 'Wrong-Secret-9' });
		const other = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: wrong });
		const logIn = await v.fails(NODE, { resource: 'account', operation: 'logIn' }, { credentials: wrong });
		for (const error of [other, logIn]) {
			// the credential as the user named it (the test's is "vendorApi test"), and its type as n8n's credential list shows it
			expect(error.message).toBe('Log-in as "demo" was refused: username or password is incorrect. Check the username, password and password encoding in the credential "vendorApi test" (type Vendor API).');
			expect(error.description).toMatch(/Open the credential "vendorApi test" \(type Vendor API\)/);
			expect(JSON.stringify(error)).not.toContain('Wrong-Secret-9');
		}
	});
});

describe('tokens under concurrency', () => {
	test('16 concurrent items after the token was revoked: one log-in, every item succeeds', async () => {
		await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false });
		await v.control('POST', '/faults', { latencyMs: 30 });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const before = await logins();
		const { items, error } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false, options: { concurrency: 16 } }, { input: Array.from({ length: 16 }, () => ({})) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(16);
		expect(items.every((i) => i.json.price !== undefined)).toBe(true);
		expect((await logins()) - before).toBe(1);
	});

	test('where every log-in invalidates the earlier tokens: still every item succeeds, and log-ins stay few', async () => {
		await v.control('POST', '/dialects', { set: ['loginInvalidates'] });
		await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false });
		await v.control('POST', '/faults', { latencyMs: 20 });
		await v.control('POST', '/management/tokens/revoke', { username: 'demo' });
		const before = await logins();
		const { items, error } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false, options: { concurrency: 16 } }, { input: Array.from({ length: 32 }, () => ({})) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(32);
		expect((await logins()) - before).toBe(1);
	});

	test('a credential edited to a wrong password does not ride on the earlier log-in', async () => {
		const ref = v.store.add('vendorApi', { apiUrl: v.url, username: 'demo', password: 'demo-password' });
		const credentials = { vendorApi: ref };
		await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials });
		// the token stored by that log-in is still valid at the service
		v.store.data.get(ref.id).data.password = 'Edited-Wrong-1';
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials });
		expect(error.message).toMatch(/^Log-in as "demo" was refused/);
		v.store.data.get(ref.id).data.password = 'demo-password';
		await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials });
	});
});

describe('concurrent items (Concurrent Requests)', () => {
	test('output keeps the input order and pairing at any concurrency', async () => {
		await v.control('POST', '/faults', { latencyMs: 15 });
		const names = Array.from({ length: 12 }, (_, i) => `order-${String(i).padStart(2, '0')}`);
		const { items, error } = await v.run(NODE, { resource: 'group', operation: 'create', name: '={{ $json.name }}', options: { concurrency: 5 } }, { input: names.map((name) => ({ name })) });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.name)).toEqual(names);
		expect(items.map((i) => i.pairedItem.item)).toEqual(names.map((_, i) => i));
	});

	test("Continue On Fail: error items in the failed items' places, the rest carry on", async () => {
		await v.control('POST', '/faults', { latencyMs: 10 });
		const ids = [];
		for (let i = 0; i < 4; i++) ids.push(Number((await v.api('profile/groupAdd', { name: `cof-${i}` })).data.id));
		// real groups and missing ones, interleaved
		const wanted = [ids[0], 99991, 99992, ids[1], ids[2], 99993, ids[3], 99994];
		const { items, error } = await v.run(
			NODE,
			{ resource: 'group', operation: 'delete', id: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, options: { concurrency: 3 } },
			{ input: wanted.map((id) => ({ id })), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem.item)).toEqual(wanted.map((_, i) => i));
		expect(items.map((i) => i.json.error === undefined)).toEqual(wanted.map((id) => ids.includes(id)));
		for (const i of items.filter((x) => x.json.error)) expect(i.json.description).toBeTruthy();
		const left = ((await v.api('profile/groupList', { name: 'cof-', page: 1, limit: 100 })).data || []).map((g) => g.name);
		expect(left).toEqual([]);
	});

	test('without Continue On Fail the first failure starts no further item and names its item', async () => {
		await v.control('POST', '/faults', { latencyMs: 30 });
		const names = Array.from({ length: 10 }, (_, i) => (i === 3 ? '' : `stop-${i}`));
		const { error } = await v.run(NODE, { resource: 'group', operation: 'create', name: '={{ $json.name }}', options: { concurrency: 2 } }, { input: names.map((name) => ({ name })) });
		expect(error.message).toBe('The "Name" field is required');
		expect(error.context.itemIndex).toBe(3);
		const made = ((await v.api('profile/groupList', { name: 'stop-', page: 1, limit: 100 })).data || []).map((g) => g.name).sort();
		// items 0-2 were started before item 3 failed, at most one more was already under way
		expect(made.slice(0, 3)).toEqual(['stop-0', 'stop-1', 'stop-2']);
		expect(made.length).toBeLessThanOrEqual(4);
		expect(made.filter((n) => Number(n.split('-')[1]) > 4)).toEqual([]);
	});

	test('"too frequent" answers slow the run down and every item still succeeds', async () => {
		await inject({ op: 'profile/balance', kind: 'tooFrequent', rate: 0.3 });
		const { items, error } = await v.run(NODE, { resource: 'balance', operation: 'get', simplify: false, options: { concurrency: 8 } }, { input: Array.from({ length: 20 }, () => ({})) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(20);
		const faults = await v.control('GET', '/faults');
		expect(faults.rules[0].fired).toBeGreaterThan(0);
	});

	test('operations whose order matters run one after another and say so', async () => {
		const { n8n } = require('../../support/vendor');
		const node = n8n.loadPackage().nodes['n8n-nodes-vendor-cloud.vendorAccountBilling'];
		const options = node.description.properties.filter((p) => p.name === 'options' && p.displayOptions.show.operation.includes('updatePassword'));
		const serial = options.find((p) => p.displayOptions.show.resource.includes('account'));
		expect(serial.options[0].description).toMatch(/^Ignored here: /);
	});
});

'use strict';
/**
 * Issue 24 for the management interface, through the n8n-core harness over HTTP against the
 * emulator and its fault rules (emulator/faults.js): nothing lost (paging that stops early,
 * doubles or skips), nothing unbounded (answer size, total deadline, JSON nesting), input taken
 * as meant or refused naming the field, secrets never shown, bounded retries of writes, and an
 * envelope read strictly. Timing is never asserted as a figure: a bounded request shows as the
 * error it ends with and the number of requests the emulator counted.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	for (let i = 0; i < 250; i++) await v.api('profile/groupAdd', { name: `page-${String(i).padStart(3, '0')}` });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [], latencyMs: 0 });
});

/** Credentials with a 1 s timeout: a read ends within 3 s, a write within 2 s. */
const quick = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', timeout: 1 } });
const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const requestsTo = async (path) => (await v.control('GET', '/stats')).management.requests[path] ?? 0;
const groups = (extra = {}) => ({ resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'page-' }, ...extra });
const unique = (rows) => new Set(rows.map((r) => String(r.id))).size;
/** The body of the last request the emulator logged for `path`. */
const lastBody = async (path) => (await v.control('GET', '/requests')).requests.filter((r) => r.path === path).pop()?.body;

describe('lists: every row once, whatever way the service says the end', () => {
	test('a list that states `total` but no `totalpage` is read to its end (not 100 of 250)', async () => {
		await inject({ op: 'profile/groupList', kind: 'envelopeFields', drop: ['totalpage'] });
		const rows = await v.ok(NODE, groups());
		expect(rows).toHaveLength(250);
		expect(unique(rows)).toBe(250);
	});

	test('a list that states neither ends at its first short page', async () => {
		await inject({ op: 'profile/groupList', kind: 'envelopeFields', drop: ['totalpage', 'total'] });
		const rows = await v.ok(NODE, groups());
		expect(unique(rows)).toBe(250);
	});

	test('`totalpage: 2000` beside `total: 250` costs the 3 pages `total` implies, not 2000 requests', async () => {
		await inject({ op: 'profile/groupList', kind: 'envelopeFields', set: { totalpage: '2000' } });
		const before = await requestsTo('profile/groupList');
		const rows = await v.ok(NODE, groups());
		expect(unique(rows)).toBe(250);
		expect((await requestsTo('profile/groupList')) - before).toBe(3);
	});

	test('rows removed between two pages (a gap) are found by reading the list again; nothing flagged when the second read is steady', async () => {
		// pages 2 and 3 of the first read only: rows 100 and 101 would be skipped
		await inject({ op: 'profile/groupList', kind: 'listShift', by: -2, times: 2 });
		const rows = await v.ok(NODE, groups());
		expect(rows).toHaveLength(250);
		expect(unique(rows)).toBe(250);
		expect(rows.some((r) => r.listChangedWhileRead)).toBe(false);
	});

	test('rows added between pages on every read: no row twice, and the items say the list changed while it was read', async () => {
		await inject({ op: 'profile/groupList', kind: 'listShift', by: 2 });
		const rows = await v.ok(NODE, groups());
		expect(rows).toHaveLength(unique(rows));
		expect(unique(rows)).toBe(250);
		expect(rows.every((r) => r.listChangedWhileRead === true)).toBe(true);
	});

	test('Limit still reads page after page up to the limit, each row once', async () => {
		const rows = await v.ok(NODE, groups({ returnAll: false, limit: 130 }));
		expect(rows).toHaveLength(130);
		expect(unique(rows)).toBe(130);
	});
});

describe('answers bounded in size, time and depth', () => {
	test('an answer over 16 MiB is not read: a clear error naming the request and the size, not repeated', async () => {
		await inject({ op: 'profile/balance', kind: 'bigAnswer', bytes: 40 * 1048576 });
		const before = await requestsTo('profile/balance');
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(error.message).toBe('The service answered "Get the balance" with an answer larger than 16.0 MiB (40.0 MiB announced); it was not read further');
		expect((await requestsTo('profile/balance')) - before).toBe(1);
	});

	test('an endless answer (no length announced) is cut at 16 MiB', async () => {
		await inject({ op: 'profile/balance', kind: 'bigAnswer', endless: true });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(error.message).toMatch(/^The service answered "Get the balance" with an answer larger than 16\.0 MiB \(more than 16\.0 MiB sent\); it was not read further$/);
	});

	test('an answer that drips one byte at a time ends at the total deadline (3 × Timeout for a read), as a timeout', async () => {
		await inject({ op: 'profile/balance', kind: 'drip', intervalMs: 400 });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect(error.message).toMatch(/^The API did not answer "Get the balance" in time: \d attempts? over [\d.]+ s, each given at most 1 s$/);
	});

	test('an answer nested 100,000 deep is refused with a clear error, not parsed', async () => {
		await inject({ op: 'profile/balance', kind: 'deepJson', depth: 100000 });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(error.message).toMatch(/^The service answered "Get the balance" with an answer nested more than 64 levels deep/);
	});
});

describe('secrets never shown', () => {
	test('a failure message that echoes the password is shown with the password hidden', async () => {
		await inject({ op: 'profile/balance', kind: 'envelope', code: 0, message: 'password demo-password is incorrect', times: 4 });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false });
		expect(`${error.message} ${error.description} ${JSON.stringify(error.context ?? {})}`).not.toContain('demo-password');
		expect(error.message).toContain('password (hidden) is incorrect');
	});

	test('a log-in refusal that echoes the password (URL-encoded too) hides it', async () => {
		const password = 'Echoed Pass/456';
		const creds = { vendorApi: { apiUrl: v.url, username: 'demo', password } };
		await inject({ op: 'OAuth/authorize', kind: 'envelope', code: 0, message: `password ${password} (${encodeURIComponent(password)}) is incorrect` });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: creds });
		const shown = `${error.message} ${error.description}`;
		expect(shown).not.toContain(password);
		expect(shown).not.toContain(encodeURIComponent(password));
		expect(shown).toContain('password (hidden) ((hidden)) is incorrect');
	});

	test('object storage: a service message that echoes the access secret is hidden in the error and in a Continue On Fail error item', async () => {
		const storage = 'vendorObjectStorage';
		const rl = (value) => ({ __rl: true, mode: 'name', value });
		await v.ok(storage, { resource: 'bucket', operation: 'create', bucketName: 'redact-bucket' });
		await inject({ op: 'ListObjects', kind: 'http', status: 403, code: 'AccessDenied', message: 'signature made with vendor-test-secret does not match' });
		const parameters = { resource: 'bucket', operation: 'listObjects', bucket: rl('redact-bucket'), returnAll: true };
		const error = await v.fails(storage, parameters);
		expect(`${error.message} ${error.description} ${JSON.stringify(error.context ?? {})} ${JSON.stringify(error.cause ?? {})}`).not.toContain('vendor-test-secret');
		expect(error.message).toBe('The access key may not do this (List Objects redact-bucket)');
		expect(error.description).toContain('Service answer: AccessDenied, "signature made with (hidden) does not match"');
		const { items } = await v.run(storage, parameters, { continueOnFail: true });
		expect(JSON.stringify(items.map((i) => i.json))).not.toContain('vendor-test-secret');
		expect(items[0].json).toMatchObject({ error: 'The access key may not do this (List Objects redact-bucket)', description: expect.stringContaining('signature made with (hidden) does not match') });
	});

	test('a record that carries the password comes out with it hidden', async () => {
		await v.api('profile/groupAdd', { name: 'holds demo-password here' });
		const rows = await v.ok(NODE, { resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'holds ' } });
		expect(rows.map((r) => r.name)).toEqual(['holds (hidden) here']);
	});
});

describe('retries and envelopes read strictly', () => {
	test('a write answered 429 is repeated only within its own limit (2 × Timeout), then fails saying nothing was changed', async () => {
		await inject({ op: 'profile/groupAdd', kind: 'http', status: 429 });
		const before = await requestsTo('profile/groupAdd');
		const error = await v.fails(NODE, { resource: 'group', operation: 'create', name: 'busy-write' }, { credentials: quick() });
		expect(error.message).toMatch(/^The service limited the rate of requests \(HTTP 429 Too Many Requests\) and still refused "Create a group" after [\d.]+ s of waiting and repeating/);
		const sent = (await requestsTo('profile/groupAdd')) - before;
		expect(sent).toBeGreaterThanOrEqual(1);
		expect(sent).toBeLessThanOrEqual(4);
	}, 30000);

	test('an envelope with `code: true` is not success', async () => {
		await inject({ op: 'profile/balance', kind: 'envelope', code: true, message: 'ok' });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect(error.message).toMatch(/code true.*is not a number|an answer whose code true is not a number/);
	});

	test('a log-in answered success without a token says so, not "refused: success"', async () => {
		await inject({ op: 'OAuth/authorize', kind: 'envelope', code: 1, message: 'success' });
		const creds = { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } };
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: creds });
		expect(error.message).toBe('The log-in as "demo" was accepted (code 1, "success") but the answer carried no access token, so nothing can be called with it');
		expect(error.message).not.toMatch(/refused/);
	});
});

describe('input taken as meant, or refused naming the field', () => {
	test.each([
		['TRUE', 1],
		['yes', 1],
		['on', 1],
		['Off', 0],
		['no', 0],
	])('Set Alarm with {{ "%s" }} sends alarm %s', async (word, sent) => {
		await v.ok(NODE, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: `={{ "${word}" }}`, alarmValue: 50 } });
		expect((await lastBody('profile/balanceAlarm')).alarm).toBe(sent);
	});

	test('Set Alarm with {{ "maybe" }} is refused naming the field, nothing sent', async () => {
		const before = await requestsTo('profile/balanceAlarm');
		const error = await v.fails(NODE, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: '={{ "maybe" }}' } });
		expect(error.message).toBe('The "Alarm" field must be true or false, not "maybe"');
		expect((await requestsTo('profile/balanceAlarm')) - before).toBe(0);
	});

	test.each(['ten', '0x10', '1e2', '0'])('Limit %s is refused naming the field', async (limit) => {
		const error = await v.fails(NODE, groups({ returnAll: false, limit: `={{ "${limit}" }}` }));
		expect(error.message).toBe(`The "Limit" field must be a whole number from 1, not "${limit}"`);
	});

	test('a whole number typed as text is taken ({{ "12" }})', async () => {
		expect(await v.ok(NODE, groups({ returnAll: false, limit: '={{ "12" }}' }))).toHaveLength(12);
	});

	test.each(['2026-02-30', '2026-13-01', 'soon'])('the date %s is refused naming the field, not moved', async (day) => {
		const error = await v.fails(NODE, { resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { start: day } });
		expect(error.message).toBe(`The "From" field is not a date: "${day}"`);
	});

	test('with Continue On Fail, an item with bad input gives its error item in its place', async () => {
		const { items, error } = await v.run(
			NODE,
			{ resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: '={{ $json.alarm }}', alarmValue: 50 } },
			{ input: [{ alarm: 'yes' }, { alarm: 'maybe' }, { alarm: 'no' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toBe('The "Alarm" field must be true or false, not "maybe"');
		expect(items[0].json.error).toBeUndefined();
		expect(items[2].json.error).toBeUndefined();
	});
});

describe("dates are days in the workflow's time zone, whatever the zone of the n8n process", () => {
	const zone = 'Pacific/Kiritimati'; // UTC+14: a day ahead of a UTC process for 14 hours a day
	let processZone;
	beforeAll(() => {
		processZone = process.env.TZ;
		process.env.TZ = 'UTC';
	});
	afterAll(() => {
		if (processZone === undefined) delete process.env.TZ;
		else process.env.TZ = processZone;
	});

	test('a time with its zone, and {{ $today }}, are sent as that day in the workflow zone', async () => {
		await v.ok(NODE, { resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { start: '2026-11-22T00:30:00+14:00', end: '2026-11-22' } }, { settings: { timezone: zone } });
		expect(await lastBody('profile/logs')).toMatchObject({ start: '2026-11-22', end: '2026-11-22' });
		await v.ok(NODE, { resource: 'log', operation: 'getAll', simplify: false, returnAll: true, filters: { start: '={{ $today }}' } }, { settings: { timezone: zone } });
		const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
		expect((await lastBody('profile/logs')).start).toBe(today);
	});

	test('a Unix time field (CDN bill by channel) takes a day or time without a zone in the workflow zone', async () => {
		const channel = (await v.api('cdn/domainList', { page: 1, limit: 10 })).data[0].id;
		await v.ok('vendorCdn', { resource: 'bill', operation: 'getByChannel', simplify: false, domainIds: [String(channel)], begintime: '2026-11-22', endtime: '2026-11-22 10:00' }, { settings: { timezone: zone } });
		const body = await lastBody('cdn/getBillByDomainID');
		expect(body.begintime).toBe(Date.UTC(2026, 10, 21, 10) / 1000); // 2026-11-22 00:00 at UTC+14
		expect(body.endtime).toBe(Date.UTC(2026, 10, 21, 20) / 1000); // 2026-11-22 10:00 at UTC+14
	});
});

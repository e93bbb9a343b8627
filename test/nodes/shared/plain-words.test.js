'use strict';
/**
 * Nothing on screen that only the service understands (issue 36, point 2), against the emulator's
 * demo data: no simplified record shows a code as a made-up word ("Code 1 (meaning not
 * documented)"), and no first line of an error (the message n8n shows in red) shows a service
 * code ("code 0", "NoSuchBucket"), a service path (cdn/refresh, API/profile/balance), a request id
 * (X-Trans-Id, a UUID) or n8n's "[item 0]". The errors are provoked along every path the emulator
 * can play: the service's refusals, checks before sending, timeouts, lost connections, pages that
 * are not the envelope, answers too large or too deep, a busy service, a token refused for good, a
 * wrong API URL, object storage's error codes and a trigger's poll. Where those things belong (the
 * description, for someone helping the user), they are checked to be there.
 */
const fs = require('node:fs');
const path = require('node:path');
const { startVendor, n8n } = require('../../support/vendor');

let v;
beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [], latencyMs: 0, errorRate: 0, errorOps: [] });
});

/** Every management path the action nodes call: their declarations' paths and the lists they look names up in. */
function servicePaths() {
	const paths = new Set();
	for (const dir of fs.readdirSync(path.join(n8n.ROOT, 'dist', 'nodes'))) {
		const file = path.join(n8n.ROOT, 'dist', 'nodes', dir, 'area.js');
		if (!fs.existsSync(file)) continue;
		for (const area of Object.values(require(file))) for (const op of area.operations ?? []) if (op.path) paths.add(op.path);
	}
	const { LOCATORS } = require(path.join(n8n.ROOT, 'dist', 'nodes', 'shared', 'api', 'locators.js'));
	for (const loc of Object.values(LOCATORS)) paths.add(loc.path);
	return [...paths];
}
const PATHS = servicePaths();
const STORAGE_CODES =
	/\b(NoSuch(Bucket|Key|Upload)|AccessDenied|SignatureDoesNotMatch|InvalidAccessKeyId|RequestTimeTooSkewed|Bucket(AlreadyExists|NotEmpty)|InvalidBucketName|InvalidArgument|InternalError|SlowDown|BadDigest|InvalidDigest|InvalidPart(Order)?|PreconditionFailed|MissingContentLength)\b/;

/** What a first line must not show; [] when it is clean. */
function raw(text) {
	const found = [];
	if (/\bcode -?\d+\b/i.test(text)) found.push('a service code');
	if (/Code \d+ \(meaning not documented\)/.test(text)) found.push('a made-up word for a code');
	if (STORAGE_CODES.test(text)) found.push(`a storage code (${STORAGE_CODES.exec(text)[0]})`);
	if (/X-Trans-Id|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(text)) found.push('a request id');
	if (/\bAPI\/\w/.test(text)) found.push('an API path');
	const p = PATHS.find((x) => new RegExp(`(^|[^\\w/])${x.replace('/', '\\/')}($|[^\\w/])`).test(text));
	if (p) found.push(`the service path ${p}`);
	if (/\[item \d+\]/.test(text)) found.push('"[item N]"');
	return found;
}

/**
 * Fields whose values are service paths as data: a group's permissions are the paths it may call
 * (Group Permission > Add takes them by these names), and a log entry's operation is the service's
 * record of what was done, shown as it came (docs/vendor/readings.md#r5).
 */
const DATA = { 'vendorAccountBilling/groupPermission/getAll': 'permission', 'vendorAccountBilling/log/getAll': 'operation' };

const quick = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', timeout: 1 } });
/** These fault rules only (a rule without `times` stays until cleared). */
const inject = async (...rules) => {
	await v.control('POST', '/faults', { inject: [] });
	if (rules.length) await v.control('POST', '/faults', { inject: rules });
};
const rl = (value) => ({ __rl: true, mode: 'name', value });
const BILLING = 'vendorAccountBilling';
const STORAGE = 'vendorObjectStorage';

test('no simplified record of the demo data shows a code as a made-up word, a service path or a request id', async () => {
	const demoDomain = (await v.api('dns/domainList', { page: 1, limit: 100 })).data.find((d) => d.name === 'example-demo.com');
	const group = (await v.api('profile/groupList', { page: 1, limit: 100 })).data[0];
	const channel = (await v.api('cdn/domainList', { page: 1, limit: 100 })).data[0];
	const centre = (await v.api('instance/nodeList', {})).data[0];
	/** Parameters of the reads that need one, from the demo data. */
	const needs = {
		'vendorAccountBilling/groupPermission/getAll': { gid: v.byId(group.id) },
		'vendorCdn/channel/get': { id: v.byId(channel.id) },
		'vendorCloudHost/host/findInText': { text: 'please restart web-1' },
		'vendorCloudHost/line/getAll': { nodeid: v.byId(centre.id) },
		'vendorDns/record/getAll': { did: v.byId(demoDomain.id) },
	};
	const ran = [];
	const bad = [];
	for (const dir of fs.readdirSync(path.join(n8n.ROOT, 'dist', 'nodes'))) {
		const file = path.join(n8n.ROOT, 'dist', 'nodes', dir, 'area.js');
		if (!fs.existsSync(file)) continue;
		for (const area of Object.values(require(file))) {
			for (const op of area.operations ?? []) {
				if (!op.simplify || !op.readOnly) continue;
				const key = `${area.node}/${op.resource}/${op.operation}`;
				const required = (op.fields ?? []).some((f) => f.required);
				if (required && !needs[key]) continue;
				const parameters = { resource: op.resource, operation: op.operation, ...(op.list ? { returnAll: true } : {}), ...(needs[key] ?? {}) };
				const { items, error } = await v.run(area.node, parameters);
				if (error) throw new Error(`${key}: ${error.message}`);
				ran.push(`${key} (${items.length})`);
				for (const item of items) {
					for (const [field, value] of Object.entries(item.json)) {
						if (DATA[key] === field) continue;
						const shown = raw(typeof value === 'string' ? value : JSON.stringify(value)).filter((f) => f !== 'a service code' || typeof value === 'string');
						if (shown.length) bad.push(`${key} ${field}: ${JSON.stringify(value).slice(0, 120)} (${shown.join(', ')})`);
					}
				}
			}
		}
	}
	process.stderr.write(`[plain words] simplified reads of the demo data: ${ran.join(', ')}\n`);
	expect(ran.length).toBeGreaterThanOrEqual(40);
	expect(bad).toEqual([]);
});

/** The error of one run (must fail), as shown: its first line and its description. */
async function provoke(what, node, parameters, opts) {
	const { error } = await v.run(node, parameters, opts);
	if (!error) throw new Error(`${what}: no error`);
	return { what, message: error.message, description: error.description ?? '', error };
}

test('no first line of an error shows a service code, a service path, a request id or "[item N]"; the description keeps the path and code', async () => {
	const shown = [];
	const add = async (...args) => shown.push(await provoke(...args));

	// the service refuses (a failure envelope), and checks before sending
	await add('invoice of -50', BILLING, { resource: 'invoice', operation: 'apply', title: 'Example Ltd.', price: -50 });
	await add('invoice without Holder', BILLING, { resource: 'invoice', operation: 'apply', title: 'Example Ltd.', price: 10 });
	await add('unknown coupon', BILLING, { resource: 'coupon', operation: 'exchange', couponid: 'NOPE-1' });
	await add('unknown host', 'vendorCloudHost', { resource: 'host', operation: 'reboot', id: '999999' });
	await add('record in an unknown domain', 'vendorDns', { resource: 'record', operation: 'add', did: { __rl: true, mode: 'id', value: '999999' }, recordtype: 'A', subdomain: 'www', value: '203.0.113.5' });
	await add('URL without https://', 'vendorCdn', { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'www.example.com/index.html' });
	await add('URL of another scheme', 'vendorCdn', { resource: 'cacheRefresh', operation: 'create', type: 'file', urls: 'ftp://www.example.com/index.html' });
	await inject({ op: 'profile/balance', kind: 'envelope', code: 2, message: 'account frozen', times: 1 });
	await add('a failure envelope', BILLING, { resource: 'balance', operation: 'get' });
	await inject({ op: 'profile/balance', kind: 'envelope', code: 0, message: null, times: 1 });
	await add('a failure envelope without a message', BILLING, { resource: 'balance', operation: 'get' });
	await inject({ op: 'profile/balance', kind: 'envelope', code: -1, message: 'token is invalid' });
	await add('a token refused for good', BILLING, { resource: 'balance', operation: 'get' });
	// the transport: no answer, a lost connection, answers that are not the envelope, busy, too large
	await inject({ op: 'profile/balance', kind: 'hang' });
	await add('a read that hangs', BILLING, { resource: 'balance', operation: 'get' }, { credentials: quick() });
	await inject({ op: 'profile/groupAdd', kind: 'hang' });
	await add('a write that hangs', BILLING, { resource: 'group', operation: 'create', name: 'plain-hang' }, { credentials: quick() });
	await inject({ op: 'profile/groupAdd', kind: 'reset' });
	await add('a write whose connection drops', BILLING, { resource: 'group', operation: 'create', name: 'plain-reset' });
	await inject({ op: 'profile/balance', kind: 'html200' });
	await add('an HTML page', BILLING, { resource: 'balance', operation: 'get' }, { credentials: quick() });
	await inject({ op: 'profile/groupAdd', kind: 'truncatedJson' });
	await add('broken JSON after a write', BILLING, { resource: 'group', operation: 'create', name: 'plain-broken' });
	await inject({ op: 'profile/balance', kind: 'http', status: 503 });
	await add('HTTP 503', BILLING, { resource: 'balance', operation: 'get' }, { credentials: quick() });
	await inject({ op: 'profile/groupAdd', kind: 'http', status: 429 });
	await add('busy', BILLING, { resource: 'group', operation: 'create', name: 'plain-busy' }, { credentials: quick() });
	await inject({ op: 'profile/balance', kind: 'deepJson', depth: 100000 });
	await add('an answer nested too deep', BILLING, { resource: 'balance', operation: 'get' });
	await inject({ op: 'profile/balance', kind: 'bigAnswer', endless: true });
	await add('an endless answer', BILLING, { resource: 'balance', operation: 'get' });
	await inject();
	await add('a wrong API URL', BILLING, { resource: 'balance', operation: 'get' }, { credentials: { vendorApi: { apiUrl: `${v.url}/nothing-here`, username: 'demo', password: 'demo-password', timeout: 1 } } });
	// object storage
	await add('a bucket that does not exist', STORAGE, { resource: 'object', operation: 'download', bucket: rl('no-such-bucket'), key: 'a.txt' });
	await add('an object that does not exist', STORAGE, { resource: 'object', operation: 'download', bucket: rl('demo-bucket'), key: 'nope.txt' });
	await add('a bad bucket name', STORAGE, { resource: 'bucket', operation: 'create', bucketName: 'ab' });
	await add('an upload without a file', STORAGE, { resource: 'object', operation: 'upload', bucket: rl('demo-bucket'), key: 'x.txt', binaryData: true, binaryPropertyName: 'data' });
	const wrongSecret = { vendorObjectStorageApi: { endpoint: v.url, accessKey: 'VENDORTESTKEY', accessSecret: 'not-the-secret' } };
	await add('a wrong access secret', STORAGE, { resource: 'bucket', operation: 'listObjects', bucket: rl('demo-bucket'), returnAll: true }, { credentials: wrongSecret });
	await inject({ op: 'GetObject', kind: 'http', status: 500, code: 'InternalError' });
	await add('an internal error of the storage', STORAGE, { resource: 'object', operation: 'download', bucket: rl('demo-bucket'), key: 'hello.txt' });
	await inject();

	// a trigger's poll
	await v.control('POST', '/faults', { errorRate: 1, errorOps: ['profile/balance'] });
	const polled = await n8n.runPoll('vendorAccountBillingTrigger', { thresholdSource: 'fixed', threshold: 100 }, { mode: 'manual', credentials: { vendorApi: v.apiRef }, store: v.store }).catch((e) => e);
	await v.control('POST', '/faults', { errorRate: 0, errorOps: [] });
	expect(polled).toBeInstanceOf(Error);
	shown.push({ what: 'a trigger poll that fails', message: polled.message, description: polled.description ?? '' });

	process.stderr.write(`[plain words] first lines of errors:\n${shown.map((s) => `  ${s.what}: ${s.message}`).join('\n')}\n`);
	expect(shown.map((s) => ({ what: s.what, message: s.message, raw: raw(s.message) })).filter((s) => s.raw.length)).toEqual([]);
	// what the first line leaves out is in the description, for someone helping the user
	const by = Object.fromEntries(shown.map((s) => [s.what, s]));
	expect(by['invoice without Holder'].description).toMatch(/profile\/invoiceApply with code 0/);
	expect(by['a failure envelope'].description).toMatch(/profile\/balance with code 2/);
	expect(by['a token refused for good'].description).toMatch(/API\/profile\/balance, service code -1/);
	expect(by['a read that hangs'].description).toMatch(/API\/profile\/balance/);
	expect(by['a bucket that does not exist'].description).toMatch(/NoSuchBucket.*X-Trans-Id [0-9a-f-]{36}/);
	// and the first lines say what the user can act on, in the words of the fields they filled
	expect(by['invoice of -50'].message).toBe('Invalid "Amount": -50 is not above 0');
	expect(by['invoice without Holder'].message).toMatch(/^"Holder"/);
	expect(by['URL without https://'].message).toBe('Invalid "URLs": URL 1 (www.example.com/index.html) has no https:// at the start');
	expect(by['URL without https://'].description).toBe('Write the full address with its scheme, for example https://www.example.com/index.html.');
	expect(by['a read that hangs'].message).toMatch(/^The API did not answer "Get the balance" in time/);
	expect(by['a bucket that does not exist'].message).toBe('The bucket "no-such-bucket" does not exist');
	expect(by['an upload without a file'].message).toBe('The input item holds no file to upload');
	expect(shown.length).toBeGreaterThanOrEqual(27);
}, 240000);

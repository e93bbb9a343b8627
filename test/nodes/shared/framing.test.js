'use strict';
/**
 * Answers framed as a JSON or XML service may frame them (issue 38; docs/vendor/readings.md R46
 * for the management interface's JSON, R29 for the object storage's XML): a byte order mark, a
 * charset other than UTF-8, another Content-Type, white space, compression. The emulator plays
 * each as a dialect (emulator/framing.js); each block first shows, on the raw bytes, that the
 * emulator framed its answer so, then runs the nodes through n8n-core against it. And what the
 * user reads when an answer is not JSON at all, or the service limits the rate (issue 35).
 */
const http = require('node:http');
const zlib = require('node:zlib');
const { startVendor } = require('../../support/vendor');
const { NODE: STORAGE, rl } = require('../../support/storage');

const NODE = 'vendorAccountBilling';
/** Characters of ISO-8859-1 (one byte each there) and beyond it (\u escapes or references there). */
const NAME = 'Café Zürich — 東京';

/** A raw exchange with the emulator: status, headers and the body's bytes as they came (nothing decompressed). */
function raw(url, path, { method = 'POST', body } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.request(`${url}${path}`, { method, headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, compress, deflate, br' } }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body === undefined ? undefined : JSON.stringify(body));
	});
}

const decompress = ({ headers, bytes }) =>
	({ gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync })[headers['content-encoding']]?.(bytes) ?? bytes;

/** What each dialect does to the bytes of an answer, seen from outside. */
const FRAMED = {
	byteOrderMark: ({ bytes }) => expect([...bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, bytes[3]]),
	charsetLatin1: ({ headers, bytes }, kind) =>
		kind === 'json' ? expect(headers['content-type']).toBe('application/json; charset=ISO-8859-1') : expect(bytes.toString('latin1')).toMatch(/^<\?xml version="1.0" encoding="ISO-8859-1"\?>/),
	jsonContentTypes: ({ headers }) => expect(headers['content-type'] ?? '(none)').not.toBe('application/json; charset=utf-8'),
	whitespaceAround: ({ bytes }, kind) => expect(bytes.toString('latin1')).toMatch(kind === 'json' ? /^\r\n +\{[\s\S]*\}\n\n$/ : /^\n<\?xml/),
	compressedAnswers: ({ headers }, kind) => expect(headers['content-encoding']).toMatch(kind === 'json' ? /^(gzip|deflate|br)$/ : /^gzip$/),
};

describe.each(Object.keys(FRAMED))('management answers framed by %s', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo', dialects: [dialect] });
	});
	afterAll(() => v.close());

	test('the emulator frames its JSON so', async () => {
		const answer = await raw(v.url, '/API/OAuth/authorize', { body: { username: 'demo', password: 'demo-password' } });
		FRAMED[dialect](answer, 'json');
		expect(answer.bytes.length).toBeGreaterThan(0);
		// the document inside is still the log-in's envelope
		const text = decompress(answer).toString('latin1').replace(/^\xEF\xBB\xBF/, '');
		expect(JSON.parse(text).code).toBe(1);
	});

	test('Account > Get and Log In read the answer', async () => {
		const [me] = await v.ok(NODE, { resource: 'account', operation: 'get', simplify: false });
		expect(me.name).toBe('demo');
		const [login] = await v.ok(NODE, { resource: 'account', operation: 'logIn' });
		expect(Number(login.expires)).toBeGreaterThan(0);
	});

	test('a name beyond ASCII comes back as written, in an answer and in a list', async () => {
		const [made] = await v.ok(NODE, { resource: 'group', operation: 'create', name: NAME });
		expect(made.name).toBe(NAME);
		const rows = await v.ok(NODE, { resource: 'group', operation: 'getAll', simplify: false, returnAll: true, filters: { name: 'Café' } });
		expect(rows.map((r) => r.name)).toEqual([NAME]);
	});
});

describe.each(Object.keys(FRAMED).filter((d) => d !== 'jsonContentTypes'))('object storage answers framed by %s', (dialect) => {
	let v;
	const key = `framing/${NAME}.txt`;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo', dialects: [dialect] });
		await v.ok(STORAGE, { resource: 'bucket', operation: 'create', bucketName: 'framing' });
		await v.ok(STORAGE, { resource: 'object', operation: 'upload', bucket: rl('framing'), key, binaryData: false, fileContent: 'framed' });
	});
	afterAll(() => v.close());

	test('the emulator frames its XML so', async () => {
		// an unsigned request: the error document is XML like every other answer
		const answer = await raw(v.url, '/framing', { method: 'GET' });
		expect(answer.status).toBe(403);
		FRAMED[dialect](answer, 'xml');
	});

	test('List Objects reads a key beyond ASCII back as written, Get Bucket ACL its grants', async () => {
		const listed = await v.ok(STORAGE, { resource: 'bucket', operation: 'listObjects', bucket: rl('framing'), returnAll: true });
		expect(listed.map((o) => o.key)).toEqual([key]);
		const [acl] = await v.ok(STORAGE, { resource: 'bucket', operation: 'getAcl', bucket: rl('framing') });
		expect(acl.grants.some((g) => g.permission === 'FULL_CONTROL')).toBe(true);
	});

	test("the service's error document is read: its code and message", async () => {
		const error = await v.fails(STORAGE, { resource: 'object', operation: 'download', bucket: rl('framing'), key: 'framing/none.txt', binaryPropertyName: 'data' });
		// the message in the user's words, the service's code from the error document in the details (issue 36)
		expect(error.message).toBe('The object "framing/none.txt" does not exist in the bucket "framing"');
		expect(error.description).toMatch(/NoSuchKey/);
	});
});

describe('answers that are not JSON, and a service that limits the rate: what the user reads', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo' });
	});
	afterAll(() => v.close());
	afterEach(() => v.control('POST', '/faults', { inject: [] }));
	const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
	const quick = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', timeout: 1 } });

	test.each([
		['an HTML page', { kind: 'html200' }, 'an HTML page ("Maintenance") where JSON was expected (HTTP 200)'],
		['an empty answer', { kind: 'empty200' }, 'an empty answer where JSON was expected (HTTP 200)'],
		['a gzip answer that does not decompress', { kind: 'badEncoding', coding: 'gzip' }, 'an answer compressed, but not decompressible (incorrect header check) (HTTP 200)'],
		['a coding n8n does not decompress', { kind: 'badEncoding', coding: 'x-vendor-pack' }, `an answer compressed as "x-vendor-pack", which n8n's HTTP client did not decompress (HTTP 200)`],
	])('%s: a read is tried 4 times, then says so', async (_name, rule, what) => {
		await inject({ op: 'profile/balance', ...rule });
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect(error.message).toBe(`The service failed to answer "Get the balance": ${what} after 4 attempts`);
	});

	test('a Content-Encoding the client did not undo over bytes that are JSON (`utf-8` there, a mistake some servers make): read', async () => {
		await inject({ op: 'profile/balance', kind: 'badEncoding', coding: 'utf-8', plain: true });
		const items = await v.ok(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect(items).toEqual([{ note: 'sent under Content-Encoding utf-8' }]);
		expect((await v.control('GET', '/faults')).rules.map((r) => r.fired)).toEqual([1]);
	});

	test('HTTP 429 is named as the service limiting the rate, after the run backed off and repeated the request', async () => {
		await inject({ op: 'profile/balance', kind: 'http', status: 429 });
		const before = (await v.control('GET', '/stats')).management.requests['profile/balance'] ?? 0;
		const error = await v.fails(NODE, { resource: 'balance', operation: 'get', simplify: false }, { credentials: quick() });
		expect(error.message).toMatch(/^The service limited the rate of requests \(HTTP 429 Too Many Requests\) and still refused "Get the balance" after [\d.]+ s of waiting and repeating$/);
		expect(error.description).toMatch(/^Nothing was changed\. The service takes only so many requests in a given time/);
		expect(((await v.control('GET', '/stats')).management.requests['profile/balance'] ?? 0) - before).toBeGreaterThan(1);
	}, 30000);
});

describe('an XML answer with a document type declaration (issue 34): refused, its entities never expanded', () => {
	// a stand-in for something that is not the object storage: the emulator never writes a DOCTYPE
	const LAUGHS = `<!DOCTYPE ListAllMyBucketsResult [<!ENTITY lol "lol">${Array.from({ length: 6 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>`;
	let server;
	let url;
	const requests = [];
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			requests.push(`${req.method} ${req.url}`);
			const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${LAUGHS}<ListAllMyBucketsResult><Owner><ID>o</ID></Owner><Buckets><Bucket><Name>&lol6;</Name><CreationDate>2026-01-01T00:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>`;
			res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
			res.end(xml);
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${server.address().port}`;
	});
	afterAll(() => new Promise((resolve) => server.close(resolve)));

	test('Bucket > Get Many fails saying what came back and what to check; the bucket name of a million "lol"s never appears', async () => {
		const { n8n } = require('../../support/vendor');
		const store = new n8n.CredentialStore();
		const ref = store.add('vendorObjectStorageApi', { endpoint: url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' });
		const { error, items } = await n8n.runNode(STORAGE, { resource: 'bucket', operation: 'getAll', returnAll: true }, { credentials: { vendorObjectStorageApi: ref }, store });
		expect(items ?? []).toEqual([]);
		expect(error.message).toBe('The object storage answered with XML that has a document type declaration (<!DOCTYPE ...>), which no answer of the object storage has; it was not read');
		expect(error.description).toMatch(/^Check the Endpoint of the credential/);
		expect(JSON.stringify(error)).not.toMatch(/lollol/);
		expect(requests).toEqual(['GET /']);
	});
});

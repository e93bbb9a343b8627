'use strict';
/**
 * The packed package installed into the real n8n (2.40.7 on Node 24, or the 1.x line with
 * VENDOR_N8N_VERSION) the way a user installs it: every node, operation and credential type loads
 * with its icons, and workflows run through `n8n execute`
 * against the emulator — the Object Storage node round trip, an Account & Billing read, and the
 * HTTP Request node using both credentials (signing and token in `authenticate`).
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const n8n = require('./lib');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '../..');
const PKG = require(path.join(ROOT, 'package.json'));
const PREFIX = PKG.name;
const INSTALL_TIMEOUT = 25 * 60 * 1000;

let emu;
let tgz;
let home;
let creds;

const node = (name, type, parameters, extra = {}) => ({ id: crypto.randomUUID(), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra });
const chain = (...names) => {
	const c = {};
	for (let i = 0; i < names.length - 1; i++) c[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return c;
};
const rl = (value, mode = 'name') => ({ __rl: true, mode, value });
const storageCred = () => ({ vendorObjectStorageApi: { id: creds.storage, name: 'Vendor storage (emulator)' } });
const apiCred = () => ({ vendorApi: { id: creds.api, name: 'Vendor API (emulator)' } });

async function run(workflow) {
	const id = await n8n.importWorkflow(home, workflow);
	const out = await n8n.executeWorkflow(home, id, { timeoutMs: 180000 });
	if (out.code !== 0 || !out.result) throw new Error(`n8n execute exited ${out.code}:\n${out.stdout.slice(-3000)}\n${out.stderr.slice(-3000)}`);
	return out.result;
}

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'demo' });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
	const [storage, api] = await n8n.importCredentials(home, [
		{ name: 'Vendor storage (emulator)', type: 'vendorObjectStorageApi', data: { endpoint: emu.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' } },
		{ name: 'Vendor API (emulator)', type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' } },
	]);
	creds = { storage, api };
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
	if (emu) await emu.close();
});

test('the installed package has no runtime dependencies and brings nothing else along', () => {
	const installed = path.join(home.nodesDir, 'node_modules', PREFIX, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(installed, 'utf8'));
	expect(pkg.dependencies).toBeUndefined();
	const others = fs.readdirSync(path.join(home.nodesDir, 'node_modules')).filter((d) => !d.startsWith('.') && d !== PREFIX);
	expect(others).toEqual([]);
});

test('Object Storage through n8n execute: create bucket, upload text, list, download, presign', async () => {
	const bucket = `real-n8n-${Date.now()}`;
	const key = 'reports/2026/ünïcode + report.txt';
	const result = await run({
		name: 'Object storage round trip',
		nodes: [
			node('Manual', 'n8n-nodes-base.manualTrigger', {}),
			node('Create', `${PREFIX}.vendorObjectStorage`, { resource: 'bucket', operation: 'create', bucketName: bucket }, { credentials: storageCred() }),
			node('Upload', `${PREFIX}.vendorObjectStorage`, { resource: 'object', operation: 'upload', bucket: rl(bucket), key, binaryData: false, fileContent: 'hello from real n8n' }, { credentials: storageCred() }),
			node('List', `${PREFIX}.vendorObjectStorage`, { resource: 'bucket', operation: 'listObjects', bucket: rl(bucket), returnAll: true }, { credentials: storageCred() }),
			node('Download', `${PREFIX}.vendorObjectStorage`, { resource: 'object', operation: 'download', bucket: rl(bucket), key }, { credentials: storageCred() }),
			node('Presign', `${PREFIX}.vendorObjectStorage`, { resource: 'object', operation: 'getPresignedUrl', bucket: rl(bucket), key, method: 'GET', expiresIn: 600 }, { credentials: storageCred() }),
		],
		connections: chain('Manual', 'Create', 'Upload', 'List', 'Download', 'Presign'),
	});
	expect(result.status).toBe('success');
	expect(result.nodes.List.items.map((i) => i.key)).toEqual([key]);
	expect(result.nodes.Download.binary[0].data.fileSize).toBeDefined();
	const url = result.nodes.Presign.items[0].url;
	expect(url).toMatch(/VENDORAccessKeyId=VENDORTESTKEY/);
	const fetched = await fetch(url);
	expect(fetched.status).toBe(200);
	expect(await fetched.text()).toBe('hello from real n8n');
	const stored = (await (await fetch(`${emu.url}/__emulator/storage/objects?bucket=${bucket}`)).json()).objects;
	expect(stored.map((o) => o.key)).toEqual([key]);
}, 300000);

test('Account & Billing and the HTTP Request node with both credentials', async () => {
	const result = await run({
		name: 'Management and HTTP Request',
		nodes: [
			node('Manual', 'n8n-nodes-base.manualTrigger', {}),
			node('Balance', `${PREFIX}.vendorAccountBilling`, { resource: 'balance', operation: 'get', simplify: false }, { credentials: apiCred() }),
			node(
				'HTTP API',
				'n8n-nodes-base.httpRequest',
				{
					method: 'POST',
					url: `${emu.url}/API/profile/detail`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'vendorApi',
					sendBody: true,
					contentType: 'json',
					specifyBody: 'json',
					jsonBody: '{}',
					options: {},
				},
				{ typeVersion: 4.2, credentials: apiCred() },
			),
			node(
				'HTTP Storage',
				'n8n-nodes-base.httpRequest',
				{ method: 'GET', url: `${emu.url}/demo-bucket`, authentication: 'predefinedCredentialType', nodeCredentialType: 'vendorObjectStorageApi', options: { response: { response: { responseFormat: 'text' } } } },
				{ typeVersion: 4.2, credentials: storageCred() },
			),
		],
		connections: chain('Manual', 'Balance', 'HTTP API', 'HTTP Storage'),
	});
	expect(result.status).toBe('success');
	expect(Number(result.nodes.Balance.items[0].price)).toBeGreaterThan(0);
	expect(result.nodes['HTTP API'].items[0]).toMatchObject({ code: 1, data: { name: 'demo' } });
	expect(result.nodes['HTTP Storage'].items[0].data).toMatch(/<ListBucketResult[\s\S]*<Name>demo-bucket<\/Name>/);
	// the token the credential fetched was stored by n8n and is never in the run output
	expect(JSON.stringify(result.raw)).not.toMatch(/demo-password/);
}, 300000);

describe('n8n start', () => {
	let server;
	beforeAll(async () => {
		server = await n8n.startN8n(home, { timeoutMs: 240000 });
	}, 300000);
	afterAll(async () => {
		if (server) await server.stop();
	}, 60000);

	test('serves every node and credential type of the package with light and dark icons', async () => {
		const types = JSON.parse((await server.call('GET', '/types/nodes.json')).text);
		for (const file of PKG.n8n.nodes) {
			const base = path.basename(file).split('.')[0];
			const name = `${PREFIX}.${base.charAt(0).toLowerCase()}${base.slice(1)}`;
			const t = types.find((x) => x.name === name);
			expect({ name, found: Boolean(t) }).toEqual({ name, found: true });
			for (const variant of ['light', 'dark']) {
				const icon = t.iconUrl && (typeof t.iconUrl === 'string' ? t.iconUrl : t.iconUrl[variant]);
				expect(icon).toBeTruthy();
				const res = await fetch(`${server.url}/${icon.replace(/^\//, '')}`);
				expect({ icon, status: res.status, type: res.headers.get('content-type') }).toMatchObject({ status: 200 });
				expect(await res.text()).toMatch(/^<svg/);
			}
			if (!t.group.includes('trigger')) expect(types.some((x) => x.name === `${name}Tool`)).toBe(true);
		}
		const credTypes = JSON.parse((await server.call('GET', '/types/credentials.json')).text);
		expect(credTypes.map((c) => c.name)).toEqual(expect.arrayContaining(['vendorApi', 'vendorObjectStorageApi']));

		// every operation of every node, as n8n serves it to the editor, is the built package's
		const operations = (description) => {
			const ops = [];
			for (const p of description.properties || []) {
				if (p.name !== 'operation' || !p.options) continue;
				const resources = (p.displayOptions && p.displayOptions.show && p.displayOptions.show.resource) || ['-'];
				for (const r of resources) for (const o of p.options) ops.push(`${r}:${o.value}`);
			}
			return ops.sort();
		};
		let count = 0;
		for (const file of PKG.n8n.nodes) {
			const built = new (Object.values(require(path.join(ROOT, file)))[0])().description;
			const t = types.find((x) => x.name === `${PREFIX}.${built.name}`);
			expect({ node: built.name, operations: operations(t) }).toEqual({ node: built.name, operations: operations(built) });
			count += operations(t).length;
		}
		process.stderr.write(`[package] n8n ${n8n.version} serves ${PKG.n8n.nodes.length} nodes of the package with ${count} operations, ${types.filter((x) => x.name.startsWith(PREFIX) && x.name.endsWith('Tool')).length} tool variants\n`);
		expect(count).toBeGreaterThanOrEqual(174);
	}, 120000);

	test('the credential tests pass for good secrets and fail for a wrong one', async () => {
		// n8n 2.x tests a stored credential, with the data given in the request
		const test = async (type, data) => {
			const id = type === 'vendorApi' ? creds.api : creds.storage;
			const res = await server.rest('POST', '/credentials/test', { credentials: { id, name: 'test', type, data } });
			if (!res.json || !res.json.data) throw new Error(`credential test answered ${res.status}: ${res.text.slice(0, 500)}`);
			return res.json.data;
		};
		expect(await test('vendorObjectStorageApi', { endpoint: emu.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' })).toMatchObject({ status: 'OK' });
		const badKey = await test('vendorObjectStorageApi', { endpoint: emu.url, accessKey: 'VENDORTESTKEY', accessSecret: 'wrong' });
		expect(badKey.status).toBe('Error');
		expect(await test('vendorApi', { apiUrl: emu.url, username: 'demo', password: 'demo-password' })).toMatchObject({ status: 'OK' });
		const badPassword = await test('vendorApi', { apiUrl: emu.url, username: 'demo', password: 'wrong-password' });
		expect(badPassword.status).toBe('Error');
		expect(badPassword.message).toMatch(/refused|password/i);
	}, 120000);
});

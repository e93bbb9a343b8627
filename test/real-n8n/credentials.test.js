'use strict';
/**
 * The Vendor API credential in the real n8n (2.40.7, or 1.x with VENDOR_N8N_VERSION), driven through n8n's REST API the way
 * the editor drives it: create, test, use in a workflow; then edit the password to a wrong one
 * (the editor sends the stored secrets back as placeholders, so the hidden token of the earlier
 * log-in stays in the credential): the test must fail and a workflow must be refused with the
 * log-in error, although the earlier token is still valid at the service. Each password
 * encoding of the credential test is checked against an emulator that expects it. Last, the
 * token soak of issue 39 in one main process (token-soak.js): bursts of 48 executions at once
 * sharing the credential, every log-in ending the earlier tokens, the machine loaded.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const soak = require('./token-soak');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json')).name;
const INSTALL_TIMEOUT = 25 * 60 * 1000;

const emus = {};
let home;
let tgz;
let server;

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	for (const encoding of ['none', 'md5', 'base64']) emus[encoding] = await createEmulator({ seed: 'demo', management: { passwordEncoding: encoding } });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
	server = await n8n.startN8n(home);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (server) await server.stop();
	for (const emu of Object.values(emus)) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

async function rest(method, route, body) {
	const res = await server.rest(method, route, body);
	if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${res.text}`);
	return res.json.data;
}

/** POST /rest/credentials/test with the data the editor holds. */
const testCredential = (cred, data) => rest('POST', '/credentials/test', { credentials: { id: cred.id, name: cred.name, type: cred.type, data } });

async function logins(emu) {
	return (await (await fetch(`${emu.url}/__emulator/stats`)).json()).management.logins;
}

/** Runs the workflow through its production webhook; returns the execution summary. */
async function runThroughWebhook(workflowId, hookPath) {
	const before = (await server.listExecutions({ workflowId })).length;
	// activation registers the webhook in the background: 404 until it is there
	for (let tries = 0; ; tries++) {
		const res = await fetch(`${server.url}/webhook/${hookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		if (res.status !== 404) break;
		if (tries > 120) throw new Error(`webhook ${hookPath} not registered: ${await res.text()}`);
		await new Promise((r) => setTimeout(r, 500));
	}
	const list = await server.waitForExecutions(workflowId, before + 1, { timeoutMs: 60000 });
	return server.getExecution(list[0].id);
}

test(
	'a credential edited to a wrong password fails its test and is refused in workflows, although its old token still works',
	async () => {
		const emu = emus.none;
		const cred = await rest('POST', '/credentials', {
			name: 'Vendor API account',
			type: 'vendorApi',
			data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' },
		});
		const ok = await testCredential(cred, { apiUrl: emu.url, username: 'demo', password: 'demo-password' });
		expect(ok).toMatchObject({ status: 'OK' });

		const workflow = await rest('POST', '/workflows', {
			name: 'Balance on request',
			active: false,
			nodes: [
				{
					id: 'hook',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'vendor-balance-hook',
					parameters: { httpMethod: 'POST', path: 'vendor-balance', responseMode: 'lastNode', options: {} },
				},
				{
					id: 'balance',
					name: 'Get Balance',
					type: `${PKG}.vendorAccountBilling`,
					typeVersion: 1,
					position: [220, 0],
					parameters: { resource: 'balance', operation: 'get', simplify: false },
					credentials: { vendorApi: { id: cred.id, name: cred.name } },
				},
			],
			connections: { Webhook: { main: [[{ node: 'Get Balance', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		await server.activateWorkflow(workflow.id);
		let run = await runThroughWebhook(workflow.id, 'vendor-balance');
		expect(run.status).toBe('success');
		expect(run.nodes['Get Balance'].items[0].price).toBeDefined();

		// edit as the editor does: read with data (secrets come back as placeholders), change the password, save
		const stored = await rest('GET', `/credentials/${cred.id}?includeData=true`);
		const edited = { ...stored.data, password: 'Wrong-pass-9' };
		await rest('PATCH', `/credentials/${cred.id}`, { name: cred.name, type: cred.type, data: edited });

		const before = await logins(emu);
		const failed = await testCredential(cred, edited);
		expect(failed.status).toBe('Error');
		expect(failed.message).toMatch(/refused the log-in: check the username, the password and the Password Encoding/);
		expect(JSON.stringify(failed)).not.toContain('Wrong-pass-9');
		expect((await logins(emu)) - before).toBeGreaterThanOrEqual(1);

		run = await runThroughWebhook(workflow.id, 'vendor-balance');
		expect(run.status).toBe('error');
		const refused = 'Log-in as "demo" was refused: username or password is incorrect. Check the username, password and password encoding in the credential "Vendor API account" (type Vendor API).';
		// n8n-workflow 1.x drops an Error's cause (a class field `cause` overwrites it); the node
		// finds its own log-in failure by the message n8n kept, so both lines read the same
		// (on 1.x it read "The log-in failed: Log-in as "demo" was refused: ...")
		expect(run.error.message).toBe(refused);
		expect(JSON.stringify(run)).not.toContain('Wrong-pass-9');

		// corrected: the test passes and the workflow runs again
		const fixed = { ...edited, password: 'demo-password' };
		await rest('PATCH', `/credentials/${cred.id}`, { name: cred.name, type: cred.type, data: fixed });
		expect(await testCredential(cred, fixed)).toMatchObject({ status: 'OK' });
		run = await runThroughWebhook(workflow.id, 'vendor-balance');
		expect(run.status).toBe('success');
	},
	6 * 60 * 1000,
);

test.each(['md5', 'base64'])(
	'the credential test sends the password with the %s encoding the service expects',
	async (encoding) => {
		const emu = emus[encoding];
		const data = { apiUrl: emu.url, username: 'demo', password: 'demo-password', loginEncoding: encoding };
		const cred = await rest('POST', '/credentials', { name: `Vendor API ${encoding}`, type: 'vendorApi', data });
		expect(await testCredential(cred, data)).toMatchObject({ status: 'OK' });
		// the same password sent as typed is refused by that service
		const plain = { ...data, loginEncoding: 'none' };
		expect(await testCredential(cred, plain)).toMatchObject({ status: 'Error' });
	},
	3 * 60 * 1000,
);

// on the default line only: the same package code on n8n 1.123.81 (which reads the credential from
// its database each time too) took 155 s for the two bursts instead of 49 s, which npm test's
// time budget does not allow; run it there by hand with
// VENDOR_N8N_VERSION=1.123.81 VENDOR_TOKEN_SOAK=1 npx jest test/real-n8n/credentials.test.js -t "token soak"
const soakTest = n8n.major >= 2 || process.env.VENDOR_TOKEN_SOAK === '1' ? test : test.skip;
soakTest(
	'token soak in one main process: 48 executions at once, twice, sharing one credential where every log-in ends the earlier tokens, the machine loaded: none fails',
	async () => {
		const emu = emus.none;
		const username = 'soak-tokens';
		const password = 'Soak-tokens-1';
		await fetch(`${emu.url}/__emulator/management/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, mail: 'soak@example.com' }) });
		const cred = await rest('POST', '/credentials', { name: 'Vendor API (token soak)', type: 'vendorApi', data: { apiUrl: emu.url, username, password } });
		const workflow = await rest('POST', '/workflows', {
			name: 'Token soak: account details',
			active: false,
			nodes: [
				{ ...n8n.webhookNode('token-soak'), id: 'hook' },
				{ id: 'acct', name: 'Get Account', type: `${PKG}.vendorAccountBilling`, typeVersion: 1, position: [220, 0], parameters: { resource: 'account', operation: 'get' }, credentials: { vendorApi: { id: cred.id, name: cred.name } } },
			],
			connections: { Webhook: { main: [[{ node: 'Get Account', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		await server.activateWorkflow(workflow.id);
		// the webhook registered, the token stored
		expect((await runThroughWebhook(workflow.id, 'token-soak')).status).toBe('success');
		const say = (line) => process.stderr.write(`[credentials n8n ${n8n.version}] ${line}\n`);
		const sizes = [48, 48];
		const bursts = await soak.run({
			sizes,
			emulatorUrl: emu.url,
			username,
			password,
			start: () => n8n.request(`${server.url}/webhook/token-soak`, { method: 'POST', body: {}, timeoutMs: 300000 }),
			server,
			workflowId: workflow.id,
			say,
		});
		expect(bursts.map((b) => b.executions)).toEqual(sizes);
		expect(bursts.map((b) => b.firstError || b.failed)).toEqual(sizes.map(() => 0));
		expect(bursts.map((b) => b.answers)).toEqual(sizes);
		// one process: one log-in per round of refusals, shared by every execution: after the
		// revocation, and again if the outside log-in came after n8n's
		expect(bursts[0].logins).toBe(1);
		expect(bursts[1].logins).toBeGreaterThanOrEqual(1);
		expect(bursts[1].logins).toBeLessThanOrEqual(2);
	},
	10 * 60 * 1000,
);

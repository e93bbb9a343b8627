'use strict';
/**
 * Proves the real-n8n pipeline with a hand-written fixture package (test/fixtures/tiny-package):
 * install the pinned n8n (minutes, once), pack the package, install it into a scratch n8n home
 * the way a user does, import a credential and workflows, run one with `n8n execute`, then run
 * `n8n start`: owner set up, node type served, schedule-triggered workflows activated (by the CLI
 * before start and by the REST API after), their executions listed, clean stop.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'tiny-package');
const PKG = 'n8n-nodes-tiny-echo';
const TINY = `${PKG}.tinyEcho`;
const INSTALL_TIMEOUT = 25 * 60 * 1000;

const manualToTiny = (credId) => ({
	name: 'Tiny smoke',
	nodes: [
		{ id: 'n1', name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'n2',
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			// An expression: proves n8n's expression engine (isolated-vm) works on this runtime.
			parameters: { assignments: { assignments: [{ id: 'a1', name: 'sum', value: '={{ 1 + 1 }}', type: 'number' }] }, options: {} },
		},
		{
			id: 'n3',
			name: 'Tiny',
			type: TINY,
			typeVersion: 1,
			position: [400, 0],
			parameters: { text: 'hello', useCredential: true },
			credentials: { tinyEchoApi: { id: credId, name: 'Tiny cred' } },
		},
	],
	connections: {
		Manual: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
		Set: { main: [[{ node: 'Tiny', type: 'main', index: 0 }]] },
	},
});

const scheduleToTiny = (name, text) => ({
	name,
	nodes: [
		{
			id: 's1',
			name: 'Schedule',
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			position: [0, 0],
			parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 2 }] } },
		},
		{ id: 's2', name: 'Tiny', type: TINY, typeVersion: 1, position: [200, 0], parameters: { text } },
	],
	connections: { Schedule: { main: [[{ node: 'Tiny', type: 'main', index: 0 }]] } },
});

let tgz;
let home;

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	tgz = n8n.packPackage(FIXTURE);
	home = await n8n.createN8nHome({ tgz });
}, INSTALL_TIMEOUT);

afterAll(() => {
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

test('the package is installed where n8n looks for community packages', () => {
	const installed = path.join(home.nodesDir, 'node_modules', PKG, 'package.json');
	expect(JSON.parse(fs.readFileSync(installed, 'utf8')).n8n.nodes).toEqual(['dist/nodes/TinyEcho/TinyEcho.node.js']);
	expect(JSON.parse(fs.readFileSync(path.join(home.nodesDir, 'package.json'), 'utf8')).dependencies).toEqual({ [PKG]: '0.0.1' });
	// Peer dependencies (n8n-workflow) come from n8n itself, not from a copy next to the package.
	expect(fs.existsSync(path.join(home.nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
});

test('n8n execute runs Manual Trigger -> Set -> TinyEcho with an imported credential', async () => {
	const [credId] = await n8n.importCredentials(home, [{ name: 'Tiny cred', type: 'tinyEchoApi', data: { token: 's3cret' } }]);
	const id = await n8n.importWorkflow(home, manualToTiny(credId));
	const t0 = Date.now();
	const { code, stdout, stderr, result } = await n8n.executeWorkflow(home, id, { timeoutMs: 180000 });
	const ms = Date.now() - t0;
	if (code !== 0) throw new Error(`n8n execute exited ${code}:\n${stdout}\n${stderr}`);
	expect(result.status).toBe('success');
	expect(result.nodes.Set.items).toEqual([{ sum: 2 }]);
	expect(result.nodes.Tiny.items).toEqual([{ sum: 2, echo: 'hello', tokenEcho: 's3cret' }]);
	process.stderr.write(`[smoke] n8n execute of a 3-node workflow: ${ms} ms wall\n`);
}, 300000);

test('a failing node gives exit code 1 and the node error in the result', async () => {
	const wf = manualToTiny('none');
	delete wf.nodes[2].credentials;
	const id = await n8n.importWorkflow(home, wf);
	const { code, result } = await n8n.executeWorkflow(home, id, { timeoutMs: 180000 });
	expect(code).toBe(1);
	expect(result.status).toBe('error');
	expect(result.error.node).toBe('Tiny');
	expect(result.nodes.Set.items).toEqual([{ sum: 2 }]);
	expect(result.nodes.Tiny.error.message).toMatch(/credentials/i);
}, 300000);

describe('n8n start', () => {
	let server;
	let publishedId;
	let stopped;
	let exitMarks;

	beforeAll(async () => {
		// Published through the CLI while no server runs: `n8n start` activates it.
		publishedId = await n8n.importWorkflow(home, scheduleToTiny('Tiny published by CLI', 'from-cli'));
		await n8n.publishWorkflow(home, publishedId);
		// A preload writes down the main process's 'exit' event: n8n's shutdown ran to its end and
		// called process.exit() with this code (what happens after it is Node's and isolated-vm's).
		exitMarks = path.join(home.userFolder, 'exit-marks.jsonl');
		const preload = path.join(home.userFolder, 'exit-mark.js');
		fs.writeFileSync(
			preload,
			`'use strict';\nprocess.once('exit', (code) => { try { require('node:fs').appendFileSync(${JSON.stringify(exitMarks)}, JSON.stringify({ pid: process.pid, code }) + '\\n'); } catch {} });\n`,
		);
		server = await n8n.startN8n(home, { timeoutMs: 240000, env: { NODE_OPTIONS: `--require ${preload}` } });
		process.stderr.write(`[smoke] n8n start ready in ${server.startMs} ms\n`);
	}, 360000);

	afterAll(async () => {
		if (server && !stopped) await server.stop();
	}, 60000);

	test('answers /healthz, has its owner set up and serves the package node type', async () => {
		const health = await fetch(`${server.url}/healthz`).then((r) => r.json());
		expect(health).toEqual({ status: 'ok' });
		const settings = await fetch(`${server.url}/rest/settings`).then((r) => r.json());
		expect(settings.data.userManagement.showSetupOnFirstLoad).toBe(false);
		const me = await server.rest('GET', '/login');
		expect(me.status).toBe(200);
		expect(me.json.data.email).toBe(n8n.OWNER.email);
		const types = await server.call('GET', '/types/nodes.json');
		expect(types.status).toBe(200);
		expect(JSON.parse(types.text).find((t) => t.name === TINY)).toMatchObject({ displayName: 'Tiny Echo' });
		const icon = await fetch(`${server.url}/icons/${PKG}/dist/nodes/TinyEcho/tinyEcho.svg`);
		expect(icon.status).toBe(200);
	}, 60000);

	test('runs schedule-triggered workflows activated by the CLI and by the REST API', async () => {
		const id = await n8n.importWorkflow(home, scheduleToTiny('Tiny activated by REST', 'from-rest'));
		const wf = await server.activateWorkflow(id);
		expect(wf.active).toBe(true);

		for (const [wid, text] of [
			[id, 'from-rest'],
			[publishedId, 'from-cli'],
		]) {
			const executions = await server.waitForExecutions(wid, 1, { timeoutMs: 60000 });
			expect(executions[0]).toMatchObject({ workflowId: wid, mode: 'trigger', status: 'success' });
			const run = await server.getExecution(executions[0].id);
			expect(run.nodes.Tiny.items).toEqual([expect.objectContaining({ echo: text, timestamp: expect.any(String) })]);
		}
		await server.deactivateWorkflow(id);
		await server.deactivateWorkflow(publishedId);
	}, 180000);

	/**
	 * What "cleanly" means: n8n received the SIGTERM, ran its whole shutdown without an error or
	 * its own shutdown timeout, and called process.exit(0) (the preload's exit mark); nothing of
	 * its process group is left, and no SIGKILL was needed (stop() sends one after 15 s, which
	 * would be the result). After exit(0), n8n 2.40.7 sometimes ends with SIGSEGV instead of 0:
	 * its exitSuccessFully() disposes the isolated-vm expression engine and calls process.exit()
	 * without waiting for isolated-vm's own thread to finish the disposal, and exit()'s handlers
	 * then race that thread (gdb: ivm::PlatformDelegate::UnregisterIsolate on isolated-vm's
	 * thread, exit() -> ivm::thread_pool_t::~thread_pool_t on the main thread). It happens without
	 * the server and without any package (test/real-n8n/isolate-exit-race.js: 5 of 40 processes),
	 * so it is n8n's, not the fixture package's; the test accepts that ending, and only after the
	 * exit mark, and says so in its output.
	 */
	test('stops cleanly on SIGTERM', async () => {
		const res = await server.stop();
		stopped = true;
		const marks = fs.existsSync(exitMarks) ? fs.readFileSync(exitMarks, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
		expect(marks.filter((m) => m.pid === server.pid)).toEqual([{ pid: server.pid, code: 0 }]);
		const logs = server.logs();
		expect(logs).toMatch(/Received SIGTERM\. Shutting down/);
		expect(logs).not.toMatch(/Shutdown timed out|There was an error shutting down n8n/);
		if (res.signal === 'SIGSEGV') {
			process.stderr.write('[smoke] n8n ended with SIGSEGV after its exit(0): the isolated-vm disposal race at exit (n8n 2.40.7, see isolate-exit-race.js)\n');
		} else {
			expect(res).toEqual({ code: 0, signal: null });
		}
		expect(() => process.kill(-server.pid, 0)).toThrow(/ESRCH/);
	}, 60000);
});

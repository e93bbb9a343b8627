'use strict';
/**
 * `npm start` re-imports the example workflows on every start (so they stay current), and an
 * import stores a workflow unpublished: a user who published *Alert on an abnormal host* found it
 * silently unpublished after the next start. The steps of scripts/start.js, run here on a real
 * n8n 2.40.7 home: the first start's import, the user publishes the example, the next start reads
 * which examples are published, re-imports (which unpublishes, as shown), starts n8n and publishes
 * them again, saying so.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const start = require('../../scripts/start');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const INSTALL_TIMEOUT = 25 * 60 * 1000;

let emu;
let home;
let tgz;
let server;

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'demo' });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (server) await server.stop();
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

test('a published example is published again after the next start re-imports it, and the start says so', async () => {
	const examples = start.loadExamples();
	const alert = examples.find((e) => e.file === 'host-state-alert.json');
	// the first start: import, n8n with its owner; the user publishes the host alert in the editor
	await start.importAll(n8n, home, emu);
	server = await n8n.startN8n(home, { timeoutMs: 300000 });
	await server.activateWorkflow(alert.workflow.id);
	await server.stop();
	server = undefined;
	const published = await start.publishedExamples(n8n, home, examples);
	expect(published.map((e) => e.file)).toEqual(['host-state-alert.json']);

	// the next start: the re-import unpublishes it...
	await start.importAll(n8n, home, emu);
	expect(await start.publishedExamples(n8n, home, examples)).toEqual([]);
	// ...and once n8n runs, it is published again and the start's summary says so
	server = await n8n.startN8n(home, { timeoutMs: 300000 });
	const lines = await start.republish(server, published);
	expect(lines).toEqual([`"${alert.workflow.name}" published again (it was published before this start)`]);
	const wf = await server.rest('GET', `/workflows/${alert.workflow.id}`);
	expect(wf.json.data.active).toBe(true);
	expect((await start.publishedExamples(n8n, home, examples)).map((e) => e.file)).toEqual(['host-state-alert.json']);
}, 1200000);

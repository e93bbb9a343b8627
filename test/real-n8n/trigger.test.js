'use strict';
/**
 * A polling trigger of the package as an ACTIVE workflow in the real n8n (2.40.7): the Vendor
 * Cloud Host Trigger polls the emulator every minute (the shortest interval n8n accepts for
 * polling nodes); a host changes status; one execution appears holding exactly that change;
 * the trigger's state is in the workflow's static data in n8n's database; a second change
 * comes in a second execution without the first one repeated.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json')).name;
const INSTALL_TIMEOUT = 25 * 60 * 1000;

let emu;
let home;
let tgz;
let server;

async function control(p, body) {
	const res = await fetch(`${emu.url}/__emulator${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });
	return res.json();
}

/** The workflow's static data once n8n has written some (after the activation poll). */
async function staticDataOf(workflowId, timeoutMs = 60000) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const res = await server.rest('GET', `/workflows/${workflowId}`);
		expect(res.status).toBe(200);
		if (res.json.data.staticData) return res.json.data.staticData;
		if (Date.now() > until) throw new Error(`no static data after activation:\n${server.logs().slice(-3000)}`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

beforeAll(async () => {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'VendorCloudHostTrigger', 'VendorCloudHostTrigger.node.js'))) {
		throw new Error('dist/ has no Vendor Cloud Host Trigger: run "npm run build" first');
	}
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'empty' });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (server) await server.stop();
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

test(
	'an active Cloud Host Trigger workflow runs once for a host status change, with the change as its item',
	async () => {
		const web = (await control('/management/instance/hosts/add', { name: 'web-1', status: 1, nodeid: 1 })).host;
		const db = (await control('/management/instance/hosts/add', { name: 'db-1', status: 1, nodeid: 2 })).host;

		const [credId] = await n8n.importCredentials(home, [
			{ name: 'Vendor API (emulator)', type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' } },
		]);
		const workflowId = await n8n.importWorkflow(home, {
			name: 'Host goes abnormal',
			nodes: [
				{
					id: 'trigger',
					name: 'Vendor Cloud Host Trigger',
					type: `${PKG}.vendorCloudHostTrigger`,
					typeVersion: 1,
					position: [0, 0],
					parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['statusChanged', 'appeared', 'disappeared'] },
					credentials: { vendorApi: { id: credId, name: 'Vendor API (emulator)' } },
				},
				{ id: 'noop', name: 'Open Ticket', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
			],
			connections: { 'Vendor Cloud Host Trigger': { main: [[{ node: 'Open Ticket', type: 'main', index: 0 }]] } },
		});

		server = await n8n.startN8n(home);
		// activation (done in the background by n8n 2.40's publication service) runs the first
		// poll at once: the baseline, written to the workflow's static data, and no execution
		await server.activateWorkflow(workflowId);
		const stored = await staticDataOf(workflowId);
		expect(stored['node:Vendor Cloud Host Trigger'].state.hosts).toEqual({ [web.id]: [1, 1], [db.id]: [1, 2] });
		expect(await server.listExecutions({ workflowId })).toEqual([]);

		await control('/management/instance/hosts/status', { id: web.id, status: 3 });
		const [execution] = await server.waitForExecutions(workflowId, 1, { timeoutMs: 150000 });
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('trigger');
		const run = await server.getExecution(execution.id);
		const items = run.nodes['Vendor Cloud Host Trigger'].items;
		expect(items).toEqual([
			expect.objectContaining({
				event: 'statusChanged',
				hostId: web.id,
				name: 'web-1',
				previousStatus: '1',
				previousStatusName: 'Running',
				status: '3',
				statusName: 'Abnormal',
				nodeid: '1',
			}),
		]);
		expect(run.nodes['Open Ticket'].items).toHaveLength(1);

		// n8n wrote the new state with the emitted item
		const after = await server.rest('GET', `/workflows/${workflowId}`);
		expect(after.json.data.staticData['node:Vendor Cloud Host Trigger'].state.hosts[web.id]).toEqual([3, 1]);

		// the next change comes in its own execution, and the first is not repeated
		await control('/management/instance/hosts/remove', { id: db.id });
		const executions = await server.waitForExecutions(workflowId, 2, { timeoutMs: 150000 });
		expect(executions).toHaveLength(2);
		const second = await server.getExecution(executions.find((e) => e.id !== execution.id).id);
		expect(second.nodes['Vendor Cloud Host Trigger'].items).toEqual([
			expect.objectContaining({ event: 'disappeared', hostId: db.id, previousStatus: '1', previousStatusName: 'Running', status: null }),
		]);
		expect(server.logs()).not.toMatch(/The poll of "Vendor Cloud Host Trigger".*failed/);
	},
	8 * 60 * 1000,
);

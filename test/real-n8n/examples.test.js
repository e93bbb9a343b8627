'use strict';
/**
 * The example workflows of examples/ run headless in real n8n (`n8n execute`) against the
 * emulator with its demo data, and their output is checked against the emulator's own state.
 *
 * `n8n execute` starts at a Manual Trigger, so each example runs as a test variant generated here
 * from the example's JSON (never a second copy): its trigger is replaced by a Manual Trigger
 * followed by a Set node that carries the trigger's name and outputs a sample of what the trigger emits
 * (a chat message; for the Cloud Host Trigger the event its real poll code produced against the
 * emulator). Everything after the trigger is the example as shipped.
 *
 * The credentials are imported under the names the examples use but with other ids, so every
 * run also proves that the examples find their credentials by name in any n8n.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const { createEmulator } = require('../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');
const INSTALL_TIMEOUT = 25 * 60 * 1000;
const RUN_TIMEOUT = 240000;

const load = (file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));

/** The examples' credential references: { type: { id, name } } of every node. */
function credentialRefs(workflow) {
	const refs = {};
	for (const node of workflow.nodes) for (const [type, ref] of Object.entries(node.credentials || {})) refs[type] = ref;
	return refs;
}

const isTrigger = (type) => /trigger$/i.test(type.split('.').pop());

/**
 * The example with its trigger replaced: a Manual Trigger, then (with a sample) a Set node that
 * takes the trigger's name, so connections and expressions such as
 * $('When chat message received') keep working, and outputs the sample items.
 */
function testVariant(workflow, samples) {
	const wf = structuredClone(workflow);
	const trigger = wf.nodes.find((n) => isTrigger(n.type));
	if (!trigger) throw new Error(`${workflow.name} has no trigger`);
	wf.id = n8n.newId();
	wf.name = `${workflow.name} (test)`;
	const manual = { id: 'test-manual', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [trigger.position[0] - 220, trigger.position[1]], parameters: {} };
	const keep = wf.nodes.filter((n) => n !== trigger);
	if (!samples) {
		manual.name = trigger.name; // a Schedule Trigger's output is not used; the Manual Trigger takes its place
		wf.nodes = [manual, ...keep];
		return wf;
	}
	const sample =
		samples.length === 1
			? { type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'raw', jsonOutput: JSON.stringify(samples[0], null, 2), options: {} } }
			: { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: `return ${JSON.stringify(samples.map((json) => ({ json })))};` } };
	Object.assign(sample, { id: trigger.id, name: trigger.name, position: trigger.position });
	wf.nodes = [manual, sample, ...keep];
	wf.connections[manual.name] = { main: [[{ node: trigger.name, type: 'main', index: 0 }]] };
	return wf;
}

let emu;
let home;
let tgz;
const creds = {};

/** The management API, called directly as any client would (to read what the workflow did). */
let token;
async function api(p, body = {}) {
	const post = (pathname, b) =>
		fetch(`${emu.url}/API/${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	if (!token) token = (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).access_token;
	const res = await post(p, { ...body, token });
	if (res.code !== 1) throw new Error(`${p}: ${res.message}`);
	return res;
}
async function control(method, p, body) {
	const res = await fetch(`${emu.url}/__emulator${p}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: method === 'GET' ? undefined : JSON.stringify(body || {}),
	});
	return res.json();
}

/**
 * Imports test variants in one `n8n import:workflow` run (each n8n command boots n8n for
 * seconds) and returns their ids in order.
 */
async function importVariants(variants) {
	const list = variants.map((wf) => ({ ...wf, active: false, settings: wf.settings || {} }));
	const file = path.join(home.userFolder, `variants-${Date.now()}.json`);
	fs.writeFileSync(file, JSON.stringify(list));
	const res = await n8n.runN8n(home, ['import:workflow', `--input=${file}`], { timeoutMs: RUN_TIMEOUT });
	if (res.code !== 0 || !new RegExp(`Successfully imported ${list.length} workflow`).test(res.stdout + res.stderr)) {
		throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`);
	}
	return list.map((wf) => wf.id);
}

/** Test variants imported ahead (in beforeAll), by a key of the test that runs them. */
const prepared = new Map();
const chat = (chatInput) => [{ sessionId: 'examples-test', action: 'sendMessage', chatInput }];
const PLANNED = {
	report: ['balance-invoice-report.json'],
	restartBatch: ['chat-server-restart.json', chat('Hi! batch-1 stopped answering, could you restart it please?')],
	restartNone: ['chat-server-restart.json', chat('restart the server please')],
	purgeTwo: ['chat-cache-purge.json', chat('Please purge https://www.example.com/index.html and https://static.example.com/img/logo.png.')],
	purgeNone: ['chat-cache-purge.json', chat('purge the cache')],
	backup: ['nightly-dns-backup.json'],
};

/** Runs a variant (imported ahead under `key`, or now) with `n8n execute`; fails on a failed run. */
async function runVariant(workflow, samples, key) {
	const id = prepared.get(key) || (await n8n.importWorkflow(home, testVariant(workflow, samples)));
	const t0 = Date.now();
	const res = await n8n.executeWorkflow(home, id, { timeoutMs: RUN_TIMEOUT });
	process.stderr.write(`[examples] ${workflow.name}: n8n execute ${Date.now() - t0} ms\n`);
	if (res.code !== 0 || !res.result || res.result.status !== 'success') {
		const err = res.result && res.result.error;
		throw new Error(`n8n execute of "${workflow.name}" failed (exit ${res.code})${err ? `: ${err.node}: ${err.message} ${err.description || ''}` : ''}\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`);
	}
	return res.result;
}

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'demo', management: { timing: { taskDelayMs: 1500 } } });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
	// Same names as the examples' references, other ids: n8n must match them by name.
	const refs = {};
	for (const f of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) Object.assign(refs, credentialRefs(load(f)));
	const data = {
		vendorApi: { apiUrl: emu.url, username: 'demo', password: 'demo-password' },
		vendorObjectStorageApi: { endpoint: emu.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' },
	};
	const list = Object.entries(refs)
		.filter(([type]) => data[type])
		.map(([type, ref]) => ({ id: n8n.newId(), name: ref.name, type, data: data[type] }));
	expect(list.map((c) => c.id)).not.toContain(refs.vendorApi.id);
	await n8n.importCredentials(home, list);
	for (const c of list) creds[c.type] = c;
	const keys = Object.keys(PLANNED);
	const ids = await importVariants(keys.map((k) => testVariant(load(PLANNED[k][0]), PLANNED[k][1])));
	keys.forEach((k, i) => prepared.set(k, ids[i]));
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

test('every example is an importable n8n workflow using this package, credentials referenced by name', () => {
	const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort();
	// (the AI agent and MCP examples run in ai.test.js, with a model double and an MCP client)
	expect(files).toEqual(['balance-invoice-report.json', 'chat-agent-server-restart.json', 'chat-cache-purge.json', 'chat-server-restart.json', 'host-state-alert.json', 'mcp-vendor-tools.json', 'nightly-dns-backup.json']);
	const types = new Set(
		require(path.join(ROOT, 'package.json')).n8n.nodes.flatMap((f) => {
			const type = `n8n-nodes-vendor-cloud.${path.basename(f).split('.')[0].replace(/^./, (c) => c.toLowerCase())}`;
			return [type, `${type}Tool`];
		}),
	);
	const ids = new Set();
	for (const f of files) {
		const wf = load(f);
		expect(wf.id).toMatch(/^[A-Za-z0-9]{16}$/);
		expect(ids.has(wf.id)).toBe(false);
		ids.add(wf.id);
		expect(Object.keys(wf.connections).every((from) => wf.nodes.some((n) => n.name === from))).toBe(true);
		expect(wf.nodes.filter((n) => isTrigger(n.type))).toHaveLength(1);
		const vendorNodes = wf.nodes.filter((n) => n.type.startsWith('n8n-nodes-vendor-cloud.'));
		expect(vendorNodes.length).toBeGreaterThan(0);
		for (const n of vendorNodes) {
			expect(types.has(n.type)).toBe(true);
			expect(Object.values(n.credentials || {})).toEqual([expect.objectContaining({ name: expect.stringMatching(/^Vendor (API|Object Storage API) account$/) })]);
		}
	}
});

test('weekly balance and invoice report: one summary item with the balance, the payments of the period and the invoices', async () => {
	const wf = load('balance-invoice-report.json');
	const result = await runVariant(wf, undefined, 'report');
	const [summary] = result.nodes['Build Summary'].items;
	expect(result.nodes['Build Summary'].items).toHaveLength(1);

	// What the emulator says, read here directly.
	const balance = Number((await api('profile/balance')).data[0].price);
	const payments = (await api('profile/payList', { page: 1, limit: 1000 })).data;
	const invoices = (await api('profile/invoiceList', { page: 1, limit: 1000 })).data;
	const from = new Date(summary.from).getTime();
	const to = new Date(summary.to).getTime();
	const at = (s) => new Date(`${s.replace(' ', 'T')}Z`).getTime();
	const inPeriod = payments.filter((p) => at(p.created) >= from && at(p.created) <= to);
	const sum = (rows) => Math.round(rows.reduce((t, r) => t + Number(r.price), 0) * 100) / 100;
	const spending = inPeriod.filter((p) => p.type_zh === 'Consumption');

	expect(summary.periodDays).toBe(30);
	expect(to - from).toBe(30 * 86400000);
	expect(summary.balance).toBe(balance);
	expect(balance).toBeGreaterThan(0);
	// the demo history has payments inside and outside the 30 days
	expect(inPeriod.length).toBeGreaterThan(0);
	expect(inPeriod.length).toBeLessThan(payments.length);
	expect(summary.payments.map((p) => p.name).sort()).toEqual(inPeriod.map((p) => p.name).sort());
	expect(summary.spent).toBe(sum(spending));
	expect(summary.refunded).toBe(sum(inPeriod.filter((p) => p.type_zh === 'Refund')));
	expect(Object.values(summary.spentByService).reduce((a, b) => a + b, 0)).toBeCloseTo(summary.spent, 2);
	expect(summary.invoices.count).toBe(invoices.length);
	expect(summary.invoices.amount).toBe(sum(invoices));
	expect(summary.invoices.list.map((i) => i.id).sort()).toEqual(invoices.map((i) => i.id).sort());
	expect(summary.text).toContain(`Balance: ${balance.toFixed(2)}.`);
	expect(summary.text).toContain(`spent ${sum(spending).toFixed(2)} in ${spending.length} payment(s)`);
}, 300000);

describe('restart a server from chat', () => {
	const wf = load('chat-server-restart.json');
	const hostNamed = async (name) => (await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === name);

	test('a message naming a stopped host reboots it, waits until it runs and answers', async () => {
		const before = await hostNamed('batch-1');
		expect(before.status).toBe('2'); // the demo's stopped host
		const result = await runVariant(wf, PLANNED.restartBatch[1], 'restartBatch');

		expect(result.nodes['Match Host'].items).toEqual([expect.objectContaining({ found: true, name: 'batch-1', id: before.id })]);
		const [rebooted] = result.nodes['Reboot and Wait'].items;
		expect(rebooted).toMatchObject({ id: before.id, name: 'batch-1', status: '1' });
		expect(result.nodes['Answer'].items).toEqual([{ output: `Done: batch-1 (${before.instance_id}) was rebooted and is running again.` }]);
		expect(result.nodes['Ask Which Host']).toBeUndefined();
		expect(result.lastNode).toBe('Answer');
		// the emulator agrees
		expect((await hostNamed('batch-1')).status).toBe('1');
	}, 300000);

	test('a message naming no host reboots nothing and asks which host', async () => {
		const hosts = (await api('instance/list', { page: 1, limit: 100 })).data;
		const result = await runVariant(wf, PLANNED.restartNone[1], 'restartNone');
		expect(result.nodes['Reboot and Wait']).toBeUndefined();
		const [answer] = result.nodes['Ask Which Host'].items;
		expect(answer.output).toMatch(/^I could not tell which host to restart\. Name one of: /);
		for (const h of hosts) expect(answer.output).toContain(h.name);
		expect(result.lastNode).toBe('Ask Which Host');
	}, 300000);
});

describe('purge CDN cache from chat', () => {
	const wf = load('chat-cache-purge.json');

	test('the URLs of the message are refreshed on the CDN and the answer comes when the task succeeded', async () => {
		const urls = ['https://www.example.com/index.html', 'https://static.example.com/img/logo.png'];
		const t0 = Date.now();
		expect(PLANNED.purgeTwo[1][0].chatInput).toBe(`Please purge ${urls[0]} and ${urls[1]}.`);
		const result = await runVariant(wf, PLANNED.purgeTwo[1], 'purgeTwo');

		expect(result.nodes['Extract URLs'].items).toEqual([expect.objectContaining({ urls, count: 2 })]);
		const [task] = result.nodes['Refresh and Wait'].items;
		expect(task.outcome).toBe('success'); // the wait's result; the task's own status stays as the service sent it
		expect(task.id).toMatch(/^\d+$/);
		expect(result.nodes['Answer'].items).toEqual([{ output: `Purged 2 URL(s) on the CDN (task ${task.id}: success): ${urls.join(', ')}` }]);
		// the emulator holds the task with these URLs, finished, and reports it successful
		const status = await api('cdn/refreshStatus', { id: Number(task.id) });
		expect(JSON.stringify(status.data)).toContain(`"${task.id}":"success"`);
		const list = (await api('cdn/refreshList', { page: 1, limit: 100 })).data;
		expect(list.find((t) => t.id === task.id)).toMatchObject({ urls, status: '1' });
		// the emulator keeps a task processing for 1.5 s: the workflow waited for it
		expect(Date.now() - t0).toBeGreaterThan(1500);
	}, 300000);

	test('a message without URLs asks for them', async () => {
		const result = await runVariant(wf, PLANNED.purgeNone[1], 'purgeNone');
		expect(result.nodes['Refresh and Wait']).toBeUndefined();
		expect(result.nodes['Ask for URLs'].items[0].output).toMatch(/^Send me the full URLs/);
	}, 300000);
});

test('alert on an abnormal host: the Cloud Host Trigger event becomes one alert message', async () => {
	const wf = load('host-state-alert.json');
	const triggerNode = wf.nodes.find((n) => isTrigger(n.type));
	// The trigger's own poll code (built package, n8n-core's PollContext) against the emulator:
	// a baseline poll, then a host turns abnormal, then the poll that reports it.
	const harness = require('../harness/n8n');
	const c = harness.contextFor(triggerNode.type.split('.').pop(), triggerNode.parameters, { vendorApi: creds.vendorApi.data });
	const poll = () => c.nodeType.poll.call(new harness.PollContext(c.workflow, c.node, c.additionalData, 'trigger', 'trigger'));
	expect(await poll()).toBeNull();
	const web = (await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === 'web-1');
	expect(web.status).toBe('1');
	await control('POST', '/management/instance/hosts/status', { id: Number(web.id), status: 3, suspend_note: 'disk I/O errors' });
	const emitted = await poll();
	expect(emitted).not.toBeNull();
	const events = emitted[0].map((i) => i.json);
	expect(events).toEqual([expect.objectContaining({ event: 'statusChanged', hostId: web.id, name: 'web-1', statusName: 'Abnormal', previousStatusName: 'Running' })]);

	const result = await runVariant(wf, events);
	expect(result.nodes['Alert Message'].items).toEqual([
		expect.objectContaining({
			severity: 'critical',
			hostId: web.id,
			host: 'web-1',
			text: `Host web-1 (${web.instance_id}) in ${web.node_zh} is Abnormal (it was running): disk I/O errors. Seen at ${events[0].seenAt}.`,
		}),
	]);
	await control('POST', '/management/instance/hosts/status', { id: Number(web.id), status: 1 });
}, 300000);

test('nightly DNS backup: a date-stamped JSON file in the bucket and a presigned link that downloads it', async () => {
	const wf = load('nightly-dns-backup.json');
	const result = await runVariant(wf, undefined, 'backup');
	const today = new Date().toISOString().slice(0, 10);
	const key = `backups/dns/dns-backup-${today}.json`;

	const [summary] = result.nodes['Backup Summary'].items;
	expect(summary).toMatchObject({ bucket: 'demo-bucket', key, link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/demo-bucket\/backups\/dns\//) });
	expect(new Date(summary.linkExpiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86400000);

	// the object is in the bucket, with the size the upload reported
	const listing = await control('GET', `/storage/objects?bucket=demo-bucket`);
	const stored = listing.objects.find((o) => o.key === key);
	expect(stored).toBeDefined();
	expect(Number(stored.size)).toBe(summary.size);

	// the presigned link downloads it, and it holds every domain with all of its records
	const res = await fetch(summary.link);
	expect(res.status).toBe(200);
	const backup = JSON.parse(await res.text());
	expect(Buffer.byteLength(JSON.stringify(backup, null, 2))).toBeGreaterThan(0);
	const domains = (await api('dns/domainList', { page: 1, limit: 100 })).data;
	expect(backup.domains.map((d) => d.name).sort()).toEqual(domains.map((d) => d.name).sort());
	const demo = backup.domains.find((d) => d.name === 'example-demo.com');
	const records = (await api('dns/recordList', { did: Number(demo.id), page: 1, limit: 1000 })).data;
	expect(demo.records.map((r) => r.id).sort()).toEqual(records.map((r) => r.id).sort());
	expect(demo.records.map((r) => `${r.subdomain} ${r.recordtype} ${r.value}`)).toContain('@ MX mail.example-demo.com');
	expect(summary).toMatchObject({ domains: domains.length, records: backup.recordCount });
	// a link with a changed signature is refused: the link is what grants access
	const forged = summary.link.replace(/Signature=[^&]+/, 'Signature=AAAA');
	expect((await fetch(forged)).status).toBe(403);
}, 300000);

'use strict';
/**
 * The package in n8n's queue mode (issue 13): PostgreSQL and Redis from Debian's packages
 * (scripts/queue-services.js), one main instance of n8n 2.40.7 (EXECUTIONS_MODE=queue: editor,
 * REST API, webhooks, triggers) and two `n8n worker` processes, each with the packed package
 * installed the user's way; the emulator as the vendor. One layout for the whole file.
 *
 * Executions are started the way production starts them in queue mode: through the main's
 * production webhooks (the main enqueues, a worker runs, the main answers) and by a polling
 * trigger active on the main; never `n8n execute`, which bypasses the queue. Which worker ran an
 * execution is read from the workers' own log ("Worker started execution <id>").
 *
 *  - the five example workflows run to success on the workers, checked against the emulator
 *    with the checks of examples.test.js (examples-lib.js); the host alert runs as shipped, its
 *    Cloud Host Trigger active on the main
 *  - the Cloud Host Trigger over 12 polls with a change before each: every change emitted once,
 *    every execution on a worker
 *  - tokens: revoked, then 24 executions at once across both workers, each calling the
 *    management API: all succeed, the log-ins are counted; then the token soak (issue 39,
 *    token-soak.js) under the emulator dialect where every log-in ends the earlier tokens: 204
 *    executions in bursts of 24-48, each after a revocation, every other one with an outside
 *    log-in of the account while it runs, the machine loaded by CPU burners: none may fail
 *  - object storage: 256 MiB downloaded and uploaded again through a worker, in n8n's queue-mode
 *    default binary data mode (database) and in the filesystem mode docs/self-hosting.md recommends,
 *    with the worker's peak RSS growth and the copy's MD5
 *  - a worker killed (SIGKILL) during a multipart upload: what n8n does with the execution, the
 *    next run, the orphaned upload and its cleanup with the package's own operations
 *
 * Skipped, with the reason printed, only where PostgreSQL or Redis are missing and apt-get cannot
 * install them (no apt-get, not root). Figures are printed as "[queue] ..." lines and summed up
 * at the end.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const n8n = require('./lib');
const q = require('./queue-lib');
const objects = require('./objects-lib');
const ex = require('./examples-lib');
const soak = require('./token-soak');
const queueServices = require('../../scripts/queue-services');
const { createEmulator } = require('../../emulator');
const { spawnEmulator } = require('../../emulator/spawn');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json')).name;
const MiB = 1024 * 1024;
const SETUP_TIMEOUT = 25 * 60 * 1000;
const TASK_DELAY_MS = 1500;
const WORKERS = 2;
/** Executions started at once in the token tests (at least 20, across both workers). */
const AT_ONCE = 24;
/** The token soak's bursts (executions started at once): at least 200 in all, 24-48 each. */
const SOAK_BURSTS = [24, 48, 32, 40, 24, 36];
/** Host changes the trigger must see, one before each poll. */
const TRIGGER_CHANGES = 12;
/** Polls without a change after the last one, in which nothing more may be emitted. */
const QUIET_POLLS = 3;

const availability = queueServices.availability();
if (!availability.ok) process.stderr.write(`[queue] queue-mode tests skipped: ${availability.reason}\n`);
const describeQueue = availability.ok ? describe : describe.skip;

const figures = {};
const say = (line) => process.stderr.write(`[queue] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { mib, STORAGE_KEY } = objects;

async function until(what, check, { timeoutMs = 60000, everyMs = 250 } = {}) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(everyMs);
	}
}

let suiteStarted;
let dir;
let emu; // the vendor of the examples and the tokens (in this process, for its task timing)
let trig; // a second emulator that only the trigger workflow polls (its request counts are the polls)
let big; // the vendor of the large transfers, in its own process with its bodies on disk
let client; // emu as any client sees it: api(), control()
let tgz;
let layout;
const ids = {};
const creds = {};
let triggerRun; // the background driver of the trigger test: Promise of its record
let alertPrepared; // { web } once the host alert's baseline is taken and web-1 turned abnormal

/* ---------------- object storage from the test's side (objects-lib.js) ---------------- */

const BUCKET = 'queue-large';
const store = () => objects.objectStore(big.url, BUCKET);
const putObject = (key, size) => store().put(key, size);
const objectMd5 = (key) => store().md5(key);

/* ---------------- the workflows ---------------- */

const { webhookNode } = n8n;
const chain = (...names) => {
	const c = {};
	for (let i = 0; i + 1 < names.length; i++) c[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return c;
};
const body = (field) => `={{ $('Webhook').first().json.body.${field} }}`;
const bucketOf = (field) => ({ __rl: true, mode: 'name', value: body(field) });

function workflows() {
	const list = [];
	const add = (key, wf) => {
		wf.id = wf.id || n8n.newId();
		ids[key] = wf.id;
		list.push(wf);
	};
	// the examples: trigger replaced by a production webhook (+ the sample), the rest as shipped
	for (const [key, [file, samples]] of Object.entries(ex.PLANNED)) add(key, ex.testVariant(ex.load(file), samples, { start: 'webhook', webhookPath: `example-${key}` }));
	// the host alert as shipped: its Cloud Host Trigger polls from the main every minute
	add('alert', ex.load('host-state-alert.json'));
	const apiCred = (name) => ({ vendorApi: { id: creds[name].id, name: creds[name].name } });
	const ossCred = { vendorObjectStorageApi: { id: creds.large.id, name: creds.large.name } };
	add('tokens', {
		name: 'Queue: account details',
		nodes: [
			webhookNode('queue-tokens'),
			{ id: 'acct', name: 'Get Account', type: `${PKG}.vendorAccountBilling`, typeVersion: 1, position: [220, 0], parameters: { resource: 'account', operation: 'get' }, credentials: apiCred('tokens') },
		],
		connections: chain('Webhook', 'Get Account'),
	});
	// the token soak's: the same call, the webhook answered as soon as the execution is queued, so
	// what is judged is the executions (n8n's main waiting on each queued run to answer 48 webhook
	// calls at once is n8n's concern, not the tokens')
	add('soak', {
		name: 'Queue: token soak',
		nodes: [
			{ ...webhookNode('queue-token-soak'), parameters: { httpMethod: 'POST', path: 'queue-token-soak', responseMode: 'onReceived', options: {} } },
			{ id: 'acct', name: 'Get Account', type: `${PKG}.vendorAccountBilling`, typeVersion: 1, position: [220, 0], parameters: { resource: 'account', operation: 'get' }, credentials: apiCred('tokens') },
		],
		connections: chain('Webhook', 'Get Account'),
	});
	add('transfer', {
		name: 'Queue: download and upload again',
		nodes: [
			webhookNode('queue-transfer', 'firstEntryJson'),
			{ id: 'down', name: 'Download', type: `${PKG}.vendorObjectStorage`, typeVersion: 1, position: [220, 0], parameters: { resource: 'object', operation: 'download', bucket: bucketOf('bucket'), key: body('key') }, credentials: ossCred },
			{
				id: 'up',
				name: 'Upload',
				type: `${PKG}.vendorObjectStorage`,
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'object',
					operation: 'upload',
					bucket: bucketOf('bucket'),
					key: body('target'),
					binaryData: true,
					binaryPropertyName: 'data',
					// parts, not one PUT: the worker's part buffers and a kill during a multipart upload are what these tests watch
					options: {
						multipartThreshold: 16,
						partSize: `={{ $('Webhook').first().json.body.partSize || 8 }}`,
						concurrency: `={{ $('Webhook').first().json.body.concurrency || 4 }}`,
					},
				},
				credentials: ossCred,
			},
		],
		connections: chain('Webhook', 'Download', 'Upload'),
	});
	// the cleanup the README names for an upload cut off by a killed worker: List Parts, then Abort
	add('cleanup', {
		name: 'Queue: abort an unfinished multipart upload',
		nodes: [
			webhookNode('queue-abort-upload'),
			{
				id: 'parts',
				name: 'List Parts',
				type: `${PKG}.vendorObjectStorage`,
				typeVersion: 1,
				position: [220, 0],
				alwaysOutputData: true,
				parameters: { resource: 'multipartUpload', operation: 'listParts', bucket: bucketOf('bucket'), key: body('key'), uploadId: body('uploadId'), returnAll: true },
				credentials: ossCred,
			},
			{
				id: 'abort',
				name: 'Abort',
				type: `${PKG}.vendorObjectStorage`,
				typeVersion: 1,
				position: [440, 0],
				executeOnce: true,
				parameters: { resource: 'multipartUpload', operation: 'abort', bucket: bucketOf('bucket'), key: body('key'), uploadId: body('uploadId') },
				credentials: ossCred,
			},
		],
		connections: chain('Webhook', 'List Parts', 'Abort'),
	});
	// n8n accepts no poll interval under a minute, but a node may have several poll times: six
	// crons at fixed seconds poll every 10 s (a configuration the editor offers)
	add('trigger', {
		name: 'Queue: host changes',
		nodes: [
			{
				id: 'trigger',
				name: 'Host Trigger',
				type: `${PKG}.vendorCloudHostTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [0, 10, 20, 30, 40, 50].map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })) },
					events: ['statusChanged', 'appeared', 'disappeared'],
				},
				credentials: apiCred('trigger'),
			},
			{ id: 'noop', name: 'Record', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: chain('Host Trigger', 'Record'),
	});
	return list;
}

/* ---------------- helpers on the running layout ---------------- */

/** The workflow's static data once n8n has written it (after the activation poll). */
async function staticDataOf(workflowId, timeoutMs = 90000) {
	return await until(
		`the static data of ${workflowId}`,
		async () => {
			const res = await layout.main.rest('GET', `/workflows/${workflowId}`);
			return res.status === 200 && res.json.data.staticData;
		},
		{ timeoutMs, everyMs: 500 },
	);
}

const executionIds = async (workflowId) => new Set((await layout.main.listExecutions({ workflowId, limit: 1000 })).map((e) => e.id));

/** Waits until `count` executions of the workflow that are not in `before` have ended; returns them. */
async function newExecutions(workflowId, before, count, timeoutMs = 120000) {
	return await until(
		`${count} new execution(s) of ${workflowId} to end`,
		async () => {
			const list = (await layout.main.listExecutions({ workflowId, limit: 1000 })).filter((e) => !before.has(e.id));
			const ended = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
			return ended.length >= count ? ended : null;
		},
		{ timeoutMs, everyMs: 500 },
	);
}

/** Starts workflow `key` through its webhook, waits for the run and reads it back from the main. */
async function runViaWebhook(key, webhookPath, payload = {}) {
	const workflowId = ids[key];
	const before = await executionIds(workflowId);
	const t0 = Date.now();
	const res = await layout.webhook(webhookPath, payload);
	const ms = Date.now() - t0;
	const [execution] = await newExecutions(workflowId, before, 1);
	const result = await layout.main.getExecution(execution.id);
	const worker = layout.workerOf(execution.id);
	say(`${key}: webhook ${res.status} after ${ms} ms, execution ${execution.id} ${execution.status} (mode ${execution.mode}) on ${worker || 'no worker'}`);
	return { res, ms, execution, result, worker };
}

const WORKER_NAMES = Array.from({ length: WORKERS }, (_, i) => `worker-${i + 1}`);

function expectRanOnWorker(run) {
	if (run.result.status !== 'success') throw new Error(`execution ${run.execution.id} ended ${run.result.status}: ${JSON.stringify(run.result.error)}`);
	expect(run.result.status).toBe('success');
	expect(WORKER_NAMES).toContain(run.worker);
}

/** Samples the RSS of the workers and the main every 100 ms until stop() (objects-lib.js). */
const sampleRss = () => objects.sampleRss([...layout.workers.map((w) => ({ name: w.name, pid: w.pid })), { name: 'main', pid: layout.main.pid }]);

const emulatorGet = async (target, route) => (await fetch(`${target.url}/__emulator${route}`)).json();
const emulatorPost = async (target, route, payload) =>
	(await fetch(`${target.url}/__emulator${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload || {}) })).json();

/** The emulator's counters (GET /__emulator/stats). */
async function stats(target) {
	const res = await fetch(`${target.url}/__emulator/stats`);
	if (res.status !== 200) throw new Error(`the emulator has no counters (GET /__emulator/stats answered ${res.status})`);
	return res.json();
}

/* ---------------- the trigger driver (runs in the background from beforeAll) ---------------- */

const pollCount = async () => (await stats(trig)).management.requests['instance/list'] || 0;

/**
 * Waits for the activation poll (the baseline), then TRIGGER_CHANGES times: waits for the next
 * poll to reach the trigger's emulator and changes one host's status (four hosts in turn, so
 * changes between two polls never cancel out); then QUIET_POLLS polls without a change.
 */
async function driveTrigger(hosts) {
	const t0 = Date.now();
	await staticDataOf(ids.trigger);
	const first = await pollCount();
	let seen = first;
	const nextPoll = async () => {
		seen = await until('the next poll of the Cloud Host Trigger', async () => {
			const n = await pollCount();
			return n > seen ? n : 0;
		}, { timeoutMs: 90000, everyMs: 100 });
	};
	const changes = [];
	while (changes.length < TRIGGER_CHANGES) {
		await nextPoll();
		const h = hosts[changes.length % hosts.length];
		const to = h.status === 1 ? 2 : 1;
		await emulatorPost(trig, '/management/instance/hosts/status', { id: h.id, status: to });
		changes.push({ hostId: String(h.id), previousStatus: String(h.status), status: String(to), at: Date.now() });
		h.status = to;
	}
	for (let i = 0; i < QUIET_POLLS; i++) await nextPoll();
	return { changes, polls: seen - first, ms: Date.now() - t0 };
}

/* ---------------- setup ---------------- */

beforeAll(async () => {
	if (!availability.ok) return;
	suiteStarted = Date.now();
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'VendorCloudHostTrigger', 'VendorCloudHostTrigger.node.js'))) {
		throw new Error('dist/ is missing: run "npm run build" first');
	}
	await n8n.ensureRuntime({ quiet: false });
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-test-'));
	emu = await createEmulator({ seed: 'demo', management: { timing: { taskDelayMs: TASK_DELAY_MS } } });
	trig = await createEmulator({ seed: 'empty' });
	big = await spawnEmulator(['--data', path.join(dir, 'big-emulator')]);
	await big.control('POST', '/storage/buckets', { name: BUCKET });
	client = ex.emulatorClient(emu.url);
	await stats(emu); // fails early when the emulator lacks its counters

	// the accounts: the examples' demo account, one for the token tests, four hosts for the trigger
	await emulatorPost(emu, '/management/accounts', { username: 'queue-tokens', password: 'Tokens-pass-1', mail: 'tokens@example.com' });
	const trigHosts = [];
	for (let i = 1; i <= 4; i++) {
		const { host } = await emulatorPost(trig, '/management/instance/hosts/add', { name: `queue-${i}`, status: 1, nodeid: 1 });
		trigHosts.push({ id: Number(host.id), status: 1 });
	}

	// credentials: the examples' names with other ids (n8n must match them by name), and two more
	const refs = {};
	for (const f of ex.exampleFiles()) Object.assign(refs, ex.credentialRefs(ex.load(f)));
	creds.api = { id: n8n.newId(), name: refs.vendorApi.name, type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' } };
	creds.oss = { id: n8n.newId(), name: refs.vendorObjectStorageApi.name, type: 'vendorObjectStorageApi', data: { endpoint: emu.url, accessKey: STORAGE_KEY.accessKey, accessSecret: STORAGE_KEY.secret } };
	creds.large = { id: n8n.newId(), name: 'Vendor Object Storage (large objects)', type: 'vendorObjectStorageApi', data: { endpoint: big.url, accessKey: STORAGE_KEY.accessKey, accessSecret: STORAGE_KEY.secret } };
	creds.tokens = { id: n8n.newId(), name: 'Vendor API (queue tokens)', type: 'vendorApi', data: { apiUrl: emu.url, username: 'queue-tokens', password: 'Tokens-pass-1' } };
	creds.trigger = { id: n8n.newId(), name: 'Vendor API (trigger emulator)', type: 'vendorApi', data: { apiUrl: trig.url, username: 'demo', password: 'demo-password' } };

	tgz = n8n.packPackage(ROOT);
	layout = await q.startQueueLayout({
		tgz,
		workers: WORKERS,
		// a killed worker's job is noticed within about 40 s instead of 60-90 s (n8n's defaults:
		// lock 60 s, renewed every 10 s, stalled-job check every 30 s). n8n 2.40.7 pings its database
		// every 2 s and, after one ping slower than 5 s, answers every request (webhooks too) with 503
		// "Database is not ready!" until a ping succeeds; on this machine loaded on purpose (the token
		// soak's 48 executions at once and CPU burners) a ping waits that long for one of the main's 2
		// pooled connections: 23 of 48 webhook calls of a soak burst were refused so. 30 s instead.
		env: { QUEUE_WORKER_LOCK_DURATION: '30000', QUEUE_WORKER_LOCK_RENEW_TIME: '5000', QUEUE_WORKER_STALLED_INTERVAL: '10000', DB_PING_TIMEOUT_MS: '30000' },
		log: say,
		beforeStart: async (l) => {
			await l.importCredentials(Object.values(creds));
			await l.importWorkflows(workflows());
		},
	});
	figures.layoutStartMs = Date.now() - suiteStarted;
	say(`layout ready after ${figures.layoutStartMs} ms: ${JSON.stringify(layout.timings)}`);

	for (const id of Object.values(ids)) await layout.main.activateWorkflow(id);
	triggerRun = driveTrigger(trigHosts);
	triggerRun.catch(() => {}); // awaited by its test
	// the host alert: its activation poll takes the baseline, then web-1 turns abnormal
	alertPrepared = (async () => {
		await staticDataOf(ids.alert);
		const web = await ex.hostNamed(client.api, 'web-1');
		expect(web.status).toBe('1');
		await client.control('POST', '/management/instance/hosts/status', { id: Number(web.id), status: 3, suspend_note: 'disk I/O errors' });
		return { web, changedAt: Date.now() };
	})();
	alertPrepared.catch(() => {});
}, SETUP_TIMEOUT);

afterAll(async () => {
	if (!availability.ok) return;
	if (layout) await layout.stop();
	if (emu) await emu.close();
	if (trig) await trig.close();
	if (big) await big.close();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
	figures.suiteMs = Date.now() - suiteStarted;
	say('figures:');
	for (const [k, v] of Object.entries(figures)) say(`  ${k}: ${JSON.stringify(v)}`);
	say(`suite took ${(figures.suiteMs / 1000).toFixed(0)} s`);
}, 120000);

/* ---------------- the tests ---------------- */

describeQueue('queue mode: PostgreSQL, Redis, one main and two workers', () => {
	describe('the example workflows run to success on the workers', () => {
		test('weekly balance and invoice report', async () => {
			const run = await runViaWebhook('report', 'example-report');
			expectRanOnWorker(run);
			await ex.checks.report(run.result, client);
		}, 300000);

		test('restart a server from chat: a stopped host is rebooted and the answer comes when it runs', async () => {
			const before = await ex.checks.beforeRestartBatch(client);
			const run = await runViaWebhook('restartBatch', 'example-restartBatch');
			expectRanOnWorker(run);
			await ex.checks.restartBatch(run.result, client, before);
			// the main answered the webhook with the workflow's last item, from the worker's run
			expect(run.res.json).toEqual(run.result.nodes['Answer'].items);
		}, 300000);

		test('restart a server from chat: no host named, none rebooted, the answer asks', async () => {
			const run = await runViaWebhook('restartNone', 'example-restartNone');
			expectRanOnWorker(run);
			await ex.checks.restartNone(run.result, client);
		}, 300000);

		test('purge CDN cache from chat: the refresh is submitted and the answer waits until it succeeded', async () => {
			const run = await runViaWebhook('purgeTwo', 'example-purgeTwo');
			expectRanOnWorker(run);
			await ex.checks.purgeTwo(run.result, client, { waitedMs: run.ms, taskDelayMs: TASK_DELAY_MS });
		}, 300000);

		test('purge CDN cache from chat: no URLs, the answer asks for them', async () => {
			const run = await runViaWebhook('purgeNone', 'example-purgeNone');
			expectRanOnWorker(run);
			ex.checks.purgeNone(run.result);
		}, 300000);

		test('nightly DNS backup: the file is in the bucket and its presigned link downloads it', async () => {
			const run = await runViaWebhook('backup', 'example-backup');
			expectRanOnWorker(run);
			await ex.checks.backup(run.result, client);
		}, 300000);

		test('alert on an abnormal host, as shipped: the trigger polls on the main, the alert runs on a worker', async () => {
			const { web, changedAt } = await alertPrepared;
			// polls every minute: the execution comes within about a minute of the change
			const [execution] = await layout.main.waitForExecutions(ids.alert, 1, { timeoutMs: 180000 });
			say(`alert: execution ${execution.id} ${execution.status} (mode ${execution.mode}) on ${layout.workerOf(execution.id)}, ${Date.now() - changedAt} ms after the change`);
			expect(execution.mode).toBe('trigger');
			const result = await layout.main.getExecution(execution.id);
			expectRanOnWorker({ result, execution, worker: layout.workerOf(execution.id) });
			const events = result.nodes['Host Became Abnormal'].items;
			expect(events).toEqual([expect.objectContaining({ event: 'statusChanged', hostId: web.id, name: 'web-1', statusName: 'Abnormal', previousStatusName: 'Running' })]);
			ex.checks.alert(result, { web, note: 'disk I/O errors', seenAt: events[0].seenAt });
			await client.control('POST', '/management/instance/hosts/status', { id: Number(web.id), status: 1 });
		}, 300000);
	});

	describe('tokens shared by executions on two workers', () => {
		/** Runs executions until both workers have used the credential's token (it is then stored and valid). */
		async function warmUp() {
			const used = new Set();
			for (let round = 0; round < 5 && used.size < WORKERS; round++) {
				const before = await executionIds(ids.tokens);
				const answers = await Promise.all(Array.from({ length: 2 * WORKERS }, () => layout.webhook('queue-tokens', {})));
				for (const a of answers) expect(a.status).toBe(200);
				for (const e of await newExecutions(ids.tokens, before, answers.length)) used.add(layout.workerOf(e.id));
			}
			expect([...used].sort()).toEqual(WORKER_NAMES);
		}

		/**
		 * With a valid token in use on both workers: revokes the account's tokens, then starts
		 * AT_ONCE executions at once (each calls profile/detail with the revoked token) and counts
		 * the log-ins.
		 */
		async function burst(label, target) {
			await warmUp();
			await emulatorPost(emu, '/management/tokens/revoke', { username: 'queue-tokens' });
			await emulatorPost(emu, '/stats/reset');
			const before = await executionIds(ids.tokens);
			const t0 = Date.now();
			const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => layout.webhook('queue-tokens', {})));
			const ms = Date.now() - t0;
			const s = await stats(emu);
			const runs = await newExecutions(ids.tokens, before, AT_ONCE);
			const byWorker = {};
			for (const e of runs) {
				const w = layout.workerOf(e.id) || 'none';
				byWorker[w] = (byWorker[w] || 0) + 1;
			}
			const failed = runs.filter((e) => e.status !== 'success');
			const firstError = failed.length ? (await layout.main.getExecution(failed[0].id)).error : undefined;
			const logins = s.management.loginsByUser['queue-tokens'] || 0;
			figures[label] = { executions: runs.length, failed: failed.length, byWorker, logins, loginRequests: s.management.logins, ms };
			say(
				`${label}: ${runs.length} executions at once (${JSON.stringify(byWorker)}) in ${ms} ms, ${failed.length} failed${firstError ? ` (${firstError.node}: ${firstError.message})` : ''}; ` +
					`log-ins of the account: ${logins} (OAuth/authorize requests: ${s.management.logins}); ${target}`,
			);
			expect(runs).toHaveLength(AT_ONCE);
			// the burst ran on both workers
			expect(Object.keys(byWorker).sort()).toEqual(WORKER_NAMES);
			// every execution succeeded, and its answer is the account
			expect(failed.map((e) => `${e.id} ${e.status}`)).toEqual([]);
			for (const a of answers) {
				expect(a.status).toBe(200);
				// (simplified: the account's `name` is shown as `username`)
				expect(a.json).toEqual([expect.objectContaining({ username: 'queue-tokens' })]);
			}
			return { logins, runs };
		}

		test(`revoked token, ${AT_ONCE} executions at once across both workers: all succeed, at most one log-in per worker`, async () => {
			const { logins } = await burst('tokensRevoked', `target: at most ${WORKERS} (one per worker)`);
			expect(logins).toBeGreaterThanOrEqual(1);
			expect(logins).toBeLessThanOrEqual(WORKERS);
		}, 300000);

		/** A burst that did not end: its executions, what each process logged of them, the logs kept. */
		async function diagnoseSoak(before) {
			const list = (await layout.main.listExecutions({ workflowId: ids.soak, limit: 1000 })).filter((e) => !before.has(e.id));
			const open = list.filter((e) => e.status !== 'success');
			say(`soak diagnosis: ${list.length} executions of the burst listed, not successful: ${JSON.stringify(open.map((e) => [e.id, e.status, layout.workerOf(e.id) || 'no worker']))}`);
			for (const e of open.slice(0, 5)) {
				for (const p of [{ name: 'main', logs: layout.main.logs }, ...layout.workers]) {
					const lines = p.logs().split('\n').filter((l) => new RegExp(`\\b${e.id}\\b`).test(l));
					if (lines.length) say(`  ${p.name} on execution ${e.id}:\n    ${lines.slice(-12).join('\n    ')}`);
				}
			}
			const kept = path.join(ROOT, 'test-results', `queue-soak-logs-${Date.now()}`);
			fs.cpSync(path.join(layout.dir, 'logs'), kept, { recursive: true });
			say(`  the processes' logs are kept in ${kept}`);
		}

		test(`token soak: ${SOAK_BURSTS.reduce((a, b) => a + b, 0)} executions in bursts of ${Math.min(...SOAK_BURSTS)}-${Math.max(...SOAK_BURSTS)} on a loaded machine, every log-in ending the earlier tokens: none fails`, async () => {
			const bursts = await soak.run({
				sizes: SOAK_BURSTS,
				emulatorUrl: emu.url,
				username: 'queue-tokens',
				password: 'Tokens-pass-1',
				start: () => layout.webhook('queue-token-soak', {}),
				server: layout.main,
				workflowId: ids.soak,
				workerOf: layout.workerOf,
				diagnose: diagnoseSoak,
				say,
			});
			figures.tokenSoak = bursts.map(({ size, outside, failed, logins, ms, byWorker, load }) => ({ size, outside, failed, logins, ms, byWorker, load }));
			expect(bursts.map((b) => b.executions)).toEqual(SOAK_BURSTS);
			expect(bursts.map((b) => b.firstError || b.failed)).toEqual(SOAK_BURSTS.map(() => 0));
			expect(bursts.map((b) => b.answers)).toEqual(SOAK_BURSTS);
			// both workers took part
			expect([...new Set(bursts.flatMap((b) => Object.keys(b.byWorker)))].sort()).toEqual(WORKER_NAMES);
			// no storm of log-ins: a storm is one per execution
			for (const b of bursts) expect(b.logins).toBeLessThan(b.size / 2);
		}, 15 * 60 * 1000);
	});

	test(`the Cloud Host Trigger, active on the main: ${TRIGGER_CHANGES} polls with a change each, every change emitted exactly once, on the workers`, async () => {
		const drive = await triggerRun;
		// every emitted execution has finished
		const finished = await until(
			'the executions of the emitted changes',
			async () => {
				const list = (await layout.main.listExecutions({ workflowId: ids.trigger, limit: 200 })).filter((e) => !['new', 'running', 'waiting'].includes(e.status));
				const all = await layout.main.listExecutions({ workflowId: ids.trigger, limit: 200 });
				return list.length === all.length && list.length > 0 ? list : null;
			},
			{ timeoutMs: 120000, everyMs: 1000 },
		);
		await layout.main.deactivateWorkflow(ids.trigger);
		const emitted = [];
		const workers = {};
		for (const e of [...finished].sort((a, b) => Number(a.id) - Number(b.id))) {
			expect(e.mode).toBe('trigger');
			const result = await layout.main.getExecution(e.id);
			const worker = layout.workerOf(e.id);
			expectRanOnWorker({ result, execution: e, worker });
			workers[worker] = (workers[worker] || 0) + 1;
			for (const item of result.nodes['Host Trigger'].items) {
				expect(item.event).toBe('statusChanged');
				emitted.push(`${item.hostId}: ${item.previousStatus} -> ${item.status}`);
			}
		}
		const expected = drive.changes.map((c) => `${c.hostId}: ${c.previousStatus} -> ${c.status}`);
		figures.trigger = { polls: drive.polls, changes: drive.changes.length, emitted: emitted.length, executions: finished.length, byWorker: workers, ms: drive.ms };
		say(`trigger: ${drive.polls} polls, ${drive.changes.length} changes, ${emitted.length} emitted in ${finished.length} executions (${JSON.stringify(workers)}), ${drive.ms} ms`);
		expect(drive.polls).toBeGreaterThanOrEqual(TRIGGER_CHANGES + QUIET_POLLS);
		// each change exactly once: nothing missing, nothing twice
		expect([...emitted].sort()).toEqual([...expected].sort());
		expect(layout.main.logs()).not.toMatch(/The poll of "Host Trigger".*failed/);
	}, 600000);

	describe('object storage: 256 MiB downloaded and uploaded again through a worker', () => {
		const SIZE = 256 * MiB;
		let sourceMd5;

		beforeAll(async () => {
			if (!availability.ok) return;
			sourceMd5 = await putObject('queue/source-256.bin', SIZE);
		}, 300000);

		/** Starts the transfer and waits for its run, or for the worker to log why it cannot finish. */
		async function transfer(target, failurePattern) {
			const stop = sampleRss();
			const before = new Set((await layout.main.listExecutions({ workflowId: ids.transfer })).map((e) => e.id));
			const t0 = Date.now();
			const call = layout.webhook('queue-transfer', { bucket: BUCKET, key: 'queue/source-256.bin', target }, { timeoutMs: 600000 });
			call.catch(() => {});
			const outcome = await until(
				'the transfer to end or fail',
				async () => {
					const done = await Promise.race([call.then((r) => ({ answer: r })), sleep(500).then(() => null)]);
					if (done) return done;
					const logged = failurePattern && layout.workers.map((w) => failurePattern.exec(w.logs())).find(Boolean);
					return logged ? { failure: logged[0] } : null;
				},
				{ timeoutMs: 480000, everyMs: 0 },
			);
			const ms = Date.now() - t0;
			const rss = stop();
			const list = await layout.main.listExecutions({ workflowId: ids.transfer });
			const execution = list.find((e) => !before.has(e.id));
			const worker = execution && layout.workerOf(execution.id);
			// growth over the RSS just before (memory the process had freed earlier is reused first, so
			// this is a lower bound) and the absolute peak
			const growthMiB = worker ? mib(rss[worker].peakKiB - rss[worker].baseKiB) : undefined;
			const peakMiB = worker ? mib(rss[worker].peakKiB) : undefined;
			// the figure is real only if the sampler kept sampling (about every 100 ms) through the run
			if (worker) expect(rss[worker].samples).toBeGreaterThanOrEqual(Math.floor(ms / 1000));
			return { outcome, ms, rss, execution, worker, growthMiB, peakMiB };
		}

		test("n8n's queue-mode default binary data mode (database) holds the whole file in the worker's memory, and 256 MiB cannot be read back", async () => {
			const whole = () => layout.services.psql(`select count(*) from binary_data where "fileSize" = ${SIZE}`);
			expect(whole()).toBe('0');
			const run = await transfer('queue/copy-256-database.bin', /Cannot create a string longer than 0x[0-9a-f]+ characters/);
			const stored = whole();
			figures.binaryDatabase = { outcome: run.outcome.failure || `webhook ${run.outcome.answer.status}`, ms: run.ms, worker: run.worker, peakRssGrowthMiB: run.growthMiB, peakRssMiB: run.peakMiB, rss: run.rss, storedInDatabase: stored };
			say(`database binary mode: ${JSON.stringify(figures.binaryDatabase)}`);
			expect(WORKER_NAMES).toContain(run.worker);
			// the downloaded file went into PostgreSQL whole (one row of 256 MiB) ...
			expect(stored).toBe('1');
			// ... through the worker's memory: its RSS grew by more than the file
			expect(run.growthMiB).toBeGreaterThan(256);
			if (run.outcome.answer && run.outcome.answer.status === 200) {
				// a later n8n that can read it back must then deliver the copy intact
				expect(await objectMd5('queue/copy-256-database.bin')).toMatchObject({ md5: sourceMd5, size: SIZE });
			} else {
				// reading a bytea of 256 MiB back exceeds the longest string V8 can make: the Upload never starts
				expect(run.outcome.failure).toMatch(/Cannot create a string longer than/);
				expect((await objectMd5('queue/copy-256-database.bin')).status).toBe(404);
			}
		}, 600000);

		test('binary data mode filesystem on a folder every process shares (the README setting): 256 MiB through a worker, RSS bounded, MD5 intact', async () => {
			const shared = path.join(layout.dir, 'binary-data');
			const t0 = Date.now();
			await layout.restartAll({ env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_BINARY_DATA_STORAGE_PATH: shared } });
			say(`main and workers restarted in filesystem binary mode in ${Date.now() - t0} ms`);
			const inDatabase = layout.services.psql('select count(*) from binary_data');
			const run = await transfer('queue/copy-256-filesystem.bin');
			const answer = run.outcome.answer;
			expect(answer && answer.status).toBe(200);
			const copy = await objectMd5('queue/copy-256-filesystem.bin');
			figures.binaryFilesystem = { ms: run.ms, worker: run.worker, peakRssGrowthMiB: run.growthMiB, peakRssMiB: run.peakMiB, rss: run.rss, sourceMd5, copyMd5: copy.md5, multipart: answer.json };
			say(`filesystem binary mode: ${JSON.stringify(figures.binaryFilesystem)}`);
			expect(WORKER_NAMES).toContain(run.worker);
			expect(answer.json).toMatchObject({ size: SIZE, multipart: true, partCount: 32 });
			expect(copy).toMatchObject({ status: 200, md5: sourceMd5, size: SIZE });
			// streamed: the worker never held the file (growth well below its 256 MiB, and the peak
			// well below the database mode's)
			expect(run.growthMiB).toBeLessThan(192);
			if (figures.binaryDatabase) expect(run.peakMiB).toBeLessThan(figures.binaryDatabase.peakRssMiB - 256);
			// nothing of it went into PostgreSQL
			expect(layout.services.psql('select count(*) from binary_data')).toBe(inDatabase);
		}, 600000);
	});

	test('a worker killed (SIGKILL) during a multipart upload: the execution ends crashed, the next run succeeds, the orphaned upload is cleaned up with List Parts and Abort', async () => {
		const key = 'queue/kill-source-96.bin';
		const target = 'queue/kill-copy-96.bin';
		const md5 = await putObject(key, 96 * MiB);
		const uploadsOf = async () => (await big.control('GET', `/storage/uploads?bucket=${BUCKET}`)).uploads.filter((u) => u.key === target);
		expect(await uploadsOf()).toEqual([]);
		// slow parts (every request of the emulator waits 300 ms) so the kill lands mid-upload
		await big.control('POST', '/faults', { latencyMs: 300 });
		const before = new Set((await layout.main.listExecutions({ workflowId: ids.transfer })).map((e) => e.id));
		const call = layout.webhook('queue-transfer', { bucket: BUCKET, key, target, partSize: 5, concurrency: 1 }, { timeoutMs: 600000 });
		call.catch(() => {});
		const [upload] = await until('parts of the upload at the emulator', async () => {
			const u = await uploadsOf();
			return u.length && u[0].parts >= 3 ? u : null;
		}, { timeoutMs: 120000, everyMs: 50 });
		const execution = (await layout.main.listExecutions({ workflowId: ids.transfer })).find((e) => !before.has(e.id));
		const victim = layout.workers.findIndex((w) => w.name === layout.workerOf(execution.id));
		expect(victim).toBeGreaterThanOrEqual(0);
		const killedAt = Date.now();
		const exit = await layout.workers[victim].kill('SIGKILL');
		await big.control('POST', '/faults', { latencyMs: 0 });
		expect(exit.signal).toBe('SIGKILL');
		say(`killed ${layout.workers[victim].name} (execution ${execution.id}) with ${upload.parts} of 20 parts uploaded (upload ${upload.uploadId})`);

		// n8n: the job's lock lapses, the queue fails it (n8n allows no second attempt), the main
		// marks the execution; meanwhile the killed worker is replaced
		const [ended] = await Promise.all([
			until(`execution ${execution.id} to end`, async () => {
				const e = (await layout.main.listExecutions({ workflowId: ids.transfer })).find((x) => x.id === execution.id);
				return e && !['new', 'running', 'waiting'].includes(e.status) ? e : null;
			}, { timeoutMs: 240000, everyMs: 1000 }),
			layout.restartWorker(victim),
		]);
		const answer = await Promise.race([call, sleep(30000).then(() => ({ status: 'no answer within 30 s' }))]);
		const afterCrash = await uploadsOf();
		say(`execution ${execution.id} ended "${ended.status}" ${Date.now() - killedAt} ms after the kill; the webhook caller got ${answer.status}; unfinished uploads of the key: ${afterCrash.length}`);
		expect(['crashed', 'error']).toContain(ended.status);

		// the next run of the same workflow completes the file
		const next = await runViaWebhook('transfer', 'queue-transfer', { bucket: BUCKET, key, target, partSize: 5, concurrency: 4 });
		expectRanOnWorker(next);
		expect(await objectMd5(target)).toMatchObject({ status: 200, md5, size: 96 * MiB });

		// what the killed process had started is still open at the vendor: nobody can abort it but
		// whoever knows its upload ID (the vendor's API cannot list unfinished uploads)
		const orphans = await uploadsOf();
		figures.sigkill = { killedWithParts: upload.parts, executionStatus: ended.status, noticedAfterMs: Date.now() - killedAt, orphansAfterNextRun: orphans.length };
		say(`after the next run: ${orphans.length} unfinished upload(s) of the key: ${JSON.stringify(orphans)}`);
		expect(orphans.map((o) => o.uploadId)).toEqual([upload.uploadId]);

		// the cleanup the README names: List Parts (what is stored), then Abort
		const cleanup = await runViaWebhook('cleanup', 'queue-abort-upload', { bucket: BUCKET, key: target, uploadId: upload.uploadId });
		expectRanOnWorker(cleanup);
		const parts = cleanup.result.nodes['List Parts'].items;
		expect(parts.length).toBe(orphans[0].parts);
		expect(parts[0]).toMatchObject({ uploadId: upload.uploadId, partNumber: expect.anything() });
		expect(cleanup.result.nodes['Abort'].items).toEqual([{ aborted: true, bucket: BUCKET, key: target, uploadId: upload.uploadId }]);
		expect(await uploadsOf()).toEqual([]);
		expect((await big.control('GET', `/storage/uploads?bucket=${BUCKET}`)).uploads).toEqual([]);
		figures.sigkill.orphansAfterCleanup = 0;
	}, 900000);
});

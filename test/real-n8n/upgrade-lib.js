'use strict';
/**
 * The upgrade test's machinery, shared by the recorder (scripts/record-upgrade-fixtures.js, run by
 * a developer before a release) and the test (upgrade.test.js, in `npm test`): both run the
 * fixtures the same way, so what the recorder wrote is what the test compares with.
 *
 * A fixture is a workflow as real n8n saved it (`<name>.json`, exported by `n8n export:workflow`)
 * and what it sent then (`<name>.requests.json`): the emulator's request log, split by node (an
 * action workflow) or by poll (a trigger), plus how it is run (`run`). Fixtures live in
 * upgrade-fixtures/<package version that saved them>/; a release adds its folder and never
 * rewrites an older one.
 *
 * How a run is made (schema/README.md, "The upgrade test", says it in words):
 *  - every fixture gets a fresh emulator with the demo data, and every package node of it a
 *    credential of its own pointing at a small pass-through proxy in front of that emulator, so
 *    each request in the emulator's log (GET /__emulator/requests) is known to come from one
 *    node; nothing else in the saved workflow changes (the credential references are the only
 *    edit, and n8n stores those by id and name, not as parameters);
 *  - action workflows (a Manual Trigger and the package nodes): one `n8n import:credentials`, one
 *    `n8n import:workflow` and one `n8n execute-batch` for all (n8n 2.40.7 has it: one boot, one
 *    workflow at a time);
 *  - meanwhile, in a second n8n home, one `n8n start`: trigger workflows are stored through its
 *    REST API and published: the activation poll (the baseline), then the test changes the
 *    emulator between two polls and waits for the execution the next poll starts; the requests
 *    of those polls and the events emitted are compared;
 *  - the example with an MCP Server Trigger is published on the same server and its tools are
 *    called with the MCP SDK's client; examples started by a chat message or a schedule run as
 *    examples.test.js runs them (the trigger replaced by a Manual Trigger and a sample).
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const crypto = require('node:crypto');

const n8n = require('./lib');
const { createEmulator } = require('../../emulator');
const { testVariant } = require('./examples-lib');

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, 'upgrade-fixtures');
const PKG = 'n8n-nodes-vendor-cloud';
const isPackageNode = (node) => node.type.startsWith(`${PKG}.`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Requests further apart than this belong to two polls: the fixtures poll every 30 s (an example
 * every minute), and the requests of one poll follow each other within seconds even on a loaded
 * machine (the first poll logs in and n8n stores the token in between).
 */
const POLL_GAP_MS = 12000;
/** The fixtures' poll schedule: every 30 s, at seconds 0 and 30 (POLL_EVERY_30_S in upgrade-plan.js). */
const POLL_TICK_MS = 30000;
/** Dates this close to a run (in days) are taken as made from the current time (normaliser). */
const NEAR_DAYS = 100;
/** Before the change that makes a trigger emit: this long without a request and none open. */
const QUIET_MS = 1500;

/* ------------------------------------------------------------------ fixtures on disk */

/** The fixtures of every version folder: [{ version, name, workflow, meta }] (meta: the .requests.json). */
function loadFixtures(dir = FIXTURES) {
	const out = [];
	if (!fs.existsSync(dir)) return out;
	for (const version of fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory()).sort()) {
		const folder = path.join(dir, version);
		for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.requests.json')).sort()) {
			const name = file.replace(/\.requests\.json$/, '');
			const meta = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
			const workflow = JSON.parse(fs.readFileSync(path.join(folder, `${name}.json`), 'utf8'));
			out.push({ version, name, key: `${version}/${name}`, workflow, meta });
		}
	}
	return out;
}

/* ------------------------------------------------------------------ the request log, by node */

/**
 * A fresh emulator for one fixture, with a pass-through proxy per label (a node name): what a
 * proxy forwards is marked with its label, the time and the length of the emulator's log at that
 * moment, so the log can be split by node and, for a trigger, by poll.
 */
async function fixtureEmulator(options = {}) {
	const emu = await createEmulator({ seed: 'demo', ...options });
	const marks = [];
	const servers = [];
	let open = 0;
	let lastAt = 0;
	const logLength = () => emu.stats.requests().requests.length;
	/** The log, each entry with `at`: when the proxy received the request (the last mark at or before it). */
	const timedLog = () => {
		const log = emu.stats.requests().requests;
		let m = -1;
		return log.map((entry, i) => {
			while (m + 1 < marks.length && marks[m + 1].index <= i) m++;
			return { ...entry, at: m >= 0 ? marks[m].t : undefined };
		});
	};
	const target = new URL(emu.url);

	async function proxy(label) {
		const server = http.createServer((req, res) => {
			marks.push({ label, index: logLength(), t: Date.now() });
			open++;
			let done = false;
			const finish = () => {
				if (done) return;
				done = true;
				open--;
				lastAt = Date.now();
			};
			res.on('close', finish);
			const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
				res.writeHead(answer.statusCode, answer.statusMessage, answer.rawHeaders);
				answer.pipe(res);
			});
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		servers.push(server);
		return `http://127.0.0.1:${server.address().port}`;
	}

	return {
		emu,
		proxy,
		marks,
		get open() {
			return open;
		},
		get lastAt() {
			return lastAt;
		},
		/** Calls a control route of the emulator (never logged): control('POST /management/balance', {...}). */
		async control(route, body) {
			const [method, p] = route.split(' ');
			const res = await fetch(`${emu.url}/__emulator${p}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: method === 'GET' ? undefined : JSON.stringify(body || {}),
			});
			const json = await res.json();
			if (res.status !== 200 || json.ok === false) throw new Error(`emulator ${route}: ${res.status} ${JSON.stringify(json)}`);
			return json;
		},
		/**
		 * Calls the management API directly (not through a proxy, so no node's requests), logged in
		 * as demo: for setting the scene before a trigger is published.
		 */
		async api(p, body = {}) {
			const post = (pathname, b) => fetch(`${emu.url}/API/${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
			const { access_token: token } = await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
			const res = await post(p, { ...body, token });
			if (Number(res.code) !== 1) throw new Error(`emulator API ${p}: ${JSON.stringify(res)}`);
			return res;
		},
		/** The log entries that arrived through the proxies, by label: { label: [entries] } (each with `at`, when it was sent). */
		byLabel() {
			const log = timedLog();
			const out = {};
			marks.forEach((m, i) => {
				const end = i + 1 < marks.length ? marks[i + 1].index : log.length;
				(out[m.label] = out[m.label] || []).push(...log.slice(m.index, Math.max(m.index, end)));
			});
			return out;
		},
		/**
		 * The polls: groups of requests at least POLL_GAP_MS apart, [{ start, end, entries }]. A time
		 * in `splitAt` also starts a new group: a poll right after the test's change (n8n polls at
		 * each minute's start, which can fall a few seconds after a slow activation poll) is its own.
		 */
		polls({ splitAt = [] } = {}) {
			const log = timedLog();
			const groups = [];
			for (const m of marks) {
				const last = groups[groups.length - 1];
				// the fixtures poll at seconds 0 and 30 (upgrade-plan.js): a request after the next tick belongs
				// to the next poll, also when a slow activation poll ended only a few seconds before it
				const tick = last && Math.floor(m.t / POLL_TICK_MS) !== Math.floor(last.lastT / POLL_TICK_MS);
				const split = last && (tick || splitAt.some((t) => last.lastT <= t && t < m.t));
				if (last && !split && m.t - last.lastT < POLL_GAP_MS) last.lastT = m.t;
				else groups.push({ start: m.t, lastT: m.t, index: m.index });
			}
			return groups.map((g, i) => ({
				start: g.start,
				end: g.lastT,
				entries: log.slice(g.index, i + 1 < groups.length ? groups[i + 1].index : log.length),
			}));
		},
		async close() {
			for (const s of servers) s.closeAllConnections?.();
			await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
			await emu.close();
		},
	};
}

/* ------------------------------------------------------------------ normalising */

/**
 * Values that legitimately differ between two runs, each replaced by a stable stand-in so that
 * everything else is compared exactly (the rules are listed in schema/README.md):
 *
 *  1. Upload IDs (the service makes one per multipart upload): `uploadId` in a storage query and
 *     any string equal to an upload ID seen earlier in the same fixture become `(upload 1)`,
 *     `(upload 2)`... in order of first appearance, so a request that uses another request's
 *     upload ID is still checked to use that one.
 *  2. Dates made from the current time: a date (`2026-11-26`), date-time (`2026-11-26 13:33:03`,
 *     `2026-11-26T13:33:03.000Z`, `...+08:00`) or Unix time in seconds or milliseconds within
 *     NEAR_DAYS (100) days of the request is written relative to the (UTC) day the request was
 *     sent: `(day-30)`;
 *     with a time, `(day-30) 00:00:00` or `23:59:59` (a whole day: what the node chose) or
 *     `(day-30) (time)` (any other time of day); the same inside a longer string
 *     (`backups/dns/dns-backup-(day+0).json`). Dates written in a fixture are never near a later
 *     run: the recorder refuses a planned date that is not older than NEAR_DAYS days.
 *  3. Content-MD5 of a storage upload whose body was made from the service's answers within the
 *     same run (the demo data's times are relative to the emulator's start): only for the nodes
 *     a fixture lists in `run.bodyFromRun`; elsewhere it is compared exactly.
 * Tokens, passwords and secrets never reach the log (the emulator writes `(secret)`), and the
 * signature's query parameters are left out by the emulator.
 */
function normaliser() {
	const uploads = new Map();
	const WINDOW = NEAR_DAYS * 86400000;
	let sentAt; // the request being normalised was sent at this time
	let day0;
	const near = (ms) => Math.abs(ms - sentAt) <= WINDOW;
	const dayLabel = (ms) => {
		const d = Math.floor((ms - day0) / 86400000);
		return `(day${d >= 0 ? '+' : ''}${d})`;
	};
	const timeLabel = (ms) => (ms % 86400000 === 0 ? '00:00:00' : new Date(ms).toISOString().slice(11, 19) === '23:59:59' ? '23:59:59' : '(time)');
	const DATE_TIME = /(\d{4})-(\d{2})-(\d{2})(?:([ T])(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?/g;

	function dates(s) {
		return s.replace(DATE_TIME, (all, y, mo, d, sep, h, mi, sec, zone) => {
			const dayMs = Date.UTC(+y, +mo - 1, +d);
			if (Number.isNaN(dayMs) || !near(dayMs)) return all;
			if (sep === undefined) return dayLabel(dayMs);
			const offset = zone && zone !== 'Z' ? (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * 60000 : 0;
			const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(sec || 0)) - offset;
			return `${dayLabel(ms)}${sep === 'T' ? 'T' : ' '}${timeLabel(ms)}${zone ? '(zone)' : ''}`;
		});
	}

	function value(v, key) {
		if (typeof v === 'string') {
			if (uploads.has(v)) return uploads.get(v);
			if (/^\d{10}$|^\d{13}$/.test(v)) return epoch(Number(v), v) ?? v;
			return dates(v);
		}
		if (typeof v === 'number' && Number.isInteger(v) && (String(v).length === 10 || String(v).length === 13)) return epoch(v, v) ?? v;
		if (Array.isArray(v)) return v.map((x) => value(x, key));
		if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, k)]));
		return v;
	}

	function epoch(n, original) {
		const ms = String(original).length === 10 ? n * 1000 : n;
		if (!near(ms)) return undefined;
		return `${dayLabel(ms)} ${timeLabel(ms)} (unix${String(original).length === 10 ? ' s' : ' ms'})`;
	}

	return {
		/** One node's or poll's entries (in log order, each with `at`); bodyFromRun: its upload bodies come from the run. */
		entries(list, { bodyFromRun = false } = {}) {
			return list.map((entry) => {
				const { at, ...e } = copy(entry);
				sentAt = at ?? Date.now();
				day0 = Math.floor(sentAt / 86400000) * 86400000;
				if (e.api === 'storage' && e.query && e.query.uploadId !== undefined) {
					if (!uploads.has(e.query.uploadId)) uploads.set(e.query.uploadId, `(upload ${uploads.size + 1})`);
				}
				const out = value(e);
				if (bodyFromRun && out.api === 'storage' && out.headers && out.headers['content-md5'] !== undefined) out.headers['content-md5'] = '(from the run)';
				return out;
			});
		},
	};
}

/* ------------------------------------------------------------------ comparing */

/** JSON with sorted keys: equal texts, equal values (whatever realm made the objects; jest runs tests in a VM context). */
function canonical(value) {
	return JSON.stringify(value, (k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((x) => [x, v[x]])) : v));
}
const same = (a, b) => canonical(a) === canonical(b);
const copy = (value) => JSON.parse(JSON.stringify(value));

/** The keys where two JSON values differ, as paths: ['body.diskvalue', 'query.uploadId']. */
function differences(a, b, at = '') {
	if (same(a, b)) return [];
	if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
		const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
		return keys.flatMap((k) => differences(a[k], b[k], at ? `${at}.${k}` : k));
	}
	return [at || '(whole request)'];
}

const brief = (entry) => (entry ? (entry.api === 'management' ? `POST /API/${entry.path}` : `${entry.method} ${entry.path} (${entry.op})`) : '(none)');
const show = (v) => (v === undefined ? '(absent)' : JSON.stringify(v));
const valueAt = (obj, p) => p.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);

/**
 * Compares two request lists of one node (or poll); returns sentences naming the workflow, the
 * node and the request, with what was recorded and what was sent now.
 */
function compareRequests(recorded, actual, { workflow, node }) {
	const out = [];
	const n = Math.max(recorded.length, actual.length);
	for (let i = 0; i < n; i++) {
		const was = recorded[i];
		const now = actual[i];
		if (same(was, now)) continue;
		const where = `workflow "${workflow}", node "${node}", request ${i + 1} of ${recorded.length} recorded`;
		if (!now) out.push(`${where}: recorded ${brief(was)} ${show(was.body ?? was.query)}, not sent now`);
		else if (!was) out.push(`${where}: ${brief(now)} ${show(now.body ?? now.query)} sent now, not recorded`);
		else {
			const diffs = differences(was, now);
			out.push(`${where} (${brief(was)}): ${diffs.map((d) => `${d} recorded ${show(valueAt(was, d))}, now ${show(valueAt(now, d))}`).join('; ')}`);
		}
	}
	return out;
}

/* ------------------------------------------------------------------ running fixtures in real n8n */

const DEMO_API = { username: 'demo', password: 'demo-password' };
const DEMO_STORAGE = { accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' };

/** Emulator timings of a run: fixed, so that waits see the same states every time. */
const TIMING = { taskDelayMs: 0, hostCreateMs: 0, hostReinstallMs: 0, backupMs: 0 };

/**
 * Makes a fixture runnable in this run: its own emulator and proxies, one credential per package
 * node, ids of this run, and for an example started by a chat or a schedule, the test variant.
 * Returns { fixture, fe (fixtureEmulator), workflow, credentials: [...] }.
 */
async function prepare(fixture) {
	const run = fixture.meta.run;
	const fe = await fixtureEmulator({ management: { timing: { ...TIMING, ...(run.timing || {}) } } });
	let wf = copy(fixture.workflow);
	if (run.variant) wf = testVariant(wf, run.variant.samples, { start: 'manual' });
	// n8n execute-batch takes only ids with a digit in them
	wf.id = `upg${crypto.randomBytes(6).toString('hex')}1`;
	wf.name = `${fixture.key}: ${fixture.workflow.name}`;
	wf.active = false;
	const credentials = [];
	for (const node of wf.nodes) {
		if (isPackageNode(node)) {
			const url = await fe.proxy(node.name);
			const type = Object.keys(node.credentials || {})[0] || (node.type.includes('ObjectStorage') ? 'vendorObjectStorageApi' : 'vendorApi');
			const data = type === 'vendorObjectStorageApi' ? { endpoint: url, ...DEMO_STORAGE } : { apiUrl: url, ...DEMO_API };
			const cred = { id: n8n.newId(), name: `${wf.id} ${node.name}`.slice(0, 120), type, data };
			credentials.push(cred);
			node.credentials = { [type]: { id: cred.id, name: cred.name } };
		} else if (node.credentials && node.credentials.httpBearerAuth && run.kind === 'mcp') {
			const cred = { id: n8n.newId(), name: `${wf.id} bearer`, type: 'httpBearerAuth', data: { token: run.mcp.bearer } };
			credentials.push(cred);
			node.credentials = { httpBearerAuth: { id: cred.id, name: cred.name } };
		}
	}
	return { fixture, fe, workflow: wf, credentials };
}

async function importAll(home, prepared) {
	const creds = prepared.flatMap((p) => p.credentials);
	if (creds.length) await n8n.importCredentials(home, creds);
	const file = path.join(home.userFolder, `upgrade-workflows-${Date.now()}.json`);
	fs.writeFileSync(file, JSON.stringify(prepared.map((p) => ({ ...p.workflow, settings: p.workflow.settings || {}, connections: p.workflow.connections || {} }))));
	const res = await n8n.runN8n(home, ['import:workflow', `--input=${file}`], { timeoutMs: 300000 });
	if ((res.code !== 0 && !n8n.crashedAtExit(res)) || !new RegExp(`Successfully imported ${prepared.length} workflow`).test(res.stdout + res.stderr)) {
		throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${n8n.tail(res.stdout)}\n${n8n.tail(res.stderr)}`);
	}
}

/** `n8n execute-batch` of the action workflows: { [workflow id]: { status, error } }. */
async function executeBatch(home, prepared) {
	if (!prepared.length) return {};
	const out = path.join(home.userFolder, `execute-batch-${Date.now()}.json`);
	const ids = prepared.map((p) => p.workflow.id);
	const res = await n8n.runN8n(home, ['execute-batch', `--ids=${ids.join(',')}`, '--concurrency=1', '--retries=0', `--output=${out}`], { timeoutMs: 15 * 60000 });
	if (!fs.existsSync(out)) throw new Error(`n8n execute-batch wrote no results (exit ${res.code}${res.signal ? `, ${res.signal}` : ''}):\n${n8n.tail(res.stdout, 60)}\n${n8n.tail(res.stderr, 60)}`);
	const results = JSON.parse(fs.readFileSync(out, 'utf8'));
	const byId = {};
	for (const e of results.executions) byId[e.workflowId] = { status: e.executionStatus, error: e.error, ms: e.executionTime };
	return byId;
}

/** Waits until `cond()` is true (checked every 200 ms). */
async function until(cond, { timeoutMs, what }) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		if (await cond()) return;
		if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(200);
	}
}

/**
 * One trigger fixture on a running server: `run.before` control calls, publish, the activation
 * poll (the baseline), optionally one quiet poll, then `run.change` (control routes) between two polls and the
 * execution the next poll starts. Returns { polls: { baseline, quiet, emitting }, emitted }.
 */
async function runTrigger(server, p, { quietPoll = false } = {}) {
	const { fe, workflow } = p;
	const run = p.fixture.meta.run;
	// the scene: control routes, or the API called directly (neither is a request of the trigger)
	for (const step of run.before || []) await (step.api ? fe.api(step.api, step.body) : fe.control(step.route, step.body));
	await server.activateWorkflow(workflow.id);
	const what = `"${p.fixture.key}"`;
	// the activation poll has finished when n8n stored the trigger's state
	await until(
		async () => {
			const res = await server.rest('GET', `/workflows/${workflow.id}`);
			return res.status === 200 && res.json.data.staticData && Object.keys(res.json.data.staticData).length > 0 && fe.open === 0;
		},
		{ timeoutMs: 120000, what: `the activation poll of ${what}` },
	);
	if (quietPoll) await until(() => fe.polls().length >= 2 && fe.open === 0 && Date.now() - fe.lastAt > 500, { timeoutMs: 150000, what: `a second poll of ${what}` });
	// the fixtures poll at seconds 0 and 30 (upgrade-plan.js): change the emulator well between two, when no request is open
	const between = () => new Date().getSeconds() % 30;
	await until(() => fe.open === 0 && Date.now() - fe.lastAt >= QUIET_MS && between() >= 5 && between() <= 24, { timeoutMs: 120000, what: `a quiet moment between two polls of ${what}` });
	const quietAt = Date.now();
	const changeStart = Date.now();
	for (const step of run.change) await fe.control(step.route, step.body);
	const changeEnd = Date.now();
	const [execution] = await server.waitForExecutions(workflow.id, 1, { timeoutMs: 180000 });
	await server.deactivateWorkflow(workflow.id);
	await until(() => fe.open === 0, { timeoutMs: 30000, what: `the last poll of ${what}` });
	const polls = fe.polls({ splitAt: [changeEnd] });
	if (fe.marks.some((m) => m.t >= quietAt && m.t <= changeEnd)) throw new Error(`${what}: a poll started while the test changed the emulator (run it again)`);
	const emittingAt = polls.findIndex((pl) => pl.start > changeEnd);
	const detail = await server.getExecution(execution.id);
	if (emittingAt < 1) {
		const why = detail.error ? `; the execution (${detail.status}, started ${execution.startedAt}) says: ${detail.error.message}${detail.error.description ? ` (${detail.error.description})` : ''}` : `; the execution (${detail.status}) started ${execution.startedAt}`;
		throw new Error(`${what}: no poll after the change (change at ${new Date(changeStart).toISOString()}, polls at ${polls.map((pl) => new Date(pl.start).toISOString()).join(', ')})${why}`);
	}
	const triggerNode = workflow.nodes.find(isPackageNode);
	const items = (detail.nodes[triggerNode.name] && detail.nodes[triggerNode.name].items) || [];
	return {
		status: execution.status,
		polls: {
			baseline: polls[0].entries,
			quiet: polls.slice(1, emittingAt).map((pl) => pl.entries),
			emitting: polls[emittingAt].entries,
		},
		emitted: items.map(eventSummary),
		executions: (await server.listExecutions({ workflowId: workflow.id })).length,
	};
}

/** An emitted item in a few words: its event or kind, state and the id of what it is about ("statusChanged 1001"). */
function eventSummary(item) {
	return ['event', 'kind', 'state', 'hostId', 'id']
		.map((k) => item[k])
		.filter((v) => v !== undefined && v !== null && v !== '')
		.join(' ');
}

/** The MCP example: published, each planned tool call made with the MCP SDK's client. */
async function runMcp(server, p) {
	const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
	const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
	const run = p.fixture.meta.run;
	await server.activateWorkflow(p.workflow.id);
	const trigger = p.workflow.nodes.find((n) => n.type.endsWith('mcpTrigger'));
	const url = new URL(`${server.url}/mcp/${trigger.parameters.path}`);
	await until(async () => (await fetch(url).catch(() => ({ status: 404 }))).status !== 404, { timeoutMs: 60000, what: 'the MCP endpoint' });
	// connecting sends nothing to the emulator, so a connection lost on a loaded machine is tried again
	let client;
	for (let attempt = 1; ; attempt++) {
		client = new Client({ name: 'vendor-upgrade-test', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${run.mcp.bearer}` } } }));
			break;
		} catch (err) {
			await client.close().catch(() => {});
			if (attempt === 3) throw err;
			await sleep(1000);
		}
	}
	const answers = [];
	try {
		for (const call of run.mcp.calls) {
			let res;
			try {
				res = await client.callTool({ name: call.tool, arguments: call.arguments });
			} catch (err) {
				throw new Error(`MCP tool ${call.tool}: ${err.message}${err.cause ? ` (${err.cause.code || err.cause.message || err.cause})` : ''}`);
			}
			answers.push({ tool: call.tool, isError: res.isError === true });
		}
	} finally {
		await client.close();
	}
	await server.deactivateWorkflow(p.workflow.id);
	return { status: answers.every((a) => !a.isError) ? 'success' : 'error', answers };
}

/** The package's node types as the running n8n serves them to the editor: [{ name, versions, hidden }]. */
async function servedTypes(server) {
	const res = await server.call('GET', '/types/nodes.json');
	if (res.status !== 200) throw new Error(`GET /types/nodes.json: ${res.status}`);
	return res.json
		.filter((t) => t.name.startsWith(`${PKG}.`))
		.map((t) => ({ name: t.name, versions: [].concat(t.version), hidden: t.hidden === true }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** A fixture that is only loaded: its workflow is stored and every package node's type and version is served. */
function checkServed(p, types) {
	const missing = p.workflow.nodes.filter(isPackageNode).filter((n) => !types.some((t) => t.name === n.type && t.versions.includes(n.typeVersion)));
	const served = p.workflow.nodes.filter(isPackageNode).map((n) => `${n.type}@${n.typeVersion}`);
	return missing.length
		? { status: 'error', error: `not served: ${missing.map((n) => `${n.name} (${n.type} version ${n.typeVersion})`).join(', ')}`, served }
		: { status: 'success', served: [...new Set(served)].sort() };
}

/**
 * Stores prepared fixtures through the running server's REST API, as the editor does when a
 * workflow file is imported and saved: the credentials (POST /rest/credentials) and the workflows
 * (POST /rest/workflows), with the credential references of the ids n8n gave. Sets p.workflow.id.
 */
async function storeThroughServer(server, prepared) {
	for (const p of prepared) {
		const ids = {};
		for (const c of p.credentials) {
			const res = await server.rest('POST', '/credentials', { name: c.name, type: c.type, data: c.data });
			if (res.status !== 200) throw new Error(`POST /rest/credentials (${c.name}): ${res.status} ${res.text}`);
			ids[c.id] = res.json.data.id;
		}
		const wf = copy(p.workflow);
		for (const node of wf.nodes) for (const ref of Object.values(node.credentials || {})) if (ids[ref.id]) ref.id = ids[ref.id];
		const { id, active, createdAt, updatedAt, versionId, activeVersionId, shared, isArchived, triggerCount, ...body } = wf;
		const res = await server.rest('POST', '/workflows', { ...body, active: false });
		if (res.status !== 200) throw new Error(`POST /rest/workflows (${wf.name}): ${res.status} ${res.text}`);
		p.workflow = { ...wf, id: res.json.data.id };
	}
}

/**
 * Runs fixtures in real n8n with the packed package. Returns
 * { results: { [key]: { kind, status, error?, nodes? | polls?, emitted?, served? } }, timings: { step: ms }, types }.
 *
 * Two fresh n8n homes run side by side, each with its own database (SQLite takes one writer at a
 * time; with one home, a node of the batch once failed on its credential while the server wrote):
 * the action workflows are imported with the CLI and
 * run by `n8n execute-batch`; the triggers, the MCP example and the fixtures that are only loaded
 * are stored through the REST API of one `n8n start` and published there.
 * Options: tgz (default: pack the built repo), quietPoll (wait for one poll without a change
 * before making a trigger emit; the recorder does, so a quiet poll's requests are recorded too).
 */
async function runFixtures(fixtures, { tgz, quietPoll = false, log = () => {} } = {}) {
	const timings = {};
	const step = async (name, fn) => {
		const t0 = Date.now();
		const out = await fn();
		timings[name] = Date.now() - t0;
		log(`${name}: ${timings[name]} ms`);
		return out;
	};
	const ownTgz = !tgz;
	const packed = tgz || n8n.packPackage(ROOT);
	const prepared = [];
	const homes = [];
	let server;
	let types = [];
	try {
		for (const f of fixtures) prepared.push(await prepare(f));
		const execute = prepared.filter((p) => p.fixture.meta.run.kind === 'execute');
		const live = prepared.filter((p) => p.fixture.meta.run.kind !== 'execute');

		const cliChain = async () => {
			if (!execute.length) return {};
			const home = await step('CLI home: install the packed package', () => n8n.createN8nHome({ tgz: packed }));
			homes.push(home);
			await step('CLI home: n8n import:credentials and import:workflow', () => importAll(home, execute));
			return step('CLI home: n8n execute-batch of the action workflows', () => executeBatch(home, execute));
		};
		const serverChain = async () => {
			if (!live.length) return {};
			const home = await step('server home: install the packed package', () => n8n.createN8nHome({ tgz: packed }));
			homes.push(home);
			server = await step('server home: n8n start', () => n8n.startN8n(home));
			await step('server home: store credentials and workflows (REST)', () => storeThroughServer(server, live));
			types = await servedTypes(server);
			const out = {};
			await step('server home: triggers, MCP and loading', () =>
				Promise.all(
					live.map(async (p) => {
						const kind = p.fixture.meta.run.kind;
						try {
							if (kind === 'load') out[p.fixture.key] = checkServed(p, types);
							else if (kind === 'mcp') out[p.fixture.key] = await runMcp(server, p);
							else out[p.fixture.key] = await runTrigger(server, p, { quietPoll });
						} catch (err) {
							const cause = err.cause ? ` (${err.cause.code || ''} ${err.cause.message || err.cause})` : '';
							out[p.fixture.key] = { status: 'error', error: `${err.message}${cause}` };
						}
						log(`${p.fixture.key}: ${out[p.fixture.key].status}${out[p.fixture.key].error ? ` (${out[p.fixture.key].error})` : ''}`);
					}),
				),
			);
			return out;
		};
		const [batchResults, liveResults] = await Promise.all([cliChain(), serverChain()]);

		const results = {};
		for (const p of prepared) {
			const run = p.fixture.meta.run;
			const norm = normaliser();
			if (run.kind === 'execute') {
				const r = batchResults[p.workflow.id] || { status: 'error', error: 'not run by execute-batch' };
				results[p.fixture.key] = { kind: run.kind, status: r.status, error: r.error, nodes: byNode(p, norm) };
			} else if (run.kind === 'load') {
				results[p.fixture.key] = { kind: run.kind, ...liveResults[p.fixture.key] };
			} else if (run.kind === 'mcp') {
				results[p.fixture.key] = { kind: run.kind, ...liveResults[p.fixture.key], nodes: byNode(p, norm) };
			} else {
				const r = liveResults[p.fixture.key];
				if (r.polls) {
					r.polls = {
						baseline: norm.entries(r.polls.baseline),
						quiet: r.polls.quiet.map((q) => norm.entries(q)),
						emitting: norm.entries(r.polls.emitting),
					};
				}
				results[p.fixture.key] = { kind: run.kind, ...r };
			}
		}
		return { results, timings, types };
	} finally {
		if (server) {
			const logs = server.logs();
			await server.stop();
			if (process.env.UPGRADE_KEEP_HOME) fs.writeFileSync(path.join(server.home.userFolder, 'n8n-server.log'), logs);
		}
		for (const p of prepared) await p.fe.close();
		if (ownTgz) fs.rmSync(path.dirname(packed), { recursive: true, force: true });
		for (const home of homes) {
			if (process.env.UPGRADE_KEEP_HOME) process.stderr.write(`[upgrade] n8n home kept: ${home.userFolder}\n`);
			else home.cleanup();
		}
	}
}

/**
 * The normalised requests of each package node of an action or MCP fixture, in workflow order;
 * within a node in a canonical order (by request, then body): a node may send independent reads
 * at once (the Billing Report does), so the order they arrive in is not something a saved workflow
 * depends on, while which requests are sent, and with what, is.
 */
function byNode(p, norm) {
	const split = p.fe.byLabel();
	const bodyFromRun = new Set(p.fixture.meta.run.bodyFromRun || []);
	const out = {};
	const key = (e) => `${brief(e)} ${JSON.stringify(e.body ?? e.query ?? null)}`;
	for (const node of p.workflow.nodes.filter(isPackageNode)) {
		out[node.name] = norm
			.entries(split[node.name] || [], { bodyFromRun: bodyFromRun.has(node.name) })
			.map((e) => [key(e), e])
			.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
			.map(([, e]) => e);
	}
	return out;
}

/**
 * A trigger's requests from its activation to the poll that emitted, against the recording:
 * the activation poll (baseline), any number of polls that found nothing (each the recorded
 * quiet poll), then the emitting poll. The run's requests are taken as one sequence and matched
 * against that shape, so a poll split in two by a slow moment is still compared request by request.
 */
function comparePolls(rec, actual, { workflow, node }) {
	const all = [...actual.baseline, ...actual.quiet.flat(), ...actual.emitting];
	const B = rec.baseline;
	const E = rec.emitting;
	const Q = rec.quiet[0] || [];
	const head = all.slice(0, B.length);
	const tail = all.slice(Math.max(B.length, all.length - E.length));
	const middle = all.slice(B.length, Math.max(B.length, all.length - E.length));
	const out = [];
	out.push(...compareRequests(B, head, { workflow, node: `${node}, activation poll` }));
	if (Q.length === 0 ? middle.length > 0 : middle.length % Q.length !== 0) {
		out.push(`workflow "${workflow}", node "${node}": between the activation poll and the poll that emitted, ${middle.length} request(s) that are not whole quiet polls (recorded quiet poll: ${Q.map(brief).join(', ') || 'none'}); sent: ${middle.map(brief).join(', ')}`);
	} else {
		for (let i = 0; i < middle.length; i += Q.length) out.push(...compareRequests(Q, middle.slice(i, i + Q.length), { workflow, node: `${node}, quiet poll ${i / Q.length + 1}` }));
	}
	out.push(...compareRequests(E, tail, { workflow, node: `${node}, the poll after the change` }));
	return out;
}

/** Every difference between a fixture's recorded requests and a run's, as sentences. */
function compareFixture(fixture, result) {
	const workflow = `${fixture.key} (${fixture.workflow.name})`;
	const rec = fixture.meta;
	const out = [];
	if (result.status !== 'success') out.push(`workflow "${workflow}" did not run successfully: ${result.error || result.status}`);
	if (rec.nodes) {
		for (const node of Object.keys({ ...rec.nodes, ...(result.nodes || {}) })) {
			out.push(...compareRequests(rec.nodes[node] || [], (result.nodes || {})[node] || [], { workflow, node }));
		}
	}
	if (rec.polls && result.polls) {
		const node = fixture.workflow.nodes.find(isPackageNode).name;
		out.push(...comparePolls(rec.polls, result.polls, { workflow, node }));
		if (!same(rec.emitted, result.emitted)) out.push(`workflow "${workflow}": the trigger emitted ${show(result.emitted)}, recorded ${show(rec.emitted)}`);
	} else if (rec.polls) out.push(`workflow "${workflow}": no polls recorded in this run`);
	return out;
}

/* ------------------------------------------------------------------ coverage */

/** The kinds of parameter the upgrade fixtures must hold a non-default value of, where a node has them. */
const KINDS = ['options', 'multiOptions', 'collection', 'fixedCollection', 'resourceLocator:list', 'resourceLocator:id', 'resourceLocator:name'];

/**
 * Which kinds of parameter the fixtures' package nodes hold (every stored value differs from its
 * default: n8n stores no other), per node type, against the kinds the node's schema
 * (schema/nodes/<type>.json) offers. Resource and Operation do not count as options. Returns
 * { lines: a table for the log, missing: ["<type>: <kind>"] }, including node types without a fixture.
 */
function coverage(fixtures) {
	const schemaDir = path.join(ROOT, 'schema', 'nodes');
	const offered = {};
	const held = {};
	const schemas = {};
	for (const file of fs.readdirSync(schemaDir)) {
		const schema = JSON.parse(fs.readFileSync(path.join(schemaDir, file), 'utf8'));
		const type = schema.type.split('.')[1];
		schemas[type] = schema;
		offered[type] = new Set();
		held[type] = new Set();
		for (const ops of Object.values(schema.parameters)) {
			for (const params of Object.values(ops)) {
				for (const [name, e] of Object.entries(params)) {
					if (['resource', 'operation'].includes(name)) continue;
					if (e.type === 'resourceLocator') for (const m of e.modes) offered[type].add(`resourceLocator:${m}`);
					else if (KINDS.includes(e.type)) offered[type].add(e.type);
				}
			}
		}
	}
	for (const f of fixtures) {
		for (const node of f.workflow.nodes.filter(isPackageNode)) {
			const type = node.type.split('.')[1];
			const schema = schemas[type];
			if (!schema) continue;
			const ops = schema.parameters[String(node.typeVersion)];
			const resource = node.parameters.resource ?? ops['*']?.resource?.default;
			let operation = node.parameters.operation;
			if (operation === undefined && resource !== undefined) {
				const any = Object.entries(ops).find(([k]) => k.startsWith(`${resource}/`));
				operation = any && any[1].operation.default;
			}
			const scope = { ...(ops['*'] || {}), ...(ops[resource === undefined ? '*' : `${resource}/${operation}`] || {}) };
			const visit = (value, at) => {
				const e = scope[at];
				if (!e || ['resource', 'operation'].includes(at)) return;
				if (e.type === 'resourceLocator') held[type].add(`resourceLocator:${value.mode}`);
				else if (KINDS.includes(e.type)) held[type].add(e.type);
				if (e.type === 'collection' && value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`);
				if (e.type === 'fixedCollection' && value && typeof value === 'object') {
					for (const [group, rows] of Object.entries(value)) for (const row of [].concat(rows)) for (const [k, v] of Object.entries(row)) visit(v, `${at}.${group}.${k}`);
				}
			};
			for (const [k, v] of Object.entries(node.parameters)) visit(v, k);
		}
	}
	const lines = [];
	const missing = [];
	for (const type of Object.keys(offered).sort()) {
		const want = KINDS.filter((k) => offered[type].has(k));
		const lack = want.filter((k) => !held[type].has(k));
		missing.push(...lack.map((k) => `${type}: ${k}`));
		lines.push(`  ${type}: ${want.map((k) => `${k}${held[type].has(k) ? '' : ' (MISSING)'}`).join(', ') || '(no such kinds)'}`);
	}
	return { lines, missing };
}

/** How many requests a fixture's record compares. */
function requestCount(meta) {
	if (meta.nodes) return Object.values(meta.nodes).reduce((n, l) => n + l.length, 0);
	if (meta.polls) return meta.polls.baseline.length + meta.polls.emitting.length;
	return 0;
}

module.exports = {
	FIXTURES,
	NEAR_DAYS,
	PKG,
	isPackageNode,
	loadFixtures,
	fixtureEmulator,
	normaliser,
	differences,
	compareRequests,
	compareFixture,
	coverage,
	requestCount,
	runFixtures,
};

'use strict';
/**
 * Drives the real n8n program (pinned by scripts/n8n-runtime.js) from tests, `npm start` and the
 * example-workflow tests. The n8n version is 2.40.7 unless VENDOR_N8N_VERSION names another
 * (`VENDOR_N8N_VERSION=1.123.x npx jest test/real-n8n/package.test.js` runs a file on the 1.x
 * line); a home made with createN8nHome({ version }) keeps its own. `n8n.version` and
 * `n8n.major` say which one a test runs on. Each "home" is a scratch N8N_USER_FOLDER under the OS tmp dir with the
 * package installed the way a user installs a community package by hand:
 * `npm install <package>` inside <userFolder>/.n8n/nodes, which n8n 2.x scans for n8n-nodes-*.
 *
 *   const n8n = require('./lib');
 *   const { nodeBin } = await n8n.ensureRuntime();
 *   const tgz = n8n.packPackage(repoDir);
 *   const home = await n8n.createN8nHome({ tgz });
 *   await n8n.importCredentials(home, [{ id, name, type, data: { ... } }]);
 *   const id = await n8n.importWorkflow(home, workflowJson);
 *   const { result } = await n8n.executeWorkflow(home, id);   // result.nodes['Name'].items
 *   const server = await n8n.startN8n(home, { port });          // owner set up, logged in
 *   await server.activateWorkflow(id); await server.waitForExecutions(id, 1);
 *   await server.stop(); home.cleanup();
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, execFileSync } = require('node:child_process');

const runtime = require('../../scripts/n8n-runtime');
const { stopProcessGroup } = require('../../scripts/process-group');
const { freePort } = require('../../scripts/free-port');

/** The owner account startN8n sets up (the editor then opens on the sign-in page, not sign-up). */
const OWNER = Object.freeze({
	email: 'owner@example.com',
	password: 'Owner-pass-1',
	firstName: 'Dev',
	lastName: 'Owner',
});

/** The n8n version the tests run on (VENDOR_N8N_VERSION, default 2.40.7) and its major line. */
const VERSION = runtime.resolveVersion(process.env.VENDOR_N8N_VERSION);
const MAJOR = Number(VERSION.split('.')[0]);

/**
 * Installs (once) and returns the runtime of `version` (default: the one the tests run on).
 * VENDOR_N8N_NODE=22 runs that n8n on another pinned Node (scripts/node-runtime.js) instead of the
 * one installed with it: n8n's JavaScript is the same, and its only native module outside 2.x,
 * sqlite3, is built on Node-API, which loads on any of them (n8n 1.x images ran Node 20 and 22).
 */
const ensureRuntime = async (opts = {}) => {
	const rt = await runtime.ensureRuntime({ version: VERSION, ...opts });
	if (!process.env.VENDOR_N8N_NODE) return rt;
	const { nodeBin, version } = await require('../../scripts/node-runtime').ensureNode(process.env.VENDOR_N8N_NODE);
	return { ...rt, nodeBin, nodeVersion: version };
};

/* ---------------- small helpers ---------------- */

// Variables set by an outer `npm run` (npm_config_local_prefix, npm_package_*…) or by jest
// (NODE_ENV=test makes n8n skip its logging and node loading) must not leak into the npm and n8n
// processes started here; nor may a developer's own N8N_* settings.
function baseEnv(extra) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^(npm_|N8N_|JEST_|DB_)/.test(k) || ['NODE_ENV', 'NODE_OPTIONS', 'NODE_PATH'].includes(k)) continue;
		env[k] = v;
	}
	return Object.assign(env, extra);
}

/** n8n-style id: 16 letters and digits. */
function newId() {
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(crypto.randomBytes(16), (b) => abc[b % abc.length]).join('');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// n8n processes run in their own process group (n8n plus its task runner) so they can be stopped
// as a whole; this makes sure none outlives the test process that started it.
const liveGroups = new Set();
process.on('exit', () => {
	for (const pid of liveGroups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {}
	}
});

/* ---------------- packing and installing the package ---------------- */

/**
 * `npm pack` of the already-built package in repoDir (no scripts run). Returns the .tgz path,
 * written into outDir (default: a fresh folder under the OS tmp dir).
 */
function packPackage(repoDir, { outDir } = {}) {
	const dest = outDir || fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-pack-'));
	fs.mkdirSync(dest, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
		cwd: repoDir,
		env: baseEnv(),
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const info = JSON.parse(out.slice(out.indexOf('[')));
	return path.join(dest, info[0].filename);
}

/**
 * A scratch n8n user folder with the packed package(s) installed the way a user installs a
 * community package by hand: `npm install <tgz>` inside <userFolder>/.n8n/nodes (install scripts
 * off; peer dependencies such as n8n-workflow are left to n8n, as n8n's own installer does).
 * n8n 2.x loads every n8n-nodes-* / @scope/n8n-nodes-* folder of .n8n/nodes/node_modules.
 *
 * userFolder: use (and keep) this folder instead of a fresh one under the OS tmp dir; a home made
 * there before keeps its encryption key, database and owner. Returns a home:
 * { userFolder, nodesDir, env, cleanup() }; cleanup() removes a tmp home (not a given userFolder).
 */
async function createN8nHome({ tgz, tgzs, userFolder, keep = false, version } = {}) {
	const packages = [].concat(tgz || [], tgzs || []);
	const folder = userFolder ? path.resolve(userFolder) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-home-'));
	const home = openN8nHome(folder, { create: true, version });
	home.cleanup = () => {
		if (!keep && !userFolder) fs.rmSync(folder, { recursive: true, force: true });
	};
	const ledger = path.join(home.nodesDir, 'package.json');
	if (!fs.existsSync(ledger)) {
		// The file n8n itself keeps there as its list of installed community packages.
		fs.writeFileSync(ledger, `${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`);
	}
	if (packages.length) {
		const args = ['install', ...packages.map((p) => path.resolve(p))];
		args.push('--ignore-scripts', '--omit=dev', '--omit=peer', '--no-audit', '--no-fund', '--prefer-offline', '--package-lock=false');
		await runCommand('npm', args, { cwd: home.nodesDir, env: baseEnv(), timeoutMs: 10 * 60 * 1000, what: 'npm install of the packed package' });
		// npm wrote "file:<path of the tgz>"; the tgz is temporary, so record the version instead,
		// as n8n's own installer does.
		const pkg = JSON.parse(fs.readFileSync(ledger, 'utf8'));
		for (const name of Object.keys(pkg.dependencies || {})) {
			const installed = path.join(home.nodesDir, 'node_modules', name, 'package.json');
			if (fs.existsSync(installed)) pkg.dependencies[name] = JSON.parse(fs.readFileSync(installed, 'utf8')).version;
		}
		fs.writeFileSync(ledger, `${JSON.stringify(pkg, null, 2)}\n`);
	}
	return home;
}

/**
 * Reopens a home made by createN8nHome (its settings are in <userFolder>/n8n-home.json).
 * With create, makes the folder and its settings when missing. version: the n8n that runs it
 * (default: the tests' one); a home's database is n8n's, so one home stays with one version.
 */
function openN8nHome(userFolder, { create = false, version } = {}) {
	const folder = path.resolve(userFolder);
	const file = path.join(folder, 'n8n-home.json');
	let saved;
	try {
		saved = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		if (!create) throw new Error(`${folder} is not an n8n home made by createN8nHome (no n8n-home.json)`);
		fs.mkdirSync(folder, { recursive: true });
		saved = { encryptionKey: crypto.randomBytes(24).toString('hex') };
		fs.writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
	}
	const nodesDir = path.join(folder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const n8nVersion = runtime.resolveVersion(version || VERSION);
	const major = Number(n8nVersion.split('.')[0]);
	return {
		userFolder: folder,
		nodesDir,
		version: n8nVersion,
		major,
		env: n8nEnv(folder, saved.encryptionKey, major),
		cleanup() {},
	};
}

/**
 * The environment every n8n process of a home runs with: quiet, offline, local-only. major: the
 * n8n line (1.x refuses to start when N8N_DISABLED_MODULES names a module it does not have).
 */
function n8nEnv(userFolder, encryptionKey, major = MAJOR) {
	const env = {
		N8N_USER_FOLDER: userFolder,
		// Fixed per home: the CLI imports and the server must agree on it.
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// The MCP server registry refreshes itself from n8n's cloud at start: not reachable here.
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NO_COLOR: '1',
	};
	// 1.x has no MCP server registry module (and no module to disable)
	if (major < 2) delete env.N8N_DISABLED_MODULES;
	return env;
}

/* ---------------- running n8n commands ---------------- */

function runCommand(cmd, args, { cwd, env, timeoutMs = 120000, what, allowFail = false }) {
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		liveGroups.add(child.pid);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {}
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			liveGroups.delete(child.pid);
			reject(err);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			liveGroups.delete(child.pid);
			const res = { code: code ?? 128, signal, stdout, stderr, ms: Date.now() - t0 };
			if (res.code !== 0 && !allowFail) {
				const err = new Error(`${what || cmd} failed (exit ${res.code}${signal ? `, ${signal}` : ''}):\n${tail(stdout)}\n${tail(stderr)}`);
				err.result = res;
				reject(err);
			} else resolve(res);
		});
	});
}

function tail(text, n = 30) {
	return String(text).trimEnd().split('\n').slice(-n).join('\n');
}

/**
 * Runs `n8n <args>` for a home under `timeout -k` (n8n waits out running executions on SIGTERM,
 * and a hung command must not hang the test). Resolves { code, stdout, stderr, ms }; does not
 * throw on a non-zero exit.
 */
/**
 * n8n 2.40.7's CLI on Node 24 now and then dies by SIGSEGV while it exits, after its work is done
 * and printed: on a loaded 2-core machine 4 of 12 `n8n execute` runs, successful and failed alike,
 * none of 12 with N8N_EXPRESSION_ENGINE=legacy (so: the teardown of the isolated-vm expression
 * engine, n8n's default). The cause (issue 37, test/real-n8n/isolate-exit-race.js): n8n disposes
 * the engine and calls process.exit() without waiting for isolated-vm's thread to finish the
 * disposal; exit()'s handlers then race that thread (gdb: ivm::PlatformDelegate::UnregisterIsolate
 * on isolated-vm's thread while the main thread joins it from ivm::thread_pool_t's destructor).
 * `n8n start` ends the same way after a SIGTERM now and then (smoke.test.js). The tests keep the
 * default engine, as users have it, and take such an exit as the command's outcome only where the
 * output proves the work finished (the imported count, the whole run); `crashedAtExit` records it.
 */
function crashedAtExit(res) {
	return res.signal === 'SIGSEGV';
}

async function runN8n(home, args, { timeoutMs = 120000, env } = {}) {
	const { nodeBin, n8nBin } = await ensureRuntime({ quiet: true, version: home.version });
	const secs = Math.max(1, Math.ceil(timeoutMs / 1000));
	// Each process gets its own task-runner broker port, so CLI runs can overlap a running server.
	const runnerPort = await freePort();
	const fullEnv = baseEnv({ ...home.env, N8N_RUNNERS_BROKER_PORT: String(runnerPort), ...env });
	return runCommand('timeout', ['-k', '10', `${secs}`, nodeBin, n8nBin, ...args], {
		cwd: home.userFolder,
		env: fullEnv,
		timeoutMs: timeoutMs + 20000,
		allowFail: true,
	});
}

function writeImportFile(home, kind, data) {
	const dir = path.join(home.userFolder, 'import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${kind}-${Date.now()}-${crypto.randomBytes(3).toString('hex')}.json`);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/**
 * Imports credentials: [{ id, name, type, data: { plain fields } }]. `n8n import:credentials`
 * encrypts a plain-object `data` with the home's key itself (2.x); an already encrypted string
 * is stored as is. Returns the ids.
 */
async function importCredentials(home, creds) {
	const list = creds.map((c) => ({ id: c.id || newId(), ...c }));
	const file = writeImportFile(home, 'credentials', list);
	const res = await runN8n(home, ['import:credentials', `--input=${file}`]);
	if ((res.code !== 0 && !crashedAtExit(res)) || !/Successfully imported \d+ credential/.test(res.stdout + res.stderr)) {
		throw new Error(`n8n import:credentials failed (exit ${res.code}):\n${tail(res.stdout)}\n${tail(res.stderr)}`);
	}
	return list.map((c) => c.id);
}

/**
 * Imports one workflow (object, as exported from the editor; an id is added when missing) and
 * returns its id. Imported workflows are inactive; see publishWorkflow / server.activateWorkflow.
 */
async function importWorkflow(home, workflow) {
	const wf = { ...workflow, id: workflow.id || newId() };
	wf.active = false;
	wf.settings = wf.settings || {};
	wf.connections = wf.connections || {};
	const file = writeImportFile(home, 'workflow', wf);
	const res = await runN8n(home, ['import:workflow', `--input=${file}`]);
	if ((res.code !== 0 && !crashedAtExit(res)) || !/Successfully imported \d+ workflow/.test(res.stdout + res.stderr)) {
		throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${tail(res.stdout)}\n${tail(res.stderr)}`);
	}
	return wf.id;
}

/**
 * Marks a workflow published (active) in the database while no server runs; the next
 * `n8n start` activates its triggers. (`update:workflow --active=true` in 1.x, gone in 2.x.)
 */
async function publishWorkflow(home, id) {
	const args = (home.major || MAJOR) >= 2 ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
	const res = await runN8n(home, args);
	if (res.code !== 0 || /error/i.test(res.stderr)) {
		throw new Error(`n8n publish:workflow failed (exit ${res.code}):\n${tail(res.stdout)}\n${tail(res.stderr)}`);
	}
}

/**
 * Finds the run's JSON in `n8n execute` output: on success it is all of stdout with --rawOutput;
 * on failure n8n logs it pretty-printed among other log lines. Returns the parsed run or undefined.
 */
function extractRun(text) {
	const lines = String(text).split('\n');
	let best;
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = lines.length - 1; j > i; j--) {
			if (lines[j] !== '}') continue;
			try {
				const obj = JSON.parse(lines.slice(i, j + 1).join('\n'));
				if (obj && obj.data && obj.data.resultData) {
					best = obj;
					i = j;
				}
				break;
			} catch {}
		}
		if (best) break;
	}
	return best;
}

/**
 * Summarises an n8n run: { status, finished, error, lastNode, nodes: { [name]: { items, outputs,
 * error, executionStatus } } } where items are the json of the node's first output (last run).
 */
function summariseRun(run) {
	if (!run) return undefined;
	const rd = run.data.resultData || {};
	const nodes = {};
	for (const [name, runs] of Object.entries(rd.runData || {})) {
		const last = runs[runs.length - 1] || {};
		const main = (last.data && last.data.main) || [];
		nodes[name] = {
			items: (main[0] || []).map((i) => i.json),
			outputs: main.map((out) => (out || []).map((i) => i.json)),
			binary: (main[0] || []).map((i) => i.binary).filter(Boolean),
			error: last.error ? { message: last.error.message, description: last.error.description, httpCode: last.error.httpCode } : undefined,
			executionStatus: last.executionStatus,
			runs: runs.length,
		};
	}
	return {
		status: run.status || (rd.error ? 'error' : 'success'),
		finished: run.finished,
		error: rd.error ? { message: rd.error.message, description: rd.error.description, node: rd.error.node && rd.error.node.name } : undefined,
		lastNode: rd.lastNodeExecuted,
		nodes,
		raw: run,
	};
}

/**
 * `n8n execute --id ID --rawOutput` (the workflow starts at its Manual Trigger; env: extra
 * settings for this run, e.g. N8N_RUNNERS_ENABLED on 1.x). Resolves
 * { code, stdout, stderr, ms, result } where result is summariseRun() of the run (undefined when
 * none was printed, e.g. a crash). A failed run gives code 1 and result.error.
 */
async function executeWorkflow(home, id, { timeoutMs = 120000, env } = {}) {
	const res = await runN8n(home, ['execute', `--id=${id}`, '--rawOutput'], { timeoutMs, env });
	const run = extractRun(res.stdout) || extractRun(res.stderr);
	const result = summariseRun(run);
	if (crashedAtExit(res) && result) {
		// the run was printed whole: the exit code n8n gives it (1 when the run failed)
		process.stderr.write(`[n8n] execute --id=${id}: n8n died by SIGSEGV while exiting, after printing its ${result.status} run\n`);
		return { ...res, code: result.status === 'error' ? 1 : 0, crashedAtExit: res.signal, result };
	}
	return { ...res, result };
}

/* ---------------- the long-running server ---------------- */

/**
 * n8n 1.x closes an idle HTTP connection after Node's default 5 s; Node's fetch keeps one up to 4 s
 * and, on a machine busy enough to run its timers late, now and then sends the next request on a
 * connection the server has just closed: undici fails it with "other side closed" before any
 * answer (the server never read it). In a process that requires this file, fetch (also the MCP
 * SDK's, and every test's own calls) sends such a request once more, on a new connection, when
 * its body can be sent again.
 */
const realFetch = globalThis.fetch;
if (!realFetch.vendorRetriesClosed) {
	const closedBeforeAnswer = (err) => Boolean(err && err.cause && err.cause.code === 'UND_ERR_SOCKET' && /other side closed/.test(err.cause.message));
	const replayable = (init) => !init || init.body === undefined || init.body === null || typeof init.body === 'string' || Buffer.isBuffer(init.body) || init.body instanceof URLSearchParams;
	const fetchOnceMore = async (input, init) => {
		try {
			return await realFetch(input, init);
		} catch (err) {
			if (closedBeforeAnswer(err) && replayable(init) && !(init && init.signal && init.signal.aborted)) return realFetch(input, init);
			throw err;
		}
	};
	fetchOnceMore.vendorRetriesClosed = true;
	globalThis.fetch = fetchOnceMore;
}

/** One HTTP request; resolves { status, headers, text, json }. */
function request(url, { method = 'GET', body, headers = {}, timeoutMs = 15000 } = {}) {
	const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs) };
	if (body !== undefined) {
		init.headers['content-type'] = 'application/json';
		init.body = JSON.stringify(body);
	}
	return fetch(url, init).then(async (res) => {
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {}
		return { status: res.status, headers: res.headers, text, json };
	});
}

/**
 * Starts `n8n start` for a home on 127.0.0.1:port and waits until it serves /healthz/readiness
 * (database up, migrations done) and /rest/settings. With owner (default), sets up the owner
 * account (POST /rest/owner/setup, what the editor's first-run screen does) and logs in, so
 * server.rest() calls are authenticated and the editor shows a sign-in page, not a sign-up page.
 * Returns a server: { url, port, pid, logs(), rest(), activateWorkflow(), deactivateWorkflow(),
 * listExecutions(), waitForExecutions(), stop() }.
 */
async function startN8n(home, { port, owner = true, timeoutMs = 180000, env, onOutput } = {}) {
	const { nodeBin, n8nBin } = await ensureRuntime({ quiet: true, version: home.version });
	const p = port || (await freePort());
	const runnerPort = await freePort();
	const url = `http://127.0.0.1:${p}`;
	const fullEnv = baseEnv({
		...home.env,
		N8N_PORT: String(p),
		N8N_EDITOR_BASE_URL: `http://localhost:${p}`,
		N8N_WEBHOOK_URL: `http://localhost:${p}/`,
		N8N_RUNNERS_BROKER_PORT: String(runnerPort),
		...env,
	});
	const t0 = Date.now();
	const child = spawn(nodeBin, [n8nBin, 'start'], { cwd: home.userFolder, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	liveGroups.add(child.pid);
	let output = '';
	const take = (d) => {
		output += d;
		if (output.length > 2e6) output = output.slice(-1e6);
		if (onOutput) onOutput(String(d));
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	let exited = null;
	const exitPromise = new Promise((resolve) => child.on('close', (code, signal) => resolve((exited = { code, signal }))));

	const server = {
		url,
		editorUrl: `http://localhost:${p}`,
		port: p,
		pid: child.pid,
		home,
		owner: OWNER,
		browserId: crypto.randomUUID(),
		cookie: '',
		startMs: 0,
		logs: () => output,
		/**
		 * An authenticated request to any path of the server; returns { status, headers, json, text }.
		 * timeoutMs: 15 s unless given (n8n's installer answers when its npm commands have ended).
		 */
		async call(method, pathname, body, { timeoutMs } = {}) {
			return request(`${url}${pathname}`, {
				method,
				body,
				timeoutMs,
				headers: { cookie: server.cookie, 'browser-id': server.browserId },
			});
		},
		/** An authenticated call to n8n's internal REST API: rest('GET', '/workflows') is GET /rest/workflows. */
		async rest(method, route, body, options) {
			return server.call(method, `/rest${route}`, body, options);
		},
		async setupOwner() {
			const settings = await request(`${url}/rest/settings`);
			const um = settings.json && settings.json.data && settings.json.data.userManagement;
			if (um && um.showSetupOnFirstLoad === false) return false;
			const res = await request(`${url}/rest/owner/setup`, { method: 'POST', body: OWNER, headers: { 'browser-id': server.browserId } });
			if (res.status !== 200) throw new Error(`owner setup failed: ${res.status} ${res.text}`);
			return true;
		},
		async login() {
			const res = await request(`${url}/rest/login`, {
				method: 'POST',
				body: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
				headers: { 'browser-id': server.browserId },
			});
			if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
			const set = res.headers.getSetCookie ? res.headers.getSetCookie() : [res.headers.get('set-cookie')];
			server.cookie = set
				.filter(Boolean)
				.map((c) => c.split(';')[0])
				.join('; ');
			return res.json.data;
		},
		/** Publishes (activates) the workflow's current version, as the editor's Publish button does. */
		async activateWorkflow(id) {
			const wf = await server.rest('GET', `/workflows/${id}`);
			if (wf.status !== 200) throw new Error(`GET workflow ${id}: ${wf.status} ${wf.text}`);
			const res = await server.rest('POST', `/workflows/${id}/activate`, { versionId: wf.json.data.versionId });
			if (res.status !== 200) throw new Error(`activate ${id}: ${res.status} ${res.text}`);
			return res.json.data;
		},
		async deactivateWorkflow(id) {
			const res = await server.rest('POST', `/workflows/${id}/deactivate`, {});
			if (res.status !== 200) throw new Error(`deactivate ${id}: ${res.status} ${res.text}`);
			return res.json.data;
		},
		/** Executions, newest first: [{ id, status, mode, workflowId, startedAt, stoppedAt }]. */
		async listExecutions({ workflowId, limit = 50 } = {}) {
			const filter = encodeURIComponent(JSON.stringify(workflowId ? { workflowId } : {}));
			const res = await server.rest('GET', `/executions?filter=${filter}&limit=${limit}`);
			if (res.status !== 200) throw new Error(`list executions: ${res.status} ${res.text}`);
			const data = res.json.data;
			return Array.isArray(data) ? data : data.results;
		},
		/** One execution with its run data, summarised like executeWorkflow's result. */
		async getExecution(executionId) {
			const res = await server.rest('GET', `/executions/${executionId}`);
			if (res.status !== 200) throw new Error(`get execution ${executionId}: ${res.status} ${res.text}`);
			const ex = res.json.data;
			let data = ex.data;
			if (typeof data === 'string') data = unflatten(JSON.parse(data));
			return summariseRun({ ...ex, data });
		},
		async waitForExecutions(workflowId, count = 1, { timeoutMs: waitMs = 60000, finished = true } = {}) {
			const until = Date.now() + waitMs;
			for (;;) {
				const list = await server.listExecutions({ workflowId });
				const done = finished ? list.filter((e) => !['new', 'running', 'waiting'].includes(e.status)) : list;
				if (done.length >= count) return done;
				if (Date.now() > until) throw new Error(`timed out waiting for ${count} execution(s) of ${workflowId}; have ${JSON.stringify(list)}`);
				await sleep(500);
			}
		},
		/** SIGTERM, then SIGKILL after graceMs; resolves once the process is gone. */
		async stop({ graceMs = 15000 } = {}) {
			if (exited) return exited;
			// the task runner runs in the same process group: nothing of it is left
			const res = await stopProcessGroup(child.pid, exitPromise, { graceMs });
			liveGroups.delete(child.pid);
			return res;
		},
	};

	try {
		const until = Date.now() + timeoutMs;
		for (;;) {
			if (exited) throw new Error(`n8n start exited early (${JSON.stringify(exited)})`);
			if (Date.now() > until) throw new Error(`n8n did not become ready on ${url} within ${timeoutMs} ms`);
			const ok = await request(`${url}/healthz/readiness`, { timeoutMs: 2000 }).then(
				(r) => r.status === 200,
				() => false,
			);
			if (ok) {
				const s = await request(`${url}/rest/settings`, { timeoutMs: 5000 }).catch(() => ({ status: 0 }));
				if (s.status === 200) break;
			}
			await sleep(250);
		}
		server.startMs = Date.now() - t0;
		if (owner) {
			await server.setupOwner();
			await server.login();
		}
	} catch (err) {
		await server.stop({ graceMs: 2000 });
		err.message += `\n--- n8n output ---\n${tail(output, 60)}`;
		throw err;
	}
	return server;
}

/**
 * A production Webhook trigger node (POST /webhook/<path>) that answers with the last node's
 * output (`responseData`: 'allEntries' or 'firstEntryJson') once the run ended.
 */
function webhookNode(webhookPath, responseData = 'allEntries') {
	return {
		id: 'webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData, options: {} },
	};
}

/** Expands n8n's "flatted" execution data (GET /rest/executions/:id returns it that way). */
function unflatten(arr) {
	if (!Array.isArray(arr)) return arr;
	const seen = new Map();
	const revive = (v) => {
		if (typeof v === 'string' && /^\d+$/.test(v)) return resolve(Number(v));
		return v;
	};
	const resolve = (index) => {
		if (seen.has(index)) return seen.get(index);
		const v = arr[index];
		if (v === null || typeof v !== 'object') {
			seen.set(index, v);
			return v;
		}
		const out = Array.isArray(v) ? [] : {};
		seen.set(index, out);
		for (const [k, val] of Object.entries(v)) out[k] = revive(val);
		return out;
	};
	return resolve(0);
}

module.exports = {
	OWNER,
	version: VERSION,
	major: MAJOR,
	ensureRuntime,
	baseEnv,
	request,
	tail,
	packPackage,
	createN8nHome,
	openN8nHome,
	runN8n,
	crashedAtExit,
	importCredentials,
	importWorkflow,
	publishWorkflow,
	executeWorkflow,
	startN8n,
	extractRun,
	summariseRun,
	freePort,
	webhookNode,
	newId,
	n8nEnv,
};

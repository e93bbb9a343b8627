#!/usr/bin/env node
'use strict';
/**
 * `npm start`: n8n with this package, a local vendor and the example workflows, for trying the
 * package without an account at the vendor.
 *
 *   npm start                          build, start the emulator and n8n, print address and login
 *   npm start -- --reset               the same from a fresh sandbox (emulator data and n8n home)
 *   npm start -- --port 5679           n8n on another port (default 5678)
 *   npm start -- --emulator-port 9000  the emulator on another port (default 8990, else a free one)
 *   npm start -- --no-build            skip the gulp build (dist/ as it is)
 *   npm start -- --queue               queue mode: PostgreSQL and Redis (Debian's packages, installed
 *                                      when missing), the n8n main and two `n8n worker` processes
 *   npm start -- --n8n 1.123.x         another n8n (the 1.x line the project is tested on, or an exact
 *                                      version); its own n8n home .sandbox/n8n-<version>/ (a database
 *                                      made by one n8n line cannot be opened by the other)
 *
 * Steps: build (gulp) → the pinned n8n runtime (installed into .cache/ on the first run) → the
 * emulator on 127.0.0.1 with demo data, its state kept in .sandbox/emulator → the n8n home in
 * .sandbox/n8n with the packed package installed the user's way (`npm install <tgz>` in
 * .n8n/nodes; redone only when the package changed) → the two credentials (pointing at the
 * emulator) and the example workflows of examples/ imported with fixed ids (again on every start,
 * so they stay current) → `n8n start` on http://localhost:5678 with the owner account set up.
 * Ctrl-C stops n8n (SIGTERM, SIGKILL after a few seconds) and the emulator, which saves its state.
 *
 * With --queue the n8n part is n8n's queue mode (test/real-n8n/queue-lib.js): PostgreSQL and Redis
 * started by scripts/queue-services.js on free ports with their data kept in .sandbox/queue/services,
 * the main (EXECUTIONS_MODE=queue) on the same port and two workers, each with its own user folder
 * in .sandbox/queue/ and the package installed there the user's way, binary data in filesystem mode
 * on .sandbox/queue/binary-data (the setting docs/self-hosting.md recommends for queue mode). Ctrl-C stops the
 * workers and the main, then PostgreSQL and Redis, then the emulator.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, execFile } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const SANDBOX = path.join(ROOT, '.sandbox');
const EMULATOR_DATA = path.join(SANDBOX, 'emulator');
const RUNTIME = require('./n8n-runtime');
// the default n8n keeps the folders it always had; another version gets its own (set in main())
let N8N_FOLDER = path.join(SANDBOX, 'n8n');
let N8N_LOG = path.join(SANDBOX, 'n8n.log');
let PACKAGE_STAMP = path.join(N8N_FOLDER, 'package-stamp.json');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;
const QUEUE_DIR = path.join(SANDBOX, 'queue');
const QUEUE_WORKERS = 2;

/**
 * The sandbox's credentials: fixed ids, and the names n8n gives new credentials of these types
 * (n8n 2.40.7's editor: the type's display name without the words API, OAuth1, OAuth2 and MCP,
 * plus "account"), which the examples reference.
 */
const CREDENTIALS = {
	vendorApi: { id: 'vendorApiSandbox', name: 'Vendor account' },
	vendorObjectStorageApi: { id: 'vendorOssSandbox', name: 'Vendor Object Storage account' },
	httpBearerAuth: { id: 'vendorMcpSandbox', name: 'Vendor MCP token' },
};
/** The MCP example (examples/mcp-vendor-tools.json): published at start, its clients send this token. */
const MCP = { workflowId: 'vendorExample007', path: 'vendor-tools', token: 'vendor-mcp-sandbox-token' };
/** The demo logins the emulator seeds (emulator/: seedDemo of each module). */
const DEMO = { username: 'demo', password: 'demo-password', accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' };

const STOP_GRACE_MS = 5000;

let emu;
let server;
let queueLayout;

/* ---------------- arguments and output ---------------- */

function parseArgs(argv) {
	const out = { reset: false, build: true, port: 5678, emulatorPort: 8990, help: false, queue: false, n8n: undefined };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=');
		const value = () => (inline !== undefined ? inline : argv[++i]);
		if (flag === '--reset') out.reset = true;
		else if (flag === '--no-build') out.build = false;
		else if (flag === '--queue') out.queue = true;
		else if (flag === '--n8n') out.n8n = value();
		// `npm start --n8n 1.123.x` (no `--`): npm takes --n8n as its own flag and passes the version on
		else if (!flag.startsWith('-') && process.env.npm_config_n8n === 'true' && out.n8n === undefined) out.n8n = flag;
		else if (flag === '--port') out.port = Number(value());
		else if (flag === '--emulator-port') out.emulatorPort = Number(value());
		else if (flag === '--help' || flag === '-h') out.help = true;
		else throw new Error(`unknown option ${argv[i]} (try --help)`);
	}
	// `npm start --n8n=1.123.x` (no `--`) reaches the script as npm's config npm_config_n8n
	if (out.n8n === undefined && process.env.npm_config_n8n && process.env.npm_config_n8n !== 'true') out.n8n = process.env.npm_config_n8n;
	out.n8n = RUNTIME.resolveVersion(out.n8n);
	if (out.queue && out.n8n !== RUNTIME.DEFAULT_VERSION) throw new Error(`--queue runs n8n ${RUNTIME.DEFAULT_VERSION} (the queue layout is tested on it); leave out --n8n or --queue`);
	for (const k of ['port', 'emulatorPort']) {
		if (!Number.isInteger(out[k]) || out[k] < 1 || out[k] > 65535) throw new Error(`--${k === 'port' ? 'port' : 'emulator-port'} needs a port number`);
	}
	return out;
}

const HELP = `npm start [-- options]
  --reset              start from a fresh sandbox (wipes .sandbox/: emulator data, n8n database)
  --port N             n8n's port (default 5678)
  --emulator-port N    the emulator's port (default 8990; a free one when that is taken)
  --no-build           do not run the gulp build first
  --queue              n8n in queue mode: PostgreSQL, Redis, the main and ${QUEUE_WORKERS} workers (data in .sandbox/queue/)
  --n8n VERSION        another n8n: ${Object.keys(RUNTIME.LINES).filter((v) => v !== RUNTIME.DEFAULT_VERSION).join(', ')} (or 1.123.x, 1.x, an exact version; default ${RUNTIME.DEFAULT_VERSION});
                       its own n8n home in .sandbox/n8n-<version>/`;

const started = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const TOTAL_STEPS = 6;
let stepNo = 0;
let stepStarted = 0;
function step(title) {
	stepNo += 1;
	stepStarted = Date.now();
	process.stdout.write(`\n[${stepNo}/${TOTAL_STEPS}] ${title}\n`);
}
function done(detail) {
	process.stdout.write(`      done in ${secs(Date.now() - stepStarted)}${detail ? `: ${detail}` : ''}\n`);
}
const say = (line) => process.stdout.write(`      ${line}\n`);

/* ---------------- helpers ---------------- */

function run(cmd, args, { cwd = ROOT, env = process.env } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		const take = (d) => {
			out += d;
			for (const line of String(d).split('\n')) if (line.trim()) process.stdout.write(`      | ${line.trimEnd()}\n`);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (code === 0) resolve(out);
			else reject(new Error(`${path.basename(cmd)} ${args.join(' ')} failed (exit ${code ?? signal})`));
		});
	});
}

function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/** A port that is free now, for the advice when the one asked for is taken: the next ones first, then any. */
async function freePortAfter(port) {
	for (let p = port + 1; p <= Math.min(65535, port + 20); p++) if (await portFree(p)) return p;
	return await require('./free-port').freePort();
}

/** The error for a taken n8n port, naming a port that is free right now. */
async function portTaken(port, queue) {
	const free = await freePortAfter(port);
	return new Error(`port ${port} is taken (another n8n, or another program); stop it, or start on a port that is free now: npm start --${queue ? ' --queue' : ''} --port ${free}`);
}

function sha256File(file) {
	return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/** The example workflows of examples/, as n8n imports them (sorted by file name). */
function loadExamples() {
	const dir = path.join(ROOT, 'examples');
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => ({ file: f, workflow: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

/** One `npm start` per sandbox: the pid of a running one is kept in .sandbox/start.pid. */
const PID_FILE = path.join(SANDBOX, 'start.pid');
function sandboxOwner() {
	const pid = Number(readJson(PID_FILE));
	if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
	try {
		process.kill(pid, 0);
		return pid;
	} catch {
		return undefined;
	}
}
function claimSandbox() {
	fs.writeFileSync(PID_FILE, String(process.pid));
	process.on('exit', () => {
		try {
			if (Number(fs.readFileSync(PID_FILE, 'utf8')) === process.pid) fs.rmSync(PID_FILE);
		} catch {}
	});
}

/* ---------------- the steps ---------------- */

/** What the build reads: when none of it changed and dist/ is the one built from it, the build is skipped. */
const BUILD_INPUTS = ['nodes', 'credentials', 'icons', 'package.json', 'package-lock.json', 'tsconfig.json', 'gulpfile.js', 'scripts/bundled.js'];

/** One sha256 over the files under `entries` of `root` (paths and contents, in a fixed order). */
function treeHash(root, entries) {
	const hash = crypto.createHash('sha256');
	const visit = (rel) => {
		const abs = path.join(root, rel);
		let st;
		try {
			st = fs.statSync(abs);
		} catch {
			return;
		}
		if (st.isDirectory()) for (const name of fs.readdirSync(abs).sort()) visit(path.join(rel, name));
		else hash.update(`${rel}\0${st.size}\0`).update(fs.readFileSync(abs));
	};
	for (const e of entries) visit(e);
	return hash.digest('hex');
}

/** The build's stamp: what dist/ was built from, and dist/ as it was then. */
function buildStamp(root) {
	return { inputs: treeHash(root, BUILD_INPUTS), dist: treeHash(root, ['dist']) };
}

/** True when dist/ was built by `npm start` from the sources as they are now, and is unchanged since. */
function buildIsCurrent(root = ROOT, stampFile = path.join(SANDBOX, 'build-stamp.json')) {
	const saved = readJson(stampFile);
	if (!saved || !fs.existsSync(path.join(root, 'dist'))) return false;
	const now = buildStamp(root);
	return saved.inputs === now.inputs && saved.dist === now.dist;
}

function recordBuild(root = ROOT, stampFile = path.join(SANDBOX, 'build-stamp.json')) {
	fs.mkdirSync(path.dirname(stampFile), { recursive: true });
	fs.writeFileSync(stampFile, `${JSON.stringify({ ...buildStamp(root), at: new Date().toISOString() }, null, 2)}\n`);
}

async function build() {
	if (buildIsCurrent()) {
		step('building the package: nothing changed since the last build, dist/ kept');
		return;
	}
	step('building the package (gulp build)');
	await run(process.execPath, [path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'build', '--silent']);
	recordBuild();
	done('dist/');
}

async function runtime(n8n) {
	step(`the n8n runtime (n8n ${n8n.version} on Node ${RUNTIME.LINES[n8n.version] ? RUNTIME.LINES[n8n.version].node : '24'}; installed into .cache/ on the first run, 5-7 minutes on a 2-core machine)`);
	const rt = await n8n.ensureRuntime({ quiet: false });
	done(`n8n ${rt.n8nVersion} on Node ${rt.nodeVersion}`);
}

async function startEmulator(opts) {
	step(`the vendor emulator (demo data, state in ${path.relative(ROOT, EMULATOR_DATA)}/)`);
	const { createEmulator } = require(path.join(ROOT, 'emulator'));
	let port = opts.emulatorPort;
	if (!(await portFree(port))) {
		say(`port ${port} is taken; using a free port instead`);
		port = 0;
	}
	const fresh = !fs.existsSync(path.join(EMULATOR_DATA, 'state.json'));
	const emu = await createEmulator({ host: '127.0.0.1', port, dataDir: EMULATOR_DATA, seed: 'demo' });
	// Saved on stop; also every half minute, so a killed terminal loses little.
	const saver = setInterval(() => {
		try {
			emu.save();
		} catch {}
	}, 30000);
	saver.unref();
	emu.stopSaving = () => clearInterval(saver);
	done(`${emu.url} (${fresh ? 'new, seeded with demo data' : 'state restored from the last run'})`);
	return emu;
}

async function prepareHome(n8n) {
	step(`the n8n home (${path.relative(ROOT, N8N_FOLDER)}/) with the packed package installed`);
	const packDir = path.join(SANDBOX, 'pack');
	fs.rmSync(packDir, { recursive: true, force: true });
	const tgz = n8n.packPackage(ROOT, { outDir: packDir });
	const hash = sha256File(tgz);
	const installed = path.join(N8N_FOLDER, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
	const stamp = readJson(PACKAGE_STAMP);
	let home;
	if (stamp && stamp.sha256 === hash && fs.existsSync(installed)) {
		home = n8n.openN8nHome(N8N_FOLDER);
		done(`package unchanged (${path.basename(tgz)}, sha256 ${hash.slice(0, 12)}), kept`);
	} else {
		// Replace, never merge with, an earlier install of the same version.
		fs.rmSync(path.dirname(installed), { recursive: true, force: true });
		home = await n8n.createN8nHome({ userFolder: N8N_FOLDER, tgz });
		fs.writeFileSync(PACKAGE_STAMP, `${JSON.stringify({ sha256: hash, tgz: path.basename(tgz), at: new Date().toISOString() }, null, 2)}\n`);
		done(`${stamp ? 'package changed, reinstalled' : 'installed'} (npm install ${path.basename(tgz)} in .n8n/nodes)`);
	}
	fs.rmSync(packDir, { recursive: true, force: true });
	return home;
}

async function importAll(n8n, home, emu) {
	const examples = loadExamples();
	step(`credentials for the emulator and ${examples.length} example workflows (imported with fixed ids)`);
	await n8n.importCredentials(home, [
		{
			...CREDENTIALS.vendorApi,
			type: 'vendorApi',
			data: { apiUrl: emu.url, username: DEMO.username, password: DEMO.password, loginEncoding: 'none' },
		},
		{
			...CREDENTIALS.vendorObjectStorageApi,
			type: 'vendorObjectStorageApi',
			data: { endpoint: emu.url, accessKey: DEMO.accessKey, accessSecret: DEMO.accessSecret },
		},
		{ ...CREDENTIALS.httpBearerAuth, type: 'httpBearerAuth', data: { token: MCP.token } },
	]);
	say(`"${CREDENTIALS.vendorApi.name}" → ${emu.url} as ${DEMO.username}; "${CREDENTIALS.vendorObjectStorageApi.name}" → ${emu.url}, key ${DEMO.accessKey}`);
	// One import:workflow run for all of them (each n8n command boots n8n: seconds).
	const list = examples.map(({ workflow }) => ({ ...workflow, active: false, settings: workflow.settings || {} }));
	const file = path.join(home.userFolder, 'import', 'examples.json');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(list, null, 2));
	const res = await n8n.runN8n(home, ['import:workflow', `--input=${file}`], { timeoutMs: 180000 });
	// (n8n's CLI may die by SIGSEGV while exiting after its work is done: see crashedAtExit)
	if ((res.code !== 0 && !n8n.crashedAtExit(res)) || !new RegExp(`Successfully imported ${list.length} workflow`).test(res.stdout + res.stderr)) {
		throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`);
	}
	for (const { file: f, workflow } of examples) say(`${workflow.name}  (examples/${f})`);
	done();
	return examples;
}

/**
 * The example workflows that are published in the sandbox's n8n, read from its SQLite database
 * before the re-import unpublishes them (an import stores a workflow unpublished), so that they
 * are published again once n8n runs. Read with the runtime's Node (node:sqlite, Node 22.13 and
 * newer) without starting n8n; [] when there is no database yet.
 */
async function publishedExamples(n8n, home, examples) {
	const db = path.join(home.userFolder, '.n8n', 'database.sqlite');
	if (!fs.existsSync(db)) return [];
	const { nodeBin } = await n8n.ensureRuntime({ quiet: true });
	const read = [
		"const { DatabaseSync } = require('node:sqlite');",
		'const db = new DatabaseSync(process.argv[1], { readOnly: true });',
		"const rows = db.prepare('SELECT id FROM workflow_entity WHERE active = 1 OR activeVersionId IS NOT NULL').all();",
		'process.stdout.write(JSON.stringify(rows.map((r) => r.id)));',
	].join('\n');
	const ids = await new Promise((resolve, reject) =>
		execFile(nodeBin, ['--no-warnings', '-e', read, db], { timeout: 60000 }, (error, stdout, stderr) =>
			error ? reject(new Error(`reading the published workflows from ${path.relative(ROOT, db)} failed: ${stderr || error.message}`)) : resolve(JSON.parse(stdout)),
		),
	);
	return examples.filter((e) => ids.includes(e.workflow.id));
}

/** Publishes again the examples that were published before the re-import; returns what to print. */
async function republish(server, examples) {
	const lines = [];
	for (const e of examples) {
		try {
			await server.activateWorkflow(e.workflow.id);
			lines.push(`"${e.workflow.name}" published again (it was published before this start)`);
		} catch (error) {
			lines.push(`"${e.workflow.name}" was published before this start and could not be published again (${error.message.split('\n')[0]}): publish it in the editor`);
		}
	}
	return lines;
}

async function startServer(n8n, home, opts) {
	step(`n8n on http://localhost:${opts.port} (log: ${path.relative(ROOT, N8N_LOG)})`);
	if (!(await portFree(opts.port))) {
		throw await portTaken(opts.port, false);
	}
	const log = fs.openSync(N8N_LOG, 'a');
	fs.writeSync(log, `\n===== n8n start ${new Date().toISOString()} =====\n`);
	// n8n 1.x: the settings the README's Compatibility section (docs/compatibility.md) gives its users (Code nodes on task
	// runners, as in 2.x; binary data on disk, not in memory)
	const env = n8n.major < 2 ? { N8N_RUNNERS_ENABLED: 'true', N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } : undefined;
	if (env) say(`n8n ${n8n.version} with ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} (README: Compatibility)`);
	const server = await n8n.startN8n(home, {
		port: opts.port,
		owner: false,
		timeoutMs: 300000,
		env,
		onOutput: (text) => fs.writeSync(log, text),
	});
	server.logFd = log;
	const first = await server.setupOwner();
	let loginOk = true;
	try {
		await server.login();
	} catch {
		loginOk = false;
	}
	done(`ready after ${secs(server.startMs)}${first ? ', owner account set up' : ''}`);
	return { server, loginOk };
}

/**
 * Queue mode (--queue), steps 4-6: PostgreSQL and Redis, the three user folders with the package,
 * the imports through the main's folder, then the main and the workers.
 */
async function startQueue(n8n, emu, opts) {
	const q = require(path.join(ROOT, 'test', 'real-n8n', 'queue-lib'));
	step(`PostgreSQL, Redis and the n8n folders of the main and ${QUEUE_WORKERS} workers (${path.relative(ROOT, QUEUE_DIR)}/)`);
	if (!(await portFree(opts.port))) {
		throw await portTaken(opts.port, true);
	}
	const packDir = path.join(SANDBOX, 'pack');
	fs.rmSync(packDir, { recursive: true, force: true });
	const tgz = n8n.packPackage(ROOT, { outDir: packDir });
	const hash = sha256File(tgz);
	const stampFile = path.join(QUEUE_DIR, 'package-stamp.json');
	const homes = ['main', ...Array.from({ length: QUEUE_WORKERS }, (_, i) => `worker-${i + 1}`)];
	const installedIn = (name) => path.join(QUEUE_DIR, name, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	const stamp = readJson(stampFile);
	const install = !(stamp && stamp.sha256 === hash && homes.every((h) => fs.existsSync(path.join(installedIn(h), 'package.json'))));
	if (install) for (const h of homes) fs.rmSync(installedIn(h), { recursive: true, force: true });
	let examples;
	let mainStep;
	const layout = await q.startQueueLayout({
		tgz,
		workers: QUEUE_WORKERS,
		dir: QUEUE_DIR,
		port: opts.port,
		owner: false,
		install,
		// binary data on a folder every process reads: queue mode's default (database) holds each
		// file whole in memory and cannot read back files of 256 MiB (docs/self-hosting.md, Queue mode)
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_BINARY_DATA_STORAGE_PATH: path.join(QUEUE_DIR, 'binary-data') },
		log: say,
		beforeStart: async (l) => {
			fs.writeFileSync(stampFile, `${JSON.stringify({ sha256: hash, tgz: path.basename(tgz), at: new Date().toISOString() }, null, 2)}\n`);
			done(install ? `package installed in ${homes.length} folders (npm install ${path.basename(tgz)} in .n8n/nodes)` : 'package unchanged, kept');
			examples = await importAll(n8n, l.homes.main, emu);
			step(`n8n main on http://localhost:${opts.port} and ${QUEUE_WORKERS} workers (logs: ${path.relative(ROOT, path.join(QUEUE_DIR, 'logs'))}/)`);
			mainStep = Date.now();
		},
	});
	fs.rmSync(packDir, { recursive: true, force: true });
	const first = await layout.main.setupOwner();
	let loginOk = true;
	try {
		await layout.main.login();
	} catch {
		loginOk = false;
	}
	done(`ready after ${secs(Date.now() - mainStep)}${first ? ', owner account set up' : ''}`);
	return { layout, server: layout.main, loginOk, examples };
}

/* ---------------- main ---------------- */

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	if (opts.help) {
		process.stdout.write(`${HELP}\n`);
		return;
	}
	process.stdout.write(`n8n-nodes-vendor-cloud sandbox: n8n ${opts.n8n} with this package, a local vendor emulator and example workflows\n`);
	// the n8n the sandbox runs: lib.js reads it when first required (below)
	process.env.VENDOR_N8N_VERSION = opts.n8n;
	if (opts.n8n !== RUNTIME.DEFAULT_VERSION) {
		N8N_FOLDER = path.join(SANDBOX, `n8n-${opts.n8n}`);
		N8N_LOG = path.join(SANDBOX, `n8n-${opts.n8n}.log`);
		PACKAGE_STAMP = path.join(N8N_FOLDER, 'package-stamp.json');
	}
	const other = sandboxOwner();
	if (other) throw new Error(`another npm start (pid ${other}) is using .sandbox/; stop it first (Ctrl-C in its terminal)`);
	if (opts.reset && fs.existsSync(SANDBOX)) {
		fs.rmSync(SANDBOX, { recursive: true, force: true });
		process.stdout.write('--reset: removed .sandbox/ (emulator data, n8n database and settings)\n');
	}
	fs.mkdirSync(SANDBOX, { recursive: true });
	claimSandbox();
	if (!(await portFree(opts.port))) {
		throw await portTaken(opts.port, false);
	}

	let stopping = false;
	const stopAll = async (why, code = 0) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${why}: stopping…\n`);
		if (queueLayout) {
			const t = Date.now();
			await queueLayout.stop();
			process.stdout.write(`  n8n workers, main, PostgreSQL and Redis stopped in ${secs(Date.now() - t)} (data kept in ${path.relative(ROOT, QUEUE_DIR)}/)\n`);
		} else if (server) {
			const t = Date.now();
			const res = await server.stop({ graceMs: STOP_GRACE_MS });
			process.stdout.write(`  n8n stopped in ${secs(Date.now() - t)}${res && res.signal === 'SIGKILL' ? ' (killed after waiting for running executions)' : ''}\n`);
		}
		if (emu) {
			emu.stopSaving();
			await emu.close();
			process.stdout.write(`  emulator stopped, state saved in ${path.relative(ROOT, EMULATOR_DATA)}/\n`);
		}
		process.exit(code);
	};
	let interrupts = 0;
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(sig, () => {
			interrupts += 1;
			if (interrupts > 1) {
				process.stdout.write('\nstopping at once\n');
				if (server) {
					try {
						process.kill(-server.pid, 'SIGKILL');
					} catch {}
				}
				process.exit(130);
			}
			if (!server && !emu && !queueLayout) process.exit(130);
			stopAll(sig === 'SIGINT' ? 'Ctrl-C' : sig);
		});
	}

	if (opts.build) await build();
	else {
		step('building the package: skipped (--no-build)');
		if (!fs.existsSync(path.join(ROOT, 'dist'))) throw new Error('dist/ is missing; run without --no-build');
	}
	const n8n = require(path.join(ROOT, 'test', 'real-n8n', 'lib'));
	await runtime(n8n);
	emu = await startEmulator(opts);
	let examples;
	let started2;
	let wasPublished = [];
	if (opts.queue) {
		started2 = await startQueue(n8n, emu, opts);
		queueLayout = started2.layout;
		examples = started2.examples;
	} else {
		const home = await prepareHome(n8n);
		wasPublished = await publishedExamples(n8n, home, loadExamples());
		examples = await importAll(n8n, home, emu);
		started2 = await startServer(n8n, home, opts);
	}
	server = started2.server;
	// the re-import unpublished them: published again, and said so
	const republished = started2.loginOk ? await republish(server, wasPublished.filter((e) => e.workflow.id !== MCP.workflowId)) : [];
	if (!started2.loginOk && wasPublished.length) republished.push(`${wasPublished.map((e) => `"${e.workflow.name}"`).join(', ')} were published before and are not now: publish them in the editor`);
	if (opts.queue) republished.push('the example workflows are imported again, unpublished: publish again in the editor the ones you had published');
	// the MCP example serves its tools only while published (an import leaves it unpublished)
	let mcp = 'publish "Vendor: tools for your AI assistant (MCP)" in the editor to serve it';
	if (started2.loginOk && examples.some((e) => e.workflow.id === MCP.workflowId)) {
		try {
			await server.activateWorkflow(MCP.workflowId);
			mcp = `http://localhost:${opts.port}/mcp/${MCP.path}  (header Authorization: Bearer ${MCP.token})`;
		} catch (error) {
			mcp = `not published (${error.message.split('\n')[0]})`;
		}
	}

	const url = `http://localhost:${opts.port}`;
	const bar = '─'.repeat(72);
	const lines = [
		bar,
		`  n8n is ready:  ${url}   (started in ${secs(Date.now() - started)})`,
		started2.loginOk
			? `  log in:        ${n8n.OWNER.email}  /  ${n8n.OWNER.password}`
			: `  log in:        ${n8n.OWNER.email} with the password you set (the default ${n8n.OWNER.password} no longer works)`,
		`  workflows:     ${examples.map((e) => e.workflow.name).join('; ')}`,
		`  credentials:   "${CREDENTIALS.vendorApi.name}", "${CREDENTIALS.vendorObjectStorageApi.name}" (the emulator), "${CREDENTIALS.httpBearerAuth.name}" (MCP)`,
		`  MCP server:    ${mcp}`,
		`  emulator:      ${emu.url}  (demo account ${DEMO.username} / ${DEMO.password}; bucket demo-bucket)`,
		`  state:         .sandbox/ is kept between runs; npm start -- --reset starts afresh`,
		`                 (the example workflows are re-imported on each start: save your changes as a copy)`,
		...republished.map((l) => `                 ${l}`),
		`  host alert:    publish "Vendor: alert on an abnormal host", then turn the demo host web-1 abnormal:`,
		`                 curl -XPOST ${emu.url}/__emulator/management/instance/hosts/status -H 'content-type: application/json' -d '{"name":"web-1","status":3,"suspend_note":"disk errors"}'`,
		...(queueLayout
			? [
					`  queue mode:    main (editor, webhooks, triggers) + ${queueLayout.workers.length} workers (${queueLayout.workers.map((w) => `pid ${w.pid}`).join(', ')}) run the executions`,
					`                 PostgreSQL 127.0.0.1:${queueLayout.services.postgres.port}, Redis 127.0.0.1:${queueLayout.services.redis.port}; logs in ${path.relative(ROOT, path.join(QUEUE_DIR, 'logs'))}/`,
				]
			: []),
		`  stop:          Ctrl-C`,
		bar,
	];
	process.stdout.write(`\n${lines.join('\n')}\n`);

	// n8n ending on its own (a crash) ends the sandbox too.
	const watch = setInterval(() => {
		try {
			process.kill(server.pid, 0);
		} catch {
			clearInterval(watch);
			const tail = server.logs().trimEnd().split('\n').slice(-20).join('\n');
			process.stdout.write(`\nn8n exited unexpectedly; the end of its log:\n${tail}\n`);
			server = undefined;
			stopAll('n8n exited', 1);
		}
	}, 2000);
}

if (require.main === module) main().catch(async (err) => {
	process.stderr.write(`\nnpm start failed: ${err && err.message ? err.message : err}\n`);
	if (emu) {
		emu.stopSaving();
		await emu.close().catch(() => {});
	}
	process.exit(1);
});

module.exports = { publishedExamples, republish, importAll, loadExamples, buildIsCurrent, recordBuild, portTaken, CREDENTIALS };

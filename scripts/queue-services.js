#!/usr/bin/env node
'use strict';
/**
 * PostgreSQL and Redis for n8n's queue mode, from Debian's packages, run by this project on
 * 127.0.0.1 with free ports and their own data folders (never the system's clusters or services).
 * Used by test/real-n8n/queue.test.js and `npm start -- --queue`.
 *
 *   node scripts/queue-services.js             install if missing (apt-get, as root), print versions
 *   node scripts/queue-services.js --check     exit 0 when both are installed (installs nothing)
 *   node scripts/queue-services.js --start [--dir D]
 *                                              start both, print n8n's environment for them, run
 *                                              until Ctrl-C (with --dir the data is kept there)
 *
 *   const qs = require('./scripts/queue-services');
 *   qs.availability()           // { ok, installed, reason }: can they run here (no install)
 *   qs.ensureInstalled()        // apt-get update + install when missing; at once when installed
 *   const svc = await qs.startServices({ dir, keep });
 *   svc.env                     // EXECUTIONS_MODE, DB_*, QUEUE_BULL_REDIS_* for every n8n process
 *   await svc.stop();           // stops both; removes the data folder unless kept
 *
 * Without `dir` the data goes into a fresh folder under the OS tmp dir, removed by stop(); with
 * `dir` (and keep) it is reused across runs: the database cluster and its password stay, the
 * ports are chosen afresh each time. PostgreSQL refuses to run as root: when this runs as root the
 * cluster belongs to the `postgres` user the Debian package creates, and the server and initdb run
 * as that user. Both servers run in their own process groups, so a terminal's Ctrl-C reaches the
 * caller first (which stops n8n before its database); they are killed if the caller exits.
 */
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { stopProcessGroup } = require('./process-group');
const { freePort } = require('./free-port');

const PACKAGES = ['postgresql', 'redis-server'];
const REDIS_CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
const DB_NAME = 'n8n';
const DB_USER = 'n8n';

/* ---------------- finding and installing ---------------- */

/** The newest /usr/lib/postgresql/<version>/bin with postgres and initdb, or undefined. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	let versions = [];
	try {
		versions = fs.readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v));
	} catch {}
	versions.sort((a, b) => Number(b) - Number(a));
	for (const v of versions) {
		const dir = path.join(root, v, 'bin');
		if (['postgres', 'initdb', 'pg_isready', 'createdb'].every((b) => fs.existsSync(path.join(dir, b)))) return dir;
	}
	return undefined;
}

function redisBin() {
	return REDIS_CANDIDATES.find((f) => fs.existsSync(f));
}

function hasAptGet() {
	return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Whether the services can run here without asking anything: { ok, installed, reason }.
 * ok is false only when something is missing and apt-get cannot install it (no apt-get, not root).
 */
function availability() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisBin()) missing.push('redis-server');
	if (!missing.length) return { ok: true, installed: true };
	if (!hasAptGet()) return { ok: false, installed: false, reason: `${missing.join(' and ')} missing and apt-get is not available (install ${missing.join(', ')} to run queue mode)` };
	if (!isRoot()) return { ok: false, installed: false, reason: `${missing.join(' and ')} missing and apt-get needs root (run: sudo apt-get install -y ${missing.join(' ')})` };
	return { ok: true, installed: false };
}

/**
 * Installs Debian's postgresql and redis-server when either is missing (apt-get update first, a
 * fresh CI machine has no package lists); returns at once when both are there.
 */
function ensureInstalled({ log = (s) => process.stderr.write(`${s}\n`) } = {}) {
	const avail = availability();
	if (avail.installed) return { installed: false, ms: 0, ...paths() };
	if (!avail.ok) {
		const err = new Error(avail.reason);
		err.code = 'QUEUE_SERVICES_UNAVAILABLE';
		throw err;
	}
	const t0 = Date.now();
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const apt = (args) => spawnSync('apt-get', args, { env, encoding: 'utf8', timeout: 20 * 60 * 1000, maxBuffer: 64 * 1024 * 1024 });
	log(`[queue-services] installing ${PACKAGES.join(' and ')} (apt-get update && apt-get install -y ${PACKAGES.join(' ')})…`);
	const update = apt(['update', '-qq']);
	if (update.status !== 0) throw new Error(`apt-get update failed (exit ${update.status}):\n${String(update.stderr).slice(-2000)}`);
	const install = apt(['install', '-y', '-qq', '--no-install-recommends', ...PACKAGES]);
	if (install.status !== 0 || !postgresBinDir() || !redisBin()) {
		throw new Error(`apt-get install ${PACKAGES.join(' ')} failed (exit ${install.status}):\n${String(install.stdout).slice(-2000)}\n${String(install.stderr).slice(-2000)}`);
	}
	const ms = Date.now() - t0;
	log(`[queue-services] installed in ${(ms / 1000).toFixed(0)} s`);
	return { installed: true, ms, ...paths() };
}

function paths() {
	const pgBin = postgresBinDir();
	return { postgresBinDir: pgBin, redisBin: redisBin() };
}

function versions() {
	const p = paths();
	const v = (cmd) => (cmd ? String(spawnSync(cmd, ['--version'], { encoding: 'utf8' }).stdout).trim() : 'missing');
	return { postgres: v(p.postgresBinDir && path.join(p.postgresBinDir, 'postgres')), redis: v(p.redisBin) };
}

/* ---------------- running ---------------- */

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The user PostgreSQL runs as: postgres when we are root (it refuses root), else ourselves. */
function postgresUser() {
	if (!isRoot()) return undefined;
	const id = (flag) => Number(String(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout).trim());
	const uid = id('-u');
	const gid = id('-g');
	if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as (the postgresql package creates it)');
	return { uid, gid };
}

const live = new Set();
process.on('exit', () => {
	for (const pid of live) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {}
	}
});

function startProcess(cmd, args, { logFile, user, env }) {
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, {
		stdio: ['ignore', fd, fd],
		detached: true,
		env: { ...process.env, ...env },
		...(user ? { uid: user.uid, gid: user.gid } : {}),
	});
	fs.closeSync(fd);
	live.add(child.pid);
	let exited = null;
	const exit = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			live.delete(child.pid);
			resolve((exited = { code, signal }));
		}),
	);
	return {
		pid: child.pid,
		exited: () => exited,
		async stop(signal, graceMs = 15000) {
			if (exited) return exited;
			return await stopProcessGroup(child.pid, exit, { signal, graceMs, group: false });
		},
	};
}

function tailOf(file, n = 25) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
	} catch {
		return '';
	}
}

function run(cmd, args, { user, env } = {}) {
	const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120000, ...(user ? { uid: user.uid, gid: user.gid } : {}) });
	return { code: r.status, out: `${r.stdout || ''}${r.stderr || ''}` };
}

async function startPostgres(dir, { keep, pgBin, user }) {
	const data = path.join(dir, 'postgres');
	const settingsFile = path.join(dir, 'services.json');
	let settings;
	try {
		settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
	} catch {}
	const fresh = !fs.existsSync(path.join(data, 'PG_VERSION')) || !settings;
	if (fresh) {
		fs.rmSync(data, { recursive: true, force: true });
		fs.mkdirSync(data, { recursive: true, mode: 0o700 });
		settings = { password: crypto.randomBytes(18).toString('base64url') };
		const pwFile = path.join(dir, `pw-${process.pid}`);
		fs.writeFileSync(pwFile, settings.password, { mode: 0o600 });
		if (user) {
			fs.chownSync(data, user.uid, user.gid);
			fs.chownSync(pwFile, user.uid, user.gid);
		}
		const init = run(
			path.join(pgBin, 'initdb'),
			['-D', data, '-U', DB_USER, `--pwfile=${pwFile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '--encoding=UTF8', '--locale=C', '--no-sync'],
			{ user },
		);
		fs.rmSync(pwFile, { force: true });
		if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}):\n${init.out.slice(-3000)}`);
		fs.writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
	}
	const port = await freePort();
	const logFile = path.join(dir, 'postgres.log');
	const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'];
	// A scratch database for tests: durability off (it is thrown away); a kept one stays durable.
	if (!keep) args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
	const proc = startProcess(path.join(pgBin, 'postgres'), args, { logFile, user });
	const env = { PGPASSWORD: settings.password };
	const until = Date.now() + 60000;
	for (;;) {
		if (proc.exited()) throw new Error(`PostgreSQL exited at start (${JSON.stringify(proc.exited())}):\n${tailOf(logFile)}`);
		if (run(path.join(pgBin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]).code === 0) break;
		if (Date.now() > until) {
			await proc.stop('SIGQUIT', 2000);
			throw new Error(`PostgreSQL did not accept connections within 60 s:\n${tailOf(logFile)}`);
		}
		await sleep(200);
	}
	const created = run(path.join(pgBin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, DB_NAME], { env });
	if (created.code !== 0 && !/already exists/.test(created.out)) {
		await proc.stop('SIGQUIT', 2000);
		throw new Error(`createdb ${DB_NAME} failed (exit ${created.code}): ${created.out}`);
	}
	return { host: '127.0.0.1', port, database: DB_NAME, user: DB_USER, password: settings.password, fresh, logFile, proc };
}

function redisPing(port) {
	return new Promise((resolve) => {
		const sock = net.connect({ host: '127.0.0.1', port });
		let buf = '';
		sock.setTimeout(2000);
		sock.on('connect', () => sock.write('PING\r\n'));
		sock.on('data', (d) => {
			buf += d;
			if (buf.includes('\r\n')) {
				sock.destroy();
				resolve(buf.startsWith('+PONG'));
			}
		});
		sock.on('error', () => resolve(false));
		sock.on('timeout', () => {
			sock.destroy();
			resolve(false);
		});
	});
}

async function startRedis(dir, { bin }) {
	const data = path.join(dir, 'redis');
	fs.mkdirSync(data, { recursive: true });
	const port = await freePort();
	const logFile = path.join(dir, 'redis.log');
	// Redis only carries the queue's jobs and n8n's messages here: no snapshots, no append log.
	const proc = startProcess(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', data, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes'], { logFile });
	const until = Date.now() + 30000;
	for (;;) {
		if (proc.exited()) throw new Error(`redis-server exited at start (${JSON.stringify(proc.exited())}):\n${tailOf(logFile)}`);
		if (await redisPing(port)) break;
		if (Date.now() > until) {
			await proc.stop('SIGKILL', 1000);
			throw new Error(`redis-server did not answer PING within 30 s:\n${tailOf(logFile)}`);
		}
		await sleep(100);
	}
	return { host: '127.0.0.1', port, logFile, proc };
}

/**
 * Starts PostgreSQL and Redis (installing them first when missing). dir: the data folder (default
 * a fresh one under the OS tmp dir); keep: leave it (and the database) for the next run.
 */
async function startServices({ dir, keep = false, log = () => {} } = {}) {
	const t0 = Date.now();
	const { postgresBinDir: pgBin, redisBin: rBin } = ensureInstalled({ log });
	const folder = dir ? path.resolve(dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	fs.mkdirSync(folder, { recursive: true });
	const user = postgresUser();
	// the postgres user must reach its data folder inside ours
	if (user) fs.chmodSync(folder, 0o755);
	let postgres;
	let redis;
	try {
		postgres = await startPostgres(folder, { keep: keep || !!dir, pgBin, user });
		redis = await startRedis(folder, { bin: rBin });
	} catch (err) {
		if (postgres) await postgres.proc.stop('SIGINT');
		if (!dir && !keep) fs.rmSync(folder, { recursive: true, force: true });
		throw err;
	}
	const env = {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	};
	let stopped = false;
	return {
		dir: folder,
		env,
		postgres: { host: postgres.host, port: postgres.port, database: postgres.database, user: postgres.user, pid: postgres.proc.pid, fresh: postgres.fresh, logFile: postgres.logFile },
		redis: { host: redis.host, port: redis.port, pid: redis.proc.pid, logFile: redis.logFile },
		startMs: Date.now() - t0,
		/** SQL through psql as the n8n user (for tests that look into n8n's database). */
		psql(sql) {
			const r = run(path.join(pgBin, 'psql'), ['-h', postgres.host, '-p', String(postgres.port), '-U', postgres.user, '-d', postgres.database, '-At', '-c', sql], { env: { PGPASSWORD: postgres.password } });
			if (r.code !== 0) throw new Error(`psql failed: ${r.out}`);
			return r.out.trim();
		},
		async stop() {
			if (stopped) return;
			stopped = true;
			// PostgreSQL: SIGINT is its "fast" shutdown (disconnects clients, checkpoints, exits)
			await Promise.all([postgres.proc.stop('SIGINT', 20000), redis.proc.stop('SIGTERM', 10000)]);
			if (!dir && !keep) fs.rmSync(folder, { recursive: true, force: true });
		},
	};
}

module.exports = { availability, ensureInstalled, startServices, versions, postgresBinDir, redisBin };

/* ---------------- command line ---------------- */

if (require.main === module) {
	const args = process.argv.slice(2);
	const log = (s) => process.stdout.write(`${s}\n`);
	(async () => {
		if (args.includes('--check')) {
			const a = availability();
			log(a.installed ? `installed: ${JSON.stringify(versions())}` : `not installed${a.ok ? ' (apt-get can install them)' : `: ${a.reason}`}`);
			process.exit(a.installed ? 0 : 1);
		}
		const res = ensureInstalled({ log });
		log(`${res.installed ? 'installed' : 'already installed'}: ${JSON.stringify(versions())}`);
		if (!args.includes('--start')) return;
		const i = args.indexOf('--dir');
		const dir = i >= 0 ? args[i + 1] : undefined;
		const svc = await startServices({ dir, keep: !!dir, log });
		log(`PostgreSQL on 127.0.0.1:${svc.postgres.port}, Redis on 127.0.0.1:${svc.redis.port}, data in ${svc.dir}${dir ? ' (kept)' : ' (removed at stop)'}`);
		log('environment for n8n (main and workers):');
		for (const [k, v] of Object.entries(svc.env)) log(`  ${k}=${v}`);
		log('Ctrl-C stops both');
		let stopping = false;
		const stop = async () => {
			if (stopping) return;
			stopping = true;
			await svc.stop();
			process.exit(0);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	})().catch((err) => {
		process.stderr.write(`queue-services: ${err.message}\n`);
		process.exit(1);
	});
}

#!/usr/bin/env node
'use strict';
/**
 * `npm test`: everything the project promises, from a fresh clone.
 *
 *   0. in the background from the start: n8n 2.40.7 and 1.123.81 (each on Node 24, installed into
 *      .cache/ on first use; scripts/n8n-runtime.js --all) and verdaccio (the test registry,
 *      scripts/registry-server.js --install); their network and disk time overlaps steps 1-4
 *      (at a lower CPU priority, so the main suite keeps the cores); log in
 *      test-results/real-n8n-install.log
 *   1. build (gulp: compile, bundle, verify no runtime dependencies, licence notices, icons), then
 *      npm audit of the bundled packages' versions (scripts/audit-bundled.js: an advisory fails the
 *      run; a registry that cannot be asked is printed as NOT CHECKED and does not)
 *   2. lint (`n8n-node lint`, strict mode, n8n Cloud rules)
 *   3. the main suite (jest): signer vectors and aws-sdk cross-check, emulator, every node
 *      operation through n8n-core against the emulator, s3rver, large objects, triggers,
 *      generated-description lint, endpoint coverage
 *   4. the exercised check: every dropdown operation ran successfully at least once
 *   5. the real n8n suite, once the installs of step 0 are done: real n8n loads the packed package
 *      the way a user installs it and runs workflows against the emulator; every file on n8n
 *      2.40.7 and the user-facing files (test/real-n8n/lines.js) on n8n 1.123.81, the newest 1.x,
 *      in one jest run with two workers (test/real-n8n/lines.jest.config.js), with the time of
 *      each file and line printed at the end
 *
 * Every step runs with TMPDIR set to one folder of this run (vendor-test-run-* in the system's
 * temporary folder), removed at the end whatever the outcome, with its size printed: a test that
 * forgets a temporary file cannot fill the disk over repeated runs.
 *
 * VENDOR_SKIP_REAL_N8N=1 skips steps 0 and 5 (quick local runs); CI never sets it. Every step's
 * time is printed at the end, and for step 0 when it was ready and how long step 5 waited for it.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { stopProcessGroup } = require('./process-group');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const timings = [];
const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const realN8n = process.env.VENDOR_SKIP_REAL_N8N !== '1';

const running = new Set(); // background jobs still running: { pid, done }

// this run's temporary folder: every child process inherits it as TMPDIR (os.tmpdir() reads it)
// (open to every user like the system's own, sticky: the queue test's PostgreSQL runs as postgres)
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-test-run-'));
fs.chmodSync(runTmp, 0o1777);
process.env.TMPDIR = runTmp;

/** Bytes under a folder (files only; a folder that vanishes while read counts as empty). */
function folderBytes(dir) {
	let total = 0;
	let entries = [];
	try {
		entries = fs.readdirSync(dir, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const e of entries) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) total += folderBytes(p);
		else if (e.isFile()) total += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0;
	}
	return total;
}

function removeRunTmp() {
	const mb = folderBytes(runTmp) / 2 ** 20;
	fs.rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
	return `temporary files left by the run: ${mb.toFixed(0)} MB, removed (${runTmp})`;
}

async function finish(failed) {
	// a run that ends early stops its background installs (a stopped install is redone next time)
	for (const job of running) await stopProcessGroup(job.pid, job.done, { graceMs: 5000 });
	timings.push(removeRunTmp());
	process.stdout.write(`\n${timings.join('\n')}\ntotal: ${secs(Date.now() - t0)}\n\n${failed ? `FAILED: ${failed}\n` : 'all checks passed\n'}`);
	process.exit(failed ? 1 : 0);
}

/** Runs one step in the foreground (its output on this terminal); fails the run on a non-zero exit. */
async function step(title, cmd, args, env = {}) {
	const started = Date.now();
	process.stdout.write(`\n=== ${title}\n`);
	const code = await new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
		child.on('error', (err) => {
			process.stderr.write(`${cmd}: ${err.message}\n`);
			resolve(127);
		});
		child.on('close', (c, signal) => resolve(c ?? signal));
	});
	timings.push(`${title}: ${secs(Date.now() - started)}`);
	if (code !== 0) await finish(`${title} (exit ${code})`);
}

/**
 * Starts a job in the background, its output appended to `log`, at a lower CPU priority (the
 * foreground steps come first; what it does is mostly waiting for the network and the disk).
 * Returns { title, done }: done resolves with { code, readyAt } (ms since npm test started).
 */
function background(title, cmd, args, log) {
	const fd = fs.openSync(log, 'a');
	fs.writeSync(fd, `\n=== ${title} (started ${secs(Date.now() - t0)} after npm test)\n`);
	// its own process group, so that an early end stops npm and the compiler with it
	const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd], env: process.env, detached: true });
	try {
		os.setPriority(child.pid, 10);
	} catch {}
	const job = { title, pid: child.pid };
	job.done = new Promise((resolve) => {
		child.on('error', (err) => {
			fs.writeSync(fd, `${cmd}: ${err.message}\n`);
			resolve({ code: 127, readyAt: Date.now() - t0 });
		});
		child.on('close', (code, signal) => resolve({ code: code ?? signal, readyAt: Date.now() - t0 }));
	}).finally(() => running.delete(job));
	running.add(job);
	return job;
}

/** Waits for the background jobs; prints what they said (without the 10 s progress beats) and their times. */
async function awaitBackground(jobs, log) {
	const title = `real n8n runtimes and test registry (${jobs.map((j) => j.title).join(', ')}; installed in the background)`;
	process.stdout.write(`\n=== ${title}\n`);
	const waitStarted = Date.now();
	const results = await Promise.all(jobs.map((j) => j.done));
	const waited = Date.now() - waitStarted;
	const text = fs.readFileSync(log, 'utf8');
	const failed = results.some((r) => r.code !== 0);
	const shown = failed ? text.split('\n').slice(-80) : text.split('\n').filter((l) => !/\] +(npm install|compiling) \d/.test(l));
	process.stdout.write(`${shown.join('\n')}\n`);
	jobs.forEach((j, i) => timings.push(`${j.title} (background): ready ${secs(results[i].readyAt)} after npm test started${results[i].code !== 0 ? ` FAILED (exit ${results[i].code})` : ''}`));
	timings.push(`waiting for the background installs: ${secs(waited)}`);
	if (failed) await finish(`${title}: see ${path.relative(root, log)}`);
}

async function main() {
	const results = path.join(root, 'test-results');
	const exercised = path.join(results, 'exercised');
	fs.rmSync(exercised, { recursive: true, force: true });
	fs.mkdirSync(results, { recursive: true });

	let jobs = [];
	const installLog = path.join(results, 'real-n8n-install.log');
	if (realN8n) {
		fs.writeFileSync(installLog, '');
		const runtime = require(path.join(root, 'scripts/n8n-runtime.js'));
		jobs = [
			background(`n8n ${Object.keys(runtime.LINES).join(' and ')}`, process.execPath, [path.join(root, 'scripts/n8n-runtime.js'), '--all'], installLog),
			background('verdaccio', process.execPath, [path.join(root, 'scripts/registry-server.js'), '--install'], installLog),
		];
	}

	await step('build', bin('gulp'), ['build']);
	await step('bundled packages: known advisories (npm audit)', process.execPath, [path.join(root, 'scripts/audit-bundled.js')]);
	await step('lint', bin('n8n-node'), ['lint']);
	await step('main suite', bin('jest'), ['--testPathIgnorePatterns', '/test/real-n8n/', '--ci'], { VENDOR_EXERCISED_DIR: exercised });
	await step('every operation exercised', process.execPath, [path.join(root, 'scripts/check-exercised.js')], { VENDOR_EXERCISED_DIR: exercised });
	if (!realN8n) {
		process.stdout.write('\n=== real n8n suite skipped (VENDOR_SKIP_REAL_N8N=1)\n');
		await finish();
	}
	await awaitBackground(jobs, installLog);
	const { LINES } = require(path.join(root, 'test/real-n8n/lines.js'));
	const which = LINES.map(({ version, files }) => `n8n ${version}: ${files ? `${files.length} user-facing files` : 'every file'}`).join('; ');
	await step(`real n8n suite (${which})`, bin('jest'), ['--config', path.join(root, 'test/real-n8n/lines.jest.config.js'), '--ci']);
	await finish();
}

process.on('SIGINT', () => finish('interrupted (SIGINT)'));
process.on('SIGTERM', () => finish('stopped (SIGTERM)'));

main().catch((err) => {
	process.stderr.write(`${err.stack || err}\n`);
	finish(err.message);
});

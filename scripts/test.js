#!/usr/bin/env node
'use strict';
/**
 * `npm test`: everything the project promises, from a fresh clone.
 *
 *   1. build (gulp: compile, bundle, verify no runtime dependencies, icons)
 *   2. lint (`n8n-node lint`, strict mode, n8n Cloud rules)
 *   3. the main suite (jest): signer vectors and aws-sdk cross-check, emulator, every node
 *      operation through n8n-core against the emulator, s3rver, large objects, triggers,
 *      generated-description lint, endpoint coverage
 *   4. the exercised check: every dropdown operation ran successfully at least once
 *   5. the real n8n suite: n8n 2.40.7 on Node 24 (installed into .cache/ on first use) loads the
 *      packed package the way a user installs it and runs workflows against the emulator; then
 *      the user-facing part of it (test/real-n8n/lines.js) on n8n 1.123.81, the newest 1.x; both
 *      n8n are installed at the same time, before the first of them runs
 *
 * VENDOR_SKIP_REAL_N8N=1 skips step 5 (quick local runs); CI never sets it.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const timings = [];

function step(title, cmd, args, env = {}) {
	const started = Date.now();
	process.stdout.write(`\n=== ${title}\n`);
	const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	timings.push(`${title}: ${seconds} s`);
	if (r.status !== 0) {
		process.stdout.write(`\n${timings.join('\n')}\n\nFAILED: ${title} (exit ${r.status ?? r.signal})\n`);
		process.exit(r.status || 1);
	}
}

const exercised = path.join(root, 'test-results', 'exercised');
fs.rmSync(exercised, { recursive: true, force: true });

step('build', bin('gulp'), ['build']);
step('lint', bin('n8n-node'), ['lint']);
step('main suite', bin('jest'), ['--testPathIgnorePatterns', '/test/real-n8n/', '--ci'], { VENDOR_EXERCISED_DIR: exercised });
step('every operation exercised', process.execPath, [path.join(root, 'scripts/check-exercised.js')], { VENDOR_EXERCISED_DIR: exercised });
if (process.env.VENDOR_SKIP_REAL_N8N === '1') {
	process.stdout.write('\n=== real n8n suite skipped (VENDOR_SKIP_REAL_N8N=1)\n');
} else {
	const { LINES } = require(path.join(root, 'test/real-n8n/lines.js'));
	step(`real n8n runtimes: ${LINES.map((l) => `n8n ${l.version}`).join(' and ')} (install on first use)`, process.execPath, [path.join(root, 'scripts/n8n-runtime.js'), '--all']);
	for (const { version, files } of LINES) {
		const which = files ? files.map((f) => `test/real-n8n/${f}`) : ['test/real-n8n'];
		// the user-facing files of another line, two at a time: each one mostly waits for its own
		// n8n (21.5 min one by one, 10.5 min two at a time, measured at a load average of 9-15)
		const how = files ? ['--maxWorkers=2'] : ['--runInBand'];
		step(`real n8n suite on n8n ${version}${files ? ` (${files.length} user-facing files)` : ''}`, bin('jest'), [...which, ...how, '--ci'], { VENDOR_N8N_VERSION: version });
	}
}
process.stdout.write(`\n${timings.join('\n')}\n\nall checks passed\n`);

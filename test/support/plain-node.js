'use strict';
/**
 * Long runs in a plain Node process, spawned from their jest test. Jest runs every test file in
 * a module sandbox (vm contexts) that makes n8n-core's execution code several times slower than
 * in a plain process (the dialect matrix's default column: 7 s alone, 35-45 s inside jest); a
 * run of hundreds of polls or operations goes to a script, and its test checks what the script
 * wrote or reported with the same expectations.
 *
 *   const run = await runScript(path.join(__dirname, 'runner.js'), ['default']);
 *   // { code (exit code, or the signal's name), stdout, stderr }
 */
const { spawn } = require('node:child_process');

/**
 * Runs `node <file> ...args` with this process's environment (plus `env`); resolves when it ends.
 * `timeoutMs`: the script is stopped (SIGTERM) after that long, so a test that gives up does not
 * leave it running.
 */
function runScript(file, args = [], { env = {}, timeoutMs } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [file, ...args], {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
			...(timeoutMs ? { timeout: timeoutMs } : {}),
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code, signal) => resolve({ code: code ?? signal, stdout, stderr }));
	});
}

module.exports = { runScript };

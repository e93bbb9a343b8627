'use strict';
/**
 * The token soak of issue 39, shared by queue.test.js (a main and two workers) and
 * credentials.test.js (one main process): bursts of executions started at once, each calling
 * the management API with one credential, against an emulator under the dialect
 * loginInvalidates (every log-in ends the account's earlier tokens). Before each burst the
 * account's tokens are revoked; in every other burst another client of the account logs in
 * while the executions run (its token is never stored in the credential, so every token n8n
 * holds then is refused once more). The machine is loaded by CPU burners (one busy process per
 * core, VENDOR_SOAK_BURNERS=<n> to change, 0 for none) started before the first burst and
 * stopped after the last.
 *
 *   const soak = require('./token-soak');
 *   const bursts = await soak.run({ sizes: [24, 48], emulatorUrl, username, password,
 *     start: () => layout.webhook('queue-tokens', {}), server: layout.main, workflowId, say });
 *   // bursts: [{ size, outside, failed, logins, ms, firstError }]
 */
const os = require('node:os');
const { spawn } = require('node:child_process');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `n` processes that each keep one core busy; returns stop(). */
function cpuBurners(n = Number(process.env.VENDOR_SOAK_BURNERS ?? os.cpus().length)) {
	const children = [];
	for (let i = 0; i < n; i++) {
		children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
	}
	return {
		count: children.length,
		stop() {
			for (const c of children) {
				try {
					c.kill('SIGKILL');
				} catch {}
			}
		},
	};
}

async function emulator(url, method, route, body) {
	const res = await fetch(`${url}/__emulator${route}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: method === 'GET' ? undefined : JSON.stringify(body || {}),
	});
	return res.json();
}

const loginsOf = async (url, username) => (await emulator(url, 'GET', '/stats')).management.loginsByUser[username] || 0;

/** Waits until `count` executions of the workflow not in `before` have ended; returns them. */
async function ended(server, workflowId, before, count, timeoutMs) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const list = (await server.listExecutions({ workflowId, limit: 1000 })).filter((e) => !before.has(e.id));
		const done = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
		if (done.length >= count) return done;
		if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms: ${done.length} of ${count} executions of ${workflowId} ended`);
		await sleep(500);
	}
}

/**
 * Runs the bursts; returns one record per burst. `start()` starts one execution (a webhook call),
 * `server` lists the executions (lib.js server of the main), `workerOf(id)` optionally names the
 * process that ran one, `diagnose(before)` says what n8n did when a burst does not end (before:
 * the execution ids that existed before it). The dialect is set for the soak and cleared
 * afterwards.
 */
async function run({ sizes, emulatorUrl, username, password, start, server, workflowId, workerOf, diagnose, say = () => {}, burstTimeoutMs = 240000 }) {
	const soakStart = Date.now();
	const bursts = [];
	const burners = cpuBurners();
	say(`token soak: ${sizes.length} bursts (${sizes.join(', ')} executions), loginInvalidates, ${burners.count} CPU burner(s), load average ${os.loadavg()[0].toFixed(1)}`);
	await emulator(emulatorUrl, 'POST', '/dialects', { set: ['loginInvalidates'] });
	try {
		for (const [i, size] of sizes.entries()) {
			const outside = i % 2 === 1;
			await emulator(emulatorUrl, 'POST', '/management/tokens/revoke', { username });
			const before = new Set((await server.listExecutions({ workflowId, limit: 1000 })).map((e) => e.id));
			const loginsBefore = await loginsOf(emulatorUrl, username);
			const t0 = Date.now();
			const calls = Array.from({ length: size }, () => start());
			if (outside) {
				// another client of the account logs in while the burst runs; n8n never sees its token
				await sleep(300);
				const res = await fetch(`${emulatorUrl}/API/OAuth/authorize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
				if (Number((await res.json()).code) !== 1) throw new Error('the outside log-in was refused');
			}
			// a call that got no answer is a failure of the burst, told with what n8n did (diagnose)
			const answers = await Promise.all(calls.map((c) => c.catch((err) => ({ status: 0, error: String(err && err.message) }))));
			const unanswered = answers.filter((a) => a.status !== 200);
			let runs;
			try {
				if (unanswered.length) throw new Error(`${unanswered.length} of ${size} webhook calls got no 200 answer: ${JSON.stringify(unanswered.slice(0, 3).map((a) => a.error || `${a.status} ${String(a.text).slice(0, 200)}`))}`);
				runs = await ended(server, workflowId, before, size, burstTimeoutMs);
			} catch (err) {
				if (diagnose) await diagnose(before).catch((e) => say(`diagnose failed: ${e.message}`));
				throw err;
			}
			const ms = Date.now() - t0;
			const failed = runs.filter((e) => e.status !== 'success');
			const firstError = failed.length ? (await server.getExecution(failed[0].id)).error : undefined;
			const logins = (await loginsOf(emulatorUrl, username)) - loginsBefore - (outside ? 1 : 0);
			const byWorker = {};
			if (workerOf) for (const e of runs) byWorker[workerOf(e.id) || 'none'] = (byWorker[workerOf(e.id) || 'none'] || 0) + 1;
			const record = { size, outside, executions: runs.length, failed: failed.length, logins, ms, answers: answers.filter((a) => a.status === 200).length, byWorker, load: Number(os.loadavg()[0].toFixed(1)) };
			if (firstError) record.firstError = `${firstError.node}: ${firstError.message}`;
			bursts.push(record);
			say(
				`token soak burst ${i + 1}/${sizes.length}: ${size} at once${outside ? ' + an outside log-in' : ''}, ${runs.length} ended in ${ms} ms${workerOf ? ` ${JSON.stringify(byWorker)}` : ''}, ` +
					`${failed.length} failed${record.firstError ? ` (${record.firstError})` : ''}, log-ins by n8n: ${logins}, load average ${record.load}`,
			);
		}
	} finally {
		burners.stop();
		await emulator(emulatorUrl, 'POST', '/dialects', { set: [] });
	}
	const total = bursts.reduce((s, b) => s + b.executions, 0);
	const failed = bursts.reduce((s, b) => s + b.failed, 0);
	say(`token soak: ${total} executions, ${failed} failed, log-ins per burst ${bursts.map((b) => b.logins).join(', ')}, ${((Date.now() - soakStart) / 1000).toFixed(0)} s in all`);
	return bursts;
}

module.exports = { run, cpuBurners };

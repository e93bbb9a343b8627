'use strict';
/**
 * Stopping a child started with `detached: true` (its own process group: n8n and its task
 * runner, PostgreSQL, Redis): one signal, SIGKILL to the whole group after a grace time, and a
 * last SIGKILL so that nothing of the group is left. Used by `npm start` and the tests.
 */

function kill(target, signal) {
	try {
		process.kill(target, signal);
	} catch {
		// already gone
	}
}

/**
 * Sends `signal` to the process (`group: true`: to its whole group), SIGKILLs the group if it
 * has not exited after `graceMs`, and resolves with what `exited` resolves to.
 */
async function stopProcessGroup(pid, exited, { signal = 'SIGTERM', graceMs = 15000, group = true } = {}) {
	kill(group ? -pid : pid, signal);
	const timer = setTimeout(() => kill(-pid, 'SIGKILL'), graceMs);
	const res = await exited;
	clearTimeout(timer);
	kill(-pid, 'SIGKILL');
	return res;
}

module.exports = { stopProcessGroup };

'use strict';
/**
 * What the trigger simulations share: a seeded random source, a poller that keeps a trigger's
 * static data between polls the way an active n8n workflow does (and restarts it), fault
 * switches for the endpoints a trigger calls, request counting, and the plain Node process the
 * long simulations run in (runSimulation, simulationMain).
 */
const fs = require('node:fs');
const path = require('node:path');
const { n8n, startVendor } = require('./vendor');
const { runScript } = require('./plain-node');
const { expect } = require('expect'); // jest's own library: these checks also run in plain Node

const RESULTS = path.join(__dirname, '../../test-results');

function mulberry32(seed) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		chance: (p) => next() < p,
		int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
		pick: (list) => list[Math.floor(next() * list.length)],
	};
}

/**
 * One trigger node of an active workflow. `poll()` runs a poll through n8n-core (harness
 * runPoll) and tells whether it succeeded: a failed poll is one that threw (first poll), was
 * handed to n8n's emitError, or logged an error. `restart()` reloads the static data from a
 * JSON copy of what is in memory; `crash()` from the copy n8n last wrote to its database (after
 * the activation poll and after every poll that emitted items). The poll after either is the
 * activation poll of the restarted workflow.
 */
function createPoller(v, node, parameters, { cursor = 'live', credentials = { vendorApi: v.apiRef }, count = requestCount } = {}) {
	const p = {
		staticData: {},
		persisted: {},
		nextIsActivation: true,
		polls: 0,
		failed: 0,
		restarts: 0,
		crashes: 0,
		emittedCount: 0,
		requests: 0,
		cleanPolls: 0,
		cleanRequests: 0,
		/** One poll; `faulted` says whether a fault switch was on (for the clean request figures). */
		async poll(faulted = false) {
			const before = await count(v);
			const activation = p.nextIsActivation;
			let r;
			let thrown;
			try {
				r = await n8n.runPoll(node, parameters, {
					staticData: p.staticData,
					credentials,
					store: v.store,
					activation,
					cursor,
				});
			} catch (error) {
				thrown = error;
			}
			const used = (await count(v)) - before;
			p.requests += used;
			if (!faulted) {
				p.cleanPolls++;
				p.cleanRequests += used;
			}
			p.polls++;
			p.nextIsActivation = false;
			if (r && r.persisted) p.persisted = r.persisted;
			const ok = !thrown && r.emitErrors.length === 0 && !r.logs.some((l) => l.level === 'error');
			if (!ok) p.failed++;
			const items = r ? r.items : [];
			p.emittedCount += items.length;
			return { ok, items, binaries: r ? r.binaries : [], emitted: !!(r && r.emitted), activation, thrown, logs: r ? r.logs : [] };
		},
		restart() {
			p.staticData = JSON.parse(JSON.stringify(p.staticData));
			p.nextIsActivation = true;
			p.restarts++;
		},
		crash() {
			// staged cursors: only committed state is in staticData, which is what survives
			p.staticData = JSON.parse(JSON.stringify(cursor === 'staged' ? p.staticData : p.persisted));
			p.nextIsActivation = true;
			p.crashes++;
		},
		size: () => JSON.stringify(p.staticData).length,
	};
	return p;
}

/**
 * Hours of emulator time pass in a simulation; tokens that outlive them keep the request figures
 * about polling (an expired token costs OAuth/authorize plus the repeated request). Call before
 * the first poll: a token keeps the lifetime it was issued with.
 */
async function longTokens(v) {
	await v.control('POST', '/faults', { tokenLifetimeS: 10 * 365 * 86400 });
	await v.control('POST', '/management/tokens/revoke', {});
}

/** Management API requests the emulator has answered (read in process: no request itself). */
async function requestCount(v) {
	return (await v.emu.management.control['GET /requests']()).count;
}

/** Object storage requests the emulator has answered (read in process). */
async function storageRequestCount(v) {
	return Object.values(v.emu.stats.toJSON().storage.requests).reduce((sum, n) => sum + n, 0);
}

/**
 * Picks the fault switch for the next poll: mostly none; sometimes every request to one of the
 * trigger's endpoints fails (the poll fails once it calls it); sometimes all of them fail now
 * and then (a retry inside the poll may or may not save it).
 */
async function setFaults(v, rng, ops, { hard = 0.03, flaky = 0.03 } = {}) {
	const roll = rng.next();
	if (roll < hard) {
		// a service that fails hard answers InternalError: a hard SlowDown holds a storage request up
		// to two minutes by design (retry.ts), which says nothing more about exactly-once; SlowDown
		// stays among the flaky faults and in the fault tests
		await v.control('POST', '/faults', { errorRate: 1, errorOps: [rng.pick(ops)], storageErrors: ['InternalError'] });
		return 'hard';
	}
	if (roll < hard + flaky) {
		await v.control('POST', '/faults', { errorRate: 0.45, errorOps: ops });
		return 'flaky';
	}
	return null;
}

async function clearFaults(v, kind = 'any') {
	if (kind) await v.control('POST', '/faults', { errorRate: 0, errorOps: [], storageErrors: ['SlowDown', 'InternalError'] });
}

/** Moves emulator time; returns the emulator's clock afterwards. */
async function advance(v, ms) {
	return (await v.control('POST', '/clock/advance', { ms })).now;
}

const sorted = (list) => [...list].sort();

/**
 * Checks one poll of a simulation: a clean poll emits exactly the events of `expected` (in any
 * order); a failed poll emits nothing (a later clean poll delivers what it held back). Returns
 * whether the poll was clean.
 */
function checkPoll(step, res, got, expected) {
	if (res.ok) expect({ step, events: sorted(got) }).toEqual({ step, events: sorted(expected) });
	else expect({ step, events: got }).toEqual({ step, events: [] });
	return res.ok;
}

/** One last clean poll delivers whatever the failed polls held back: all emitted equals the ledger. */
async function finalPoll(p, emitted, ledger, identity) {
	const last = await p.poll();
	expect(last.ok).toBe(true);
	emitted.push(...last.items.map(identity));
	expect(sorted(emitted)).toEqual(sorted(ledger));
}

function report(name, p, extra = {}) {
	const line = {
		trigger: name,
		polls: p.polls,
		failedPolls: p.failed,
		restarts: p.restarts,
		crashRestarts: p.crashes,
		emitted: p.emittedCount,
		requestsPerPoll: Number((p.requests / p.polls).toFixed(3)),
		requestsPerCleanPoll: Number((p.cleanRequests / p.cleanPolls).toFixed(3)),
		staticDataBytes: p.size(),
		...extra,
	};
	process.stdout.write(`[simulation] ${JSON.stringify(line)}\n`);
	fs.mkdirSync(RESULTS, { recursive: true });
	fs.appendFileSync(path.join(RESULTS, 'trigger-simulations.jsonl'), `${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`);
	return line;
}

/* ---------- simulations in a plain Node process ---------- */

/**
 * Runs a simulation module's `simulate(v, options)` in a plain Node process (`node <file>`, its
 * command line being simulationMain): jest's module sandbox made every poll about twice as slow
 * (see plain-node.js). Its expectations run there, with jest's own `expect` library; the first
 * that fails ends the run and fails the calling test with its message. Resolves the simulation's
 * report line (report() below), on which the test checks its figures.
 */
async function runSimulation(file, options, { timeoutMs } = {}) {
	const out = path.join(RESULTS, 'simulations', `${path.basename(file, '.js')}-${options.cursor}-${process.pid}.json`);
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.rmSync(out, { force: true });
	const run = await runScript(file, [JSON.stringify(options), out], { env: { FORCE_COLOR: '0' }, timeoutMs });
	process.stdout.write(run.stdout);
	const written = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : null;
	if (!written) throw new Error(`${path.basename(file)} wrote no result (exit ${run.code}):\n${run.stderr}${run.stdout}`);
	if (written.failure) throw new Error(`${path.basename(file)} ${JSON.stringify(options)}, in its own process:\n${written.failure}`);
	return written.report;
}

/**
 * The command line of a simulation module: `node <file> '<options as JSON>' <result file>`.
 * Starts an emulator (startVendor(vendor)), readies it as before each test (`prepare(v)`), runs
 * `simulate(v, options)`, writes { report } or { failure } to the result file; exits 0, or 1 (an
 * expectation failed or the run threw).
 */
function simulationMain({ vendor = {}, prepare, simulate }) {
	const [options, out] = process.argv.slice(2);
	const finish = (result) => {
		fs.writeFileSync(out, JSON.stringify(result));
		process.exit(result.failure ? 1 : 0);
	};
	(async () => {
		const v = await startVendor(vendor);
		try {
			await prepare(v);
			return { report: await simulate(v, JSON.parse(options)) };
		} finally {
			await v.close();
		}
	})().then(finish, (err) => finish({ failure: (err && err.stack) || String(err) }));
}

module.exports = { runSimulation, simulationMain, longTokens, mulberry32, createPoller, setFaults, clearFaults, advance, requestCount, storageRequestCount, sorted, checkPoll, finalPoll, report };

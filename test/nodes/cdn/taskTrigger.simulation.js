'use strict';
/**
 * The Task Trigger's simulation, run by taskTrigger.test.js in a plain Node process
 * (test/support/plain-node.js says why), and what its tests share with it:
 *
 *   node test/nodes/cdn/taskTrigger.simulation.js '{"seed":7001,"polls":1000,"cursor":"live"}' out.json
 *
 * runs one against a fresh emulator and writes its report (or the expectation that failed) to
 * out.json.
 */
const { expect } = require('expect');
const { longTokens, mulberry32, createPoller, setFaults, clearFaults, advance, checkPoll, finalPoll, report, simulationMain } = require('../../support/triggers');

const NODE = 'vendorCdnTrigger'; // the Vendor Task Trigger (listed under Vendor CDN in n8n's node panel)
const HOUR = 3600e3;
const ALL = { kinds: ['refresh', 'prefetch', 'backup'], finalState: 'both' };
const OPS = ['cdn/refreshList', 'cdn/refreshStatus', 'cdn/preloadStatus', 'instance/backupList'];
const GOOD = 'www.example.com'; // a channel of the account: tasks on it succeed
const BAD = 'elsewhere.example.net'; // not a channel: tasks on it fail
/** The emulator's timings: tasks, hosts and backups finish an hour after they start. */
const TIMING = { taskDelayMs: HOUR, hostCreateMs: HOUR, hostReinstallMs: HOUR, backupMs: HOUR };

const identity = (i) => `${i.kind}:${String(i.id)}:${i.state}`;

/** Before each test: an empty emulator, long-lived tokens, the account's CDN channel GOOD. */
async function prepare(v) {
	await clearFaults(v);
	await v.control('POST', '/reset');
	await longTokens(v); // hours of emulator time pass here; token renewals would blur the request counts
	v._tokens = {};
	const ch = await v.api('cdn/domainAdd', { name: GOOD, type: 'cloud', ip: { '192.0.2.10': 80 } });
	expect(ch.code).toBe(1);
}

/** Tasks, hosts and backups made through the API or the control routes; `vendor()` is the emulator. */
function vendorTools(vendor) {
	let n = 0;
	const api = async (path, body) => {
		const r = await vendor().api(path, body);
		if (Number(r.code) !== 1) throw new Error(`${path}: ${r.message}`); // "1" under the numbersAsStrings dialect
		return r.data;
	};
	return {
		api,
		refresh: async (host = GOOD) => Number((await api('cdn/refresh', { type: 'file', urls: `https://${host}/f${++n}.js` })).id),
		prefetch: async (host = GOOD) => Number((await api('cdn/preload', { urls: `https://${host}/big${++n}.bin` })).id),
		addHost: async () => Number((await vendor().control('POST', '/management/instance/hosts/add', { name: `h${++n}`, status: 1 })).host.id),
		backup: async (iid) => Number((await api('instance/backupAdd', { iid, name: `b${++n}` })).id),
		backupStatus: (id, status) => vendor().control('POST', '/management/instance/backups/status', { id, status }),
	};
}

/**
 * The simulation: CDN tasks created on and off the account's channel (so they succeed or
 * fail), deleted while running, settled by the clock or the settle switch; backups created,
 * completed by the clock, failed, run again, deleted, and purged with their host. The ledger
 * holds one entry per final state reached. Nothing is allowed to erase the evidence of an event
 * before a successful poll saw it (a poller cannot see what is gone before it looks): a finished
 * backup is deleted or run again only after a successful poll saw it finished, and a backup run
 * again finishes only after a successful poll saw it running.
 */
async function simulate(v, { seed, polls, cursor }) {
	const { api, refresh, prefetch, addHost, backup, backupStatus } = vendorTools(() => v);
	const rng = mulberry32(seed);
	const ADVANCE = 1.5 * HOUR;
	const tasks = new Map(); // id -> { kind, outcome, final, dueAt }
	const backups = new Map(); // id -> { iid, status, dueAt, seen (status at the last successful poll) }
	const hosts = new Set();
	const runningUnseen = new Set(); // backups run again that no surviving poll has seen running
	let advances = 0;
	let window = [];
	const ledger = [];
	const emitted = [];
	const record = (entry) => {
		window.push(entry);
		ledger.push(entry);
	};
	const finishDue = (next) => {
		for (const [id, t] of tasks) {
			if (!t.final && t.dueAt <= next) {
				t.final = true;
				record(`${t.kind}:${id}:${t.outcome}`);
			}
		}
		for (const [id, b] of backups) {
			if (b.status === 0 && b.dueAt <= next) {
				b.status = 1;
				record(`backup:${id}:succeeded`);
			}
		}
	};

	for (let i = 0; i < 4; i++) hosts.add(await addHost());
	await longTokens(v);
	v._tokens = {};
	const p = createPoller(v, NODE, ALL, { cursor });
	expect((await p.poll()).items).toEqual([]);
	if (cursor === 'staged') expect((await p.poll()).items).toEqual([]);

	let crashDue = false;
	for (let step = 1; step <= polls; step++) {
		if (step % 97 === 0) p.restart();
		if (step % 151 === 0) crashDue = true;
		if (crashDue && window.length === 0) {
			// n8n loses what polls saw since its last database write (activation, emitted items):
			// a backup seen running again must be seen again before it may finish
			p.crash();
			crashDue = false;
			for (const [id, b] of backups) if (b.status === 0 && b.seen !== null) runningUnseen.add(id);
		}
		const actions = rng.int(0, 3);
		for (let a = 0; a < actions; a++) {
			const r = rng.next();
			if (r < 0.3) {
				const good = rng.chance(0.75);
				const id = await refresh(good ? GOOD : BAD);
				tasks.set(id, { kind: 'refresh', outcome: good ? 'succeeded' : 'failed', final: false, dueAt: advances + 1 });
			} else if (r < 0.45) {
				const good = rng.chance(0.75);
				const id = await prefetch(good ? GOOD : BAD);
				tasks.set(id, { kind: 'prefetch', outcome: good ? 'succeeded' : 'failed', final: false, dueAt: advances + 1 });
			} else if (r < 0.5) {
				const running = [...tasks].filter(([, t]) => !t.final);
				if (running.length) {
					const [id] = rng.pick(running);
					await api('cdn/refreshDelete', { ids: [id] });
					tasks.delete(id);
				}
			} else if (r < 0.53) {
				const running = [...tasks].filter(([, t]) => !t.final);
				await v.control('POST', '/management/cdn/tasks/settle', {});
				for (const [id, t] of running) {
					t.final = true;
					record(`${t.kind}:${id}:${t.outcome}`);
				}
			} else if (r < 0.7) {
				const free = [...hosts].filter((iid) => ![...backups.values()].some((b) => b.iid === iid && b.status === 0));
				if (free.length) {
					const iid = rng.pick(free);
					const id = await backup(iid);
					backups.set(id, { iid, status: 0, dueAt: advances + 1, seen: null });
				}
			} else if (r < 0.77) {
				const running = [...backups].filter(([id, b]) => b.status === 0 && !runningUnseen.has(id));
				if (running.length) {
					const [id, b] = rng.pick(running);
					await backupStatus(id, 2);
					b.status = 2;
					record(`backup:${id}:failed`);
				}
			} else if (r < 0.84) {
				const finishedSeen = [...backups].filter(([, b]) => (b.status === 1 || b.status === 2) && b.seen === b.status);
				if (finishedSeen.length) {
					const [id, b] = rng.pick(finishedSeen);
					await backupStatus(id, 0);
					b.status = 0;
					b.dueAt = advances + 1;
					runningUnseen.add(id);
				}
			} else if (r < 0.88) {
				const finishedSeen = [...backups].filter(([, b]) => (b.status === 1 || b.status === 2) && b.seen === b.status);
				if (finishedSeen.length) {
					const [id, b] = rng.pick(finishedSeen);
					await api('instance/backupDelete', { id });
					b.status = 4; // purged two hours later, silently
				}
			} else if (r < 0.9) {
				// a host goes, with its backups: only when none holds an event nobody saw yet
				const removable = [...hosts].filter((iid) =>
					[...backups.values()].every((b) => b.iid !== iid || b.status === 0 || b.status === 4 || b.seen === b.status),
				);
				if (removable.length > 1) {
					const iid = rng.pick(removable);
					await v.control('POST', '/management/instance/hosts/remove', { id: iid });
					hosts.delete(iid);
					for (const [id, b] of backups) {
						if (b.iid !== iid) continue;
						backups.delete(id);
						runningUnseen.delete(id);
					}
					hosts.add(await addHost());
				}
			}
		}
		if (rng.chance(0.3) && runningUnseen.size === 0) {
			await advance(v, ADVANCE);
			advances++;
			finishDue(advances);
		}

		const fault = await setFaults(v, rng, OPS, { hard: 0.05 });
		const res = await p.poll(!!fault);
		await clearFaults(v, fault);
		const got = res.items.map(identity);
		emitted.push(...got);
		for (const item of res.items) {
			expect(item.state === 'succeeded' || item.state === 'failed').toBe(true);
			if (item.kind === 'backup') expect(item.statusName).toBe(item.state === 'succeeded' ? 'Completed' : 'Failed');
			else expect(item.result).toBe(item.state === 'succeeded' ? 'success' : 'failed');
		}
		if (checkPoll(step, res, got, window)) {
			window = [];
			runningUnseen.clear();
			for (const b of backups.values()) b.seen = b.status;
		}
	}
	await finalPoll(p, emitted, ledger, identity);
	expect(p.size()).toBeLessThan(400);
	const by = (kind) => ledger.filter((e) => e.startsWith(`${kind}:`)).length;
	return report(`task (${cursor} cursor)`, p, {
		ledger: ledger.length,
		refresh: by('refresh'),
		prefetch: by('prefetch'),
		backup: by('backup'),
		tasksCreated: tasks.size,
		clockSteps: advances,
	});
}

module.exports = { NODE, HOUR, ALL, OPS, GOOD, BAD, TIMING, identity, prepare, vendorTools, simulate };

if (require.main === module) simulationMain({ vendor: { management: { timing: TIMING } }, prepare, simulate });

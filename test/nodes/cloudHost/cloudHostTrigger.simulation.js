'use strict';
/**
 * The Cloud Host Trigger's simulation, run by cloudHostTrigger.test.js in a plain Node process
 * (test/support/plain-node.js says why), and what its tests share with it:
 *
 *   node test/nodes/cloudHost/cloudHostTrigger.simulation.js '{"seed":6001,"polls":1000,"cursor":"live"}' out.json
 *
 * runs one against a fresh emulator and writes its report (or the expectation that failed) to
 * out.json.
 */
const { expect } = require('expect');
const { longTokens, mulberry32, createPoller, setFaults, clearFaults, advance, checkPoll, finalPoll, report, simulationMain } = require('../../support/triggers');

const NODE = 'vendorCloudHostTrigger';
const HOUR = 3600e3;
const ALL = { events: ['statusChanged', 'appeared', 'disappeared'] };
// docs/vendor/hosts-network-dns.md#host-status, written out independently of the package
const NAMES = ['Creating', 'Running', 'Paused', 'Abnormal', 'Reinstalling', 'Restricted', 'Maintenance', 'Deleting', 'Queued', 'Recycle Bin'];
/** The emulator's timings: a host is created (and a backup made) an hour after it starts. */
const TIMING = { taskDelayMs: HOUR, hostCreateMs: HOUR, hostReinstallMs: HOUR, backupMs: HOUR };

const identity = (i) =>
	i.event === 'statusChanged'
		? `changed:${i.hostId}:${i.previousStatus}>${i.status}`
		: i.event === 'appeared'
			? `appeared:${i.hostId}:${i.status}`
			: `disappeared:${i.hostId}:${i.previousStatus}`;

/** Before each test: an empty emulator. */
async function prepare(v) {
	await clearFaults(v);
	await v.control('POST', '/reset');
}

/** Hosts made and changed through the control routes; `vendor()` is the emulator. */
function hostTools(vendor) {
	return {
		addHost: async (fields = {}) => (await vendor().control('POST', '/management/instance/hosts/add', { name: 'h', status: 1, ...fields })).host,
		setStatus: (id, status) => vendor().control('POST', '/management/instance/hosts/status', { id, status }),
	};
}

/**
 * The simulation. The test keeps its own model of the hosts (including the emulator's timed
 * rules: creating → running one hour after creation, a host left in the recycle bin removed two
 * hours after it first entered it) and a ledger of every change it makes or lets happen. Each
 * host changes at most once between two successful polls, so every ledger entry must come out
 * of exactly the next successful poll, and nothing else may.
 */
async function simulate(v, { seed, polls, cursor }) {
	const { addHost, setStatus } = hostTools(() => v);
	const rng = mulberry32(seed);
	const ADVANCE = 1.5 * HOUR; // > hostCreateMs, < the recycle bin's 2 hours
	const model = new Map(); // id -> { status, nodeid, dueAt (advance index) | null, binAt (advance index) | null }
	let advances = 0;
	let window = []; // ledger entries since the last successful poll
	const touched = new Set();
	const ledger = [];
	const emitted = [];
	const record = (entry, id) => {
		window.push(entry);
		ledger.push(entry);
		touched.add(id);
	};

	const add = async () => {
		const status = rng.pick([0, 1, 1, 1, 2, 3]);
		const h = await addHost({ name: `sim-${model.size}`, status, nodeid: rng.int(1, 3) });
		const id = Number(h.id);
		model.set(id, { status, nodeid: Number(h.nodeid), dueAt: status === 0 ? advances + 1 : null, binAt: null });
		record(`appeared:${id}:${status}`, id);
	};
	const untouched = () => [...model.keys()].filter((id) => !touched.has(id));

	for (let i = 0; i < 12; i++) await add();
	await longTokens(v);
	const p = createPoller(v, NODE, ALL, { cursor });
	const first = await p.poll();
	expect(first).toMatchObject({ ok: true, items: [] });
	if (cursor === 'staged') expect((await p.poll()).items).toEqual([]); // the activation poll's baseline is not committed
	window = [];
	ledger.length = 0;
	touched.clear();

	for (let step = 1; step <= polls; step++) {
		const actions = rng.int(0, 3);
		for (let a = 0; a < actions; a++) {
			const r = rng.next();
			const free = untouched();
			if ((r < 0.2 && model.size < 60) || model.size < 6) {
				await add();
			} else if (r < 0.3 && free.length) {
				const id = rng.pick(free);
				await v.control('POST', '/management/instance/hosts/remove', { id });
				record(`disappeared:${id}:${model.get(id).status}`, id);
				model.delete(id);
			} else if (free.length) {
				const id = rng.pick(free);
				const h = model.get(id);
				// entering the bin again after two hours there would purge the host at once: two changes
				const binExpired = h.binAt !== null && advances >= h.binAt + 2;
				const choices = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((s) => s !== h.status && !(s === 9 && binExpired));
				const status = rng.pick(choices);
				await setStatus(id, status);
				record(`changed:${id}:${h.status}>${status}`, id);
				h.status = status;
				h.dueAt = null;
				if (status === 9 && h.binAt === null) h.binAt = advances;
			}
		}
		if (rng.chance(0.3)) {
			// the emulator's own transitions at the next clock step; only when no host changes twice
			const next = advances + 1;
			const due = [...model.entries()].filter(([, h]) => (h.dueAt !== null && h.dueAt <= next) || (h.status === 9 && h.binAt !== null && next >= h.binAt + 2));
			if (due.every(([id]) => !touched.has(id))) {
				await advance(v, ADVANCE);
				advances = next;
				for (const [id, h] of due) {
					if (h.status === 9) {
						record(`disappeared:${id}:9`, id);
						model.delete(id);
					} else {
						record(`changed:${id}:${h.status}>1`, id);
						h.status = 1;
						h.dueAt = null;
					}
				}
			}
		}

		if (step % 97 === 0) p.restart();
		if (step % 151 === 0) p.crash();
		const fault = await setFaults(v, rng, ['instance/list']);
		const r = await p.poll(!!fault);
		await clearFaults(v, fault);
		const got = r.items.map(identity);
		emitted.push(...got);
		for (const item of r.items) {
			if (item.status !== null) expect(item.statusName).toBe(NAMES[Number(item.status)]);
			if (item.previousStatus !== null) expect(item.previousStatusName).toBe(NAMES[Number(item.previousStatus)]);
		}
		if (checkPoll(step, r, got, window)) {
			window = [];
			touched.clear();
		}
	}
	await finalPoll(p, emitted, ledger, identity);
	// bounded state: one short entry per host that exists
	expect(Object.keys(p.staticData['node:Trigger'].state.hosts).length).toBe(model.size);
	expect(p.size()).toBeLessThan(120 + model.size * 24);
	return report(`cloudHost (${cursor} cursor)`, p, { hosts: model.size, ledger: ledger.length, clockSteps: advances });
}

module.exports = { NODE, HOUR, ALL, NAMES, TIMING, identity, prepare, hostTools, simulate };

if (require.main === module) simulationMain({ vendor: { management: { timing: TIMING } }, prepare, simulate });

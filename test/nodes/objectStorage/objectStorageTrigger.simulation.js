'use strict';
/**
 * The Object Storage Trigger's simulation, run by objectStorageTrigger.test.js in a plain Node
 * process (test/support/plain-node.js says why), and what its tests share with it:
 *
 *   node test/nodes/objectStorage/objectStorageTrigger.simulation.js '{"seed":2701,"polls":1000,"cursor":"live"}' out.json
 *
 * runs one against a fresh emulator and writes its report (or the expectation that failed) to
 * out.json.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const { expect } = require('expect');
const { rl } = require('../../support/storage');
const { mulberry32, createPoller, setFaults, clearFaults, advance, storageRequestCount, sorted, report, simulationMain } = require('../../support/triggers');

const NODE = 'vendorObjectStorageTrigger';
const BUCKET = 'watched';
const MINUTE = 60e3;
/** The bound the issue sets on the trigger's static data. */
const STATE_LIMIT = 64 * 1024;

const md5 = (text) => crypto.createHash('md5').update(text).digest('hex');
const params = (extra = {}) => ({ event: 'new', bucket: rl(BUCKET), prefix: '', includeSubfolders: true, download: false, ...extra });
const identity = (i) => `${i.event}:${i.key}:${i.etag}`;
const warnings = (r) => r.logs.filter((l) => l.level === 'warn').map((l) => l.message);

/** Writes to the watched bucket through the emulator's control routes; `vendor()` is the emulator. */
function bucketTools(vendor) {
	return {
		put: (objects) => vendor().control('POST', '/storage/objects', { bucket: BUCKET, objects: objects.map((o) => (typeof o === 'string' ? { key: o, body: o } : o)) }),
		remove: (keys) => vendor().control('POST', '/storage/objects/delete', { bucket: BUCKET, keys }),
		hooks: (list) => vendor().control('POST', '/storage/listing-hooks', { hooks: list.map((h) => ({ bucket: BUCKET, ...h })) }),
	};
}

/** Before each test: no faults, an empty emulator with the watched bucket. */
async function prepare(v) {
	await clearFaults(v);
	await v.control('POST', '/faults', { inject: [] });
	await v.control('POST', '/reset');
	await v.control('POST', '/storage/buckets', { name: BUCKET });
}

/**
 * The simulation. A bucket of 1,000 to 2,000 watched objects (two pages of a listing) and some
 * outside the folder; between polls objects are created, written again with other content or
 * the same, deleted, deleted and created again, created with a LastModified half an hour back
 * (a long upload stamped at its start), and the clock moves on by seconds to twenty minutes.
 * During a third of the polls more writes happen while the poll lists: before its first or its
 * second page is answered (listing hooks; the emulator says at which marker they happened).
 * Some polls fail (every listing request fails, or some of them and the retries may save the
 * poll); every 97th poll the workflow restarts from its static data in memory, every 151st
 * n8n crashes and restarts from what it last wrote to its database.
 *
 * The ledger: the test knows what the listing of each poll saw (keys up to the marker as they
 * were before the writes during the poll, keys after it as they were after), and the listing the
 * trigger's state stands for (that of the last successful poll, or, after a crash, of the last
 * poll whose state n8n had written). A successful poll must emit exactly the watched objects of
 * its listing that the baseline did not hold, as "new" (key not there) or "changed" (another
 * ETag); a failed one nothing; no version of an object is ever emitted twice.
 */
async function simulate(v, { seed, polls, cursor }) {
	const { remove, hooks } = bucketTools(() => v);
	const rng = mulberry32(seed);
	const PREFIX = 'f/';
	const truth = new Map(); // key -> body, what the bucket holds
	let serial = 0;
	const md5Of = (body) => md5(body);
	const watchedView = (source) => {
		const view = new Map();
		for (const [key, body] of source) if (key.startsWith(PREFIX) && !key.endsWith('/')) view.set(key, md5Of(body));
		return view;
	};
	const keyName = () => (rng.chance(0.9) ? `${PREFIX}${String(rng.int(0, 3999)).padStart(4, '0')}` : rng.pick(['e/', 'g/', `${PREFIX}sub/`]) + String(rng.int(0, 99)));
	let now = await advance(v, 0);
	/** One change to the bucket, as a control-route write: { put?: object, delete?: key }. */
	const change = () => {
		const r = rng.next();
		const existing = [...truth.keys()];
		const watchedCount = existing.filter((k) => k.startsWith(PREFIX)).length;
		if (r < 0.4 || watchedCount < 1000) {
			const key = keyName();
			const late = rng.chance(0.1);
			return { put: { key, body: `${key}#${++serial}`, ...(late ? { lastModified: now - 30 * MINUTE } : {}) } };
		}
		const key = rng.pick(existing);
		if (r < 0.6) return { put: { key, body: `${key}#${++serial}` } }; // changed
		if (r < 0.65) return { put: { key, body: truth.get(key) } }; // the same content again: no change
		if (r < 0.65 + (watchedCount > 2000 ? 0.35 : 0.2)) return { delete: key };
		return { put: { key, body: `${key}#${++serial}` } };
	};
	const apply = (target, c) => {
		if (c.put) target.set(c.put.key, c.put.body);
		else target.delete(c.delete);
	};
	const write = async (changes) => {
		const puts = changes.filter((c) => c.put).map((c) => c.put);
		const deletes = changes.filter((c) => c.delete).map((c) => c.delete);
		// one write per key and request, in order: later changes of a key win
		for (const c of changes) apply(truth, c);
		const last = new Map();
		for (const o of puts) last.set(o.key, o);
		if (puts.length) await v.control('POST', '/storage/objects', { bucket: BUCKET, objects: [...last.values()].filter((o) => truth.get(o.key) === o.body) });
		if (deletes.length) await remove(deletes.filter((k) => !truth.has(k)));
	};

	const initial = [];
	for (let n = 0; n < 1300; n++) initial.push(change());
	await write(initial);
	const p = createPoller(v, NODE, params({ event: 'newOrChanged', prefix: PREFIX }), { cursor, credentials: { vendorObjectStorageApi: v.storageRef }, count: storageRequestCount });
	expect((await p.poll()).items).toEqual([]);
	// staged cursors: n8n commits nothing after an activation poll that emitted nothing, so the
	// first scheduled poll records the baseline
	if (cursor === 'staged') expect((await p.poll()).items).toEqual([]);
	let baseline = watchedView(truth);
	let persistedBaseline = baseline;
	const emittedVersions = new Set();
	let emitted = 0;
	let during = 0;
	let duringBehind = 0;
	let late = 0;
	let changedEvents = 0;

	for (let step = 1; step <= polls; step++) {
		if (step % 97 === 0) p.restart();
		if (step % 151 === 0) {
			p.crash();
			if (cursor === 'live') baseline = persistedBaseline;
		}
		const between = Array.from({ length: rng.int(0, 6) }, change);
		late += between.filter((c) => c.put && c.put.lastModified !== undefined).length;
		await write(between);
		if (rng.chance(0.35)) now = await advance(v, rng.chance(0.1) ? rng.int(10, 20) * MINUTE : rng.int(1, 120) * 1000);

		// writes while the poll lists, before its first or its second page is answered
		let hook;
		if (rng.chance(0.33)) {
			const changes = Array.from({ length: rng.int(1, 5) }, change).filter((c) => c.put || truth.has(c.delete));
			const puts = new Map();
			const deletes = new Set();
			for (const c of changes) {
				if (c.put) {
					puts.set(c.put.key, c.put);
					deletes.delete(c.put.key);
				} else {
					deletes.add(c.delete);
					puts.delete(c.delete);
				}
			}
			hook = { request: rng.chance(0.7) ? 2 : 1, put: [...puts.values()], delete: [...deletes] };
			await hooks([hook]);
		}
		const before = new Map(truth);
		const fault = await setFaults(v, rng, ['ListObjects']);
		const res = await p.poll(!!fault);
		await clearFaults(v, fault);
		let view = watchedView(truth);
		if (hook) {
			const [state] = (await v.control('GET', '/storage/listing-hooks')).hooks;
			await v.control('POST', '/storage/listing-hooks', { hooks: [] });
			for (const o of hook.put) truth.set(o.key, o.body);
			for (const k of hook.delete) truth.delete(k);
			if (state.fired) {
				during++;
				// what this listing saw: keys up to the marker as before the writes, after it as after
				const marker = state.marker || '';
				const seen = new Map([...before].filter(([k]) => marker && k <= marker));
				for (const [k, body] of truth) if (!marker || k > marker) seen.set(k, body);
				view = watchedView(seen);
				if (hook.put.some((o) => marker && o.key <= marker)) duringBehind++;
			} else {
				// the poll failed before that request: the writes happen after it
				await write([...hook.put.map((o) => ({ put: o })), ...hook.delete.map((k) => ({ delete: k }))]);
			}
		}

		const got = res.items.map(identity);
		if (res.ok) {
			const expected = [];
			for (const [key, etag] of view) {
				if (!baseline.has(key)) expected.push(`new:${key}:${etag}`);
				else if (baseline.get(key) !== etag) expected.push(`changed:${key}:${etag}`);
			}
			expect({ step, events: sorted(got) }).toEqual({ step, events: sorted(expected) });
			expect({ step, warnings: warnings(res) }).toEqual({ step, warnings: [] });
			// staged cursors: the state of an activation poll that emitted nothing is not committed
			if (cursor === 'live' || !res.activation || res.emitted) baseline = view;
			if (res.activation || res.emitted) persistedBaseline = baseline;
		} else {
			expect({ step, events: got }).toEqual({ step, events: [] });
			if (res.activation && !res.thrown) persistedBaseline = baseline;
		}
		for (const item of res.items) {
			const version = `${item.key}:${item.etag}`;
			expect({ step, twice: emittedVersions.has(version) ? version : null }).toEqual({ step, twice: null });
			emittedVersions.add(version);
			if (item.event === 'changed') changedEvents++;
		}
		emitted += got.length;
		expect(p.size()).toBeLessThan(STATE_LIMIT);
		// VENDOR_SIM_PROGRESS=<file>: a line per 50 polls, to follow a long run
		if (process.env.VENDOR_SIM_PROGRESS && step % 50 === 0) fs.appendFileSync(process.env.VENDOR_SIM_PROGRESS, `${new Date().toISOString()} ${cursor} step ${step} emitted ${emitted} failed ${p.failed}\n`);
	}
	return report(`object storage (${cursor} cursor)`, p, { emitted, changedEvents, writesDuringPolls: during, writesBehindTheListing: duringBehind, lateUploads: late, objects: truth.size });
}

module.exports = { NODE, BUCKET, MINUTE, STATE_LIMIT, md5, params, identity, warnings, bucketTools, prepare, simulate };

if (require.main === module) simulationMain({ prepare, simulate });

'use strict';
/**
 * The Balance Trigger's simulation, run by balanceTrigger.test.js in a plain Node process
 * (test/support/plain-node.js says why), and what its tests share with it:
 *
 *   node test/nodes/accountBilling/balanceTrigger.simulation.js '{"seed":8001,"polls":1000,"cursor":"live"}' out.json
 *
 * runs one against a fresh emulator and writes its report (or the expectation that failed) to
 * out.json.
 */
const { expect } = require('expect');
const { longTokens, mulberry32, createPoller, setFaults, clearFaults, checkPoll, finalPoll, report, simulationMain } = require('../../support/triggers');

const NODE = 'vendorAccountBillingTrigger'; // the Vendor Balance Trigger (listed under Vendor Account & Billing in n8n's node panel)
const FIXED = { thresholdSource: 'fixed', threshold: 100, consumption: false };
const WITH_RECORDS = { ...FIXED, consumption: true };

const identity = (i) => (i.event === 'consumption' ? `consumption:${i.name}` : `below:${i.balance.toFixed(2)}`);

/** Before each test: an empty emulator and long-lived tokens. */
async function prepare(v) {
	await clearFaults(v);
	await v.control('POST', '/reset');
	await longTokens(v);
	v._tokens = {};
}

/** The demo account's balance and consumption records; `vendor()` is the emulator. */
function accountTools(vendor) {
	let n = 0;
	return {
		setBalance: (price) => vendor().control('POST', '/management/balance', { username: 'demo', price }),
		recharge: (price) => vendor().control('POST', '/management/profile/recharge', { username: 'demo', price }),
		/** One consumption record of 1.00 (adding a CDN channel); returns the record's name. */
		consume: async () => {
			const name = `c${++n}-${Date.now().toString(36)}.example.org`;
			const r = await vendor().api('cdn/domainAdd', { name, type: 'cloud', ip: { '192.0.2.20': 80 } });
			if (Number(r.code) !== 1) throw new Error(r.message); // "1" under the numbersAsStrings dialect
			return `CDN channel ${name}`;
		},
	};
}

/**
 * The simulation: the balance is set, recharged and spent (each CDN channel added is a 1.00
 * consumption record) at random between polls. The ledger holds every consumption record made
 * and, for the balance (a level, not a log), each crossing between two successful polls: below
 * 100 now and not below at the previous successful poll.
 */
async function simulate(v, { seed, polls, cursor }) {
	const { setBalance, recharge, consume } = accountTools(() => v);
	const rng = mulberry32(seed);
	let cents = 15000;
	await setBalance(cents / 100);
	let observedBelow = cents < 10000;
	let window = [];
	const ledger = [];
	const emitted = [];
	let crossings = 0;
	let records = 0;

	const p = createPoller(v, NODE, WITH_RECORDS, { cursor });
	expect((await p.poll()).items).toEqual([]);
	if (cursor === 'staged') expect((await p.poll()).items).toEqual([]);

	for (let step = 1; step <= polls; step++) {
		const actions = rng.int(0, 2);
		for (let a = 0; a < actions; a++) {
			const r = rng.next();
			if (r < 0.4) {
				cents = rng.int(6000, 14000);
				await setBalance((cents / 100).toFixed(2));
			} else if (r < 0.5) {
				const add = rng.int(100, 3000);
				await recharge((add / 100).toFixed(2));
				cents += add;
			} else if (cents >= 100) {
				const name = await consume();
				cents -= 100;
				window.push(`consumption:${name}`);
				ledger.push(`consumption:${name}`);
				records++;
			}
		}
		if (step % 97 === 0) p.restart();
		if (cursor === 'staged' && step % 151 === 0) p.crash(); // durable cursors lose nothing in a crash
		const fault = await setFaults(v, rng, ['profile/balance', 'profile/payList']);
		const res = await p.poll(!!fault);
		await clearFaults(v, fault);
		const got = res.items.map(identity);
		emitted.push(...got);
		for (const item of res.items) expect(item).toMatchObject({ threshold: 100, balance: cents / 100 });
		if (res.ok) {
			const below = cents < 10000;
			if (below && !observedBelow) {
				const entry = `below:${(cents / 100).toFixed(2)}`;
				window.push(entry);
				ledger.push(entry);
				crossings++;
			}
			observedBelow = below;
			// the crossing comes after the records of the same poll
			if (got.length > 1 && got.some((g) => g.startsWith('below:'))) expect(got[got.length - 1]).toMatch(/^below:/);
		}
		if (checkPoll(step, res, got, window)) window = [];
	}
	if (cents < 10000 && !observedBelow) ledger.push(`below:${(cents / 100).toFixed(2)}`);
	await finalPoll(p, emitted, ledger, identity);
	expect(p.size()).toBeLessThan(100);
	return report(`balance (${cursor} cursor)`, p, { ledger: ledger.length, crossings, records });
}

module.exports = { NODE, FIXED, WITH_RECORDS, identity, prepare, accountTools, simulate };

if (require.main === module) simulationMain({ prepare, simulate });

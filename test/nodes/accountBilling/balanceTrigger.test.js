'use strict';
/**
 * Vendor Balance Trigger through n8n-core's poll machinery against the emulator: crossings of
 * the threshold (once each, re-armed above it) and new consumption records.
 */
const { startVendor, n8n } = require('../../support/vendor');
const { clearFaults, requestCount, runSimulation } = require('../../support/triggers');
const { NODE, FIXED, WITH_RECORDS, identity, prepare, accountTools } = require('./balanceTrigger.simulation');

let v;
beforeAll(async () => {
	v = await startVendor();
});
afterAll(() => v.close());
beforeEach(() => prepare(v));

const { setBalance, recharge, consume } = accountTools(() => v);
const poll = (parameters, opts = {}) => n8n.runPoll(NODE, parameters, { credentials: { vendorApi: v.apiRef }, store: v.store, ...opts });

describe('semantics', () => {
	test('once per crossing: nothing at the baseline, once on falling below, again only after rising to it', async () => {
		await setBalance(80); // already below at activation: that is the baseline, not a crossing
		const staticData = {};
		expect((await poll(FIXED, { staticData, activation: true })).items).toEqual([]);
		await setBalance(70);
		expect((await poll(FIXED, { staticData })).items).toEqual([]);
		await setBalance(100); // at the threshold: not below, re-armed
		expect((await poll(FIXED, { staticData })).items).toEqual([]);
		await setBalance(99.99);
		const r = await poll(FIXED, { staticData });
		expect(r.items).toEqual([{ event: 'belowThreshold', balance: 99.99, threshold: 100, seenAt: expect.any(String) }]);
		expect(Date.parse(r.items[0].seenAt)).toBeGreaterThan(Date.now() - 60000);
		await setBalance(20);
		expect((await poll(FIXED, { staticData })).items).toEqual([]);
		await recharge(500);
		expect((await poll(FIXED, { staticData })).items).toEqual([]);
		await setBalance(5);
		expect((await poll(FIXED, { staticData })).items.map(identity)).toEqual(['below:5.00']);
		expect(staticData['node:Trigger'].state).toEqual({ v: 1, below: true, account: expect.stringMatching(/^[0-9a-f]{16}$/) }); // the state belongs to the account polled
	});

	test("the account's own alarm value as threshold: one request per poll, changes to it are followed", async () => {
		await setBalance(300);
		expect((await v.api('profile/balanceAlarm', { alarm: 1, alarm_num: 3, alarm_value: 250 })).code).toBe(1);
		const params = { thresholdSource: 'account', consumption: false };
		const staticData = {};
		await poll(params, { staticData, activation: true });
		await setBalance(240);
		let before = await requestCount(v);
		const r = await poll(params, { staticData });
		expect((await requestCount(v)) - before).toBe(1); // profile/detail holds balance and alarm value
		expect(r.items).toEqual([{ event: 'belowThreshold', balance: 240, threshold: 250, seenAt: expect.any(String) }]);
		await v.api('profile/balanceAlarm', { alarm: 1, alarm_value: 200 }); // now above the new value: re-armed
		expect((await poll(params, { staticData })).items).toEqual([]);
		await v.api('profile/balanceAlarm', { alarm: 1, alarm_value: 260 }); // the line moved above the balance
		before = await requestCount(v);
		expect((await poll(params, { staticData })).items).toMatchObject([{ balance: 240, threshold: 260 }]);
		expect((await requestCount(v)) - before).toBe(1);
	});

	test('consumption records: each new one once, oldest first, with the balance; two requests per poll', async () => {
		await setBalance(1000);
		await consume(); // before the baseline: not reported
		const staticData = {};
		await poll(WITH_RECORDS, { staticData, activation: true });
		const names = [await consume(), await consume(), await consume()];
		let before = await requestCount(v);
		const r = await poll(WITH_RECORDS, { staticData });
		expect((await requestCount(v)) - before).toBe(2);
		expect(r.items.map((i) => i.name)).toEqual(names);
		expect(r.items[0]).toMatchObject({ event: 'consumption', type_zh: 'Consumption', price: '1.00', balance: 996, threshold: 100, code: expect.any(String) });
		expect(Number(r.items[1].id)).toBeGreaterThan(Number(r.items[0].id));
		before = await requestCount(v);
		expect((await poll(WITH_RECORDS, { staticData })).items).toEqual([]);
		expect((await requestCount(v)) - before).toBe(2);
		// a record that brings the balance under the threshold: the record, then the crossing
		await setBalance(100.5);
		const last = await consume();
		expect((await poll(WITH_RECORDS, { staticData })).items.map(identity)).toEqual([`consumption:${last}`, 'below:99.50']);
	});

	test('switching consumption records on later starts them from a baseline', async () => {
		await setBalance(500);
		const staticData = {};
		await poll(FIXED, { staticData, activation: true });
		await consume();
		expect((await poll(WITH_RECORDS, { staticData })).items).toEqual([]);
		const name = await consume();
		expect((await poll(WITH_RECORDS, { staticData })).items.map(identity)).toEqual([`consumption:${name}`]);
	});

	test('every new record is read even when they fill more than a page; an idle poll reads one page', async () => {
		await setBalance(5000);
		const staticData = {};
		await poll(WITH_RECORDS, { staticData, activation: true });
		for (let i = 0; i < 1100; i++) await consume();
		let before = await requestCount(v);
		const r = await poll(WITH_RECORDS, { staticData });
		expect(r.items).toHaveLength(1100);
		expect(new Set(r.items.map((i) => i.id)).size).toBe(1100);
		expect((await requestCount(v)) - before).toBe(3); // balance, payList pages 1 and 2
		before = await requestCount(v);
		expect((await poll(WITH_RECORDS, { staticData })).items).toEqual([]);
		expect((await requestCount(v)) - before).toBe(2);
		expect(JSON.stringify(staticData).length).toBeLessThan(100);
	});

	test('"Fetch Test Event": the newest consumption record and the balance below the threshold are real events, without touching the state', async () => {
		await setBalance(42);
		await consume();
		const newest = await consume();
		const staticData = {};
		const r = await poll(WITH_RECORDS, { mode: 'manual', staticData });
		// the order of a poll: the record, then the balance below the threshold
		expect(r.items).toEqual([
			expect.objectContaining({ event: 'consumption', name: newest, balance: 40, threshold: 100 }),
			{ event: 'belowThreshold', balance: 40, threshold: 100, seenAt: expect.any(String) },
		]);
		for (const item of r.items) expect(item.sample).toBeUndefined();
		expect(staticData).toEqual({});
	});

	test('"Fetch Test Event" never shows a crossing that did not happen: above the threshold it is a marked sample of the real balance', async () => {
		await setBalance(250);
		const [sample] = (await poll(FIXED, { mode: 'manual' })).items;
		expect(sample).toEqual({
			event: 'belowThreshold',
			balance: 250,
			threshold: 100,
			seenAt: expect.any(String),
			sample: true,
			sampleNote: expect.stringMatching(/^Sample, not an event: the balance \(250\.00\) is not below the threshold \(100\.00\), so it has not fallen below it\./),
		});
		// the marking comes first in the item, where a person looking at the output sees it
		expect(Object.keys(sample).slice(0, 2)).toEqual(['sample', 'sampleNote']);
		// with consumption records on and none made yet: a sample of each kind, both marked
		const both = (await poll(WITH_RECORDS, { mode: 'manual' })).items;
		expect(both.map((i) => [i.event, i.sample])).toEqual([
			['belowThreshold', true],
			['consumption', true],
		]);
		expect(both[1]).toMatchObject({ id: null, name: null, price: null, balance: 250, threshold: 100, sampleNote: expect.stringMatching(/no consumption record yet/) });
		// a real consumption record is shown as it is; the balance above the threshold is then left out
		const name = await consume();
		const real = (await poll(WITH_RECORDS, { mode: 'manual' })).items;
		expect(real).toEqual([expect.objectContaining({ event: 'consumption', name, balance: 249 })]);
		expect(real[0].sample).toBeUndefined();
		// the account's alarm value as the threshold: the sample shows that one
		expect((await v.api('profile/balanceAlarm', { alarm: 1, alarm_value: 50 })).code).toBe(1);
		const [account] = (await poll({ thresholdSource: 'account', consumption: false }, { mode: 'manual' })).items;
		expect(account).toMatchObject({ event: 'belowThreshold', balance: 249, threshold: 50, sample: true });
	});

	test.each([
		['numbersAsNumbers', 'extraFields'],
		['numbersAsStrings', 'emptyObjectsAsArrays'],
	])('amounts as numbers or strings read alike (dialects %s, %s)', async (...dialects) => {
		await v.api('profile/detail', {}); // the test's own log-in, before the dialect (its helper expects code 1 as a number)
		await v.control('POST', '/dialects', { set: dialects });
		try {
			await setBalance(150);
			expect(Number((await v.api('profile/balanceAlarm', { alarm: 1, alarm_value: 120 })).code)).toBe(1);
			const raw = await v.api('profile/detail', {});
			expect(typeof raw.data.balance.price).toBe(dialects.includes('numbersAsNumbers') ? 'number' : 'string');
			for (const params of [WITH_RECORDS, { thresholdSource: 'account', consumption: true }]) {
				const staticData = {};
				await poll(params, { staticData, activation: true });
				await setBalance(110.5);
				const name = await consume();
				const threshold = params.thresholdSource === 'account' ? 120 : 100;
				const items = (await poll(params, { staticData })).items;
				const expected = [`consumption:${name}`];
				if (109.5 < threshold) expected.push('below:109.50');
				expect(items.map(identity)).toEqual(expected);
				for (const i of items) expect(i).toMatchObject({ balance: 109.5, threshold });
				expect((await poll(params, { staticData })).items).toEqual([]);
				await setBalance(150);
			}
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
	});

	test('errors: thrown in manual mode and on the first poll, logged later; a failed poll loses no crossing', async () => {
		await setBalance(150);
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['profile/balance'] });
		// the poll is named, not the service's path (issue 36)
		await expect(poll(FIXED, { mode: 'manual' })).rejects.toThrow(/failed to answer the poll|Could not reach the API for the poll/);
		const staticData = {};
		await expect(poll(FIXED, { staticData, activation: true })).rejects.toThrow(/failed to answer the poll|Could not reach the API for the poll/);
		await clearFaults(v);
		await poll(WITH_RECORDS, { staticData, activation: true });
		await setBalance(50);
		const rec = await consume();
		// the balance is read, the record list fails: the crossing must not be spent
		await v.control('POST', '/faults', { errorRate: 1, errorOps: ['profile/payList'] });
		const saved = JSON.stringify(staticData);
		const failed = await poll(WITH_RECORDS, { staticData });
		expect(failed.items).toEqual([]);
		expect(failed.logs.map((l) => l.level)).toEqual(['error']);
		expect(JSON.stringify(staticData)).toBe(saved);
		await clearFaults(v);
		expect((await poll(WITH_RECORDS, { staticData })).items.map(identity)).toEqual([`consumption:${rec}`, 'below:49.00']);
	});

	test("n8n 2.40 keeps a poll's static data in memory until items are emitted: a re-arm seen only by quiet polls is lost by a restart, unless cursors are durable", async () => {
		await setBalance(150);
		for (const cursor of ['live', 'staged']) {
			const staticData = {};
			await poll(FIXED, { staticData, activation: true, cursor });
			if (cursor === 'staged') await poll(FIXED, { staticData, cursor }); // the activation poll is not committed
			await setBalance(50);
			const fell = await poll(FIXED, { staticData, cursor });
			expect(fell.items).toHaveLength(1);
			const written = fell.persisted; // what n8n wrote to its database with the emitted item
			await setBalance(150);
			expect((await poll(FIXED, { staticData, cursor })).items).toEqual([]); // re-armed, nothing emitted
			await setBalance(60);
			// n8n restarts: the static data comes back from the database (durable cursors: the committed cursor)
			const database = cursor === 'live' ? written : staticData;
			const restarted = await poll(FIXED, { staticData: JSON.parse(JSON.stringify(database)), activation: true, cursor });
			expect(restarted.items.length).toBe(cursor === 'live' ? 0 : 1);
			await setBalance(150);
		}
	});
});

/** The simulation (balanceTrigger.simulation.js: what it does and checks), in a plain Node process; a safety cap, not a measure. */
const SIMULATION = require.resolve('./balanceTrigger.simulation');
const SIMULATION_TIMEOUT_MS = 600000;

describe('simulation', () => {
	test('1000 polls with the balance moving across the threshold and consumption records, failed polls and restarts', async () => {
		const r = await runSimulation(SIMULATION, { seed: 8001, polls: 1000, cursor: 'live' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
		expect(r.failedPolls).toBeGreaterThan(20);
		expect(r.crossings).toBeGreaterThan(50);
		expect(r.requestsPerCleanPoll).toBeLessThan(2.01); // profile/balance + one page of profile/payList
	}, SIMULATION_TIMEOUT_MS);

	test('the same with durable (staged) poll cursors, crash restarts included', async () => {
		await runSimulation(SIMULATION, { seed: 8002, polls: 300, cursor: 'staged' }, { timeoutMs: SIMULATION_TIMEOUT_MS - 60e3 });
	}, SIMULATION_TIMEOUT_MS);
});

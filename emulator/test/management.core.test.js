'use strict';
/**
 * The core of the emulator's management interface: control routes bound per emulator, the
 * charge hook, and the id lists of the Params reader.
 */
const { createEmulator } = require('..');
const { Params } = require('../management/util');
const { DEMO, client, demoBalance } = require('./helpers');

describe('several emulators in one process', () => {
	let a;
	let b;

	beforeAll(async () => {
		a = await createEmulator({ seed: 'demo' });
		b = await createEmulator({ seed: 'demo' });
	});

	afterAll(async () => {
		await Promise.all([a, b].filter(Boolean).map((e) => e.close()));
	});

	const hostCount = (emu) => Object.keys(emu.management.state.instance.hosts).length;

	test('each control route acts on its own emulator, also after the other one was reset', async () => {
		const before = hostCount(b);
		await client(a).control('/instance/hosts/add', { name: 'only-in-a' });
		expect(hostCount(a)).toBe(before + 1);
		expect(hostCount(b)).toBe(before);

		await client(b).post('/__emulator/reset', {});
		await client(a).control('/profile/recharge', { username: 'demo', price: 10 });
		expect(demoBalance(a)).toBe(1010);
		expect(demoBalance(b)).toBe(1000);

		const c = client(b);
		await c.authorize(...DEMO);
		const channel = await c.ok('cdn/domainAdd', { name: 'b-only.example.org', type: 'cloud', ip: { '192.0.2.10': 80 } });
		expect((await client(b).control('/cdn/traffic', { id: channel.data.id, bytes: 1024 })).free).toBe(1024);
		expect(await client(a).control('/cdn/traffic', { id: channel.data.id, bytes: 1024 })).toEqual({
			error: `no channel ${channel.data.id}`,
		});
	});

	test('the balance alarm runs once per charge, however often the state was reset', async () => {
		const c = client(a);
		await c.post('/__emulator/reset', {});
		await c.post('/__emulator/reset', {});
		await c.authorize(...DEMO);
		await c.ok('profile/balanceAlarm', { alarm: 1, alarm_num: 5, alarm_value: 2000 });
		await c.ok('cdn/domainAdd', { name: 'alarm-once.example.org', type: 'cloud', ip: { '192.0.2.10': 80 } });
		const alarms = a.management.state.logs.filter((l) => l.title === 'Balance alarm');
		expect(alarms).toHaveLength(1);
		expect(a.management.core.balanceOf(a.management.core.accountByName('demo').uid).send_num).toBe('1');
	});
});

describe('Params.idList', () => {
	test('ids separated by commas, with or without spaces; each id once', () => {
		expect(new Params({ id: '1,2,3' }).idList('id')).toEqual([1, 2, 3]);
		expect(new Params({ id: '1, 2,  3' }).idList('id')).toEqual([1, 2, 3]);
		expect(new Params({ id: '3,1,3' }).idList('id')).toEqual([3, 1]);
		expect(new Params({ id: 7 }).idList('id')).toEqual([7]);
		expect(() => new Params({ id: '1,,2' }).idList('id')).toThrow('id must be an id or ids separated by commas');
		expect(() => new Params({ id: '1 2' }).idList('id')).toThrow('id must be an id or ids separated by commas');
	});
});

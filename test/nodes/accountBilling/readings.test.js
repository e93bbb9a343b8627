'use strict';
/**
 * Vendor Account & Billing where the vendor's documentation is silent, through n8n-core against
 * the demo emulator: Set Resource Permissions sends an empty list for a type and an empty perms
 * (`perms:object mapping a type number to an array of int`: nothing says a list may not be empty).
 */
const { startVendor, n8n } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());

const mgmt = () => v.emu.management.state;
const opsUid = () => Object.values(mgmt().accounts).find((a) => a.name === 'demo_ops' || a.username === 'demo_ops').uid;

describe('Set Resource Permissions', () => {
	test('a row with no IDs sends an empty list for its type; no row sends an empty perms', async () => {
		const uid = opsUid();
		await v.ok(NODE, { resource: 'subAccount', operation: 'setPermissions', uid: v.byId(uid), perms: { rows: [{ type: 1, ids: '3' }, { type: 5 }] } });
		expect(mgmt().accounts[uid].perms).toEqual({ 1: [3], 5: [] });
		await v.ok(NODE, { resource: 'subAccount', operation: 'setPermissions', uid: v.byId(uid), perms: { rows: [] } });
		expect(mgmt().accounts[uid].perms).toEqual({});
		await v.ok(NODE, { resource: 'subAccount', operation: 'setPermissions', uid: v.byId(uid) });
		expect(mgmt().accounts[uid].perms).toEqual({});
	});
});

describe('Register', () => {
	test('E-Mail is not required by the node (the vendor\'s documentation does not mark it): without it the request is sent and the service decides', async () => {
		const before = (await v.control('GET', '/stats')).management.requests['profile/register'] ?? 0;
		const { error } = await v.run(NODE, { resource: 'account', operation: 'register', username: 'nomail1', password: 'Nomail-pass1' });
		expect((await v.control('GET', '/stats')).management.requests['profile/register']).toBe(before + 1);
		// this emulator asks for an e-mail address: its own refusal is shown
		expect(error.message).toMatch(/^"E-Mail"/); // the service's refusal, naming the field the user sees
		expect(error.description).toMatch(/profile\/register with code/);
		const [made] = await v.ok(NODE, { resource: 'account', operation: 'register', username: 'withmail1', password: 'Withmail-pass1', mail: 'w@example.com' });
		expect(made).toMatchObject({ name: 'withmail1', mail: 'w@example.com' });
	});
});

/** The body of the latest successful change sent to `path`, as the emulator's operation log keeps it. */
const lastSent = (path) => JSON.parse([...mgmt().logs].reverse().find((l) => l.op === path).content);
const sentTo = async (path) => (await v.control('GET', '/stats')).management.requests[path] ?? 0;
const demoUid = () => Object.values(mgmt().accounts).find((a) => a.name === 'demo').uid;

describe('Set Balance Alarm: Alarm is not required (the documentation marks none of its fields required)', () => {
	test('a new threshold alone is sent alone and leaves the alarm on or off as it is', async () => {
		await v.ok(NODE, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: false, alarmValue: 80 } });
		expect(mgmt().balances[demoUid()]).toMatchObject({ alarm: '0', alarm_value: '80.00' });
		const [set] = await v.ok(NODE, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarmValue: 120 }, simplify: false });
		expect(lastSent('profile/balanceAlarm')).toEqual({ alarm_value: 120 });
		expect(mgmt().balances[demoUid()]).toMatchObject({ alarm: '0', alarm_value: '120.00' });
		expect(set).toMatchObject({ alarm: '0', alarm_value: '120.00' });
	});

	test('nothing set is refused before sending, naming what to add', async () => {
		const before = await sentTo('profile/balanceAlarm');
		const error = await v.fails(NODE, { resource: 'balance', operation: 'setAlarm' });
		expect(error.message).toBe('Nothing to set');
		expect(error.description).toMatch(/Alarm, Threshold or Number of Alerts/);
		expect(await sentTo('profile/balanceAlarm')).toBe(before);
	});
});

describe('Invoice Apply: Title and Amount required, Holder and Invoice Type sent only when set', () => {
	test('without Holder and Invoice Type neither is sent: the request reaches the service, which decides', async () => {
		const before = await sentTo('profile/invoiceApply');
		const { error } = await v.run(NODE, { resource: 'invoice', operation: 'apply', title: 'No Type Ltd.', price: 1 });
		expect(await sentTo('profile/invoiceApply')).toBe(before + 1);
		// this emulator asks for both: its own refusal is shown
		expect(error.message).toMatch(/^"Holder"/);
		expect(error.description).toMatch(/profile\/invoiceApply with code/);
	});

	test('set, they are sent as chosen', async () => {
		const [made] = await v.ok(NODE, { resource: 'invoice', operation: 'apply', title: 'Person', price: 1, additionalFields: { type: 2, invoicetype: 2 } });
		expect(lastSent('profile/invoiceApply')).toMatchObject({ title: 'Person', price: 1, type: 2, invoicetype: 2 });
		expect(made).toMatchObject({ title: 'Person' });
	});

	test('the fields say why Title and Amount are required and that Holder and Invoice Type are not sent unless set', () => {
		const props = n8n.loadPackage().nodes[`${n8n.PREFIX}.${NODE}`].description.properties;
		const onApply = (p) => p.displayOptions?.show?.resource?.includes('invoice') && p.displayOptions?.show?.operation?.includes('apply');
		const top = props.filter(onApply);
		expect(top.find((p) => p.name === 'title')).toMatchObject({ required: true, description: expect.stringMatching(/required by the node because/) });
		expect(top.find((p) => p.name === 'price')).toMatchObject({ required: true, description: expect.stringMatching(/required by the node because/) });
		expect(top.find((p) => p.name === 'type')).toBeUndefined();
		const extra = top.find((p) => p.name === 'additionalFields').options;
		for (const name of ['type', 'invoicetype']) expect(extra.find((o) => o.name === name).description).toMatch(/not sent unless set/);
	});
});

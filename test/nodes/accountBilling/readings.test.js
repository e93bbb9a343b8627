'use strict';
/**
 * Vendor Account & Billing where the vendor's documentation is silent, through n8n-core against
 * the demo emulator: Set Resource Permissions sends an empty list for a type and an empty perms
 * (`perms:object mapping a type number to an array of int`: nothing says a list may not be empty).
 */
const { startVendor } = require('../../support/vendor');

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
		expect(error.message).toMatch(/mail.*\(profile\/register, code/);
		const [made] = await v.ok(NODE, { resource: 'account', operation: 'register', username: 'withmail1', password: 'Withmail-pass1', mail: 'w@example.com' });
		expect(made).toMatchObject({ name: 'withmail1', mail: 'w@example.com' });
	});
});

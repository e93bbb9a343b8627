'use strict';
/**
 * Issue 35, section 4: input the documents' types rule out is refused before anything is sent,
 * naming the field; what no document rules out is sent and the service decides (readings R3).
 * Every test runs the built nodes through n8n-core against the emulator.
 */
const { startVendor } = require('../../support/vendor');

const BILLING = 'vendorAccountBilling';
let v;
beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());

const requestsTo = async (path) => (await v.control('GET', '/stats')).management.requests[path] ?? 0;
const lastBody = async (path) => (await v.control('GET', '/requests')).requests.filter((r) => r.path === path).pop()?.body;

/** Runs the node, which must fail without sending any of `paths`; returns the error. */
async function refusedBeforeSending(node, parameters, paths) {
	const before = await Promise.all(paths.map(requestsTo));
	const error = await v.fails(node, parameters);
	expect(await Promise.all(paths.map(requestsTo))).toEqual(before);
	return error;
}

describe('Set Balance Alarm: every usual spelling of true and false, anything else names the field', () => {
	const spellings = [
		...['true', 'TRUE', 'True', 'yes', 'YES', 'Yes', 'on', 'ON', 'On', '1', ' on '].map((w) => [w, 1]),
		...['false', 'FALSE', 'False', 'no', 'NO', 'No', 'off', 'OFF', 'Off', '0'].map((w) => [w, 0]),
	];
	test.each(spellings)('{{ "%s" }} sends alarm %s', async (word, sent) => {
		await v.ok(BILLING, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: `={{ ${JSON.stringify(word)} }}`, alarmValue: 50 } });
		expect((await lastBody('profile/balanceAlarm')).alarm).toBe(sent);
	});

	test.each([[true, 1], [false, 0], [1, 1], [0, 0], ['={{ true }}', 1], ['={{ 0 }}', 0]])('%s (a switch, a number or an expression) sends alarm %s', async (value, sent) => {
		await v.ok(BILLING, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: value, alarmValue: 50 } });
		expect((await lastBody('profile/balanceAlarm')).alarm).toBe(sent);
	});

	test.each(['maybe', '2', 'enabled', 'truee'])('{{ "%s" }} is refused naming the field, nothing sent', async (word) => {
		const error = await refusedBeforeSending(BILLING, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarm: `={{ "${word}" }}` } }, ['profile/balanceAlarm']);
		expect(error.message).toBe(`The "Alarm" field must be true or false, not "${word}"`);
	});
});

describe('an ID typed "By ID" is an ID: anything else is refused, not looked up as a name', () => {
	test.each(['abc', '1.5', '-1', 'Operators'])('Group > Update with Group By ID "%s": refused naming the field and the mode; no list read, nothing changed', async (value) => {
		const error = await refusedBeforeSending(BILLING, { resource: 'group', operation: 'update', id: { __rl: true, mode: 'id', value }, updateFields: { note: 'x' } }, ['profile/groupList', 'profile/groupUpdate']);
		expect(error.message).toBe(`The "Group" field is set to By ID, and "${value}" is not a group ID`);
		expect(error.description).toMatch(/numeric ID .* choose it From List, or switch the field to By Name/);
	});

	test('the same name By Name is looked up; a numeric ID By ID is sent as it is', async () => {
		const [byName] = await v.ok(BILLING, { resource: 'group', operation: 'update', simplify: false, id: { __rl: true, mode: 'name', value: 'Operators' }, updateFields: { note: 'by name' } });
		expect(byName).toMatchObject({ name: 'Operators', note: 'by name' });
		await v.ok(BILLING, { resource: 'group', operation: 'update', id: v.byId(byName.id), updateFields: { note: 'by id' } });
		expect(await lastBody('profile/groupUpdate')).toMatchObject({ id: Number(byName.id), note: 'by id' });
	});
});

describe('numbers of things are 0 or more; limits no document states are the service\'s', () => {
	test('Number of Alerts -1 is refused naming the field, nothing sent', async () => {
		const error = await refusedBeforeSending(BILLING, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarmNum: -1 } }, ['profile/balanceAlarm']);
		expect(error.message).toBe('Invalid "Number of Alerts": -1 is below 0; a number of alerts is 0 or more');
	});

	test('Host > Create with Quantity -2 is refused naming the field, nothing sent', async () => {
		const error = await refusedBeforeSending(
			'vendorCloudHost',
			{ resource: 'host', operation: 'create', name: 'neg', nodeid: v.byId(1), cpuid: v.byId(1), memid: v.byId(1), imageid: v.byId(1), networkid: v.byId(1), type: 1, pass: 'Neg-pass-12', num: -2 },
			['instance/create'],
		);
		expect(error.message).toBe('Invalid "Quantity": -2 is below 0; a quantity of hosts is 0 or more');
	});

	test('101 alerts and a threshold of -5 are sent: no document rules them out (a balance below zero is an account in arrears)', async () => {
		await v.run(BILLING, { resource: 'balance', operation: 'setAlarm', additionalFields: { alarmNum: 101, alarmValue: -5 } });
		expect(await lastBody('profile/balanceAlarm')).toEqual({ token: '(secret)', alarm_num: 101, alarm_value: -5 });
	});
});

describe('a control character anywhere, or a line break in a name, is refused naming the field', () => {
	test.each([
		['a NUL', 'ops\u0000team', 'Invalid "Name": it holds the control character U+0000 (NUL) at position 4; no field takes control characters'],
		['an escape', 'ops\u001bteam', 'Invalid "Name": it holds the control character U+001B at position 4; no field takes control characters'],
		['a new line', 'ops\nteam', 'Invalid "Name": it holds a line break; a name is one line'],
		['a carriage return', 'ops-team\r', 'Invalid "Name": it holds a line break; a name is one line'],
	])('Group > Create with %s in the name: refused, nothing sent', async (_what, name, message) => {
		const error = await refusedBeforeSending(BILLING, { resource: 'group', operation: 'create', name: `={{ ${JSON.stringify(name)} }}` }, ['profile/groupAdd']);
		expect(error.message).toBe(message);
	});

	test('a note may hold line breaks and tabs (it is not a name); a NUL in it is refused', async () => {
		await v.ok(BILLING, { resource: 'group', operation: 'create', name: 'multi-line-note', additionalFields: { note: '={{ "first line\\nsecond\\tline" }}' } });
		expect((await lastBody('profile/groupAdd')).note).toBe('first line\nsecond\tline');
		const error = await refusedBeforeSending(BILLING, { resource: 'group', operation: 'create', name: 'nul-note', additionalFields: { note: '={{ "a\\u0000b" }}' } }, ['profile/groupAdd']);
		expect(error.message).toMatch(/^Invalid "Note": it holds the control character U\+0000 \(NUL\)/);
	});

	test('a password with a control character is refused without repeating it', async () => {
		const error = await refusedBeforeSending(BILLING, { resource: 'subAccount', operation: 'create', username: 'ctl-user', password: '={{ "Secret\\u0007pass1" }}' }, ['profile/update']);
		expect(error.message).toMatch(/control character U\+0007/);
		expect(`${error.message} ${error.description}`).not.toContain('Secret');
	});

	test('DNS Record > Add: a line break in a host record of More Records is refused naming the row', async () => {
		const [domain] = (await v.api('dns/domainList', {})).data;
		const error = await refusedBeforeSending(
			'vendorDns',
			{ resource: 'record', operation: 'add', did: v.byId(domain.id), recordtype: 'A', subdomain: 'ok', value: '203.0.113.9', additionalFields: { records: { rows: [{ subdomain: '={{ "www\\n" }}', recordtype: 'A', value: '203.0.113.8' }] } } },
			['dns/recordAdd'],
		);
		expect(error.message).toBe('Invalid "More Records 1: Host Record": it holds a line break; a name is one line');
	});
});

'use strict';
/**
 * Cloud Host > Host > Find in Text (issue 11, section 2): the host a text names by its name,
 * instance ID or IP address, from the same listing and with the same words as the host
 * locators (resolve.ts), so "please restart web-1" in a chat needs no code. One item per input
 * item: `found`, a `message` that says which host or why none can be chosen, and the host.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
let v;
let hosts;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	// web-10 next to web-1: a name that contains another one must not match it
	await v.control('POST', '/management/instance/hosts/add', { name: 'web-10', nodeid: 1 });
	hosts = (await v.api('instance/list', { page: 1, limit: 100 })).data;
});
afterAll(() => v.close());

const host = (name) => hosts.find((h) => h.name === name);
const find = async (text, extra = {}) => (await v.ok(NODE, { resource: 'host', operation: 'findInText', text, ...extra }))[0];
const listings = async () => (await v.control('GET', '/stats')).management.requests['instance/list'] ?? 0;

test.each([
	['its name', 'please restart web-1', 'web-1'],
	['its name at the end of a sentence', 'Could you restart web-1?', 'web-1'],
	['its name in other case', 'WEB-1 is stuck', 'web-1'],
	['a longer name that contains another', 'restart web-10 now', 'web-10'],
	['its instance ID', (h) => `reboot ${h('db-1').instance_id} please`, 'db-1'],
	['its public IP with a full stop after it', (h) => `${h('batch-1').ips[0]} stopped answering.`, 'batch-1'],
	['its inner IP', (h) => `the box at ${h('db-1').innerip}, restart it`, 'db-1'],
])('found by %s', async (_what, text, name) => {
	const t = typeof text === 'function' ? text(host) : text;
	const item = await find(t);
	const h = host(name);
	expect(item).toMatchObject({ found: true, id: h.id, name, instanceId: h.instance_id, status: expect.any(String), statusCode: String(h.status), named: [name] });
	// the host the way every message shows one: name (instance ID, first IP when it has one) (ID n)
	expect(item.message).toBe(`The text names host ${name} (${[h.instance_id, ...(h.ips || []).slice(0, 1)].join(', ')}) (ID ${h.id})`);
});

test('a text naming no host: not found, and the message names the hosts to choose from', async () => {
	const item = await find('restart the server please');
	expect(item.found).toBe(false);
	expect(item.id).toBeUndefined();
	expect(item.named).toEqual([]);
	expect(item.hosts.sort()).toEqual(hosts.map((h) => h.name).sort());
	expect(item.message).toMatch(/^No host is named in "restart the server please" \(looked for a name, an instance ID or an IP address\); hosts: /);
	// every host the same way: name (instance ID, first IP when it has one) (ID n)
	for (const h of hosts) expect(item.message).toContain(`${h.name} (${[h.instance_id, ...(h.ips || []).slice(0, 1)].join(', ')}) (ID ${h.id})`);
});

test('a text naming two hosts: not found, and the message names both', async () => {
	const item = await find('restart web-1 and db-1');
	expect(item).toMatchObject({ found: false, named: ['web-1', 'db-1'].sort((a, b) => Number(host(b).id) - Number(host(a).id)) });
	expect(item.message).toMatch(/^The text names 2 hosts: .*web-1.*; name only one of them$/);
	expect(item.message).toContain(`db-1 (${[host('db-1').instance_id, ...(host('db-1').ips || []).slice(0, 1)].join(', ')}) (ID ${host('db-1').id})`);
	// the same host named twice (its name and its IP) is one host
	const twice = await find(`web-1 (${host('web-1').ips[0]}) is down`);
	expect(twice).toMatchObject({ found: true, name: 'web-1' });
});

test('Simplify off: the host record as the service sent it', async () => {
	const item = await find('please restart web-1', { simplify: false });
	expect(item).toMatchObject({ found: true, ...host('web-1') });
	expect(item.instance_id).toBe(host('web-1').instance_id);
});

test('many messages: one host listing for the whole run', async () => {
	const before = await listings();
	const { items, error } = await v.run(NODE, { resource: 'host', operation: 'findInText', text: '={{ $json.chatInput }}' }, {
		input: [{ chatInput: 'restart web-1' }, { chatInput: 'db-1 please' }, { chatInput: 'nothing here' }, { chatInput: 'batch-1!' }],
	});
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json.found)).toEqual([true, true, false, true]);
	expect(items.map((i) => i.json.name ?? null)).toEqual(['web-1', 'db-1', null, 'batch-1']);
	expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	expect((await listings()) - before).toBe(1);
});

'use strict';
/**
 * The nodes as AI tools (issue 18), run through n8n-core the way an AI Agent's tool call runs
 * them: the tool variant (`vendorCloudHostTool`, made as n8n makes it) with the model's
 * arguments as the input item. What the model gets back: the object acted on by ID and name,
 * lists that say they were cut, errors whose message says what to do. The same node run
 * normally is unchanged. (The real n8n program, AI Agent and MCP: test/real-n8n/ai.test.js.)
 */
const { NodeHelpers } = require('n8n-workflow');
const { startVendor } = require('../../support/vendor');
const harness = require('../../support/n8n');

const TOOL = 'vendorCloudHostTool';
const fromAI = (key, type = 'string') => `={{ $fromAI('${key}', '', '${type}') }}`;
let v;
let hosts;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	for (let i = 1; i <= 120; i++) await v.control('POST', '/management/instance/hosts/add', { name: `app-${i}`, status: 1 });
	hosts = (await v.api('instance/list', { page: 1, limit: 1000 })).data;
});
afterAll(() => v.close());

const host = (name) => hosts.find((h) => h.name === name);
const requests = async (path) => (await v.control('GET', '/stats')).management.requests[path] ?? 0;
/** Runs the tool variant with the model's arguments as the input item (n8n's engine request). */
const callTool = (parameters, args) => v.run(TOOL, parameters, { input: [args] });

test('the tool variant has a Tool Description per operation; the normal node shows none', () => {
	const { all, tools } = harness.nodeTypes();
	const nodes = { ...all, ...tools };
	const tool = nodes[`n8n-nodes-vendor-cloud.${TOOL}`];
	const plain = nodes['n8n-nodes-vendor-cloud.vendorCloudHost'];
	const params = (type, p) => NodeHelpers.getNodeParameters(type.description.properties, p, true, false, { typeVersion: 1 }, type.description);
	const reboot = { resource: 'host', operation: 'reboot' };
	expect(params(tool, reboot).toolDescription).toMatch(/^Restart one or more hosts\. Needs: .*a name, an instance ID or an IP address, or the numeric ID.*Changes things for real/);
	expect(params(plain, reboot).toolDescription).toBeUndefined();
	expect(params(tool, { resource: 'host', operation: 'getAll' }).toolDescription).toMatch(/^List cloud hosts.*Returns one object per host .*listNote/);
});

test('Reboot by name: the host is rebooted and the result names it by ID and name', async () => {
	const before = await requests('instance/update');
	const { items, error } = await callTool({ resource: 'host', operation: 'reboot', id: fromAI('Host_Names_or_IDs') }, { Host_Names_or_IDs: 'web-1' });
	expect(error).toBeUndefined();
	expect((await requests('instance/update')) - before).toBe(1);
	expect(items.map((i) => i.json)).toEqual([expect.objectContaining({ id: host('web-1').id, name: 'web-1' })]);
});

test('an unknown name: the message names the closest hosts first and says what to do; nothing is sent', async () => {
	const before = await requests('instance/update');
	const { error } = await callTool({ resource: 'host', operation: 'reboot', id: fromAI('Host_Names_or_IDs') }, { Host_Names_or_IDs: 'web-2' });
	expect(error.message).toMatch(/^No host is called "web-2" \(checked: a name, an instance ID or an IP address\); hosts: web-1 \(ID \d+\), /);
	expect(error.message).toMatch(/and \d+ more/);
	// what to do is in the message itself (an AI Agent's model reads nothing else)
	expect(error.message).toMatch(/\. Use one of these names or IDs\.$/);
	expect(await requests('instance/update')).toBe(before);
});

test('an unknown numeric ID is refused with the candidates before anything is sent (tool runs only)', async () => {
	const before = await requests('instance/update');
	const { error } = await callTool({ resource: 'host', operation: 'reboot', id: fromAI('Host_Names_or_IDs') }, { Host_Names_or_IDs: '999999' });
	expect(error.message).toMatch(/^No host has the ID 999999; hosts: .*\(ID \d+\).* Use one of these names or IDs\./);
	expect(await requests('instance/update')).toBe(before);
	// a normal run sends the ID as it is and shows the service's refusal
	const plain = await v.fails('vendorCloudHost', { resource: 'host', operation: 'reboot', id: '999999' });
	expect(plain.message).toBe('"Hosts": cloud host 999999 does not exist');
	expect(plain.description).toMatch(/instance\/update with code 0/);
});

test('a list that was cut ends with a note: how many there are and how to see the rest', async () => {
	const fixed = await callTool({ resource: 'host', operation: 'getAll' }, {});
	const json = fixed.items.map((i) => i.json);
	expect(json).toHaveLength(51);
	expect(json[50]).toEqual({
		listNote: `Showing 50 of ${hosts.length} hosts (Limit 50). This tool's Limit is fixed at 50 in the workflow: narrow the list with a filter, or ask the user to raise Limit or turn on Return All.`,
		shown: 50,
		total: hosts.length,
	});
	const open = await callTool({ resource: 'host', operation: 'getAll', limit: fromAI('Limit', 'number') }, { Limit: 10 });
	const last = open.items.map((i) => i.json).pop();
	expect(last.listNote).toBe(`Showing 10 of ${hosts.length} hosts (Limit 10). To see the rest, call again and raise Limit to ${hosts.length}, or narrow the list with a filter.`);
	// all of them, or a normal run: no note
	expect((await callTool({ resource: 'host', operation: 'getAll', returnAll: true }, {})).items.every((i) => i.json.listNote === undefined)).toBe(true);
	expect((await v.ok('vendorCloudHost', { resource: 'host', operation: 'getAll' })).map((j) => j.listNote).filter(Boolean)).toEqual([]);
});

test('a list that is not paged says it was cut too (total from the answer itself)', async () => {
	const images = (await v.api('instance/imageList')).data;
	expect(images.length).toBeGreaterThan(1);
	const { items } = await v.run('vendorCloudHostTool', { resource: 'image', operation: 'getAll', limit: 1 }, { input: [{}] });
	const json = items.map((i) => i.json);
	expect(json).toHaveLength(2);
	expect(json[1].listNote).toBe(`Showing 1 of ${images.length} images (Limit 1). This tool's Limit is fixed at 1 in the workflow: narrow the list with a filter, or ask the user to raise Limit or turn on Return All.`);
});

test('other resources by name in a tool run: a DNS domain; an unknown one names the domains', async () => {
	const domain = (await v.api('dns/domainList', { page: 1, limit: 10 })).data[0];
	const ok = await v.run('vendorDnsTool', { resource: 'record', operation: 'getAll', did: { __rl: true, mode: 'id', value: fromAI('domain') } }, { input: [{ domain: domain.name }] });
	expect(ok.error).toBeUndefined();
	expect(ok.items.length).toBeGreaterThan(0);
	const bad = await v.run('vendorDnsTool', { resource: 'record', operation: 'getAll', did: { __rl: true, mode: 'id', value: fromAI('domain') } }, { input: [{ domain: 'nope.example' }] });
	expect(bad.error.message).toMatch(new RegExp(`^No domain is called "nope\\.example" \\(checked: a domain name\\); domains: .*${domain.name.replace(/\./g, '\\.')} \\(ID \\d+\\).*\\. Use one of these names or IDs\\.$`));
});

test('a read on a named host (Get Console) gives the host by ID and name next to the answer', async () => {
	const { items, error } = await callTool({ resource: 'host', operation: 'getConsole', id: { __rl: true, mode: 'id', value: fromAI('host') } }, { host: 'web-1' });
	expect(error).toBeUndefined();
	expect(items[0].json).toMatchObject({ id: host('web-1').id, name: 'web-1' });
	expect(items[0].json.consoleAddress).toMatch(/^vnc\..+:\d+$/); // the console's answer, simplified
});

test('Continue On Fail in a tool run: the error item carries what to do', async () => {
	const { items } = await v.run(TOOL, { resource: 'host', operation: 'reboot', id: fromAI('hosts') }, { input: [{ hosts: 'nope-9' }], continueOnFail: true });
	expect(items[0].json.error).toMatch(/^No host is called "nope-9".*Use one of these names or IDs\.$/);
});

test('Object Storage as a tool: the error message says what to do (the model reads nothing else)', async () => {
	const plain = await v.run('vendorObjectStorage', { resource: 'object', operation: 'delete', bucket: { __rl: true, mode: 'name', value: 'no-such-bucket' }, key: 'a.txt' });
	const tool = await v.run('vendorObjectStorageTool', { resource: 'object', operation: 'delete', bucket: { __rl: true, mode: 'name', value: 'no-such-bucket' }, key: 'a.txt' }, { input: [{}] });
	expect(plain.error).toBeDefined();
	expect(tool.error.message.startsWith(plain.error.message.replace(/[.\s]+$/, ''))).toBe(true);
	// the hint (without the per-request X-Trans-Id) is in the message the model reads
	expect(plain.error.description).toBeTruthy();
	const withoutRequestId = (t) => t.replace(/, X-Trans-Id [0-9a-f-]+/, '');
	expect(withoutRequestId(tool.error.message)).toContain(withoutRequestId(plain.error.description));
});

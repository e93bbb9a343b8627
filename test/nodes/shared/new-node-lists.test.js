'use strict';
/**
 * A node just added to a workflow (issue 36, point 6). n8n 2.40.7's editor asks for a dropdown's
 * options as soon as the node is added, before it has put the pre-selected credential on the
 * node, and skips the reload the credential would start while that first request runs. Asked
 * without a credential, a list used to fail with "Node does not have any credentials set", which
 * the editor shows as "Error fetching options from Vendor Cloud Host" next to a credential that
 * is set. Now a dropdown answers with one line that says what to do (its empty value is never
 * sent), a list search with nothing; with the credential, the lists are the service's.
 * test/real-n8n/editor.test.js adds such a node in the real editor.
 */
const { startVendor, n8n } = require('../../support/vendor');

let v;
beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
});
afterAll(() => v.close());

const REBOOT = { resource: 'host', operation: 'reboot', id: [] };
const requests = async () => (await v.control('GET', '/stats')).management.requests;
const sent = (stats) => Object.values(stats).reduce((a, b) => a + b, 0);

test('without a credential: one line that says what to do, no request, no error', async () => {
	const before = sent(await requests());
	await expect(n8n.loadOptions('vendorCloudHost', 'getHostOptions', { parameters: REBOOT, credentials: {} })).resolves.toEqual([
		{ name: 'Close and reopen the node to list the hosts (it had no credential yet)', value: '' },
	]);
	await expect(n8n.listSearch('vendorCloudHost', 'searchHosts', { parameters: REBOOT, credentials: {} })).resolves.toEqual({ results: [] });
	await expect(n8n.loadOptions('vendorCloudHostTrigger', 'getDataCentres', { parameters: {}, credentials: {} })).resolves.toEqual([
		{ name: 'Close and reopen the node to list the data centers (it had no credential yet)', value: '' },
	]);
	expect(sent(await requests())).toBe(before);
});

test('with the credential: the service\'s hosts and data centres', async () => {
	const credentials = { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } };
	const hosts = await n8n.loadOptions('vendorCloudHost', 'getHostOptions', { parameters: REBOOT, credentials });
	expect(hosts.map((h) => h.name.split(' ')[0])).toEqual(expect.arrayContaining(['web-1', 'db-1']));
	expect(hosts.every((h) => /^\d+$/.test(h.value))).toBe(true);
	const centres = await n8n.loadOptions('vendorCloudHostTrigger', 'getDataCentres', { parameters: {}, credentials });
	expect(centres.length).toBeGreaterThan(0);
});

test('the "reopen" line chosen by mistake is not sent: the hosts chosen with it are rebooted', async () => {
	const web = (await v.api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === 'web-1');
	const [item] = await v.ok('vendorCloudHost', { resource: 'host', operation: 'reboot', id: ['', String(web.id)] });
	expect(item).toMatchObject({ name: 'web-1', instanceId: web.instance_id });
});

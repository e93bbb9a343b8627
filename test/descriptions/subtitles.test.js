'use strict';
/**
 * Canvas subtitles: every Resource/Operation pair of every action node, and the triggers' chosen
 * options, evaluated the way n8n's editor evaluates a subtitle (Workflow.expression
 * .getSimpleParameterValue with the node's parameters), must read in display names:
 * "Get Many: Payment", never "getAll: payment". The real editor shows them in
 * test/real-n8n/editor.test.js.
 */
const { Workflow } = require('n8n-workflow');
const { nodeTypes, PREFIX } = require('../support/n8n');

const types = nodeTypes();
const vendor = Object.entries(types.all).filter(([name]) => name.startsWith(`${PREFIX}.`));

function subtitle(type, parameters) {
	const node = { id: 'n', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ id: 'w', nodes: [node], connections: {}, active: false, nodeTypes: types, staticData: {}, settings: {} });
	return workflow.expression.getSimpleParameterValue(node, types.all[type].description.subtitle, 'internal', {});
}

/** Every Resource/Operation pair of a node with the option names the dropdowns show. */
function pairs(description) {
	const resource = description.properties.find((p) => p.name === 'resource');
	const out = [];
	for (const r of resource.options) {
		const operation = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value));
		for (const o of operation.options) out.push({ resource: r, operation: o });
	}
	return out;
}

const actionNodes = vendor.filter(([, t]) => t.description.properties.some((p) => p.name === 'resource'));

test('the package has six action nodes and four triggers', () => {
	expect(actionNodes.map(([name]) => name.slice(PREFIX.length + 1)).sort()).toEqual(
		['vendorAccountBilling', 'vendorCdn', 'vendorCloudHost', 'vendorDiskNetworkFirewall', 'vendorDns', 'vendorObjectStorage'].sort(),
	);
	expect(vendor.filter(([, t]) => t.description.polling && !t.description.hidden).map(([name]) => name.slice(PREFIX.length + 1)).sort()).toEqual(
		['vendorAccountBillingTrigger', 'vendorCdnTrigger', 'vendorCloudHostTrigger', 'vendorObjectStorageTrigger'].sort(),
	);
	// the triggers' names before the rename, still served for saved workflows, not offered in the panel
	expect(vendor.filter(([, t]) => t.description.hidden).map(([name]) => name.slice(PREFIX.length + 1)).sort()).toEqual(['vendorBalanceTrigger', 'vendorTaskTrigger']);
});

describe.each(actionNodes.map(([name, t]) => [t.description.displayName, name, t]))('%s', (_displayName, name, t) => {
	test('every Resource/Operation pair reads "<Operation>: <Resource>" in display names', () => {
		const all = pairs(t.description);
		expect(all.length).toBeGreaterThan(5);
		for (const { resource, operation } of all) {
			expect({ pair: `${resource.value}/${operation.value}`, subtitle: subtitle(name, { resource: resource.value, operation: operation.value }) }).toEqual({
				pair: `${resource.value}/${operation.value}`,
				subtitle: `${operation.name}: ${resource.name}`,
			});
		}
	});

	test('a pair it does not know (an operation from an expression) falls back to the values', () => {
		const [{ resource }] = pairs(t.description);
		expect(subtitle(name, { resource: resource.value, operation: 'fromAnExpression' })).toBe(`fromAnExpression: ${resource.value}`);
	});
});

test('Get Many: Payment (the example of the issue)', () => {
	expect(subtitle(`${PREFIX}.vendorAccountBilling`, { resource: 'payment', operation: 'getAll' })).toBe('Get Many: Payment');
});

test('trigger subtitles name the chosen options', () => {
	expect(subtitle(`${PREFIX}.vendorCloudHostTrigger`, { events: ['statusChanged', 'appeared'] })).toBe('On Status Changed, Host Appeared');
	expect(subtitle(`${PREFIX}.vendorCdnTrigger`, { kinds: ['refresh', 'backup'] })).toBe('When CDN Refresh, Host Backup finish');
	expect(subtitle(`${PREFIX}.vendorAccountBillingTrigger`, { thresholdSource: 'fixed', threshold: 100 })).toBe('Below 100');
	expect(subtitle(`${PREFIX}.vendorAccountBillingTrigger`, { thresholdSource: 'account' })).toBe('Below the account alarm value');
	const bucket = { __rl: true, mode: 'name', value: 'photos' };
	expect(subtitle(`${PREFIX}.vendorObjectStorageTrigger`, { event: 'new', bucket, prefix: 'inbox/' })).toBe('New in photos/inbox/');
	expect(subtitle(`${PREFIX}.vendorObjectStorageTrigger`, { event: 'newOrChanged', bucket: { ...bucket, mode: 'list', cachedResultName: 'Photos' }, prefix: '' })).toBe('New or changed in photos/');
});

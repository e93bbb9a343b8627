'use strict';
/**
 * Every operation of every action node tells an AI model, as a tool, what it does, what it needs
 * and what it returns (issue 18): one "Tool Description" per operation, shown only in the tool
 * variant (n8n's `@tool` display option), short enough for every model provider, and operations
 * that change things for real say so.
 */
const path = require('node:path');
const { NodeHelpers } = require('n8n-workflow');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));

const nodes = pkg.n8n.nodes
	.map((file) => new (require(path.join(ROOT, file))[path.basename(file).split('.')[0]])())
	.filter((node) => node.description.usableAsTool);

/** The node's parameters for resource/operation, as the tool variant (or the node itself) has them. */
function params(node, tool, values) {
	const description = tool ? Object.create(node.description, { name: { value: `${node.description.name}Tool` } }) : node.description;
	return NodeHelpers.getNodeParameters(description.properties, values, true, false, { typeVersion: 1 }, description);
}

function operations(node) {
	const out = [];
	for (const p of node.description.properties.filter((x) => x.name === 'operation')) {
		for (const o of p.options) out.push({ resource: p.displayOptions.show.resource[0], operation: o.value, name: o.name });
	}
	return out;
}

test('six action nodes are usable as tools', () => {
	expect(nodes.map((n) => n.description.name).sort()).toEqual(['vendorAccountBilling', 'vendorCdn', 'vendorCloudHost', 'vendorDiskNetworkFirewall', 'vendorDns', 'vendorObjectStorage']);
});

describe.each(nodes.map((n) => [n.description.name, n]))('%s', (_name, node) => {
	const ops = operations(node);
	const texts = ops.map((op) => ({ ...op, text: params(node, true, { resource: op.resource, operation: op.operation }).toolDescription }));

	test('each operation has its own tool description in the tool variant, none in the node', () => {
		for (const t of texts) {
			expect(typeof t.text).toBe('string');
			expect(t.text.length).toBeGreaterThan(30);
			expect(t.text.length).toBeLessThanOrEqual(1024);
			expect(t.text).toMatch(/Returns |returns /);
			expect(params(node, false, { resource: t.resource, operation: t.operation }).toolDescription).toBeUndefined();
		}
		expect(new Set(texts.map((t) => t.text)).size).toBe(texts.length);
	});

	test('what changes or deletes things says so', () => {
		for (const t of texts) {
			if (/^(Delete|Stop|Reboot|Reinstall|Restore|Roll Back|Abort)$/.test(t.name)) expect(`${t.resource}.${t.operation}: ${t.text}`).toMatch(/Changes things for real/);
		}
	});

	test('no "<action> in <node>" left', () => {
		for (const t of texts) expect(t.text).not.toMatch(/ in Vendor /);
	});
});

'use strict';
/**
 * Every node of the package has its own display name. n8n (1.x and 2.x) records an installed
 * community package's nodes in its database by display name (table installed_nodes, whose primary
 * key is the name column): two nodes with one display name make Settings → Community Nodes fail
 * the install with "There is already an entry with this name" (SQLITE_CONSTRAINT). The hidden
 * nodes that serve the triggers' old type names are the ones at risk: test/real-n8n/installer.test.js
 * installs through that page on each n8n line.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json'));

const nodes = PKG.n8n.nodes.map((file) => {
	const Node = Object.values(require(path.join(ROOT, file)))[0];
	const { name, displayName, hidden } = new Node().description;
	return { file, name, displayName, hidden: Boolean(hidden) };
});

test('no two nodes of the package share a display name', () => {
	const byName = new Map();
	for (const n of nodes) byName.set(n.displayName, [...(byName.get(n.displayName) || []), n.name]);
	const shared = [...byName].filter(([, names]) => names.length > 1).map(([displayName, names]) => `"${displayName}": ${names.join(', ')}`);
	expect(shared).toEqual([]);
});

test("the hidden nodes of the old trigger type names say so in their display name, which ends in Trigger as n8n's lint asks", () => {
	expect(nodes.filter((n) => n.hidden).map((n) => [n.name, n.displayName])).toEqual([
		['vendorBalanceTrigger', 'Vendor Balance (Old Type Name) Trigger'],
		['vendorTaskTrigger', 'Vendor Task (Old Type Name) Trigger'],
	]);
});

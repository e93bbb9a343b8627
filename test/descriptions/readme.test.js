'use strict';
/**
 * The README is what a user reads in five minutes and what n8n's reviewers read on npm (issue 34,
 * item 1): at most 250 lines, its sections in n8n's template order with what the well-liked
 * packages add, at most three images; everything else is on a docs/ page. The install snippet
 * names this version, and the commands the release check reads stay as they are.
 */
const fs = require('node:fs');
const path = require('node:path');
const { anchorsOf, linksOf } = require('../../scripts/markdown');

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const SECTIONS = [
	'Installation',
	'Credentials',
	'Nodes and operations',
	'Example workflows',
	'Usage notes',
	'AI agents and MCP',
	'Compatibility',
	'Troubleshooting',
	'Resources',
	'Version history',
];

test('the README is short: at most 250 lines and three images', () => {
	expect(README.split('\n').length).toBeLessThanOrEqual(250);
	expect(linksOf(README).filter((l) => /\.(png|jpe?g|gif|svg)$/i.test(l.target))).toHaveLength(3);
});

test("the README's sections come in n8n's template order", () => {
	expect(anchorsOf(README).filter((a) => a.level === 2).map((a) => a.text)).toEqual(SECTIONS);
});

test('every node and trigger has a line in the README that links its page', () => {
	const table = README.match(/^## Nodes and operations\n([\s\S]*?)(?=^## )/m)[1];
	for (const file of pkg.n8n.nodes) {
		const base = path.basename(file).split('.')[0];
		const { description } = new (require(path.join(ROOT, file))[base])();
		if (description.hidden) continue; // the old type names of two triggers, served for saved workflows
		expect(table).toMatch(new RegExp(`^\\| ${description.displayName.replace(/[&]/g, '\\$&')} \\|.*\\]\\(docs/(nodes/|triggers\\.md#)`, 'm'));
	}
});

test("the install snippets name this version of the package (README and docs/self-hosting.md)", () => {
	for (const file of ['README.md', 'docs/self-hosting.md']) {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const pinned = [...text.matchAll(/"name":"n8n-nodes-vendor-cloud","version":"([^"]+)"/g)].map((m) => m[1]);
		expect({ file, pinned }).toEqual({ file, pinned: [pkg.version] });
	}
});

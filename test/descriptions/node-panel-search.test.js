'use strict';
/**
 * The node panel's search, without a browser (issue 36, point 1): every phrase of
 * test/support/node-panel-phrases.js is searched with n8n's own search function over the built
 * package's entries (display names from dist/, aliases from the built codex files), the way
 * n8n 2.40.7's editor searches them, and must list its expected entry first among the Vendor
 * entries. The editor test (test/real-n8n/editor.test.js) types the same phrases into the real
 * panel, among all of n8n's nodes.
 *
 * n8n's function: `sublimeSearch` of @n8n/utils, the package n8n's editor bundles it from. The
 * runtime's copy (.cache/n8n-runtime, @n8n/utils 1.48.0 of n8n 2.40.7) is used when it is
 * installed, else this repository's (1.47.0, a dependency of @n8n/node-cli; its
 * search/sublime-search is the same code). What the editor does around it is copied from its
 * bundle (n8n-editor-ui 2.40.3, `searchNodes`): a last word that begins "trigger" is dropped from
 * a query of several words, the query is lower-cased, and the keys are the display name (weight
 * 1.3) and the codex aliases (1). A trigger whose type name without "Trigger" is an action
 * node's is listed under that node (useActionsGeneration), so only the action nodes are entries.
 * With the runtime installed, n8n's own nodes (n8n-nodes-base, n8n-nodes-langchain) are entries
 * too, and the expected entry must be among the first three of all.
 */
const fs = require('node:fs');
const path = require('node:path');
const { PHRASES } = require('../support/node-panel-phrases');

const ROOT = path.resolve(__dirname, '..', '..');
const RUNTIME = path.join(ROOT, '.cache', 'n8n-runtime', 'node_modules');
const PKG = require(path.join(ROOT, 'package.json'));

function searchModule() {
	const runtime = path.join(RUNTIME, '@n8n', 'utils', 'dist', 'search', 'sublime-search.cjs');
	return fs.existsSync(runtime) ? runtime : require.resolve('@n8n/utils/search/sublime-search');
}
const { sublimeSearch } = require(searchModule());

/** n8n-editor-ui 2.40.3: a last word that begins "trigger" is dropped from a query of several words. */
function withoutTriggerWord(query) {
	const words = query.split(' ');
	return words.length > 1 && 'trigger'.startsWith(words[words.length - 1].toLowerCase()) ? words.slice(0, -1).filter(Boolean).join(' ').trimEnd() : query;
}

/** The package's entries as the panel holds them: key, display name, codex (built files). */
function packageEntries() {
	const out = [];
	for (const file of PKG.n8n.nodes) {
		const base = path.basename(file).split('.')[0];
		const node = new (require(path.join(ROOT, file))[base])();
		const d = node.description ?? node.nodeVersions[node.currentVersion].description;
		if (d.hidden) continue;
		const codex = JSON.parse(fs.readFileSync(path.join(ROOT, `${file}on`), 'utf8'));
		out.push({ key: `${PKG.name}.${d.name}`, properties: { name: d.name, displayName: d.displayName, codex } });
	}
	return out;
}

/** n8n's own nodes of the installed runtime (none when it is not installed). */
function n8nEntries() {
	const out = [];
	for (const pkg of ['n8n-nodes-base', '@n8n/n8n-nodes-langchain']) {
		const file = path.join(RUNTIME, pkg, 'dist', 'types', 'nodes.json');
		if (!fs.existsSync(file)) continue;
		const seen = new Set();
		for (const d of JSON.parse(fs.readFileSync(file, 'utf8'))) {
			if (d.hidden || seen.has(d.name)) continue;
			seen.add(d.name);
			out.push({ key: `${pkg}.${d.name}`, properties: { name: d.name, displayName: d.displayName, codex: d.codex } });
		}
	}
	return out;
}

/** Triggers listed under their action node, and AI-tool variants, are not entries of their own. */
function panelEntries(entries) {
	const keys = new Set(entries.map((e) => e.key));
	return entries.filter((e) => !(/Trigger$/.test(e.key) && keys.has(e.key.replace(/Trigger$/, ''))) && !(/Tool$/.test(e.key) && keys.has(e.key.replace(/Tool$/, ''))));
}

const search = (entries, phrase) => sublimeSearch(withoutTriggerWord(phrase).toLowerCase(), entries).map((r) => ({ name: r.item.properties.displayName, score: Math.round(r.score) }));

test('the package has the entries the phrases name, one per action node', () => {
	const names = panelEntries(packageEntries()).map((e) => e.properties.displayName).sort();
	expect(names).toEqual(['Vendor Account & Billing', 'Vendor CDN', 'Vendor Cloud Host', 'Vendor DNS', 'Vendor Disk, Network & Firewall', 'Vendor Object Storage']);
	expect(new Set(PHRASES.map(([, entry]) => entry))).toEqual(new Set(names));
});

test('n8n\'s search finds each phrase\'s entry first among the Vendor entries (and among the first three of all n8n nodes when the runtime is installed)', () => {
	const ours = panelEntries(packageEntries());
	const theirs = n8nEntries();
	const all = panelEntries([...ours, ...theirs]);
	const table = PHRASES.map(([phrase, expected]) => {
		const found = search(all, phrase);
		const vendor = found.filter((r) => r.name.startsWith('Vendor '));
		return { phrase, expected, firstVendor: vendor[0]?.name ?? '(none)', place: found.findIndex((r) => r.name === expected) + 1, of: found.length, top: found.slice(0, 3).map((r) => `${r.name} ${r.score}`).join(' | ') };
	});
	process.stderr.write(
		`[node panel] ${path.relative(ROOT, searchModule())}, ${all.length} entries (${theirs.length ? 'with' : 'without'} n8n's own nodes)\n${table
			.map((r) => `  "${r.phrase}" -> ${r.firstVendor} (place ${r.place} of ${r.of}; top: ${r.top})`)
			.join('\n')}\n`,
	);
	expect(table.filter((r) => r.firstVendor !== r.expected)).toEqual([]);
	if (theirs.length) expect(table.filter((r) => r.place < 1 || r.place > 3)).toEqual([]);
});

#!/usr/bin/env node
'use strict';
/**
 * Writes each node page's operation table from the endpoint declarations in dist/ (run after the
 * build): docs/nodes/<node>.md, between `<!-- operations:start -->` and `<!-- operations:end -->`.
 * The page of a node is its class name in kebab case (VendorCloudHost -> vendor-cloud-host.md).
 *
 *   node scripts/docs.js           rewrite the tables
 *   node scripts/docs.js --check   exit 1 when a page is missing, has no markers or is not up to date
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const PAGES = path.join(root, 'docs', 'nodes');
const START = '<!-- operations:start -->';
const END = '<!-- operations:end -->';

/** docs/nodes/<page>.md of a node class: VendorDiskNetworkFirewall -> vendor-disk-network-firewall.md */
const pageOf = (className) => `${className.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}.md`;

/** The action nodes with an operation list (area.js), in package.json's order. */
function areas() {
	const out = [];
	for (const file of pkg.n8n.nodes) {
		const dir = path.dirname(path.join(root, file));
		const base = path.basename(file).split('.')[0];
		const areaFile = path.join(dir, 'area.js');
		if (!fs.existsSync(areaFile)) continue;
		const node = new (require(path.join(root, file))[base])();
		const area = Object.values(require(areaFile)).find((v) => v && Array.isArray(v.operations));
		if (area) out.push({ base, displayName: node.description.displayName, area, page: pageOf(base), order: panelOrder(node.description) });
	}
	return out;
}

const esc = (s) => String(s).replace(/\|/g, '\\|');

/**
 * "resource/operation" -> its place in n8n's node panel, which lists the actions in the order of
 * the description: Resource option by Resource option, each resource's Operation options as they
 * come (nodes/shared/dropdowns.ts). The table follows it.
 */
function panelOrder(description) {
	const order = new Map();
	const resource = description.properties.find((p) => p.name === 'resource');
	for (const r of resource?.options ?? []) {
		const dropdown = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value));
		for (const o of dropdown?.options ?? []) order.set(`${r.value}/${o.value}`, order.size);
	}
	return order;
}

/** The table of one node and the number of documented endpoints it implements. */
function render(area, order) {
	const resourceName = Object.fromEntries(area.resources.map((r) => [r.value, r.name]));
	const lines = ['| Resource | Operation | Endpoint | What it does |', '| --- | --- | --- | --- |'];
	const at = (op) => order.get(`${op.resource}/${op.operation}`) ?? Infinity;
	const ops = [...area.operations].sort((a, b) => at(a) - at(b));
	for (const op of ops) {
		const endpoint = op.path ? `\`${op.path}\`` : esc(op.uses ? op.uses.join(', ') : op.endpoint);
		lines.push(`| ${esc(resourceName[op.resource])} | ${esc(op.name)} | ${endpoint} | ${esc(op.description)} |`);
	}
	const endpoints = new Set(area.operations.filter((o) => !o.undocumented).map((o) => o.endpoint)).size;
	return { text: lines.join('\n'), endpoints, operations: ops.length };
}

function main() {
	const check = process.argv.includes('--check');
	const problems = [];
	let endpoints = 0;
	let operations = 0;
	const found = areas();
	for (const { displayName, area, page, order } of found) {
		const file = path.join(PAGES, page);
		const rel = path.relative(root, file);
		if (!fs.existsSync(file)) {
			problems.push(`${rel} (the page of ${displayName}) is missing`);
			continue;
		}
		const doc = fs.readFileSync(file, 'utf8');
		const a = doc.indexOf(START);
		const b = doc.indexOf(END);
		if (a === -1 || b === -1 || b < a) {
			problems.push(`${rel} has no "${START}" ... "${END}" markers`);
			continue;
		}
		const r = render(area, order);
		endpoints += r.endpoints;
		operations += r.operations;
		const next = `${doc.slice(0, a + START.length)}\n\n${r.text}\n\n${doc.slice(b)}`;
		if (next === doc) continue;
		if (check) problems.push(`${rel}: the operation table is out of date`);
		else fs.writeFileSync(file, next);
	}
	const what = `${found.length} node pages, ${operations} operations, ${endpoints} endpoints`;
	if (problems.length) {
		console.error(`${problems.join('\n')}\nRun \`node scripts/docs.js\` after \`npm run build\`.`);
		process.exit(1);
	}
	console.log(check ? `operation tables are up to date (${what})` : `operation tables written (${what})`);
}

module.exports = { pageOf, START, END };

if (require.main === module) main();

#!/usr/bin/env node
'use strict';
/**
 * Writes the README's operation tables from the endpoint declarations in dist/ (run after the
 * build): between `<!-- operations:start -->` and `<!-- operations:end -->`.
 *
 *   node scripts/docs.js           rewrite README.md
 *   node scripts/docs.js --check   exit 1 when README.md is not up to date
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const README = path.join(root, 'README.md');
const START = '<!-- operations:start -->';
const END = '<!-- operations:end -->';

function areas() {
	const out = [];
	for (const file of pkg.n8n.nodes) {
		const dir = path.dirname(path.join(root, file));
		const base = path.basename(file).split('.')[0];
		const node = new (require(path.join(root, file))[base])();
		const areaFile = path.join(dir, 'area.js');
		if (!fs.existsSync(areaFile)) continue;
		const area = Object.values(require(areaFile)).find((v) => v && Array.isArray(v.operations));
		if (area) out.push({ displayName: node.description.displayName, area });
	}
	return out;
}

const esc = (s) => String(s).replace(/\|/g, '\\|');

function render() {
	const parts = [];
	let total = 0;
	for (const { displayName, area } of areas()) {
		const resourceName = Object.fromEntries(area.resources.map((r) => [r.value, r.name]));
		parts.push(`### ${displayName}\n`);
		parts.push('| Resource | Operation | Endpoint | What it does |');
		parts.push('| --- | --- | --- | --- |');
		const ops = [...area.operations].sort(
			(a, b) => resourceName[a.resource].localeCompare(resourceName[b.resource]) || a.name.localeCompare(b.name),
		);
		for (const op of ops) {
			const endpoint = op.path ? `\`${op.path}\`` : esc(op.uses ? op.uses.join(', ') : op.endpoint);
			parts.push(`| ${esc(resourceName[op.resource])} | ${esc(op.name)} | ${endpoint} | ${esc(op.description)} |`);
		}
		parts.push('');
		total += new Set(area.operations.filter((o) => !o.undocumented).map((o) => o.endpoint)).size;
	}
	return { text: parts.join('\n'), total };
}

const readme = fs.readFileSync(README, 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a === -1 || b === -1) {
	console.error('README.md has no operations markers');
	process.exit(1);
}
const { text, total } = render();
const next = `${readme.slice(0, a + START.length)}\n\n${text}\n${readme.slice(b)}`;
if (process.argv.includes('--check')) {
	if (next !== readme) {
		console.error('README.md operation tables are out of date: run `node scripts/docs.js` after `npm run build`');
		process.exit(1);
	}
	console.log(`README.md operation tables are up to date (${total} endpoints)`);
} else {
	fs.writeFileSync(README, next);
	console.log(`README.md operation tables written (${total} endpoints)`);
}

#!/usr/bin/env node
'use strict';
/**
 * After the test run: every operation in every action node's dropdowns must have run
 * successfully at least once against the emulator (the harness records each successful run
 * in test-results/exercised/). Exit code 1 and a list when any was never exercised.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dir = process.env.VENDOR_EXERCISED_DIR || path.join(root, 'test-results', 'exercised');
const pkg = require(path.join(root, 'package.json'));

const seen = new Set();
if (fs.existsSync(dir)) {
	for (const f of fs.readdirSync(dir)) {
		for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
			if (!line.trim()) continue;
			const r = JSON.parse(line);
			seen.add(`${r.node}:${r.resource}:${r.operation}`);
		}
	}
}

const missing = [];
let total = 0;
for (const file of pkg.n8n.nodes) {
	const base = path.basename(file).split('.')[0];
	const node = new (require(path.join(root, file))[base])();
	const d = node.description;
	if (d.group.includes('trigger')) continue;
	const props = d.properties;
	const resources = props.find((p) => p.name === 'resource')?.options ?? [{ value: '' }];
	for (const res of resources) {
		const opProp = props.find(
			(p) => p.name === 'operation' && (!res.value || p.displayOptions?.show?.resource?.includes(res.value)),
		);
		for (const op of opProp?.options ?? []) {
			total++;
			const key = `${d.name}:${res.value}:${op.value}`;
			if (!seen.has(key)) missing.push(key);
		}
	}
}
console.log(`operations exercised against the emulator: ${total - missing.length} of ${total}`);
if (missing.length) {
	console.log(`never run successfully:\n  ${missing.join('\n  ')}`);
	process.exit(1);
}

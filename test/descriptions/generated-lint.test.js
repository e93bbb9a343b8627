'use strict';
/** Runs n8n's node lint rules over the generated descriptions (see lint-generated.mjs). */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

test('generated node descriptions pass n8n node lint rules', () => {
	// NODE_ENV=test (set by jest) makes eslint-plugin-n8n-nodes-base take every file for "Test.node.ts"
	const env = { ...process.env, NODE_ENV: 'production' };
	const r = spawnSync(process.execPath, [path.join(__dirname, 'lint-generated.mjs')], { encoding: 'utf8', env });
	const report = JSON.parse(r.stdout || '{}');
	expect(Object.keys(report).length).toBeGreaterThan(0);
	expect(report).toEqual(Object.fromEntries(Object.keys(report).map((k) => [k, []])));
});

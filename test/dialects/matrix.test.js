'use strict';
/**
 * The dialect matrix (issue 10): every dropdown operation of every action node, run once per
 * emulator dialect through n8n-core (runner.js, catalogue/), printed as operations x dialects
 * and written to test-results/dialect-matrix.{json,md}. A failing cell must be listed in
 * impossible.js with its reason; a listed cell that passes fails the test too.
 */
const { coverage, runMatrix, toText, writeResults } = require('./runner');

test('the catalogue has exactly one entry per dropdown operation of the action nodes', () => {
	const c = coverage();
	expect({ missing: c.missing, unknown: c.unknown, duplicated: c.duplicated }).toEqual({ missing: [], unknown: [], duplicated: [] });
	expect(c.total).toBeGreaterThan(150);
});

test('every operation passes in every dialect, or fails as documented', async () => {
	const progress = [];
	const m = await runMatrix({ log: (line) => progress.push(line) });
	const files = writeResults(m);
	process.stdout.write(`\n${progress.join('\n')}\n${toText(m)}written: ${files.md}, ${files.json}\n`);

	// every column ran every entry
	for (const row of m.rows) expect(Object.keys(row.cells)).toEqual(m.columns.map((c) => c.name));
	const unexpected = m.failures.filter((f) => !f.documented).map((f) => `[${f.column}] ${f.operation} (${f.stage}): ${f.message}`);
	const stale = m.stale.map((s) => `[${s.column}] ${s.operation}: ${s.why || 'passes now'}; remove it from impossible.js`);
	expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
}, 30 * 60 * 1000);

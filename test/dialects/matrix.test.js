'use strict';
/**
 * The dialect matrix (issue 10): every dropdown operation of every action node, run once per
 * emulator dialect through n8n-core (runner.js, catalogue/), printed as operations x dialects
 * and written to test-results/dialect-matrix.{json,md}. A failing cell must be listed in
 * impossible.js with its reason; a listed cell that passes fails the test too.
 */
const fs = require('node:fs');
const path = require('node:path');
const { runScript } = require('../support/plain-node');
const { coverage } = require('./runner');

const RESULTS = path.join(__dirname, '..', '..', 'test-results');
/** A safety cap, not a measure. */
const TIMEOUT_MS = 30 * 60 * 1000;

test('the catalogue has exactly one entry per dropdown operation of the action nodes', () => {
	const c = coverage();
	expect({ missing: c.missing, unknown: c.unknown, duplicated: c.duplicated }).toEqual({ missing: [], unknown: [], duplicated: [] });
	expect(c.total).toBeGreaterThan(150);
});

test('every operation passes in every dialect, or fails as documented', async () => {
	// runner.js's command line runs the matrix in a plain Node process: the same n8n-core against the
	// same emulators, without jest's module sandbox, which made every run about five times slower
	// (the default column: 7 s alone, 35-45 s inside jest; the whole matrix took 17 minutes of CI)
	const written = { json: path.join(RESULTS, 'dialect-matrix.json'), md: path.join(RESULTS, 'dialect-matrix.md') };
	fs.rmSync(written.json, { force: true });
	const run = await runScript(path.join(__dirname, 'runner.js'), [], { timeoutMs: TIMEOUT_MS - 60e3 });
	process.stdout.write(`\n${run.stderr}\n${run.stdout}written: ${written.md}, ${written.json}\n`);
	// exit 2: the runner itself broke (its error is in what it printed above)
	expect({ code: run.code === 2 ? 2 : 'ran', written: fs.existsSync(written.json) }).toEqual({ code: 'ran', written: true });
	const m = JSON.parse(fs.readFileSync(written.json, 'utf8'));

	// every column ran every entry
	for (const row of m.rows) expect(Object.keys(row.cells)).toEqual(m.columns.map((c) => c.name));
	const unexpected = m.failures.filter((f) => !f.documented).map((f) => `[${f.column}] ${f.operation} (${f.stage}): ${f.message}`);
	const stale = m.stale.map((s) => `[${s.column}] ${s.operation}: ${s.why || 'passes now'}; remove it from impossible.js`);
	expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
	// the runner's exit code says the same
	expect(run.code).toBe(0);
}, TIMEOUT_MS);

#!/usr/bin/env node
'use strict';
/**
 * `node scripts/claims.js [--update]`: what each sentence of the built node and credential
 * descriptions rests on (docs/vendor/claims.tsv; scripts/claims-lib.js says how to read it).
 * Without --update it prints the problems and exits 1 when there are any. With --update it adds
 * every new sentence with the basis "?" (to be classified by hand: the check fails until then)
 * and removes the rows of sentences the package no longer shows. Run `npm run build` first.
 */
const { checkLedger, readLedger, writeLedger, LEDGER } = require('./claims-lib');

const result = checkLedger();
if (process.argv.includes('--update')) {
	const keep = readLedger().filter((r) => result.sentences.has(r.text));
	const added = result.missing.map((m) => ({ basis: '?', text: m.text }));
	writeLedger([...keep, ...added]);
	console.log(`claims: ${added.length} new sentence(s) added with basis "?", ${result.stale.length} removed (${LEDGER})`);
	for (const m of result.missing) console.log(`  ? ${m.text}   [${m.where.join('; ')}]`);
	process.exit(0);
}
const lines = [
	...result.missing.map((m) => `no row: "${m.text}" (shown at ${m.where.join('; ')})`),
	...result.stale.map((r) => `line ${r.line}: no longer shown by the package: "${r.text}"`),
	...result.duplicate.map((r) => `line ${r.line}: a second row for "${r.text}"`),
	...result.wrong.map((w) => `line ${w.row.line}: "${w.row.text}": ${w.problems.join('; ')}`),
];
if (lines.length) {
	console.log(`claims: ${lines.length} problem(s) in ${LEDGER}:\n${lines.map((l) => `- ${l}`).join('\n')}`);
	console.log('Classify each sentence (form, a reading R<n>, or doc: <words of docs/vendor>); `node scripts/claims.js --update` adds the new ones as "?".');
	process.exit(1);
}
console.log(`claims: ${result.rows.length} sentences, each with its basis`);

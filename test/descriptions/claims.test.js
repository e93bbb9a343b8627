'use strict';
/**
 * Every sentence the package shows its users says only what the vendor's documents say, what a
 * reading decides, or what the node itself does (issue 35, section 3). The ledger,
 * docs/vendor/claims.tsv, gives each sentence of the built node and credential descriptions its
 * basis (scripts/claims-lib.js): `form` (the node and its form), a reading of
 * docs/vendor/readings.md, or `doc:` words of the project's account of the documents. This is no
 * list of forbidden words: a sentence a person adds has no row until someone says what it rests
 * on, and that row is checked: the reading exists, the words are in docs/vendor, and a `form`
 * sentence does not name the service or the vendor's documentation (naming them is saying
 * something about them). Reads dist/: build first.
 */
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const lib = require('../../scripts/claims-lib');

const result = lib.checkLedger();

test('every sentence of the descriptions has a row in docs/vendor/claims.tsv (new ones: node scripts/claims.js --update, then classify)', () => {
	expect(result.missing.map((m) => `${m.text}   [${m.where.join('; ')}]`)).toEqual([]);
});

test('no row is left for a sentence the package no longer shows, and none twice', () => {
	expect(result.stale.map((r) => `line ${r.line}: ${r.text}`)).toEqual([]);
	expect(result.duplicate.map((r) => `line ${r.line}: ${r.text}`)).toEqual([]);
});

test('every row has a basis that holds: the reading exists, the words are in docs/vendor, a form sentence names no service', () => {
	expect(result.wrong.map((w) => `line ${w.row.line}: "${w.row.text}": ${w.problems.join('; ')}`)).toEqual([]);
	expect(result.rows.length).toBeGreaterThan(1000);
});

describe('the check itself', () => {
	const readings = new Set(['R3', 'R69']);
	const docs = 'the message says it is kept 2 hours. ttl:int (default 300)';
	const problems = (basis, text) => lib.basisProblems({ basis, text }, readings, docs);

	test.each([
		['form', 'Remark shown with the host', []],
		['R69', 'left empty, the service chooses', []],
		['doc: kept 2 hours', 'The backup goes to the recycle bin, where it is kept 2 hours', []],
		['R3 + doc: default 300', 'How long resolvers may cache the answer (default 300)', []],
	])('%s holds for "%s"', (basis, text, expected) => {
		expect(problems(basis, text)).toEqual(expected);
	});

	test.each([
		['form', 'it is charged at once by the service', /names the service/],
		['form', "the vendor's documentation gives no default", /names the service or the vendor's documentation/],
		['R99', 'a disk can only grow', /R99 is no reading/],
		['doc: a disk can only grow', 'a disk can only grow', /is not in docs\/vendor/],
		['?', 'paid plans are charged at once', /not classified/],
		['', 'delete its records, monitors and strategies', /no basis/],
		['maybe', 'newest first', /unknown basis/],
	])('%s is refused for "%s"', (basis, text, message) => {
		expect(problems(basis, text).join('; ')).toMatch(message);
	});

	test('a sentence split at ; and at the end of a sentence, without its full stop; a lone quoted ";" is not a split', () => {
		expect(lib.sentencesOf('Size in GB, a multiple of 10; the service sets the limits. Left out, none is sent.')).toEqual([
			'Size in GB, a multiple of 10',
			'the service sets the limits',
			'Left out, none is sent',
		]);
		expect(lib.sentencesOf('As ; and # separate records in an add')).toEqual(['As ; and # separate records in an add']);
	});

	test('a ledger with a missing and a stale row is reported as such', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-'));
		const file = path.join(dir, 'claims.tsv');
		const rows = lib.readLedger();
		lib.writeLedger([...rows.slice(1), { basis: 'form', text: 'A sentence the package does not show' }], file);
		const r = lib.checkLedger({ file });
		expect(r.missing.map((m) => m.text)).toEqual([rows[0].text]);
		expect(r.stale.map((s) => s.text)).toEqual(['A sentence the package does not show']);
		fs.rmSync(dir, { recursive: true, force: true });
	});
});

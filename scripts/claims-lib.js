'use strict';
/**
 * What the package tells its users, sentence by sentence, and what each sentence rests on
 * (docs/vendor/claims.tsv; `node scripts/claims.js`, test/descriptions/claims.test.js).
 *
 * A user reads the descriptions of the built nodes and credentials: each node's description, its
 * parameters' descriptions and hints, the options' descriptions, the operations' actions and the
 * notices. Any of those sentences may say something about the vendor's service ("it is charged at
 * once", "a disk can only grow") that no document of the vendor says. So every sentence has a row
 * in the ledger, and the row says what the sentence rests on:
 *
 *   form          the sentence is about the node and its form: what a field is for, what the node
 *                 sends, reads, checks or waits for, what the user chooses. It says nothing of what
 *                 the service does, and so it does not name the service or the vendor's
 *                 documentation (a sentence that names them is about them: it cites).
 *   R12           a reading of docs/vendor/readings.md decides it (several: `R12 R69`); the
 *                 reading must exist. Limits the documents do not state are hints by R3.
 *   doc: <words>  the vendor's documents say it: <words> are found, as written (case and spacing
 *                 aside), in the project's account of them (docs/vendor/*.md but readings.md, and
 *                 endpoints.tsv).
 *   ?             not classified yet: the check fails until a person gives the basis.
 *
 * Several bases are joined with " + ". The ledger holds every sentence once, whatever number of
 * places show it, sorted; a sentence that no longer appears has to leave it.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LEDGER = path.join(ROOT, 'docs', 'vendor', 'claims.tsv');
const VENDOR_DOCS = path.join(ROOT, 'docs', 'vendor');
const HEADER = 'basis\ttext';

/** The keys whose text a user reads as prose (`displayName` only for notices: their text is the notice). */
const PROSE_KEYS = new Set(['description', 'hint', 'action']);

function loadClass(root, file) {
	const abs = path.resolve(root, file);
	const mod = require(abs);
	const name = path.basename(file).replace(/\.(node|credentials)\.js$/, '');
	return new mod[name]();
}

/** Every text a user reads in the built node and credential descriptions, with where it is. */
function packageTexts(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const out = [];
	const walk = (value, where) => {
		if (Array.isArray(value)) return value.forEach((v) => walk(v, where));
		if (!value || typeof value !== 'object') return;
		const here = typeof value.name === 'string' ? `${where} > ${value.name}` : where;
		for (const [key, v] of Object.entries(value)) {
			if (typeof v === 'string' && (PROSE_KEYS.has(key) || (key === 'displayName' && value.type === 'notice'))) out.push({ text: v, where: here });
			else if (v && typeof v === 'object' && key !== 'codex' && key !== 'credentials') walk(v, here);
		}
	};
	for (const file of pkg.n8n.nodes) {
		const d = loadClass(root, file).description;
		walk(d, d.name);
	}
	for (const file of pkg.n8n.credentials) {
		const c = loadClass(root, file);
		walk({ description: c.description, properties: c.properties }, c.name);
	}
	return out;
}

/**
 * The sentences of a text: split after `.`, `!` or `?` and at a `;` that ends a word (not a lone
 * "; " quoted in the text), trimmed, without the closing full stop. A text of a few words (a
 * field's "Remark") is one sentence.
 */
function sentencesOf(text) {
	return String(text)
		.replace(/\s+/g, ' ')
		.split(/(?<=[.!?])\s+(?=[A-Z"(])|(?<=[\w)"']);\s+(?=\S)/)
		.map((s) => s.trim().replace(/\.$/, ''))
		.filter((s) => /[A-Za-z]/.test(s));
}

/** sentence -> the places that show it. */
function packageSentences(root = ROOT) {
	const map = new Map();
	for (const { text, where } of packageTexts(root)) {
		for (const s of sentencesOf(text)) {
			if (!map.has(s)) map.set(s, new Set());
			map.get(s).add(where);
		}
	}
	return map;
}

/** The ledger's rows: [{ basis, text, line }]. */
function readLedger(file = LEDGER) {
	if (!fs.existsSync(file)) return [];
	const lines = fs.readFileSync(file, 'utf8').split('\n');
	const rows = [];
	lines.forEach((line, i) => {
		if (i === 0 || !line.trim()) return;
		const tab = line.indexOf('\t');
		rows.push({ basis: tab < 0 ? '' : line.slice(0, tab).trim(), text: tab < 0 ? line : line.slice(tab + 1), line: i + 1 });
	});
	return rows;
}

function writeLedger(rows, file = LEDGER) {
	const sorted = [...rows].sort((a, b) => a.text.localeCompare(b.text, 'en'));
	fs.writeFileSync(file, `${HEADER}\n${sorted.map((r) => `${r.basis}\t${r.text}`).join('\n')}\n`);
}

const normal = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The text of the project's account of the vendor's documents (what a `doc:` basis quotes). */
function vendorDocsText(dir = VENDOR_DOCS) {
	return fs
		.readdirSync(dir)
		.filter((f) => (f.endsWith('.md') && f !== 'readings.md') || f === 'endpoints.tsv')
		.map((f) => normal(fs.readFileSync(path.join(dir, f), 'utf8').replace(/[`*]/g, '')))
		.join('\n');
}

/** The reading ids of readings.md (`### R12`). */
function readingIds(dir = VENDOR_DOCS) {
	return new Set([...fs.readFileSync(path.join(dir, 'readings.md'), 'utf8').matchAll(/^### (R\d+)\s*$/gm)].map((m) => m[1]));
}

/** A sentence that names the service or the vendor's documentation is about them. */
const NAMES_THE_SERVICE = /\b(the|a) service\b|\bservice's\b|\bvendor's documentation\b|\bthe documentation\b/i;

/** The problems of one row's basis; [] when it holds. */
function basisProblems(row, readings, docs) {
	const problems = [];
	if (!row.basis) return ['no basis'];
	for (const part of row.basis.split(' + ').map((p) => p.trim())) {
		if (part === '?') problems.push('not classified (?)');
		else if (part === 'form') {
			if (NAMES_THE_SERVICE.test(row.text)) problems.push('"form", but it names the service or the vendor\'s documentation: cite a reading or the documents');
		} else if (/^R\d+( R\d+)*$/.test(part)) {
			for (const id of part.split(' ')) if (!readings.has(id)) problems.push(`${id} is no reading of docs/vendor/readings.md`);
		} else if (part.startsWith('doc:')) {
			const words = normal(part.slice(4).replace(/[`*]/g, ''));
			if (!words) problems.push('"doc:" without the words');
			else if (!docs.includes(words)) problems.push(`"${part.slice(4).trim()}" is not in docs/vendor (the account of the vendor's documents)`);
		} else problems.push(`unknown basis "${part}" (form, R<n>, doc: <words> or ?)`);
	}
	return problems;
}

/** The whole check: { missing, stale, duplicate, wrong: [{ row, problems }] }. */
function checkLedger({ root = ROOT, file = LEDGER } = {}) {
	const sentences = packageSentences(root);
	const rows = readLedger(file);
	const readings = readingIds();
	const docs = vendorDocsText();
	const seen = new Map();
	const duplicate = [];
	for (const r of rows) {
		if (seen.has(r.text)) duplicate.push(r);
		seen.set(r.text, r);
	}
	const missing = [...sentences.keys()].filter((s) => !seen.has(s)).map((s) => ({ text: s, where: [...sentences.get(s)] }));
	const stale = rows.filter((r) => !sentences.has(r.text));
	const wrong = rows.filter((r) => sentences.has(r.text)).map((row) => ({ row, problems: basisProblems(row, readings, docs) })).filter((w) => w.problems.length);
	return { sentences, rows, missing, stale, duplicate, wrong };
}

module.exports = { LEDGER, packageTexts, sentencesOf, packageSentences, readLedger, writeLedger, checkLedger, basisProblems, NAMES_THE_SERVICE };

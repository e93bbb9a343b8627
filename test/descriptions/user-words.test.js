'use strict';
/**
 * No word a user cannot know (issue 28, point 2). A user of the package reads the built
 * package's texts (node and credential descriptions, notices, outputs, errors: every string
 * literal and template text of dist/, and its codex files), the CHANGELOG shipped with it, the
 * example workflows (sticky notes, chat answers, messages), the README and the docs/ pages n8n's
 * Docs links open. None of them may
 * name the project's own working words:
 *
 *   seed, seeds     the project's name for its copies of the vendor's documents; a user has
 *                   "the vendor's documentation"
 *   DECISIONS       the project's file of rulings (the user-facing ones are in docs/vendor/)
 *   dialect(s)      the emulator's name for a second reading of the documentation; the
 *                   README calls them readings
 *   STYLE.md, /work/  project files and paths a user does not have
 *
 * In the package and the examples (which run against the real vendor), also:
 *
 *   emulator, sandbox  the local stand-in for the vendor and `npm start`'s folder: a user of the
 *                   package talks to the vendor (the README introduces both for `npm start`,
 *                   so the README may name them)
 *   R1 ... R66      ids of the readings in docs/vendor/readings.md, which is not in the package
 *
 * Comments are not read by users and are left out (the build drops them; the AST gives only
 * strings). Object keys and code names are left out too: only string values count.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..');
const EVERYWHERE = [/\bseeds?\b/i, /\bDECISIONS\b/, /\bdialects?\b/i, /STYLE\.md/, /\/work\//];
const IN_PACKAGE = [...EVERYWHERE, /\bemulator/i, /\bsandbox/i, /\bR\d{1,2}\b/];

function* files(dir) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) yield* files(p);
		else yield p;
	}
}

/** Every string literal and template text of a JavaScript file. */
function jsStrings(file) {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	const out = [];
	const visit = (n) => {
		// `undocumented: 'R17'` names, for the project's own coverage check, the reading that allows a request; never shown
		const docReference = n.parent && ts.isPropertyAssignment(n.parent) && n.parent.name.getText() === 'undocumented';
		if (!docReference && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n))) out.push(n.text);
		ts.forEachChild(n, visit);
	};
	visit(source);
	return out;
}

/** The string values of a JSON document, without credential references and ids (not shown as text). */
function jsonStrings(value, key = '') {
	if (typeof value === 'string') return key === 'id' || key === 'webhookId' ? [] : [value];
	if (Array.isArray(value)) return value.flatMap((v) => jsonStrings(v, key));
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => (k === 'credentials' ? [] : jsonStrings(v, k)));
	return [];
}

/** Each forbidden word found, with the text around it: "<where>: …text…". */
function findings(where, texts, words) {
	const out = [];
	for (const text of texts) {
		for (const word of words) {
			const m = word.exec(text);
			if (m) out.push(`${where}: …${text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 40)}…`);
		}
	}
	return out;
}

test('the built package names no project-internal word in any text', () => {
	const dist = path.join(ROOT, 'dist');
	const found = [];
	let strings = 0;
	for (const file of files(dist)) {
		const rel = path.relative(ROOT, file);
		if (file.endsWith('.js')) {
			const texts = jsStrings(file);
			strings += texts.length;
			found.push(...findings(rel, texts, IN_PACKAGE));
		} else if (file.endsWith('.json')) {
			found.push(...findings(rel, jsonStrings(JSON.parse(fs.readFileSync(file, 'utf8'))), IN_PACKAGE));
		}
	}
	expect(strings).toBeGreaterThan(5000); // the texts were read
	found.push(...findings('CHANGELOG.md', [fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')], IN_PACKAGE));
	expect(found).toEqual([]);
});

test('the example workflows name no project-internal word', () => {
	const dir = path.join(ROOT, 'examples');
	const found = [];
	for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
		found.push(...findings(`examples/${f}`, jsonStrings(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))), IN_PACKAGE));
	}
	expect(found).toEqual([]);
});

/** The pages a user reads: the README and docs/ but the vendor notes and the developers' pages. */
function userPages() {
	const out = ['README.md'];
	const walk = (rel) => {
		for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
			const r = path.posix.join(rel, e.name);
			if (e.isDirectory() && !['docs/vendor', 'docs/developers'].includes(r)) walk(r);
			else if (e.isFile() && e.name.endsWith('.md')) out.push(r);
		}
	};
	walk('docs');
	return out;
}

test('the README and the docs/ pages a user reads name no project-internal word', () => {
	const pages = userPages();
	expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/credentials.md', 'docs/nodes/vendor-cloud-host.md']));
	const found = pages.flatMap((page) =>
		fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n').flatMap((line, i) => findings(`${page}:${i + 1}`, [line], EVERYWHERE)),
	);
	expect(found).toEqual([]);
});

test('the check finds such a word where one is', () => {
	// the scan itself: a template text and a string literal of a small script, and a README-like line
	const file = path.join(require('node:os').tmpdir(), `user-words-${process.pid}.js`);
	fs.writeFileSync(file, "const a = 'as the seed shows'; // a seed in a comment is not read\nconst b = `the ${a} emulator says`;\n");
	try {
		expect(findings('x', jsStrings(file), IN_PACKAGE).map((f) => f.replace(/….*/, ''))).toEqual(['x: ', 'x: ']);
	} finally {
		fs.rmSync(file);
	}
	expect(findings('README', ['its dialects, fault rules'], EVERYWHERE)).toHaveLength(1);
});

'use strict';
/**
 * The troubleshooting page has one heading per message a user can see (issue 34, item 2), and the
 * README's Troubleshooting table quotes the commonest. Each quoted message must be one the built
 * package can give: a page that explains a message the code no longer has (renamed, reworded,
 * removed) fails here.
 *
 * A quoted message is written with `<placeholders>` (and `…`) where the message fills something
 * in; a message in dist/ is a string or template literal whose `${…}` parts fill something in.
 * Both are patterns with wildcards; a quoted message matches when some text fits both, the quote
 * being the start of that text (a heading may quote only a message's beginning), and the words of
 * the quote that only a `${…}` of the message could supply are short or stand in dist/ as written
 * (a hint taken from another string).
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { anchorsOf, proseLines } = require('../../scripts/markdown');

const ROOT = path.resolve(__dirname, '..', '..');
const STAR = Symbol('any text');

function* jsFiles(dir) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) yield* jsFiles(p);
		else if (e.name.endsWith('.js')) yield p;
	}
}

/** A pattern: an array of characters and STARs. */
const chars = (text) => [...text];

/** Every string and template literal of the built package as a pattern, and the files' text. */
function builtMessages() {
	const patterns = [];
	let text = '';
	for (const file of jsFiles(path.join(ROOT, 'dist'))) {
		const code = fs.readFileSync(file, 'utf8');
		text += `${code}\n`;
		const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
		const visit = (n) => {
			if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) patterns.push({ tokens: chars(n.text), words: n.text });
			else if (ts.isTemplateExpression(n)) {
				const tokens = chars(n.head.text);
				let words = n.head.text;
				for (const span of n.templateSpans) {
					tokens.push(STAR, ...chars(span.literal.text));
					words += ` ${span.literal.text}`;
				}
				patterns.push({ tokens, words });
			}
			ts.forEachChild(n, visit);
		};
		visit(source);
	}
	return { patterns, text };
}

/** A quoted message as a pattern: `<…>` and `…` are wildcards. */
function quotePattern(quote) {
	const tokens = [];
	for (const [i, part] of quote.split(/<[^>]*>|…/).entries()) {
		if (i) tokens.push(STAR);
		tokens.push(...chars(part));
	}
	return tokens;
}

/**
 * How the quote `a` fits the message pattern `b` (two globs), keeping as many of the quote's
 * characters matched by the message's own characters as possible: null when no text fits both,
 * else `runs`, the stretches of the quote that a wildcard of the message takes (the words a
 * `${…}` of the message would have to supply), and `letters`, how many of the quote's letters the
 * message's own letters match.
 */
function fit(a, b) {
	const W = b.length + 1;
	const best = new Int32Array((a.length + 1) * W).fill(-1);
	const from = new Int32Array((a.length + 1) * W).fill(-1);
	const step = new Uint8Array((a.length + 1) * W); // 1 matched, 2 a's char taken by b's STAR, 0 else
	best[0] = 0;
	for (let i = 0; i <= a.length; i++) {
		for (let j = 0; j <= b.length; j++) {
			const here = best[i * W + j];
			if (here < 0) continue;
			const go = (ni, nj, gain, kind) => {
				const k = ni * W + nj;
				if (here + gain > best[k]) {
					best[k] = here + gain;
					from[k] = i * W + j;
					step[k] = kind;
				}
			};
			if (a[i] === STAR) {
				go(i + 1, j, 0, 0);
				if (j < b.length) go(i, j + 1, 0, 0);
			}
			if (b[j] === STAR) {
				go(i, j + 1, 0, 0);
				if (i < a.length && a[i] !== STAR) go(i + 1, j, 0, 2);
			}
			if (i < a.length && j < b.length && a[i] !== STAR && a[i] === b[j]) go(i + 1, j + 1, 1, 1);
		}
	}
	let k = a.length * W + b.length;
	if (best[k] < 0) return null;
	const taken = new Array(a.length).fill(false);
	let letters = 0; // the quote's letters matched by letters of the message itself
	while (k > 0) {
		const prev = from[k];
		if (step[k] === 2) taken[Math.floor(prev / W)] = true;
		if (step[k] === 1 && /\p{L}/u.test(a[Math.floor(prev / W)])) letters++;
		k = prev;
	}
	const runs = [];
	let run = '';
	a.forEach((c, i) => {
		if (taken[i]) run += c;
		else if (run) {
			runs.push(run);
			run = '';
		}
	});
	if (run) runs.push(run);
	return { runs, letters };
}

/** Whether some text fits both patterns. */
const intersects = (a, b) => fit(a, b) !== null;

/** Letters and digits at both ends only: what a run of words must be found as. */
const core = (s) => s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** The codes the object storage node explains (`<Code>: <the service's message>`, storage/errors.js). */
const storageCodes = () => {
	const hints = fs.readFileSync(path.join(ROOT, 'dist', 'nodes', 'shared', 'storage', 'errors.js'), 'utf8');
	return new Set([...hints.matchAll(/^\s+([A-Z][A-Za-z]+): ['"`]/gm)].map((m) => m[1]));
};

/**
 * Why a quoted message is not one of the built package's, or null. It is one when a string or
 * template of dist/ fits it with at least 4 of its letters matched by the message's own, and every
 * run of its words that the template's `${…}` parts would have to supply is short (a name such as
 * "host") or stands in dist/ as written (a hint the message takes from elsewhere). An object
 * storage error, `<Code>: <the service's message>`, is one when the node has a hint for the code.
 */
function notAMessage(quote, built) {
	const code = /^([A-Z][A-Za-z]+): (?:<[^>]*>|…)$/.exec(quote)?.[1];
	if (code) return storageCodes().has(code) ? null : `the object storage node has no hint for ${code}`;
	const wanted = [...quotePattern(quote), STAR]; // the quote is the start of the message
	// a first sieve (the fit decides): messages that share a longer word with the quote, if it has one
	const words = [...new Set(quote.replace(/<[^>]*>/g, ' ').match(/[A-Za-z]{4,}/g) ?? [])];
	let closest = null;
	for (const p of built.patterns) {
		if (words.length && !words.some((w) => p.words.includes(w))) continue;
		const fitted = fit(wanted, p.tokens);
		if (!fitted || fitted.letters < 4) continue;
		const unknown = fitted.runs.map(core).filter((r) => r.length >= 8 && !built.text.includes(r));
		if (!unknown.length) return null;
		closest = `"${unknown[0]}" is in no file of dist/`;
	}
	return closest ?? 'no string or template of dist/ gives this message';
}

/** The messages the troubleshooting page quotes: its level-3 headings that are a code span. */
function pageQuotes() {
	return anchorsOf(fs.readFileSync(path.join(ROOT, 'docs', 'troubleshooting.md'), 'utf8'))
		.filter((a) => a.level === 3)
		.map((a) => a.text);
}

/** The messages of the README's Troubleshooting table: the code spans of each row's first cell. */
function readmeQuotes() {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const section = readme.match(/^## Troubleshooting\n([\s\S]*?)(?=^## )/m)?.[1] ?? '';
	const out = [];
	for (const { line } of proseLines(section)) {
		const cell = /^\|\s*(.*?)\s*\|/.exec(line)?.[1] ?? '';
		for (const m of cell.matchAll(/`([^`]+)`/g)) out.push(m[1]);
	}
	return out;
}

let built;
beforeAll(() => {
	built = builtMessages();
});

test('every message heading of docs/troubleshooting.md is a message the built package gives', () => {
	const quotes = pageQuotes();
	expect(quotes.length).toBeGreaterThanOrEqual(30);
	expect(quotes.map((q) => ({ q, why: notAMessage(q, built) })).filter((x) => x.why)).toEqual([]);
});

test("every message of the README's Troubleshooting table is a message the built package gives", () => {
	const quotes = readmeQuotes();
	expect(quotes.length).toBeGreaterThanOrEqual(5);
	expect(quotes.map((q) => ({ q, why: notAMessage(q, built) })).filter((x) => x.why)).toEqual([]);
});

test('a reworded or unknown message is found; placeholders stand for what the message fills in', () => {
	expect(notAMessage('Log-in as "<username>" was refused', built)).toBeNull();
	expect(notAMessage('Login as "<username>" was refused', built)).toMatch(/no string or template|"Login as" is in no file of dist/);
	expect(notAMessage('The log-in service failed (<fault>); the credentials were never checked', built)).toMatch(/no string or template|is in no file of dist/);
	expect(notAMessage('No host is called "<name>"', built)).toBeNull();
	expect(notAMessage('<message> (<path>, code <n>: the sub-account may do everything)', built)).toMatch(/"the sub-account may do everything" is in no file of dist/);
	expect(notAMessage('SignatureDoesNotMatch: <message>', built)).toBeNull();
	expect(notAMessage('SignatureIsWrong: <message>', built)).toMatch(/no hint for SignatureIsWrong/);
	expect(intersects([...quotePattern('Part <n> of "<key>" is missing'), STAR], [...'Part', STAR, ' ', STAR, ' of "', STAR, '" ', STAR, ' missing'])).toBe(true);
	expect(intersects(quotePattern('Part <n> is gone'), [...'Part', STAR, ' missing'])).toBe(false);
});

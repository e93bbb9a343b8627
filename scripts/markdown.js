'use strict';
/**
 * What GitHub makes of a Markdown file, as far as links need it: the anchors of its headings
 * (github-slugger's rules, which GitHub applies to a heading's rendered text) and its links.
 * Used by the tests that follow the package's Docs links and the documentation's own links
 * (test/descriptions/docs-links.test.js) and by the troubleshooting test.
 */

/**
 * GitHub's anchor of a heading text: lower case, every character that is not a letter, a mark, a
 * digit, a connector (`_`), a hyphen or a space removed, each space a hyphen
 * ("Vendor Account & Billing" -> "vendor-account--billing").
 */
function slugify(text) {
	return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The text a heading renders to: code spans keep their content, links their text, emphasis and HTML go. */
function headingText(raw) {
	const parts = raw.trim().replace(/\s+#+\s*$/, '').split(/(`+[^`]*`+)/);
	return parts
		.map((p, i) => {
			if (i % 2) return p.replace(/^`+|`+$/g, '');
			return p
				.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
				.replace(/<[^>]+>/g, '')
				.replace(/(\*\*|__|\*|\b_|_\b)/g, '');
		})
		.join('');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text) {
	const out = [];
	let fence = null;
	text.split('\n').forEach((line, i) => {
		const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (m) {
			if (!fence) fence = m[1][0];
			else if (m[1][0] === fence) fence = null;
			return;
		}
		if (!fence) out.push({ line, n: i + 1 });
	});
	return out;
}

/** The anchors of a Markdown text: its headings' slugs (repeats numbered -1, -2 … as GitHub does) and explicit HTML ids. */
function anchorsOf(text) {
	const seen = new Map();
	const anchors = [];
	for (const { line } of proseLines(text)) {
		const h = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(line);
		if (h) {
			const base = slugify(headingText(h[2]));
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			anchors.push({ anchor: count ? `${base}-${count}` : base, text: headingText(h[2]), level: h[1].length });
		}
		for (const m of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.push({ anchor: m[1], text: '', level: 0 });
	}
	return anchors;
}

/** The links and images of a Markdown text (outside code): [{ target, n }] with the target as written. */
function linksOf(text) {
	const out = [];
	for (const { line, n } of proseLines(text)) {
		const prose = line.replace(/`[^`]*`/g, '');
		for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1], n });
	}
	return out;
}

module.exports = { slugify, headingText, anchorsOf, linksOf, proseLines };

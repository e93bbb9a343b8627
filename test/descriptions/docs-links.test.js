'use strict';
/**
 * Every Docs link in n8n's editor lands on its page (issue 34, item 3). n8n's node panel opens a
 * node's `documentationUrl` as it is, and otherwise its codex file's
 * `resources.primaryDocumentation` with `?utm_…` appended (n8n 1.123 and 2.40 alike: a `#heading`
 * would then take the query in and land nowhere), so every node states its documentationUrl and
 * its codex the same page; a credential's dialog opens its `documentationUrl` as it is. This reads
 * them from the built package (dist/, what n8n loads) and follows each to a file of this
 * repository and a heading of that file, with GitHub's anchor rules (scripts/markdown.js). The
 * links point into docs/, whose pages keep their headings; the README may be rewritten without
 * breaking them. test/real-n8n/editor.test.js reads the Docs link the editor shows.
 *
 * The documentation's own relative links (README, DEVELOPERS, CONTRIBUTING, CHANGELOG, docs/) are
 * followed the same way: each to an existing file or folder, and to an existing heading.
 */
const fs = require('node:fs');
const path = require('node:path');
const { slugify, headingText, anchorsOf, linksOf } = require('../../scripts/markdown');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const REPO = /github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(pkg.repository.url)[1];
const BLOB = `https://github.com/${REPO}/blob/main/`;

/** The Docs links of the built package: [{ from, url }]. */
function editorLinks() {
	const out = [];
	for (const file of pkg.n8n.nodes) {
		const base = path.basename(file).split('.')[0];
		const { description } = new (require(path.join(ROOT, file))[base])();
		out.push({ from: `${file} description.documentationUrl`, url: description.documentationUrl });
		const codex = path.join(ROOT, file.replace(/\.js$/, '.json'));
		const resources = JSON.parse(fs.readFileSync(codex, 'utf8')).resources ?? {};
		for (const kind of ['primaryDocumentation', 'credentialDocumentation']) {
			for (const { url } of resources[kind] ?? []) out.push({ from: `${path.relative(ROOT, codex)} ${kind}`, url });
		}
	}
	for (const file of pkg.n8n.credentials) {
		const base = path.basename(file).split('.')[0];
		const credential = new (require(path.join(ROOT, file))[base])();
		out.push({ from: `${file} documentationUrl`, url: credential.documentationUrl });
	}
	return out;
}

const anchorCache = new Map();
const anchors = (file) => {
	if (!anchorCache.has(file)) anchorCache.set(file, new Set(anchorsOf(fs.readFileSync(file, 'utf8')).map((a) => a.anchor)));
	return anchorCache.get(file);
};

/** Why a link from `fromFile` to `target` (path and/or #anchor, relative to the file) goes nowhere, or null. */
function brokenRelative(fromFile, target) {
	const [rawPath, anchor] = target.split('#');
	const file = rawPath ? path.resolve(path.dirname(fromFile), decodeURIComponent(rawPath)) : fromFile;
	if (!file.startsWith(ROOT)) return `${target}: outside the repository`;
	if (!fs.existsSync(file)) return `${target}: no file ${path.relative(ROOT, file)}`;
	if (anchor === undefined) return null;
	if (fs.statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor on a file that has no headings`;
	if (!anchors(file).has(anchor)) return `${target}: ${path.relative(ROOT, file)} has no heading #${anchor}`;
	return null;
}

/** Why an editor Docs link goes nowhere, or null. */
function brokenEditorLink(url) {
	if (typeof url !== 'string' || !url.startsWith(BLOB)) return `${url}: not a page of ${BLOB}`;
	const [rel, anchor] = url.slice(BLOB.length).split('#');
	if (!rel.startsWith('docs/') || !rel.endsWith('.md')) return `${url}: not a page under docs/`;
	if (!anchor) return `${url}: names no heading (#anchor)`;
	return brokenRelative(path.join(ROOT, rel), `#${anchor}`);
}

function* markdownFiles(dir) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) yield* markdownFiles(p);
		else if (e.name.endsWith('.md')) yield p;
	}
}

const DOCS = [...['README.md', 'DEVELOPERS.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((f) => path.join(ROOT, f)), ...markdownFiles(path.join(ROOT, 'docs'))];

test("GitHub's anchors: the slug of a heading's rendered text, repeats numbered", () => {
	expect(slugify('Vendor Account & Billing')).toBe('vendor-account--billing');
	expect(slugify('Vendor Disk, Network & Firewall')).toBe('vendor-disk-network--firewall');
	expect(slugify("What differs on n8n 1.x")).toBe('what-differs-on-n8n-1x');
	expect(slugify(headingText('`Log-in as "<username>" was refused`'))).toBe('log-in-as-username-was-refused');
	expect(slugify(headingText('[Vendor API](x.md) and *more* `code_name`'))).toBe('vendor-api-and-more-code_name');
	expect(anchorsOf('# A\n## Usage\n```\n## Not a heading\n```\n### Usage\n<a id="kept"></a>').map((a) => a.anchor)).toEqual(['a', 'usage', 'usage-1', 'kept']);
});

test("every Docs link of the built package (codex files, credentials' documentationUrl) lands on a heading of a docs/ page", () => {
	const links = editorLinks();
	// every node has its page link (twice: description and codex) and its credential's; every credential has one
	expect(links).toHaveLength(pkg.n8n.nodes.length * 3 + pkg.n8n.credentials.length);
	const broken = links.map(({ from, url }) => ({ from, why: brokenEditorLink(url) })).filter((b) => b.why);
	expect(broken).toEqual([]);
});

test("a node's documentationUrl and its codex's primaryDocumentation name the same page, and its codex's credential page is its credential's", () => {
	const credentialUrl = Object.fromEntries(
		pkg.n8n.credentials.map((file) => {
			const base = path.basename(file).split('.')[0];
			const c = new (require(path.join(ROOT, file))[base])();
			return [c.name, c.documentationUrl];
		}),
	);
	for (const file of pkg.n8n.nodes) {
		const base = path.basename(file).split('.')[0];
		const { description } = new (require(path.join(ROOT, file))[base])();
		const { resources } = JSON.parse(fs.readFileSync(path.join(ROOT, file.replace(/\.js$/, '.json')), 'utf8'));
		expect({ base, codex: resources.primaryDocumentation.map((d) => d.url) }).toEqual({ base, codex: [description.documentationUrl] });
		expect({ base, credential: resources.credentialDocumentation.map((d) => d.url) }).toEqual({ base, credential: description.credentials.map((c) => credentialUrl[c.name]) });
	}
});

test('every relative link of the documentation lands on a file and a heading that exist', () => {
	const broken = [];
	let followed = 0;
	for (const file of DOCS) {
		for (const { target, n } of linksOf(fs.readFileSync(file, 'utf8'))) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
			followed++;
			const why = brokenRelative(file, target);
			if (why) broken.push(`${path.relative(ROOT, file)}:${n}: ${why}`);
		}
	}
	expect(followed).toBeGreaterThan(100);
	expect(broken).toEqual([]);
});

test('a link to a missing heading or file, or outside docs/, is found', () => {
	const page = path.join(ROOT, 'docs', 'credentials.md');
	expect(brokenRelative(page, '#no-such-heading')).toMatch(/has no heading #no-such-heading/);
	expect(brokenRelative(page, 'nodes/no-such-node.md')).toMatch(/no file docs\/nodes\/no-such-node\.md/);
	expect(brokenEditorLink(`${BLOB}docs/credentials.md#vendor-api`)).toBeNull();
	expect(brokenEditorLink(`${BLOB}docs/credentials.md#vendor-apis`)).toMatch(/has no heading/);
	expect(brokenEditorLink(`${BLOB}README.md#vendor-api`)).toMatch(/not a page under docs/);
	expect(brokenEditorLink('https://github.com/vendor-cloud/n8n-nodes-vendor-cloud#vendor-api')).toMatch(/not a page of/);
	expect(brokenEditorLink(`${BLOB}docs/credentials.md`)).toMatch(/names no heading/);
});

'use strict';
/**
 * The third-party packages the build bundles into dist/ (gulpfile.js: esbuild inlines the modules
 * a compiled file imports, so the published package has no runtime dependencies). They are read
 * from the source maps esbuild writes next to each bundled file: every source under node_modules/
 * belongs to the package whose folder holds it (nested folders included), at the version installed
 * there, which is the version the bundle holds.
 *
 *   bundledPackages(distDir)   [{ name, version, license, author, repository, dir, files, usedBy }]
 *   noticesText(packages)      THIRD_PARTY_NOTICES.md: each package with its licence text
 *
 * gulpfile.js writes dist/THIRD_PARTY_NOTICES.md with these; scripts/audit-bundled.js asks the
 * registry for advisories against exactly these versions.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** The MIT licence's terms, for a package that declares MIT but ships no licence file. */
const MIT_TERMS = `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

function* mapFiles(dir) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) yield* mapFiles(p);
		else if (e.name.endsWith('.js.map')) yield p;
	}
}

/** "node_modules/a/node_modules/@s/b/lib/x.js" -> "node_modules/a/node_modules/@s/b" (the package's folder). */
function packageDirOf(source) {
	const m = /((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)/.exec(source.replace(/\\/g, '/'));
	return m ? m[1].replace(/\/$/, '') : null;
}

const authorOf = (pkg) => (typeof pkg.author === 'string' ? pkg.author : pkg.author?.name ? `${pkg.author.name}${pkg.author.url ? ` (${pkg.author.url})` : ''}` : '');
const repositoryOf = (pkg) => String(typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? pkg.homepage ?? '')).replace(/^git\+/, '');

/** The bundled packages of a built folder, sorted by folder; `root` is where node_modules/ is. */
function bundledPackages(distDir, root = ROOT) {
	const found = new Map();
	for (const map of mapFiles(distDir)) {
		const sources = JSON.parse(fs.readFileSync(map, 'utf8')).sources ?? [];
		const usedBy = path.relative(distDir, map).replace(/\.map$/, '').split(path.sep).join('/');
		for (const source of sources) {
			const dir = packageDirOf(source);
			if (!dir) continue;
			if (!found.has(dir)) found.set(dir, new Set());
			found.get(dir).add(usedBy);
		}
	}
	return [...found.keys()].sort().map((dir) => {
		const abs = path.join(root, dir);
		const pkg = JSON.parse(fs.readFileSync(path.join(abs, 'package.json'), 'utf8'));
		const files = fs
			.readdirSync(abs)
			.filter((f) => LICENCE_FILE.test(f) && fs.statSync(path.join(abs, f)).isFile())
			.sort()
			.map((f) => ({ name: f, text: fs.readFileSync(path.join(abs, f), 'utf8').replace(/\r\n/g, '\n').trimEnd() }));
		return {
			name: pkg.name,
			version: pkg.version,
			license: typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? ''),
			author: authorOf(pkg),
			repository: repositoryOf(pkg),
			dir,
			files,
			usedBy: [...found.get(dir)].sort(),
		};
	});
}

/** Why a bundled package cannot be shipped with a notice, or null. */
function noticeProblem(p) {
	if (p.files.length) return null;
	if (p.license === 'MIT') return null; // the MIT terms are written out with the author the package names
	return `${p.name}@${p.version} (${p.dir}) has no licence file and declares "${p.license || 'no licence'}": add its licence text to scripts/bundled.js or do not bundle it`;
}

/** THIRD_PARTY_NOTICES.md for the bundled packages. */
function noticesText(packages) {
	const out = [
		'# Third-party notices',
		'',
		'n8n-nodes-vendor-cloud bundles the packages below into its JavaScript files in dist/ (they are',
		'not installed as dependencies). Each is used under its licence, reproduced here as the package',
		'ships it. Written by the build (gulpfile.js, scripts/bundled.js) from what the bundle holds.',
		'',
		'| Package | Version | Licence | Bundled into |',
		'| --- | --- | --- | --- |',
		...packages.map((p) => `| ${p.name} | ${p.version} | ${p.license || '(none declared)'} | ${p.usedBy.map((u) => `dist/${u}`).join(', ')} |`),
	];
	for (const p of packages) {
		out.push('', `## ${p.name} ${p.version}`, '');
		const about = [`Licence: ${p.license || '(none declared)'}`];
		if (p.author) about.push(`author: ${p.author}`);
		if (p.repository) about.push(`source: ${p.repository}`);
		out.push(`${about.join('; ')}.`);
		if (p.files.length) {
			for (const f of p.files) out.push('', `${f.name}:`, '', '```text', f.text, '```');
		} else {
			out.push(
				'',
				`The package ships no licence file; its package.json declares the MIT licence${p.author ? ` and names ${p.author} as its author` : ''}. The MIT licence's terms:`,
				'',
				'```text',
				MIT_TERMS,
				'```',
			);
		}
	}
	return `${out.join('\n')}\n`;
}

module.exports = { bundledPackages, noticesText, noticeProblem, packageDirOf, MIT_TERMS };

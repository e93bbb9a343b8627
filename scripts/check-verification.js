#!/usr/bin/env node
'use strict';
/**
 * `npm run check:verification [-- <package dir>] [--scan]`: the packed package against each written
 * rule of n8n's "Community node verification guidelines"
 * (https://docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines/, as
 * published on 2026-11-26). n8n 3.0's announced defaults install only verified community packages
 * unless an instance allows unverified ones, so these rules decide whether users of n8n 3.0 can
 * install the package from Settings at all.
 *
 * Each rule is checked on what users get: `npm pack` of <dir> (its dist/ must be built), unpacked
 * next to the package's node_modules so its nodes load. One line per rule, with what was found;
 * exit 1 naming every rule that fails. test/real-n8n/verification.test.js runs it on the
 * repository and on copies broken one rule at a time.
 *
 *  1. the n8n-node tool: built and linted with @n8n/node-cli (`n8n-node lint`), n8n's package.json
 *     fields (n8n-community-node-package keyword, n8n.nodes, n8n.credentials, strict)
 *  2. node types: not one of n8n's own nodes (compared with the installed n8n-nodes-base), no logic
 *     or flow-control node (every node calls the service with its credentials; no core or flow
 *     codex category)
 *  3. one third-party service: every node and credential is the vendor's (one name, the package's
 *     own credentials only); triggers of the same service may be included
 *  4. package source: the repository URL is a public GitHub repository named in homepage, bugs
 *     and repository alike, an author, a README with usage, credentials and example workflows
 *  5. MIT licence: package.json and the LICENSE file in the tarball
 *  6. published from a GitHub Action with provenance: scripts/check-release.js (publish.yml with
 *     `id-token: write` and `npm publish --provenance`, publishConfig.provenance, the guard)
 *  7. no external dependencies: none declared, and every require() in the tarball is a file of
 *     the package, n8n-workflow or a Node.js built-in without file system or process access
 *  8. no environment variables or file system: no `process`, no fs, child_process, os, path,
 *     worker_threads, vm or net module in any JavaScript file of the tarball
 *  9. best practices: TypeScript sources for every node and credential; n8n's linter and
 *     scanner (`n8n-node lint` is step 2 of npm test; `--scan` here runs scripts/scan-package.js,
 *     which test/scripts/scan.test.js runs in npm test)
 * 10. English only: every text of the node and credential interfaces (display names,
 *     descriptions, hints, placeholders, options, actions) and the README has no letter outside
 *     the Latin script; JavaScript strings with other letters only in the data tables listed in
 *     NON_ENGLISH_DATA with their reason
 */
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { spawnSync } = require('node:child_process');
const { runtimeDir } = require('./n8n-runtime');

const ROOT = path.resolve(__dirname, '..');
const GUIDELINES = 'https://docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines/';

/** Letters of any script but Latin (ü, é are Latin; 日, д, ع are not). */
const NON_LATIN = /[^\P{L}\p{Script=Latin}]/u;

/**
 * Strings with non-Latin letters allowed in the package's JavaScript: data it matches or writes,
 * never interface text. file (in the tarball) -> why.
 */
const NON_ENGLISH_DATA = {
	'dist/nodes/shared/api/codes/reading.js':
		"the service's own names of its network lines (intranet, China Telecom, China Unicom, China Mobile, dual line), accepted where the service answers with them instead of a code; the interface shows English words",
	'dist/nodes/VendorObjectStorage/helpers/compat/check.js':
		'an object key with Unicode characters that Check Compatibility writes and reads back to test how the service encodes keys (test data, not text)',
	'dist/nodes/shared/api/tokens.js':
		"patterns of the service's own Chinese messages that refuse a token (its records carry _zh texts), matched to renew the token once; never shown to the user",
};

/** Node.js modules that reach the file system, processes, the environment or the network directly. */
const FORBIDDEN_MODULES = new Set(['fs', 'fs/promises', 'child_process', 'os', 'path', 'process', 'worker_threads', 'vm', 'net', 'tls', 'dgram', 'cluster', 'module', 'v8', 'inspector', 'http', 'https', 'http2']);

const UI_KEYS = new Set(['displayName', 'description', 'hint', 'placeholder', 'action', 'subtitle', 'notice']);

function packInto(dir) {
	const work = fs.mkdtempSync(path.join(dir, '.cache', 'verification-'));
	const r = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (r.status !== 0) throw new Error(`npm pack failed in ${dir} (exit ${r.status}):\n${String(r.stderr).slice(-2000)}`);
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
	const tgz = path.join(work, info.filename);
	const x = spawnSync('tar', ['-xzf', tgz, '-C', work]);
	if (x.status !== 0) throw new Error(`tar -xzf ${tgz} failed`);
	return { work, pkgDir: path.join(work, 'package'), files: info.files.map((f) => f.path), filename: info.filename };
}

/** Every string under an interface key of a node or credential description, with where it is. */
function interfaceTexts(description, where) {
	const out = [];
	const walk = (value, at, key) => {
		if (typeof value === 'string') {
			if (UI_KEYS.has(key) || key === 'name@option') out.push({ at, text: value });
			return;
		}
		if (Array.isArray(value)) {
			value.forEach((v, i) => walk(v, `${at}[${i}]`, key === 'options' ? 'option' : key));
			return;
		}
		if (!value || typeof value !== 'object') return;
		for (const [k, v] of Object.entries(value)) {
			if (k === 'routing' || k === 'displayOptions' || k === 'default' || k === 'typeOptions' || k === 'requestDefaults') continue;
			// an option's name is what the dropdown shows; a parameter's name is an internal key
			const effective = k === 'name' && key === 'option' ? 'name@option' : k;
			walk(v, `${at}.${k}`, effective);
		}
	};
	walk(description, where, '');
	return out;
}

function loadExport(file) {
	const mod = require(file);
	const Cls = Object.values(mod).find((v) => typeof v === 'function');
	return new Cls();
}

function jsFiles(pkgDir, files) {
	return files.filter((f) => f.endsWith('.js')).map((f) => ({ rel: f, text: fs.readFileSync(path.join(pkgDir, f), 'utf8') }));
}

/** Runs every rule on the package in `dir`; resolves { rules: [{ rule, ok, found, problems }], problems }. */
async function checkVerification(dir = ROOT, { scan = false } = {}) {
	const rules = [];
	const add = (rule, problems, found) => rules.push({ rule, ok: problems.length === 0, found, problems });
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	fs.mkdirSync(path.join(dir, '.cache'), { recursive: true });
	const packed = packInto(dir);
	try {
		const { pkgDir, files } = packed;
		const shipped = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
		const js = jsFiles(pkgDir, files);
		const nodes = (shipped.n8n?.nodes || []).map((f) => ({ file: f, description: loadExport(path.join(pkgDir, f)).description }));
		const creds = (shipped.n8n?.credentials || []).map((f) => ({ file: f, type: loadExport(path.join(pkgDir, f)) }));
		const credNames = new Set(creds.map((c) => c.type.name));

		// 1. the n8n-node tool
		{
			const p = [];
			if (!pkg.devDependencies?.['@n8n/node-cli']) p.push('@n8n/node-cli is not a devDependency');
			if (!/^n8n-node lint\b/.test(pkg.scripts?.lint || '')) p.push(`scripts.lint is "${pkg.scripts?.lint}", not "n8n-node lint"`);
			if (!(shipped.keywords || []).includes('n8n-community-node-package')) p.push('the keyword n8n-community-node-package is missing');
			if (!/^(@[^/]+\/)?n8n-nodes-/.test(shipped.name)) p.push(`the name ${shipped.name} does not start with n8n-nodes-`);
			if (!nodes.length) p.push('package.json n8n.nodes lists no node');
			if (shipped.n8n?.strict !== true) p.push('package.json n8n.strict is not true (n8n Cloud rules)');
			add('Use the n8n-node tool', p, `@n8n/node-cli ${pkg.devDependencies?.['@n8n/node-cli']}, lint "${pkg.scripts?.lint}", ${nodes.length} nodes and ${creds.length} credentials declared, strict`);
		}

		// 2. node types
		{
			const p = [];
			for (const { file, description: d } of nodes) {
				const own = (d.credentials || []).filter((c) => credNames.has(c.name));
				if (!own.length) p.push(`${file}: uses none of the package's credentials, so it does not integrate the service (a logic or flow-control node?)`);
				const codexFile = path.join(pkgDir, file.replace(/\.js$/, '.json'));
				const codex = fs.existsSync(codexFile) ? JSON.parse(fs.readFileSync(codexFile, 'utf8')) : {};
				const categories = codex.categories || [];
				const sub = JSON.stringify(codex.subcategories || {});
				if (categories.includes('Core Nodes') || /Flow/.test(sub)) p.push(`${file}: codex categories ${JSON.stringify(categories)} ${sub} place it among n8n's core or flow nodes`);
			}
			// an existing node: one of n8n's own (n8n-nodes-base of the installed n8n, when there is one)
			let existing = 'n8n-nodes-base not installed here: not compared';
			const base = path.join(runtimeDir(), 'node_modules', 'n8n-nodes-base', 'package.json');
			if (fs.existsSync(base)) {
				const builtIn = new Set(JSON.parse(fs.readFileSync(base, 'utf8')).n8n.nodes.map((f) => path.basename(f).split('.')[0].toLowerCase()));
				const ours = nodes.map((n) => n.description.name.toLowerCase());
				for (const name of ours.filter((n) => builtIn.has(n))) p.push(`${name} is also a node of n8n itself`);
				existing = `none of ${builtIn.size} nodes of n8n-nodes-base has the name of one of ours`;
			}
			add('Node types: no existing, logic or flow-control node', p, `each of the ${nodes.length} nodes calls the service with the package's credentials, none is in n8n's core or flow categories; ${existing}`);
		}

		// 3. one third-party service
		let service;
		{
			const p = [];
			const first = (s) => String(s).split(/\s+/)[0];
			service = first(nodes[0]?.description.displayName || '');
			for (const { file, description: d } of nodes) {
				if (first(d.displayName) !== service) p.push(`${file}: "${d.displayName}" is not a ${service} node`);
				for (const c of d.credentials || []) if (!credNames.has(c.name)) p.push(`${file}: uses the credential ${c.name}, which is not the package's`);
			}
			for (const { file, type } of creds) if (first(type.displayName) !== service) p.push(`${file}: credential "${type.displayName}" is not ${service}'s`);
			const triggers = nodes.filter((n) => n.description.group.includes('trigger')).length;
			add('Exactly one third-party service', p, `every node and credential is "${service} …" (${nodes.length - triggers} action nodes, ${triggers} triggers of the same service, credentials ${[...credNames].join(', ')})`);
		}

		// 4. package source and documentation
		{
			const p = [];
			const repo = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(shipped.repository?.url || '');
			if (!repo) p.push(`repository.url "${shipped.repository?.url}" is not a GitHub repository`);
			else {
				if (!String(shipped.homepage || '').startsWith(`https://github.com/${repo[1]}`)) p.push(`homepage "${shipped.homepage}" is not the repository's`);
				if (shipped.bugs?.url && !String(shipped.bugs.url).startsWith(`https://github.com/${repo[1]}`)) p.push(`bugs.url "${shipped.bugs.url}" is not the repository's`);
			}
			if (!(shipped.author?.name || typeof shipped.author === 'string')) p.push('no author');
			const readme = fs.existsSync(path.join(pkgDir, 'README.md')) ? fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8') : '';
			if (!readme) p.push('README.md is not in the tarball');
			for (const section of ['Installation', 'Credentials', 'Nodes and operations', 'Example workflows', 'Compatibility']) {
				if (readme && !new RegExp(`^## ${section}\\b`, 'm').test(readme)) p.push(`README.md has no "## ${section}" section`);
			}
			const examples = fs.existsSync(path.join(dir, 'examples')) ? fs.readdirSync(path.join(dir, 'examples')).filter((f) => f.endsWith('.json')) : [];
			if (!examples.length) p.push('no example workflows in examples/');
			add('Package source and documentation', p, `github.com/${repo ? repo[1] : '?'}, author "${shipped.author?.name ?? shipped.author}", README with Installation, Credentials, Nodes and operations, Example workflows, Compatibility; ${examples.length} example workflows`);
		}

		// 5. MIT
		{
			const p = [];
			if (shipped.license !== 'MIT') p.push(`package.json license is "${shipped.license}"`);
			const license = fs.existsSync(path.join(pkgDir, 'LICENSE')) ? fs.readFileSync(path.join(pkgDir, 'LICENSE'), 'utf8') : '';
			if (!/^MIT License\b/.test(license.trim()) || !/Permission is hereby granted, free of charge/.test(license)) p.push('the LICENSE file in the tarball is not the MIT licence');
			add('MIT licence', p, 'package.json "MIT", LICENSE is the MIT text');
		}

		// 6. provenance
		{
			const { checkRelease } = require('./check-release');
			const { ok, problems } = await checkRelease(dir);
			const relevant = problems.filter((l) => /publish|provenance|id-token|prepublishOnly|guard|NPM_TOKEN/i.test(l));
			add('Published from a GitHub Action with provenance', relevant, ok.filter((l) => /publish|provenance/i.test(l)).join('; ') || 'publish.yml');
		}

		// 7. no external dependencies
		const requires = [];
		for (const { rel, text } of js) for (const m of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) requires.push({ rel, spec: m[1] });
		{
			const p = [];
			for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
				const v = shipped[field];
				if (v && (Array.isArray(v) ? v.length : Object.keys(v).length)) p.push(`package.json ${field}: ${JSON.stringify(v)}`);
			}
			const foreign = requires.filter(({ spec }) => !spec.startsWith('.') && spec !== 'n8n-workflow' && !builtinModules.includes(spec.replace(/^node:/, '')));
			for (const { rel, spec } of foreign) p.push(`${rel} requires "${spec}", which is not in the package`);
			const external = [...new Set(requires.filter(({ spec }) => !spec.startsWith('.')).map((r) => r.spec))].sort();
			add('No external dependencies', p, `none declared; ${requires.length} require() calls, outside the package only ${external.join(', ')}`);
		}

		// 8. no environment variables or file system
		{
			const p = [];
			for (const { rel, spec } of requires) if (FORBIDDEN_MODULES.has(spec.replace(/^node:/, ''))) p.push(`${rel} requires "${spec}"`);
			for (const { rel, text } of js) {
				const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
				for (const m of code.matchAll(/\b(process\s*(?:\.|\[)\s*\w*|globalThis\s*\.\s*process|\bimport\(\s*["'](?:node:)?(?:fs|child_process|os|path)["'])/g)) p.push(`${rel}: ${m[1]}`);
			}
			add('No access to environment variables or the file system', p, `${js.length} JavaScript files: no process, no fs, child_process, os, path or network module`);
		}

		// 9. best practices: TypeScript; the linter and the scanner
		{
			const p = [];
			for (const f of [...(shipped.n8n?.nodes || []), ...(shipped.n8n?.credentials || [])]) {
				const ts = f.replace(/^dist\//, '').replace(/\.js$/, '.ts');
				if (!fs.existsSync(path.join(dir, ts))) p.push(`${f} has no TypeScript source ${ts}`);
			}
			let scanned = 'n8n-node lint: npm test step 2; the scanner: npm run scan (test/scripts/scan.test.js)';
			if (scan) {
				const { scanPackage } = require('./scan-package');
				const res = await scanPackage(dir, { print: () => {} });
				for (const l of res.problems) p.push(`n8n's scanner: ${l}`);
				scanned = `n8n's scanner run: ${res.ok.join('; ')}`;
			}
			add('n8n best practices: TypeScript, the linter and the scanner', p, `TypeScript sources for every node and credential; ${scanned}`);
		}

		// 10. English only
		{
			const p = [];
			let texts = 0;
			for (const { file, description } of nodes) {
				for (const { at, text } of interfaceTexts(description, file)) {
					texts++;
					if (NON_LATIN.test(text)) p.push(`${at}: "${text}"`);
				}
			}
			for (const { file, type } of creds) {
				for (const { at, text } of interfaceTexts({ displayName: type.displayName, properties: type.properties }, file)) {
					texts++;
					if (NON_LATIN.test(text)) p.push(`${at}: "${text}"`);
				}
			}
			const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
			readme.split('\n').forEach((line, i) => {
				if (NON_LATIN.test(line)) p.push(`README.md:${i + 1}: ${line.trim().slice(0, 120)}`);
			});
			const data = [];
			for (const { rel, text } of js) {
				const lines = text.split('\n').filter((l) => NON_LATIN.test(l));
				if (!lines.length) continue;
				if (NON_ENGLISH_DATA[rel]) data.push(rel);
				else p.push(`${rel}: non-Latin text in ${lines.length} line(s), e.g. ${lines[0].trim().slice(0, 100)}`);
			}
			add('English only', p, `${texts} interface texts of ${nodes.length} nodes and ${creds.length} credentials, and README.md: Latin script only; other scripts only in data: ${data.join(', ') || 'none'}`);
		}
	} finally {
		fs.rmSync(packed.work, { recursive: true, force: true });
	}
	const problems = rules.flatMap((r) => r.problems.map((x) => `${r.rule}: ${x}`));
	return { rules, problems, guidelines: GUIDELINES };
}

module.exports = { checkVerification, NON_ENGLISH_DATA, GUIDELINES };

if (require.main === module) {
	const argv = process.argv.slice(2);
	const dir = path.resolve(argv.find((a) => !a.startsWith('--')) || ROOT);
	checkVerification(dir, { scan: argv.includes('--scan') }).then(
		({ rules, problems }) => {
			process.stdout.write(`n8n's community node verification guidelines (${GUIDELINES}), on the packed package:\n`);
			for (const r of rules) {
				process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.rule}: ${r.found}\n`);
				for (const x of r.problems) process.stdout.write(`        ${x}\n`);
			}
			process.stdout.write(problems.length ? `\nverification check: ${problems.length} problem(s)\n` : '\nverification check: every written rule met\n');
			process.exit(problems.length ? 1 : 0);
		},
		(e) => {
			process.stderr.write(`verification check crashed: ${e.stack}\n`);
			process.exit(2);
		},
	);
}

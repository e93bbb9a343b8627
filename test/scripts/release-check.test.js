'use strict';
/**
 * The release path cannot drift silently: scripts/check-release.js (actionlint over both
 * workflows, what ci.yml and publish.yml must run, the publish guard, the tarball) passes on
 * the repository and fails, naming the problem, on copies broken on purpose.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { checkRelease, readmeTestCommand } = require('../../scripts/check-release');
const { ROOT, copyPackage, dropIdToken } = require('../support/package-copy');

jest.setTimeout(300000);

const CI = '.github/workflows/ci.yml';
const PUBLISH = '.github/workflows/publish.yml';

/** Problems of a copy with `breakIt` applied. */
async function problemsOf(breakIt) {
	const copy = copyPackage();
	try {
		breakIt(copy);
		return (await checkRelease(copy.dir)).problems;
	} finally {
		copy.cleanup();
	}
}

test('the repository passes: actionlint clean, both workflows run what they must, LICENSE and CHANGELOG.md are packed', async () => {
	const { ok, problems } = await checkRelease(ROOT);
	expect(problems).toEqual([]);
	expect(ok).toEqual(
		expect.arrayContaining([
			`actionlint ${CI}: no problems`,
			`actionlint ${PUBLISH}: no problems`,
			expect.stringMatching(/ci\.yml: push \+ pull_request, Node 24, npm cache, npm ci -> lint -> build -> npm test/),
			expect.stringMatching(/publish\.yml: tag v\*\.\*\.\*, id-token: write \+ contents: read, .*npm publish --provenance --access public.* with secrets\.NPM_TOKEN/),
			expect.stringMatching(/tarball n8n-nodes-vendor-cloud-.*\.tgz: \d+ files, dist\/ \(with THIRD_PARTY_NOTICES\.md\) \+ package\.json, README\.md, LICENSE, CHANGELOG\.md/),
		]),
	);
});

test("the README's test command is the one .ci/run and ci.yml run", () => {
	const cmd = readmeTestCommand(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
	expect(cmd).toEqual({ full: 'npm install && npm test', test: 'npm test' });
	expect(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toContain(cmd.full);
	expect(fs.readFileSync(path.join(ROOT, CI), 'utf8')).toMatch(/^\s+run: npm test$/m);
});

test('the packed tarball holds LICENSE, CHANGELOG.md and no runtime dependencies (npm pack --dry-run --json)', () => {
	const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	expect(r.status).toBe(0);
	const [listing] = JSON.parse(r.stdout);
	const files = listing.files.map((f) => f.path);
	expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'dist/THIRD_PARTY_NOTICES.md']));
	expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	expect(pkg.dependencies).toBeUndefined();
});

test('a broken copy (runtime dependency added, publish.yml without id-token: write) fails, naming both problems', async () => {
	const copy = copyPackage();
	try {
		copy.editJson('package.json', (pkg) => ({ ...pkg, dependencies: { 'left-pad': '1.3.0' } }));
		copy.edit(PUBLISH, dropIdToken);
		const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-release.js'), copy.dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
		expect(r.status).toBe(1);
		expect(r.stdout).toMatch(/^FAIL {2}package\.json has runtime dependencies \(left-pad\): an n8n community package must have none/m);
		expect(r.stdout).toMatch(/^FAIL {2}\.github\/workflows\/publish\.yml: job "publish" lacks "permissions: id-token: write"/m);
		// actionlint has nothing against either: the structural checks are what catch them
		expect(r.stdout).toContain(`ok    actionlint ${PUBLISH}: no problems`);
		expect(r.stdout).toMatch(/release check: 2 problem\(s\)/);
	} finally {
		copy.cleanup();
	}
});

test('the build refuses a package.json with runtime dependencies (gulp verifyManifest)', () => {
	const copy = copyPackage({ linkNodeModules: true });
	try {
		copy.editJson('package.json', (pkg) => ({ ...pkg, dependencies: { 'left-pad': '1.3.0' } }));
		const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/gulp/bin/gulp.js'), 'build'], { cwd: copy.dir, encoding: 'utf8' });
		expect(r.status).not.toBe(0);
		expect(`${r.stdout}${r.stderr}`).toMatch(/package\.json lists runtime dependencies \(left-pad\): a community node package must have none/);
	} finally {
		copy.cleanup();
	}
});

test('actionlint findings in a workflow are reported with file, line and message', async () => {
	const problems = await problemsOf((c) => c.edit(CI, (y) => y.replace('group: ci-${{ github.workflow }}-${{ github.ref }}', 'group: ci-${{ github.workflow }}-${{ github.reff }}')));
	expect(problems).toEqual([expect.stringMatching(/^\.github\/workflows\/ci\.yml:\d+:\d+: property "reff" is not defined .*\[actionlint expression\]$/)]);
});

test('publish.yml permissions the scanner relies on: contents must be read, id-token write', async () => {
	const problems = await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace(/^( {2})contents: read$/m, '$1contents: write')));
	expect(problems).toEqual([expect.stringMatching(/publish\.yml: job "publish" must have "permissions: contents: read"/)]);
});

test('publish.yml without --provenance, or without the tag/version check, fails', async () => {
	expect(await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace('npm publish --provenance --access public', 'npm publish --access public')))).toEqual([
		expect.stringMatching(/publish\.yml: "npm publish --access public --ignore-scripts=false" lacks --provenance/),
	]);
	expect(await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace('run: node scripts/release-guard.js --tag "$GITHUB_REF_NAME"', 'run: echo "$GITHUB_REF_NAME"')))).toEqual([
		expect.stringMatching(/publish\.yml: job "publish" does not check that the tag matches package\.json's version/),
	]);
});

test('publish.yml must test and audit the bundled packages before it publishes, and the release guide must name its secret', async () => {
	expect(
		await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace(/\n\s+- name: Unit and release tests[^\n]*\n\s+run: npm run test:unit\n/, '\n'))),
	).toEqual([expect.stringMatching(/publish\.yml: job "publish" has no step "run: npm run test:unit" before publishing/)]);
	expect(await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace('run: npm run audit:bundled -- --strict', 'run: npm run audit:bundled')))).toEqual([
		expect.stringMatching(/publish\.yml: job "publish" has no step "run: npm run audit:bundled -- --strict" before publishing/),
	]);
	expect(await problemsOf((c) => c.edit(PUBLISH, (y) => y.replace('secrets.NPM_TOKEN', 'secrets.NPM_PUBLISH_TOKEN')))).toEqual([
		expect.stringMatching(/docs\/developers\/releasing\.md does not name the repository secret `NPM_PUBLISH_TOKEN`/),
	]);
	expect(await problemsOf((c) => fs.rmSync(path.join(c.dir, 'docs/developers/releasing.md')))).toEqual(['docs/developers/releasing.md (the release guide) is missing']);
});

test("ci.yml must run the README's test command: a README that changes it, or a ci.yml without it, fails", async () => {
	expect(await problemsOf((c) => c.edit('README.md', (t) => t.replace('`npm install && npm test`', '`npm install && npm run test:all`')))).toEqual([
		'.ci/run does not call the README\'s test command "npm install && npm run test:all"',
		'.github/workflows/ci.yml does not run the README\'s test command "npm run test:all" (a step "run: npm run test:all")',
	]);
	expect(await problemsOf((c) => c.edit(CI, (y) => y.replace(/\n\s+- name: Test \(the README's test command\)\n\s+run: npm test\n?/, '\n')))).toEqual([
		'.github/workflows/ci.yml does not run the README\'s test command "npm test" (a step "run: npm test")',
	]);
	expect(await problemsOf((c) => c.edit(CI, (y) => y.replace('cache: npm', 'cache: yarn')))).toEqual([
		expect.stringMatching(/ci\.yml: job "test" does not use npm's cache/),
	]);
});

test('LICENSE, CHANGELOG.md and the notices of the bundled packages must be in the tarball, and the changelog must have this version', async () => {
	expect(await problemsOf((c) => fs.rmSync(path.join(c.dir, 'dist/THIRD_PARTY_NOTICES.md')))).toEqual([
		expect.stringMatching(/^the packed tarball lacks dist\/THIRD_PARTY_NOTICES\.md/),
	]);
	expect(await problemsOf((c) => c.editJson('package.json', (p) => ({ ...p, files: ['dist', 'LICENSE'] })))).toEqual([
		expect.stringMatching(/^the packed tarball lacks CHANGELOG\.md/),
	]);
	expect(await problemsOf((c) => c.edit('CHANGELOG.md', (t) => t.replace('## [0.1.0]', '## [0.0.9]')))).toEqual([
		'CHANGELOG.md has no section "## [0.1.0]"',
	]);
	expect(await problemsOf((c) => fs.rmSync(path.join(c.dir, 'LICENSE')))).toEqual([
		'LICENSE is missing or is not the MIT license text that package.json names',
		expect.stringMatching(/^the packed tarball lacks LICENSE/),
	]);
});

test('package.json must keep the prepublishOnly guard and publishConfig.provenance', async () => {
	expect(
		await problemsOf((c) =>
			c.editJson('package.json', (p) => {
				const { prepublishOnly, ...scripts } = p.scripts;
				const { provenance, ...publishConfig } = p.publishConfig;
				return { ...p, scripts, publishConfig };
			}),
		),
	).toEqual([
		expect.stringMatching(/^package\.json: scripts\.prepublishOnly must be "node scripts\/release-guard\.js"/),
		expect.stringMatching(/^package\.json: publishConfig\.provenance must be true/),
	]);
});

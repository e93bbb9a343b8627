'use strict';
/**
 * `npm publish` anywhere but publish.yml is refused, and publish.yml refuses a tag that is not
 * v<package.json version>. The npm publish runs go to a registry on 127.0.0.1 that records what
 * it receives; nothing may be uploaded.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { checkTag, checkPublish } = require('../../scripts/release-guard');
const { ROOT, copyPackage } = require('../support/package-copy');

jest.setTimeout(300000);

const { version } = require('../../package.json');
const ACTIONS = {
	GITHUB_ACTIONS: 'true',
	GITHUB_WORKFLOW_REF: `vendor-cloud/n8n-nodes-vendor-cloud/.github/workflows/publish.yml@refs/tags/v${version}`,
	GITHUB_REF: `refs/tags/v${version}`,
	GITHUB_REF_TYPE: 'tag',
	GITHUB_REF_NAME: `v${version}`,
};

/** The package as it is once its first release is prepared: the schema's pre-release changes closed. */
let ready;
beforeAll(() => {
	ready = copyPackage();
	ready.editJson('schema/pre-release-changes.json', (p) => ({ ...p, published: [version], changes: [] }));
});
afterAll(() => ready?.cleanup());

test('the tag must be v + package.json version, with a CHANGELOG.md section', () => {
	expect(checkTag(ready.dir, `v${version}`)).toEqual([]);
	expect(checkTag(ready.dir, 'v9.9.9')).toEqual([expect.stringMatching(new RegExp(`^the tag "v9\\.9\\.9" does not match package\\.json's version ${version.replace(/\./g, '\\.')} \\(expected the tag v${version.replace(/\./g, '\\.')}\\)`))]);
	expect(checkTag(ready.dir, version)).toEqual([expect.stringMatching(/does not match package\.json's version/)]);
	const copy = copyPackage();
	try {
		copy.editJson('schema/pre-release-changes.json', (p) => ({ ...p, published: [version], changes: [] }));
		copy.edit('CHANGELOG.md', (t) => t.replace(`## [${version}]`, '## [0.0.0]'));
		expect(checkTag(copy.dir, `v${version}`)).toEqual([`CHANGELOG.md has no section "## [${version}]": say what this release holds before tagging it.`]);
	} finally {
		copy.cleanup();
	}
});

test('a release comes with its upgrade fixtures (schema/README.md, "The upgrade test")', () => {
	const copy = copyPackage();
	try {
		copy.editJson('schema/pre-release-changes.json', (p) => ({ ...p, published: [version], changes: [] }));
		fs.rmSync(path.join(copy.dir, 'test', 'real-n8n', 'upgrade-fixtures', version), { recursive: true, force: true });
		expect(checkTag(copy.dir, `v${version}`)).toEqual([expect.stringMatching(new RegExp(`^test/real-n8n/upgrade-fixtures/${version.replace(/\./g, '\\.')} is missing: record what this release saves and sends`))]);
	} finally {
		copy.cleanup();
	}
});

test('a release closes the pre-release schema changes (schema/README.md)', () => {
	// as the repository is today: nothing published, pre-release changes listed
	expect(checkTag(ROOT, `v${version}`)).toEqual([
		expect.stringMatching(/^schema\/pre-release-changes\.json lists no published version: add "\d+\.\d+\.\d+" to "published"/),
		expect.stringMatching(/^schema\/pre-release-changes\.json still lists \d+ pre-release change\(s\): empty "changes" before publishing/),
	]);
});

test('prepublishOnly allows only publish.yml on a version tag', () => {
	expect(checkPublish(ready.dir, ACTIONS)).toEqual([]);
	const refusal = checkPublish(ROOT, {});
	expect(refusal).toEqual([expect.stringMatching(/^npm publish is refused outside GitHub Actions\. n8n-nodes-vendor-cloud is published only by the GitHub Actions workflow \.github\/workflows\/publish\.yml/)]);
	expect(refusal[0]).toContain(`git tag v${version} && git push origin v${version}`);
	expect(checkPublish(ROOT, { ...ACTIONS, GITHUB_WORKFLOW_REF: 'vendor-cloud/n8n-nodes-vendor-cloud/.github/workflows/ci.yml@refs/heads/main' })).toEqual([
		expect.stringMatching(/^npm publish is refused in the workflow "vendor-cloud\/n8n-nodes-vendor-cloud\/\.github\/workflows\/ci\.yml@refs\/heads\/main"/),
	]);
	expect(checkPublish(ROOT, { ...ACTIONS, GITHUB_REF_TYPE: 'branch', GITHUB_REF: 'refs/heads/main' })).toEqual([expect.stringMatching(/^npm publish runs only for a tag push, not for refs\/heads\/main/)]);
	expect(checkPublish(ready.dir, { ...ACTIONS, GITHUB_REF_NAME: 'v0.0.1' })).toEqual([expect.stringMatching(/^the tag "v0\.0\.1" does not match/)]);
});

test('the CLI exits 1 with the message on a mismatching tag, 0 on the right one', async () => {
	const bad = await run(process.execPath, [path.join(ROOT, 'scripts/release-guard.js'), '--tag', 'v0.0.1'], { cwd: ROOT, env: process.env });
	expect(bad.code).toBe(1);
	expect(bad.output).toMatch(/release-guard: the tag "v0\.0\.1" does not match package\.json's version/);
	const good = await run(process.execPath, [path.join(ready.dir, 'scripts/release-guard.js'), '--tag', `v${version}`], { cwd: ready.dir, env: process.env });
	expect(good.code).toBe(0);
	expect(good.output).toContain(`release-guard: v${version} may be published`);
});

describe('npm publish from a laptop (a registry on 127.0.0.1 with a token, no CI environment)', () => {
	let server;
	let registry;
	const received = [];
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			received.push(`${req.method} ${req.url}`);
			req.resume();
			req.on('end', () => {
				res.writeHead(req.method === 'GET' ? 404 : 500, { 'content-type': 'application/json' });
				res.end('{"error":"not found"}');
			});
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		registry = `http://127.0.0.1:${server.address().port}/`;
	});
	afterAll(() => server.close());
	// a laptop: no GITHUB_ACTIONS, CI or any other CI's variables
	const laptop = () => ({ PATH: process.env.PATH, HOME: process.env.HOME });
	const publish = (extra) =>
		run('npm', ['publish', `--registry=${registry}`, `--${registry.replace(/^http:/, '')}:_authToken=not-a-real-token`, ...extra], { cwd: ROOT, env: laptop() });

	test('plain npm publish (this project skips scripts: .npmrc) is refused by npm: publishConfig.provenance cannot be signed outside CI', async () => {
		const r = await publish([]);
		expect(r.code).not.toBe(0);
		expect(r.output).toMatch(/npm error Automatic provenance generation not supported for provider: null/);
		expect(received.filter((l) => !l.startsWith('GET '))).toEqual([]);
	});

	test('npm publish with scripts on stops in prepublishOnly with the way to release', async () => {
		const r = await publish(['--ignore-scripts=false']);
		expect(r.code).not.toBe(0);
		expect(r.output).toContain('> node scripts/release-guard.js');
		expect(r.output).toMatch(/release-guard: npm publish is refused outside GitHub Actions\. .*published only by the GitHub Actions workflow \.github\/workflows\/publish\.yml, with npm provenance/);
		expect(received.filter((l) => !l.startsWith('GET '))).toEqual([]);
	});
});

function run(cmd, args, { cwd, env }) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}

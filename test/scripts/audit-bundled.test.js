'use strict';
/**
 * What the package bundles is declared and audited (issue 34, item 4):
 *  - dist/THIRD_PARTY_NOTICES.md, written by the build, names every package bundled into dist/ at
 *    the version the bundle holds, with its licence text, and ships in the tarball;
 *  - scripts/audit-bundled.js runs npm's own audit on exactly those versions and fails on a known
 *    advisory, but tells a registry it could not ask apart from a finding (an outage warns, and
 *    fails only with --strict, as a release runs it).
 * The registry here is a stand-in on 127.0.0.1 that answers npm's bulk advisory endpoint as the
 * npm registry does, so every outcome is played without the network.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawn, spawnSync } = require('node:child_process');
const { bundledPackages, packageDirOf } = require('../../scripts/bundled');
const { freePort } = require('../../scripts/free-port');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const SCRIPT = path.join(ROOT, 'scripts', 'audit-bundled.js');

jest.setTimeout(120000);

/** A stand-in registry: `advisories` answers the bulk endpoint (or a status), packuments for GETs. */
async function standIn({ advisories = {}, status = 200 } = {}) {
	const asked = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			let body = Buffer.concat(chunks);
			if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
			if (req.method === 'POST' && req.url.startsWith('/-/npm/v1/security/advisories/bulk')) {
				asked.push(JSON.parse(body.toString('utf8')));
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(status === 200 ? JSON.stringify(advisories) : '{"error":"unavailable"}');
				return;
			}
			if (req.method === 'GET') {
				// a packument: the versions bundled, and one later, as the registry lists them
				const name = decodeURIComponent(req.url.slice(1));
				const bundled = bundledPackages(DIST).filter((p) => p.name === name).map((p) => p.version);
				const versions = [...bundled, '99.0.0'];
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ name, 'dist-tags': { latest: '99.0.0' }, versions: Object.fromEntries(versions.map((v) => [v, { name, version: v }])) }));
				return;
			}
			res.writeHead(404).end('{}');
		});
	});
	const port = await freePort();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${port}/`, asked, close: () => new Promise((resolve) => server.close(resolve)) };
}

let cache;
beforeAll(() => {
	cache = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bundled-cache-'));
});
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

/** Runs the script (async: the stand-in registry answers in this process). */
function run(args, extraEnv = {}) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [SCRIPT, ...args], { env: { ...process.env, npm_config_cache: cache, GITHUB_ACTIONS: '', ...extraEnv } });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('close', (status) => resolve({ status, out }));
	});
}

const FXP = () => bundledPackages(DIST).find((p) => p.name === 'fast-xml-parser');

test('the bundled packages are read from the bundles: fast-xml-parser and what it pulls in, at their installed versions', () => {
	const packages = bundledPackages(DIST);
	const installed = (dir) => JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).version;
	expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(['fast-xml-parser', 'strnum']));
	for (const p of packages) {
		expect(p.version).toBe(installed(p.dir));
		expect(p.usedBy).toEqual(['nodes/shared/storage/xml.js']);
	}
	expect(packageDirOf('../../../node_modules/a/node_modules/@s/b/lib/x.js')).toBe('node_modules/a/node_modules/@s/b');
	expect(packageDirOf('../../nodes/shared/storage/xml.ts')).toBeNull();
});

test('dist/THIRD_PARTY_NOTICES.md names each bundled package with its licence text, and ships in the tarball', () => {
	const notices = fs.readFileSync(path.join(DIST, 'THIRD_PARTY_NOTICES.md'), 'utf8');
	for (const p of bundledPackages(DIST)) {
		expect(notices).toContain(`| ${p.name} | ${p.version} | ${p.license} |`);
		expect(notices).toContain(`## ${p.name} ${p.version}`);
		for (const f of p.files) expect(notices).toContain(f.text);
	}
	expect(notices).toContain('Copyright (c) 2017 Amit Kumar Gupta'); // fast-xml-parser's LICENSE
	const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	expect(JSON.parse(r.stdout)[0].files.map((f) => f.path)).toContain('dist/THIRD_PARTY_NOTICES.md');
});

test('a known advisory against a bundled version fails the audit, naming package, version, advisory and fix', async () => {
	const fxp = FXP();
	const registry = await standIn({
		advisories: {
			'fast-xml-parser': [{ id: 1001, url: 'https://github.com/advisories/GHSA-test-0001', title: 'Entity expansion', severity: 'high', vulnerable_versions: `<=${fxp.version}`, cwe: [], cvss: { score: 7.5, vectorString: null } }],
		},
	});
	try {
		const r = await run(['--registry', registry.url]);
		expect(r.status).toBe(1);
		expect(r.out).toContain(`ADVISORY  fast-xml-parser@${fxp.version} (bundled): high: Entity expansion https://github.com/advisories/GHSA-test-0001 (affected <=${fxp.version}; fix: fast-xml-parser@99.0.0)`);
		expect(r.out).toMatch(/bundled packages: 1 known advisory/);
		// npm asked about exactly the bundled versions
		expect(registry.asked).toEqual([Object.fromEntries(bundledPackages(DIST).map((p) => [p.name, [p.version]]))]);
		expect((await run(['--strict', '--registry', registry.url])).status).toBe(1);
	} finally {
		await registry.close();
	}
});

test('an advisory for other versions, or none, passes', async () => {
	const registry = await standIn({
		advisories: { 'fast-xml-parser': [{ id: 1002, url: 'https://github.com/advisories/GHSA-test-0002', title: 'Old bug', severity: 'moderate', vulnerable_versions: '<1.0.0', cwe: [], cvss: { score: 5, vectorString: null } }] },
	});
	try {
		const r = await run(['--strict', '--registry', registry.url]);
		expect(r).toEqual({ status: 0, out: expect.stringMatching(/^bundled packages: no known advisory \(npm audit of \d+: .*fast-xml-parser@/) });
	} finally {
		await registry.close();
	}
});

test('a registry that cannot be asked is no finding: a warning in CI, a failure only with --strict', async () => {
	const down = await standIn({ status: 503 });
	try {
		const r = await run(['--registry', down.url], { GITHUB_ACTIONS: 'true' });
		expect(r.status).toBe(0);
		expect(r.out).toMatch(/^::warning title=Bundled packages not audited::bundled packages NOT CHECKED: the registry could not be asked/m);
		expect(r.out).toContain('not a finding: the run goes on');
		const strict = await run(['--strict', '--registry', down.url]);
		expect(strict.status).toBe(2);
		expect(strict.out).toContain('strict (a release): failing; run again once the registry answers');
	} finally {
		await down.close();
	}
	// nothing listening at all
	const port = await freePort();
	const refused = await run(['--registry', `http://127.0.0.1:${port}/`]);
	expect(refused.status).toBe(0);
	expect(refused.out).toMatch(/NOT CHECKED: the registry could not be asked for advisories \(.*ECONNREFUSED/);
});

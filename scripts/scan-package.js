#!/usr/bin/env node
'use strict';
/**
 * `npm run scan [-- <package dir>]`: n8n's verification scanner over this package, the way n8n
 * runs it before listing a community node as verified.
 *
 * n8n runs `npx @n8n/scan-community-package n8n-nodes-vendor-cloud`, i.e. analyzePackageByName():
 *   1. the version's registry metadata must carry an npm provenance attestation
 *      (dist.attestations.provenance, predicate https://slsa.dev/provenance/v1), else it stops
 *      with "Package was not published with npm provenance";
 *   2. the attestation names the GitHub repository and commit; the scanner downloads that source
 *      (codeload.github.com) and finds the folder whose package.json has the package's name;
 *   3. it downloads the tarball (`npm pack <name>@<version>`);
 *   4. analyzePackage(source, SOURCE_FILE_PATTERNS) and analyzePackage(tarball,
 *      ['**\/*.js', 'package.json']): ESLint with n8n's community rules (no runtime
 *      dependencies, no forbidden lifecycle scripts, no restricted globals/imports, ...).
 *
 * Here the package is not on npm, so this script serves it from 127.0.0.1 as the registry and
 * GitHub would (scripts/scan-harness.mjs rewrites the scanner's requests; nothing else is
 * faked) and runs analyzePackageByName twice on the tarball `npm pack` makes of <dir>:
 *   A. "as packed here": registry metadata without provenance, as a publish from a laptop would
 *      leave it. Must fail with exactly the missing provenance (proves that check is wired).
 *   B. "as published by .github/workflows/publish.yml": the same metadata plus a provenance
 *      attestation shaped like the one npm records for a GitHub Actions publish (the scanner
 *      checks its presence and predicate type, not its signature), naming the repository of
 *      package.json and a source archive of <dir> (the files git would commit). Must pass:
 *      every other check the scanner makes.
 * The real attestation exists only once publish.yml has run; `npx @n8n/scan-community-package
 * n8n-nodes-vendor-cloud` then runs the same code against npm and GitHub.
 *
 * The scanner (pinned) is installed on first use into .cache/scan-community-package/<version>/
 * with `npm install --ignore-scripts` (one of its dependencies runs `only-allow pnpm` at
 * install), not as a devDependency. Only the npm registry needs to be reachable.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const SCANNER = '@n8n/scan-community-package';
const SCANNER_VERSION = '0.32.0';
const ROOT = path.resolve(__dirname, '..');
const PROVENANCE_PREDICATE = 'https://slsa.dev/provenance/v1';
const NO_PROVENANCE = 'Package was not published with npm provenance';
const EXCLUDE = new Set(['node_modules', '.git', '.cache', 'dist', 'coverage', '.sandbox', 'test-results']);

function log(line) {
	process.stdout.write(`${line}\n`);
}

/** Installs the pinned scanner once; returns the path of its scanner/scanner.mjs. */
function ensureScanner({ cacheRoot = path.join(ROOT, '.cache') } = {}) {
	const dir = path.join(cacheRoot, 'scan-community-package', SCANNER_VERSION);
	const pkgDir = (d) => path.join(d, 'node_modules', ...SCANNER.split('/'));
	const ready = (d) => {
		try {
			return fs.existsSync(path.join(d, 'installed.json')) && require(path.join(pkgDir(d), 'package.json')).version === SCANNER_VERSION;
		} catch {
			return false;
		}
	};
	if (!ready(dir)) {
		const tmp = `${dir}.tmp-${process.pid}`;
		fs.rmSync(tmp, { recursive: true, force: true });
		fs.mkdirSync(tmp, { recursive: true });
		log(`scan: installing ${SCANNER}@${SCANNER_VERSION} into ${path.relative(ROOT, dir)} (npm install --ignore-scripts) ...`);
		const t0 = Date.now();
		const r = spawnSync(
			'npm',
			['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', tmp, `${SCANNER}@${SCANNER_VERSION}`],
			{ cwd: tmp, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
		);
		if (r.status !== 0) {
			fs.rmSync(tmp, { recursive: true, force: true });
			throw new Error(`npm install ${SCANNER}@${SCANNER_VERSION} failed (exit ${r.status}):\n${String(r.stderr).slice(-3000)}`);
		}
		fs.writeFileSync(path.join(tmp, 'installed.json'), JSON.stringify({ package: SCANNER, version: SCANNER_VERSION, at: new Date().toISOString() }));
		try {
			fs.rmSync(dir, { recursive: true, force: true });
			fs.renameSync(tmp, dir);
		} catch (e) {
			// another process installed it meanwhile
			fs.rmSync(tmp, { recursive: true, force: true });
			if (!ready(dir)) throw e;
		}
		log(`scan: installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	}
	return path.join(pkgDir(dir), 'scanner', 'scanner.mjs');
}

/** `npm pack` of `dir` into `dest`: { file, integrity, shasum, manifest }. */
function pack(dir, dest) {
	const r = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (r.status !== 0) throw new Error(`npm pack failed in ${dir} (exit ${r.status}):\n${String(r.stderr).slice(-2000)}`);
	const info = JSON.parse(r.stdout)[0];
	const file = path.join(dest, info.filename);
	const data = fs.readFileSync(file);
	const manifest = JSON.parse(spawnSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).stdout);
	return {
		file,
		files: info.entryCount,
		integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}`,
		shasum: crypto.createHash('sha1').update(data).digest('hex'),
		manifest,
	};
}

/** The files GitHub's archive of a commit of `dir` would hold: what git tracks or would add. */
function sourceFiles(dir) {
	const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (git.status === 0 && fs.existsSync(path.join(dir, '.git'))) {
		return git.stdout.split('\0').filter((f) => f && fs.existsSync(path.join(dir, f)) && fs.statSync(path.join(dir, f)).isFile());
	}
	const out = [];
	const walk = (rel) => {
		for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
			if (EXCLUDE.has(e.name) || e.name.endsWith('.tgz') || /^\.dist-build-|^dist\.old-/.test(e.name)) continue;
			const r = rel ? `${rel}/${e.name}` : e.name;
			if (e.isDirectory()) walk(r);
			else if (e.isFile()) out.push(r);
		}
	};
	walk('');
	return out;
}

/** A tar.gz like codeload.github.com/<owner>/<repo>/tar.gz/<sha>: one top folder. */
function sourceArchive(dir, dest, { repo }) {
	const files = sourceFiles(dir);
	const list = path.join(dest, 'source-files.txt');
	fs.writeFileSync(list, files.join('\n'));
	const tmpTar = path.join(dest, 'source.tgz');
	const r = spawnSync('tar', ['-czf', tmpTar, '-C', dir, '--transform', `s,^,${repo}-src/,`, '-T', list], { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`tar of the source failed: ${r.stderr}`);
	const data = fs.readFileSync(tmpTar);
	return { data, files: files.length, sha: crypto.createHash('sha1').update(data).digest('hex') };
}

/** owner/repo of package.json's repository.url, as npm's provenance would name it. */
function repository(manifest) {
	const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url || '';
	const m = url.match(/github\.com[/:]([^/]+)\/([^/#]+?)(?:\.git)?\/?$/);
	return m ? { owner: m[1], repo: m[2], url: `https://github.com/${m[1]}/${m[2]}` } : { owner: 'unknown', repo: 'unknown', url };
}

function provenanceStatement({ name, version, integrity, repo, sha }) {
	return {
		_type: 'https://in-toto.io/Statement/v1',
		subject: [{ name: `pkg:npm/${name.replace('@', '%40')}@${version}`, digest: { sha512: Buffer.from(integrity.slice(7), 'base64').toString('hex') } }],
		predicateType: PROVENANCE_PREDICATE,
		predicate: {
			buildDefinition: {
				buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
				externalParameters: { workflow: { ref: `refs/tags/v${version}`, repository: repo.url, path: '.github/workflows/publish.yml' } },
				internalParameters: { github: { event_name: 'push' } },
				resolvedDependencies: [{ uri: `git+${repo.url}@refs/tags/v${version}`, digest: { gitCommit: sha } }],
			},
			runDetails: { builder: { id: 'https://github.com/actions/runner/github-hosted' } },
		},
	};
}

/** The local registry + codeload. Legs are path prefixes: /<leg>/registry/..., /<leg>/codeload/... */
function startServer(legs) {
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url.replace(/\/{2,}/g, '/'));
		const [, legName, kind, ...rest] = url.split('/');
		const leg = legs[legName];
		const send = (status, body, type = 'application/json') => {
			res.writeHead(status, { 'content-type': type });
			res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
		};
		if (!leg || req.method !== 'GET') return send(404, { error: 'not found' });
		leg.requests.push(`${kind}/${rest.join('/')}`);
		const tail = rest.join('/');
		if (kind === 'registry') {
			if (tail === leg.name) return send(200, leg.packument);
			if (tail === `${leg.name}/-/${path.basename(leg.tarball)}`) return send(200, fs.readFileSync(leg.tarball), 'application/octet-stream');
			if (tail === `-/npm/v1/attestations/${leg.name}@${leg.version}` && leg.attestations) return send(200, leg.attestations);
		}
		if (kind === 'codeload' && leg.source && tail === `${leg.repo.owner}/${leg.repo.repo}/tar.gz/${leg.source.sha}`) {
			return send(200, leg.source.data, 'application/x-gzip');
		}
		return send(404, { error: 'not found' });
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function runHarness({ scannerFile, leg, base, work }) {
	// NODE_ENV=test (jest sets it) switches eslint-plugin-n8n-nodes-base into its own test mode
	// (file name rules expect its fixtures' names): n8n never runs the scanner so.
	const { NODE_ENV, ...inherited } = process.env;
	const env = {
		...inherited,
		SCANNER_FILE: scannerFile,
		SCAN_PACKAGE: leg.name,
		SCAN_VERSION: leg.version,
		SCAN_REGISTRY_BASE: `${base}/${leg.id}/registry/`,
		SCAN_CODELOAD_BASE: `${base}/${leg.id}/codeload/`,
		// the scanner's `npm pack <name>@<version>`
		npm_config_registry: `${base}/${leg.id}/registry/`,
		npm_config_cache: path.join(work, `npm-cache-${leg.id}`),
		npm_config_update_notifier: 'false',
		// anything that escaped the rewrite must not reach a real server
		HTTPS_PROXY: 'http://127.0.0.1:9',
		https_proxy: 'http://127.0.0.1:9',
		NO_PROXY: '127.0.0.1',
		no_proxy: '127.0.0.1',
		TMPDIR: fs.mkdtempSync(path.join(work, `tmp-${leg.id}-`)),
	};
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(__dirname, 'scan-harness.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (err += d));
		child.on('error', reject);
		child.on('close', (code) => {
			const m = out.match(/\n@@RESULT (.*)\n?$/);
			if (!m) return reject(new Error(`scanner process exited ${code} without a result:\n${out}\n${err}`));
			resolve({ result: JSON.parse(m[1]), output: out.slice(0, m.index).trim(), stderr: err.trim() });
		});
	});
}

/**
 * Scans the package in `dir` (built: dist/ present). Resolves to
 * { ok, problems, legs: { unattested, attested } }; `problems` names what n8n's scanner refused.
 */
async function scanPackage(dir, { cacheRoot, print = log } = {}) {
	const scannerFile = ensureScanner({ cacheRoot });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-scan-'));
	let server;
	try {
		const packed = pack(dir, work);
		const { name, version } = packed.manifest;
		const repo = repository(packed.manifest);
		const source = sourceArchive(dir, work, repo);
		print(`scan: ${SCANNER}@${SCANNER_VERSION} on ${path.basename(packed.file)} (${packed.files} files, ${packed.integrity.slice(0, 20)}...)`);
		const baseDist = { shasum: packed.shasum, integrity: packed.integrity };
		const makeLeg = (id, attested) => {
			const registryBase = `${base}/${id}/registry`;
			const versionDoc = {
				...packed.manifest,
				_id: `${name}@${version}`,
				dist: {
					...baseDist,
					tarball: `${registryBase}/${name}/-/${path.basename(packed.file)}`,
					...(attested ? { attestations: { url: `https://registry.npmjs.org/-/npm/v1/attestations/${name}@${version}`, provenance: { predicateType: PROVENANCE_PREDICATE } } } : {}),
				},
			};
			const statement = provenanceStatement({ name, version, integrity: packed.integrity, repo, sha: source.sha });
			return {
				id,
				name,
				version,
				repo,
				tarball: packed.file,
				requests: [],
				packument: { _id: name, name, 'dist-tags': { latest: version }, versions: { [version]: versionDoc } },
				attestations: attested
					? {
							attestations: [
								{ predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1', bundle: {} },
								{
									predicateType: PROVENANCE_PREDICATE,
									bundle: {
										mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
										dsseEnvelope: { payloadType: 'application/vnd.in-toto+json', payload: Buffer.from(JSON.stringify(statement)).toString('base64'), signatures: [] },
									},
								},
							],
						}
					: null,
				source: attested ? source : null,
			};
		};
		const legs = {};
		server = await startServer(legs);
		const base = `http://127.0.0.1:${server.address().port}`;
		legs.unattested = makeLeg('unattested', false);
		legs.attested = makeLeg('attested', true);

		const problems = [];
		const ok = [];
		const a = await runHarness({ scannerFile, leg: legs.unattested, base, work });
		print(`\nA. as packed here, without provenance (a publish from anywhere but publish.yml):\n${indent(a.output)}`);
		print(`   scanner result: ${a.result.passed ? 'passed' : `failed: ${a.result.message}`}`);
		if (a.result.passed || !String(a.result.message).startsWith(NO_PROVENANCE) || a.result.details) {
			problems.push(`without provenance the scanner should refuse exactly the missing provenance, but it said: ${a.result.passed ? 'passed' : a.result.message}`);
		} else ok.push(`without provenance: refused for exactly that ("${NO_PROVENANCE}")`);

		const b = await runHarness({ scannerFile, leg: legs.attested, base, work });
		print(`\nB. as published by .github/workflows/publish.yml (stand-in attestation for github.com/${repo.owner}/${repo.repo}, source archive of ${source.files} files):\n${indent(b.output)}`);
		print(`   scanner result: ${b.result.passed ? 'passed' : `failed: ${b.result.message}`}`);
		if (b.result.details) print(indent(b.result.details.trim()));
		const served = legs.attested.requests;
		if (!b.result.passed) problems.push(`n8n's scanner refused the package: ${b.result.message}${b.result.details ? `\n${b.result.details.trim()}` : ''}`);
		else if (!served.some((r) => r.startsWith('codeload/')) || !served.some((r) => r.endsWith('.tgz'))) {
			problems.push(`the scanner passed without downloading the source and the tarball (requests: ${served.join(', ')})`);
		} else ok.push(`with provenance: provenance, source (${source.files} files) and tarball (${packed.files} files) checks passed`);
		print(`\nscan: ${problems.length ? 'FAILED' : 'passed'}`);
		return { ok, problems, legs: { unattested: a, attested: b }, served: { unattested: legs.unattested.requests, attested: served } };
	} finally {
		server?.close();
		fs.rmSync(work, { recursive: true, force: true });
	}
}

function indent(text) {
	return String(text)
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => `   ${l.trim()}`)
		.join('\n');
}

module.exports = { scanPackage, ensureScanner, SCANNER, SCANNER_VERSION, NO_PROVENANCE };

if (require.main === module) {
	const dir = path.resolve(process.argv[2] || ROOT);
	scanPackage(dir).then(
		({ problems }) => {
			for (const p of problems) process.stdout.write(`FAIL  ${p}\n`);
			process.exit(problems.length ? 1 : 0);
		},
		(e) => {
			process.stderr.write(`scan crashed: ${e.stack}\n`);
			process.exit(2);
		},
	);
}

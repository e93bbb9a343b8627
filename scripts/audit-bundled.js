#!/usr/bin/env node
'use strict';
/**
 * `npm run audit:bundled [-- --strict] [-- --registry <url>]`: known advisories against the
 * packages bundled into dist/ (scripts/bundled.js), at exactly the versions the bundle holds.
 *
 * The published package has no dependencies for `npm audit` to see: what it runs of third
 * parties is inlined into dist/ by the build. So this writes a throw-away project whose lockfile
 * holds just those packages, at their folders and versions (and integrity) from package-lock.json,
 * and runs the registry's own `npm audit --json` on it.
 *
 * Outcomes, told apart so that an outage of the registry does not look like a finding:
 *   exit 0  the registry answered and knows no advisory for any bundled version;
 *   exit 1  the registry answered with advisories: each is printed (package, version, severity,
 *           title, address, affected range, fix) and the run fails: npm test, CI and a release;
 *   exit 0  the registry could not be asked (no connection, HTTP 5xx, an endpoint refused, an
 *           answer that is no audit report): printed as NOT CHECKED, with a GitHub Actions warning
 *           annotation when run there, so a registry outage does not fail CI;
 *   exit 2  the same with --strict (publish.yml): a release is not published unaudited, and
 *           re-running the workflow once the registry answers publishes it.
 *
 * test/scripts/audit-bundled.test.js runs it against a local stand-in registry for each outcome.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { bundledPackages } = require('./bundled');

const ROOT = path.resolve(__dirname, '..');

/** The throw-away project: package.json and a lockfile with the bundled packages only. */
function writeProject(dir, packages, rootLock) {
	const lockPackages = rootLock?.packages ?? {};
	const top = packages.filter((p) => p.dir.split('node_modules/').length === 2);
	const dependencies = Object.fromEntries(top.map((p) => [p.name, p.version]));
	const name = 'n8n-nodes-vendor-cloud-bundled';
	const lock = { name, version: '0.0.0', lockfileVersion: 3, requires: true, packages: { '': { name, version: '0.0.0', dependencies } } };
	for (const p of packages) {
		const entry = { version: p.version };
		const known = lockPackages[p.dir];
		if (known?.version === p.version) {
			if (known.resolved) entry.resolved = known.resolved;
			if (known.integrity) entry.integrity = known.integrity;
			if (known.dependencies) entry.dependencies = known.dependencies;
		}
		lock.packages[p.dir] = entry;
	}
	fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '0.0.0', private: true, dependencies }, null, 2)}\n`);
	fs.writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** Runs `npm audit --json` on the bundled packages: { kind: 'clean' | 'advisories' | 'unchecked', ... }. */
function auditBundled({ distDir = path.join(ROOT, 'dist'), root = ROOT, registry, env = process.env } = {}) {
	const packages = bundledPackages(distDir, root);
	if (!packages.length) return { kind: 'clean', packages, advisories: [] };
	const lockFile = path.join(root, 'package-lock.json');
	const rootLock = fs.existsSync(lockFile) ? JSON.parse(fs.readFileSync(lockFile, 'utf8')) : null;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bundled-'));
	try {
		writeProject(dir, packages, rootLock);
		const args = ['audit', '--json', '--audit-level=low', '--no-update-notifier'];
		if (registry) args.push('--registry', registry);
		const r = spawnSync('npm', args, { cwd: dir, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, timeout: 180000 });
		let report;
		try {
			report = JSON.parse(r.stdout);
		} catch {
			return { kind: 'unchecked', packages, why: `npm audit gave no report (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${String(r.stderr).trim().split('\n').slice(-2).join(' ')}` };
		}
		if (!report || typeof report !== 'object' || !report.vulnerabilities || !report.metadata?.vulnerabilities) {
			const why = report?.message || report?.error?.summary || 'an answer that is no audit report';
			return { kind: 'unchecked', packages, why: String(why) };
		}
		const advisories = [];
		for (const v of Object.values(report.vulnerabilities)) {
			for (const via of v.via ?? []) {
				if (typeof via !== 'object') continue; // "via" a package name: reported under that package
				const bundled = packages.filter((p) => p.name === via.name);
				advisories.push({
					name: via.name,
					versions: bundled.map((p) => p.version),
					severity: via.severity,
					title: via.title,
					url: via.url,
					range: via.range,
					fix: typeof v.fixAvailable === 'object' ? `${v.fixAvailable.name}@${v.fixAvailable.version}` : v.fixAvailable ? 'available' : 'none known',
				});
			}
		}
		return advisories.length ? { kind: 'advisories', packages, advisories } : { kind: 'clean', packages, advisories };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

function main() {
	const argv = process.argv.slice(2);
	const strict = argv.includes('--strict');
	const at = argv.indexOf('--registry');
	const registry = at >= 0 ? argv[at + 1] : undefined;
	const distDir = path.join(ROOT, 'dist');
	if (!fs.existsSync(path.join(distDir, 'nodes'))) {
		process.stderr.write('dist/ is missing: run npm run build first\n');
		process.exit(2);
	}
	const result = auditBundled({ distDir, registry });
	const list = result.packages.map((p) => `${p.name}@${p.version}`).join(', ');
	if (result.kind === 'clean') {
		process.stdout.write(`bundled packages: no known advisory (npm audit of ${result.packages.length}: ${list})\n`);
		process.exit(0);
	}
	if (result.kind === 'advisories') {
		for (const a of result.advisories) {
			process.stdout.write(`ADVISORY  ${a.name}@${a.versions.join(', ')} (bundled): ${a.severity}: ${a.title} ${a.url} (affected ${a.range}; fix: ${a.fix})\n`);
		}
		process.stdout.write(`\nbundled packages: ${result.advisories.length} known advisor${result.advisories.length === 1 ? 'y' : 'ies'}: raise each to a fixed version (docs/developers/releasing.md), rebuild, run again\n`);
		process.exit(1);
	}
	const line = `bundled packages NOT CHECKED: the registry could not be asked for advisories (${result.why}); ${result.packages.length} packages: ${list}`;
	if (process.env.GITHUB_ACTIONS === 'true') process.stdout.write(`::warning title=Bundled packages not audited::${line.replace(/\r?\n/g, ' ')}\n`);
	process.stdout.write(`${line}\n${strict ? 'strict (a release): failing; run again once the registry answers\n' : 'not a finding: the run goes on (--strict fails here)\n'}`);
	process.exit(strict ? 2 : 0);
}

module.exports = { auditBundled, writeProject };

if (require.main === module) main();

'use strict';
/**
 * The runtime install's progress line (scripts/n8n-runtime.js npmProgress) moves whenever npm
 * works: tarballs npm takes from its own cache count (a warm cache logs "http cache … (cache
 * hit)", never "http fetch … .tgz": the old counter stood at "0 tarballs downloaded" for
 * minutes), and so do package folders appearing and bytes npm writes. A fake clock drives it;
 * the bytes come from a real child process read through /proc.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { npmProgress } = require('../../scripts/n8n-runtime');

// lines as npm 11 prints them with --loglevel=http (from a real install.log of this runtime)
const DOC = (name) => `npm http fetch GET 200 https://registry.npmjs.org/${name} 157ms (cache miss)`;
const HIT = (name, v) => `npm http cache ${name}@https://registry.npmjs.org/${name}/-/${name.replace(/^@[^/]+\//, '')}-${v}.tgz 0ms (cache hit)`;
const GOT = (name, v) => `npm http fetch GET 200 https://registry.npmjs.org/${name}/-/${name.replace(/^@[^/]+\//, '')}-${v}.tgz 70526ms (cache miss)`;

const withProc = fs.existsSync('/proc/self/io') ? test : test.skip;

withProc('counts documents, tarballs from the cache and downloaded, folders and bytes; says what npm is doing', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-progress-'));
	const nodeModules = path.join(dir, 'node_modules');
	let clock = 1_000_000;
	const progress = npmProgress({ nodeModules, now: () => clock });
	// stands in for npm: writes 8 MB into the folder when told to, says so, then idles until killed
	const script = `process.stdin.once('data', () => { require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'blob'))}, Buffer.alloc(8e6)); console.log('written'); }); setInterval(() => {}, 1000)`;
	const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'] });
	try {
		progress.attach(child);
		expect(progress.report()).toMatch(/^ {2}npm install 0s: resolving the dependency tree: 0 of about 1700 registry documents read/);

		clock += 10000;
		for (const n of ['n8n', '@n8n/config', 'sqlite3']) progress.line(DOC(n));
		progress.line('npm warn EBADENGINE Unsupported engine {');
		let line = progress.report();
		expect(line).toMatch(/npm install 10s: resolving the dependency tree: 3 of about 1700 registry documents read, \d+ MB written to npm's cache; npm CPU \S+; last: read the registry document of sqlite3$/);

		// a warm cache: tarballs only ever appear as "http cache ... (cache hit)"
		clock += 10000;
		progress.line(HIT('is-network-error', '1.3.2'));
		progress.line(HIT('@n8n/config', '2.40.0'));
		progress.line(GOT('n8n-nodes-base', '2.40.2'));
		progress.line(GOT('n8n-nodes-base', '2.40.2')); // the same tarball twice counts once
		fs.mkdirSync(path.join(nodeModules, 'is-network-error'), { recursive: true });
		fs.mkdirSync(path.join(nodeModules, '@n8n', 'config'), { recursive: true });
		fs.mkdirSync(path.join(nodeModules, '@n8n', 'errors'), { recursive: true });
		fs.mkdirSync(path.join(nodeModules, '.bin'), { recursive: true });
		line = progress.report();
		expect(line).toMatch(
			/npm install 20s: unpacking into node_modules: 3 of about 1900 tarballs under way \(2 from npm's cache, 1 downloaded\), 0 MB read, 0 MB of about 2\.30 GB written, 3 package folders; npm CPU \S+; last: downloaded n8n-nodes-base-2\.40\.2\.tgz$/,
		);

		// no new log line for 15 s, but npm writes: the bytes move, and nothing says it is stuck
		child.stdin.write('go\n');
		await new Promise((resolve) => child.stdout.once('data', resolve));
		clock += 15000;
		line = progress.report();
		const written = Number(/tarballs under way \(2 from npm's cache, 1 downloaded\), \d+ MB read, (\d+) MB of about 2\.30 GB written, 3 package folders; npm CPU \S+$/.exec(line)?.[1]);
		expect(written).toBeGreaterThanOrEqual(8);

		// nothing at all for 15 s: it says so, and for how long
		clock += 15000;
		line = progress.report();
		expect(line).toMatch(/; nothing moved for 15s \(npm is waiting, for the registry or the disk\)$/);
		expect(progress.counts()).toEqual({ docs: 3, tarballs: 3, fromCache: 2, downloaded: 1 });
	} finally {
		child.kill();
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

// The install of 2026-11-25 printed "1901 of about 1900 tarballs" with the same figures for 50 s
// while npm linked the packages' commands and wrote its lockfile: each beat of that phase says so
// and what moved since the line before.
withProc('after the last tarball each beat names the finishing work and what moved since the line before', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-progress-'));
	const nodeModules = path.join(dir, 'node_modules');
	let clock = 1_000_000;
	const progress = npmProgress({ nodeModules, now: () => clock, expected: { docs: 2, tarballs: 3, bytes: 1e6 } });
	const script = `process.stdin.on('data', () => { require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'blob'))}, Buffer.alloc(4e6)); console.log('written'); }); setInterval(() => {}, 1000)`;
	const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'] });
	const write = async () => {
		child.stdin.write('go\n');
		await new Promise((resolve) => child.stdout.once('data', resolve));
	};
	try {
		progress.attach(child);
		for (const n of ['a', 'b']) progress.line(DOC(n));
		clock += 5000;
		for (const [n, v] of [['a', '1.0.0'], ['b', '2.0.0'], ['c', '3.0.0']]) progress.line(HIT(n, v));
		fs.mkdirSync(path.join(nodeModules, 'a'), { recursive: true });
		let line = progress.report();
		expect(line).toMatch(/unpacking into node_modules: 3 of about 3 tarballs under way/);

		// no tarball for a beat: the phase is named, with links made so far and what npm did since
		clock += 10000;
		fs.mkdirSync(path.join(nodeModules, '.bin'), { recursive: true });
		fs.writeFileSync(path.join(nodeModules, '.bin', 'a'), '');
		await write();
		const first = progress.report();
		expect(first).toMatch(
			/npm install 15s: finishing: no new tarball for 10s, 3 in \(3 from npm's cache, 0 downloaded\); linking commands \(1 in node_modules\/\.bin\), 1 package folders, lockfile not written yet; since the last line npm wrote (\d+) MB and used \S+ of CPU; npm CPU \S+$/,
		);
		expect(Number(/npm wrote (\d+) MB/.exec(first)[1])).toBeGreaterThanOrEqual(4);

		// ten seconds on: other figures, not the same line again
		clock += 10000;
		fs.writeFileSync(path.join(nodeModules, '.bin', 'b'), '');
		fs.writeFileSync(path.join(nodeModules, '.package-lock.json'), '{}');
		const second = progress.report();
		expect(second).toMatch(/npm install 25s: finishing: no new tarball for 20s, 3 in .*\(2 in node_modules\/\.bin\), 1 package folders, lockfile written; since the last line npm wrote 0 MB/);
		expect(second.replace(/^.*?: /, '')).not.toBe(first.replace(/^.*?: /, ''));
	} finally {
		child.kill();
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

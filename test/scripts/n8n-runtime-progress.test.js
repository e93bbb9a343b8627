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
		expect(progress.report()).toMatch(/^ {2}npm install, 0s in: npm is finding the packages n8n needs: 0 of about 1700 package descriptions read/);

		clock += 10000;
		for (const n of ['n8n', '@n8n/config', 'sqlite3']) progress.line(DOC(n));
		progress.line('npm warn EBADENGINE Unsupported engine {');
		let line = progress.report();
		// a sentence, with roughly how long is left at the pace so far
		expect(line).toMatch(
			/npm install, 10s in: npm is finding the packages n8n needs: 3 of about 1700 package descriptions read, about 94 min left at this pace, \d+ MB saved in its cache; npm has used \S+ of CPU; last it read the package description of sqlite3\.$/,
		);

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
			/npm install, 20s in: npm is downloading and unpacking n8n's packages: 3 of about 1900 \(2 from its cache, 1 downloaded\), 0 MB of about 2\.30 GB written \(0 MB read\), 3 package folders; npm has used \S+ of CPU; last it downloaded n8n-nodes-base-2\.40\.2\.tgz\.$/,
		);

		// no new log line for 15 s, but npm writes: the bytes move, and nothing says it is stuck
		child.stdin.write('go\n');
		await new Promise((resolve) => child.stdout.once('data', resolve));
		clock += 15000;
		line = progress.report();
		const written = Number(/3 of about 1900 \(2 from its cache, 1 downloaded\), (\d+) MB of about 2\.30 GB written \(\d+ MB read\), 3 package folders, about \d+ min left at this pace; npm has used \S+ of CPU\.$/.exec(line)?.[1]);
		expect(written).toBeGreaterThanOrEqual(8);

		// nothing at all for 15 s: it says so, and for how long
		clock += 15000;
		line = progress.report();
		expect(line).toMatch(/\. Nothing has moved for 15s: npm is waiting for the registry or the disk\.$/);
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
		expect(line).toMatch(/npm is downloading and unpacking n8n's packages: 3 of about 3 /);

		// no tarball for a beat: the phase is named, with links made so far and what npm did since
		clock += 10000;
		fs.mkdirSync(path.join(nodeModules, '.bin'), { recursive: true });
		fs.writeFileSync(path.join(nodeModules, '.bin', 'a'), '');
		await write();
		const first = progress.report();
		expect(first).toMatch(
			/npm install, 15s in: npm has all 3 packages \(3 from its cache, 0 downloaded\) and is finishing the install: 1 commands linked, 1 package folders, its lockfile not written yet; this last phase took 1 to 9 minutes in measured installs \(in the last seconds npm wrote (\d+) MB and used \S+ of CPU\); npm has used \S+ of CPU\.$/,
		);
		expect(Number(/npm wrote (\d+) MB/.exec(first)[1])).toBeGreaterThanOrEqual(4);

		// ten seconds on: other figures, not the same line again
		clock += 10000;
		fs.writeFileSync(path.join(nodeModules, '.bin', 'b'), '');
		fs.writeFileSync(path.join(nodeModules, '.package-lock.json'), '{}');
		const second = progress.report();
		expect(second).toMatch(/npm install, 25s in: npm has all 3 packages .* and is finishing the install: 2 commands linked, 1 package folders, its lockfile written; .*\(in the last seconds npm wrote 0 MB/);
		expect(second.replace(/^.*?: /, '')).not.toBe(first.replace(/^.*?: /, ''));
	} finally {
		child.kill();
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

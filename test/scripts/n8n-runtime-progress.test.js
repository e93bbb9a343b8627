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

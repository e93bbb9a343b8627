'use strict';
/**
 * Each node page's operation table (docs/nodes/<node>.md, between `<!-- operations:start -->` and
 * `<!-- operations:end -->`) is written from the built declarations by scripts/docs.js: the tables
 * must match the build, every action node must have its page, and anything written by hand
 * belongs outside the markers (docs.js would remove it there).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DOCS = path.join(ROOT, 'scripts', 'docs.js');

test('the node pages hold the operation tables scripts/docs.js writes from the build', () => {
	const r = spawnSync(process.execPath, [DOCS, '--check'], { encoding: 'utf8' });
	expect({ status: r.status, out: (r.stdout + r.stderr).trim() }).toEqual({
		status: 0,
		out: expect.stringMatching(/^operation tables are up to date \(6 node pages, \d+ operations, \d+ endpoints\)$/),
	});
});

test('a page whose table differs from the build, or that lost its markers, fails the check', () => {
	// a copy of the repository's docs.js, package.json and dist/ (linked) with pages changed on purpose
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'operation-tables-'));
	try {
		fs.mkdirSync(path.join(dir, 'scripts'));
		fs.copyFileSync(DOCS, path.join(dir, 'scripts', 'docs.js'));
		fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
		fs.symlinkSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'));
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
		fs.cpSync(path.join(ROOT, 'docs', 'nodes'), path.join(dir, 'docs', 'nodes'), { recursive: true });
		const page = (name) => path.join(dir, 'docs', 'nodes', name);
		fs.writeFileSync(page('vendor-dns.md'), fs.readFileSync(page('vendor-dns.md'), 'utf8').replace('| Record | Add |', '| Record | Insert |'));
		fs.writeFileSync(page('vendor-cdn.md'), fs.readFileSync(page('vendor-cdn.md'), 'utf8').replace('<!-- operations:end -->', ''));
		fs.rmSync(page('vendor-cloud-host.md'));
		const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'docs.js'), '--check'], { encoding: 'utf8' });
		expect(r.status).toBe(1);
		expect(r.stderr).toContain('docs/nodes/vendor-dns.md: the operation table is out of date');
		expect(r.stderr).toContain('docs/nodes/vendor-cdn.md has no "<!-- operations:start -->" ... "<!-- operations:end -->" markers');
		expect(r.stderr).toContain('docs/nodes/vendor-cloud-host.md (the page of Vendor Cloud Host) is missing');
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

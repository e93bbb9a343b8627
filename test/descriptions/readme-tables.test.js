'use strict';
/**
 * The README's operation tables are written from the built declarations (scripts/docs.js, between
 * `<!-- operations:start -->` and `<!-- operations:end -->`): they must match the build, and
 * anything written by hand belongs outside the markers (docs.js would remove it there).
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

test('README.md operation tables are those scripts/docs.js writes from the build', () => {
	const r = spawnSync(process.execPath, [path.join(__dirname, '../../scripts/docs.js'), '--check'], { encoding: 'utf8' });
	expect({ status: r.status, out: (r.stdout + r.stderr).trim() }).toEqual({ status: 0, out: expect.stringMatching(/^README\.md operation tables are up to date \(\d+ endpoints\)$/) });
});

'use strict';
/**
 * `npm start` skips the build when nothing it reads changed and dist/ is the one it built
 * (it rebuilt for about 23 s on every start). Shown on a small tree: the stamp of a build, then a
 * changed source, a changed dist/ and a missing dist/ each ask for a build again.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildIsCurrent, recordBuild } = require('../../scripts/start');

let root;
let stamp;
beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'start-build-'));
	stamp = path.join(root, '.sandbox', 'build-stamp.json');
	for (const [f, text] of Object.entries({ 'nodes/A/A.node.ts': 'export const a = 1;\n', 'credentials/C.credentials.ts': 'c\n', 'package.json': '{}\n', 'dist/nodes/A/A.node.js': 'exports.a = 1;\n' })) {
		fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
		fs.writeFileSync(path.join(root, f), text);
	}
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('no stamp: build; after a recorded build with nothing changed: skip', () => {
	expect(buildIsCurrent(root, stamp)).toBe(false);
	recordBuild(root, stamp);
	expect(buildIsCurrent(root, stamp)).toBe(true);
});

test('a changed or new source file asks for a build', () => {
	recordBuild(root, stamp);
	fs.writeFileSync(path.join(root, 'nodes/A/A.node.ts'), 'export const a = 2;\n');
	expect(buildIsCurrent(root, stamp)).toBe(false);
	recordBuild(root, stamp);
	fs.writeFileSync(path.join(root, 'nodes/A/B.ts'), 'export {};\n');
	expect(buildIsCurrent(root, stamp)).toBe(false);
});

test('dist/ changed by another build, or missing, asks for a build', () => {
	recordBuild(root, stamp);
	fs.writeFileSync(path.join(root, 'dist/nodes/A/A.node.js'), 'exports.a = 3;\n');
	expect(buildIsCurrent(root, stamp)).toBe(false);
	recordBuild(root, stamp);
	fs.rmSync(path.join(root, 'dist'), { recursive: true });
	expect(buildIsCurrent(root, stamp)).toBe(false);
});

'use strict';
/** A copy of the package (built dist/ included, no node_modules) to break on purpose. */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', '.cache', 'coverage', '.sandbox', 'test-results']);

function copyPackage({ linkNodeModules = false } = {}) {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes'))) throw new Error('dist/ is missing: run npm run build first');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-release-copy-'));
	fs.cpSync(ROOT, dir, {
		recursive: true,
		filter: (src) => {
			const rel = path.relative(ROOT, src);
			const name = path.basename(src);
			if (rel.split(path.sep).length === 1 && (SKIP.has(name) || name.endsWith('.tgz') || /^\.dist-build-|^dist\.old-/.test(name))) return false;
			return true;
		},
	});
	if (linkNodeModules) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	return {
		dir,
		edit(rel, fn) {
			const file = path.join(dir, rel);
			fs.writeFileSync(file, fn(fs.readFileSync(file, 'utf8')));
		},
		editJson(rel, fn) {
			this.edit(rel, (text) => `${JSON.stringify(fn(JSON.parse(text)), null, 2)}\n`);
		},
		cleanup() {
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Removes the job-level or workflow-level `id-token: write` line (and nothing else). */
function dropIdToken(yamlText) {
	const out = yamlText.replace(/^\s*id-token:\s*write\s*\n/m, '');
	if (out === yamlText) throw new Error('publish.yml has no "id-token: write" line to drop');
	return out;
}

module.exports = { ROOT, copyPackage, dropIdToken };

/* Build: compile TypeScript, bundle third-party modules into the files that use them, write the
 * licence notices of what was bundled (dist/THIRD_PARTY_NOTICES.md), copy icons and codex files,
 * and prove that dist/ needs nothing but n8n-workflow and Node's own modules at run time and that
 * package.json lists no runtime dependencies. */
const { series, parallel, src, dest, watch } = require('gulp');
const { execFileSync } = require('node:child_process');
const { builtinModules } = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const root = __dirname;
const finalDist = path.join(root, 'dist');
// Build into a private folder and swap it in at the end, so tests running meanwhile never
// see a half-built dist/.
const dist = path.join(root, `.dist-build-${process.pid}`);
const PEERS = new Set(['n8n-workflow']);
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function clean(done) {
	fs.rmSync(dist, { recursive: true, force: true });
	done();
}

/** The published package.json may list no runtime dependencies (n8n's scanner refuses them). */
function verifyManifest(done) {
	const deps = Object.keys(require('./package.json').dependencies || {});
	if (deps.length) {
		done(new Error(`package.json lists runtime dependencies (${deps.join(', ')}): a community node package must have none; bundle them (see bundle()) and list them under devDependencies`));
		return;
	}
	done();
}

function compile(done) {
	try {
		execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', dist], {
			cwd: root,
			stdio: 'inherit',
		});
	} catch (error) {
		// a failed compile leaves no half-built folder behind (lint would read it)
		fs.rmSync(dist, { recursive: true, force: true });
		throw error;
	}
	done();
}

function* walk(dir) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) yield* walk(full);
		else yield full;
	}
}

/** Module names a compiled file requires that are neither relative, built in nor a peer. */
function foreignRequires(file) {
	const code = fs.readFileSync(file, 'utf8');
	const found = new Set();
	for (const m of code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)) {
		const id = m[1];
		if (id.startsWith('.') || BUILTINS.has(id) || BUILTINS.has(id.split('/')[0])) continue;
		const pkg = id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0];
		if (!PEERS.has(pkg)) found.add(id);
	}
	return [...found];
}

async function bundle() {
	const esbuild = require('esbuild');
	const keepRelative = {
		name: 'keep-relative-imports-external',
		setup(build) {
			// our own relative imports stay separate modules; those inside a bundled package are bundled
			build.onResolve({ filter: /^\./ }, (args) =>
				args.kind === 'entry-point' || args.importer.includes(`${path.sep}node_modules${path.sep}`)
					? undefined
					: { path: args.path, external: true },
			);
		},
	};
	for (const file of walk(dist)) {
		if (!file.endsWith('.js') || foreignRequires(file).length === 0) continue;
		const rel = path.relative(dist, file).replace(/\.js$/, '.ts');
		await esbuild.build({
			entryPoints: [path.join(root, rel)],
			outfile: file,
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			sourcemap: true,
			external: [...PEERS],
			plugins: [keepRelative],
			logLevel: 'warning',
		});
	}
}

function verify(done) {
	const offenders = [];
	for (const file of walk(dist)) {
		if (!file.endsWith('.js')) continue;
		for (const id of foreignRequires(file)) offenders.push(`${path.relative(root, file)} requires ${id}`);
	}
	if (offenders.length) {
		done(new Error(`dist/ still needs runtime dependencies:\n  ${offenders.join('\n  ')}`));
		return;
	}
	done();
}

/**
 * dist/THIRD_PARTY_NOTICES.md: every package bundled into dist/ (read from the bundles' source
 * maps), with its version and licence text. A bundled package without a licence the build can
 * reproduce stops the build.
 */
function notices(done) {
	const { bundledPackages, noticesText, noticeProblem } = require('./scripts/bundled');
	const packages = bundledPackages(dist, root);
	const problems = packages.map(noticeProblem).filter(Boolean);
	if (problems.length) {
		done(new Error(`bundled packages without a licence to ship:\n  ${problems.join('\n  ')}`));
		return;
	}
	fs.writeFileSync(path.join(dist, 'THIRD_PARTY_NOTICES.md'), noticesText(packages));
	done();
}

function icons() {
	return src('icons/**/*.svg').pipe(dest(path.join(dist, 'icons')));
}

function nodeAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], { base: '.' }).pipe(dest(dist));
}

function swap(done) {
	const old = `${finalDist}.old-${process.pid}`;
	if (fs.existsSync(finalDist)) fs.renameSync(finalDist, old);
	fs.renameSync(dist, finalDist);
	fs.rmSync(old, { recursive: true, force: true });
	done();
}

function cleanFinal(done) {
	fs.rmSync(finalDist, { recursive: true, force: true });
	done();
}

const build = series(verifyManifest, clean, compile, bundle, verify, notices, parallel(icons, nodeAssets), swap);

exports.clean = series(clean, cleanFinal);
exports.build = build;
exports.default = build;
exports.watch = () => watch(['nodes/**', 'credentials/**', 'icons/**'], build);

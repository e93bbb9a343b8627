'use strict';
/**
 * The emulator is a second, independent reading of the vendor's documents: were it to load the
 * package's code, a misreading would be shared by both sides and every test would pass over it.
 * Two proofs that it never does:
 *   - every module specifier in every file under emulator/ (its tests included), read from the
 *     parsed source, resolves to Node's own modules, an installed package or a file inside
 *     emulator/ (tests may also read test/fixtures/spec/, the specification data both sides are
 *     checked against); never to nodes/, credentials/ or dist/. Staying inside emulator/ also
 *     rules out reaching node code through a test helper (test/support/ loads dist/).
 *   - the emulator's command line (what `npm run emulator`, `npm start` and spawn.js run), started
 *     in a fresh process with the demo data and asked a management log-in and call and a storage
 *     request, lists the modules it loaded: each inside emulator/ or node_modules/.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { builtinModules, createRequire } = require('node:module');
const { spawn } = require('node:child_process');
const readline = require('node:readline');
const ts = require('typescript');

const EMULATOR = path.resolve(__dirname, '..');
const ROOT = path.resolve(EMULATOR, '..');
const NODE_CODE = ['nodes', 'credentials', 'dist'].map((d) => path.join(ROOT, d));
const SPEC = path.join(ROOT, 'test', 'fixtures', 'spec');
const TESTS = path.join(EMULATOR, 'test');

const inside = (dir, file) => {
	const rel = path.relative(dir, file);
	return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};
const isPackage = (file) => file.split(path.sep).includes('node_modules');
const rel = (file) => path.relative(ROOT, file);

function codeFiles(dir) {
	const out = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) out.push(...codeFiles(p));
		else if (/\.(c|m)?js$/.test(e.name)) out.push(p);
	}
	return out;
}

/** The module specifiers of a file: { literal: [{ spec, line }], dynamic: [{ text, line }] }. */
function specifiersOf(file) {
	const text = fs.readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	const literal = [];
	const dynamic = [];
	const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
	const take = (arg, node) => {
		if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) literal.push({ spec: arg.text, line: lineOf(node) });
		else dynamic.push({ text: node.getText(source), line: lineOf(node) });
	};
	const visit = (node) => {
		if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
			const isResolve = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'require' && callee.name.text === 'resolve';
			const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
			if (isRequire || isResolve || isImport) take(node.arguments[0], node);
		} else if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
			take(node.moduleSpecifier, node);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return { literal, dynamic };
}

/** Why a specifier of `file` is not allowed, or undefined. */
function refusal(file, spec) {
	if (builtinModules.includes(spec.replace(/^node:/, ''))) return undefined;
	let target;
	try {
		target = createRequire(file).resolve(spec);
	} catch (error) {
		return `does not resolve (${error.code || error.message})`;
	}
	if (NODE_CODE.some((d) => inside(d, target))) return `reaches node code: ${rel(target)}`;
	if (isPackage(target) || inside(EMULATOR, target)) return undefined;
	if (inside(TESTS, file) && inside(SPEC, target)) return undefined;
	return `leaves emulator/: ${rel(target)}`;
}

/** Runs the emulator's CLI with a preload that writes the loaded modules on exit. */
async function modulesLoadedByCli() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emulator-modules-'));
	const list = path.join(dir, 'modules.json');
	const hook = path.join(dir, 'hook.js');
	fs.writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));\n`);
	const child = spawn(process.execPath, ['--require', hook, path.join(EMULATOR, 'cli.js'), '--seed', 'demo'], { stdio: ['ignore', 'pipe', 'inherit'] });
	try {
		const { url } = JSON.parse(
			await new Promise((resolve, reject) => {
				readline.createInterface({ input: child.stdout }).once('line', resolve);
				child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
			}),
		);
		const post = async (p, body) => (await fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
		const login = await post('/API/OAuth/authorize', { username: 'demo', password: 'demo-password' });
		const balance = await post('/API/profile/balance', { token: login.access_token });
		const storage = await fetch(`${url}/demo-bucket`);
		const answers = { login: login.code, balance: balance.code, storage: storage.status, storageBody: await storage.text() };
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
		return { answers, loaded: JSON.parse(fs.readFileSync(list, 'utf8')).filter((f) => f !== hook) };
	} finally {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

let run;
beforeAll(async () => {
	run = await modulesLoadedByCli();
});

test('the emulator, started from its command line, loads only its own files and installed packages', () => {
	const { loaded } = run;
	// it served: a management log-in and call, and a storage request (refused: it is not signed)
	expect({ login: run.answers.login, balance: run.answers.balance, storage: run.answers.storage }).toEqual({ login: 1, balance: 1, storage: 403 });
	expect(run.answers.storageBody).toContain('<Error>');
	const own = loaded.filter((f) => inside(EMULATOR, f)).map(rel).sort();
	for (const f of ['index.js', 'storage/index.js', 'management/index.js', 'management/account.js', 'management/cdn.js', 'management/instance.js', 'management/dns.js']) {
		expect(own).toContain(path.join('emulator', f));
	}
	expect(loaded.filter((f) => !inside(EMULATOR, f) && !isPackage(f)).map(rel)).toEqual([]);
	expect(loaded.filter((f) => NODE_CODE.some((d) => inside(d, f))).map(rel)).toEqual([]);
});

test('no file under emulator/ requires or imports node code (nodes/, credentials/, dist/) or anything outside emulator/', () => {
	const files = codeFiles(EMULATOR);
	expect(files.length).toBeGreaterThan(20);
	const problems = [];
	const dynamicOutsideRun = [];
	for (const file of files) {
		const { literal, dynamic } = specifiersOf(file);
		for (const { spec, line } of literal) {
			const why = refusal(file, spec);
			if (why) problems.push(`${rel(file)}:${line} '${spec}' ${why}`);
		}
		// a computed specifier cannot be read here: the file must be one the command-line run above
		// loaded, so what it loads is in that list
		for (const { text, line } of dynamic) if (!run.loaded.includes(file)) dynamicOutsideRun.push(`${rel(file)}:${line} ${text}`);
	}
	expect(problems).toEqual([]);
	expect(dynamicOutsideRun).toEqual([]);
});

'use strict';
/**
 * The package installed the way n8n's users install it: by name, from an npm registry, through
 * n8n's own community-package installer (Settings > Community Nodes > Install, which is the REST
 * call POST /rest/community-packages { name }; Update is PATCH, Uninstall is DELETE), on the n8n
 * line the suite runs on (2.40.7, or 1.123.x with VENDOR_N8N_VERSION).
 *
 * The registry is verdaccio on 127.0.0.1 with no uplink (scripts/registry-server.js): it serves
 * only what the test published, so an install that reaches for anything else (a copy of
 * n8n-workflow) fails instead of quietly fetching it from npmjs.
 *
 * How n8n is pointed at it. Both lines read the registry from N8N_COMMUNITY_PACKAGES_REGISTRY,
 * but use any other than https://registry.npmjs.org only with an Enterprise licence (the
 * "custom npm registry" feature; without it the install is refused with FeatureNotLicensedError),
 * pass `--registry=https://registry.npmjs.org` to every npm command they run, and ask
 * https://registry.npmjs.org/<name>/<version> themselves whether a version exists. So the test
 * leaves n8n's configuration as a user has it and makes the local registry answer for
 * registry.npmjs.org (registry.standIn(), scripts/registry-server.js): n8n and its npm reach npmjs
 * through HTTPS_PROXY, a proxy on 127.0.0.1 that answers for registry.npmjs.org from the local
 * registry with a certificate n8n and npm are told to trust, and refuses every other host (n8n
 * then takes its blocklist check at api.n8n.io as "not blocked", as it does offline). An `npm`
 * first on the n8n process's PATH logs each npm command n8n runs (printed as the installer's npm
 * calls) and gives it the same proxy settings (n8n 1.x runs `npm outdated` with only PATH and
 * NODE_PATH of its environment).
 *
 * What the installer does with a package, read in the installed n8n (2.40.7 and 1.123.81 alike):
 * `npm pack <name>@<version>`, unpack into ~/.n8n/nodes/node_modules/<name>, drop
 * devDependencies, peerDependencies and optionalDependencies from its package.json, then `npm
 * install --install-strategy=shallow --ignore-scripts` inside it (the dependencies only: this
 * package has none). The test checks the result: every node and credential type served,
 * a workflow run with an installed node, no n8n-workflow anywhere under the nodes folder
 * (`npm ls n8n-workflow --all` printed), then an update to the next version and an uninstall.
 *
 * By hand (README: `npm install n8n-nodes-vendor-cloud` in ~/.n8n/nodes) npm installs peer
 * dependencies itself unless they are optional: with `"n8n-workflow": "*"` alone it puts a second
 * n8n-workflow beside the package (here: fails, the registry has none). The last test installs
 * both declarations by hand and records which one installs cleanly.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');
const n8n = require('./lib');
const { startRegistry } = require('../../scripts/registry-server');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json'));
const NAME = PKG.name;
const INSTALL_TIMEOUT = 25 * 60 * 1000;

const say = (line) => process.stderr.write(`[installer] n8n ${n8n.version}: ${line}\n`);

let registry;
let emu;
let work; // scratch folder: tarballs, the npm wrapper, by-hand installs
let home;
let server;
let npmLog;
let npmjs; // the local registry standing in for registry.npmjs.org
const versions = {}; // 'first' | 'next' -> version published

/** The node types the package declares: `<package>.<node>` and the tool variant of each action node. */
const NODE_TYPES = PKG.n8n.nodes.map((f) => {
	const base = path.basename(f).split('.')[0];
	return `${NAME}.${base.charAt(0).toLowerCase()}${base.slice(1)}`;
});

/**
 * The packed package with its package.json changed by `edit` (version, peer declaration),
 * packed again with npm: a tarball as `npm publish` of the edited repository would make.
 */
function repack(tgz, edit, label) {
	const out = path.join(work, label);
	fs.mkdirSync(out, { recursive: true });
	execFileSync('tar', ['-xzf', tgz, '-C', out]);
	const file = path.join(out, 'package', 'package.json');
	const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
	edit(pkg);
	fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
	return n8n.packPackage(path.join(out, 'package'), { outDir: out });
}

/**
 * A folder holding an `npm` that n8n finds first on its PATH: it appends each command line to
 * npmLog and runs the real npm, unchanged, with the stand-in's proxy settings (`env`).
 */
function npmWrapper(env) {
	const bin = path.join(work, 'bin');
	fs.mkdirSync(bin, { recursive: true });
	const realNpm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
	npmLog = path.join(work, 'npm-calls.log');
	const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join('\n');
	const script = `#!/bin/sh
# written by test/real-n8n/installer.test.js: logs n8n's npm commands; npmjs is the local registry
${exports}
printf 'npm %s  (in %s)\\n' "$*" "$(pwd)" >> '${npmLog}'
exec '${realNpm}' "$@"
`;
	fs.writeFileSync(path.join(bin, 'npm'), script, { mode: 0o755 });
	return bin;
}

/** The npm commands n8n ran since the last call. */
let logged = 0;
function npmCalls() {
	const lines = fs.existsSync(npmLog) ? fs.readFileSync(npmLog, 'utf8').split('\n').filter(Boolean) : [];
	const fresh = lines.slice(logged);
	logged = lines.length;
	return fresh.map((l) => l.replace(work, '<tmp>').replace(home.userFolder, '<n8n user folder>'));
}

/** `npm ls n8n-workflow --all` in a folder: { code, text } (npm exits 1 when the tree is empty). */
function npmLs(folder) {
	const r = spawnSync('npm', ['ls', 'n8n-workflow', '--all'], { cwd: folder, encoding: 'utf8', env: n8n.baseEnv() });
	return { code: r.status, text: `${r.stdout}${r.stderr}`.trim() };
}

/** Every folder named n8n-workflow under `folder`. */
function copiesOfWorkflow(folder) {
	const found = [];
	const walk = (d, depth) => {
		let entries = [];
		try {
			entries = fs.readdirSync(d, { withFileTypes: true });
		} catch {
			return;
		}
		for (const e of entries) {
			if (!e.isDirectory()) continue;
			const p = path.join(d, e.name);
			if (e.name === 'n8n-workflow') found.push(path.relative(folder, p));
			else if (depth < 12) walk(p, depth + 1);
		}
	};
	walk(folder, 0);
	return found;
}

/**
 * n8n's installer answers once its npm commands have ended and the nodes are loaded: at a load
 * average of 30 on 2 cores an install took longer than the 15 s other REST calls get (both lines,
 * 2026-11-26), as the Settings page waits for it.
 */
const INSTALLER_MS = 5 * 60 * 1000;

async function rest(method, route, body) {
	const timeoutMs = route.startsWith('/community-packages') && method !== 'GET' ? INSTALLER_MS : undefined;
	const res = await server.rest(method, route, body, { timeoutMs });
	return { status: res.status, data: res.json && res.json.data, text: res.text };
}

/**
 * The package's node types in the list the editor loads. n8n rewrites that file after an install
 * or update has answered; read meanwhile it comes cut off, so a list that does not parse is read
 * again (up to 30 s).
 */
async function typeNames(file) {
	for (const until = Date.now() + 30000; ; await new Promise((r) => setTimeout(r, 500))) {
		const { text } = await server.call('GET', `/types/${file}`);
		try {
			return JSON.parse(text).map((t) => t.name);
		} catch (e) {
			if (Date.now() > until) throw new Error(`/types/${file} is not whole JSON after 30 s (${e.message})`);
		}
	}
}
const nodeTypeNames = async () => (await typeNames('nodes.json')).filter((n) => n.startsWith(`${NAME}.`));

/** The ledger n8n keeps in ~/.n8n/nodes/package.json. */
const ledger = () => JSON.parse(fs.readFileSync(path.join(home.nodesDir, 'package.json'), 'utf8')).dependencies;

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-installer-'));
	const t0 = Date.now();
	registry = await startRegistry();
	say(`registry (verdaccio, no uplink) on ${registry.url} in ${Date.now() - t0} ms`);
	emu = await createEmulator({ seed: 'demo' });
	const tgz = n8n.packPackage(ROOT, { outDir: path.join(work, 'packed') });
	versions.first = PKG.version;
	say(registry.publish(tgz).trim().split('\n').slice(-1)[0]);
	versions.next = PKG.version.replace(/(\d+)$/, (d) => String(Number(d) + 1));
	versions.nextTgz = repack(tgz, (p) => (p.version = versions.next), 'next');
	versions.tgz = tgz;
	home = await n8n.createN8nHome();
	npmjs = await registry.standIn();
	const bin = npmWrapper(npmjs.env);
	server = await n8n.startN8n(home, { env: { ...npmjs.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` }, timeoutMs: 240000 });
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (npmjs) say(`what reached "registry.npmjs.org" and other hosts through the proxy:\n  ${npmjs.requests.join('\n  ')}`);
	if (server) await server.stop();
	if (npmjs) await npmjs.stop();
	if (registry) await registry.stop();
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('Install by name: every node loads, a workflow runs with it, and the nodes folder holds no copy of n8n-workflow', async () => {
	expect(await nodeTypeNames()).toEqual([]);
	const t0 = Date.now();
	const res = await rest('POST', '/community-packages', { name: NAME });
	const ms = Date.now() - t0;
	say(`install: POST /rest/community-packages {"name":"${NAME}"} -> ${res.status} in ${ms} ms: ${JSON.stringify(res.data ?? res.text)}`);
	say(`install: n8n's npm commands:\n  ${npmCalls().join('\n  ')}`);
	expect(res.status).toBe(200);
	expect(res.data).toMatchObject({ packageName: NAME, installedVersion: versions.first });
	expect(res.data.installedNodes.map((x) => x.type).sort()).toEqual([...NODE_TYPES].sort());

	// the editor's node list: every node and the tool variant of each action node
	const served = await nodeTypeNames();
	for (const type of NODE_TYPES) expect(served).toContain(type);
	expect(served.filter((t) => t.endsWith('Tool'))).toHaveLength(NODE_TYPES.filter((t) => !/Trigger$/.test(t)).length);
	const creds = await typeNames('credentials.json');
	expect(creds).toEqual(expect.arrayContaining(['vendorApi', 'vendorObjectStorageApi']));

	// installed where n8n keeps community packages, recorded in its ledger
	expect(ledger()).toEqual({ [NAME]: versions.first });
	const installed = JSON.parse(fs.readFileSync(path.join(home.nodesDir, 'node_modules', NAME, 'package.json'), 'utf8'));
	expect(installed.version).toBe(versions.first);
	expect(installed.peerDependencies).toBeUndefined(); // n8n dropped them before its npm install

	// exactly one n8n-workflow for the package: n8n's own (none under the nodes folder)
	const ls = npmLs(home.nodesDir);
	say(`install: npm ls n8n-workflow --all in ~/.n8n/nodes (exit ${ls.code}):\n${ls.text.replace(home.userFolder, '~')}`);
	expect(ls.text).not.toMatch(/n8n-workflow@/);
	expect(copiesOfWorkflow(home.nodesDir)).toEqual([]);

	// the installed node runs: a webhook workflow reads the balance from the emulator
	const cred = await rest('POST', '/credentials', { name: 'Vendor account', type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' } });
	expect(cred.status).toBe(200);
	const wf = await rest('POST', '/workflows', {
		name: 'Installed from the registry',
		active: false,
		nodes: [
			n8n.webhookNode('vendor-installed', 'firstEntryJson'),
			{ id: 'balance', name: 'Get Balance', type: `${NAME}.vendorAccountBilling`, typeVersion: 1, position: [220, 0], parameters: { resource: 'balance', operation: 'get' }, credentials: { vendorApi: { id: cred.data.id, name: cred.data.name } } },
		],
		connections: { Webhook: { main: [[{ node: 'Get Balance', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	expect(wf.status).toBe(200);
	await server.activateWorkflow(wf.data.id);
	let answer;
	for (const until = Date.now() + 60000; ; await new Promise((r) => setTimeout(r, 500))) {
		answer = await fetch(`${server.url}/webhook/vendor-installed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		if (answer.status !== 404 || Date.now() > until) break;
	}
	const json = await answer.json();
	say(`install: the installed Account & Billing node answered ${answer.status}: ${JSON.stringify(json)}`);
	expect(answer.status).toBe(200);
	const post = (p, b) => fetch(`${emu.url}/API/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	const { access_token: token } = await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
	expect(json.balance).toBe(Number((await post('profile/balance', { token })).data[0].price));
	await server.deactivateWorkflow(wf.data.id);
}, 600000);

test('Update to the next version published, through the same installer', async () => {
	const published = registry.publish(versions.nextTgz);
	say(`published ${versions.next}: ${published.trim().split('\n').slice(-1)[0]}`);
	npmCalls();
	const list = await rest('GET', '/community-packages');
	const listed = list.data.find((p) => p.packageName === NAME);
	say(`GET /rest/community-packages -> ${list.status}: ${JSON.stringify({ ...listed, installedNodes: `${listed.installedNodes.length} nodes` })}; n8n's npm commands: ${npmCalls().join('; ')}`);
	expect(listed).toMatchObject({ installedVersion: versions.first, updateAvailable: versions.next });
	npmCalls();
	const t0 = Date.now();
	const res = await rest('PATCH', '/community-packages', { name: NAME });
	say(`update: PATCH /rest/community-packages {"name":"${NAME}"} -> ${res.status} in ${Date.now() - t0} ms: ${JSON.stringify(res.data ?? res.text)}`);
	say(`update: n8n's npm commands:\n  ${npmCalls().join('\n  ')}`);
	expect(res.status).toBe(200);
	expect(res.data).toMatchObject({ packageName: NAME, installedVersion: versions.next });
	expect(res.data.installedNodes.map((x) => x.type).sort()).toEqual([...NODE_TYPES].sort());
	expect(ledger()).toEqual({ [NAME]: versions.next });
	expect(JSON.parse(fs.readFileSync(path.join(home.nodesDir, 'node_modules', NAME, 'package.json'), 'utf8')).version).toBe(versions.next);
	const served = await nodeTypeNames();
	for (const type of NODE_TYPES) expect(served).toContain(type);
	const ls = npmLs(home.nodesDir);
	say(`update: npm ls n8n-workflow --all in ~/.n8n/nodes (exit ${ls.code}):\n${ls.text.replace(home.userFolder, '~')}`);
	expect(copiesOfWorkflow(home.nodesDir)).toEqual([]);
}, 600000);

test('Uninstall through the same installer: the nodes are gone from n8n and from the folder', async () => {
	npmCalls();
	const t0 = Date.now();
	const res = await server.call('DELETE', `/rest/community-packages?name=${encodeURIComponent(NAME)}`, undefined, { timeoutMs: INSTALLER_MS });
	say(`uninstall: DELETE /rest/community-packages?name=${NAME} -> ${res.status} in ${Date.now() - t0} ms: ${res.text}`);
	say(`uninstall: n8n's npm commands: ${npmCalls().join('; ') || '(none: n8n deletes the folder itself)'}`);
	expect(res.status).toBe(200);
	expect(await nodeTypeNames()).toEqual([]);
	expect(fs.existsSync(path.join(home.nodesDir, 'node_modules', NAME))).toBe(false);
	expect((await rest('GET', '/community-packages')).data).toEqual([]);
	// n8n keeps its ledger entry (it deletes the folder and the database record only); a later
	// install through Settings rewrites it
	say(`uninstall: ~/.n8n/nodes/package.json dependencies afterwards: ${JSON.stringify(ledger())}`);
}, 300000);

test("By hand (the README's `npm install` in ~/.n8n/nodes): which peer declaration installs without a second n8n-workflow", () => {
	const hasMeta = Boolean(PKG.peerDependenciesMeta && PKG.peerDependenciesMeta['n8n-workflow'] && PKG.peerDependenciesMeta['n8n-workflow'].optional);
	// the other declaration, published as a prerelease so `latest` stays the package's own
	const otherVersion = `${versions.next}-peer-${hasMeta ? 'wildcard-only' : 'optional'}.0`;
	const other = repack(
		versions.tgz,
		(p) => {
			p.version = otherVersion;
			if (hasMeta) delete p.peerDependenciesMeta;
			else p.peerDependenciesMeta = { 'n8n-workflow': { optional: true } };
		},
		'other-declaration',
	);
	registry.publish(other, { tag: 'declaration-test' });
	const byHand = (version) => {
		const folder = fs.mkdtempSync(path.join(work, 'by-hand-'));
		fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`);
		const r = spawnSync('npm', ['install', `${NAME}@${version}`, '--registry', registry.url, '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, encoding: 'utf8', env: n8n.baseEnv({ npm_config_userconfig: registry.npmrc }) });
		const outcome = { code: r.status, output: `${r.stdout}${r.stderr}`.trim().split('\n').slice(-6).join('\n'), copies: copiesOfWorkflow(folder), ls: npmLs(folder).text.replace(folder, '<folder>') };
		return outcome;
	};
	const declarations = {
		[`as published (${hasMeta ? 'peerDependenciesMeta: n8n-workflow optional' : '"n8n-workflow": "*" only'})`]: byHand(versions.next),
		[`the other (${hasMeta ? '"n8n-workflow": "*" only' : 'with peerDependenciesMeta optional'})`]: byHand(otherVersion),
	};
	for (const [label, outcome] of Object.entries(declarations)) say(`by hand, ${label}: exit ${outcome.code}; n8n-workflow copies: ${JSON.stringify(outcome.copies)}\n${outcome.output}\n${outcome.ls}`);
	const [published, otherOutcome] = Object.values(declarations);
	const clean = (o) => o.code === 0 && o.copies.length === 0;
	// the package as published installs cleanly by hand ...
	expect(clean(published)).toBe(true);
	// ... and the measurement: only an optional peer keeps npm from fetching its own n8n-workflow
	expect(hasMeta).toBe(true);
	expect(clean(otherOutcome)).toBe(false);
	expect(otherOutcome.output).toMatch(/n8n-workflow/);
}, 300000);

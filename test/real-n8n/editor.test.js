'use strict';
/**
 * The n8n editor in a real browser (Debian's Chromium, headless, driven by playwright-core):
 * n8n 2.40.7 with the packed package, the example workflows and credentials imported as
 * `npm start` does, the owner logs in through the sign-in page, opens example workflows and
 * Vendor nodes in them, and the test checks what a user sees: the package's icons load as
 * images (not n8n's fallback), and the Resource and Operation dropdowns list the node's options.
 * Screenshots go to docs/screenshots/ (committed; the README shows them).
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const browser = require('./browser');
const { createEmulator } = require('../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const PKG = require(path.join(ROOT, 'package.json')).name;
const INSTALL_TIMEOUT = 30 * 60 * 1000;

const load = (file) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));

/** The Resource options of a built node, and the Operation options of one resource (as the description declares them). */
function declared(nodeName, resource) {
	const base = nodeName.replace(/^./, (c) => c.toUpperCase());
	const mod = require(path.join(ROOT, 'dist', 'nodes', base, `${base}.node.js`));
	const props = new mod[base]().description.properties;
	const resources = props.find((p) => p.name === 'resource').options.map((o) => o.name);
	const operations = props.find((p) => p.name === 'operation' && p.displayOptions.show.resource.includes(resource)).options.map((o) => o.name);
	return { resources, operations };
}

let emu;
let home;
let tgz;
let server;
let chrome;
let page;

beforeAll(async () => {
	const t0 = Date.now();
	browser.ensureChromium();
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'demo' });
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
	// The sandbox's credentials (same ids and names as `npm start` imports) and the examples.
	await n8n.importCredentials(home, [
		{ id: 'vendorApiSandbox', name: 'Vendor API account', type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: 'demo-password' } },
		{
			id: 'vendorOssSandbox',
			name: 'Vendor Object Storage API account',
			type: 'vendorObjectStorageApi',
			data: { endpoint: emu.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' },
		},
	]);
	const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).map(load);
	const file = path.join(home.userFolder, 'examples.json');
	fs.writeFileSync(file, JSON.stringify(examples.map((wf) => ({ ...wf, active: false }))));
	const res = await n8n.runN8n(home, ['import:workflow', `--input=${file}`], { timeoutMs: 240000 });
	expect(res.stdout + res.stderr).toMatch(new RegExp(`Successfully imported ${examples.length} workflows`));
	server = await n8n.startN8n(home, { timeoutMs: 300000 });
	chrome = await browser.launch({ width: 1440, height: 900 });
	page = chrome.page;
	page.setDefaultTimeout(60000);
	fs.mkdirSync(SHOTS, { recursive: true });
	process.stderr.write(`[editor] set-up (chromium, n8n home, imports, n8n start ${server.startMs} ms, browser) ${Date.now() - t0} ms\n`);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (chrome) await chrome.close();
	if (server) await server.stop();
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
}, 120000);

/** The emulator's management API, called as any client would. */
async function api(p, body = {}) {
	const post = (pathname, b) =>
		fetch(`${emu.url}/API/${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	const { access_token: token } = await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
	return post(p, { ...body, token });
}

/** The names in the open dropdown (each option shows a name and, below it, a description). */
async function openDropdown(parameter) {
	await page.click(`[data-test-id=ndv] [data-test-id=parameter-input-${parameter}]`);
	const items = page.locator('.el-select-dropdown__item:visible');
	await items.first().waitFor();
	const names = await items.evaluateAll((els) =>
		els.map((e) => {
			const head = e.querySelector('[class*=headline], [class*=title], [class*=name]');
			return (head ? head.textContent : e.firstElementChild ? e.firstElementChild.textContent : e.textContent).trim();
		}),
	);
	return names;
}

async function closeDropdown() {
	await page.keyboard.press('Escape');
	await page.locator('.el-select-dropdown__item:visible').first().waitFor({ state: 'hidden' }).catch(() => {});
}

/** Every package icon on the page: loaded images of /icons/<package>/…, with their sizes. */
async function packageIcons(scope) {
	return page.locator(`${scope} img[src*="/icons/${PKG}/"]`).evaluateAll((els) =>
		els.map((e) => ({ src: e.getAttribute('src'), complete: e.complete, width: e.naturalWidth, height: e.naturalHeight })),
	);
}

async function openWorkflow(id, name) {
	await page.goto(`${server.editorUrl}/workflow/${id}`);
	await page.locator('[data-test-id=canvas-node]').first().waitFor();
	await expect(page.locator('[data-test-id=canvas-node]').count()).resolves.toBeGreaterThan(1);
	await page.waitForLoadState('networkidle').catch(() => {});
	expect(await page.title()).toContain(name);
}

async function openNode(name) {
	await page.dblclick(`[data-test-id=canvas-node][data-node-name="${name}"]`);
	await page.locator('[data-test-id=ndv] [data-test-id=parameter-input-operation]').waitFor();
	await page.waitForTimeout(500); // let the panel finish its opening animation before a screenshot
}

async function closeNode() {
	await page.click('[data-test-id=ndv-close-button]');
	await page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' }).catch(() => {});
}

test('the owner signs in through the sign-in page', async () => {
	await page.goto(`${server.editorUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', n8n.OWNER.email);
	await page.fill('input[name=password]', n8n.OWNER.password);
	await page.click('[data-test-id=form-submit-button]');
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
	await page.locator('text=Vendor: restart a server from chat').first().waitFor();
	await page.screenshot({ path: path.join(SHOTS, 'workflows.png') });
}, 120000);

test('chat server restart: the canvas shows the Vendor nodes with their icons', async () => {
	const wf = load('chat-server-restart.json');
	await openWorkflow(wf.id, wf.name);
	const vendorNodes = wf.nodes.filter((n) => n.type.startsWith(`${PKG}.`));
	for (const n of vendorNodes) {
		const node = page.locator(`[data-test-id=canvas-node][data-node-name="${n.name}"]`);
		await expect(node.getAttribute('data-node-type')).resolves.toBe(n.type);
		const [icon] = await node.locator(`img[src*="/icons/${PKG}/"]`).evaluateAll((els) => els.map((e) => ({ src: e.getAttribute('src'), complete: e.complete, width: e.naturalWidth })));
		expect(icon).toEqual({ src: `/icons/${PKG}/dist/icons/cloudHost.svg`, complete: true, width: expect.any(Number) });
		expect(icon.width).toBeGreaterThan(0);
	}
	// the icon is served as an SVG image
	const res = await fetch(`${server.url}/icons/${PKG}/dist/icons/cloudHost.svg`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toMatch(/svg/);
	await page.screenshot({ path: path.join(SHOTS, 'workflow-chat-server-restart.png') });
}, 120000);

test('chat server restart: the Cloud Host node opens with its icon, Resource and Operation dropdowns', async () => {
	await openNode('Reboot and Wait');
	const icons = await packageIcons('[data-test-id=ndv]');
	expect(icons.length).toBeGreaterThan(0);
	for (const icon of icons) {
		expect(icon).toMatchObject({ src: `/icons/${PKG}/dist/icons/cloudHost.svg`, complete: true });
		expect(icon.width).toBeGreaterThan(0);
	}
	const ndv = page.locator('[data-test-id=ndv]');
	await expect(ndv.locator('[data-test-id=parameter-input-resource] input').inputValue()).resolves.toBe('Host');
	await expect(ndv.locator('[data-test-id=parameter-input-operation] input').inputValue()).resolves.toBe('Reboot');
	await expect(ndv.locator('[data-test-id=node-credentials-select] input').inputValue()).resolves.toBe('Vendor API account');
	await ndv.locator('text=Wait Until Running').first().waitFor();
	await page.screenshot({ path: path.join(SHOTS, 'node-cloud-host.png') });

	const expected = declared('vendorCloudHost', 'host');
	const resources = await openDropdown('resource');
	expect(resources).toEqual(expected.resources);
	expect(resources).toEqual(expect.arrayContaining(['Host', 'Backup', 'Snapshot', 'Data Centre']));
	await page.screenshot({ path: path.join(SHOTS, 'node-cloud-host-resources.png') });
	await closeDropdown();

	const operations = await openDropdown('operation');
	expect(operations).toEqual(expected.operations);
	expect(operations).toEqual(expect.arrayContaining(['Reboot', 'Start', 'Stop', 'Get Many', 'Create', 'Reinstall']));
	await page.screenshot({ path: path.join(SHOTS, 'node-cloud-host-operations.png') });
	await closeDropdown();
	await closeNode();
}, 120000);

test('chat server restart: a message in the editor\'s chat panel reboots the host and the answer appears', async () => {
	// db-1 is powered off first, so the answer has something to report
	const db = (await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === 'db-1');
	await fetch(`${emu.url}/__emulator/management/instance/hosts/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ id: Number(db.id), status: 2 }),
	});
	// the workflow is open from the tests above; n8n's chat panel runs it as a manual execution
	await page.click('[data-test-id=workflow-chat-button]', { force: true });
	const input = page.locator('[data-test-id=canvas-chat] textarea').first();
	await input.waitFor();
	await input.fill('please restart db-1');
	await input.press('Enter');
	const answer = page.locator('[data-test-id=canvas-chat]').getByText(`Done: db-1 (${db.instance_id}) was rebooted and is running again.`, { exact: true });
	await answer.first().waitFor({ timeout: 120000 });
	await page.waitForTimeout(1000); // let the success toast and the logs panel settle
	await page.screenshot({ path: path.join(SHOTS, 'chat-server-restart-run.png') });
	expect((await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === 'db-1').status).toBe('1');
	const [last] = await server.listExecutions({ workflowId: 'vendorExample002' });
	expect(last).toMatchObject({ status: 'success' });
}, 180000);

test('nightly DNS backup: the Object Storage node opens with its icon, Resource and Operation dropdowns', async () => {
	const wf = load('nightly-dns-backup.json');
	await openWorkflow(wf.id, wf.name);
	const canvasIcons = await packageIcons('[data-test-id=canvas-node]');
	expect(canvasIcons.map((i) => i.src.split('/').pop()).sort()).toEqual(['dns.svg', 'dns.svg', 'objectStorage.svg', 'objectStorage.svg'].sort());
	for (const icon of canvasIcons) expect(icon.complete && icon.width > 0).toBe(true);
	await page.screenshot({ path: path.join(SHOTS, 'workflow-nightly-dns-backup.png') });

	await openNode('Upload Backup');
	const icons = await packageIcons('[data-test-id=ndv]');
	expect(icons.length).toBeGreaterThan(0);
	for (const icon of icons) expect(icon).toMatchObject({ src: expect.stringMatching(/objectStorage\.svg$/), complete: true });
	const ndv = page.locator('[data-test-id=ndv]');
	await expect(ndv.locator('[data-test-id=parameter-input-resource] input').inputValue()).resolves.toBe('Object');
	await expect(ndv.locator('[data-test-id=parameter-input-operation] input').inputValue()).resolves.toBe('Upload');
	await page.screenshot({ path: path.join(SHOTS, 'node-object-storage.png') });

	const expected = declared('vendorObjectStorage', 'object');
	expect(await openDropdown('resource')).toEqual(expected.resources);
	await closeDropdown();
	const operations = await openDropdown('operation');
	// n8n adds "Custom API Call" to nodes whose credential signs requests itself
	expect(operations.filter((o) => o !== 'Custom API Call')).toEqual(expected.operations);
	expect(operations).toEqual(expect.arrayContaining(['Upload', 'Download', 'Get Presigned URL', 'Delete']));
	await page.screenshot({ path: path.join(SHOTS, 'node-object-storage-operations.png') });
	await closeDropdown();
	await closeNode();
}, 120000);

'use strict';
/**
 * The documented way to provoke a real event in the sandbox works as written: the `curl` line of
 * DEVELOPERS.md (and the one `npm start` prints) is sent, as it stands, to an emulator with the demo
 * data `npm start` uses, and a demo host turns Abnormal. (It named host 1, which the demo data
 * does not have: the demo hosts are 1001-1003.)
 */
const fs = require('node:fs');
const path = require('node:path');
const { createEmulator } = require('../../emulator');

const ROOT = path.resolve(__dirname, '..', '..');

/** The curl lines of a text that call the emulator's control routes: [{ route, body }]. */
function curlLines(text) {
	const out = [];
	for (const m of text.matchAll(/curl -XPOST (?:https?:\/\/)?(?:localhost|127\.0\.0\.1|\$\{[^}]+\}):?\d*(\/__emulator\/[^\s'"`]+)[^`\n]*?-d '([^']+)'/g)) {
		out.push({ route: m[1], body: m[2] });
	}
	return out;
}

let emu;
beforeAll(async () => {
	emu = await createEmulator({ seed: 'demo' });
});
afterAll(() => emu && emu.close());

test.each([
	['DEVELOPERS.md', fs.readFileSync(path.join(ROOT, 'DEVELOPERS.md'), 'utf8')],
	['npm start (scripts/start.js)', fs.readFileSync(path.join(ROOT, 'scripts', 'start.js'), 'utf8')],
])('the curl line of %s turns a demo host abnormal, as written', async (_, text) => {
	const lines = curlLines(text).filter((l) => l.route.endsWith('/instance/hosts/status'));
	expect(lines).toHaveLength(1);
	const { route, body } = lines[0];
	await fetch(`${emu.url}/__emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	const res = await fetch(`${emu.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
	const answer = await res.json();
	expect(answer).toMatchObject({ ok: true, host: { status: expect.anything() } });
	expect(Number(answer.host.status)).toBe(3);
	// the host is one of the demo hosts the examples and the chat talk about
	expect(['web-1', 'db-1', 'batch-1']).toContain(answer.host.name);
});

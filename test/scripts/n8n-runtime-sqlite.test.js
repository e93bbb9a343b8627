'use strict';
/**
 * sqlite3 is compiled once for both n8n lines (scripts/n8n-runtime.js provideSqlite): a runtime
 * whose sqlite3 version and Node match a compiled module in <cache>/sqlite3-builds/ gets a copy,
 * and one that arrives while the other line is still compiling (the lock folder held) waits for
 * that compile instead of starting its own. Fake runtime folders in a temporary directory; no
 * compiler runs (a compile here would fail: the fake runtime has no Node).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { provideSqlite } = require('../../scripts/n8n-runtime');

function fakeRuntime(cache, name, sqliteVersion = '5.1.7') {
	const dir = path.join(cache, name);
	const sqliteDir = path.join(dir, 'node_modules', 'sqlite3');
	fs.mkdirSync(sqliteDir, { recursive: true });
	fs.writeFileSync(path.join(sqliteDir, 'package.json'), JSON.stringify({ name: 'sqlite3', version: sqliteVersion }));
	return { version: name, dir, line: { node: '24.21.0' }, sqliteDir, sqliteBinding: path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node') };
}

const said = [];
const logger = { say: (m) => said.push(m) };

let cache;
beforeEach(() => {
	cache = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-sqlite-'));
	said.length = 0;
});
afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));

test('a runtime with the same sqlite3 and Node gets the module compiled for the other line, not a compile of its own', async () => {
	const shared = path.join(cache, 'sqlite3-builds', '5.1.7-node-24.21.0');
	fs.mkdirSync(shared, { recursive: true });
	fs.writeFileSync(path.join(shared, 'node_sqlite3.node'), 'compiled for 2.40.7');
	const rt = fakeRuntime(cache, 'n8n-runtime-1.123.81');
	fs.mkdirSync(path.join(rt.sqliteDir, 'build', 'Release'), { recursive: true });
	fs.writeFileSync(path.join(rt.sqliteDir, 'build', 'Release', 'left-over.o'), 'old');

	const res = await provideSqlite(rt, logger);
	expect(res).toEqual({ copiedFrom: path.join(shared, 'node_sqlite3.node') });
	expect(fs.readFileSync(rt.sqliteBinding, 'utf8')).toBe('compiled for 2.40.7');
	expect(fs.readdirSync(path.dirname(rt.sqliteBinding))).toEqual(['node_sqlite3.node']);
	expect(said.join('\n')).toMatch(/sqlite3 5\.1\.7 for Node 24\.21\.0 was compiled already .*copied, not compiled again/);
	expect(fs.existsSync(`${shared}.lock`)).toBe(false);
});

test('while the other line holds the compile lock, the second waits and then copies its result', async () => {
	const shared = path.join(cache, 'sqlite3-builds', '5.1.7-node-24.21.0');
	const lock = `${shared}.lock`;
	fs.mkdirSync(lock, { recursive: true });
	// held by a live process on this host (this one): not stale
	fs.writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }));
	const rt = fakeRuntime(cache, 'n8n-runtime-1.123.81');
	let settled = false;
	const pending = provideSqlite(rt, logger).finally(() => (settled = true));
	await new Promise((r) => setTimeout(r, 1000));
	expect(settled).toBe(false);
	expect(said.join('\n')).toMatch(/is compiling sqlite3 5\.1\.7 for Node 24\.21\.0; waiting for it/);
	// the first line's compile ends: its module in place, the lock released
	fs.mkdirSync(shared, { recursive: true });
	fs.writeFileSync(path.join(shared, 'node_sqlite3.node'), 'compiled by the first line');
	fs.rmSync(lock, { recursive: true, force: true });
	await expect(pending).resolves.toEqual({ copiedFrom: path.join(shared, 'node_sqlite3.node') });
	expect(fs.readFileSync(rt.sqliteBinding, 'utf8')).toBe('compiled by the first line');
}, 30000);

test('another sqlite3 version is not taken from the shared folder', async () => {
	const shared = path.join(cache, 'sqlite3-builds', '5.1.7-node-24.21.0');
	fs.mkdirSync(shared, { recursive: true });
	fs.writeFileSync(path.join(shared, 'node_sqlite3.node'), 'compiled for 5.1.7');
	const rt = fakeRuntime(cache, 'n8n-runtime-9.0.0', '5.1.6');
	// its own compile is attempted (and fails here: the fake runtime has no n8n version or Node)
	await expect(provideSqlite(rt, logger)).rejects.toThrow();
	expect(fs.existsSync(rt.sqliteBinding)).toBe(false);
	expect(fs.existsSync(path.join(cache, 'sqlite3-builds', '5.1.6-node-24.21.0.lock'))).toBe(false);
});

'use strict';
/**
 * `npm start` on a taken port (issue 36, point 8): the advice names a port that is free now. It
 * used to say "npm start -- --port 5679" whatever was free, so with 5678 and 5679 taken the
 * advice led back to the same error.
 */
const net = require('node:net');
const { portTaken } = require('../../scripts/start');
const { freePort } = require('../../scripts/free-port');

const listen = (port) =>
	new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(port, '127.0.0.1', () => resolve(srv));
	});
const isFree = (port) =>
	listen(port).then(
		(srv) => new Promise((resolve) => srv.close(() => resolve(true))),
		() => false,
	);

test('with the port and the next one taken, the advice names a port that is free', async () => {
	// two ports in a row, both taken (the test holds them)
	let first;
	let held = [];
	for (let tries = 0; tries < 20 && held.length < 2; tries++) {
		first = await freePort();
		held = [];
		for (const p of [first, first + 1]) {
			try {
				held.push(await listen(p));
			} catch {
				break;
			}
		}
		if (held.length < 2) for (const s of held) s.close();
	}
	expect(held).toHaveLength(2);
	try {
		const error = await portTaken(first, false);
		const m = /^port (\d+) is taken \(another n8n, or another program\); stop it, or start on a port that is free now: npm start -- --port (\d+)$/.exec(error.message);
		expect(m).not.toBeNull();
		expect(Number(m[1])).toBe(first);
		const suggested = Number(m[2]);
		expect([first, first + 1]).not.toContain(suggested);
		expect(await isFree(suggested)).toBe(true);
		expect((await portTaken(first, true)).message).toMatch(/npm start -- --queue --port \d+$/);
	} finally {
		for (const s of held) s.close();
	}
});

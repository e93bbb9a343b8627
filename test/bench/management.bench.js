'use strict';
/**
 * Return All over 10,000 records with 30 ms added latency per request:
 *   node   - Vendor Account & Billing, Group > Get Many, Return All, run by n8n-core
 *            (page 1, then the remaining pages 6 at a time, in order)
 *   peer   - the same pages fetched one at a time by a plain client loop (fetch), the way a
 *            client that follows `page` until `totalpage` reads them
 * Prints both times and the ratio peer/node (target: at least 3x).
 */
const n8n = require('../support/n8n');
const { spawnEmulator } = require('../../emulator/spawn');

const RECORDS = 10000;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 30);

async function main() {
	const emu = await spawnEmulator();
	const post = (p, b) =>
		fetch(`${emu.url}/API/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	const { access_token: token } = await post('OAuth/authorize', { username: 'demo', password: 'demo-password' });
	for (let i = 0; i < RECORDS; i += 50) {
		await Promise.all(Array.from({ length: 50 }, (_, j) => post('profile/groupAdd', { token, name: `g-${i + j}` })));
	}
	await emu.control('POST', '/faults', { latencyMs: LATENCY_MS });
	const store = new n8n.CredentialStore();
	const credentials = { vendorApi: store.add('vendorApi', { apiUrl: emu.url, username: 'demo', password: 'demo-password' }) };
	const run = async (parameters) => {
		const { items, error } = await n8n.runNode('vendorAccountBilling', parameters, { credentials, store });
		if (error) throw error;
		return items;
	};

	// warm-up: log in and load the code paths
	await run({ resource: 'group', operation: 'getAll', returnAll: false, limit: 1 });

	let t = Date.now();
	const items = await run({ resource: 'group', operation: 'getAll', returnAll: true });
	const nodeMs = Date.now() - t;

	t = Date.now();
	let page = 1;
	let peerCount = 0;
	for (;;) {
		const res = await fetch(`${emu.url}/API/profile/groupList`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ token, page, limit: 100 }),
		}).then((r) => r.json());
		peerCount += res.data.length;
		if (page >= Number(res.totalpage)) break;
		page++;
	}
	const peerMs = Date.now() - t;
	await emu.close();

	if (items.length !== RECORDS || peerCount !== RECORDS) throw new Error(`expected ${RECORDS} records, got ${items.length} / ${peerCount}`);
	const ratio = peerMs / nodeMs;
	console.log(`management Return All, ${RECORDS} records, ${LATENCY_MS} ms latency, 100 per page`);
	console.log(`  emulator in its own process; node run by n8n-core`);
	console.log(`  node (pages 6 at a time after page 1): ${nodeMs} ms`);
	console.log(`  peer (one page at a time):             ${peerMs} ms`);
	console.log(`  ratio peer/node: ${ratio.toFixed(2)}x (target >= 3x) ${ratio >= 3 ? 'MET' : 'NOT MET'}`);
	return { nodeMs, peerMs, ratio };
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
module.exports = { main };

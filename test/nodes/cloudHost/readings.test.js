'use strict';
/**
 * Vendor Cloud Host under readings the vendor's documentation allows two ways, through n8n-core
 * against the demo emulator:
 *  - readings R67 (dialect objectIdInAnswers): a restore or roll back answers `id` too, the id of
 *    the backup or snapshot; Wait Until Running waits on the host the answer names as the
 *    instance (`instance_id`), never on that `id`;
 *  - readings R61, R68 (dialect hostLineWords): a host's `network` is its line's row (`id` a row
 *    id, `line` the service's own word); the simplified host shows only what proves a line.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorCloudHost';
let v;

beforeAll(async () => {
	v = await startVendor({ seed: 'demo', management: { timing: { hostReinstallMs: 150 } } });
});
afterAll(() => v.close());
beforeEach(async () => {
	await v.control('POST', '/dialects', { set: [] });
	await v.control('POST', '/reset');
	v._tokens = {};
});

const run = (parameters) => v.ok(NODE, parameters);
const dialect = (...set) => v.control('POST', '/dialects', { set });
/** The demo's completed backup and snapshot, each with the host it belongs to. */
async function demoCopies() {
	const [backup] = (await v.api('instance/backupList', {})).data;
	const [snapshot] = (await v.api('instance/snapshotList', {})).data;
	return { backup, snapshot };
}

describe('readings R67: Wait Until Running after a restore or roll back waits on the instance the answer names', () => {
	test.each([[[]], [['objectIdInAnswers']]])('dialects %j', async (set) => {
		await dialect(...set);
		const { backup, snapshot } = await demoCopies();
		const [restored] = await run({ resource: 'backup', operation: 'restore', id: v.byId(backup.id), waitUntilRunning: true, waitTimeout: 60, simplify: false });
		expect(restored).toMatchObject({ id: backup.instance.id, instance_id: backup.instance.instance_id, status: '1' });
		expect(restored.wait).toMatchObject({ for: 'running', operation: 'reinstall' });
		await v.control('POST', '/management/instance/settle');
		const [rolledBack] = await run({ resource: 'snapshot', operation: 'rollback', id: v.byId(snapshot.id), waitUntilRunning: true, waitTimeout: 60, simplify: false });
		expect(rolledBack).toMatchObject({ id: snapshot.instance.id, instance_id: snapshot.instance.instance_id, status: '1' });
	});

	test('an answer without instance_id: the host of the backup as listed', async () => {
		const { backup } = await demoCopies();
		const route = v.emu.management.core.routes['instance/backupRestore'];
		const inner = route.handler;
		// the answer names only the backup (its id), as a service may
		route.handler = async (rq) => {
			await inner(rq);
			return { data: { id: String(backup.id), backup_id: backup.backup_id } };
		};
		try {
			const [restored] = await run({ resource: 'backup', operation: 'restore', id: v.byId(backup.id), waitUntilRunning: true, waitTimeout: 60, simplify: false });
			expect(restored).toMatchObject({ id: backup.instance.id, status: '1' });
		} finally {
			route.handler = inner;
		}
	});
});

describe('readings R61, R68: the line of a simplified host', () => {
	test('hostLineWords: a word the nodes know gives the line and its code; another word is shown as it came, with no code; network.id is never a line', async () => {
		await dialect('hostLineWords');
		const raw = await run({ resource: 'host', operation: 'getAll', returnAll: true, simplify: false });
		const simple = await run({ resource: 'host', operation: 'getAll', returnAll: true });
		const byId = new Map(simple.map((h) => [h.id, h]));
		for (const r of raw) {
			const h = byId.get(r.id);
			expect(Number(r.network.id)).toBeGreaterThan(100); // a row id, not a line code
			if (r.network.line === '内网') expect(h).toMatchObject({ line: 'Inner Network', lineCode: '1' });
			else if (r.network.line === '多线BGP') {
				expect(h.line).toBe('多线BGP');
				expect(h.lineCode).toBeUndefined();
			} else throw new Error(`unexpected line ${r.network.line}`);
		}
		expect(raw.map((r) => r.network.line)).toContain('多线BGP');
	});

	test('default: the line name and its code', async () => {
		const simple = await run({ resource: 'host', operation: 'getAll', returnAll: true });
		expect(simple.find((h) => h.name === 'web-1')).toMatchObject({ line: 'BGP', lineCode: '5' });
	});
});

describe("values sent as the vendor's documentation gives them", () => {
	test('Star or Unstar: Starred is off unless set (instance/mark: "default 0")', async () => {
		const [host] = (await v.api('instance/list', {})).data;
		const [plain] = await run({ resource: 'host', operation: 'star', id: v.byId(host.id), simplify: false });
		expect(plain.mark).toBe('0');
		const [starred] = await run({ resource: 'host', operation: 'star', id: v.byId(host.id), mark: true, simplify: false });
		expect(starred.mark).toBe('1');
	});
});

'use strict';
/**
 * Vendor Object Storage Trigger through n8n-core's poll machinery against the emulator: baseline,
 * new and changed objects, prefix and subfolders, Fetch Test Event, the file downloaded, writes
 * between the pages of a listing, late uploads, bursts, 100,000 objects, errors, and a
 * 1,000-poll simulation with failed polls and restarts against a ledger kept by the test.
 */
const { startVendor, n8n } = require('../../support/vendor');
const { readBinary, rl } = require('../../support/storage');
const { advance, storageRequestCount, sorted, runSimulation } = require('../../support/triggers');
const { NODE, BUCKET, MINUTE, STATE_LIMIT, md5, params, identity, warnings, bucketTools, prepare } = require('./objectStorageTrigger.simulation');

let v;
beforeAll(async () => {
	v = await startVendor();
});
afterAll(() => v.close());
beforeEach(() => prepare(v));

const { put, remove, hooks } = bucketTools(() => v);
const firedHooks = async () => (await v.control('GET', '/storage/listing-hooks')).hooks.filter((h) => h.fired);
const poll = (parameters, opts = {}) => n8n.runPoll(NODE, parameters, { credentials: { vendorObjectStorageApi: v.storageRef }, store: v.store, ...opts });
const stateOf = (staticData) => staticData['node:Trigger'].state;

/** A trigger whose static data is kept between polls, as an active workflow keeps it. */
async function activated(parameters) {
	const staticData = {};
	const first = await poll(parameters, { staticData, activation: true });
	expect(first.items).toEqual([]);
	return { staticData, next: async (opts = {}) => await poll(parameters, { staticData, ...opts }) };
}

describe('semantics', () => {
	test('the first poll records what is there and emits nothing; then each new object once, with its listing fields', async () => {
		await put(['a.txt', 'b.txt']);
		const t = await activated(params());
		expect(stateOf(t.staticData)).toMatchObject({ v: 1, objects: 2 });
		expect((await t.next()).items).toEqual([]);

		await v.control('POST', '/storage/objects', { bucket: BUCKET, key: 'c.txt', body: 'hello', contentType: 'text/plain' });
		const r = await t.next();
		expect(r.items).toEqual([
			{
				event: 'new',
				bucket: BUCKET,
				key: 'c.txt',
				size: 5,
				etag: md5('hello'),
				lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
				storageClass: 'STANDARD',
				owner: { id: 'vendor-test', displayName: 'vendor-test' },
			},
		]);
		expect(r.binaries).toEqual([undefined]);
		expect((await t.next()).items).toEqual([]);
	});

	test('New Object ignores changes; New or Changed Object reports them by ETag; the same content again and deletions are no event', async () => {
		await put(['keep.txt', 'edit.txt', 'same.txt', 'gone.txt']);
		const onlyNew = await activated(params());
		const both = await activated(params({ event: 'newOrChanged' }));
		await advance(v, 5 * MINUTE);
		await put([{ key: 'edit.txt', body: 'edited' }, { key: 'same.txt', body: 'same.txt' }, { key: 'new.txt', body: 'n' }]);
		await remove(['gone.txt']);
		expect((await onlyNew.next()).items.map(identity)).toEqual([`new:new.txt:${md5('n')}`]);
		expect((await both.next()).items.map(identity).sort()).toEqual(sorted([`changed:edit.txt:${md5('edited')}`, `new:new.txt:${md5('n')}`]));
		// a key deleted and written again with other content between two polls is changed; back as it was listed: nothing
		await remove(['keep.txt', 'edit.txt']);
		await put([{ key: 'keep.txt', body: 'other' }, { key: 'edit.txt', body: 'edited' }]);
		expect((await both.next()).items.map(identity)).toEqual([`changed:keep.txt:${md5('other')}`]);
		expect((await onlyNew.next()).items).toEqual([]);
		// deleted at one poll, written again at a later one: new
		await remove(['keep.txt']);
		expect((await both.next()).items).toEqual([]);
		await put(['keep.txt']);
		expect((await both.next()).items.map(identity)).toEqual([`new:keep.txt:${md5('keep.txt')}`]);
	});

	test('Folder and Include Subfolders: only keys under the prefix; without subfolders only those directly in it; folder markers are not files', async () => {
		await put(['inbox/', 'inbox/a.txt', 'inbox/sub/b.txt', 'inbox-old/c.txt', 'other/d.txt']);
		const deep = await activated(params({ prefix: 'inbox/' }));
		const flat = await activated(params({ prefix: 'inbox/', includeSubfolders: false }));
		expect(stateOf(deep.staticData).objects).toBe(2);
		expect(stateOf(flat.staticData).objects).toBe(1);
		await put(['inbox/new.txt', 'inbox/sub/new.txt', 'inbox/sub2/', 'inbox-old/new.txt', 'new.txt']);
		expect((await deep.next()).items.map((i) => i.key)).toEqual(['inbox/new.txt', 'inbox/sub/new.txt']);
		const requests = await storageRequestCount(v);
		expect((await flat.next()).items.map((i) => i.key)).toEqual(['inbox/new.txt']);
		expect((await storageRequestCount(v)) - requests).toBe(1);
	});

	test('another bucket, folder or subfolder setting starts a new baseline instead of reporting what was already there', async () => {
		await put(['x/1', 'y/1']);
		const staticData = {};
		await poll(params({ prefix: 'x/' }), { staticData, activation: true });
		expect((await poll(params({ prefix: 'y/' }), { staticData })).items).toEqual([]);
		await put(['y/2']);
		expect((await poll(params({ prefix: 'y/' }), { staticData })).items.map((i) => i.key)).toEqual(['y/2']);
		expect((await poll(params({ prefix: 'y/', includeSubfolders: false }), { staticData })).items).toEqual([]);
	});

	test('Download File: each new object with its file, exactly the version listed; replaced or deleted meanwhile: no file and why', async () => {
		const many = Array.from({ length: 1100 }, (_, n) => `bulk/${String(n).padStart(4, '0')}`);
		await put(many);
		const t = await activated(params({ event: 'newOrChanged', download: true, binaryPropertyName: 'file' }));
		await v.control('POST', '/storage/objects', {
			bucket: BUCKET,
			key: 'a/report.csv',
			body: 'month,revenue\nMay,12\n',
			contentType: 'text/csv',
			meta: { source: 'erp' },
			headers: { 'content-disposition': 'attachment; filename="report.csv"' },
		});
		await put([{ key: 'a/replaced.txt', body: 'first' }, { key: 'a/deleted.txt', body: 'soon gone' }]);
		// while the listing reads its second page (bulk/...), both are changed behind it: the poll
		// has listed the first versions, which it can no longer download
		await hooks([{ request: 2, put: [{ key: 'a/replaced.txt', body: 'second' }], delete: ['a/deleted.txt'] }]);
		const r = await t.next();
		const byKey = Object.fromEntries(r.items.map((item, n) => [item.key, { item, binary: r.binaries[n] }]));
		expect(Object.keys(byKey).sort()).toEqual(['a/deleted.txt', 'a/replaced.txt', 'a/report.csv']);
		const report = byKey['a/report.csv'];
		expect(report.item).toMatchObject({ event: 'new', size: 21, etag: md5('month,revenue\nMay,12\n'), contentType: 'text/csv', metadata: { source: 'erp' }, contentDisposition: 'attachment; filename="report.csv"' });
		expect(report.item.downloadError).toBeUndefined();
		expect(report.binary.file).toMatchObject({ fileName: 'report.csv', mimeType: 'text/csv' });
		expect((await readBinary(report.binary.file)).toString()).toBe('month,revenue\nMay,12\n');
		expect(byKey['a/replaced.txt'].binary).toBeUndefined();
		expect(byKey['a/replaced.txt'].item).toMatchObject({ etag: md5('first'), downloadError: 'Not downloaded: the object was written again before it could be downloaded (a later poll reports the new version as changed)' });
		expect(byKey['a/deleted.txt'].item.downloadError).toBe('Not downloaded: the object was deleted before it could be downloaded');
		// the version written during the poll comes next, as changed, with its file
		const next = await t.next();
		expect(next.items.map(identity)).toEqual([`changed:a/replaced.txt:${md5('second')}`]);
		expect((await readBinary(next.binaries[0].file)).toString()).toBe('second');
	});

	test('Fetch Test Event: the object modified last, real (with its file when downloading); the static data is left alone', async () => {
		await put([{ key: 'in/old.txt', body: 'old' }]);
		await advance(v, MINUTE);
		await put([{ key: 'in/newest.txt', body: 'newest' }, { key: 'out/later.txt', body: 'not watched' }]);
		const staticData = {};
		const r = await poll(params({ prefix: 'in/' }), { mode: 'manual', staticData });
		expect(r.items).toEqual([expect.objectContaining({ event: 'new', bucket: BUCKET, key: 'in/newest.txt', etag: md5('newest') })]);
		expect(r.items[0].sample).toBeUndefined();
		expect(staticData).toEqual({});
		const withFile = await poll(params({ prefix: 'in/', download: true }), { mode: 'manual' });
		expect((await readBinary(withFile.binaries[0].data)).toString()).toBe('newest');
	});

	test('Fetch Test Event with no object there: a sample made for these settings, marked as one', async () => {
		await put(['elsewhere/a.txt', 'in/sub/deeper.txt']);
		const [plain] = (await poll(params({ prefix: 'in/', includeSubfolders: false }), { mode: 'manual' })).items;
		expect(plain).toMatchObject({
			event: 'new',
			bucket: BUCKET,
			key: 'in/example.txt',
			storageClass: 'STANDARD',
			sample: true,
			sampleNote: expect.stringMatching(/^Sample, not an event: no object is listed directly in "in\/" \(not in its subfolders\) in bucket "watched".*each object added there/),
		});
		const r = await poll(params({ prefix: 'empty/', event: 'newOrChanged', download: true, binaryPropertyName: 'doc' }), { mode: 'manual' });
		expect(r.items[0]).toMatchObject({ key: 'empty/example.txt', contentType: 'text/plain', sample: true, sampleNote: expect.stringMatching(/added or changed there.*and its file in the binary field/) });
		const text = (await readBinary(r.binaries[0].doc)).toString();
		expect(text).toMatch(/^Sample file of the Vendor Object Storage Trigger: no object is listed under "empty\/" in bucket "watched"/);
		expect(r.items[0]).toMatchObject({ size: Buffer.byteLength(text), etag: md5(text) });
	});

	test('objects written between the pages of a listing: behind it, emitted by the next poll; ahead of it, by this one; never twice', async () => {
		await put(Array.from({ length: 1500 }, (_, n) => `k/${String(n * 2).padStart(5, '0')}`));
		const t = await activated(params());
		// the first page ends at k/01998; before the second page is answered, one write on each side
		await hooks([{ request: 2, put: [{ key: 'k/00001', body: 'behind' }, { key: 'k/02001', body: 'ahead' }] }]);
		const during = await t.next();
		const [fired] = await firedHooks();
		expect(fired.marker).toBe('k/01998');
		expect(during.items.map(identity)).toEqual([`new:k/02001:${md5('ahead')}`]);
		await v.control('POST', '/storage/listing-hooks', { hooks: [] });
		const after = await t.next();
		expect(after.items.map(identity)).toEqual([`new:k/00001:${md5('behind')}`]);
		expect((await t.next()).items).toEqual([]);
	});

	test('an object that appears with a LastModified older than the window (a long upload stamped at its start) is found all the same', async () => {
		await put(['a', 'b']);
		const t = await activated(params({ event: 'newOrChanged' }));
		await advance(v, 60 * MINUTE);
		const hourAgo = new Date(Date.now() - 30 * MINUTE).toISOString();
		await put([{ key: 'late.bin', body: 'late', lastModified: hourAgo }, { key: 'a', body: 'a2', lastModified: hourAgo }]);
		const r = await t.next();
		expect(r.items.map(identity).sort()).toEqual(sorted([`new:late.bin:${md5('late')}`, `changed:a:${md5('a2')}`]));
		expect(warnings(r)).toEqual([]);
	});

	test('a burst of 3,000 uploads between two polls: each emitted once as new; the state stays under 64 KiB', async () => {
		await put(Array.from({ length: 500 }, (_, n) => `old/${n}`));
		const t = await activated(params({ event: 'newOrChanged' }));
		await advance(v, 30 * MINUTE);
		const burst = Array.from({ length: 3000 }, (_, n) => `new/${String(n).padStart(4, '0')}`);
		await put(burst);
		const r = await t.next();
		expect(r.items).toHaveLength(3000);
		expect(new Set(r.items.map((i) => i.key)).size).toBe(3000);
		expect(r.items.every((i) => i.event === 'new')).toBe(true);
		expect(warnings(r)).toEqual([]);
		const state = stateOf(t.staticData);
		// more objects in the window than the recent list holds: the window starts later
		expect(state.w).toBeGreaterThan(state.t - 10 * MINUTE);
		expect(JSON.stringify(t.staticData).length).toBeLessThan(STATE_LIMIT);
		// 3,000 more, and then the deletion of the first burst: all told apart
		await advance(v, MINUTE);
		await put(burst.map((key) => ({ key: key.replace('new/', 'next/'), body: key })));
		expect((await t.next()).items).toHaveLength(3000);
		await remove(burst.slice(0, 1000));
		const quiet = await t.next();
		expect(quiet.items).toEqual([]);
		expect(warnings(quiet)).toEqual([]);
	});

	test('more old differences than the summary holds (a mass deletion with late uploads): what is found is emitted once, what may be new at least once with repeatPossible, with a warning', async () => {
		await put(Array.from({ length: 4000 }, (_, n) => `old/${String(n).padStart(4, '0')}`));
		const t = await activated(params());
		await advance(v, 30 * MINUTE);
		await remove(Array.from({ length: 3000 }, (_, n) => `old/${String(n).padStart(4, '0')}`));
		await put(['fresh-1', 'fresh-2']);
		const r = await t.next();
		// the new ones for certain, once; the objects the state cannot place (same age as the deleted
		// ones, in cells the difference still fills) flagged as possible repeats: none left out
		const certain = r.items.filter((i) => !i.repeatPossible);
		expect(certain.map((i) => `${i.event}:${i.key}`)).toEqual(['newOrChanged:fresh-1', 'newOrChanged:fresh-2']);
		const unsure = r.items.filter((i) => i.repeatPossible);
		expect(unsure.every((i) => i.event === 'newOrChanged' && /^old\/[3-9]\d{3}$/.test(i.key) && /may have been emitted before/.test(i.repeatNote))).toBe(true);
		expect(new Set(r.items.map((i) => i.key)).size).toBe(r.items.length);
		expect(warnings(r)).toEqual([expect.stringMatching(/more differences between two polls than its state can tell apart.*None is left out/)]);
		// the state is of this listing again: the next poll is exact
		await put(['fresh-3']);
		const next = await t.next();
		expect(next.items.map((i) => `${i.event}:${i.key}`)).toEqual(['new:fresh-3']);
		expect(warnings(next)).toEqual([]);
	});

	test('an error in manual mode and on the first poll is thrown; later it is logged, the state kept, and the next poll catches up', async () => {
		await put(['a']);
		await v.control('POST', '/faults', { inject: [{ op: 'ListObjects', kind: 'http', status: 500 }] });
		await expect(poll(params(), { mode: 'manual' })).rejects.toThrow(/The service had an internal error/);
		const staticData = {};
		await expect(poll(params(), { staticData, activation: true })).rejects.toThrow(/The service had an internal error/);
		await v.control('POST', '/faults', { inject: [] });
		await poll(params(), { staticData, activation: true });
		const baseline = JSON.stringify(staticData);
		await put(['b']);
		await v.control('POST', '/faults', { inject: [{ op: 'ListObjects', kind: 'http', status: 503 }] });
		const failed = await poll(params(), { staticData });
		expect(failed.items).toEqual([]);
		expect(failed.logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([expect.stringMatching(/repeated at the next poll/)]);
		expect(JSON.stringify(staticData)).toBe(baseline);
		await v.control('POST', '/faults', { inject: [] });
		expect((await poll(params(), { staticData })).items.map((i) => i.key)).toEqual(['b']);
		// a bucket that does not exist: named, with what to do
		await expect(poll(params({ bucket: rl('no-such-bucket') }), { mode: 'manual' })).rejects.toThrow('The bucket "no-such-bucket" does not exist');
		await expect(poll(params({ bucket: rl('') }), { mode: 'manual' })).rejects.toThrow(/The "Bucket" field is empty/);
	});

	test('two overlapping polls of one node: the object is emitted once', async () => {
		const t = await activated(params());
		await put(['x']);
		await v.control('POST', '/faults', { latencyMs: 50 });
		const [one, two] = await Promise.all([t.next(), t.next()]);
		await v.control('POST', '/faults', { latencyMs: 0 });
		expect([...one.items, ...two.items].map((i) => i.key)).toEqual(['x']);
		expect([...one.logs, ...two.logs].map((l) => l.level)).toEqual(['warn']);
		expect((await t.next()).items).toEqual([]);
	});

	test.each([['markerInclusive'], ['commonPrefixesPlain', 'extraFields']])('the same under the dialects %s', async (...dialects) => {
		await put(Array.from({ length: 1200 }, (_, n) => `in/${String(n).padStart(4, '0')}`));
		await put(['in/sub/x']);
		await v.control('POST', '/dialects', { set: dialects });
		try {
			const t = await activated(params({ prefix: 'in/', includeSubfolders: false }));
			expect(stateOf(t.staticData).objects).toBe(1200);
			await hooks([{ request: 2, put: [{ key: 'in/0001a', body: 'behind' }, { key: 'in/1100a', body: 'ahead' }] }]);
			expect((await t.next()).items.map((i) => i.key)).toEqual(['in/1100a']);
			expect((await t.next()).items.map((i) => i.key)).toEqual(['in/0001a']);
		} finally {
			await v.control('POST', '/dialects', { set: [] });
		}
	});
});

/** The simulation (objectStorageTrigger.simulation.js: what it does and checks), in a plain Node process. */
const SIMULATION = require.resolve('./objectStorageTrigger.simulation');

describe('simulation', () => {
	test('1,000 polls with writes before and during polls, failed polls, restarts and crashes: each new or changed object once, nothing else', async () => {
		const r = await runSimulation(SIMULATION, { seed: 2701, polls: 1000, cursor: 'live' }, { timeoutMs: 1740000 });
		expect(r.failedPolls).toBeGreaterThan(10);
		expect(r.crashRestarts).toBeGreaterThan(5);
		expect(r.writesBehindTheListing).toBeGreaterThan(50);
		expect(r.changedEvents).toBeGreaterThan(100);
		expect(r.emitted).toBeGreaterThan(1500);
	}, 1800000);

	test('the same with durable (staged) poll cursors', async () => {
		await runSimulation(SIMULATION, { seed: 2702, polls: 200, cursor: 'staged' }, { timeoutMs: 540000 });
	}, 600000);
});

describe('scale', () => {
	// 30,000 objects here (the state's size does not grow with the bucket: a fixed table and the recent
	// objects); test/bench/objectTrigger.bench.js measures 100,000
	test('30,000 objects: one request per 1,000, a state under 64 KiB, and a change among them found', async () => {
		const keys = Array.from({ length: 30000 }, (_, n) => `data/${String((n * 7919) % 30000).padStart(6, '0')}.json`);
		for (let n = 0; n < keys.length; n += 5000) await put(keys.slice(n, n + 5000));
		const t = await activated(params({ event: 'newOrChanged' }));
		expect(stateOf(t.staticData).objects).toBe(30000);
		expect(JSON.stringify(t.staticData).length).toBeLessThan(STATE_LIMIT);
		await advance(v, 20 * MINUTE);
		// the first request after the clock jump learns the service's time (RequestTimeTooSkewed, then again)
		expect((await t.next()).items).toEqual([]);
		await put([{ key: 'data/015000.json', body: 'changed' }, { key: 'data/new.json', body: 'new' }]);
		await remove(['data/000001.json']);
		const before = await storageRequestCount(v);
		const r = await t.next();
		expect((await storageRequestCount(v)) - before).toBe(30); // 30,000 objects: 30 pages
		expect(r.items.map(identity).sort()).toEqual(sorted([`changed:data/015000.json:${md5('changed')}`, `new:data/new.json:${md5('new')}`]));
		expect(JSON.stringify(t.staticData).length).toBeLessThan(STATE_LIMIT);
	}, 15 * 60 * 1000); // a safety cap, not a timing: four listings of 30,000 objects take a minute or more on a loaded machine
});

'use strict';
/**
 * Issue 33: Copy, Move, Get Info, the deletes and the Object Storage Trigger on evidence, under
 * every reading of the storage document (docs/vendor/readings.md#r74) and its faults, through
 * n8n-core against the emulator over HTTP. Each reading is an emulator dialect: rangeAs200 (a
 * range answered 200 with only its bytes), rangeIgnored (200 with the whole object),
 * ifMatchIgnored, multipartEtagPlain (a multipart ETag of 32 hex digits), listingRepeats
 * (entries listed again). Objects are small: what is proven does not depend on their size (a
 * multipart source of 5,000 bytes is copied in parts of 1,049).
 */
const http = require('node:http');
const { startVendor, n8n } = require('../../support/vendor');
const { NODE, rl, md5, countRequests } = require('../../support/storage');

let v;
let counter;
beforeAll(async () => {
	v = await startVendor();
	counter = countRequests(v.emu);
	await v.control('POST', '/storage/buckets', { name: 'ev-bucket' });
});
afterAll(() => v.close());
afterEach(async () => {
	await v.control('POST', '/faults', { inject: [] });
	await v.control('POST', '/dialects', { set: [] });
	await v.control('POST', '/storage/listing-hooks', { hooks: [] });
});

const B = 'ev-bucket';
const ok = (parameters, opts) => v.ok(NODE, parameters, opts);
const fails = (parameters, opts) => v.fails(NODE, parameters, opts);
const dialect = (...names) => v.control('POST', '/dialects', { set: names });
const inject = (...rules) => v.control('POST', '/faults', { inject: rules });
const objects = async () => (await v.control('GET', `/storage/objects?bucket=${B}`)).objects;
const objectAt = async (key) => (await objects()).find((o) => o.key === key);
const id = (key) => ({ __rl: true, mode: 'id', value: key });
/** Deterministic bytes. */
const bytes = (n, seed) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + seed * 104729) % 251));
/** An object as a multipart upload in parts of `partSize` bytes would leave it (its ETag is no MD5); `partSize` 0: one PUT. */
const seed = (key, body, partSize = 1000, extra = {}) =>
	v.control('POST', '/storage/objects', { bucket: B, key, base64: body.toString('base64'), ...(partSize ? { partSize } : {}), ...extra });
/** The bytes of an object, read with a plain GET through the emulator's own S3 client (aws-sdk is not needed). */
async function bytesAt(key) {
	const [item] = await v.run(NODE, { resource: 'object', operation: 'download', bucket: rl(B), key: id(key) }).then((r) => r.items);
	const { readBinary } = require('../../support/storage');
	return await readBinary(item.binary.data);
}
const SMALL_PARTS = { partSize: 0.001, partConcurrency: 2 }; // parts of round(0.001 MiB) = 1,049 bytes
const copyParams = (key, destinationKey, options = SMALL_PARTS) => ({ resource: 'object', operation: 'copy', bucket: rl(B), key: id(key), destinationBucket: rl(B), destinationKey, options });
const moveParams = (key, destinationKey, options = SMALL_PARTS) => ({ ...copyParams(key, destinationKey, options), operation: 'move' });
const sourceGets = (mark, key) => counter.since(mark).filter((r) => r.startsWith(`GET /${B}/${key.replace(/ /g, '%20')}`));

describe('1. Copy, Move and Get Info learn the version from the listing and check every answer', () => {
	test('Copy whose part reads finish out of order: the MD5 of the bytes read is of the source (a request slot reuses its buffer only once its part is hashed)', async () => {
		// a range read broken off and read again keeps its part back while the other slot reads on:
		// parts are hashed in order, so the slot that runs ahead must not refill a part not yet hashed
		const body = bytes(12000, 9);
		await seed('c/out-of-order.bin', body);
		await inject({ op: 'GetObject', kind: 'resetMidBody', afterBytes: 100, skip: 1, times: 1 });
		const [c] = await ok(copyParams('c/out-of-order.bin', 'c/out-of-order-copy.bin'));
		expect(c).toMatchObject({ size: 12000, md5: md5(body), partCount: 12 });
		expect(await bytesAt('c/out-of-order-copy.bin')).toEqual(body);
	});

	test.each([['default'], ['rangeAs200'], ['rangeIgnored']])('Get Info under %s: size, ETag and LastModified of the listing entry, not of the answer to a range', async (reading) => {
		const body = bytes(4700, 1);
		await seed('info/big.bin', body, 2000, { contentType: 'application/x-ev' });
		const listed = await objectAt('info/big.bin');
		if (reading !== 'default') await dialect(reading);
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl(B), key: id('info/big.bin') });
		expect(info).toMatchObject({ size: 4700, sizeFrom: 'listing', etag: listed.etag.replace(/"/g, ''), lastModified: listed.lastModified, contentType: 'application/x-ev' });
	});

	test('Get Info without a listing entry (a key that may not list the bucket) under rangeAs200: the size from a GET without a range, not the 1 byte asked for', async () => {
		await seed('info/unlisted.bin', bytes(3000, 2), 1000);
		await dialect('rangeAs200');
		await inject({ op: 'ListObjects', kind: 'http', status: 403, code: 'AccessDenied' });
		const [info] = await ok({ resource: 'object', operation: 'getInfo', bucket: rl(B), key: id('info/unlisted.bin') });
		expect(info).toMatchObject({ size: 3000, sizeFrom: 'contentLength' });
	});

	test.each([['rangeAs200'], ['rangeIgnored'], ['default']])('Copy of a multipart-made object under %s: the whole object, in its ranges or read once', async (reading) => {
		const body = bytes(5000, 3);
		await seed(`c/${reading}.bin`, body);
		if (reading !== 'default') await dialect(reading);
		const mark = counter.count;
		const [c] = await ok(copyParams(`c/${reading}.bin`, `c/${reading}-copy.bin`));
		expect(c).toMatchObject({ size: 5000, md5: md5(body), multipart: true, partCount: 5 });
		expect((await objectAt(`c/${reading}-copy.bin`)).size).toBe(5000);
		expect(await bytesAt(`c/${reading}-copy.bin`)).toEqual(body);
		// ranges answered with the whole object: that answer is read once and streamed, nothing asked again
		expect(sourceGets(mark, `c/${reading}.bin`)).toHaveLength(reading === 'rangeIgnored' ? 1 : 5);
		// the source's ETag (S3's multipart form, parts of 1,000 bytes) is no MD5 and the copy's parts are 1,049 bytes: nothing proves it
		expect(c.sourceVerified).toBe('sameVersion');
		expect(c.verification).toMatch(/the bytes read were not checked against the source/);
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	});

	test('a multipart ETag proven by the bytes: parts of the size the copy uses give it', async () => {
		const body = bytes(5000, 4);
		await seed('c/proven.bin', body, 1049);
		const [c] = await ok(copyParams('c/proven.bin', 'c/proven-copy.bin'));
		expect(c).toMatchObject({ sourceVerified: 'multipartEtag', copyVerified: 'multipartEtag', md5: md5(body) });
		expect(c.verification).toBe("The MD5s of the bytes read in parts of 1049 bytes give the source's multipart ETag; the copy's ETag is the multipart ETag of the MD5s of the 5 parts written.");
	});

	test('multipartEtagPlain: an object whose multipart ETag is 32 hex digits copies; read a second time when its parts are not the copy\'s', async () => {
		await dialect('multipartEtagPlain');
		const body = bytes(5000, 5);
		await seed('c/plain.bin', body, 1000);
		const mark = counter.count;
		const [c] = await ok(copyParams('c/plain.bin', 'c/plain-copy.bin'));
		expect(c).toMatchObject({ size: 5000, md5: md5(body), sourceVerified: 'readTwice', copyVerified: 'multipartEtag' });
		expect(c.verification).toMatch(/^The source's ETag is not the MD5 of its bytes; a second read of the source gave the same MD5/);
		// five ranges, and one whole read
		expect(sourceGets(mark, 'c/plain.bin')).toHaveLength(6);
		// in parts the size of its own, the ETag is proven without reading it again
		await seed('c/plain-1049.bin', body, 1049);
		const [p] = await ok(copyParams('c/plain-1049.bin', 'c/plain-1049-copy.bin'));
		expect(p.sourceVerified).toBe('multipartEtag');
	});

	test('If-Match ignored and the source written again during a multipart copy: the answer of another version stops it, nothing is written', async () => {
		await dialect('ifMatchIgnored');
		await seed('c/changing.bin', bytes(5000, 6));
		// before the third read of the source (its second range) is answered, the source is written again
		await v.control('POST', '/storage/listing-hooks', { hooks: [{ bucket: B, op: 'GetObject', key: 'c/changing.bin', request: 3, put: [{ key: 'c/changing.bin', base64: bytes(5000, 7).toString('base64') }] }] });
		const error = await fails({ ...copyParams('c/changing.bin', 'c/changing-copy.bin'), options: { partSize: 0.001, partConcurrency: 1 } });
		expect(error.message).toMatch(/c\/changing\.bin changed while it was copied/);
		expect(error.description).toMatch(/came from another version .* than the one being copied .* Nothing was written/);
		expect(await objectAt('c/changing-copy.bin')).toBeUndefined();
		expect((await v.control('GET', '/storage/uploads')).uploads).toEqual([]);
	});

	test('a byte changed on the way from a source whose ETag proves nothing: Copy claims no check it did not make', async () => {
		const body = bytes(5000, 8);
		await seed('c/flip.bin', body, 1000);
		// the second read of the source (its second range) arrives with one byte changed
		await inject({ op: 'GetObject', kind: 'flipByte', afterBytes: 10, skip: 1, times: 1 });
		const [c] = await ok(copyParams('c/flip.bin', 'c/flip-copy.bin'));
		expect(c.md5).not.toBe(md5(body));
		expect(c.sourceVerified).toBe('sameVersion');
		expect(c.verification).toMatch(/^Every answer read carried the source's ETag and Last-Modified and the listed size, but .* the bytes read were not checked against the source; the copy's ETag is the multipart ETag/);
	});

	test('a byte changed on the way from an object made by one PUT: its ETag is its MD5, so the copy stops and writes nothing', async () => {
		const body = bytes(5000, 9);
		await seed('c/flip-put.bin', body, 0);
		await inject({ op: 'GetObject', kind: 'flipByte', afterBytes: 10, skip: 1, times: 1 });
		const error = await fails(copyParams('c/flip-put.bin', 'c/flip-put-copy.bin'));
		// the ETag looks like an MD5 and the bytes do not give it: read again, and the two reads differ
		expect(error.message).toMatch(/Two reads of ev-bucket\/c\/flip-put\.bin gave different bytes/);
		expect(await objectAt('c/flip-put-copy.bin')).toBeUndefined();
	});
});

describe('2. Move deletes only what it has proven', () => {
	test('rangeAs200: Move of a multipart-made object copies it whole, then deletes the original', async () => {
		await dialect('rangeAs200');
		const body = bytes(4700, 10);
		await seed('m/short.bin', body, 2000);
		const [m] = await ok(moveParams('m/short.bin', 'm/short-moved.bin'));
		expect(m).toMatchObject({ size: 4700, md5: md5(body), sourceDeleted: true });
		expect(await bytesAt('m/short-moved.bin')).toEqual(body);
		expect(await objectAt('m/short.bin')).toBeUndefined();
	});

	test('If-Match ignored and the source written again while it is read: Move fails, the new source stays, nothing is written', async () => {
		await dialect('ifMatchIgnored');
		await seed('m/changing.bin', bytes(5000, 11));
		const newer = bytes(5000, 12);
		await v.control('POST', '/storage/listing-hooks', { hooks: [{ bucket: B, op: 'GetObject', key: 'm/changing.bin', request: 3, put: [{ key: 'm/changing.bin', base64: newer.toString('base64') }] }] });
		const error = await fails({ ...moveParams('m/changing.bin', 'm/changing-moved.bin'), options: { partSize: 0.001, partConcurrency: 1 } });
		expect(error.message).toMatch(/changed while it was copied/);
		expect(await bytesAt('m/changing.bin')).toEqual(newer);
		expect(await objectAt('m/changing-moved.bin')).toBeUndefined();
	});

	test('a byte changed on the way from a source whose ETag proves nothing: Move reads it again, finds the difference, and deletes nothing', async () => {
		const body = bytes(5000, 13);
		await seed('m/flip.bin', body, 1000);
		await inject({ op: 'GetObject', kind: 'flipByte', afterBytes: 10, skip: 1, times: 1 });
		const error = await fails(moveParams('m/flip.bin', 'm/flip-moved.bin'));
		expect(error.message).toBe('ev-bucket/m/flip.bin differs from its copy, so it was not deleted');
		expect(error.description).toMatch(/The copy at ev-bucket\/m\/flip-moved\.bin holds the version that was read .* The source ev-bucket\/m\/flip\.bin was not deleted\./);
		expect(await bytesAt('m/flip.bin')).toEqual(body);
	});

	test('the verification names what was compared, the fresh look and the whole read of a source whose ETag proves nothing', async () => {
		const body = bytes(5000, 14);
		await seed('m/unproven.bin', body, 1000);
		const mark = counter.count;
		const [m] = await ok(moveParams('m/unproven.bin', 'm/unproven-moved.bin'));
		expect(m).toMatchObject({ sourceDeleted: true, sourceVerified: 'sameVersion', copyVerified: 'multipartEtag' });
		expect(m.verification).toMatch(/Just before the delete the source was listed again with the same size, ETag and LastModified and read again whole with the MD5 of the copy\.$/);
		// five ranges, the whole read, and nothing else of the source
		expect(sourceGets(mark, 'm/unproven.bin')).toHaveLength(6);
		expect(counter.since(mark).filter((r) => r.startsWith('DELETE '))).toEqual([`DELETE /${B}/m/unproven.bin`]);
	});

	test('the source written again after the copy and before the delete: not deleted, and the item says where the copy is', async () => {
		await seed('m/later.bin', bytes(3000, 15), 0);
		// the Move lists the source twice: to learn its version, and just before the delete
		await v.control('POST', '/storage/listing-hooks', { hooks: [{ bucket: B, request: 2, put: [{ key: 'm/later.bin', body: 'written meanwhile' }] }] });
		const error = await fails(moveParams('m/later.bin', 'm/later-moved.bin'));
		expect(error.message).toBe('ev-bucket/m/later.bin changed while it was moved, so it was not deleted');
		expect(error.description).toMatch(/The copy at ev-bucket\/m\/later-moved\.bin holds the version that was read/);
		expect((await objectAt('m/later.bin')).size).toBe('written meanwhile'.length);
		expect((await objectAt('m/later-moved.bin')).size).toBe(3000);
	});

	test('a delete that fails: the error says where the checked copy is and that the source stayed', async () => {
		await seed('m/undeletable.txt', Buffer.from('stays'), 0);
		await inject({ op: 'DeleteObject', kind: 'http', status: 500, code: 'InternalError' });
		const error = await fails(moveParams('m/undeletable.txt', 'm/undeletable-moved.txt'));
		expect(error.message).toMatch(/^The copy is at ev-bucket\/m\/undeletable-moved\.txt, but ev-bucket\/m\/undeletable\.txt could not be deleted: The service had an internal error/);
		expect(error.description).toMatch(/The copy at ev-bucket\/m\/undeletable-moved\.txt is complete and checked \(The MD5 of the 5 bytes read equals the source's ETag; .*\) The source ev-bucket\/m\/undeletable\.txt stayed as it was/);
		expect(await objectAt('m/undeletable.txt')).toBeDefined();
		expect(await objectAt('m/undeletable-moved.txt')).toBeDefined();
	}, 60000);
});

describe('3. the deletes report what happened', () => {
	const keys = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}.txt`);
	const seedKeys = (list) => v.control('POST', '/storage/objects', { bucket: B, objects: list.map((key) => ({ key, body: key })) });

	test('Folder Delete stopped by NoSuchBucket from the third DELETE on: the item lists what was deleted and what was not', async () => {
		await seedKeys(keys('stop/', 6));
		await inject({ op: 'DeleteObject', kind: 'http', status: 404, code: 'NoSuchBucket', skip: 2 });
		const [d] = await ok({ resource: 'folder', operation: 'delete', bucket: rl(B), folder: 'stop', safetyLimit: 10, options: { concurrency: 1 } });
		expect(d).toMatchObject({ count: 6, deleted: 2, failed: 1, notSent: 3, deletedKeys: ['stop/0000.txt', 'stop/0001.txt'], stopped: 'The bucket "ev-bucket" does not exist' });
		expect(d.notDeleted.map((n) => [n.key, n.code ?? (n.notSent ? 'notSent' : '')])).toEqual([
			['stop/0002.txt', 'NoSuchBucket'],
			['stop/0003.txt', 'notSent'],
			['stop/0004.txt', 'notSent'],
			['stop/0005.txt', 'notSent'],
		]);
		expect((await objects()).filter((o) => o.key.startsWith('stop/')).map((o) => o.key)).toEqual(keys('stop/', 6).slice(2));
	});

	test('Delete Many stopped the same way: an item per key saying what happened to it', async () => {
		await seedKeys(keys('many/', 5));
		await inject({ op: 'DeleteObject', kind: 'http', status: 404, code: 'NoSuchBucket', skip: 2 });
		const out = await ok({ resource: 'object', operation: 'deleteMany', bucket: rl(B), keysFrom: 'list', keys: keys('many/', 5).join('\n'), options: { concurrency: 1 } });
		expect(out.map((o) => `${o.key}:${o.gone}:${o.code ?? (o.notSent ? 'notSent' : '')}`)).toEqual(['many/0000.txt:true:', 'many/0001.txt:true:', 'many/0002.txt:false:NoSuchBucket', 'many/0003.txt:false:notSent', 'many/0004.txt:false:notSent']);
		expect(out[3].error).toBe('Not sent: the deletions stopped, as this error applies to every key (NoSuchBucket): The bucket "ev-bucket" does not exist');
	});

	test('listingRepeats: Folder Delete counts each key once, across a page boundary too, and deletes each once', async () => {
		const list = keys('rep/', 1100);
		await seedKeys(list);
		await dialect('listingRepeats');
		const mark = counter.count;
		const [d] = await ok({ resource: 'folder', operation: 'delete', bucket: rl(B), folder: 'rep', safetyLimit: 1100, options: { concurrency: 16 } });
		expect(d).toMatchObject({ count: 1100, deleted: 1100, failed: 0, notSent: 0 });
		const deletes = counter.since(mark).filter((r) => r.startsWith('DELETE '));
		expect(new Set(deletes).size).toBe(1100);
		expect(deletes).toHaveLength(1100);
	}, 120000);

	test('common prefixes of a listing without delimiter are not keys: never sent to Delete object', async () => {
		const sent = [];
		const server = http.createServer((req, res) => {
			sent.push(`${req.method} ${req.url}`);
			if (req.method === 'GET') {
				res.writeHead(200, { 'content-type': 'application/xml' });
				res.end(
					'<?xml version="1.0"?><ListBucketResult><Name>b</Name><Prefix>f/</Prefix><IsTruncated>false</IsTruncated>' +
						'<Contents><Key>f/a.txt</Key><Size>1</Size><ETag>"x"</ETag></Contents><CommonPrefixes><Prefix>f/sub/</Prefix></CommonPrefixes></ListBucketResult>',
				);
			} else {
				res.writeHead(204);
				res.end();
			}
		});
		await new Promise((r) => server.listen(0, '127.0.0.1', r));
		try {
			const store = new n8n.CredentialStore();
			const ref = store.add('vendorObjectStorageApi', { endpoint: `http://127.0.0.1:${server.address().port}`, accessKey: 'K', accessSecret: 'S' });
			const [d] = await ok({ resource: 'folder', operation: 'delete', bucket: rl('bucket-b'), folder: 'f', safetyLimit: 10 }, { credentials: { vendorObjectStorageApi: ref }, store });
			expect(d).toMatchObject({ count: 1, deleted: 1, deletedKeys: ['f/a.txt'] });
			expect(sent.filter((s) => s.startsWith('DELETE'))).toEqual(['DELETE /bucket-b/f/a.txt']);
		} finally {
			server.close();
		}
	});

	test('Delete Many with keys from items: a list is several keys; an object or a number is refused naming its item, never deleted as text', async () => {
		await seedKeys(['items/1.txt', 'items/2.txt', 'items/3.txt']);
		const mark = counter.count;
		const { items } = await v.run(NODE, { resource: 'object', operation: 'deleteMany', bucket: rl(B), keysFrom: 'items', key: '={{ $json.k }}' }, { input: [{ k: ['items/1.txt', 'items/2.txt'] }, { k: { path: 'items/3.txt' } }, { k: 3 }, { k: 'items/3.txt' }] });
		expect(items.map((i) => [i.json.key, i.json.gone, i.pairedItem.item])).toEqual([
			['items/1.txt', true, 0],
			['items/2.txt', true, 0],
			['', false, 1],
			['', false, 2],
			['items/3.txt', true, 3],
		]);
		expect(items[2].json.error).toBe('Item 1: The "Key" is an object, not text: map the text of the key, e.g. {{ $json.key }}');
		expect(items[3].json.error).toMatch(/^Item 2: The "Key" is a number \(3\), not text/);
		expect(counter.since(mark).filter((r) => r.startsWith('DELETE ')).sort()).toEqual([`DELETE /${B}/items/1.txt`, `DELETE /${B}/items/2.txt`, `DELETE /${B}/items/3.txt`]);
	});

	test('Delete Many of a key that never existed: the service answers 204 either way, so the item does not say it was deleted', async () => {
		const [item] = await ok({ resource: 'object', operation: 'deleteMany', bucket: rl(B), keysFrom: 'list', keys: 'never/there.txt' });
		expect(item).toEqual({ bucket: B, key: 'never/there.txt', gone: true });
		expect(item.deleted).toBeUndefined();
	});
});

describe('4. the Object Storage Trigger: at least once, never silently missed', () => {
	const TRIGGER = 'vendorObjectStorageTrigger';
	const MINUTE = 60e3;
	const poll = (parameters, opts = {}) => n8n.runPoll(TRIGGER, parameters, { credentials: { vendorObjectStorageApi: v.storageRef }, store: v.store, ...opts });
	const params = (prefix) => ({ event: 'new', bucket: rl(B), prefix, includeSubfolders: true, download: false });

	test('2,000 objects appear between two polls with a LastModified from before the previous poll: every one is emitted, none missed; the next poll emits none', async () => {
		await v.control('POST', '/storage/objects', { bucket: B, objects: Array.from({ length: 500 }, (_, i) => ({ key: `late/old-${i}`, body: 'old' })) });
		const staticData = {};
		expect((await poll(params('late/'), { staticData, activation: true })).items).toEqual([]);
		await v.control('POST', '/clock/advance', { ms: 90 * MINUTE });
		// late multipart completes stamped at their start, copies that keep the date: older than the last poll's window
		const hourAgo = new Date(v.emu.clock.now() - 150 * MINUTE).toISOString();
		const late = Array.from({ length: 2000 }, (_, i) => `late/new-${String(i).padStart(4, '0')}`);
		await v.control('POST', '/storage/objects', { bucket: B, objects: late.map((key) => ({ key, body: key, lastModified: hourAgo })) });
		const r = await poll(params('late/'), { staticData });
		const emitted = new Set(r.items.map((i) => i.key));
		expect(late.filter((k) => !emitted.has(k))).toEqual([]);
		expect(emitted.size).toBe(r.items.length);
		// beyond what the state tells apart: flagged, and only objects of the same age as the new ones
		const unsure = r.items.filter((i) => i.repeatPossible);
		expect(unsure.length).toBeGreaterThan(0);
		expect(r.items.filter((i) => !late.includes(i.key))).toEqual([]);
		expect((await poll(params('late/'), { staticData })).items).toEqual([]);
		expect(JSON.stringify(staticData).length).toBeLessThan(64 * 1024);
	}, 120000);

	test('listingRepeats: a new object at a page boundary, listed three times, is one event', async () => {
		await v.control('POST', '/storage/objects', { bucket: B, objects: Array.from({ length: 1200 }, (_, i) => ({ key: `page/${String(i * 2).padStart(5, '0')}`, body: 'x' })) });
		await dialect('listingRepeats');
		const staticData = {};
		await poll(params('page/'), { staticData, activation: true });
		// the last key of the first page (1,000 entries), listed again at the start of the second and twice within the first
		await v.control('POST', '/storage/objects', { bucket: B, key: 'page/01997', body: 'new' });
		const r = await poll(params('page/'), { staticData });
		expect(r.items.map((i) => `${i.event}:${i.key}`)).toEqual(['new:page/01997']);
		expect((await poll(params('page/'), { staticData })).items).toEqual([]);
	}, 60000);
});

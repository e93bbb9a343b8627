'use strict';
/**
 * The storage emulator's control routes (mounted under /__emulator/storage/...), the demo seed,
 * and its state saved and restored (snapshot, restore, reset).
 */
const keysIndex = require('./keys');
const { iso } = require('./wire');
const { normalizeUser, normalizeConfig, validBucketName, CANNED_ACLS } = require('./state');


function createControl(s) {
	const { bodies, initialUsers, config, users, buckets, uploads, listingHooks, initState, storeObject, removeObject, newBucket, ownerFor, putBuffer, toMs, objectBytes, badControl, objectSummary } = s;

	const control = {
		'GET /uploads': async (_body, q) => ({
			uploads: [...uploads.values()]
				.filter((u) => !q.bucket || u.bucket === q.bucket)
				.map((u) => ({
					bucket: u.bucket,
					key: u.key,
					uploadId: u.id,
					parts: u.parts.size,
					initiated: iso(u.initiated),
				})),
		}),
		'GET /objects': async (_body, q) => {
			const list = q.bucket ? [buckets.get(q.bucket)].filter(Boolean) : [...buckets.values()];
			const objects = [];
			for (const b of list)
				for (const k of b.keys) objects.push(objectSummary(b, b.objects.get(k)));
			return {
				bucket: q.bucket,
				exists: q.bucket ? list.length > 0 : undefined,
				count: objects.length,
				objects,
			};
		},
		'GET /buckets': async () => ({
			buckets: [...buckets.values()].map((b) => ({
				name: b.name,
				owner: b.owner,
				acl: b.acl,
				created: iso(b.created),
				objects: b.keys.length,
			})),
		}),
		/** { name, acl?, owner? (access key or user id) } */
		'POST /buckets': async (body) => {
			if (!body.name || !validBucketName(body.name))
				throw new Error(`invalid bucket name ${body.name}`);
			if (body.acl && !CANNED_ACLS.includes(body.acl)) throw new Error(`invalid acl ${body.acl}`);
			const b = buckets.get(body.name) || newBucket(body.name, ownerFor(body.owner));
			if (body.acl) b.acl = body.acl;
			return { name: b.name, owner: b.owner, acl: b.acl };
		},
		/**
		 * { bucket, key, body (text) | base64, contentType?, meta?, acl?, headers?, partSize? }, or
		 * (partSize: the ETag a multipart upload in parts of that many bytes would give), or
		 * { bucket, objects: [ ...same without bucket ] } for bulk seeding (one sort at the end).
		 * The bucket is created (owned by the first user) when missing.
		 */
		'POST /objects': async (body) => {
			if (!body.bucket || !validBucketName(body.bucket))
				throw new Error(`invalid bucket name ${body.bucket}`);
			const b = buckets.get(body.bucket) || newBucket(body.bucket, ownerFor(body.owner));
			const items = Array.isArray(body.objects) ? body.objects : [body];
			const bulk = items.length > 1;
			for (const it of items) {
				if (typeof it.key !== 'string' || !it.key) throw new Error('each object needs a key');
				const obj = putBuffer(b, it.key, objectBytes(it), it);
				if (bulk) {
					const old = b.objects.get(it.key);
					if (old) bodies.discard(old.body);
					else b.keys.push(it.key);
					b.objects.set(it.key, obj);
				} else storeObject(b, obj);
			}
			if (bulk) b.keys.sort(keysIndex.cmpKeys);
			return { bucket: b.name, stored: items.length, count: b.keys.length };
		},
		/** { bucket, keys: [...] }: removes those objects (missing keys are ignored). */
		'POST /objects/delete': async (body) => {
			const b = buckets.get(body.bucket);
			if (!b) throw badControl(`no bucket ${body.bucket}`);
			let deleted = 0;
			for (const key of body.keys || []) if (removeObject(b, String(key))) deleted++;
			return { bucket: b.name, deleted, count: b.keys.length };
		},
		/** The listing hooks with what each did: { bucket, request, seen, fired, marker, put, delete }. */
		'GET /listing-hooks': async () => ({
			hooks: listingHooks.map((h) => ({ ...h, put: h.put.map((it) => it.key) })),
		}),
		/**
		 * { hooks: [{ bucket, request, put?: [{ key, body | base64, contentType?, meta?, lastModified? }], delete?: [keys] }] }
		 * appends hooks (runListingHooks); { hooks: [] } removes them all. `request` 1 is the next
		 * ListObjects request of the bucket, 2 the one after (the second page of a listing), ...
		 * With `op: 'GetObject'` (and `key`, optional) a hook counts the Get Object requests of
		 * that key instead (runGetHooks): an object replaced while a client reads it in ranges.
		 */
		'POST /listing-hooks': async (body) => {
			if (!Array.isArray(body.hooks)) throw badControl('hooks must be an array of listing hooks ([] removes them all)');
			if (body.hooks.length === 0) listingHooks.length = 0;
			for (const h of body.hooks) {
				if (!h || typeof h.bucket !== 'string') throw badControl('a listing hook needs a bucket');
				if (!Number.isInteger(h.request) || h.request < 1) throw badControl('request must be a whole number from 1 (the next listing request)');
				const put = Array.isArray(h.put) ? h.put : [];
				if (put.some((it) => !it || typeof it.key !== 'string' || !it.key)) throw badControl('each object to put needs a key');
				for (const it of put) if (it.lastModified !== undefined) toMs(it.lastModified);
				if (h.op !== undefined && h.op !== 'ListObjects' && h.op !== 'GetObject') throw badControl('op must be ListObjects (the default) or GetObject');
				const hook = { bucket: h.bucket, op: h.op || 'ListObjects', request: h.request, seen: 0, fired: false, marker: null, put, delete: (h.delete || []).map(String) };
				if (h.key !== undefined) hook.key = String(h.key);
				listingHooks.push(hook);
			}
			return { hooks: listingHooks.length };
		},
		'GET /users': async () => ({
			users: [...users.values()].map((u) => ({
				accessKey: u.accessKey,
				id: u.id,
				displayName: u.displayName,
			})),
		}),
		/** { accessKey, secretKey, id?, displayName? } */
		'POST /users': async (body) => {
			const u = normalizeUser(body);
			users.set(u.accessKey, u);
			return { accessKey: u.accessKey, id: u.id, displayName: u.displayName };
		},
		'GET /config': async () => ({ ...config }),
		/** { scheme?, headerPrefix?, presignKeyParam? } */
		'POST /config': async (body) => {
			Object.assign(config, normalizeConfig(body, config));
			return { ...config };
		},
	};

	async function seedDemo() {
		const owner = initialUsers[0].id;
		const b = buckets.get('demo-bucket') || newBucket('demo-bucket', owner);
		const demo = [
			[
				'hello.txt',
				'text/plain; charset=utf-8',
				'Hello from the vendor object storage emulator!\n',
			],
			[
				'data/sample.json',
				'application/json',
				JSON.stringify({ name: 'sample', items: [1, 2, 3], ok: true }, null, 2) + '\n',
			],
			[
				'reports/2026/q1-summary.csv',
				'text/csv',
				'month,revenue\nJanuary,1200\nFebruary,1350\nMarch,1410\n',
			],
			[
				'reports/2026/q2-summary.csv',
				'text/csv',
				'month,revenue\nApril,1500\nMay,1480\nJune,1620\n',
			],
			['images/README.md', 'text/markdown', '# Images\n\nPut pictures here.\n'],
		];
		for (const [key, contentType, text] of demo) {
			storeObject(
				b,
				putBuffer(b, key, Buffer.from(text, 'utf8'), { contentType, meta: { source: 'demo' } }),
			);
		}
	}

	function snapshot() {
		return {
			version: 1,
			users: [...users.values()],
			buckets: [...buckets.values()].map((b) => ({
				name: b.name,
				owner: b.owner,
				acl: b.acl,
				created: b.created,
				aclModified: b.aclModified,
				objects: b.keys.map((k) => {
					const { body, ...meta } = b.objects.get(k);
					return { ...meta, body: bodies.toJSON(body) };
				}),
			})),
			uploads: [...uploads.values()]
				.filter((u) => !u.completing)
				.map((u) => {
					const { parts, completing, ...meta } = u;
					return {
						...meta,
						parts: [...parts.values()].map(({ body, ...p }) => ({
							...p,
							body: bodies.toJSON(body),
						})),
					};
				}),
		};
	}

	function restore(saved) {
		if (!saved || saved.version !== 1) return;
		buckets.clear();
		uploads.clear();
		for (const u of saved.users || [])
			if (!users.has(u.accessKey)) users.set(u.accessKey, normalizeUser(u));
		const referenced = new Set();
		const load = (json) => {
			const body = json && bodies.fromJSON(json);
			if (body) for (const file of bodies.filesOf(body)) referenced.add(file);
			return body;
		};
		for (const sb of saved.buckets || []) {
			const b = newBucket(sb.name, sb.owner, sb.acl);
			b.created = sb.created;
			b.aclModified = sb.aclModified;
			for (const so of sb.objects) {
				const body = load(so.body);
				if (!body) continue; // its file is gone (written after the last save and since replaced)
				b.objects.set(so.key, { ...so, body });
				b.keys.push(so.key);
			}
			b.keys.sort(keysIndex.cmpKeys);
		}
		for (const su of saved.uploads || []) {
			const parts = new Map();
			for (const sp of su.parts) {
				const body = load(sp.body);
				if (body) parts.set(sp.number, { ...sp, body });
			}
			uploads.set(su.id, { ...su, parts, completing: false });
		}
		bodies.sweep(referenced);
	}

	function reset() {
		initState();
		bodies.clear();
	}

	return { control, seedDemo, snapshot, restore, reset };
}

module.exports = { createControl };

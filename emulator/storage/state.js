'use strict';
/**
 * The state of the storage emulator and what its handlers share: users, buckets with their
 * objects, uploads in progress, the listing hooks, the clock, permissions, and the checks and
 * writes every handler makes. `createState(ctx, options)` gives the object `s` that the handler
 * modules (buckets.js, objects.js, multipart.js, control.js) are made from; its maps, arrays and
 * config object are emptied in place, never replaced, so a module may keep them.
 */
const crypto = require('node:crypto');
const { Bodies } = require('./bodies');
const { S3Error } = require('./errors');
const { XSI, el, node, doc } = require('./xml');
const keysIndex = require('./keys');
const { iso } = require('./wire');

const CANNED_ACLS = ['private', 'public-read', 'public-read-write', 'authenticated-read'];
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
const AUTHENTICATED_USERS = 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers';
/** Object headers stored at write time and returned on GET (Content-Type is kept apart). */
const STORED_HEADERS = [
	'cache-control',
	'content-disposition',
	'content-encoding',
	'content-language',
	'expires',
];
const DEFAULT_USER = {
	accessKey: 'VENDORTESTKEY',
	secretKey: 'vendor-test-secret',
	id: 'vendor-test',
	displayName: 'vendor-test',
};
const ANONYMOUS = 'anonymous';
const MAX_KEY_BYTES = 1024;

function normalizeUser(u) {
	if (!u || !u.accessKey || !u.secretKey)
		throw new Error('a storage user needs accessKey and secretKey');
	const id = String(u.id || u.accessKey);
	return {
		accessKey: String(u.accessKey),
		secretKey: String(u.secretKey),
		id,
		displayName: String(u.displayName || id),
	};
}

function normalizeConfig(c, base = {}) {
	const out = {
		scheme: 'VENDOR',
		headerPrefix: 'x-vendor-',
		presignKeyParam: 'VENDORAccessKeyId',
		...base,
	};
	if (c.scheme) out.scheme = String(c.scheme);
	if (c.headerPrefix) out.headerPrefix = String(c.headerPrefix).toLowerCase();
	if (c.presignKeyParam) out.presignKeyParam = String(c.presignKeyParam);
	return out;
}

function validBucketName(name) {
	return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) && !/^\d{1,3}(\.\d{1,3}){3}$/.test(name);
}

function createState(ctx, options = {}) {
	const initialConfig = normalizeConfig(options);
	const initialUsers = (options.users && options.users.length ? options.users : [DEFAULT_USER]).map(
		normalizeUser,
	);
	const bodies = new Bodies(ctx.dataDir);
	const log = ctx.log || (() => {});

	// emptied in place by initState (and restore), never replaced: the handler modules keep them
	const config = {};
	const users = new Map(); // accessKey -> user
	const buckets = new Map(); // name -> { name, owner, acl, created, aclModified, keys: [sorted], objects: Map }
	const uploads = new Map(); // uploadId -> { id, bucket, key, initiated, initiator, acl, contentType, headers, meta, parts: Map, completing }
	const listingHooks = []; // writes a test asked for between the pages of a listing (see 'POST /listing-hooks')

	function initState() {
		for (const k of Object.keys(config)) delete config[k];
		Object.assign(config, initialConfig);
		users.clear();
		for (const u of initialUsers) users.set(u.accessKey, { ...u });
		buckets.clear();
		uploads.clear();
		listingHooks.length = 0;
	}
	initState();

	const now = () => ctx.clock.now();
	/** An XML boolean as the dialect in force writes it (booleansCapitalized, booleansNumeric). */
	const bool = (v) => {
		const d = ctx.dialects;
		if (d && d.has('booleansNumeric')) return v ? '1' : '0';
		if (d && d.has('booleansCapitalized')) return v ? 'True' : 'False';
		return v ? 'true' : 'false';
	};
	const nowSecond = () => Math.floor(now() / 1000) * 1000;

	function displayNameOf(id) {
		for (const u of users.values()) if (u.id === id) return u.displayName;
		return id;
	}
	const ownerXml = (name, id) => node(name, [el('ID', id), el('DisplayName', displayNameOf(id))]);

	// ---- permissions ---------------------------------------------------------------------

	function grants(acl, user, perm) {
		if (acl === 'public-read-write') return perm === 'READ' || perm === 'WRITE';
		if (acl === 'public-read') return perm === 'READ';
		if (acl === 'authenticated-read') return perm === 'READ' && !!user;
		return false;
	}
	/** READ (list) or WRITE (put/delete objects, multipart) on a bucket. */
	function bucketAllows(b, user, perm) {
		return (user && user.id === b.owner) || grants(b.acl, user, perm);
	}
	function objectReadable(b, obj, user) {
		return (
			(user && (user.id === b.owner || user.id === obj.owner)) || grants(obj.acl, user, 'READ')
		);
	}
	const denied = () => new S3Error('AccessDenied', 'Access Denied');
	function requireOwner(rq, b) {
		if (!rq.user || rq.user.id !== b.owner) throw denied();
	}
	function requireBucketPerm(rq, b, perm) {
		if (!bucketAllows(b, rq.user, perm)) throw denied();
	}

	// ---- helpers shared by the handlers --------------------------------------------------

	function bucketOf(rq) {
		const b = buckets.get(rq.bucketName);
		if (!b)
			throw new S3Error('NoSuchBucket', 'The specified bucket does not exist.', {
				BucketName: rq.bucketName,
			});
		return b;
	}

	function uploadOf(rq, b) {
		const u = rq.uploadId === undefined ? undefined : uploads.get(rq.uploadId);
		if (!u || u.bucket !== b.name || u.key !== rq.key || u.completing) {
			throw new S3Error(
				'NoSuchUpload',
				'The specified multipart upload does not exist. The upload ID might be invalid, or the upload might have been aborted or completed.',
				{ UploadId: rq.uploadId || '' },
			);
		}
		return u;
	}

	function cannedAcl(rq, required) {
		const name = config.headerPrefix + 'acl';
		const v = rq.req.headers[name];
		if (v === undefined) {
			if (required) throw new S3Error('InvalidArgument', `The ${name} header is required.`);
			return 'private';
		}
		const acl = v.trim();
		if (!CANNED_ACLS.includes(acl))
			throw new S3Error('InvalidArgument', `${name} must be one of ${CANNED_ACLS.join(', ')}.`, {
				ArgumentName: name,
				ArgumentValue: v,
			});
		return acl;
	}

	function checkKey(key) {
		if (Buffer.byteLength(key) > MAX_KEY_BYTES)
			throw new S3Error('InvalidArgument', `Your key is too long: at most ${MAX_KEY_BYTES} bytes.`);
	}

	function requireLength(req) {
		if (req.headers['content-length'] === undefined)
			throw new S3Error('MissingContentLength', 'You must provide the Content-Length HTTP header.');
	}

	/** The Content-MD5 header as 16 bytes, null when absent, InvalidDigest when malformed. */
	function contentMd5(req) {
		const v = req.headers['content-md5'];
		if (v === undefined) return null;
		if (!/^[A-Za-z0-9+/]{22}==$/.test(v.trim()))
			throw new S3Error('InvalidDigest', 'The Content-MD5 you specified was invalid.', {
				ContentMD5: v,
			});
		return Buffer.from(v.trim(), 'base64');
	}

	function badDigest(req, md5) {
		return new S3Error(
			'BadDigest',
			'The Content-MD5 you specified did not match what we received.',
			{
				ExpectedDigest: req.headers['content-md5'],
				CalculatedDigest: md5.toString('base64'),
			},
		);
	}

	/** Content-Type, the stored headers and `<prefix>meta-*` of a PUT or Initiate request. */
	function objectAttrs(req) {
		const h = req.headers;
		const headers = {};
		for (const n of STORED_HEADERS) if (h[n] !== undefined) headers[n] = h[n];
		const metaPrefix = config.headerPrefix + 'meta-';
		const meta = {};
		for (let i = 0; i < req.rawHeaders.length; i += 2) {
			const n = req.rawHeaders[i].toLowerCase();
			if (!n.startsWith(metaPrefix) || n.length === metaPrefix.length) continue;
			const name = n.slice(metaPrefix.length);
			const v = req.rawHeaders[i + 1];
			meta[name] = Object.prototype.hasOwnProperty.call(meta, name) ? meta[name] + ',' + v : v;
		}
		return { contentType: h['content-type'], headers, meta };
	}

	/** Put an object record in its bucket, replacing (and freeing) an older one. */
	function storeObject(b, obj) {
		const old = b.objects.get(obj.key);
		b.objects.set(obj.key, obj);
		if (old) bodies.discard(old.body);
		else keysIndex.insertKey(b.keys, obj.key);
	}

	function removeObject(b, key) {
		const old = b.objects.get(key);
		if (!old) return false;
		b.objects.delete(key);
		keysIndex.removeKey(b.keys, key);
		bodies.discard(old.body);
		return true;
	}

	/**
	 * Listing hooks: writes a test wants to happen while a client pages through a listing. Each
	 * hook counts the ListObjects requests of its bucket that reach the listing (after
	 * authentication and fault rules); before the `request`-th one is answered it stores its
	 * `put` objects and removes its `delete` keys, and records the marker that request carried,
	 * so the test knows which of its writes the listing can still see (keys after the marker).
	 */
	function runListingHooks(b, marker) {
		for (const h of listingHooks) {
			if (h.bucket !== b.name || h.fired || h.op !== 'ListObjects') continue;
			h.seen++;
			if (h.seen < h.request) continue;
			for (const it of h.put) storeObject(b, putBuffer(b, it.key, objectBytes(it), it));
			for (const key of h.delete) removeObject(b, key);
			h.fired = true;
			h.marker = marker;
		}
	}

	/**
	 * The same for Get Object (hooks with `op: 'GetObject'`): before the `request`-th Get Object
	 * of the hook's key (any key when it names none) in its bucket is answered, its writes happen
	 * (an object replaced while a client reads it in ranges).
	 */
	function runGetHooks(b, key) {
		for (const h of listingHooks) {
			if (h.bucket !== b.name || h.fired || h.op !== 'GetObject' || (h.key !== undefined && h.key !== key)) continue;
			h.seen++;
			if (h.seen < h.request) continue;
			for (const it of h.put) storeObject(b, putBuffer(b, it.key, objectBytes(it), it));
			for (const k of h.delete) removeObject(b, k);
			h.fired = true;
		}
	}

	function newBucket(name, owner, acl = 'private') {
		const t = nowSecond();
		const b = { name, owner, acl, created: t, aclModified: t, keys: [], objects: new Map() };
		buckets.set(name, b);
		return b;
	}

	function aclPolicy(ownerId, acl) {
		const grantee = (type, inner) =>
			node('Grantee', inner, `xmlns:xsi="${XSI}" xsi:type="${type}"`);
		const grant = (g, perm) => node('Grant', [g, el('Permission', perm)]);
		const list = [
			grant(
				grantee('CanonicalUser', [el('ID', ownerId), el('DisplayName', displayNameOf(ownerId))]),
				'FULL_CONTROL',
			),
		];
		// dialect aclOwnerOnly: only the owner's FULL_CONTROL grant, whatever the canned ACL
		if (ctx.dialects && ctx.dialects.has('aclOwnerOnly')) acl = 'private';
		if (acl === 'public-read' || acl === 'public-read-write')
			list.push(grant(grantee('Group', el('URI', ALL_USERS)), 'READ'));
		if (acl === 'public-read-write')
			list.push(grant(grantee('Group', el('URI', ALL_USERS)), 'WRITE'));
		if (acl === 'authenticated-read')
			list.push(grant(grantee('Group', el('URI', AUTHENTICATED_USERS)), 'READ'));
		return doc('AccessControlPolicy', [
			ownerXml('Owner', ownerId),
			node('AccessControlList', list),
		]);
	}

	function intParam(rq, name, dflt, min, max) {
		if (!rq.query.has(name)) return dflt;
		const v = rq.query.get(name);
		if (!/^\d+$/.test(v) || Number(v) < min)
			throw new S3Error('InvalidArgument', `${name} must be an integer of at least ${min}.`, {
				ArgumentName: name,
				ArgumentValue: v,
			});
		return Math.min(Number(v), max);
	}

	function ownerFor(who) {
		if (!who) return initialUsers[0].id;
		const byKey = users.get(who);
		return byKey ? byKey.id : String(who);
	}

	/** Put an object from a Buffer, bypassing HTTP (seeding and control routes). */
	function putBuffer(b, key, buf, { contentType, meta = {}, headers = {}, acl = 'private', lastModified, partSize } = {}) {
		const md5 = crypto.createHash('md5').update(buf).digest('hex');
		const obj = {
			key,
			size: buf.length,
			etag: partSize ? multipartEtagOf(buf, partSize) : `"${md5}"`,
			lastModified: lastModified === undefined ? nowSecond() : Math.floor(toMs(lastModified) / 1000) * 1000,
			contentType,
			headers: { ...headers },
			meta: { ...meta },
			acl,
			owner: b.owner,
			body: bodies.fromBuffer(buf),
		};
		return obj;
	}

	/**
	 * The ETag a multipart upload in parts of `partSize` bytes gives these bytes: S3's
	 * "<MD5 of the parts' MD5s>-<parts>", or without "-<parts>" under multipartEtagPlain.
	 */
	function multipartEtagOf(buf, partSize) {
		const size = Math.max(1, Math.floor(Number(partSize)));
		const md5s = [];
		for (let at = 0; at < buf.length || at === 0; at += size) {
			md5s.push(crypto.createHash('md5').update(buf.subarray(at, at + size)).digest());
			if (buf.length === 0) break;
		}
		return multipartEtag(Buffer.concat(md5s), md5s.length);
	}

	/** The ETag of a completed multipart upload from its parts' MD5s (16 bytes each, in order). */
	function multipartEtag(md5s, parts) {
		const hex = crypto.createHash('md5').update(md5s).digest('hex');
		// dialect multipartEtagPlain: 32 hex digits, which the documents allow ("not the MD5 of
		// the content", no form given: readings R74)
		return ctx.dialects && ctx.dialects.has('multipartEtagPlain') ? `"${hex}"` : `"${hex}-${parts}"`;
	}

	/** A time given to a control route: milliseconds since 1970 or an ISO 8601 string. */
	function toMs(value) {
		const ms = typeof value === 'number' ? value : Date.parse(String(value));
		if (!Number.isFinite(ms)) throw badControl(`lastModified ${JSON.stringify(value)} is not a time`);
		return ms;
	}

	/** The bytes of an object given to a control route: `base64`, else `body` as UTF-8 text. */
	function objectBytes(it) {
		return it.base64 !== undefined ? Buffer.from(it.base64, 'base64') : Buffer.from(String(it.body ?? ''), 'utf8');
	}

	function badControl(message) {
		const err = new Error(message);
		err.status = 400;
		return err;
	}

	function objectSummary(b, o) {
		return {
			bucket: b.name,
			key: o.key,
			size: o.size,
			etag: o.etag,
			lastModified: iso(o.lastModified),
			contentType: o.contentType,
			acl: o.acl,
			meta: o.meta,
		};
	}

	return {
		ctx,
		bodies,
		log,
		initialUsers,
		config,
		users,
		buckets,
		uploads,
		listingHooks,
		initState,
		now,
		bool,
		nowSecond,
		displayNameOf,
		ownerXml,
		grants,
		bucketAllows,
		objectReadable,
		denied,
		requireOwner,
		requireBucketPerm,
		bucketOf,
		uploadOf,
		cannedAcl,
		checkKey,
		requireLength,
		contentMd5,
		badDigest,
		objectAttrs,
		storeObject,
		removeObject,
		runListingHooks,
		runGetHooks,
		newBucket,
		aclPolicy,
		intParam,
		ownerFor,
		putBuffer,
		multipartEtag,
		toMs,
		objectBytes,
		badControl,
		objectSummary,
	};
}

module.exports = { createState, normalizeConfig, normalizeUser, validBucketName, CANNED_ACLS, ANONYMOUS };

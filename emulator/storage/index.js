'use strict';
/**
 * The object-storage half of the vendor emulator (docs/vendor/object-storage.md, with the
 * readings of docs/vendor/readings.md):
 * an S3-compatible server speaking path-style `/{bucket}/{key}`, XML bodies, HMAC-SHA1
 * ("signature version 2") request signing with a configurable scheme word, header prefix and
 * presigned-URL key parameter, canned ACLs, multipart uploads, and streamed bodies kept in
 * memory or, with a dataDir, as files under `<dataDir>/storage/`.
 *
 *   const storage = createStorage(ctx, { users, scheme, headerPrefix, presignKeyParam });
 *   storage.handle(req, res, url)     // called by the emulator core for every storage request
 *   storage.control                   // mounted under /__emulator/storage/...
 *   storage.snapshot() / restore(saved) / reset() / seedDemo() / close()
 *
 * It is an independent implementation and never imports the package's own code.
 *
 * Dialects played here (dialects.js; each off by default, the default is S3's behaviour):
 *   commonPrefixesPlain  readings R20 ("CommonPrefixes | repeated string"): each common prefix is
 *                        written <CommonPrefixes>p/</CommonPrefixes> instead of S3's
 *                        <CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes> (listObjects).
 *   markerInclusive      readings R21 (the listing starts at the marker): the listing starts
 *                        at the marker, not after it (keys.js listPage).
 *   aclOwnerOnly         readings R22 (only FULL_CONTROL appears):
 *                        the ACL policy holds only the owner's FULL_CONTROL grant, whatever the
 *                        canned ACL (aclPolicy; bucket and object ACL alike).
 *   trickyUploadIds      readings R14 (UploadId is any string): upload IDs carry +, /
 *                        and = (base64 of random bytes), so a client must percent-encode them
 *                        in the query and sign them as sent (newUploadId). subresourceDecoded
 *                        (auth.js) makes the same IDs, so its difference shows.
 *   extraFields          readings R38 (any answer may carry fields the documents do not list): every
 *                        XML answer gets an unknown element first in its root
 *                        (<x-vendor-extra>1</x-vendor-extra>) and every answer an unknown
 *                        header `<prefix>extra` (respond, wireHeaders).
 *   booleansCapitalized, booleansNumeric  docs/vendor/readings.md R26: IsTruncated "boolean" is
 *                        written True/False or 1/0 instead of true/false (bool()).
 *   numericReferences    docs/vendor/readings.md R27: XML text escaped as Go's encoding/xml does
 *                        (&#34; &#39; &#x9; &#xA; &#xD;), in every XML answer (sendXml).
 *   byteOrderMark, charsetLatin1, whitespaceAround, compressedAnswers  readings R29: how every XML
 *                        answer is framed (sendXml; ../framing.js plays them).
 *   partEtagMissing      docs/vendor/readings.md R25: Upload Part answers 200 without an ETag
 *                        header ("Upload part ... 200"); List Parts still lists each ETag, which is not
 *                        the part's MD5 here (nothing in the documentation says it is).
 * Fault rules (faults.js) are acted on in handle(): hang, reset, http, html200 and slowDown
 * answer instead of the operation; afterCreate500 (perform, then 500 InternalError) and
 * resetMidBody (GET answers: headers with the whole Content-Length, the first afterBytes bytes,
 * never the whole body, then the connection closes) act where the answer is written.
 */
const crypto = require('node:crypto');
const { pipeline } = require('node:stream/promises');
const { XMLParser } = require('fast-xml-parser');
const { Bodies } = require('./bodies');
const { S3Error } = require('./errors');
const { authenticate } = require('./auth');
const { XSI, el, node, doc, errorDoc } = require('./xml');
const { frame } = require('../framing');
const keysIndex = require('./keys');

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
/** S3 sub-resources this emulator does not serve: answered 501 rather than mistaken for another operation. */
const UNSUPPORTED = (
	'versioning logging versions delete tagging torrent restore policy cors lifecycle website ' +
	'location notification replication encryption requestPayment accelerate analytics inventory ' +
	'metrics ownershipControls publicAccessBlock object-lock retention legal-hold select ' +
	'attributes versionId list-type'
).split(' ');
const DEFAULT_USER = {
	accessKey: 'VENDORTESTKEY',
	secretKey: 'vendor-test-secret',
	id: 'vendor-test',
	displayName: 'vendor-test',
};
const ANONYMOUS = 'anonymous';
const MAX_KEY_BYTES = 1024;
const MAX_XML_BYTES = 8 * 1024 * 1024;
/** Per-response wire settings: { rule (afterCreate500 | resetMidBody | null), extraHeader }. */
const WIRE = Symbol('emulatorWire');
const EXTRA_ELEMENT = '<x-vendor-extra>1</x-vendor-extra>';

const completeParser = new XMLParser({
	ignoreAttributes: true,
	parseTagValue: false,
	removeNSPrefix: true,
	isArray: (name) => name === 'Part',
});

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

/** RFC 3986 encoding of one path segment. */
function encodeSegment(s) {
	return encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
}

function decodePath(s) {
	try {
		return decodeURIComponent(s);
	} catch {
		throw new S3Error('InvalidArgument', 'The request path is not valid percent-encoding.');
	}
}

function decodeQuery(s) {
	try {
		return decodeURIComponent(s.replace(/\+/g, ' '));
	} catch {
		throw new S3Error('InvalidArgument', 'The query string is not valid percent-encoding.');
	}
}

const iso = (ms) => new Date(ms).toISOString();
const httpDate = (ms) => new Date(ms).toUTCString();
const bareEtag = (v) =>
	String(v === undefined || v === null ? '' : v)
		.trim()
		.replace(/^W\//, '')
		.replace(/^"(.*)"$/, '$1')
		.toLowerCase();

function etagMatches(header, etag) {
	if (header.trim() === '*') return true;
	const want = bareEtag(etag);
	return header.split(',').some((t) => bareEtag(t) === want);
}

/** 200, 304 or 412 for a GET's conditional headers (RFC 7232 order, as S3 does). */
function evaluateConditions(h, obj) {
	const lm = obj.lastModified;
	if (h['if-match'] !== undefined) {
		if (!etagMatches(h['if-match'], obj.etag)) return 412;
	} else if (h['if-unmodified-since'] !== undefined) {
		const t = Date.parse(h['if-unmodified-since']);
		if (!Number.isNaN(t) && lm > t) return 412;
	}
	if (h['if-none-match'] !== undefined) {
		if (etagMatches(h['if-none-match'], obj.etag)) return 304;
	} else if (h['if-modified-since'] !== undefined) {
		const t = Date.parse(h['if-modified-since']);
		if (!Number.isNaN(t) && lm <= t) return 304;
	}
	return 200;
}

/** { start, end } for a single byte range, 'unsatisfiable', or null to ignore the header. */
function parseRange(header, size) {
	const m = /^bytes=(\d*)-(\d*)$/.exec(String(header).trim());
	if (!m || (m[1] === '' && m[2] === '')) return null;
	if (m[1] === '') {
		const n = Number(m[2]);
		if (n === 0 || size === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - n), end: size - 1 };
	}
	const start = Number(m[1]);
	if (m[2] !== '' && Number(m[2]) < start) return null;
	if (start >= size) return 'unsatisfiable';
	return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** Consume whatever is left of a request body. */
function drain(req) {
	if (req.readableEnded || req.destroyed) return Promise.resolve();
	return new Promise((resolve) => {
		req.once('end', resolve);
		req.once('close', resolve);
		req.once('error', resolve);
		req.resume();
	});
}

/** A small request body as text; MalformedXML beyond `limit` bytes. */
async function readText(req, limit) {
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size <= limit) chunks.push(chunk);
	}
	if (size > limit)
		throw new S3Error('MalformedXML', `The XML body is larger than ${limit} bytes.`);
	return Buffer.concat(chunks).toString('utf8');
}

function sendXml(res, status, xml, headers = {}) {
	const w = res[WIRE];
	let text = w && w.extraHeader ? withExtraElement(xml) : xml;
	if (w && w.numericReferences) text = goEscaped(text);
	const framed = frame('xml', text, { dialects: w && w.dialects, req: res.req });
	respond(res, status, { ...headers, ...framed.headers }, framed.body);
}

function sendEmpty(res, status, headers = {}) {
	respond(res, status, headers, Buffer.alloc(0));
}

/**
 * numericReferences: the text of an XML document as Go's encoding/xml escapes it. The builder
 * (xml.js) writes &quot; and &apos; and leaves tab, line feed and carriage return as they are;
 * Go writes &#34; &#39; &#x9; &#xA; &#xD;. The line break after the XML declaration is markup, not
 * text, and stays.
 */
function goEscaped(xml) {
	const m = /^(<\?xml[^>]*\?>\n?)/.exec(xml);
	const decl = m ? m[1] : '';
	const body = xml
		.slice(decl.length)
		.replace(/&quot;/g, '&#34;')
		.replace(/&apos;/g, '&#39;')
		.replace(/\t/g, '&#x9;')
		.replace(/\n/g, '&#xA;')
		.replace(/\r/g, '&#xD;');
	return decl + body;
}

/** extraFields: an unknown element first in the root element of an XML document. */
function withExtraElement(xml) {
	return xml.replace(/^(<\?xml[^>]*\?>\s*)?(<[A-Za-z][\w-]*(?:\s[^>]*)?>)/, (m, decl, open) => `${decl || ''}${open}${EXTRA_ELEMENT}`);
}

/** The headers of an answer with the extraFields header when that dialect is on. */
function wireHeaders(res, headers) {
	const w = res[WIRE];
	return w && w.extraHeader ? { ...headers, [w.extraHeader]: '1' } : headers;
}

/**
 * Every storage answer with a body in memory leaves here: afterCreate500 turns it into
 * 500 InternalError, resetMidBody cuts it (see the header), extraFields adds its header.
 */
function respond(res, status, headers, body) {
	const w = res[WIRE];
	const rule = w && w.rule;
	if (rule && rule.kind === 'afterCreate500') {
		w.rule = null;
		const requestId = res.getHeader('X-Trans-Id') || crypto.randomUUID();
		return sendXml(res, 500, errorDoc('InternalError', 'We encountered an internal error. Please try again.', requestId));
	}
	const out = wireHeaders(res, { ...headers, 'Content-Length': body.length });
	if (rule && rule.kind === 'resetMidBody' && body.length) {
		res.writeHead(status, out);
		return void res.write(body.subarray(0, cutAt(rule, body.length)), () => closeConnection(res));
	}
	res.writeHead(status, out);
	res.end(body);
}

/** resetMidBody: how many of `length` body bytes are sent (afterBytes, default 65536, never all). */
function cutAt(rule, length) {
	const after = rule.afterBytes === undefined ? 65536 : rule.afterBytes;
	return Math.max(0, Math.min(after, length - 1));
}

/** Ends the connection once what was written is flushed (the client sees a short body). */
function closeConnection(res) {
	const socket = res.socket;
	if (socket && !socket.destroyed) socket.destroySoon();
	else res.destroy();
}

function createStorage(ctx, options = {}) {
	const initialConfig = normalizeConfig(options);
	const initialUsers = (options.users && options.users.length ? options.users : [DEFAULT_USER]).map(
		normalizeUser,
	);
	const bodies = new Bodies(ctx.dataDir);
	const log = ctx.log || (() => {});

	let config;
	let users; // accessKey -> user
	let buckets; // name -> { name, owner, acl, created, aclModified, keys: [sorted], objects: Map }
	let uploads; // uploadId -> { id, bucket, key, initiated, initiator, acl, contentType, headers, meta, parts: Map, completing }
	let listingHooks; // writes a test asked for between the pages of a listing (see 'POST /listing-hooks')

	function initState() {
		config = { ...initialConfig };
		users = new Map(initialUsers.map((u) => [u.accessKey, { ...u }]));
		buckets = new Map();
		uploads = new Map();
		listingHooks = [];
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

	// ---- request parsing and dispatch ----------------------------------------------------

	function parseTarget(rq) {
		let raw = rq.req.url || '/';
		if (!raw.startsWith('/')) {
			try {
				const u = new URL(raw);
				raw = u.pathname + u.search;
			} catch {
				raw = '/' + raw;
			}
		}
		const q = raw.indexOf('?');
		rq.rawPath = q < 0 ? raw : raw.slice(0, q);
		rq.pairs = [];
		rq.query = new Map();
		for (const part of (q < 0 ? '' : raw.slice(q + 1)).split('&')) {
			if (!part) continue;
			const i = part.indexOf('=');
			const rawValue = i < 0 ? undefined : part.slice(i + 1);
			const p = {
				name: decodeQuery(i < 0 ? part : part.slice(0, i)),
				value: rawValue === undefined ? undefined : decodeQuery(rawValue),
				rawValue,
			};
			rq.pairs.push(p);
			if (!rq.query.has(p.name)) rq.query.set(p.name, p.value === undefined ? '' : p.value);
		}
		const rest = rq.rawPath.slice(1);
		const slash = rest.indexOf('/');
		rq.bucketName = decodePath(slash < 0 ? rest : rest.slice(0, slash));
		rq.key = slash < 0 ? '' : decodePath(rest.slice(slash + 1));
		const q1 = rq.query;
		rq.uploadId = q1.has('uploadId') ? q1.get('uploadId') : q1.get('upload_id');
		rq.partNumber = q1.has('partNumber') ? q1.get('partNumber') : q1.get('part_number');
	}

	const notAllowed = (rq) =>
		new S3Error(
			'MethodNotAllowed',
			`The method ${rq.method} is not allowed against this resource.`,
		);

	/** The operation a request asks for: { op (fault/operation name), fn }. */
	function resolve(rq) {
		const m = rq.method;
		const q = rq.query;
		if (!rq.bucketName) {
			if (m === 'GET' || m === 'HEAD') return { op: 'ListBuckets', fn: listBuckets };
			throw notAllowed(rq);
		}
		for (const name of UNSUPPORTED) {
			if (q.has(name))
				throw new S3Error(
					'NotImplemented',
					`The ?${name} sub-resource is not implemented by this emulator.`,
				);
		}
		if (!rq.key) {
			if (q.has('acl')) {
				if (m === 'GET') return { op: 'GetBucketAcl', fn: getBucketAcl };
				if (m === 'PUT') return { op: 'PutBucketAcl', fn: putBucketAcl };
				throw notAllowed(rq);
			}
			if (q.has('uploads'))
				throw new S3Error(
					'NotImplemented',
					'Listing multipart uploads is not implemented by this emulator.',
				);
			if (m === 'GET') return { op: 'ListObjects', fn: listObjects };
			if (m === 'HEAD') return { op: 'ListObjects', fn: headBucket };
			if (m === 'PUT') return { op: 'CreateBucket', fn: createBucket };
			if (m === 'DELETE') return { op: 'DeleteBucket', fn: deleteBucket };
			throw notAllowed(rq);
		}
		if (q.has('acl')) {
			if (m === 'GET') return { op: 'GetBucketAcl', fn: getObjectAcl };
			if (m === 'PUT') return { op: 'PutBucketAcl', fn: putObjectAcl };
			throw notAllowed(rq);
		}
		switch (m) {
			case 'PUT':
				if (rq.uploadId !== undefined || rq.partNumber !== undefined)
					return { op: 'UploadPart', fn: uploadPart };
				if (rq.req.headers[config.headerPrefix + 'copy-source'] !== undefined) {
					throw new S3Error(
						'NotImplemented',
						'Copying objects is not implemented by this emulator.',
					);
				}
				return { op: 'PutObject', fn: putObject };
			case 'GET':
				if (rq.uploadId !== undefined) return { op: 'ListParts', fn: listParts };
				return { op: 'GetObject', fn: (r) => getObject(r, false) };
			case 'HEAD':
				return { op: 'GetObject', fn: (r) => getObject(r, true) };
			case 'POST':
				if (q.has('uploads')) return { op: 'InitiateMultipartUpload', fn: initiateUpload };
				if (rq.uploadId !== undefined) return { op: 'CompleteMultipartUpload', fn: completeUpload };
				throw new S3Error(
					'NotImplemented',
					'POST object (browser form upload) is not implemented by this emulator.',
				);
			case 'DELETE':
				if (rq.uploadId !== undefined) return { op: 'AbortMultipartUpload', fn: abortUpload };
				return { op: 'DeleteObject', fn: deleteObject };
			default:
				throw notAllowed(rq);
		}
	}

	async function handle(req, res) {
		const rq = { req, res, method: req.method, user: null };
		const dialects = ctx.dialects;
		res[WIRE] = {
			rule: null,
			extraHeader: dialects && dialects.has('extraFields') ? config.headerPrefix + 'extra' : null,
			numericReferences: !!(dialects && dialects.has('numericReferences')),
			dialects, // the framing dialects (../framing.js) of sendXml
		};
		try {
			let route;
			try {
				parseTarget(rq);
				route = resolve(rq);
			} catch (err) {
				if (ctx.stats) ctx.stats.storageRequest('Unsupported');
				throw err;
			}
			rq.op = route.op;
			if (ctx.stats) {
				ctx.stats.storageRequest(route.op);
				ctx.stats.storageCall(route.op, req);
			}
			const rule = ctx.faults.pick('storage', route.op, (kind) => kind !== 'resetMidBody' || rq.method === 'GET');
			if (rule) {
				if (rule.kind === 'afterCreate500' || rule.kind === 'resetMidBody') res[WIRE].rule = rule;
				else return await answerFault(rq, rule);
			}
			if (ctx.faults.shouldFail(route.op)) {
				const codes = ctx.faults.storageErrors;
				const code = codes.length > 1 ? (ctx.faults.random() < 0.5 ? codes[0] : codes[1]) : codes[0];
				throw code === 'SlowDown'
					? new S3Error('SlowDown', 'Please reduce your request rate.')
					: new S3Error('InternalError', 'We encountered an internal error. Please try again.');
			}
			rq.user = authenticate(rq, { config, users, now: now(), dialects });
			await route.fn(rq);
		} catch (err) {
			await fail(rq, err);
		}
	}

	/** A fault rule that answers instead of the operation (faults.js). */
	async function answerFault(rq, rule) {
		const { req, res } = rq;
		switch (rule.kind) {
			case 'hang':
				await drain(req);
				return; // no answer until the client gives up or emu.close() destroys the socket
			case 'reset':
				req.socket.destroy();
				return;
			case 'html200': {
				await drain(req);
				const page = Buffer.from('<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>The service is under maintenance</h1></body></html>');
				res.writeHead(200, wireHeaders(res, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length }));
				return void res.end(page);
			}
			case 'slowDown':
				return fail(rq, new S3Error('SlowDown', 'Please reduce your request rate.'));
			case 'http':
			default: {
				const status = rule.status || 500;
				const code = typeof rule.code === 'string' ? rule.code : status === 503 ? 'ServiceUnavailable' : status >= 500 ? 'InternalError' : 'InvalidRequest';
				const err = new S3Error(code, rule.message || 'The service could not handle the request (injected fault).');
				err.status = status;
				return fail(rq, err);
			}
		}
	}

	async function fail(rq, err) {
		const { req, res } = rq;
		if (!(err instanceof S3Error)) {
			if (res.headersSent || req.destroyed) return void res.destroy();
			log('storage emulator error', err);
			err = new S3Error(
				'InternalError',
				`We encountered an internal error: ${(err && err.message) || err}`,
			);
		}
		if (res.headersSent) return void res.destroy();
		await drain(req);
		if (res.destroyed) return;
		const requestId = res.getHeader('X-Trans-Id') || crypto.randomUUID();
		sendXml(res, err.status, errorDoc(err.code, err.message, requestId, err.extra), err.headers);
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
			if (h.bucket !== b.name || h.fired) continue;
			h.seen++;
			if (h.seen < h.request) continue;
			for (const it of h.put) storeObject(b, putBuffer(b, it.key, objectBytes(it), it));
			for (const key of h.delete) removeObject(b, key);
			h.fired = true;
			h.marker = marker;
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

	// ---- service and buckets -------------------------------------------------------------

	async function listBuckets(rq) {
		if (!rq.user) throw denied();
		await drain(rq.req);
		const mine = [...buckets.values()]
			.filter((b) => b.owner === rq.user.id)
			.sort((a, b) => (a.name < b.name ? -1 : 1));
		const list = mine.map((b) =>
			node('Bucket', [el('Name', b.name), el('CreationDate', iso(b.created))]),
		);
		sendXml(
			rq.res,
			200,
			doc('ListAllMyBucketsResult', [ownerXml('Owner', rq.user.id), node('Buckets', list)]),
		);
	}

	async function createBucket(rq) {
		if (!rq.user) throw denied();
		if (!validBucketName(rq.bucketName)) {
			throw new S3Error(
				'InvalidBucketName',
				'The specified bucket is not valid: 3-63 characters of lower-case letters, digits, "-" and ".", starting and ending with a letter or digit, and not an IP address.',
				{ BucketName: rq.bucketName },
			);
		}
		const acl = cannedAcl(rq, false);
		await drain(rq.req); // a CreateBucketConfiguration body, if any, has no meaning here
		if (buckets.has(rq.bucketName)) {
			throw new S3Error(
				'BucketAlreadyExists',
				'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.',
				{ BucketName: rq.bucketName },
			);
		}
		newBucket(rq.bucketName, rq.user.id, acl);
		sendEmpty(rq.res, 200, { 'Content-Type': 'application/xml', Location: '/' + rq.bucketName });
	}

	async function deleteBucket(rq) {
		const b = bucketOf(rq);
		requireOwner(rq, b);
		if (b.keys.length || [...uploads.values()].some((u) => u.bucket === b.name)) {
			throw new S3Error('BucketNotEmpty', 'The bucket you tried to delete is not empty.', {
				BucketName: b.name,
			});
		}
		await drain(rq.req);
		buckets.delete(b.name);
		sendEmpty(rq.res, 204);
	}

	async function headBucket(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'READ');
		await drain(rq.req);
		sendEmpty(rq.res, 200);
	}

	async function putBucketAcl(rq) {
		const b = bucketOf(rq);
		requireOwner(rq, b);
		const acl = cannedAcl(rq, true);
		await drain(rq.req);
		b.acl = acl;
		b.aclModified = nowSecond();
		sendEmpty(rq.res, 200);
	}

	async function getBucketAcl(rq) {
		const b = bucketOf(rq);
		requireOwner(rq, b);
		await drain(rq.req);
		sendXml(rq.res, 200, aclPolicy(b.owner, b.acl), { 'Last-Modified': httpDate(b.aclModified) });
	}

	async function listObjects(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'READ');
		const q = rq.query;
		const prefix = q.get('prefix') || '';
		const delimiter = q.get('delimiter') || '';
		const marker = q.get('marker') || '';
		const maxKeys = intParam(rq, 'max-keys', 1000, 0, 1000);
		await drain(rq.req);
		runListingHooks(b, marker);
		// dialect markerInclusive: the listing starts at the marker (keys.js)
		const inclusive = ctx.dialects && ctx.dialects.has('markerInclusive');
		const page = keysIndex.listPage(b.keys, { prefix, delimiter, marker, maxKeys, inclusive });
		const parts = [el('Name', b.name), el('Prefix', prefix)];
		if (q.has('marker')) parts.push(el('Marker', marker));
		parts.push(el('MaxKeys', maxKeys));
		if (q.has('delimiter')) parts.push(el('Delimiter', delimiter));
		parts.push(el('IsTruncated', bool(page.truncated)));
		if (page.truncated && page.nextMarker !== undefined)
			parts.push(el('NextMarker', page.nextMarker));
		for (const k of page.keys) {
			const o = b.objects.get(k);
			parts.push(
				node('Contents', [
					el('Key', o.key),
					el('LastModified', iso(o.lastModified)),
					el('ETag', o.etag),
					el('Size', o.size),
					el('StorageClass', 'STANDARD'),
					ownerXml('Owner', o.owner),
				]),
			);
		}
		// dialect commonPrefixesPlain: the documents' "repeated string" (readings R20)
		const plain = ctx.dialects && ctx.dialects.has('commonPrefixesPlain');
		for (const p of page.prefixes) parts.push(plain ? el('CommonPrefixes', p) : node('CommonPrefixes', el('Prefix', p)));
		sendXml(rq.res, 200, doc('ListBucketResult', parts));
	}

	// ---- objects -------------------------------------------------------------------------

	async function putObject(rq) {
		const { req } = rq;
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		checkKey(rq.key);
		requireLength(req);
		const md5 = contentMd5(req);
		const acl = cannedAcl(rq, false);
		const attrs = objectAttrs(req);
		const got = await bodies.receive(req);
		let body;
		try {
			if (md5 && !md5.equals(got.md5)) throw badDigest(req, got.md5);
			body = await bodies.commit(got.body, 'objects');
			if (buckets.get(b.name) !== b)
				throw new S3Error('NoSuchBucket', 'The bucket was deleted during the upload.', {
					BucketName: b.name,
				});
		} catch (err) {
			bodies.discard(got.body);
			bodies.discard(body);
			throw err;
		}
		const etag = `"${got.md5.toString('hex')}"`;
		storeObject(b, {
			key: rq.key,
			size: got.size,
			etag,
			lastModified: nowSecond(),
			...attrs,
			acl,
			owner: rq.user ? rq.user.id : ANONYMOUS,
			body,
		});
		sendEmpty(rq.res, 200, { ETag: etag });
	}

	async function getObject(rq, head) {
		const { req, res } = rq;
		const b = bucketOf(rq);
		await drain(req);
		const obj = b.objects.get(rq.key);
		if (!obj) {
			if (!bucketAllows(b, rq.user, 'READ')) throw denied();
			throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: rq.key });
		}
		if (!objectReadable(b, obj, rq.user)) throw denied();
		const h = req.headers;
		const base = { ETag: obj.etag, 'Last-Modified': httpDate(obj.lastModified) };
		const cond = evaluateConditions(h, obj);
		if (cond === 412)
			throw new S3Error(
				'PreconditionFailed',
				'At least one of the pre-conditions you specified did not hold.',
				{},
				base,
			);
		if (cond === 304) return sendNotModified(res, base);
		const headers = {
			...base,
			'Content-Type': obj.contentType || 'binary/octet-stream',
			'Accept-Ranges': 'bytes',
			...obj.headers,
		};
		for (const [name, v] of Object.entries(obj.meta))
			headers[`${config.headerPrefix}meta-${name}`] = v;
		let start = 0;
		let end = obj.size - 1;
		let status = 200;
		if (h.range !== undefined) {
			const r = parseRange(h.range, obj.size);
			if (r === 'unsatisfiable') {
				throw new S3Error(
					'InvalidRange',
					'The requested range is not satisfiable.',
					{ RangeRequested: h.range, ActualObjectSize: obj.size },
					{ 'Content-Range': `bytes */${obj.size}` },
				);
			}
			if (r) {
				({ start, end } = r);
				status = 206;
				headers['Content-Range'] = `bytes ${start}-${end}/${obj.size}`;
			}
		}
		headers['Content-Length'] = Math.max(0, end - start + 1);
		const rule = res[WIRE].rule;
		if (rule && rule.kind === 'afterCreate500') return respond(res, 500, {}, Buffer.alloc(0));
		if (head) {
			res.writeHead(status, wireHeaders(res, headers));
			return void res.end();
		}
		// resetMidBody: the whole Content-Length is announced, the first bytes sent, then the
		// connection closes
		const cut = rule && rule.kind === 'resetMidBody' ? cutAt(rule, headers['Content-Length']) : undefined;
		if (cut === 0) {
			res.writeHead(status, wireHeaders(res, headers));
			return void res.write(Buffer.alloc(0), () => closeConnection(res));
		}
		const stream = await bodies.open(obj.body, start, cut === undefined ? end : start + cut - 1);
		if (!stream)
			throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: rq.key });
		res.writeHead(status, wireHeaders(res, headers));
		try {
			if (cut === undefined) await pipeline(stream, res);
			else {
				await pipeline(stream, res, { end: false });
				closeConnection(res);
			}
		} catch {
			res.destroy();
		}
	}

	function sendNotModified(res, headers) {
		const rule = res[WIRE].rule;
		if (rule && rule.kind === 'afterCreate500') return respond(res, 500, {}, Buffer.alloc(0));
		res.writeHead(304, wireHeaders(res, headers));
		res.end();
	}

	async function deleteObject(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		await drain(rq.req);
		removeObject(b, rq.key);
		sendEmpty(rq.res, 204);
	}

	function objectForAcl(rq) {
		const b = bucketOf(rq);
		const obj = b.objects.get(rq.key);
		if (!obj) {
			if (!bucketAllows(b, rq.user, 'READ')) throw denied();
			throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: rq.key });
		}
		if (!rq.user || (rq.user.id !== b.owner && rq.user.id !== obj.owner)) throw denied();
		return obj;
	}

	async function getObjectAcl(rq) {
		const obj = objectForAcl(rq);
		await drain(rq.req);
		sendXml(rq.res, 200, aclPolicy(obj.owner, obj.acl), {
			'Last-Modified': httpDate(obj.lastModified),
		});
	}

	async function putObjectAcl(rq) {
		const obj = objectForAcl(rq);
		const acl = cannedAcl(rq, true);
		await drain(rq.req);
		obj.acl = acl;
		sendEmpty(rq.res, 200);
	}

	// ---- multipart -----------------------------------------------------------------------

	/**
	 * A new upload ID: URL-safe by default; with trickyUploadIds or subresourceDecoded the
	 * standard base64 of random bytes, always holding +, / and = (it starts with "+/" and ends
	 * with "=").
	 */
	function newUploadId() {
		const d = ctx.dialects;
		if (d && (d.has('trickyUploadIds') || d.has('subresourceDecoded'))) {
			let id;
			do id = Buffer.concat([Buffer.from([0xfb, 0xff]), crypto.randomBytes(12)]).toString('base64');
			while (uploads.has(id));
			return id;
		}
		return crypto.randomBytes(24).toString('base64url');
	}

	async function initiateUpload(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		checkKey(rq.key);
		const acl = cannedAcl(rq, false);
		const attrs = objectAttrs(rq.req);
		await drain(rq.req);
		const id = newUploadId();
		uploads.set(id, {
			id,
			bucket: b.name,
			key: rq.key,
			initiated: now(),
			initiator: rq.user ? rq.user.id : ANONYMOUS,
			acl,
			...attrs,
			parts: new Map(),
			completing: false,
		});
		sendXml(
			rq.res,
			200,
			doc('InitiateMultipartUploadResult', [
				el('Bucket', b.name),
				el('Key', rq.key),
				el('UploadId', id),
			]),
		);
	}

	async function uploadPart(rq) {
		const { req } = rq;
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		if (rq.uploadId === undefined || rq.partNumber === undefined) {
			throw new S3Error(
				'InvalidArgument',
				'Upload part needs both uploadId and partNumber (or upload_id and part_number).',
			);
		}
		const n = /^\d+$/.test(rq.partNumber) ? Number(rq.partNumber) : NaN;
		if (!(n >= 1 && n <= 10000)) {
			throw new S3Error(
				'InvalidArgument',
				'Part number must be an integer between 1 and 10000, inclusive.',
				{ ArgumentName: 'partNumber', ArgumentValue: rq.partNumber },
			);
		}
		const u = uploadOf(rq, b);
		requireLength(req);
		const md5 = contentMd5(req);
		const got = await bodies.receive(req);
		let body;
		try {
			if (md5 && !md5.equals(got.md5)) throw badDigest(req, got.md5);
			body = await bodies.commit(got.body, 'parts');
			uploadOf(rq, b); // still in progress?
		} catch (err) {
			bodies.discard(got.body);
			bodies.discard(body);
			throw err;
		}
		// dialect partEtagMissing: the documented "200" and no ETag header; the part's ETag (which
		// the documentation never says is its MD5) is then an MD5 of the MD5 and the part number,
		// so only List Parts tells it
		const missing = ctx.dialects && ctx.dialects.has('partEtagMissing');
		const tag = missing ? crypto.createHash('md5').update(`${got.md5.toString('hex')}:${n}`).digest('hex') : got.md5.toString('hex');
		const etag = `"${tag}"`;
		const old = u.parts.get(n);
		u.parts.set(n, { number: n, size: got.size, etag, lastModified: nowSecond(), body });
		if (old) bodies.discard(old.body);
		sendEmpty(rq.res, 200, missing ? {} : { ETag: etag });
	}

	async function listParts(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		const u = uploadOf(rq, b);
		const maxParts = intParam(rq, 'max-parts', 1000, 0, 1000);
		const marker = intParam(rq, 'part-number-marker', 0, 0, 10000);
		await drain(rq.req);
		const after = [...u.parts.values()]
			.filter((p) => p.number > marker)
			.sort((x, y) => x.number - y.number);
		const page = after.slice(0, maxParts);
		const truncated = after.length > page.length;
		const parts = [
			el('Bucket', u.bucket),
			el('Key', u.key),
			el('UploadId', u.id),
			ownerXml('Initiator', u.initiator),
			ownerXml('Owner', u.initiator),
			el('StorageClass', 'STANDARD'),
			el('PartNumberMarker', marker),
		];
		if (truncated && page.length)
			parts.push(el('NextPartNumberMarker', page[page.length - 1].number));
		parts.push(el('MaxParts', maxParts), el('IsTruncated', bool(truncated)));
		for (const p of page) {
			parts.push(
				node('Part', [
					el('PartNumber', p.number),
					el('LastModified', iso(p.lastModified)),
					el('ETag', p.etag),
					el('Size', p.size),
				]),
			);
		}
		sendXml(rq.res, 200, doc('ListPartsResult', parts));
	}

	async function completeUpload(rq) {
		const { req } = rq;
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		uploadOf(rq, b);
		const text = await readText(req, MAX_XML_BYTES);
		const malformed = () =>
			new S3Error(
				'MalformedXML',
				'The XML you provided was not well-formed or did not validate against our published schema.',
			);
		let listed;
		try {
			const parsed = completeParser.parse(text, true);
			listed = parsed && parsed.CompleteMultipartUpload && parsed.CompleteMultipartUpload.Part;
		} catch {
			throw malformed();
		}
		if (!Array.isArray(listed) || !listed.length) throw malformed();
		const numbers = listed.map((p) => {
			const v = String((p && p.PartNumber) ?? '').trim();
			if (!/^\d+$/.test(v)) throw malformed();
			return Number(v);
		});
		for (let i = 1; i < numbers.length; i++) {
			if (numbers[i] <= numbers[i - 1])
				throw new S3Error(
					'InvalidPartOrder',
					'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
				);
		}
		const u = uploadOf(rq, b); // still there after reading the body?
		const chosen = listed.map((p, i) => {
			const part = u.parts.get(numbers[i]);
			if (!part || bareEtag(p.ETag) !== bareEtag(part.etag)) {
				throw new S3Error(
					'InvalidPart',
					"One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part's entity tag.",
					{ PartNumber: numbers[i], ETag: p.ETag === undefined ? '' : String(p.ETag) },
				);
			}
			return part;
		});
		u.completing = true;
		let body;
		try {
			body = await bodies.concat(chosen.map((p) => p.body));
		} catch (err) {
			u.completing = false;
			throw err;
		}
		const md5s = Buffer.concat(chosen.map((p) => Buffer.from(bareEtag(p.etag), 'hex')));
		const etag = `"${crypto.createHash('md5').update(md5s).digest('hex')}-${chosen.length}"`;
		storeObject(b, {
			key: u.key,
			size: body.size,
			etag,
			lastModified: nowSecond(),
			contentType: u.contentType,
			headers: u.headers,
			meta: u.meta,
			acl: u.acl,
			owner: u.initiator,
			body,
		});
		uploads.delete(u.id);
		for (const p of u.parts.values()) bodies.discard(p.body);
		const host = req.headers.host || '127.0.0.1';
		const location = `http://${host}/${encodeSegment(b.name)}/${u.key.split('/').map(encodeSegment).join('/')}`;
		sendXml(
			rq.res,
			200,
			doc('CompleteMultipartUploadResult', [
				el('Location', location),
				el('Bucket', b.name),
				el('Key', u.key),
				el('ETag', etag),
			]),
		);
	}

	async function abortUpload(rq) {
		const b = bucketOf(rq);
		requireBucketPerm(rq, b, 'WRITE');
		const u = uploadOf(rq, b);
		await drain(rq.req);
		uploads.delete(u.id);
		for (const p of u.parts.values()) bodies.discard(p.body);
		sendEmpty(rq.res, 204);
	}

	// ---- control routes, seeding, persistence --------------------------------------------

	function ownerFor(who) {
		if (!who) return initialUsers[0].id;
		const byKey = users.get(who);
		return byKey ? byKey.id : String(who);
	}

	/** Put an object from a Buffer, bypassing HTTP (seeding and control routes). */
	function putBuffer(b, key, buf, { contentType, meta = {}, headers = {}, acl = 'private', lastModified } = {}) {
		const md5 = crypto.createHash('md5').update(buf).digest('hex');
		const obj = {
			key,
			size: buf.length,
			etag: `"${md5}"`,
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
		 * { bucket, key, body (text) | base64, contentType?, meta?, acl?, headers? }, or
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
		 */
		'POST /listing-hooks': async (body) => {
			if (!Array.isArray(body.hooks)) throw badControl('hooks must be an array of listing hooks ([] removes them all)');
			if (body.hooks.length === 0) listingHooks = [];
			for (const h of body.hooks) {
				if (!h || typeof h.bucket !== 'string') throw badControl('a listing hook needs a bucket');
				if (!Number.isInteger(h.request) || h.request < 1) throw badControl('request must be a whole number from 1 (the next listing request)');
				const put = Array.isArray(h.put) ? h.put : [];
				if (put.some((it) => !it || typeof it.key !== 'string' || !it.key)) throw badControl('each object to put needs a key');
				for (const it of put) if (it.lastModified !== undefined) toMs(it.lastModified);
				listingHooks.push({ bucket: h.bucket, request: h.request, seen: 0, fired: false, marker: null, put, delete: (h.delete || []).map(String) });
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
			config = normalizeConfig(body, config);
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
		buckets = new Map();
		uploads = new Map();
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

	return {
		handle,
		control,
		snapshot,
		restore,
		reset,
		seedDemo,
		async close() {},
		/** The current wire settings (scheme, headerPrefix, presignKeyParam). */
		get config() {
			return { ...config };
		},
	};
}

module.exports = { createStorage };

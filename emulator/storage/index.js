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
 * The modules: state.js (state and what the handlers share), wire.js (requests read, answers
 * written), conditions.js, buckets.js, objects.js, multipart.js, control.js, and auth.js,
 * keys.js, bodies.js, xml.js, errors.js.
 * Fault rules (faults.js) are acted on in handle(): hang, reset, http, html200 and slowDown
 * answer instead of the operation; afterCreate500 (perform, then 500 InternalError) and
 * resetMidBody (GET answers: headers with the whole Content-Length, the first afterBytes bytes,
 * never the whole body, then the connection closes) and flipByte (GET answers: the byte at
 * afterBytes inverted on the way) act where the answer is written.
 */
const crypto = require('node:crypto');
const { S3Error } = require('./errors');
const { authenticate } = require('./auth');
const { errorDoc } = require('./xml');
const { WIRE, decodePath, decodeQuery, drain, sendXml, wireHeaders } = require('./wire');
const { createState } = require('./state');
const { createBuckets } = require('./buckets');
const { createObjects } = require('./objects');
const { createMultipart } = require('./multipart');
const { createControl } = require('./control');

/** S3 sub-resources this emulator does not serve: answered 501 rather than mistaken for another operation. */
const UNSUPPORTED = (
	'versioning logging versions delete tagging torrent restore policy cors lifecycle website ' +
	'location notification replication encryption requestPayment accelerate analytics inventory ' +
	'metrics ownershipControls publicAccessBlock object-lock retention legal-hold select ' +
	'attributes versionId list-type'
).split(' ');

function createStorage(ctx, options = {}) {
	const s = createState(ctx, options);
	const { log, config, users } = s;
	const { listBuckets, createBucket, deleteBucket, headBucket, putBucketAcl, getBucketAcl, listObjects } = createBuckets(s);
	const { putObject, getObject, deleteObject, getObjectAcl, putObjectAcl } = createObjects(s);
	const { initiateUpload, uploadPart, listParts, completeUpload, abortUpload } = createMultipart(s);
	const { control, seedDemo, snapshot, restore, reset } = createControl(s);
	const now = s.now;

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
			const rule = ctx.faults.pick('storage', route.op, (kind) => (kind !== 'resetMidBody' && kind !== 'flipByte') || rq.method === 'GET');
			if (rule) {
				if (rule.kind === 'afterCreate500' || rule.kind === 'resetMidBody' || rule.kind === 'flipByte') res[WIRE].rule = rule;
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

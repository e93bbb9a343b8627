'use strict';
/**
 * Multipart uploads in the storage emulator: Initiate, Upload Part, List Parts, Complete and
 * Abort.
 */
const crypto = require('node:crypto');
const { XMLParser } = require('fast-xml-parser');
const { S3Error } = require('./errors');
const { el, node, doc } = require('./xml');
const { drain, encodeSegment, iso, readText, sendXml, sendEmpty } = require('./wire');
const { bareEtag } = require('./conditions');
const { ANONYMOUS } = require('./state');

const MAX_XML_BYTES = 8 * 1024 * 1024;

const completeParser = new XMLParser({
	ignoreAttributes: true,
	parseTagValue: false,
	removeNSPrefix: true,
	isArray: (name) => name === 'Part',
});

function createMultipart(s) {
	const { ctx, bodies, uploads, now, bool, nowSecond, ownerXml, requireBucketPerm, bucketOf, uploadOf, cannedAcl, checkKey, requireLength, contentMd5, badDigest, objectAttrs, storeObject, multipartEtag, intParam } = s;

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
		const etag = multipartEtag(md5s, chosen.length);
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

	return { initiateUpload, uploadPart, listParts, completeUpload, abortUpload };
}

module.exports = { createMultipart };

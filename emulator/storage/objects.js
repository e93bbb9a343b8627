'use strict';
/**
 * Object operations of the storage emulator: Put, Get (conditions and ranges: conditions.js),
 * Delete, and the object ACL.
 */
const { Transform } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { S3Error } = require('./errors');
const { WIRE, drain, httpDate, sendXml, sendEmpty, wireHeaders, respond, cutAt, closeConnection } = require('./wire');
const { evaluateConditions, parseRange } = require('./conditions');
const { ANONYMOUS } = require('./state');

/** A pass-through stream that inverts the byte at `offset` of what passes (none when negative). */
function flipAt(offset) {
	let seen = 0;
	return new Transform({
		transform(chunk, _enc, done) {
			if (offset >= seen && offset < seen + chunk.length) {
				chunk = Buffer.from(chunk);
				chunk[offset - seen] ^= 0xff;
			}
			seen += chunk.length;
			done(null, chunk);
		},
	});
}


function createObjects(s) {
	const { ctx, bodies, config, buckets, nowSecond, bucketAllows, objectReadable, denied, requireBucketPerm, bucketOf, cannedAcl, checkKey, requireLength, contentMd5, badDigest, objectAttrs, storeObject, removeObject, runGetHooks, aclPolicy } = s;

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
		if (!head) runGetHooks(b, rq.key);
		const obj = b.objects.get(rq.key);
		if (!obj) {
			if (!bucketAllows(b, rq.user, 'READ')) throw denied();
			throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: rq.key });
		}
		if (!objectReadable(b, obj, rq.user)) throw denied();
		const h = req.headers;
		const base = { ETag: obj.etag, 'Last-Modified': httpDate(obj.lastModified) };
		const d = ctx.dialects;
		// dialect ifMatchIgnored: a service that does not honour If-Match (readings R74)
		const cond = evaluateConditions(h, obj, !!(d && d.has('ifMatchIgnored')));
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
			// dialect rangeIgnored: 200 with the whole object; rangeAs200: 200 with only the bytes
			// asked for and no Content-Range ("200 with the content", "returns the first 100 bytes":
			// readings R74)
			if (r && !(d && d.has('rangeIgnored'))) {
				({ start, end } = r);
				if (!(d && d.has('rangeAs200'))) {
					status = 206;
					headers['Content-Range'] = `bytes ${start}-${end}/${obj.size}`;
				}
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
			// flipByte: one byte of the answer changed on the way (afterBytes: its offset in the body)
			if (rule && rule.kind === 'flipByte') await pipeline(stream, flipAt(cut === undefined ? rule.afterBytes || 0 : -1), res);
			else if (cut === undefined) await pipeline(stream, res);
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

	return { putObject, getObject, deleteObject, getObjectAcl, putObjectAcl };
}

module.exports = { createObjects };

'use strict';
/**
 * Service and bucket operations of the storage emulator: List Buckets, Create, Delete and Head
 * Bucket, the bucket ACL, and List Objects (the listing itself: keys.js).
 */
const { S3Error } = require('./errors');
const { el, node, doc } = require('./xml');
const keysIndex = require('./keys');
const { drain, iso, httpDate, sendXml, sendEmpty } = require('./wire');
const { validBucketName } = require('./state');


function createBuckets(s) {
	const { ctx, buckets, uploads, bool, nowSecond, ownerXml, denied, requireOwner, requireBucketPerm, bucketOf, cannedAcl, runListingHooks, newBucket, aclPolicy, intParam } = s;

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
		// dialect listingRepeats: entries listed again, across the page boundary and within the page (keys.js)
		const listed = ctx.dialects && ctx.dialects.has('listingRepeats') ? keysIndex.withRepeats(b.keys, page.keys, { prefix, delimiter, marker }) : page.keys;
		for (const k of listed) {
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

	return { listBuckets, createBucket, deleteBucket, headBucket, putBucketAcl, getBucketAcl, listObjects };
}

module.exports = { createBuckets };

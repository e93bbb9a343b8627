'use strict';
/**
 * Request signing of docs/vendor/object-storage.md#signing (HMAC-SHA1, "signature version 2"),
 * verifier side.
 *
 *   StringToSign = Verb \n Content-MD5 \n Content-Type \n Date \n
 *                  CanonicalizedVendorHeaders CanonicalizedResource
 *
 * The Date slot is empty when `<prefix>date` is sent and holds `Expires` for a presigned URL.
 * CanonicalizedResource is the path exactly as it came on the wire (still percent-encoded)
 * plus the listed sub-resources only, sorted by name.
 *
 * Default reading: only the eight documented sub-resources (docs/vendor/object-storage.md#sub-resources)
 * are signed (`versioning, acl, logging, versions, uploads, partNumber, uploadId, delete`), each
 * value exactly as sent on the wire (still percent-encoded), as S3 and aws-sdk v2 do. Two
 * dialects (dialects.js) change what the signature is checked against; presigned URLs follow the same rules:
 *   underscoreSigned    (readings R13) the multipart paths write `upload_id` and
 *                       `part_number` ("PUT /{bucket}/{key}?upload_id=<upload_id>&part_number=<n>")
 *                       while the sub-resources are only `uploadId` and `partNumber`
 *                       (docs/vendor/object-storage.md#sub-resources);
 *                       this reading counts `upload_id` and `part_number` as sub-resources
 *                       too (sorted with the others by name).
 *   subresourceDecoded  (readings R14) "name or name=value" leaves the
 *                       form of the value open; this reading puts the value percent-DECODED
 *                       into CanonicalizedResource (upload IDs then carry +, / and =, see
 *                       storage/index.js, so the two readings give different signatures).
 *   bucketPathSlash     docs/vendor/object-storage.md#signing and its endpoint notes: "Signing
 *                       rules treat the object path as /{bucket}/{key} and the bucket path as
 *                       /{bucket}/" (docs/vendor/readings.md R10). A bucket-level request (no key) is
 *                       checked with CanonicalizedResource /{bucket}/ whether it was sent to
 *                       /{bucket} or /{bucket}/; by default the path is signed as sent.
 */
const crypto = require('node:crypto');
const { S3Error } = require('./errors');

const SUB_RESOURCES = new Set([
	'versioning',
	'acl',
	'logging',
	'versions',
	'uploads',
	'partNumber',
	'uploadId',
	'delete',
]);
/** Sub-resources signed besides the eight documented ones under the dialect underscoreSigned. */
const UNDERSCORE_SUB_RESOURCES = new Set(['upload_id', 'part_number']);
const MAX_SKEW_MS = 15 * 60 * 1000;

/** CanonicalizedVendorHeaders from the raw header list (repeats merged with ',', no space). */
function canonicalHeaders(rawHeaders, prefix) {
	const byName = new Map();
	for (let i = 0; i < rawHeaders.length; i += 2) {
		const name = rawHeaders[i].toLowerCase();
		if (!name.startsWith(prefix)) continue;
		const value = String(rawHeaders[i + 1])
			.replace(/[ \t]*\r?\n[ \t]*/g, ' ')
			.trim();
		if (!byName.has(name)) byName.set(name, []);
		byName.get(name).push(value);
	}
	return [...byName.keys()]
		.sort()
		.map((name) => `${name}:${byName.get(name).join(',')}\n`)
		.join('');
}

/**
 * CanonicalizedResource: raw path + sorted sub-resources. `pairs` are the parsed query pairs
 * ({ name, value, rawValue }); by default the value as sent, with `decoded` the decoded one;
 * with `underscore` upload_id and part_number are sub-resources too.
 */
function canonicalResource(rawPath, pairs, { decoded = false, underscore = false } = {}) {
	const subs = pairs
		.filter((p) => SUB_RESOURCES.has(p.name) || (underscore && UNDERSCORE_SUB_RESOURCES.has(p.name)))
		.map((p) => {
			const v = decoded ? p.value : p.rawValue;
			return { name: p.name, text: v === undefined ? p.name : `${p.name}=${v}` };
		})
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return rawPath + (subs.length ? '?' + subs.map((s) => s.text).join('&') : '');
}

/** The path that is signed: as sent, or with bucketPathSlash `/{bucket}/` for a bucket-level request. */
function signedPath(rq, bucketSlash) {
	if (!bucketSlash || !rq.bucketName || rq.key) return rq.rawPath;
	const segment = rq.rawPath.slice(1).split('/')[0];
	return `/${segment}/`;
}

function stringToSign(rq, dateSlot, prefix, resourceOptions) {
	const h = rq.req.headers;
	return (
		`${rq.method}\n${h['content-md5'] || ''}\n${h['content-type'] || ''}\n${dateSlot}\n` +
		canonicalHeaders(rq.req.rawHeaders, prefix) +
		canonicalResource(signedPath(rq, resourceOptions.bucketSlash), rq.pairs, resourceOptions)
	);
}

function sign(secret, sts) {
	return crypto.createHmac('sha1', secret).update(sts, 'utf8').digest('base64');
}

function sameSignature(a, b) {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** Check the signature under the reading the dialects pick (see the header); one reading only. */
function verify(rq, user, provided, dateSlot, config, dialects) {
	const has = (name) => !!(dialects && dialects.has(name));
	const sts = stringToSign(rq, dateSlot, config.headerPrefix, {
		decoded: has('subresourceDecoded'),
		underscore: has('underscoreSigned'),
		bucketSlash: has('bucketPathSlash'),
	});
	if (sameSignature(sign(user.secretKey, sts), provided)) return;
	throw new S3Error(
		'SignatureDoesNotMatch',
		'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
		{ StringToSign: sts, SignatureProvided: provided, AccessKeyId: user.accessKey },
	);
}

/**
 * Who sent the request: a user object, or null for an anonymous request.
 * Throws S3Error for a malformed, unknown, stale or wrongly signed request.
 */
function authenticate(rq, { config, users, now, dialects }) {
	const h = rq.req.headers;
	const authz = h.authorization;
	if (authz !== undefined) {
		const sp = authz.indexOf(' ');
		const scheme = sp < 0 ? authz : authz.slice(0, sp);
		const cred = sp < 0 ? '' : authz.slice(sp + 1).trim();
		const colon = cred.lastIndexOf(':');
		if (scheme !== config.scheme || colon <= 0 || colon === cred.length - 1) {
			throw new S3Error(
				'InvalidArgument',
				`Authorization header is invalid: expected "${config.scheme} <access key>:<signature>"`,
			);
		}
		const accessKey = cred.slice(0, colon);
		const signature = cred.slice(colon + 1);
		const user = users.get(accessKey);
		if (!user)
			throw new S3Error(
				'InvalidAccessKeyId',
				'The access key you provided does not exist in our records.',
			);
		const vendorDate = h[config.headerPrefix + 'date'];
		const dateText = vendorDate !== undefined ? vendorDate : h.date;
		const time = dateText === undefined ? NaN : Date.parse(dateText);
		if (Number.isNaN(time)) {
			throw new S3Error(
				'AccessDenied',
				`Authenticated requests need a valid Date or ${config.headerPrefix}date header.`,
			);
		}
		if (Math.abs(now - time) > MAX_SKEW_MS) {
			throw new S3Error(
				'RequestTimeTooSkewed',
				'The difference between the request time and the current time is too large.',
				{
					RequestTime: dateText,
					ServerTime: new Date(now).toUTCString(),
					MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
				},
			);
		}
		verify(rq, user, signature, vendorDate !== undefined ? '' : h.date || '', config, dialects);
		return user;
	}

	const q = rq.query;
	if (q.has(config.presignKeyParam) || q.has('Signature')) {
		const accessKey = q.get(config.presignKeyParam);
		const signature = (q.get('Signature') || '').replace(/ /g, '+');
		const expires = q.get('Expires');
		if (!accessKey || !signature || expires === undefined) {
			throw new S3Error(
				'AccessDenied',
				`Query-string authentication needs the Signature, Expires and ${config.presignKeyParam} parameters.`,
			);
		}
		const user = users.get(accessKey);
		if (!user)
			throw new S3Error(
				'InvalidAccessKeyId',
				'The access key you provided does not exist in our records.',
			);
		if (!/^\d+$/.test(expires))
			throw new S3Error('AccessDenied', 'Expires must be a number of seconds since the epoch.');
		if (Math.floor(now / 1000) > Number(expires))
			throw new S3Error('AccessDenied', 'Request has expired.', { Expires: expires });
		verify(rq, user, signature, expires, config, dialects);
		return user;
	}
	return null;
}

module.exports = {
	SUB_RESOURCES,
	UNDERSCORE_SUB_RESOURCES,
	canonicalHeaders,
	canonicalResource,
	stringToSign,
	sign,
	authenticate,
};

'use strict';
/**
 * Dialects: readings of the vendor's documentation the emulator can play
 * (docs/vendor/readings.md, the readings of kind "two ways"). Each is off by default; the default
 * reading is the emulator default that each reading names. A dialect's behaviour lives in the
 * module that acts, under a comment naming it:
 *
 *   storage/buckets.js   commonPrefixesPlain, markerInclusive (List Objects)
 *   storage/keys.js      markerInclusive (where the listing starts, NextMarker)
 *   storage/state.js     aclOwnerOnly (aclPolicy), booleansCapitalized, booleansNumeric (bool)
 *   storage/wire.js      extraFields (XML element and header), numericReferences (XML text)
 *   storage/multipart.js trickyUploadIds, partEtagMissing (Upload Part's answer),
 *                        multipartEtagPlain (Complete's ETag)
 *   storage/objects.js   rangeAs200, rangeIgnored, ifMatchIgnored (Get Object)
 *   storage/buckets.js   listingRepeats (List Objects)
 *   storage/auth.js      underscoreSigned, subresourceDecoded, bucketPathSlash
 *   management/core-envelope.js  numbersAsStrings, numbersAsNumbers, emptyObjectsAsArrays,
 *                        extraFields (one transform of every JSON answer)
 *   management/core-tokens.js    loginInvalidates, tokenLifetime60, tokenRefusedOtherCode,
 *                        tokenRefusedChinese, expiresTimestamp
 *   management/instance/model.js   lineIdsDiffer, hostLineWords (a line's row id)
 *   management/instance/hosts.js   lineIdsDiffer (networkResourceList)
 *   management/instance/render.js  hostLineWords (a host's network)
 *   management/instance/disks.js   objectIdInAnswers (backupRestore, snapshotRollback)
 *   management/cdn/tasks.js        failedTasksListedRunning
 *   management/dns/      dnsLinesOwn (model.js: the lines; fields.js: checkRecord; render.js,
 *                        routes-domains.js: records answered and read)
 *   framing.js           byteOrderMark, charsetLatin1, jsonContentTypes, whitespaceAround,
 *                        compressedAnswers (how each JSON and XML answer is framed on the wire;
 *                        called by management/core-envelope.js send and storage/index.js sendXml)
 *   management/core-router.js    unbindOnBindPath (which paths exist: the router)
 *
 * Set with createEmulator({ dialects: ['a', 'b'] }) (or 'a,b'), the CLI `--dialect a,b`, or
 * `POST /__emulator/dialects {"set": [...]}`; `GET /__emulator/dialects` lists them.
 */

const DIALECTS = [
	{
		name: 'commonPrefixesPlain',
		area: 'storage',
		description:
			'List Objects writes each common prefix as <CommonPrefixes>p/</CommonPrefixes> (the documents\' "repeated string", readings R20) instead of S3\'s <CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes>',
	},
	{
		name: 'markerInclusive',
		area: 'storage',
		description:
			'List Objects starts AT the marker key (the documents: the listing starts at the marker, readings R21) instead of after it (S3); NextMarker is then the first entry not returned',
	},
	{
		name: 'aclOwnerOnly',
		area: 'storage',
		description:
			'Get Bucket ACL lists only the owner\'s FULL_CONTROL grant, whatever the canned ACL (the documents: only FULL_CONTROL appears, readings R22)',
	},
	{
		name: 'underscoreSigned',
		area: 'storage',
		description:
			'the query names upload_id and part_number count as sub-resources when the signature is checked (in CanonicalizedResource, sorted with the others); by default they are not signed',
	},
	{
		name: 'subresourceDecoded',
		area: 'storage',
		description:
			'sub-resource values go into CanonicalizedResource percent-decoded when the signature is checked (default: exactly as sent); upload IDs then contain +, / and =',
	},
	{
		name: 'trickyUploadIds',
		area: 'storage',
		description: 'upload IDs contain +, / and = (signed as sent, the default reading)',
	},
	{
		name: 'bucketPathSlash',
		area: 'storage',
		description:
			'the signature of a bucket-level request (Create/Delete Bucket, Get/Set ACL, List Objects) is checked with the bucket path written /{bucket}/, as the documentation\'s signing rules write it, whether the request was sent to /{bucket} or /{bucket}/; by default the path is signed as sent',
	},
	{
		name: 'booleansCapitalized',
		area: 'storage',
		description: 'XML booleans (IsTruncated of List Objects and List Parts) are written True and False instead of true and false',
	},
	{
		name: 'booleansNumeric',
		area: 'storage',
		description: 'XML booleans (IsTruncated of List Objects and List Parts) are written 1 and 0, the XML Schema boolean\'s other form',
	},
	{
		name: 'numericReferences',
		area: 'storage',
		description:
			'XML text is escaped the way Go-based S3 servers write it: " and \' as &#34; and &#39;, tab, line feed and carriage return as &#x9; &#xA; &#xD; (ETags arrive as &#34;...&#34;)',
	},
	{
		name: 'partEtagMissing',
		area: 'storage',
		description: 'Upload Part answers 200 without an ETag header (the documentation gives it none); List Parts still gives each part\'s ETag, which is not the part\'s MD5',
	},
	{
		name: 'rangeAs200',
		area: 'storage',
		description:
			'Get Object answers a Range with 200, only the bytes asked for and no Content-Range (the documents: Get Object answers "200 with the content", bytes=0-99 "returns the first 100 bytes"; readings R74) instead of S3\'s 206 with Content-Range',
	},
	{
		name: 'rangeIgnored',
		area: 'storage',
		description: 'Get Object ignores Range: 200 with the whole object and no Content-Range (readings R74)',
	},
	{
		name: 'ifMatchIgnored',
		area: 'storage',
		description: 'Get Object ignores If-Match: the object is sent whatever its ETag, never 412 for it (a service may not honour the condition; readings R74)',
	},
	{
		name: 'multipartEtagPlain',
		area: 'storage',
		description:
			'the ETag of an object made by multipart upload is 32 hex digits (the MD5 of its parts\' MD5s, without S3\'s "-<parts>"): the documents say only that it "is not the MD5 of the content" (readings R74)',
	},
	{
		name: 'listingRepeats',
		area: 'storage',
		description:
			'List Objects repeats entries: a page after a marker starts with the two keys before the marker again (the end of the previous page), and every third key of a page is listed twice (readings R74)',
	},
	{
		name: 'numbersAsStrings',
		area: 'management',
		description: 'every number in every JSON answer is a string, the envelope too ("code": "1", "expires": "7200")',
	},
	{
		name: 'numbersAsNumbers',
		area: 'management',
		description: 'every numeric string in answers is a number ("id": 12, "status": 1, "price": 10.5); code stays a number',
	},
	{
		name: 'emptyObjectsAsArrays',
		area: 'management',
		description: 'an empty object anywhere in an answer is written [] (PHP style), data included',
	},
	{
		name: 'lineIdsDiffer',
		area: 'management',
		description:
			'rows of instance/networkResourceList get ids that are not line codes (101, 102, ...); linetype stays the line code 1-6 that instance/create takes as networkid',
	},
	{
		name: 'loginInvalidates',
		area: 'management',
		description: "every successful OAuth/authorize of an account invalidates that account's earlier tokens",
	},
	{
		name: 'tokenLifetime60',
		area: 'management',
		description: 'new tokens expire after 60 s of emulator time (expires says 60)',
	},
	{
		name: 'failedTasksListedRunning',
		area: 'management',
		description: 'cdn/refreshList keeps a failed refresh or prefetch task at status 0 (refreshing); only the status query says failed',
	},
	{
		name: 'tokenRefusedOtherCode',
		area: 'management',
		description:
			'a missing, wrong, revoked or expired token is answered with code 0 (the code of every other failure) and the message "access token expired, please log in again" instead of code -1 (docs/vendor/readings.md#r44)',
	},
	{
		name: 'tokenRefusedChinese',
		area: 'management',
		description:
			'a missing, wrong, revoked or expired token is answered with code 401 and a message in the service\'s language that does not name the token ("登录已失效，请重新登录": the log-in is no longer valid, log in again) (docs/vendor/readings.md#r44)',
	},
	{
		name: 'expiresTimestamp',
		area: 'management',
		description:
			'OAuth/authorize answers `expires` as the Unix time (seconds, emulator clock) at which the token ends instead of its lifetime in seconds (docs/vendor/readings.md#r45)',
	},
	{
		name: 'objectIdInAnswers',
		area: 'management',
		description:
			'instance/backupRestore and instance/snapshotRollback answers also carry `id`: the id of the backup or snapshot the request named, not of the host (docs/vendor/readings.md#r67)',
	},
	{
		name: 'hostLineWords',
		area: 'management',
		description:
			'instance/list writes a host\'s `network` as its networkResourceList row: `id` the row id (101, 102, ...), `line` the service\'s own name of the line in its language (内网, 电信, 联通, 移动, 多线BGP, 双线) (docs/vendor/readings.md#r68)',
	},
	{
		name: 'dnsLinesOwn',
		area: 'management',
		description:
			'DNS record lines are the service\'s own values in its language (默认, 电信, 联通, 移动, 教育网, 境外, 搜索引擎); an empty line is the default line and the English words default, telecom, ... are refused (docs/vendor/readings.md#r69)',
	},
	{
		name: 'byteOrderMark',
		area: 'both',
		description:
			'every JSON and every XML answer begins with a UTF-8 byte order mark (EF BB BF), as .NET and Windows-built servers write it (docs/vendor/readings.md#r46, #r29)',
	},
	{
		name: 'charsetLatin1',
		area: 'both',
		description:
			'answers in ISO-8859-1: JSON with `Content-Type: application/json; charset=ISO-8859-1` and characters beyond U+00FF as \\u escapes; XML declared `<?xml version="1.0" encoding="ISO-8859-1"?>` (no charset in its Content-Type) with those characters as references (docs/vendor/readings.md#r46, #r29)',
	},
	{
		name: 'jsonContentTypes',
		area: 'management',
		description:
			'JSON answers go under another Content-Type, one per endpoint: text/html; charset=UTF-8 (PHP\'s default), text/plain, application/javascript, application/json without a charset, or none (docs/vendor/readings.md#r46)',
	},
	{
		name: 'whitespaceAround',
		area: 'both',
		description:
			'JSON answers between line breaks and spaces; XML answers after a line break, before their XML declaration (docs/vendor/readings.md#r46, #r29)',
	},
	{
		name: 'compressedAnswers',
		area: 'both',
		description:
			'answers compressed with a coding the request accepts: JSON gzip, deflate or br (one per endpoint), XML gzip, with Content-Encoding (docs/vendor/readings.md#r46, #r29)',
	},
	{
		name: 'unbindOnBindPath',
		area: 'management',
		description:
			'a cloud disk is unbound only the way the documentation\'s example does it, instance/cloudDiskBind with the disk ids and no iid; instance/unbind, a path the documentation does not show, answers HTTP 404 "no such endpoint" (docs/vendor/readings.md#r60)',
	},
	{
		name: 'extraFields',
		area: 'both',
		description:
			'every JSON answer and every record in it carries fields the documents do not list (readings R38; x_extra, _links); XML answers carry an unknown element and an unknown header',
	},
];

const BY_NAME = new Map(DIALECTS.map((d) => [d.name, d]));

/** A name list from an array or a comma-separated string; unknown names are an Error with status 400. */
function parseNames(value) {
	if (value === undefined || value === null || value === '') return [];
	const list = Array.isArray(value) ? value : String(value).split(',');
	const names = list.map((n) => String(n).trim()).filter(Boolean);
	const unknown = names.filter((n) => !BY_NAME.has(n));
	if (unknown.length) {
		const err = new Error(`unknown dialect ${unknown.join(', ')}; available: ${DIALECTS.map((d) => d.name).join(', ')}`);
		err.status = 400;
		throw err;
	}
	return [...new Set(names)];
}

/** The dialects one emulator plays: `has(name)`, `set(names)`, `toJSON()`. */
class Dialects {
	constructor(names) {
		this.enabled = new Set(parseNames(names));
	}
	has(name) {
		return this.enabled.has(name);
	}
	/** Replaces the set. */
	set(names) {
		this.enabled = new Set(parseNames(names));
		return this.toJSON();
	}
	toJSON() {
		return {
			enabled: DIALECTS.filter((d) => this.enabled.has(d.name)).map((d) => d.name),
			available: DIALECTS.map((d) => ({ ...d })),
		};
	}
}

module.exports = { DIALECTS, Dialects, parseNames };

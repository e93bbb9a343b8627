/**
 * Request signing of the object-storage interface (the vendor's documentation, "Authentication"):
 * HMAC-SHA1 over a StringToSign, the scheme of S3 signature version 2 with the vendor's words.
 *
 * Pure functions: no I/O, no clock (callers pass dates), no n8n imports, so the published AWS
 * vectors and an independent signer (aws-sdk v2) can check them directly.
 */
import { createHmac } from 'crypto';

export interface SigningProfile {
	/** Authorization scheme word: `VENDOR` (`Authorization: VENDOR key:sig`), `AWS` for plain S3. */
	scheme: string;
	/** Prefix of the signed vendor headers (date, acl, meta): `x-vendor-`, `x-amz-` for plain S3. */
	headerPrefix: string;
	/**
	 * Query names signed as sub-resources besides the listed ones. The documentation lists `uploadId` and
	 * `partNumber` only; a service that also signs its path samples' `upload_id` and
	 * `part_number` needs them here.
	 */
	extraSubResources?: readonly string[];
	/**
	 * Put sub-resource values into CanonicalizedResource percent-decoded (`uploadId=a+b/c=`)
	 * instead of exactly as sent (`uploadId=a%2Bb%2Fc%3D`, the default). The documentation does not say.
	 */
	decodeSubResourceValues?: boolean;
}

export const VENDOR_PROFILE: SigningProfile = { scheme: 'VENDOR', headerPrefix: 'x-vendor-' };

/** The sub-resources the documentation lists ("CanonicalizedResource"); no other query parameter is signed. */
export const SUB_RESOURCES: readonly string[] = [
	'acl',
	'delete',
	'logging',
	'partNumber',
	'uploadId',
	'uploads',
	'versioning',
	'versions',
];

export type HeaderValue = string | number | string[] | undefined;
/** Headers as an object, or as [name, value] pairs when a name repeats. */
export type HeaderInput = Record<string, HeaderValue> | Array<[string, string]>;

export interface SignableRequest {
	method: string;
	/** The path exactly as sent on the wire (percent-encoded), including the bucket: `/bucket/a%20b`. */
	path: string;
	/** The raw query string as sent (without `?`), e.g. `uploadId=abc&partNumber=2`. */
	query?: string;
	headers: HeaderInput;
}

function headerPairs(headers: HeaderInput): Array<[string, string]> {
	if (Array.isArray(headers)) return headers.map(([k, v]) => [k, String(v)]);
	const out: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		if (Array.isArray(value)) for (const v of value) out.push([name, String(v)]);
		else out.push([name, String(value)]);
	}
	return out;
}

function headerValue(pairs: Array<[string, string]>, name: string): string | undefined {
	const lower = name.toLowerCase();
	const hit = pairs.find(([k]) => k.toLowerCase() === lower);
	return hit?.[1];
}

/** Unfold a header value: any run of whitespace that holds a line break becomes one space; trim. */
function unfold(value: string): string {
	return value.replace(/[ \t]*\r?\n[ \t]*/g, ' ').trim();
}

/**
 * CanonicalizedVendorHeaders: every header starting with the prefix (case-insensitive),
 * lower-cased, sorted, repeats merged as `name:v1,v2`, unfolded, no spaces around the colon,
 * each line ending in LF.
 */
export function canonicalVendorHeaders(headers: HeaderInput, profile: SigningProfile): string {
	const prefix = profile.headerPrefix.toLowerCase();
	const merged = new Map<string, string[]>();
	for (const [rawName, rawValue] of headerPairs(headers)) {
		const name = rawName.trim().toLowerCase();
		if (!name.startsWith(prefix)) continue;
		const list = merged.get(name) ?? [];
		list.push(unfold(rawValue));
		merged.set(name, list);
	}
	return [...merged.keys()]
		.sort()
		.map((name) => `${name}:${merged.get(name)!.join(',')}\n`)
		.join('');
}

export interface ResourceOptions {
	extraSubResources?: readonly string[];
	decodeSubResourceValues?: boolean;
}

function decodeValue(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

/**
 * CanonicalizedResource: the path as sent, then the listed sub-resources (and any extra ones
 * the options name) sorted by name, their values as sent or percent-decoded.
 */
export function canonicalResource(path: string, query = '', options: ResourceOptions = {}): string {
	const signed = new Set([...SUB_RESOURCES, ...(options.extraSubResources ?? [])]);
	const subs: Array<[string, string | undefined]> = [];
	for (const part of query.split('&')) {
		if (!part) continue;
		const eq = part.indexOf('=');
		const name = eq === -1 ? part : part.slice(0, eq);
		if (!signed.has(name)) continue;
		const raw = eq === -1 ? undefined : part.slice(eq + 1);
		subs.push([name, raw !== undefined && options.decodeSubResourceValues ? decodeValue(raw) : raw]);
	}
	subs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const qs = subs.map(([n, v]) => (v === undefined ? n : `${n}=${v}`)).join('&');
	return qs ? `${path}?${qs}` : path;
}

/**
 * StringToSign = Verb LF Content-MD5 LF Content-Type LF Date LF CanonicalizedVendorHeaders
 * CanonicalizedResource. The Date slot is empty when the prefixed date header is sent, and
 * holds `expires` for a presigned URL.
 */
export function stringToSign(req: SignableRequest, profile: SigningProfile, expires?: number): string {
	const pairs = headerPairs(req.headers);
	const vendorDate = headerValue(pairs, `${profile.headerPrefix}date`);
	let dateSlot: string;
	if (expires !== undefined) dateSlot = String(expires);
	else if (vendorDate !== undefined) dateSlot = '';
	else dateSlot = headerValue(pairs, 'date') ?? '';
	return [
		req.method.toUpperCase(),
		headerValue(pairs, 'content-md5') ?? '',
		headerValue(pairs, 'content-type') ?? '',
		dateSlot,
		'',
	].join('\n') + canonicalVendorHeaders(pairs, profile) + canonicalResource(req.path, req.query, profile);
}

/** base64(HMAC-SHA1(secret, stringToSign)), RFC 2104. */
export function signString(secret: string, toSign: string): string {
	return createHmac('sha1', secret).update(toSign, 'utf8').digest('base64');
}

/** The Authorization header value: `<scheme> <accessKey>:<signature>`. */
export function authorization(
	accessKey: string,
	secret: string,
	req: SignableRequest,
	profile: SigningProfile,
): string {
	return `${profile.scheme} ${accessKey}:${signString(secret, stringToSign(req, profile))}`;
}

/** RFC 3986 encoding of one path segment (unreserved characters kept, upper-case hex). */
export function encodeSegment(segment: string): string {
	return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `/bucket` or `/bucket/key…`, each `/`-separated segment of the key encoded on its own. */
export function objectPath(bucket: string, key?: string): string {
	const b = `/${encodeSegment(bucket)}`;
	if (key === undefined || key === '') return b;
	return `${b}/${key.split('/').map(encodeSegment).join('/')}`;
}

export interface PresignInput {
	endpoint: string;
	method: 'GET' | 'PUT';
	bucket: string;
	key: string;
	accessKey: string;
	secret: string;
	/** Seconds since the epoch after which the URL is refused. */
	expires: number;
	profile: SigningProfile;
	/** Query name carrying the access key: `VENDORAccessKeyId` (`AWSAccessKeyId` for plain S3). */
	keyParam: string;
	/** Signed headers the user of the URL must send too (Content-Type, prefixed headers). */
	headers?: Record<string, string>;
}

/** A presigned URL: the access key, Expires and the URL-encoded signature as query parameters. */
export function presignedUrl(input: PresignInput): string {
	const path = objectPath(input.bucket, input.key);
	const toSign = stringToSign({ method: input.method, path, headers: input.headers ?? {} }, input.profile, input.expires);
	const signature = signString(input.secret, toSign);
	const base = input.endpoint.replace(/\/+$/, '');
	const qs = [
		`${encodeURIComponent(input.keyParam)}=${encodeURIComponent(input.accessKey)}`,
		`Expires=${input.expires}`,
		`Signature=${encodeURIComponent(signature)}`,
	].join('&');
	return `${base}${path}?${qs}`;
}

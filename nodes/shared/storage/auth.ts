/**
 * Applies the storage credential to a request: folds `qs` into the URL (so the query that is
 * signed is byte for byte the query that is sent), adds the prefixed date header when the
 * caller has not set one, and signs. Used by the credential's `authenticate`, so the nodes and
 * the HTTP Request node sign the same way.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { authorization, encodeSegment, type SigningProfile } from './signer';

export interface StorageSettings {
	endpoint: string;
	accessKey: string;
	accessSecret: string;
	profile: SigningProfile;
	presignKeyParam: string;
	uploadIdParam: string;
	partNumberParam: string;
	/**
	 * Send and sign a bucket-level request (Create/Delete Bucket, Get/Set ACL, List Objects) at
	 * `/{bucket}/`, the bucket path of the documentation's signing rules, rather than `/{bucket}`
	 * (docs/vendor/readings.md#r10).
	 */
	bucketPathSlash: boolean;
	/** Longest wait for the first byte of an answer once the request (and its body) is sent. */
	responseTimeoutMs: number;
	/** The same for Complete Multipart Upload, which may join many GiB before it answers. */
	completeTimeoutMs: number;
	/** Longest time no byte moves while a body is sent or received. */
	idleTimeoutMs: number;
}

/**
 * Defaults of the timeouts (seconds); why these, and the deadline they give each request, is in
 * the README's "Time limits and errors". A short request waits 30 s for its answer (three tries
 * end within 90 s, as a management read does); Complete Multipart Upload waits 300 s, because a
 * service may join many GiB before it answers; 120 s without a byte moving ends a transfer.
 */
export const DEFAULT_RESPONSE_TIMEOUT_S = 30;
export const DEFAULT_COMPLETE_TIMEOUT_S = 300;
export const DEFAULT_IDLE_TIMEOUT_S = 120;

function seconds(raw: unknown, fallback: number): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	return Number.isFinite(n) && n > 0 ? n * 1000 : fallback * 1000;
}

export function storageSettings(credentials: ICredentialDataDecryptedObject): StorageSettings {
	const advanced = credentials.advanced === true;
	const pick = (name: string, fallback: string) => {
		const v = advanced ? String(credentials[name] ?? '').trim() : '';
		return v || fallback;
	};
	const snake = advanced && credentials.multipartQueryNames === 'snake';
	const signSnake = advanced && credentials.signUnderscoreSubResources === true;
	const decoded = advanced && credentials.subResourceValues === 'decoded';
	return {
		endpoint: String(credentials.endpoint ?? '').trim().replace(/\/+$/, ''),
		accessKey: String(credentials.accessKey ?? '').trim(),
		accessSecret: String(credentials.accessSecret ?? ''),
		profile: {
			scheme: pick('schemeWord', 'VENDOR'),
			headerPrefix: pick('headerPrefix', 'x-vendor-').toLowerCase(),
			...(signSnake ? { extraSubResources: ['part_number', 'upload_id'] } : {}),
			...(decoded ? { decodeSubResourceValues: true } : {}),
		},
		presignKeyParam: pick('presignKeyParam', 'VENDORAccessKeyId'),
		uploadIdParam: snake ? 'upload_id' : 'uploadId',
		partNumberParam: snake ? 'part_number' : 'partNumber',
		// The documentation's form is the default: it works with services that sign the path as
		// sent and with those that sign the bucket path as /{bucket}/ (readings R10).
		bucketPathSlash: !(advanced && credentials.bucketPath === 'noSlash'),
		responseTimeoutMs: seconds(advanced ? credentials.responseTimeout : undefined, DEFAULT_RESPONSE_TIMEOUT_S),
		completeTimeoutMs: seconds(advanced ? credentials.completeTimeout : undefined, DEFAULT_COMPLETE_TIMEOUT_S),
		idleTimeoutMs: seconds(advanced ? credentials.idleTimeout : undefined, DEFAULT_IDLE_TIMEOUT_S),
	};
}

/** `a=1&b` from an object; RFC 3986 encoding; an empty value gives the bare name (`?acl`). */
export function encodeQuery(qs: IDataObject): string {
	const parts: string[] = [];
	for (const [name, value] of Object.entries(qs)) {
		if (value === undefined || value === null) continue;
		const values = Array.isArray(value) ? value : [value];
		for (const v of values) {
			const s = String(v);
			parts.push(s === '' ? encodeSegment(name) : `${encodeSegment(name)}=${encodeSegment(s)}`);
		}
	}
	return parts.join('&');
}

function findHeader(headers: IDataObject, name: string): string | undefined {
	const lower = name.toLowerCase();
	return Object.keys(headers).find((k) => k.toLowerCase() === lower);
}

type LegacyOptions = IHttpRequestOptions & { uri?: string };

export function signStorageRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	now: Date = new Date(),
): IHttpRequestOptions {
	const settings = storageSettings(credentials);
	const options = requestOptions as LegacyOptions;
	const raw = options.url ?? options.uri ?? '';
	const base = options.baseURL ?? settings.endpoint;
	const url = new URL(raw, base.endsWith('/') ? base : `${base}/`);
	if (options.qs && Object.keys(options.qs).length) {
		const extra = encodeQuery(options.qs);
		url.search = url.search ? `${url.search.slice(1)}&${extra}` : extra;
		delete options.qs;
	}
	const full = url.toString();
	if (options.uri !== undefined) options.uri = full;
	else options.url = full;
	delete options.baseURL;

	const headers = (options.headers ?? {}) as IDataObject;
	options.headers = headers;
	const prefix = settings.profile.headerPrefix;
	if (!findHeader(headers, `${prefix}date`) && !findHeader(headers, 'date')) {
		headers[`${prefix}date`] = now.toUTCString();
	}
	const body = options.body as unknown;
	const isPlainObject =
		typeof body === 'object' &&
		body !== null &&
		!Buffer.isBuffer(body) &&
		Object.getPrototypeOf(body) === Object.prototype &&
		Object.keys(body).length > 0;
	if (isPlainObject && !findHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
	// Without a Content-Type n8n's HTTP client (axios) adds application/x-www-form-urlencoded to a
	// body after signing; name one here so that the type signed is the type sent.
	const hasBody = (Buffer.isBuffer(body) || typeof body === 'string') && body.length > 0;
	if (hasBody && !findHeader(headers, 'content-type')) headers['Content-Type'] = 'application/octet-stream';

	const signable = {
		method: (options.method ?? 'GET').toUpperCase(),
		path: url.pathname,
		query: url.search.replace(/^\?/, ''),
		headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v as string | string[]])),
	};
	headers.Authorization = authorization(settings.accessKey, settings.accessSecret, signable, settings.profile);
	return options;
}

/**
 * What an object is without downloading it: the documentation has no HEAD
 * (docs/vendor/object-storage.md#not-in-the-documents), so a GET of its first byte
 * (`Range: bytes=0-0`) gives the object's headers and, in Content-Range, its total size. An
 * empty object has no first byte: the service answers 416 (InvalidRange), and a GET without a
 * range then gives the headers of the empty body (a service that answers 206 with
 * `Content-Range: bytes 0-0/0` instead is read as empty too). A service that ignores Range answers 200 with
 * the whole body: its Content-Length is the size and the body is not read.
 *
 * Also here: the fields an object's GET headers give (Get Info, Download), and the headers a
 * copy writes again (Copy, Move).
 */
import type { IDataObject } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { readAll } from '../../shared/storage/body';
import type { StorageContext, StorageResponse } from '../../shared/storage/call';
import { storageFailure } from '../../shared/storage/errors';
import { storageRequest } from '../../shared/storage/transport';
import { unquote } from './common';

/** Object headers a PUT sets and a GET returns, with their output names (docs/vendor/object-storage.md#objects). */
export const STORED_HEADERS: Array<[header: string, field: string]> = [
	['cache-control', 'cacheControl'],
	['content-disposition', 'contentDisposition'],
	['content-encoding', 'contentEncoding'],
	['expires', 'expires'],
];

/** The user metadata in an answer's headers (`<prefix>meta-<name>`), by lower-case name. */
export function metadataOf(headers: Record<string, string>, settings: StorageSettings): Record<string, string> {
	const prefix = `${settings.profile.headerPrefix}meta-`;
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) if (name.startsWith(prefix) && name.length > prefix.length) out[name.slice(prefix.length)] = value;
	return out;
}

/** The stored headers of an answer as output fields (cacheControl, contentDisposition …), those present. */
export function storedHeaderFields(headers: Record<string, string>): IDataObject {
	const out: IDataObject = {};
	for (const [header, field] of STORED_HEADERS) if (headers[header] !== undefined) out[field] = headers[header];
	return out;
}

/**
 * The headers that write an object like the one whose GET answered `headers`: its Content-Type,
 * stored headers and metadata. n8n's HTTP client removes Content-Encoding when it unpacks a body,
 * so that header is only here when the body came as stored.
 */
export function headersToWriteAgain(headers: Record<string, string>, settings: StorageSettings): Record<string, string> {
	const out: Record<string, string> = {};
	if (headers['content-type'] !== undefined) out['Content-Type'] = headers['content-type'];
	const names: Record<string, string> = { 'cache-control': 'Cache-Control', 'content-disposition': 'Content-Disposition', 'content-encoding': 'Content-Encoding', expires: 'Expires' };
	for (const [header] of STORED_HEADERS) if (headers[header] !== undefined) out[names[header]] = headers[header];
	for (const [name, value] of Object.entries(metadataOf(headers, settings))) out[`${settings.profile.headerPrefix}meta-${name}`] = value;
	return out;
}

export interface ObjectInfo {
	size: number;
	/** ETag without quotes, when the service gave one. */
	etag?: string;
	/** Every header of the answer (lower-case names). */
	headers: Record<string, string>;
}

/** The total size in `Content-Range: bytes a-b/total` (or `bytes *\/total`). */
export function totalOf(contentRange: string | undefined): number | undefined {
	const m = /\/(\d+)\s*$/.exec(String(contentRange ?? ''));
	return m ? Number(m[1]) : undefined;
}

/** Ends a streamed answer without reading it (a body the caller does not want). */
export function discard(res: StorageResponse): void {
	const body = res.body as NodeJS.ReadableStream & { destroy?: () => void };
	if (typeof body?.destroy === 'function') body.destroy();
	else if (typeof body?.resume === 'function') body.resume();
}

/**
 * Size, ETag and headers of an object, from a GET of its first byte. `headers` are sent too
 * (If-Match: a 412 becomes the transport's PreconditionFailed error).
 */
export async function objectInfo(
	ctx: StorageContext,
	itemIndex: number,
	bucket: string,
	key: string,
	headers: Record<string, string> = {},
): Promise<ObjectInfo> {
	const what = `Get Object ${bucket}/${key}`;
	// An object that is empty at the first look and not at the second was replaced in between: look again.
	for (let look = 1; ; look++) {
		const res = await storageRequest(ctx, { method: 'GET', bucket, key, headers: { ...headers, Range: 'bytes=0-0' }, stream: true, accept: [416], itemIndex });
		const h = res.headers;
		// A 206 whose Content-Range says the object has 0 bytes ("bytes 0-0/0", as s3rver answers)
		// is an empty object: the byte it announces never comes, so the body is not read.
		if (res.statusCode === 206 && totalOf(h['content-range']) === 0) {
			discard(res);
			return info(0, h);
		}
		if (res.statusCode === 206) {
			await readAll(res.body);
			const size = totalOf(h['content-range']);
			if (size === undefined) {
				throw storageFailure(ctx.getNode(), `${what} answered a range without the object's size`, `Its Content-Range was "${h['content-range'] ?? ''}" (X-Trans-Id ${res.transId}).`, itemIndex);
			}
			return info(size, h);
		}
		if (res.statusCode === 200) {
			// the service ignored Range: the answer is the whole object, which is not wanted here
			discard(res);
			return info(Number(h['content-length'] ?? 0), h);
		}
		// 416: no first byte, so the object is empty; a GET without a range gives its headers
		await readAll(res.body);
		const whole = await storageRequest(ctx, { method: 'GET', bucket, key, headers, stream: true, itemIndex });
		const size = Number(whole.headers['content-length'] ?? 0);
		if (size === 0 || look >= 3) {
			if (size === 0) await readAll(whole.body);
			else discard(whole);
			return info(size, whole.headers);
		}
		discard(whole);
	}
}

function info(size: number, headers: Record<string, string>): ObjectInfo {
	const out: ObjectInfo = { size, headers };
	if (headers.etag !== undefined) out.etag = unquote(headers.etag);
	return out;
}

/** Get Info's output: what an object's GET headers say about it. */
export function infoFields(info: ObjectInfo, settings: StorageSettings): IDataObject {
	const h = info.headers;
	const json: IDataObject = { size: info.size };
	if (info.etag !== undefined) json.etag = info.etag;
	if (h['content-type'] !== undefined) json.contentType = h['content-type'];
	if (h['last-modified'] !== undefined) json.lastModified = h['last-modified'];
	json.metadata = metadataOf(h, settings);
	return { ...json, ...storedHeaderFields(h) };
}

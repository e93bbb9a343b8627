/**
 * What an object is without downloading it (docs/vendor/readings.md#r74). The documentation has
 * no HEAD (docs/vendor/object-storage.md#not-in-the-documents) and names no Content-Range: its
 * size, ETag and LastModified are those of its List Objects entry (the key as prefix), and a GET
 * of its first byte (`Range: bytes=0-0`) gives the headers only a GET gives (type, metadata,
 * stored headers), checked to be of the same version (ETag, Last-Modified; looked up again when
 * the object was written in between). Without a listing entry (a key that may read the object but
 * not list the bucket) the size comes from the answer itself: the total of a Content-Range; a
 * 200 without one holds either the byte asked for or the whole object, told apart by its length
 * (more than one byte: the whole object) or, for one byte, by a GET without a range. An empty
 * object has no first byte (416, or 206 with `bytes 0-0/0`): a GET without a range then gives
 * the headers of the empty body.
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
import { agreement, contentLength, contentRange, listedVersion, type Version } from './evidence';

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
	/** LastModified as listed (else the answer's Last-Modified header). */
	lastModified?: string;
	/** Where the size comes from: the listing entry, a Content-Range, or the length of an answer. */
	sizeFrom: 'listing' | 'contentRange' | 'contentLength';
	/** Every header of the GET's answer (lower-case names). */
	headers: Record<string, string>;
}

/** Ends a streamed answer without reading it (a body the caller does not want). */
export function discard(res: StorageResponse): void {
	const body = res.body as NodeJS.ReadableStream & { destroy?: () => void };
	if (typeof body?.destroy === 'function') body.destroy();
	else if (typeof body?.resume === 'function') body.resume();
}

/** Ends a streamed answer: read to its end when it is small (the connection is kept), else discarded. */
export async function settle(res: StorageResponse): Promise<void> {
	const length = contentLength(res);
	if (length !== undefined && length <= 64 * 1024) {
		try {
			await readAll(res.body);
			return;
		} catch {
			// broke off: nothing of it is wanted
		}
	}
	discard(res);
}

/** Size, ETag, LastModified and headers of an object (see the top of this file). */
export async function objectInfo(ctx: StorageContext, itemIndex: number, bucket: string, key: string): Promise<ObjectInfo> {
	const what = `Get Object ${bucket}/${key}`;
	const get = (headers: Record<string, string>) => storageRequest(ctx, { method: 'GET', bucket, key, headers, stream: true, accept: [416], itemIndex });
	for (let look = 1; ; look++) {
		const listed = await listedVersion(ctx, itemIndex, bucket, key);
		const v = listed.version;
		const res = await get({ Range: 'bytes=0-0' });
		const h = res.headers;
		const cr = contentRange(h['content-range']);
		const empty = res.statusCode === 416 || cr?.total === 0;
		if (v) {
			// the listing says what the object is; the answer gives the headers, of the same version
			await settle(res);
			if (agreement(v, h) === 'other' || (empty && v.size > 0) || (cr?.total !== undefined && cr.total !== v.size)) {
				if (look < 3) continue;
				throw storageFailure(ctx.getNode(), `${bucket}/${key} kept changing while it was looked up`, `Its listing and its answers showed different versions three times (X-Trans-Id ${res.transId}).`, itemIndex);
			}
			if (!empty) return info(v, h, 'listing');
			// 416: no first byte; the headers come with a GET without a range
			const whole = await get({});
			await settle(whole);
			if (agreement(v, whole.headers) === 'other' && look < 3) continue;
			return info(v, whole.headers, 'listing');
		}
		if (empty) {
			await settle(res);
			const whole = await get({});
			const size = contentLength(whole) ?? 0;
			await settle(whole);
			if (size !== 0 && look < 3) continue; // written again in between
			return info({ size }, whole.headers, 'contentLength');
		}
		if (cr) {
			await settle(res);
			if (cr.total === undefined) {
				throw storageFailure(ctx.getNode(), `${what} answered a range without the object's size`, `Its Content-Range was "${h['content-range'] ?? ''}" and the listing does not hold the key (X-Trans-Id ${res.transId}).`, itemIndex);
			}
			return info({ size: cr.total }, h, 'contentRange');
		}
		// 200 without Content-Range: the byte asked for, or the whole object (the service ignored Range)
		const length = contentLength(res);
		await settle(res);
		if (length !== undefined && length !== 1) return info({ size: length }, h, 'contentLength');
		const whole = await get({});
		discard(whole);
		const size = contentLength(whole);
		if (size === undefined) {
			throw storageFailure(ctx.getNode(), `${what} gave no size`, `Its answer has neither Content-Range nor Content-Length, and the listing does not hold the key (X-Trans-Id ${whole.transId}).`, itemIndex);
		}
		return info({ size }, whole.headers, 'contentLength');
	}
}

function info(v: Pick<Version, 'size' | 'etag' | 'lastModified'>, headers: Record<string, string>, sizeFrom: ObjectInfo['sizeFrom']): ObjectInfo {
	const out: ObjectInfo = { size: v.size, headers, sizeFrom };
	const etag = v.etag ?? (headers.etag !== undefined ? unquote(headers.etag) : undefined);
	if (etag !== undefined) out.etag = etag;
	const lastModified = v.lastModified ?? headers['last-modified'];
	if (lastModified !== undefined) out.lastModified = lastModified;
	return out;
}

/** Get Info's output: what an object's GET headers say about it. */
export function infoFields(info: ObjectInfo, settings: StorageSettings): IDataObject {
	const h = info.headers;
	const json: IDataObject = { size: info.size, sizeFrom: info.sizeFrom };
	if (info.etag !== undefined) json.etag = info.etag;
	if (h['content-type'] !== undefined) json.contentType = h['content-type'];
	if (info.lastModified !== undefined) json.lastModified = info.lastModified;
	json.metadata = metadataOf(h, settings);
	return { ...json, ...storedHeaderFields(h) };
}

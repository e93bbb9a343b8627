/**
 * Downloading one object into n8n's binary store, streamed (the body goes from the answer to the
 * binary store without being held in memory): the Object Download operation and the Object
 * Storage Trigger's "Download File" both go through here.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { readAll } from '../../shared/storage/body';
import { storageFailure } from '../../shared/storage/errors';
import { getSettings } from '../../shared/storage/settings';
import { storageRequest } from '../../shared/storage/transport';
import { unquote } from './common';
import { metadataOf, storedHeaderFields } from './objectInfo';

type BinaryInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

export interface DownloadRequest {
	bucket: string;
	key: string;
	/** Range and conditions (If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since). */
	headers?: Record<string, string>;
	/** The output file's name; the key's last segment when not given. */
	fileName?: string;
	itemIndex?: number;
}

export interface Downloaded {
	/** What the item says: bucket, key, size, etag, contentType, lastModified, metadata, ... */
	json: IDataObject;
	/** The file; absent when a condition answered 304 (`json.notModified`). */
	binary?: IBinaryData;
}

/** The last segment of a key, without control characters (they would break whatever uses the name). */
export function fileNameOfKey(key: string): string {
	return [...(key.split('/').filter(Boolean).pop() || key)].map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' ? '_' : ch)).join('');
}

/**
 * GET the object and stream its body into n8n's binary store. A 304 (If-None-Match,
 * If-Modified-Since) gives `notModified` and no binary; every other failure throws, naming the
 * request.
 */
export async function downloadObject(ctx: IExecuteFunctions | IPollFunctions, r: DownloadRequest): Promise<Downloaded> {
	const { bucket, key, itemIndex } = r;
	const node = ctx.getNode();
	const settings = await getSettings(ctx, itemIndex);
	const started = Date.now();
	const res = await storageRequest(ctx, { method: 'GET', bucket, key, headers: r.headers ?? {}, stream: true, accept: [304], itemIndex });
	const h = res.headers;
	if (res.statusCode === 304) {
		await readAll(res.body);
		const json: IDataObject = { bucket, key, notModified: true };
		if (h.etag !== undefined) json.etag = unquote(h.etag);
		if (h['last-modified'] !== undefined) json.lastModified = h['last-modified'];
		return { json };
	}

	let binary: IBinaryData;
	try {
		binary = await ctx.helpers.prepareBinaryData(res.body as unknown as BinaryInput, r.fileName || fileNameOfKey(key), h['content-type'] || undefined);
	} catch (error) {
		// The transport says what happened (stalled, connection lost, cancelled), naming the
		// request and how much arrived.
		throw res.explain ? res.explain(error) : storageFailure(node, `The download of Get Object ${bucket}/${key} broke off: ${(error as Error).message}`, 'Running it again is safe.', itemIndex);
	}
	const short = res.verify?.();
	if (short) throw short;
	// n8n's HTTP client (axios under @n8n/backend-network, which never passes axios' `decompress`
	// option: adapters/http.js decodes whenever `decompress !== false`) decodes a body stored with
	// Content-Encoding gzip, deflate, br or zstd and deletes that header. No request option reaches
	// it, so the stored bytes cannot be had; what can be seen is that the bytes held differ from
	// the Content-Length the service announced without a Content-Encoding left: then the output
	// says the body was decoded, with the stored size, and no MD5 of it matches the ETag.
	const held = (binary as { bytes?: number }).bytes;
	const announced = h['content-length'] !== undefined && /^\d+$/.test(h['content-length']) ? Number(h['content-length']) : undefined;
	const decoded = held !== undefined && announced !== undefined && held !== announced && h['content-encoding'] === undefined;

	const json: IDataObject = { bucket, key, size: held ?? announced };
	if (decoded) {
		// the header is gone: which of the encodings n8n decodes it was cannot be known
		json.contentEncoding = 'unknown';
		json.bodyDecoded = true;
		json.storedSize = announced;
		json.bodyNote = `The object is stored with a Content-Encoding (gzip, deflate, br or zstd). n8n's HTTP client decoded it and removed that header, so the file holds the ${held} decoded bytes, not the ${announced} stored ones: its MD5 does not match the ETag, and uploading it again with the same Content-Encoding would store a different object.`;
	}
	if (h.etag !== undefined) json.etag = unquote(h.etag);
	if (h['content-type'] !== undefined) json.contentType = h['content-type'];
	if (h['last-modified'] !== undefined) json.lastModified = h['last-modified'];
	json.metadata = metadataOf(h, settings);
	json.durationMs = Date.now() - started;
	if (res.statusCode === 206) {
		if (h['content-range'] !== undefined) json.contentRange = h['content-range'];
		const total = /\/(\d+)$/.exec(String(h['content-range'] ?? ''));
		if (total) json.objectSize = Number(total[1]);
	}
	return { json: { ...json, ...storedHeaderFields(h) }, binary };
}

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
import { releaseChunk } from './transfer';

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

/**
 * Size of the pieces a download is handed to n8n's binary store in. The HTTP client hands the
 * body on in pieces of at most 64 KiB; n8n's filesystem store writes every piece it is given with
 * one write and one await. Against s3rver in the real n8n, 256 MiB downloaded in 64 KiB pieces
 * spent 1.7 s of the n8n process's CPU in those writes (a single 256 MiB write: 0.1 s); in
 * 1 MiB pieces there are 16 times fewer.
 */
export const DOWNLOAD_PIECE = 1024 * 1024;

/**
 * The body in pieces of `piece` bytes (the last may be shorter), each a Buffer of its own that
 * the store may keep (n8n's in-memory mode collects them). The HTTP client's pieces are copied
 * in and then released at once (see releaseChunk): Node's HTTP parser gives every piece of a
 * body an ArrayBuffer of its own that nothing else holds, so the memory goes back now instead
 * of waiting for a garbage collection. Errors of the body (broke off, stalled, cancelled) pass
 * through unchanged.
 */
export async function* coalesced(body: AsyncIterable<unknown>, piece = DOWNLOAD_PIECE): AsyncGenerator<Buffer> {
	let out = Buffer.allocUnsafeSlow(piece);
	let filled = 0;
	for await (const raw of body) {
		const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
		let offset = 0;
		while (offset < chunk.length) {
			const n = chunk.copy(out, filled, offset, Math.min(chunk.length, offset + piece - filled));
			filled += n;
			offset += n;
			if (filled === piece) {
				yield out;
				out = Buffer.allocUnsafeSlow(piece);
				filled = 0;
			}
		}
		if (Buffer.isBuffer(raw)) releaseChunk(chunk);
	}
	if (filled > 0) yield out.subarray(0, filled);
}

type StreamClass = { from(iterable: AsyncIterable<unknown>, options: { objectMode: boolean; highWaterMark: number }): unknown };

/**
 * The answer's body as a stream of DOWNLOAD_PIECE pieces (coalesced). n8n's binary store takes
 * a Buffer or a stream, and the package may import no Node module but crypto (n8n's rules for
 * community nodes), so the stream is made by the class of the body itself (a Readable, whose
 * static `from` every stream class inherits). A body that is no stream is handed on as it is.
 */
function inPieces(body: unknown): unknown {
	const Stream = (body as { constructor?: Partial<StreamClass> } | null)?.constructor;
	if (typeof Stream?.from !== 'function' || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return body;
	return Stream.from(coalesced(body as AsyncIterable<unknown>), { objectMode: false, highWaterMark: DOWNLOAD_PIECE });
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
		binary = await ctx.helpers.prepareBinaryData(inPieces(res.body) as unknown as BinaryInput, r.fileName || fileNameOfKey(key), h['content-type'] || undefined);
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

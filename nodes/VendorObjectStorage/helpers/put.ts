/**
 * Uploads in one PUT Object request: a Buffer in memory (putObject) or a file of n8n's binary store
 * streamed from disk (putStored), both with Content-MD5, so the service refuses a body that
 * arrives changed and keeps whatever object it had. The Upload operation and uploadFromSource
 * (transfer.ts) choose between these and a multipart upload.
 */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { storageRequest } from '../../shared/storage/transport';
import { ownsNothingItYields, releaseChunk } from './chunks';
import { asNodeError } from './common';
import { md5, type PartRef, type UploadTarget } from './multipart';
import { RequestSlots } from './slots';

export interface UploadResult {
	size: number;
	/** The ETag the service gave (PUT's ETag header, Complete's ETag element), when it gave one. */
	etag?: string;
	/** MD5 (hex) of the bytes sent, for a single PUT: computed here, not by the service. */
	md5?: string;
	partCount: number;
	multipart: boolean;
	partSize?: number;
	uploadId?: string;
	/** The parts of a multipart upload with the ETags the service gave them, in part order. */
	parts?: PartRef[];
}

/** The result of one PUT of `size` bytes whose MD5 is `digest`, with the ETag the service gave. */
function putResult(size: number, digest: Buffer, etag: string | undefined): UploadResult {
	const result: UploadResult = { size, md5: digest.toString('hex'), partCount: 1, multipart: false };
	if (etag !== undefined) result.etag = etag.replace(/^"(.*)"$/, '$1');
	return result;
}

/** One PUT Object with Content-MD5. */
export async function putObject(ctx: IExecuteFunctions, o: UploadTarget & { headers: Record<string, string> }, body: Buffer): Promise<UploadResult> {
	const digest = md5(body);
	const res = await storageRequest(ctx, {
		method: 'PUT',
		bucket: o.bucket,
		key: o.key,
		headers: { ...o.headers, 'Content-MD5': digest.toString('base64') },
		body,
		itemIndex: o.itemIndex,
	});
	return putResult(body.length, digest, res.headers.etag);
}

/** Size of the pieces a streamed PUT hands the HTTP client, and how many it cycles through at most. */
const RING_PIECE = 64 * 1024;
const RING_PIECES = 64;

/** Bytes of the ring for a file of `length` bytes: the whole file when it is smaller than the ring (nothing is then reused). */
export function ringBytes(length: number): number {
	return Math.min(RING_PIECES, Math.max(1, Math.ceil(length / RING_PIECE))) * RING_PIECE;
}

/**
 * The bytes of `source` (a file stream of the binary store) in pieces taken in turn from a ring
 * of fixed pieces (`ring`, cut into RING_PIECE views: up to 4 MiB, a slot's buffer), each chunk
 * of the source copied out and released at once (releaseChunk): sending a file then leaves
 * nothing behind per chunk. Handed on as they come, the file stream's chunks would each wait,
 * once the socket has sent them, for a full garbage collection (V8 counts them as external
 * memory): in the real n8n, with its large heap, a 256 MiB PUT spent 3.8 of its 15 s collecting.
 * A piece is written over only after RING_PIECES - 1 newer pieces were handed on, while the HTTP
 * client holds at most 16 pieces in its stream's buffer (a Readable made from this iterator) and
 * one write on the socket (it waits for the socket to drain before the next); were a piece still
 * unsent, the service would refuse the body by its Content-MD5 (BadDigest) and write nothing. A
 * file that fits in the ring is never written over.
 */
async function* ringed(source: AsyncIterable<unknown>, ring: Buffer): AsyncGenerator<Buffer> {
	const release = ownsNothingItYields(source);
	const pieces = Math.max(1, Math.floor(ring.length / RING_PIECE));
	const piece = (n: number) => ring.subarray(n * RING_PIECE, (n + 1) * RING_PIECE);
	let slot = 0;
	let filled = 0;
	for await (const part of source) {
		const chunk = Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array);
		for (let offset = 0; offset < chunk.length; ) {
			const n = chunk.copy(piece(slot), filled, offset);
			filled += n;
			offset += n;
			if (filled === RING_PIECE) {
				yield piece(slot);
				slot = (slot + 1) % pieces;
				filled = 0;
			}
		}
		if (release) releaseChunk(chunk);
	}
	if (filled > 0) yield piece(slot).subarray(0, filled);
}

/**
 * One PUT Object of a file kept elsewhere (n8n's binary store), streamed: `open()` gives a fresh
 * stream of it. A first pass reads it through for its MD5 and length (chunks released as they
 * are hashed), then the PUT, in one of the run's request slots (slots.ts), sends Content-Length
 * and Content-MD5 and a stream opened for that try (in the pieces of `ringed`, the slot's buffer:
 * at most 4 MiB, the file's size when smaller); a retry of the PUT opens the file again and sends
 * it whole. The service refuses a body whose MD5 differs from Content-MD5 (BadDigest) and then
 * keeps whatever object it had: nothing is half-written. Memory does not grow with the file; the
 * ETag of an object made by PUT is the MD5 of its bytes (docs/vendor/object-storage.md, Objects),
 * which a multipart object's is not.
 */
export async function putStored(
	ctx: IExecuteFunctions,
	o: UploadTarget & { headers: Record<string, string> },
	open: () => Promise<AsyncIterable<unknown>>,
	slots: RequestSlots = new RequestSlots(1),
): Promise<UploadResult> {
	const hash = createHash('md5');
	let length = 0;
	try {
		const first = await open();
		const release = ownsNothingItYields(first);
		for await (const piece of first) {
			const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
			hash.update(chunk);
			length += chunk.length;
			if (release) releaseChunk(chunk);
		}
	} catch (error) {
		throw asNodeError(ctx, error, o.itemIndex);
	}
	const digest = hash.digest();
	const res = await slots.run(
		async (slot) =>
			await storageRequest(ctx, {
				method: 'PUT',
				bucket: o.bucket,
				key: o.key,
				headers: { ...o.headers, 'Content-MD5': digest.toString('base64') },
				body: { length, open: async () => ringed(await open(), slot.buffer(ringBytes(length))) },
				itemIndex: o.itemIndex,
			}),
	);
	return putResult(length, digest, res.headers.etag);
}

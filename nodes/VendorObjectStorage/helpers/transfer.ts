/**
 * Uploads of any size with memory that does not grow with the file.
 *
 * The bytes come from a part source: a stream from n8n's binary store, read part by part into
 * the buffer of the request slot the part is sent in (slots.ts), or a Buffer already in memory,
 * cut into views. A source that fits in one part goes as one PUT; anything longer goes as a
 * multipart upload: Initiate, then up to `concurrency` workers take the next part from the source
 * in turn (reads are serialised, so parts are numbered in file order), each in a slot of the
 * run's, PUT it with its Content-MD5 (each part tried PART_TRIES times with backoff), and
 * Complete gets the whole part list. Any failure, and a cancelled execution, aborts the upload so
 * neither an upload in progress nor a partial object is left behind.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ownsNothingItYields, releaseChunk } from './chunks';
import { asNodeError } from './common';
import { abortUpload, completeUpload, initiateUpload, md5, PART_TRIES, sendPart, type PartRef, type UploadTarget } from './multipart';
import { putObject, type UploadResult } from './put';
import { RequestSlots } from './slots';
import { MAX_PART_NUMBER } from './validate';

export const MiB = 1024 * 1024;
/** Smallest part size S3 accepts for every part but the last (a hint: the vendor documents no limit). */
export const MIN_PART_SIZE = 5 * MiB;
/**
 * Chunk size asked of n8n's binary store when streaming a file. Every chunk is a new Buffer
 * that is garbage once copied into a part; V8 frees such young buffers in a scavenge, and
 * chunks still held at that moment are promoted and wait for a full collection. Small chunks
 * keep that remainder small: at concurrency 4 × 8 MiB a 1 GiB upload peaked about 15 MiB
 * higher in RSS with 1 MiB chunks than with 256 KiB ones, at the same speed.
 */
export const STREAM_CHUNK = 256 * 1024;

/** Where the bytes of an upload come from. */
export interface PartSource {
	/** The next part: up to `partSize` bytes (in `scratch()` for streams). Empty when the source is exhausted. */
	next(scratch: () => Buffer): Promise<Buffer>;
	/** True once the source is known to hold no more bytes. */
	readonly ended: boolean;
	/** Releases the source early (the upload failed). */
	close(): Promise<void>;
	/**
	 * Sources whose parts can be read independently and at the same time (ranges of a stored
	 * object, see copy.ts): how many parts there are, and part `partNumber` (from 1), read into
	 * `scratch()`. With these, each worker reads its own part while the others read and send
	 * theirs; `next` is then not used.
	 */
	readonly parts?: number;
	read?(partNumber: number, scratch: () => Buffer): Promise<Buffer>;
}

/**
 * Parts of a stream, copied chunk by chunk into the caller's part buffer. The chunks of a file
 * stream are released as soon as they have been copied (see releaseChunk).
 */
export class StreamParts implements PartSource {
	private readonly iterator: AsyncIterator<unknown>;

	/** The chunk being copied out and how much of it is taken. */
	private chunk: Buffer = Buffer.alloc(0);

	private offset = 0;

	private readonly release: boolean;

	ended = false;

	constructor(
		private readonly stream: AsyncIterable<unknown>,
		private readonly partSize: number,
	) {
		this.iterator = stream[Symbol.asyncIterator]();
		this.release = ownsNothingItYields(stream);
	}

	private get pending(): number {
		return this.chunk.length - this.offset;
	}

	private async pull(): Promise<void> {
		const step = await this.iterator.next();
		if (step.done) this.ended = true;
		else {
			this.chunk = Buffer.isBuffer(step.value) ? step.value : Buffer.from(step.value as Uint8Array);
			this.offset = 0;
		}
	}

	async next(scratch: () => Buffer): Promise<Buffer> {
		if (this.ended && this.pending === 0) return Buffer.alloc(0);
		const into = scratch();
		let filled = 0;
		while (filled < this.partSize) {
			if (this.pending === 0) {
				if (this.ended) break;
				await this.pull();
				continue;
			}
			const n = this.chunk.copy(into, filled, this.offset, Math.min(this.chunk.length, this.offset + this.partSize - filled));
			filled += n;
			this.offset += n;
			if (this.pending === 0) {
				if (this.release) releaseChunk(this.chunk);
				this.chunk = Buffer.alloc(0);
				this.offset = 0;
			}
		}
		// Look ahead, so that `ended` is true right after the last part has been read.
		while (!this.ended && this.pending === 0) await this.pull();
		return into.subarray(0, filled);
	}

	async close(): Promise<void> {
		this.ended = true;
		this.chunk = Buffer.alloc(0);
		this.offset = 0;
		// Destroying the stream settles a read another worker may be waiting for; then the
		// iterator can end.
		const destroy = (this.stream as { destroy?: () => void }).destroy;
		if (typeof destroy === 'function') destroy.call(this.stream);
		try {
			await this.iterator.return?.();
		} catch {
			// the stream was destroyed: nothing more to release
		}
	}
}

/** Parts of a Buffer already in memory: views, no copies. */
export class BufferParts implements PartSource {
	private offset = 0;

	constructor(
		private readonly data: Buffer,
		private readonly partSize: number,
	) {}

	get ended(): boolean {
		return this.offset >= this.data.length;
	}

	async next(): Promise<Buffer> {
		const part = this.data.subarray(this.offset, this.offset + this.partSize);
		this.offset += part.length;
		return part;
	}

	async close(): Promise<void> {
		this.offset = this.data.length;
	}
}

/**
 * The part size for a file: the wanted size, raised so that the file needs at most 10000 parts
 * (S3's limit; fewer, larger parts suit any service). The vendor documents no part-size limit, so a
 * small wanted size is kept and the service's own error shows if it refuses it.
 */
export function partSizeFor(wanted: number, size: number | undefined): number {
	let partSize = Math.max(1, Math.round(wanted));
	if (size !== undefined && Math.ceil(size / partSize) > MAX_PART_NUMBER) {
		partSize = Math.ceil(size / MAX_PART_NUMBER / MiB) * MiB;
	}
	return partSize;
}

export interface UploadOptions extends UploadTarget {
	/** Object headers: Content-Type, Cache-Control …, the ACL and metadata headers. */
	headers: Record<string, string>;
	partSize: number;
	/** Parts of this file in flight at once (at most: they also wait for `slots`). */
	concurrency: number;
	/**
	/**
	 * The run's request slots (slots.ts), when several uploads share one bound: every request of
	 * this upload holds one while in flight, and its part is read into that slot's buffer. Without
	 * it the upload has `concurrency` slots of its own.
	 */
	slots?: RequestSlots;
	/**
	 * Runs once every byte is read and before the write is made whole: before Complete, with the
	 * parts (their ETags and the MD5s of the bytes sent), or before the one PUT of a source that
	 * fit in one part (one part, no ETag). A failure writes nothing (the upload is aborted): copy.ts
	 * checks the bytes read here.
	 */
	beforeComplete?: (parts: PartRef[]) => Promise<void>;
}

/**
 * Uploads what `source` holds: one PUT when it fits in one part, else a parallel multipart upload.
 * Of a source whose size is not known the first part is read first (in a slot): one PUT when it
 * was all, else, in the same slot, Initiate and that part, then the other parts in parallel.
 */
export async function uploadFromSource(ctx: IExecuteFunctions, o: UploadOptions, source: PartSource, size?: number): Promise<UploadResult> {
	const slots = o.slots ?? new RequestSlots(o.concurrency);
	if (size !== undefined && size > o.partSize) return await multipartUpload(ctx, o, source, slots, Math.ceil(size / o.partSize));
	let started: Started | undefined;
	const single = await slots.run(async (slot) => {
		let first: Buffer;
		try {
			first = await source.next(() => slot.buffer(o.partSize));
		} catch (error) {
			await source.close();
			throw asNodeError(ctx, error, o.itemIndex);
		}
		if (source.ended) {
			if (o.beforeComplete) await o.beforeComplete([{ partNumber: 1, etag: '', md5: md5(first).toString('hex') }]);
			return await putObject(ctx, o, first);
		}
		started = await startWithFirstPart(ctx, o, source, first);
		return undefined;
	});
	return single ?? (await multipartUpload(ctx, o, source, slots, undefined, started));
}

/** A multipart upload begun by its first part: its ID, part 1 and its size. */
interface Started {
	uploadId: string;
	part: PartRef;
	size: number;
}

/** Initiate, then part 1 (`first`), one after the other in the caller's slot; a failure is thrown as abandon() tells it. */
async function startWithFirstPart(ctx: IExecuteFunctions, o: UploadOptions, source: PartSource, first: Buffer): Promise<Started> {
	let uploadId: string;
	try {
		uploadId = await initiateUpload(ctx, o, o.headers);
	} catch (error) {
		throw await abandon(ctx, o, source, { error, notStarted: true }, undefined, false, async (send) => await send());
	}
	try {
		if (isCancelled(ctx)) throw Object.assign(new Error('The execution was canceled'), { cancelled: true });
		const sent = await sendPart(ctx, o, uploadId, 1, first, PART_TRIES);
		return { uploadId, part: { partNumber: 1, etag: sent.etag ?? '', md5: sent.md5 }, size: first.length };
	} catch (error) {
		const cancelled = (error as { cancelled?: boolean }).cancelled === true || isCancelled(ctx);
		throw await abandon(ctx, o, source, { error, partNumber: cancelled ? undefined : 1, cancelled }, uploadId, false, async (send) => await send());
	}
}

interface Job {
	partNumber: number;
	data: Buffer;
}

function isCancelled(ctx: IExecuteFunctions): boolean {
	try {
		return ctx.getExecutionCancelSignal?.()?.aborted === true;
	} catch {
		return false;
	}
}

interface Failure {
	error: unknown;
	partNumber?: number;
	cancelled?: boolean;
	/** Initiate failed: there is no upload to abort. */
	notStarted?: boolean;
}

/** How a request is sent: in a slot of its own, or in the one the caller already holds. */
type Send = <T>(request: () => Promise<T>) => Promise<T>;

/**
 * The error of a multipart upload that failed: the source is released and the upload aborted
 * (when it was started), and the error says which part failed and what is left behind.
 */
async function abandon(
	ctx: IExecuteFunctions,
	o: UploadOptions,
	source: PartSource,
	failure: Failure | undefined,
	uploadId: string | undefined,
	completing: boolean,
	send: Send,
): Promise<Error> {
	await source.close();
	const error = asNodeError(ctx, failure?.error, o.itemIndex);
	if (failure?.notStarted || uploadId === undefined) return error;
	const aborted = await send(async () => await abortUpload(ctx, o, uploadId));
	const what = failure?.cancelled
		? `The upload of "${o.key}" was canceled`
		: failure?.partNumber !== undefined
			? `Uploading part ${failure.partNumber} of "${o.key}" failed`
			: `The multipart upload of "${o.key}" failed`;
	error.message = `${what}: ${error.message}`;
	const cleanup = aborted.problem
		? `The multipart upload ${uploadId} could not be aborted (${aborted.problem}); abort it with Multipart Upload > Abort and this upload ID to free its parts.`
		: aborted.gone && completing
			? `The upload ${uploadId} was already gone when the node aborted it: the Complete may have succeeded before its answer was lost. Check whether "${o.key}" exists (Download or List Objects).`
			: 'The multipart upload was aborted: no partial object and no upload in progress are left behind.';
	error.description = [error.description, cleanup].filter(Boolean).join(' ');
	return error;
}

/**
 * The multipart upload: Initiate (unless `started` holds the upload begun with its first part),
 * then up to `o.concurrency` workers, each taking a slot per part: the part is read into the
 * slot's buffer and PUT from it, so a part in memory is always a part in flight. `parts`, when
 * the size is known, is how many parts there should be: no more workers than that wait for a
 * slot (they still read until the source ends, should its size have been wrong).
 */
async function multipartUpload(
	ctx: IExecuteFunctions,
	o: UploadOptions,
	source: PartSource,
	slots: RequestSlots,
	parts: number | undefined,
	started?: Started,
): Promise<UploadResult> {
	const inSlot: Send = async (request) => await slots.run(async () => await request());
	const done: PartRef[] = started ? [started.part] : [];
	let size = started?.size ?? 0;
	let nextNumber = started ? 2 : 1;
	let failure: Failure | undefined;
	let uploadId = started?.uploadId;
	if (uploadId === undefined) {
		try {
			uploadId = await inSlot(async () => await initiateUpload(ctx, o, o.headers));
		} catch (error) {
			failure = { error, notStarted: true };
		}
	}
	const total = source.parts ?? parts;

	// Reads are chained: one part at a time leaves the source, in file order. A source that reads
	// parts independently (`read`) gives each worker the next part number at once instead.
	let reading: Promise<unknown> = Promise.resolve();
	const take = (scratch: () => Buffer): Promise<Job | undefined> => {
		if (source.read) {
			const partNumber = nextNumber;
			if (failure || partNumber > (source.parts ?? 0)) return Promise.resolve(undefined);
			nextNumber++;
			return source.read(partNumber, scratch).then((data) => {
				size += data.length;
				return { partNumber, data };
			});
		}
		const job = reading.then(async () => {
			if (failure) return undefined;
			const data = await source.next(scratch);
			if (data.length === 0 || failure) return undefined;
			const partNumber = nextNumber++;
			size += data.length;
			return { partNumber, data };
		});
		reading = job.catch(() => undefined);
		return job;
	};

	/** One part in a slot: read, then PUT; false once there is nothing more to do. */
	const onePart = async (scratch: () => Buffer): Promise<boolean> => {
		if (failure || source.ended) return false;
		let job: Job | undefined;
		try {
			job = await take(scratch);
		} catch (error) {
			failure ??= { error };
			return false;
		}
		if (!job || failure) return false;
		if (isCancelled(ctx)) {
			failure ??= { error: new Error('The execution was canceled'), cancelled: true };
			return false;
		}
		try {
			const sent = await sendPart(ctx, o, uploadId as string, job.partNumber, job.data, PART_TRIES);
			done.push({ partNumber: job.partNumber, etag: sent.etag ?? '', md5: sent.md5 });
		} catch (error) {
			failure ??= { error, partNumber: job.partNumber, cancelled: isCancelled(ctx) };
			return false;
		}
		return true;
	};
	const worker = async () => {
		while (!failure && !source.ended) {
			if (!(await slots.run(async (slot) => await onePart(() => slot.buffer(o.partSize))))) return;
		}
	};
	if (!failure) {
		const workers = Math.max(1, Math.min(o.concurrency, total === undefined ? o.concurrency : total - nextNumber + 1));
		await Promise.all(Array.from({ length: workers }, worker));
	}

	if (uploadId !== undefined && !failure && done.length === 0) {
		// The source held nothing after all (its size was wrong): no parts to complete with.
		await inSlot(async () => await abortUpload(ctx, o, uploadId as string));
		if (o.beforeComplete) await o.beforeComplete([{ partNumber: 1, etag: '', md5: md5(Buffer.alloc(0)).toString('hex') }]);
		return await inSlot(async () => await putObject(ctx, o, Buffer.alloc(0)));
	}

	let result: { etag?: string } | undefined;
	let completing = false;
	if (!failure && uploadId !== undefined) {
		if (isCancelled(ctx)) failure = { error: new Error('The execution was canceled'), cancelled: true };
		else {
			try {
				await o.beforeComplete?.([...done].sort((a, b) => a.partNumber - b.partNumber));
				completing = true;
				result = await inSlot(async () => await completeUpload(ctx, o, uploadId as string, done));
			} catch (error) {
				failure = { error };
			}
		}
	}
	if (failure || !result || uploadId === undefined) throw await abandon(ctx, o, source, failure, uploadId, completing, inSlot);
	const sorted = [...done].sort((a, b) => a.partNumber - b.partNumber);
	const out: UploadResult = { size, partCount: done.length, multipart: true, partSize: o.partSize, uploadId, parts: sorted };
	if (result.etag) out.etag = result.etag;
	return out;
}

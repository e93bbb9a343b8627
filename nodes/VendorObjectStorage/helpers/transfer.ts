/**
 * Uploads of any size with memory that does not grow with the file.
 *
 * The bytes come from a part source: a stream from n8n's binary store, read part by part into
 * one reusable buffer per worker, or a Buffer already in memory, cut into views. A source that
 * fits in one part goes as one PUT; anything longer goes as a multipart upload (Initiate sent
 * while the first part is read when the size is known): `concurrency` workers take the next
 * part from the source in turn (reads are serialised, so parts are numbered in file order), PUT
 * it with its Content-MD5 (each part tried PART_TRIES times with backoff), and Complete gets the
 * whole part list. Any failure, and a cancelled execution, aborts the upload so neither an
 * upload in progress nor a partial object is left behind.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ownsNothingItYields, releaseChunk } from './chunks';
import { asNodeError } from './common';
import { abortUpload, completeUpload, initiateUpload, PART_TRIES, uploadPart, type PartRef, type UploadTarget } from './multipart';
import { putObject, type UploadResult } from './put';
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
	concurrency: number;
	/** Runs once every part is uploaded, before Complete; a failure aborts the upload (copy.ts checks the bytes read here). */
	beforeComplete?: () => Promise<void>;
}

/**
 * Uploads what `source` holds: one PUT when it fits in one part, else a parallel multipart upload.
 * With `size` known to exceed one part, Initiate is sent while the first part is still being
 * read, instead of after it.
 */
export async function uploadFromSource(ctx: IExecuteFunctions, o: UploadOptions, source: PartSource, size?: number): Promise<UploadResult> {
	const buffers: Buffer[] = [];
	const scratchOf = (worker: number) => () => (buffers[worker] ??= Buffer.allocUnsafe(o.partSize));
	if (size !== undefined && size > o.partSize) return await multipartUpload(ctx, o, source, scratchOf);
	let first: Buffer;
	try {
		first = await source.next(scratchOf(0));
	} catch (error) {
		await source.close();
		throw asNodeError(ctx, error, o.itemIndex);
	}
	if (source.ended) return await putObject(ctx, o, first);
	return await multipartUpload(ctx, o, source, scratchOf, first);
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
): Promise<Error> {
	await source.close();
	const error = asNodeError(ctx, failure?.error, o.itemIndex);
	if (failure?.notStarted || uploadId === undefined) return error;
	const aborted = await abortUpload(ctx, o, uploadId);
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
 * The multipart upload: Initiate runs while the workers read their first parts; each worker
 * PUTs its part once the upload ID is there. `first`, when given, is part 1, already read.
 */
async function multipartUpload(
	ctx: IExecuteFunctions,
	o: UploadOptions,
	source: PartSource,
	scratchOf: (worker: number) => () => Buffer,
	first?: Buffer,
): Promise<UploadResult> {
	const initiated = initiateUpload(ctx, o, o.headers);
	// settled below; a rejection is handled where the ID is awaited
	initiated.catch(() => undefined);

	const done: PartRef[] = [];
	let size = first?.length ?? 0;
	let nextNumber = first ? 2 : 1;
	let failure: Failure | undefined;

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

	const worker = async (w: number, initial?: Job) => {
		let job = initial;
		while (!failure) {
			if (!job) {
				try {
					job = await take(scratchOf(w));
				} catch (error) {
					failure ??= { error };
					return;
				}
				if (!job || failure) return;
			}
			let uploadId: string;
			try {
				uploadId = await initiated;
			} catch (error) {
				failure ??= { error, notStarted: true };
				return;
			}
			if (failure) return;
			if (isCancelled(ctx)) {
				failure ??= { error: new Error('The execution was canceled'), cancelled: true };
				return;
			}
			try {
				const etag = await uploadPart(ctx, o, uploadId, job.partNumber, job.data, PART_TRIES);
				done.push({ partNumber: job.partNumber, etag });
			} catch (error) {
				failure ??= { error, partNumber: job.partNumber, cancelled: isCancelled(ctx) };
				return;
			}
			job = undefined;
		}
	};

	const workers = [worker(0, first ? { partNumber: 1, data: first } : undefined)];
	for (let w = 1; w < o.concurrency; w++) workers.push(worker(w));
	await Promise.all(workers);

	let uploadId: string | undefined;
	try {
		uploadId = await initiated;
	} catch (error) {
		failure = { error, notStarted: true };
	}
	if (uploadId !== undefined && !failure && done.length === 0) {
		// The source held nothing after all (its size was wrong): no parts to complete with.
		await abortUpload(ctx, o, uploadId);
		return await putObject(ctx, o, Buffer.alloc(0));
	}

	let result: { etag?: string } | undefined;
	let completing = false;
	if (!failure && uploadId !== undefined) {
		if (isCancelled(ctx)) failure = { error: new Error('The execution was canceled'), cancelled: true };
		else {
			try {
				await o.beforeComplete?.();
				completing = true;
				result = await completeUpload(ctx, o, uploadId, done);
			} catch (error) {
				failure = { error };
			}
		}
	}
	if (failure || !result || uploadId === undefined) throw await abandon(ctx, o, source, failure, uploadId, completing);
	const parts = [...done].sort((a, b) => a.partNumber - b.partNumber);
	const out: UploadResult = { size, partCount: done.length, multipart: true, partSize: o.partSize, uploadId, parts };
	if (result.etag) out.etag = result.etag;
	return out;
}

/**
 * Reading the source of a copy (copy.ts) on evidence (evidence.ts, docs/vendor/readings.md#r74).
 *
 * First the version: the listing entry of the key (size, ETag, LastModified). Then a GET of the
 * first part (`Range: bytes=0-<part size - 1>`, with If-Match, which a service may ignore), whose
 * answer tells how the service answers a range:
 *   - 206 with Content-Range (S3): the first part; the others are ranges of their own (RangeParts);
 *   - 200 with only the bytes asked for (the documents' "returns the first 100 bytes"): the same,
 *     each answer checked by the number of bytes it holds;
 *   - 200 with the whole object (Range ignored): that one answer is read in order and streamed
 *     into the parts (WholeStream), nothing asked for again.
 * Every answer is checked against the version: its ETag and Last-Modified (an answer of another
 * version stops the copy before anything is written: a service that ignores If-Match serves the
 * new version to the later ranges of a source written again meanwhile), its Content-Range or its
 * length. Without a listing entry (the listing refused, or not holding the key yet) a 206 with
 * Content-Range gives the size; any other answer is not trusted to be whole or a range, and the
 * object is read whole with a GET without a range ("200 with the content").
 */
import { createHash, type Hash } from 'crypto';
import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import { backoffMs } from '../../shared/backoff';
import type { StorageResponse } from '../../shared/storage/call';
import { storageFailure } from '../../shared/storage/errors';
import { storageRequest } from '../../shared/storage/transport';
import { asNodeError } from './common';
import { agreement, contentLength, contentRange, describeVersion, headersVersion, listedVersion, type Listed, type Version } from './evidence';
import { PART_TRIES } from './multipart';
import { discard } from './objectInfo';
import { partSizeFor, StreamParts, type PartSource } from './transfer';

export interface ObjectRef {
	bucket: string;
	key: string;
}

/** How the service answered the first range: 206 with Content-Range, 200 with only the range, 200 with the whole object. */
export type RangeAnswer = 'partial206' | 'rangeOnly200' | 'whole200';

export interface FirstRead {
	/** The version copied: its size, ETag and LastModified. */
	version: Version;
	/** Whether the version is the listing's entry (else it was read from the answers). */
	listed: boolean;
	/** Why there is no listing entry. */
	unlisted?: string;
	/** How the service answered the first range; undefined when it cannot be told (a whole object of at most one part, an empty one, a GET without a range). */
	rangeAnswer?: RangeAnswer;
	/** The part size the copy uses. */
	partSize: number;
	/** The answer to read: all of the object's bytes (`all`), its first part (`first`), or the whole object to stream (`whole`). */
	holds: 'all' | 'first' | 'whole';
	res: StorageResponse;
	/** Whether the answer showed the version (an ETag or Last-Modified to compare). */
	tied: boolean;
}

/** The message when a read of the source is of another version than the one being copied. */
export function changedError(ctx: IExecuteFunctions, source: ObjectRef, v: Version, headers: Record<string, string>, what: string, itemIndex: number) {
	return storageFailure(
		ctx.getNode(),
		`${source.bucket}/${source.key} changed while it was copied`,
		`${what} came from another version (${describeVersion(headersVersion(headers))}) than the one being copied (${describeVersion(v)}). Nothing was written; running it again copies the new version.`,
		itemIndex,
	);
}

/** A copy that cannot go on because an answer is not what was asked for. */
function oddAnswer(ctx: IExecuteFunctions, source: ObjectRef, message: string, res: StorageResponse, itemIndex: number) {
	return storageFailure(ctx.getNode(), `Get Object ${source.bucket}/${source.key} ${message}`, `X-Trans-Id ${res.transId}. Nothing was written.`, itemIndex);
}

/**
 * The version to copy and the first answer (see the top of this file). A version that changes
 * between the listing and the first read (another ETag, a 412 to If-Match, another size) is
 * looked up again, up to three times.
 */
export async function firstRead(ctx: IExecuteFunctions, source: ObjectRef, wantedPartSize: number, itemIndex: number): Promise<FirstRead> {
	const get = (headers: Record<string, string>) =>
		storageRequest(ctx, { method: 'GET', bucket: source.bucket, key: source.key, headers, stream: true, accept: [412, 416], itemIndex });
	let listing: Listed = await listedVersion(ctx, itemIndex, source.bucket, source.key);
	for (let look = 1; ; look++) {
		const again = async (res: StorageResponse, why: string): Promise<void> => {
			discard(res);
			if (look >= 3) throw oddAnswer(ctx, source, `kept changing while it was looked up (${why})`, res, itemIndex);
			listing = await listedVersion(ctx, itemIndex, source.bucket, source.key);
		};
		const v = listing.version;
		const partSize = partSizeFor(wantedPartSize, v?.size);
		const headers: Record<string, string> = { Range: `bytes=0-${partSize - 1}` };
		if (v?.etag) headers['If-Match'] = `"${v.etag}"`;
		const res = await get(headers);
		const tie = agreement(v ?? {}, res.headers);
		if (res.statusCode === 412 || (v && tie === 'other')) {
			await again(res, 'another version than listed');
			continue;
		}
		const base = { listed: !!v, unlisted: listing.unavailable, partSize, res, tied: tie === 'same' };
		const cr = contentRange(res.headers['content-range']);
		if (res.statusCode === 416 || (cr && cr.total === 0)) {
			// no first byte: an empty object; a GET without a range gives its headers
			if (v && v.size > 0) {
				await again(res, 'listed with bytes, answered as empty');
				continue;
			}
			discard(res);
			const whole = await get({});
			const length = contentLength(whole);
			if (length !== 0 && look < 3) {
				// written again in between
				discard(whole);
				listing = await listedVersion(ctx, itemIndex, source.bucket, source.key);
				continue;
			}
			const version = v ?? { size: length ?? 0, ...headersVersion(whole.headers) };
			return { ...base, version, holds: 'all', res: whole, tied: agreement(version, whole.headers) === 'same' };
		}
		if (res.statusCode === 206 || cr) {
			const total = cr?.total ?? v?.size;
			if (!cr || total === undefined) {
				discard(res);
				throw oddAnswer(ctx, source, `answered a range without the object's size`, res, itemIndex);
			}
			if (v && total !== v.size) {
				await again(res, `listed with ${v.size} bytes, answered with ${total}`);
				continue;
			}
			const wanted = partSizeFor(wantedPartSize, total);
			if (!v && wanted !== partSize) {
				// more than 10,000 parts of the wanted size: larger parts, so the first range is asked for again
				discard(res);
				wantedPartSize = wanted;
				look--;
				continue;
			}
			if (cr.start !== 0 || cr.end !== Math.min(partSize, total) - 1) {
				discard(res);
				throw oddAnswer(ctx, source, `answered bytes ${cr.start}-${cr.end} to a request for bytes 0-${Math.min(partSize, total) - 1}`, res, itemIndex);
			}
			const version = v ?? { size: total, ...headersVersion(res.headers) };
			return { ...base, version, rangeAnswer: 'partial206', holds: total <= partSize ? 'all' : 'first' };
		}
		// 200 without Content-Range: only the range, or the whole object?
		const length = contentLength(res);
		if (v && length !== undefined) {
			if (v.size <= partSize && length === v.size) return { ...base, version: v, holds: 'all' };
			if (length === partSize && v.size > partSize) return { ...base, version: v, rangeAnswer: 'rangeOnly200', holds: 'first' };
			if (length === v.size && v.size > partSize) return { ...base, version: v, rangeAnswer: 'whole200', holds: 'whole' };
			await again(res, `listed with ${v.size} bytes, answered ${length} to a range of ${partSize}`);
			continue;
		}
		// no size to tell the two apart: the whole object, with a GET without a range
		discard(res);
		const whole = await get({});
		if (whole.statusCode !== 200) {
			discard(whole);
			throw oddAnswer(ctx, source, `answered HTTP ${whole.statusCode} to a GET without a range`, whole, itemIndex);
		}
		const size = contentLength(whole);
		const version = v ?? { size: size ?? -1, ...headersVersion(whole.headers) };
		if (v && agreement(v, whole.headers) === 'other') {
			await again(whole, 'another version than listed');
			continue;
		}
		return { ...base, version, holds: 'whole', res: whole, tied: agreement(version, whole.headers) === 'same' || !v, partSize: partSizeFor(wantedPartSize, size) };
	}
}

/** A copy that breaks because an answer has other bytes than it says or than were asked for. */
export function wrongLength(ctx: IExecuteFunctions, what: string, got: number, want: number, encoded: boolean, itemIndex: number) {
	const why = encoded
		? 'The object is stored with a Content-Encoding (such as gzip), and n8n unpacks such bodies as it receives them, so its stored bytes cannot pass through n8n unchanged.'
		: 'The answer was cut short or changed on the way.';
	return storageFailure(ctx.getNode(), `${what} gave ${got} bytes where ${want} were expected`, `${why} Nothing was written.`, itemIndex);
}

/**
 * Reads a streamed answer into `into`, which must be filled exactly: an answer with more or fewer
 * bytes (than `into.length`, or than its own Content-Length) fails. Resolves `into`.
 */
export async function readExactly(ctx: IExecuteFunctions, res: StorageResponse, into: Buffer, what: string, itemIndex: number): Promise<Buffer> {
	const announced = contentLength(res);
	const encoded = res.headers['content-encoding'] === undefined;
	let filled = 0;
	let over = false;
	try {
		for await (const chunk of res.body as AsyncIterable<Buffer>) {
			if (filled + chunk.length > into.length) {
				over = true;
				filled += chunk.length;
				break;
			}
			chunk.copy(into, filled);
			filled += chunk.length;
		}
	} catch (error) {
		throw res.explain ? res.explain(error) : error;
	}
	if (over) {
		discard(res);
		throw wrongLength(ctx, what, filled, into.length, encoded, itemIndex);
	}
	const short = res.verify?.();
	if (short) throw short;
	if (filled !== into.length || (announced !== undefined && announced !== filled)) throw wrongLength(ctx, what, filled, into.length, encoded, itemIndex);
	return into;
}

/** What the parts of a copy hand on: each part's bytes, hashed in order. */
export interface HashedSource extends PartSource {
	/** MD5 (hex) of every byte read, in order, once all are read. */
	digest(): Promise<string>;
	/** Bytes read so far, in order. */
	readonly bytes: number;
	/** Answers that showed no ETag or Last-Modified to tie them to the version. */
	readonly untied: number;
	/** Also feeds each byte, in order, to `sink` (the part-size proof of a multipart ETag). */
	feed?: (chunk: Buffer) => void;
}

/**
 * The parts of a stored object of known size, each a ranged GET of its own, read into the
 * worker's buffer and checked (version, Content-Range or length); the bytes are hashed in part
 * order whatever order the parts arrive in.
 */
export class RangeParts implements HashedSource {
	readonly parts: number;

	ended = false;

	bytes = 0;

	untied = 0;

	feed?: (chunk: Buffer) => void;

	private readonly md5 = createHash('md5');

	/** Per part number, whether it is hashed (see slot). */
	private readonly hashed = new Map<number, { done: Promise<void>; resolve: () => void }>();

	private hex?: string;

	/**
	 * Per memory (the ArrayBuffer under a part's buffer), the hash of the part it holds: that memory
	 * is not refilled before. Keyed by the memory, not the Buffer: a request slot hands out a new view
	 * of its one buffer for every part (slots.ts), and a view-keyed wait let a read overwrite a part
	 * not yet hashed (the MD5 of the bytes read came out wrong on 1 GiB copies).
	 */
	private readonly holding = new Map<ArrayBufferLike, Promise<void>>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly source: ObjectRef,
		private readonly version: Version,
		private readonly partSize: number,
		private readonly itemIndex: number,
		private first: Buffer | undefined,
	) {
		this.parts = Math.ceil(version.size / partSize);
	}

	/** Hashes part 1 (read with the first answer); before any other part is read. */
	start(feed?: (chunk: Buffer) => void): void {
		this.feed = feed;
		if (this.first) this.holding.set(this.first.buffer, this.hashInOrder(1, this.first));
	}

	async next(): Promise<Buffer> {
		throw new Error('RangeParts are read by part number');
	}

	async read(partNumber: number, scratch: () => Buffer): Promise<Buffer> {
		if (partNumber === 1 && this.first) {
			const first = this.first;
			this.first = undefined;
			return first;
		}
		const into = scratch();
		await this.holding.get(into.buffer);
		if (this.ended) throw new Error('The copy stopped');
		const start = (partNumber - 1) * this.partSize;
		const end = Math.min(this.version.size, start + this.partSize) - 1;
		let data: Buffer;
		try {
			data = await this.fetch(start, end, into.subarray(0, end - start + 1));
		} catch (error) {
			// parts waiting to be hashed after this one would wait for ever: release them all
			this.ended = true;
			for (const slot of this.hashed.values()) slot.resolve();
			throw asNodeError(this.ctx, error, this.itemIndex);
		}
		this.holding.set(into.buffer, this.hashInOrder(partNumber, data));
		return data;
	}

	/** One range of the source, checked, tried again when its body breaks off (a read is safe to repeat). */
	private async fetch(start: number, end: number, into: Buffer): Promise<Buffer> {
		const { bucket, key } = this.source;
		const v = this.version;
		const headers: Record<string, string> = { Range: `bytes=${start}-${end}` };
		if (v.etag) headers['If-Match'] = `"${v.etag}"`;
		const what = `Get Object ${bucket}/${key} (bytes ${start}-${end})`;
		for (let attempt = 1; ; attempt++) {
			const res = await storageRequest(this.ctx, { method: 'GET', bucket, key, headers, stream: true, accept: [412], itemIndex: this.itemIndex });
			try {
				const tie = agreement(v, res.headers);
				if (res.statusCode === 412 || tie === 'other') {
					discard(res);
					throw changedError(this.ctx, this.source, v, res.headers, `The answer for bytes ${start}-${end}`, this.itemIndex);
				}
				const cr = contentRange(res.headers['content-range']);
				if (res.statusCode === 206 || cr) {
					if (!cr || cr.start !== start || cr.end !== end || (cr.total !== undefined && cr.total !== v.size)) {
						discard(res);
						throw oddAnswer(this.ctx, this.source, `answered "${res.headers['content-range'] ?? ''}" to a request for bytes ${start}-${end} of ${v.size}`, res, this.itemIndex);
					}
				} else if (contentLength(res) !== undefined && contentLength(res) !== into.length) {
					// a 200 that is not the range asked for (the whole object, where the first range came alone)
					discard(res);
					throw oddAnswer(this.ctx, this.source, `answered ${contentLength(res)} bytes to a request for bytes ${start}-${end} (${into.length} bytes)`, res, this.itemIndex);
				}
				const data = await readExactly(this.ctx, res, into, what, this.itemIndex);
				if (tie === 'unknown') this.untied++;
				return data;
			} catch (error) {
				const broke = /broke off|timed out/.test(String((error as Error).message));
				if (!broke || attempt >= PART_TRIES || this.ended) throw asNodeError(this.ctx, error, this.itemIndex);
				await sleep(backoffMs(attempt));
			}
		}
	}

	/** The settled-when-hashed signal of part n, made by whichever side asks first. */
	private slot(partNumber: number): { done: Promise<void>; resolve: () => void } {
		let slot = this.hashed.get(partNumber);
		if (!slot) {
			let resolve!: () => void;
			const done = new Promise<void>((r) => (resolve = r));
			slot = { done, resolve };
			this.hashed.set(partNumber, slot);
			if (this.ended) resolve();
		}
		return slot;
	}

	/** Hashes part n once part n-1 is hashed; parts arrive in any order. */
	private async hashInOrder(partNumber: number, data: Buffer): Promise<void> {
		if (partNumber > 1) await this.slot(partNumber - 1).done;
		if (this.ended) return this.slot(partNumber).resolve();
		this.md5.update(data);
		this.feed?.(data);
		this.bytes += data.length;
		this.hashed.delete(partNumber - 1);
		this.slot(partNumber).resolve();
	}

	async digest(): Promise<string> {
		await this.slot(this.parts).done;
		this.hex ??= this.md5.digest('hex');
		return this.hex;
	}

	async close(): Promise<void> {
		this.ended = true;
		for (const slot of this.hashed.values()) slot.resolve();
	}
}

/**
 * The whole object from one answer (the service ignored Range, or no size was known), read in
 * order into the parts and hashed as it is read; `size`, when known, is the number of bytes it
 * must hold.
 */
export class WholeStream implements HashedSource {
	private readonly md5: Hash = createHash('md5');

	private readonly inner: StreamParts;

	bytes = 0;

	readonly untied = 0;

	feed?: (chunk: Buffer) => void;

	private hex?: string;

	constructor(
		private readonly res: StorageResponse,
		partSize: number,
	) {
		this.inner = new StreamParts(res.body as unknown as AsyncIterable<unknown>, partSize);
	}

	get ended(): boolean {
		return this.inner.ended;
	}

	async next(scratch: () => Buffer): Promise<Buffer> {
		let data: Buffer;
		try {
			data = await this.inner.next(scratch);
		} catch (error) {
			throw this.res.explain ? this.res.explain(error) : error;
		}
		this.md5.update(data);
		this.feed?.(data);
		this.bytes += data.length;
		if (this.inner.ended) {
			const short = this.res.verify?.();
			if (short) throw short;
		}
		return data;
	}

	async digest(): Promise<string> {
		this.hex ??= this.md5.digest('hex');
		return this.hex;
	}

	async close(): Promise<void> {
		await this.inner.close();
	}
}

/** The first answer's bytes when they are all of the object (at most one part). */
export async function readAllOf(ctx: IExecuteFunctions, source: ObjectRef, first: FirstRead, itemIndex: number): Promise<Buffer> {
	const what = `Get Object ${source.bucket}/${source.key}`;
	const size = first.version.size >= 0 ? first.version.size : contentLength(first.res);
	if (size === undefined) throw oddAnswer(ctx, source, 'answered without a length', first.res, itemIndex);
	return await readExactly(ctx, first.res, Buffer.allocUnsafe(size), what, itemIndex);
}

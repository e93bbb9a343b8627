/**
 * Copy of an object, built from the documented operations: the documentation has no server-side
 * copy (docs/vendor/object-storage.md#not-in-the-documents), so the bytes pass through n8n, in
 * memory that does not grow with the object.
 *
 * A GET of the first part (`Range: bytes=0-<part size - 1>`) gives the object's headers, its
 * ETag and, in Content-Range, its size. An object that fits in one part goes as one PUT with its
 * Content-MD5. A larger one goes as a multipart upload whose workers each GET their own range
 * (with If-Match on the source's ETag, so every part comes from the same version of the object)
 * and PUT it as a part, `concurrency` at a time (transfer.ts). The bytes are hashed in order as
 * they arrive: before the write is completed, their MD5 is compared with the source's ETag when
 * that ETag is an MD5 (an object written by one PUT, docs/vendor/object-storage.md#objects), and
 * afterwards the destination's ETag is compared with what it must be (the MD5, or S3's
 * `<MD5 of the parts' MD5s>-<number of parts>` for a multipart object). A service whose ETag is
 * neither gets the destination read back and hashed. `verified` says how the copy was checked.
 *
 * n8n's HTTP client unpacks a body stored with Content-Encoding gzip, deflate or br and drops
 * that header, so such an object cannot pass through unchanged: the byte count then differs from
 * the Content-Length and the copy stops before anything is written.
 */
import { createHash, type Hash } from 'crypto';
import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { backoffMs } from '../../shared/backoff';
import type { StorageResponse } from '../../shared/storage/call';
import { storageFailure } from '../../shared/storage/errors';
import { storageRequest } from '../../shared/storage/transport';
import { asNodeError, unquote } from './common';
import { PART_TRIES } from './multipart';
import { discard, headersToWriteAgain, totalOf } from './objectInfo';
import { putObject, type UploadResult } from './put';
import { partSizeFor, StreamParts, uploadFromSource, type PartSource } from './transfer';

export interface ObjectRef {
	bucket: string;
	key: string;
}

export interface CopyOptions {
	itemIndex: number;
	settings: StorageSettings;
	/** Headers that replace the source's (Content-Type, Cache-Control …, ACL, metadata). */
	replace: Record<string, string>;
	/** Whether `replace` holds the whole metadata (the source's is then not copied). */
	replaceMetadata: boolean;
	partSize: number;
	concurrency: number;
}

export interface CopyResult {
	size: number;
	/** The source's ETag (without quotes) as it was read. */
	sourceEtag?: string;
	/** The destination's ETag as the service gave it. */
	etag?: string;
	/** MD5 (hex) of the bytes copied. */
	md5: string;
	multipart: boolean;
	partCount: number;
	/** How the copy was checked: `md5` (destination ETag = MD5), `multipartEtag` (S3's multipart form), `readBack` (read and hashed). */
	verified: 'md5' | 'multipartEtag' | 'readBack';
	/** Whether the bytes read matched the source's ETag (only known when that ETag is an MD5). */
	sourceChecked: boolean;
	contentType?: string;
}

const PLAIN_MD5 = /^[0-9a-f]{32}$/i;

/** What a transfer of `want` bytes of `what` got instead, as the error to show. */
function wrongLength(ctx: IExecuteFunctions, what: string, got: number, want: number, encoded: boolean, itemIndex: number) {
	const why = encoded
		? 'The object is stored with a Content-Encoding (such as gzip), and n8n unpacks such bodies as it receives them, so its stored bytes cannot pass through n8n unchanged.'
		: 'The answer was cut short or changed on the way.';
	return storageFailure(ctx.getNode(), `${what} gave ${got} bytes where ${want} were announced`, `${why} Nothing was written.`, itemIndex);
}

/**
 * Reads a streamed answer into `into` (from offset 0), at most `into.length` bytes, checking
 * its length against Content-Length. Resolves the bytes read (a view of `into`).
 */
async function readInto(ctx: IExecuteFunctions, res: StorageResponse, into: Buffer, what: string, itemIndex: number): Promise<Buffer> {
	const announced = res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
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
		throw wrongLength(ctx, what, filled, announced ?? into.length, res.headers['content-encoding'] === undefined, itemIndex);
	}
	const short = res.verify?.();
	if (short) throw short;
	if (announced !== undefined && filled !== announced) throw wrongLength(ctx, what, filled, announced, res.headers['content-encoding'] === undefined, itemIndex);
	return into.subarray(0, filled);
}

/**
 * The parts of a stored object of known size, each a ranged GET of its own, read into the
 * worker's buffer; the bytes are hashed in part order whatever order the parts arrive in.
 */
class RangeParts implements PartSource {
	readonly parts: number;

	ended = false;

	private readonly md5 = createHash('md5');

	/** Per part number, whether it is hashed (see slot). */
	private readonly hashed = new Map<number, { done: Promise<void>; resolve: () => void }>();

	private hex?: string;

	/** Per buffer, the hash of the part it holds: the buffer is not refilled before. */
	private readonly holding = new Map<Buffer, Promise<void>>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly source: ObjectRef & { etag?: string },
		private readonly size: number,
		private readonly partSize: number,
		private readonly itemIndex: number,
		private first: Buffer | undefined,
	) {
		this.parts = Math.ceil(size / partSize);
		if (first) this.hashInOrder(1, first);
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
		await this.holding.get(into);
		if (this.ended) throw new Error('The copy stopped');
		const start = (partNumber - 1) * this.partSize;
		const end = Math.min(this.size, start + this.partSize) - 1;
		let data: Buffer;
		try {
			data = await this.fetch(start, end, into.subarray(0, end - start + 1));
		} catch (error) {
			// parts waiting to be hashed after this one would wait for ever: release them all
			this.ended = true;
			for (const slot of this.hashed.values()) slot.resolve();
			throw asNodeError(this.ctx, error, this.itemIndex);
		}
		this.holding.set(into, this.hashInOrder(partNumber, data));
		return data;
	}

	/** One range of the source, tried again when its body breaks off (a read is safe to repeat). */
	private async fetch(start: number, end: number, into: Buffer): Promise<Buffer> {
		const { bucket, key, etag } = this.source;
		const headers: Record<string, string> = { Range: `bytes=${start}-${end}` };
		if (etag) headers['If-Match'] = `"${etag}"`;
		for (let attempt = 1; ; attempt++) {
			const res = await storageRequest(this.ctx, { method: 'GET', bucket, key, headers, stream: true, itemIndex: this.itemIndex });
			try {
				if (res.statusCode !== 206) {
					discard(res);
					throw storageFailure(this.ctx.getNode(), `Get Object ${bucket}/${key} answered HTTP ${res.statusCode} to a range request`, 'The first part came as a range; this one did not. Nothing was written.', this.itemIndex);
				}
				return await readInto(this.ctx, res, into, `Get Object ${bucket}/${key} (bytes ${start}-${end})`, this.itemIndex);
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
		this.hashed.delete(partNumber - 1);
		this.slot(partNumber).resolve();
	}

	/** MD5 (hex) of every part, once all are hashed. */
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

/** A source read in order from one stream (the service ignored Range), hashed as it is read. */
class HashedStream implements PartSource {
	private readonly md5: Hash = createHash('md5');

	constructor(private readonly inner: PartSource) {}

	get ended(): boolean {
		return this.inner.ended;
	}

	async next(scratch: () => Buffer): Promise<Buffer> {
		const data = await this.inner.next(scratch);
		this.md5.update(data);
		return data;
	}

	private hex?: string;

	async digest(): Promise<string> {
		this.hex ??= this.md5.digest('hex');
		return this.hex;
	}

	async close(): Promise<void> {
		await this.inner.close();
	}
}

/** S3's ETag of a multipart object: the MD5 of the parts' MD5s, a dash, the number of parts. */
export function multipartEtag(partEtags: string[]): string | undefined {
	const md5s = partEtags.map(unquote);
	if (!md5s.every((e) => PLAIN_MD5.test(e))) return undefined;
	const joined = Buffer.concat(md5s.map((e) => Buffer.from(e, 'hex')));
	return `${createHash('md5').update(joined).digest('hex')}-${md5s.length}`;
}

/** MD5 (hex) of a stored object, read as a stream. */
async function readBackMd5(ctx: IExecuteFunctions, target: ObjectRef, itemIndex: number): Promise<string> {
	const res = await storageRequest(ctx, { method: 'GET', bucket: target.bucket, key: target.key, stream: true, itemIndex });
	const hash = createHash('md5');
	try {
		for await (const chunk of res.body as AsyncIterable<Buffer>) hash.update(chunk);
	} catch (error) {
		throw res.explain ? res.explain(error) : error;
	}
	const short = res.verify?.();
	if (short) throw short;
	return hash.digest('hex');
}

/**
 * The first answer of a copy: a GET of the first part. An empty object has no first byte (416):
 * a GET without a range then gives its headers; one that is no longer empty at that second look
 * was replaced in between, and the first part is asked for again.
 */
async function firstPart(ctx: IExecuteFunctions, source: ObjectRef, partSize: number, itemIndex: number): Promise<StorageResponse> {
	for (let look = 1; ; look++) {
		const ranged = await storageRequest(ctx, { method: 'GET', bucket: source.bucket, key: source.key, headers: { Range: `bytes=0-${partSize - 1}` }, stream: true, accept: [416], itemIndex });
		// 416, or a 206 of an object of 0 bytes ("bytes 0-0/0", whose announced byte never comes): empty
		const empty = ranged.statusCode === 416 || (ranged.statusCode === 206 && totalOf(ranged.headers['content-range']) === 0);
		if (!empty) return ranged;
		discard(ranged);
		const whole = await storageRequest(ctx, { method: 'GET', bucket: source.bucket, key: source.key, stream: true, itemIndex });
		if (Number(whole.headers['content-length'] ?? 0) === 0 || look >= 3) return whole;
		discard(whole);
	}
}

/**
 * Copies `source` to `target` (see the top of this file). Nothing is written when the source
 * cannot be read whole and unchanged; a multipart write that fails is aborted.
 */
export async function copyObject(ctx: IExecuteFunctions, source: ObjectRef, target: ObjectRef, o: CopyOptions): Promise<CopyResult> {
	const i = o.itemIndex;
	const node = ctx.getNode();
	const what = `Get Object ${source.bucket}/${source.key}`;
	const res = await firstPart(ctx, source, o.partSize, i);
	const h = res.headers;
	const sourceEtag = h.etag !== undefined ? unquote(h.etag) : undefined;
	const metaPrefix = `${o.settings.profile.headerPrefix}meta-`;
	const kept = Object.entries(headersToWriteAgain(h, o.settings)).filter(([name]) => !(o.replaceMetadata && name.startsWith(metaPrefix)));
	const headers: Record<string, string> = { ...Object.fromEntries(kept), ...o.replace };
	if (headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/octet-stream';
	const up = { bucket: target.bucket, key: target.key, itemIndex: i, settings: o.settings, headers };
	const sourceChecked = !!sourceEtag && PLAIN_MD5.test(sourceEtag);
	const checkSource = (digest: string) => {
		if (sourceChecked && digest !== sourceEtag!.toLowerCase()) {
			throw storageFailure(
				node,
				`The bytes read from ${source.bucket}/${source.key} do not match its ETag`,
				`Their MD5 is ${digest}, the source's ETag ${sourceEtag}. Nothing was written; running it again is safe.`,
				i,
			);
		}
		return digest;
	};

	// the object's size: from Content-Range for a range, else the answer is the whole object
	const total = res.statusCode === 206 ? totalOf(h['content-range']) : h['content-length'] === undefined ? undefined : Number(h['content-length']);
	if (res.statusCode === 206 && total === undefined) {
		discard(res);
		throw storageFailure(node, `${what} answered a range without the object's size`, `Its Content-Range was "${h['content-range'] ?? ''}" (X-Trans-Id ${res.transId}). Nothing was written.`, i);
	}
	let written: UploadResult;
	let digest: () => Promise<string>;
	if (total !== undefined && total <= o.partSize) {
		// the whole object is in this answer: one PUT
		const body = await readInto(ctx, res, Buffer.allocUnsafe(total), what, i);
		const md5 = checkSource(createHash('md5').update(body).digest('hex'));
		digest = async () => md5;
		written = await putObject(ctx, up, body);
	} else if (res.statusCode === 206) {
		const partSize = partSizeFor(o.partSize, total);
		if (partSize !== o.partSize) {
			// more than 10,000 parts of the wanted size: larger parts, so the first range is asked for again
			discard(res);
			return await copyObject(ctx, source, target, { ...o, partSize });
		}
		const first = await readInto(ctx, res, Buffer.allocUnsafe(partSize), what, i);
		const parts = new RangeParts(ctx, { ...source, etag: sourceEtag }, total!, partSize, i, first);
		digest = async () => parts.digest();
		const beforeComplete = async () => void checkSource(await parts.digest());
		written = await uploadFromSource(ctx, { ...up, partSize, concurrency: o.concurrency, beforeComplete }, parts, total);
	} else {
		// 200 to a range request: the service sends the whole object, read in order from this one answer
		const partSize = partSizeFor(o.partSize, total);
		const parts = new HashedStream(new StreamParts(res.body as unknown as AsyncIterable<unknown>, partSize));
		digest = async () => parts.digest();
		const beforeComplete = async () => void checkSource(await parts.digest());
		written = await uploadFromSource(ctx, { ...up, partSize, concurrency: o.concurrency, beforeComplete }, parts, total);
	}
	const md5 = checkSource(await digest());

	// the destination as written
	const etag = written.etag !== undefined ? unquote(written.etag).toLowerCase() : undefined;
	let verified: CopyResult['verified'];
	if (etag !== undefined && etag === md5) verified = 'md5';
	else if (etag !== undefined && written.parts && etag === multipartEtag(written.parts.map((p) => p.etag))) verified = 'multipartEtag';
	else {
		const back = await readBackMd5(ctx, target, i);
		if (back !== md5) {
			throw storageFailure(
				node,
				`The copy at ${target.bucket}/${target.key} differs from what was read`,
				`Read back, its MD5 is ${back}; the bytes sent had ${md5}. The source was left as it was.`,
				i,
			);
		}
		verified = 'readBack';
	}
	const result: CopyResult = { size: written.size, md5, multipart: written.multipart, partCount: written.partCount, verified, sourceChecked };
	if (sourceEtag !== undefined) result.sourceEtag = sourceEtag;
	if (written.etag !== undefined) result.etag = unquote(written.etag);
	result.contentType = headers['Content-Type'];
	return result;
}

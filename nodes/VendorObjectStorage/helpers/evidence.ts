/**
 * What the node may know about a stored object, and from what (docs/vendor/readings.md#r74).
 *
 * The documents describe an object's size, ETag and LastModified in one place only: an entry
 * of List Objects. Get Object is documented as "200 with the content", and a Range as "returns
 * the first 100 bytes"; neither 206 nor Content-Range is named, so an answer to a range may be a
 * 206 with Content-Range (S3), a 200 with only the bytes asked for, or a 200 with the whole
 * object, and If-Match may or may not be honoured. So an object's version is learnt from its
 * listing entry (List Objects with the key as prefix: the key itself, if it exists, is the
 * first entry in lexicographic order), and every answer read afterwards is checked against it:
 * its ETag and Last-Modified (the same version), its Content-Range when it has one, otherwise
 * the number of bytes it holds.
 *
 * An ETag is taken as the MD5 of the content only when the bytes read prove it: the MD5 of the
 * bytes equals it. The documents say an object made by multipart upload has an ETag that "is
 * not the MD5 of the content" and do not give its form; where it has S3's form
 * `<MD5 of the parts' MD5s>-<parts>`, the bytes prove it when some part size gives it
 * (multipartEtagOf).
 */
import { createHash, type Hash } from 'crypto';
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { StorageContext, StorageResponse } from '../../shared/storage/call';
import { storageRequest } from '../../shared/storage/transport';
import { unquote } from './common';
import { codeOf } from './compat/check';
import { listPage } from './listing';

/** One version of an object as the node learnt it. */
export interface Version {
	size: number;
	/** Without quotes, as given. */
	etag?: string;
	/** LastModified as given, and in whole seconds since 1970 (NaN when it does not read as a time). */
	lastModified?: string;
	seconds?: number;
}

/** Where the version came from: its listing entry, or (without one) the answers of the reads. */
export interface Listed {
	version?: Version;
	/** Why there is no listing entry (the listing was refused, or does not hold the key). */
	unavailable?: string;
}

const toSeconds = (text: string | undefined) => (text === undefined ? undefined : Math.floor(Date.parse(text) / 1000));

/** The version an answer's headers show (no size: that depends on what the answer is). */
export function headersVersion(headers: Record<string, string>): { etag?: string; lastModified?: string; seconds?: number } {
	const out: { etag?: string; lastModified?: string; seconds?: number } = {};
	if (headers.etag !== undefined) out.etag = unquote(headers.etag);
	if (headers['last-modified'] !== undefined) {
		out.lastModified = headers['last-modified'];
		out.seconds = toSeconds(headers['last-modified']);
	}
	return out;
}

/** The listing entry of an object as a version; undefined when its Size is not a number. */
export function versionOfItem(item: IDataObject): Version | undefined {
	const size = item.size;
	if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
	const v: Version = { size };
	if (typeof item.etag === 'string') v.etag = item.etag;
	if (typeof item.lastModified === 'string') {
		v.lastModified = item.lastModified;
		v.seconds = toSeconds(item.lastModified);
	}
	return v;
}

/**
 * The listing entry of exactly `key`: List Objects with the key as prefix and max-keys 1 (the key
 * sorts before every other key it is a prefix of). A refused listing (AccessDenied: a key that may
 * read the object but not list the bucket) is no evidence, not a failure.
 */
export async function listedVersion(ctx: StorageContext, itemIndex: number, bucket: string, key: string): Promise<Listed> {
	let page;
	try {
		page = await listPage(ctx, itemIndex, bucket, { prefix: key, maxKeys: 1 });
	} catch (error) {
		if (codeOf(error) === 'AccessDenied') return { unavailable: `List Objects was refused (${(error as Error).message})` };
		throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	const entry = page.entries.find((e) => e.item.type === 'object' && e.name === key);
	if (!entry) return { unavailable: 'List Objects does not hold the key' };
	const version = versionOfItem(entry.item);
	return version ? { version } : { unavailable: `its listed Size "${String(entry.item.size)}" is not a number of bytes` };
}

/**
 * Whether an answer is of `v`: 'same' when the ETag and Last-Modified it gives are those of `v`
 * (at least one of them compared), 'other' when one differs, 'unknown' when it gives neither (or
 * `v` has neither). ETags compare without quotes and case; times to the second.
 */
export function agreement(v: Pick<Version, 'etag' | 'seconds'>, headers: Record<string, string>): 'same' | 'other' | 'unknown' {
	const got = headersVersion(headers);
	let compared = false;
	if (v.etag !== undefined && got.etag !== undefined) {
		if (v.etag.toLowerCase() !== got.etag.toLowerCase()) return 'other';
		compared = true;
	}
	if (v.seconds !== undefined && got.seconds !== undefined && !Number.isNaN(v.seconds) && !Number.isNaN(got.seconds)) {
		if (v.seconds !== got.seconds) return 'other';
		compared = true;
	}
	return compared ? 'same' : 'unknown';
}

/** A version in words for messages: `ETag "abc", Last-Modified …, 12 bytes`. */
export function describeVersion(v: { etag?: string; lastModified?: string; size?: number }): string {
	const parts: string[] = [];
	if (v.etag !== undefined) parts.push(`ETag "${v.etag}"`);
	if (v.lastModified !== undefined) parts.push(`Last-Modified ${v.lastModified}`);
	if (v.size !== undefined) parts.push(`${v.size} bytes`);
	return parts.join(', ') || 'no ETag, Last-Modified or size';
}

/** `Content-Range: bytes a-b/total` (total may be `*`): its numbers, or undefined when it reads otherwise. */
export function contentRange(header: string | undefined): { start: number; end: number; total?: number } | undefined {
	const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(String(header ?? ''));
	if (!m) return undefined;
	const out: { start: number; end: number; total?: number } = { start: Number(m[1]), end: Number(m[2]) };
	if (m[3] !== '*') out.total = Number(m[3]);
	return out;
}

/** The answer's Content-Length as a number, when it has one that reads as one. */
export function contentLength(res: StorageResponse): number | undefined {
	const raw = res.headers['content-length'];
	return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
}

const PLAIN_MD5 = /^[0-9a-f]{32}$/i;
const S3_MULTIPART = /^([0-9a-f]{32})-(\d+)$/i;

/** Whether an ETag looks like an MD5 (32 hex digits): a claim the bytes must prove. */
export const looksLikeMd5 = (etag: string | undefined) => etag !== undefined && PLAIN_MD5.test(etag);

/** The parts count of an ETag of S3's multipart form `<hex>-<parts>`, or undefined. */
export function multipartParts(etag: string | undefined): number | undefined {
	const m = S3_MULTIPART.exec(String(etag ?? ''));
	return m ? Number(m[2]) : undefined;
}

/**
 * The ETag a multipart upload of parts whose MD5s (hex) are `partMd5s` has, in both forms:
 * S3's `<hex>-<parts>` and the plain `<hex>`.
 */
export function multipartEtagOf(partMd5s: string[]): { s3: string; plain: string } {
	const joined = Buffer.concat(partMd5s.map((h) => Buffer.from(h, 'hex')));
	const hex = createHash('md5').update(joined).digest('hex');
	return { s3: `${hex}-${partMd5s.length}`, plain: hex };
}

/** Whether `etag` is the multipart ETag of these parts (either form). */
export function isMultipartEtagOf(etag: string | undefined, partMd5s: string[]): boolean {
	if (etag === undefined || partMd5s.length === 0) return false;
	const e = etag.toLowerCase();
	const { s3, plain } = multipartEtagOf(partMd5s);
	return e === s3 || e === plain;
}

/** What a whole read of an object gave: the MD5 and count of its bytes, and its answer's headers. */
export interface WholeRead {
	md5: string;
	size: number;
	headers: Record<string, string>;
}

/** Get Object without a range, streamed and hashed: the MD5 and number of the bytes received. */
export async function readWhole(ctx: StorageContext, itemIndex: number, bucket: string, key: string): Promise<WholeRead> {
	const res = await storageRequest(ctx, { method: 'GET', bucket, key, stream: true, itemIndex });
	const hash = createHash('md5');
	let size = 0;
	try {
		for await (const chunk of res.body as AsyncIterable<Buffer>) {
			hash.update(chunk);
			size += chunk.length;
		}
	} catch (error) {
		throw res.explain ? res.explain(error) : error;
	}
	const short = res.verify?.();
	if (short) throw short;
	return { md5: hash.digest('hex'), size, headers: res.headers };
}

const MIB = 1024 * 1024;
/** Part sizes S3 tools use (MiB), most common first: candidates for an ETag's part size. */
const USUAL_PART_MIB = [8, 5, 16, 10, 15, 25, 32, 50, 64, 100, 128];
/** How many part sizes besides the copy's own are tried (each is one more MD5 of every byte). */
const EXTRA_CANDIDATES = 2;

/**
 * The proof of an ETag of S3's multipart form `<hex>-<parts>` from the bytes, fed in order: the
 * MD5 of each part of a candidate part size, then the MD5 of those MD5s. The copy's own part size
 * is proven from the MD5s of the parts it sent (no extra work, isMultipartEtagOf); the others
 * tried here are the usual part sizes (USUAL_PART_MIB) that give the ETag's number of parts for
 * the object's size, and one part for an ETag of one part: at most EXTRA_CANDIDATES of them,
 * each one more MD5 over every byte.
 */
export class PartSizeProof {
	private readonly candidates: Array<{ size: number; hash: Hash; filled: number; md5s: string[] }> = [];

	constructor(
		private readonly etag: string,
		objectSize: number,
		ownPartSize: number,
	) {
		const parts = multipartParts(etag);
		if (parts === undefined || objectSize <= 0) return;
		const sizes = parts === 1 ? [objectSize] : USUAL_PART_MIB.map((m) => m * MIB).filter((p) => Math.ceil(objectSize / p) === parts);
		for (const size of sizes.filter((p) => p !== ownPartSize).slice(0, EXTRA_CANDIDATES)) this.candidates.push({ size, hash: createHash('md5'), filled: 0, md5s: [] });
	}

	/** Whether any part size is being tried. */
	get active(): boolean {
		return this.candidates.length > 0;
	}

	update(chunk: Buffer): void {
		for (const c of this.candidates) {
			for (let at = 0; at < chunk.length; ) {
				const n = Math.min(chunk.length - at, c.size - c.filled);
				c.hash.update(chunk.subarray(at, at + n));
				c.filled += n;
				at += n;
				if (c.filled === c.size) {
					c.md5s.push(c.hash.digest('hex'));
					c.hash = createHash('md5');
					c.filled = 0;
				}
			}
		}
	}

	/** The part size whose parts give the ETag, once every byte was fed; undefined when none does. */
	proven(): number | undefined {
		for (const c of this.candidates) {
			const md5s = c.filled > 0 ? [...c.md5s, c.hash.copy().digest('hex')] : c.md5s;
			if (isMultipartEtagOf(this.etag, md5s)) return c.size;
		}
		return undefined;
	}
}

/**
 * Copy of an object, built from the documented operations: the documentation has no server-side
 * copy (docs/vendor/object-storage.md#not-in-the-documents), so the bytes pass through n8n, in
 * memory that does not grow with the object.
 *
 * The source is read on evidence (copySource.ts, evidence.ts, docs/vendor/readings.md#r74): its
 * version (size, ETag, LastModified) from its listing entry, every answer checked against it, in
 * whichever form the service answers a range. An object that fits in one part goes as one PUT
 * with its Content-MD5; a larger one as a multipart upload whose parts are read and written
 * `concurrency` at a time (transfer.ts). The bytes are hashed in order as they are read.
 *
 * What is compared, and nothing else is claimed (`sourceVerified`, `copyVerified`, and the
 * sentence `verification`):
 *   - the bytes read against the source, before the write is made whole: their MD5 equals the
 *     source's ETag (`etagIsMd5`), or, for an ETag of S3's multipart form, the MD5s of their parts
 *     give it (`multipartEtag`: the copy's own part size, or a usual one). An ETag of 32 hex digits
 *     that the bytes do not give is either a multipart ETag written so or bytes changed on the
 *     way: the source is read a second time, and two reads with the same MD5 pass (`readTwice`).
 *     Any other ETag is no hash of the bytes: only that every answer came from the same version
 *     is known (`sameVersion`), or nothing (`none`, answers without ETag or Last-Modified).
 *   - the copy against the bytes read: the destination's ETag equals their MD5 (`etagIsMd5`), or
 *     is the multipart ETag of the MD5s of the parts sent (`multipartEtag`); otherwise the copy is
 *     read back and its MD5 compared (`readBack`, one more read of the whole object).
 *
 * n8n's HTTP client unpacks a body stored with Content-Encoding gzip, deflate or br and drops
 * that header, so such an object cannot pass through unchanged: the byte count then differs from
 * the size and the copy stops before anything is written.
 */
import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { storageFailure } from '../../shared/storage/errors';
import { unquote } from './common';
import { changedError, firstRead, RangeParts, readAllOf, readExactly, WholeStream, type HashedSource, type ObjectRef, type RangeAnswer } from './copySource';
import { agreement, isMultipartEtagOf, looksLikeMd5, PartSizeProof, readWhole, type Version } from './evidence';
import type { PartRef } from './multipart';
import { headersToWriteAgain } from './objectInfo';
import { putObject, type UploadResult } from './put';
import { uploadFromSource } from './transfer';

export type { ObjectRef } from './copySource';

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

/** How the bytes read were checked against the source (see the top of this file). */
export type SourceCheck = 'etagIsMd5' | 'multipartEtag' | 'readTwice' | 'sameVersion' | 'none';
/** How the copy was checked against the bytes read. */
export type CopyCheck = 'etagIsMd5' | 'multipartEtag' | 'readBack';

export interface CopyResult {
	size: number;
	/** The version copied, as listed (or as the answers gave it without a listing entry). */
	source: Version;
	/** Whether the version came from the listing. */
	sourceListed: boolean;
	/** How the service answered the range of the first read, when that could be told. */
	rangeAnswer?: RangeAnswer;
	/** The destination's ETag as the service gave it. */
	etag?: string;
	/** MD5 (hex) of the bytes copied. */
	md5: string;
	multipart: boolean;
	partCount: number;
	sourceVerified: SourceCheck;
	copyVerified: CopyCheck;
	/** The part size whose parts give the source's multipart ETag (sourceVerified multipartEtag). */
	proofPartSize?: number;
	/** What was compared, in words. */
	verification: string;
	contentType?: string;
}

/** The sentence of what the source check compared. */
function sourceWords(check: SourceCheck, r: { size: number; proofPartSize?: number }): string {
	switch (check) {
		case 'etagIsMd5':
			return `the MD5 of the ${r.size} bytes read equals the source's ETag`;
		case 'multipartEtag':
			return `the MD5s of the bytes read in parts of ${r.proofPartSize} bytes give the source's multipart ETag`;
		case 'readTwice':
			return "the source's ETag is not the MD5 of its bytes; a second read of the source gave the same MD5";
		case 'sameVersion':
			return "every answer read carried the source's ETag and Last-Modified and the listed size, but the source's ETag is no hash the bytes could be compared with: the bytes read were not checked against the source";
		default:
			return 'the answers showed neither ETag nor Last-Modified: the bytes read were not checked against the source';
	}
}

/** The sentence of what the copy check compared. */
function copyWords(check: CopyCheck, partCount: number): string {
	if (check === 'etagIsMd5') return "the copy's ETag equals the MD5 of the bytes written";
	if (check === 'multipartEtag') return `the copy's ETag is the multipart ETag of the MD5s of the ${partCount} parts written`;
	return 'the copy, read back, has the MD5 of the bytes read';
}

/** `verification` of a copy: both checks in words. */
export function verificationOf(r: Pick<CopyResult, 'sourceVerified' | 'copyVerified' | 'size' | 'proofPartSize' | 'partCount'>): string {
	const source = sourceWords(r.sourceVerified, r);
	return `${source[0].toUpperCase()}${source.slice(1)}; ${copyWords(r.copyVerified, r.partCount)}.`;
}

/**
 * Copies `source` to `target` (see the top of this file). Nothing is written when the source
 * cannot be read whole, from one version and as it is; a multipart write that fails is aborted.
 */
export async function copyObject(ctx: IExecuteFunctions, source: ObjectRef, target: ObjectRef, o: CopyOptions): Promise<CopyResult> {
	const i = o.itemIndex;
	const node = ctx.getNode();
	const first = await firstRead(ctx, source, o.partSize, i);
	const v = first.version;
	const h = first.res.headers;
	const metaPrefix = `${o.settings.profile.headerPrefix}meta-`;
	const kept = Object.entries(headersToWriteAgain(h, o.settings)).filter(([name]) => !(o.replaceMetadata && name.startsWith(metaPrefix)));
	const headers: Record<string, string> = { ...Object.fromEntries(kept), ...o.replace };
	if (headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/octet-stream';
	const up = { bucket: target.bucket, key: target.key, itemIndex: i, settings: o.settings, headers };

	const proof = v.etag !== undefined && v.size > 0 ? new PartSizeProof(v.etag, v.size, first.partSize) : undefined;
	let untied = first.tied ? 0 : 1;
	let checked: { check: SourceCheck; proofPartSize?: number } | undefined;
	/** The source check (see the top of this file), before the write is made whole. */
	const checkSource = async (digest: string, bytes: number, parts: PartRef[]): Promise<void> => {
		if (v.size >= 0 && bytes !== v.size) {
			throw storageFailure(node, `Get Object ${source.bucket}/${source.key} gave ${bytes} bytes where ${v.size} were listed`, 'The answer was cut short or held another object. Nothing was written.', i);
		}
		const etag = v.etag?.toLowerCase();
		const md5s = parts.map((p) => p.md5 ?? '');
		if (etag !== undefined && etag === digest) checked = { check: 'etagIsMd5' };
		else if (etag !== undefined && md5s.every(Boolean) && isMultipartEtagOf(etag, md5s)) checked = { check: 'multipartEtag', proofPartSize: first.partSize };
		else if (etag !== undefined && proof?.proven() !== undefined) checked = { check: 'multipartEtag', proofPartSize: proof.proven() };
		else if (looksLikeMd5(etag)) {
			// 32 hex digits the bytes do not give: a multipart ETag written so, or bytes changed on the way
			const again = await readWhole(ctx, i, source.bucket, source.key);
			if (agreement(v, again.headers) === 'other') throw changedError(ctx, source, v, again.headers, 'A second read of the source', i);
			if (again.md5 !== digest || again.size !== bytes) {
				throw storageFailure(
					node,
					`Two reads of ${source.bucket}/${source.key} gave different bytes`,
					`The first had the MD5 ${digest} (${bytes} bytes), the second ${again.md5} (${again.size} bytes), and the source's ETag "${v.etag}" is neither: bytes were changed on the way. Nothing was written; running it again is safe.`,
					i,
				);
			}
			checked = { check: 'readTwice' };
		} else checked = { check: untied === 0 && (v.etag !== undefined || v.seconds !== undefined) ? 'sameVersion' : 'none' };
	};

	let written: UploadResult;
	let digest: string;
	let bytes: number;
	if (first.holds === 'all') {
		const body = await readAllOf(ctx, source, first, i);
		digest = createHash('md5').update(body).digest('hex');
		bytes = body.length;
		if (proof?.active) proof.update(body);
		await checkSource(digest, bytes, [{ partNumber: 1, etag: '', md5: digest }]);
		written = await putObject(ctx, up, body);
	} else {
		let parts: HashedSource;
		if (first.holds === 'first') {
			const head = await readExactly(ctx, first.res, Buffer.allocUnsafe(first.partSize), `Get Object ${source.bucket}/${source.key} (bytes 0-${first.partSize - 1})`, i);
			const ranges = new RangeParts(ctx, source, v, first.partSize, i, head);
			ranges.start(proof?.active ? (chunk) => proof.update(chunk) : undefined);
			parts = ranges;
		} else {
			parts = new WholeStream(first.res, first.partSize);
			if (proof?.active) parts.feed = (chunk) => proof.update(chunk);
		}
		const beforeComplete = async (sent: PartRef[]) => {
			untied += parts.untied;
			await checkSource(await parts.digest(), parts.bytes, sent);
		};
		written = await uploadFromSource(ctx, { ...up, partSize: first.partSize, concurrency: o.concurrency, beforeComplete }, parts, v.size >= 0 ? v.size : undefined);
		digest = await parts.digest();
		bytes = parts.bytes;
	}
	const sourceCheck = checked!;

	// the copy as written
	const etag = written.etag !== undefined ? unquote(written.etag).toLowerCase() : undefined;
	const sentMd5s = written.parts ? written.parts.map((p) => p.md5 ?? '') : [digest];
	let copyVerified: CopyCheck;
	if (etag !== undefined && etag === digest) copyVerified = 'etagIsMd5';
	else if (written.multipart && sentMd5s.every(Boolean) && isMultipartEtagOf(etag, sentMd5s)) copyVerified = 'multipartEtag';
	else {
		const back = await readWhole(ctx, i, target.bucket, target.key);
		if (back.md5 !== digest || back.size !== bytes) {
			throw storageFailure(
				node,
				`The copy at ${target.bucket}/${target.key} differs from what was read`,
				`Read back, it has ${back.size} bytes with the MD5 ${back.md5}; the ${bytes} bytes read from the source had ${digest}. The source was left as it was.`,
				i,
			);
		}
		copyVerified = 'readBack';
	}
	const result: CopyResult = {
		size: bytes,
		source: { ...v, size: bytes },
		sourceListed: first.listed,
		md5: digest,
		multipart: written.multipart,
		partCount: written.partCount,
		sourceVerified: sourceCheck.check,
		copyVerified,
		verification: '',
		contentType: headers['Content-Type'],
	};
	if (first.rangeAnswer) result.rangeAnswer = first.rangeAnswer;
	if (sourceCheck.proofPartSize !== undefined) result.proofPartSize = sourceCheck.proofPartSize;
	if (written.etag !== undefined) result.etag = unquote(written.etag);
	result.verification = verificationOf(result);
	return result;
}

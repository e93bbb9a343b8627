/**
 * The multipart requests shared by the low-level Multipart Upload operations and the
 * automatic parallel upload: initiate, upload one part, list every part, complete, abort.
 */
import { createHash } from 'crypto';
import { NodeApiError, NodeOperationError, type ICredentialDataDecryptedObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { readAll } from '../../shared/storage/body';
import { mayHaveBeenPerformed, storageApiError } from '../../shared/storage/errors';
import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, escapeXml, text, type XmlNode } from '../../shared/storage/xml';
import { asNodeError, quote, unquote } from './common';
import { isTruncated } from './listing';

/** Tries per part of an automatic upload (the first and two retries, with backoff). */
export const PART_TRIES = 3;

export interface PartRef {
	partNumber: number;
	etag: string;
	/** MD5 (hex) of the bytes sent, for a part this run uploaded. */
	md5?: string;
}

/** A part as List Parts gave it: the fields present in its answer. */
export interface PartInfo extends PartRef {
	size?: number;
	lastModified?: string;
}

export interface UploadTarget {
	bucket: string;
	key: string;
	itemIndex: number;
	settings: StorageSettings;
	/** Credential fields replacing the stored ones (the compatibility check's signing variants). */
	overrides?: { credentialOverrides?: ICredentialDataDecryptedObject };
}

export function md5(data: Buffer): Buffer {
	return createHash('md5').update(data).digest();
}

/** A 200 answer whose body is an S3 error document (Complete may fail that way) → NodeApiError. */
function errorInBody(ctx: IExecuteFunctions, doc: XmlNode, transId: string, t: UploadTarget): NodeApiError | undefined {
	if (!doc.Error) return undefined;
	return storageApiError(
		ctx.getNode(),
		{ code: text(doc.Error, 'Code') || 'InternalError', message: text(doc.Error, 'Message'), transId, statusCode: 200 },
		t.itemIndex,
		{ bucket: t.bucket, key: t.key, what: `Complete Multipart Upload ${t.bucket}/${t.key}` },
	);
}

/**
 * Initiate Multipart Upload. Never repeated after a failure that leaves open whether the service
 * started the upload (a 5xx answer, a lost connection, a timeout): each repeat the service
 * performs would leave another upload behind, and the documented interface offers no way to list uploads to find
 * and remove them. Only a refused connection and SlowDown (the service did nothing) are retried.
 */
export async function initiateUpload(ctx: IExecuteFunctions, t: UploadTarget, headers: Record<string, string>): Promise<string> {
	let res;
	try {
		res = await storageRequest(ctx, {
			method: 'POST',
			bucket: t.bucket,
			key: t.key,
			query: [['uploads', undefined]],
			headers,
			itemIndex: t.itemIndex,
			...t.overrides,
		});
	} catch (error) {
		if (mayHaveBeenPerformed(error)) {
			const e = error as NodeApiError;
			e.description = [
				e.description,
				`The service may have created a multipart upload for "${t.key}" before it failed, and its upload ID never reached n8n.`,
				'Such an upload holds no parts but stays until it is aborted, and the object storage interface offers no way to list uploads:',
				'if the vendor shows it (console or support), remove it with Multipart Upload > Abort and its upload ID. The bucket cannot be deleted while it exists.',
			]
				.filter(Boolean)
				.join(' ');
		}
		throw asNodeError(ctx, error, t.itemIndex);
	}
	const doc = await xmlBody(res);
	const uploadId = text(doc.InitiateMultipartUploadResult, 'UploadId');
	if (!uploadId) {
		throw new NodeApiError(ctx.getNode(), { transId: res.transId } as JsonObject, {
			message: 'The service started no multipart upload: its answer holds no UploadId',
			description: `X-Trans-Id ${res.transId}`,
			itemIndex: t.itemIndex,
		});
	}
	// in n8n's log: if the process dies mid-upload (a queue-mode worker killed), this is the ID
	// that Multipart Upload > Abort needs, and the interface has no way to list uploads
	ctx.logger.info(`Vendor Object Storage: multipart upload ${uploadId} started for ${t.bucket}/${t.key}`, { uploadId, bucket: t.bucket, key: t.key });
	return uploadId;
}

/**
 * PUT one part with its Content-MD5; resolves the part's ETag as the service gave it in the
 * ETag header, or '' when it sent none (the documentation gives Upload Part no header,
 * readings R25): completeUpload then takes that part's ETag from List Parts. A guessed ETag (the
 * part's MD5) is never used.
 */
export async function uploadPart(
	ctx: IExecuteFunctions,
	t: UploadTarget,
	uploadId: string,
	partNumber: number,
	data: Buffer,
	attempts = PART_TRIES,
): Promise<string> {
	const sent = await sendPart(ctx, t, uploadId, partNumber, data, attempts);
	return sent.etag ?? '';
}

/** PUT one part; the service's ETag header when it sent one, and the MD5 (hex) of the part. */
export async function sendPart(
	ctx: IExecuteFunctions,
	t: UploadTarget,
	uploadId: string,
	partNumber: number,
	data: Buffer,
	attempts = PART_TRIES,
): Promise<{ etag?: string; md5: string }> {
	const digest = md5(data);
	const res = await storageRequest(ctx, {
		method: 'PUT',
		bucket: t.bucket,
		key: t.key,
		query: [
			[t.settings.partNumberParam, partNumber],
			[t.settings.uploadIdParam, uploadId],
		],
		headers: { 'Content-MD5': digest.toString('base64') },
		body: data,
		attempts,
		itemIndex: t.itemIndex,
		...t.overrides,
	});
	await readAll(res.body);
	return { etag: res.headers.etag || undefined, md5: digest.toString('hex') };
}

/**
 * The most a List Parts page of `maxParts` parts can hold: 64 KiB for the upload's own elements
 * and 1 KiB per part (number, date, ETag, size: about 150 bytes as S3 writes them).
 */
export function partsPageCap(maxParts: number): number {
	return Math.min(64 * 1024 * 1024, 64 * 1024 + Math.max(1, maxParts) * 1024);
}

/** One page of List Parts. */
export async function listPartsPage(
	ctx: IExecuteFunctions,
	t: UploadTarget,
	uploadId: string,
	marker: number,
	maxParts: number,
): Promise<{ parts: PartInfo[]; next?: number }> {
	const query: Array<[string, string | number | undefined]> = [[t.settings.uploadIdParam, uploadId]];
	if (maxParts) query.push(['max-parts', maxParts]);
	if (marker) query.push(['part-number-marker', marker]);
	const res = await storageRequest(ctx, {
		method: 'GET',
		bucket: t.bucket,
		key: t.key,
		query,
		itemIndex: t.itemIndex,
		maxAnswerBytes: partsPageCap(maxParts || 1000),
		...t.overrides,
	});
	const doc = (await xmlBody(res)).ListPartsResult;
	const parts = children(doc, 'Part').map((p) => {
		const part: PartInfo = { partNumber: Number(text(p, 'PartNumber')), etag: unquote(text(p, 'ETag')) };
		if (p.Size !== undefined) part.size = Number(text(p, 'Size'));
		if (p.LastModified !== undefined) part.lastModified = text(p, 'LastModified');
		return part;
	});
	const truncated = isTruncated(ctx.getNode(), doc, `List Parts ${t.bucket}/${t.key}`, res.transId, t.itemIndex);
	if (!truncated) return { parts };
	let next = Number(text(doc, 'NextPartNumberMarker'));
	if (!next && parts.length) next = parts[parts.length - 1].partNumber;
	if (!next || next <= marker) {
		throw new NodeApiError(ctx.getNode(), { transId: res.transId } as JsonObject, {
			message: 'The part listing says more parts follow but gives no next position',
			description: `NextPartNumberMarker was missing or did not advance past ${marker} (X-Trans-Id ${res.transId}).`,
			itemIndex: t.itemIndex,
		});
	}
	return { parts, next };
}

/** Every part (or the first `limit`), page by page, following NextPartNumberMarker. */
export async function listParts(
	ctx: IExecuteFunctions,
	t: UploadTarget,
	uploadId: string,
	limit = Infinity,
	pageSize = 1000,
): Promise<PartInfo[]> {
	const out: PartInfo[] = [];
	let marker = 0;
	for (;;) {
		const page = await listPartsPage(ctx, t, uploadId, marker, Math.min(pageSize, Math.max(1, limit - out.length)));
		out.push(...page.parts);
		if (out.length >= limit) return out.slice(0, limit);
		if (page.next === undefined) return out;
		marker = page.next;
	}
}

/** What CompleteMultipartUploadResult held (Location, Bucket, Key, ETag), the fields it gave. */
export interface CompleteResult {
	etag?: string;
	location?: string;
	bucket?: string;
	key?: string;
}

/** `1, 2 and 4`: numbers for messages, at most 10 of them. */
export function listNumbers(numbers: number[]): string {
	const shown = numbers.slice(0, 10).map(String);
	const more = numbers.length > 10 ? ` and ${numbers.length - 10} more` : '';
	if (shown.length <= 1) return `${shown.join('')}${more}`;
	return more ? `${shown.join(', ')}${more}` : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** The part numbers from 1 to the highest of `numbers` that `numbers` lacks. */
export function missingPartNumbers(numbers: Iterable<number>): number[] {
	const have = new Set(numbers);
	const highest = Math.max(0, ...have);
	const missing: number[] = [];
	for (let n = 1; n <= highest && missing.length < 1000; n++) if (!have.has(n)) missing.push(n);
	return missing;
}

/**
 * The error of a Complete that was not sent because a part is missing: nothing was joined, the
 * upload is still in progress and can be completed once the part is there.
 */
export function partsMissingError(ctx: IExecuteFunctions, t: UploadTarget, uploadId: string, message: string, why: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: t.itemIndex,
		description: `${why} Complete was not sent, so no object with a part missing was made; the upload ${uploadId} is still in progress: upload the missing part and complete again, or abort it with Multipart Upload > Abort.`,
	});
}

/**
 * Complete Multipart Upload with `parts`. It is never sent with a part missing: the part numbers
 * must run from 1 without a gap (otherwise it fails naming the missing parts). A part without an
 * ETag ('' : the service sent none when it was uploaded) gets the ETag List Parts gives for it,
 * and fails when the service does not hold it.
 */
export async function completeUpload(ctx: IExecuteFunctions, t: UploadTarget, uploadId: string, parts: PartRef[]): Promise<CompleteResult> {
	let sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
	if (!sorted.length) {
		throw partsMissingError(ctx, t, uploadId, `The upload of "${t.key}" has no parts to complete`, 'An object is made of parts 1, 2, 3 … and none was given.');
	}
	const missing = missingPartNumbers(sorted.map((p) => p.partNumber));
	if (missing.length) {
		throw partsMissingError(
			ctx,
			t,
			uploadId,
			`Part${missing.length > 1 ? 's' : ''} ${listNumbers(missing)} of "${t.key}" ${missing.length > 1 ? 'are' : 'is'} missing`,
			`The parts given are ${listNumbers(sorted.map((p) => p.partNumber))}: an object is made of parts 1, 2, 3 … without a gap.`,
		);
	}
	if (sorted.some((p) => !unquote(p.etag).trim())) {
		const listed = new Map((await listParts(ctx, t, uploadId)).map((p) => [p.partNumber, p.etag]));
		const absent = sorted.filter((p) => !unquote(p.etag).trim() && !listed.get(p.partNumber)).map((p) => p.partNumber);
		if (absent.length) {
			throw partsMissingError(
				ctx,
				t,
				uploadId,
				`Part${absent.length > 1 ? 's' : ''} ${listNumbers(absent)} of "${t.key}" ${absent.length > 1 ? 'are' : 'is'} not held by the service`,
				'The service sent no ETag when the part was uploaded, and List Parts does not show it.',
			);
		}
		sorted = sorted.map((p) => (unquote(p.etag).trim() ? p : { partNumber: p.partNumber, etag: listed.get(p.partNumber)! }));
	}
	const xml =
		'<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload>' +
		sorted.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${escapeXml(quote(p.etag))}</ETag></Part>`).join('') +
		'</CompleteMultipartUpload>';
	const res = await storageRequest(ctx, {
		method: 'POST',
		bucket: t.bucket,
		key: t.key,
		query: [[t.settings.uploadIdParam, uploadId]],
		headers: { 'Content-Type': 'application/xml' },
		body: Buffer.from(xml, 'utf8'),
		// A repeat completes the same upload or finds it gone: it never makes a second object.
		idempotent: true,
		// joining the parts may take the service minutes: the Complete Timeout
		longRunning: true,
		itemIndex: t.itemIndex,
		...t.overrides,
	});
	const doc = await xmlBody(res);
	const failed = errorInBody(ctx, doc, res.transId, t);
	if (failed) throw failed;
	const result = doc.CompleteMultipartUploadResult;
	const out: CompleteResult = {};
	const has = (name: string) => typeof result === 'object' && result !== null && !Array.isArray(result) && result[name] !== undefined;
	if (has('ETag')) out.etag = unquote(text(result, 'ETag'));
	if (has('Location')) out.location = text(result, 'Location');
	if (has('Bucket')) out.bucket = text(result, 'Bucket');
	if (has('Key')) out.key = text(result, 'Key');
	return out;
}

/**
 * Aborts an upload; also after the execution was cancelled. `problem` says why it could not be
 * aborted; `gone` that the service did not know it any more (completed or aborted before).
 */
export async function abortUpload(ctx: IExecuteFunctions, t: UploadTarget, uploadId: string): Promise<{ problem?: string; gone?: boolean }> {
	try {
		const res = await storageRequest(ctx, {
			method: 'DELETE',
			bucket: t.bucket,
			key: t.key,
			query: [[t.settings.uploadIdParam, uploadId]],
			accept: [404],
			survivesCancel: true,
			itemIndex: t.itemIndex,
			...t.overrides,
		});
		await readAll(res.body);
		return res.statusCode === 404 ? { gone: true } : {};
	} catch (error) {
		return { problem: (error as Error).message };
	}
}

/**
 * The multipart requests shared by the low-level Multipart Upload operations and the
 * automatic parallel upload: initiate, upload one part, list every part, complete, abort.
 */
import { createHash } from 'crypto';
import { NodeApiError, type ICredentialDataDecryptedObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { readAll } from '../../shared/storage/body';
import { mayHaveBeenPerformed, storageApiError } from '../../shared/storage/errors';
import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, escapeXml, text, type XmlNode } from '../../shared/storage/xml';
import { asNodeError, quote, unquote } from './common';

/** Tries per part of an automatic upload (the first and two retries, with backoff). */
export const PART_TRIES = 3;

export interface PartRef {
	partNumber: number;
	etag: string;
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
function errorInBody(ctx: IExecuteFunctions, doc: XmlNode, transId: string, itemIndex: number): NodeApiError | undefined {
	if (!doc.Error) return undefined;
	return storageApiError(
		ctx.getNode(),
		{ code: text(doc.Error, 'Code') || 'InternalError', message: text(doc.Error, 'Message'), transId, statusCode: 200 },
		itemIndex,
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
 * PUT one part with its Content-MD5; resolves the part's ETag (quoted, as the service gives it),
 * or the part's MD5 when the service sends no ETag (S3's part ETag is the part's MD5).
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
	return sent.etag ?? `"${sent.md5}"`;
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
	const res = await storageRequest(ctx, { method: 'GET', bucket: t.bucket, key: t.key, query, itemIndex: t.itemIndex, ...t.overrides });
	const doc = (await xmlBody(res)).ListPartsResult;
	const parts = children(doc, 'Part').map((p) => {
		const part: PartInfo = { partNumber: Number(text(p, 'PartNumber')), etag: unquote(text(p, 'ETag')) };
		if (p.Size !== undefined) part.size = Number(text(p, 'Size'));
		if (p.LastModified !== undefined) part.lastModified = text(p, 'LastModified');
		return part;
	});
	const truncated = text(doc, 'IsTruncated') === 'true';
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

export async function completeUpload(ctx: IExecuteFunctions, t: UploadTarget, uploadId: string, parts: PartRef[]): Promise<CompleteResult> {
	const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
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
		itemIndex: t.itemIndex,
		...t.overrides,
	});
	const doc = await xmlBody(res);
	const failed = errorInBody(ctx, doc, res.transId, t.itemIndex);
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

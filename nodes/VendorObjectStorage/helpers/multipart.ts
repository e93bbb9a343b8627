/**
 * The multipart requests shared by the low-level Multipart Upload operations and the
 * automatic parallel upload: initiate, upload one part, list every part, complete, abort.
 */
import { createHash } from 'crypto';
import { NodeApiError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import type { StorageSettings } from '../../shared/storage/auth';
import { storageApiError, storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, escapeXml, text, type XmlNode } from '../../shared/storage/xml';
import { quote, unquote } from './common';

/** Tries per part of an automatic upload (the first and two retries, with backoff). */
export const PART_TRIES = 3;

export interface PartRef {
	partNumber: number;
	etag: string;
}

export interface PartInfo extends PartRef {
	size: number;
	lastModified: string;
}

export interface UploadTarget {
	bucket: string;
	key: string;
	itemIndex: number;
	settings: StorageSettings;
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

export async function initiateUpload(ctx: IExecuteFunctions, t: UploadTarget, headers: Record<string, string>): Promise<string> {
	const res = await storageRequest(ctx, {
		method: 'POST',
		bucket: t.bucket,
		key: t.key,
		query: [['uploads', undefined]],
		headers,
		itemIndex: t.itemIndex,
	});
	const doc = await xmlBody(res);
	const uploadId = text(doc.InitiateMultipartUploadResult, 'UploadId');
	if (!uploadId) {
		throw new NodeApiError(ctx.getNode(), { transId: res.transId } as JsonObject, {
			message: 'The service started no multipart upload: its answer holds no UploadId',
			description: `X-Trans-Id ${res.transId}`,
			itemIndex: t.itemIndex,
		});
	}
	return uploadId;
}

/** PUT one part with its Content-MD5; resolves the part's ETag (quoted, as the service gives it). */
export async function uploadPart(
	ctx: IExecuteFunctions,
	t: UploadTarget,
	uploadId: string,
	partNumber: number,
	data: Buffer,
	attempts = PART_TRIES,
): Promise<string> {
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
	});
	return res.headers.etag || `"${digest.toString('hex')}"`;
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
	const res = await storageRequest(ctx, { method: 'GET', bucket: t.bucket, key: t.key, query, itemIndex: t.itemIndex });
	const doc = (await xmlBody(res)).ListPartsResult;
	const parts = children(doc, 'Part').map((p) => ({
		partNumber: Number(text(p, 'PartNumber')),
		etag: unquote(text(p, 'ETag')),
		size: Number(text(p, 'Size')),
		lastModified: text(p, 'LastModified'),
	}));
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

export interface CompleteResult {
	etag: string;
	location: string;
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
		itemIndex: t.itemIndex,
	});
	const doc = await xmlBody(res);
	const failed = errorInBody(ctx, doc, res.transId, t.itemIndex);
	if (failed) throw failed;
	const result = doc.CompleteMultipartUploadResult;
	return { etag: unquote(text(result, 'ETag')), location: text(result, 'Location') };
}

/**
 * Aborts an upload; also after the execution was cancelled. Resolves an error text when the
 * upload could not be aborted, undefined when it is gone (aborted now, or already).
 */
export async function abortUpload(ctx: IExecuteFunctions, t: UploadTarget, uploadId: string): Promise<string | undefined> {
	try {
		await storageRequest(ctx, {
			method: 'DELETE',
			bucket: t.bucket,
			key: t.key,
			query: [[t.settings.uploadIdParam, uploadId]],
			accept: [404],
			survivesCancel: true,
			itemIndex: t.itemIndex,
		});
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

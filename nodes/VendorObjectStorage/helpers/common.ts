/**
 * What the operations share when they run: the bucket, key and object headers read back from
 * the parameters (checked, see validate.ts; the parameters themselves are fields.ts), the
 * per-item loop (pairedItem, continueOnFail, errors with itemIndex) and ETag quoting.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { runItems, runState } from '../../shared/run';
export { asNodeError, errorItem } from '../../shared/run';
import type { StorageSettings } from '../../shared/storage/auth';
import * as check from './validate';

/* ------------------------------------------------------------ reading parameters */

export function getBucket(ctx: IExecuteFunctions, i: number): string {
	return check.bucketName(ctx.getNode(), i, ctx.getNodeParameter('bucket', i, '', { extractValue: true }));
}

/** The key of the item: a typed key, an expression, or the value of the key locator. */
export function getKey(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('key', i, '', { extractValue: true }) as unknown;
	const key = raw !== null && typeof raw === 'object' ? (raw as IDataObject).value : raw;
	return check.objectKey(ctx.getNode(), i, key);
}

/**
 * The key of an object that must exist: a folder picked from the list (a key ending in "/" that
 * the list showed as a folder) is refused with how to open it.
 */
export function getExistingKey(ctx: IExecuteFunctions, i: number): string {
	const key = getKey(ctx, i);
	const mode = (ctx.getNodeParameter('key', i, {}) as IDataObject | string) ?? {};
	if (typeof mode === 'object' && mode.mode === 'list' && key.endsWith('/')) {
		throw new NodeOperationError(ctx.getNode(), `"${key}" is a folder, not an object`, {
			itemIndex: i,
			description: `In "Key", type ${key} in the list's search to see the objects in it, and choose one.`,
		});
	}
	return key;
}

export interface ObjectHeaders {
	headers: Record<string, string>;
	contentType: string;
}

/**
 * The headers of Put object / Initiate multipart upload from the Additional Fields, checked.
 * `fallbackType` is used when no Content Type is given (none is sent when it is '' too);
 * `fallbackFrom` names the input binary field it came from (an upstream node's MIME type,
 * checked and named in the error).
 */
export function objectHeaders(
	ctx: IExecuteFunctions,
	i: number,
	settings: StorageSettings,
	fallbackType: string,
	fallbackFrom?: string,
): ObjectHeaders {
	const node = ctx.getNode();
	const fields = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const headers: Record<string, string> = {};
	const prefix = settings.profile.headerPrefix;
	const plain: Array<[string, string, string]> = [
		['cacheControl', 'Cache-Control', 'Cache Control'],
		['contentDisposition', 'Content-Disposition', 'Content Disposition'],
		['contentEncoding', 'Content-Encoding', 'Content Encoding'],
		['expires', 'Expires', 'Expires'],
	];
	for (const [param, header, label] of plain) {
		const v = fields[param];
		if (v === undefined || v === '') continue;
		const value = check.headerValue(node, i, label, v);
		if (value) headers[header] = value;
	}
	const contentType = fields.contentType ? check.headerValue(node, i, 'Content Type', fields.contentType) : '';
	const fallback = !contentType && fallbackType && fallbackFrom !== undefined ? check.binaryMimeType(node, i, fallbackFrom, fallbackType) : fallbackType;
	// No type given and none known from the data (Initiate): none is sent, the service chooses.
	if (contentType || fallback) headers['Content-Type'] = contentType || fallback;
	if (fields.acl) headers[`${prefix}acl`] = String(fields.acl);
	const rows = ((fields.metadata as IDataObject | undefined)?.values ?? []) as Array<{ name?: unknown; value?: unknown }>;
	for (const [name, value] of Object.entries(check.metadata(node, i, rows))) headers[`${prefix}meta-${name}`] = value;
	return { headers, contentType: headers['Content-Type'] ?? '' };
}

/* ------------------------------------------------------------ the item loop */

type ItemResult = IDataObject | INodeExecutionData | Array<IDataObject | INodeExecutionData>;

function isExecutionData(v: IDataObject | INodeExecutionData): v is INodeExecutionData {
	return typeof (v as INodeExecutionData).json === 'object' && (v as INodeExecutionData).json !== null && !Array.isArray((v as INodeExecutionData).json);
}

/**
 * Runs `fn` per input item, several at once per "Concurrent Requests" (one at a time for the
 * operations that declare `serial`); output in input order, every item with pairedItem;
 * continueOnFail is honoured (see runItems).
 */
export async function perItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (i: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	return await runItems(
		ctx,
		items.length,
		async (i) => {
			const result = await fn(i);
			return (Array.isArray(result) ? result : [result]).map((r) => (isExecutionData(r) ? r : { json: r }));
		},
		{ serial: runState(ctx).serial !== undefined },
	);
}

/* ------------------------------------------------------------ values */

/** `"abc"` → `abc`. */
export function unquote(etag: string | undefined): string {
	return String(etag ?? '').replace(/^"(.*)"$/, '$1');
}

/** `abc` or `"abc"` → `"abc"`. */
export function quote(etag: string): string {
	const bare = unquote(etag.trim());
	return `"${bare}"`;
}

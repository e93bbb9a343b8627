/**
 * What the operations share: the bucket locator and key fields, the object-header fields of
 * Upload and Initiate, the per-item loop (pairedItem, continueOnFail, errors with itemIndex)
 * and small readers of the service's XML.
 */
import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runItems, runState } from '../../shared/run';
export { asNodeError } from '../../shared/run';
import type { StorageSettings } from '../../shared/storage/auth';
import { text, type XmlValue } from '../../shared/storage/xml';
import * as check from './validate';

export type OperationExecute = (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

/* ------------------------------------------------------------ fields */

export const CANNED_ACLS = [
	{ name: 'Private', value: 'private', description: 'Owner has full rights; nobody else has any' },
	{ name: 'Public Read', value: 'public-read', description: 'Owner has full rights; anyone may read' },
	{ name: 'Public Read Write', value: 'public-read-write', description: 'Owner has full rights; anyone may read and write' },
	{ name: 'Authenticated Read', value: 'authenticated-read', description: 'Owner has full rights; any signed-in user may read' },
];

export const bucketField: INodeProperties = {
	displayName: 'Bucket',
	name: 'bucket',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchBuckets', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. my-bucket',
		},
	],
};

export const keyField: INodeProperties = {
	displayName: 'Key',
	name: 'key',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. reports/2026/summary.csv',
	description: 'Name of the object, including any folder prefix; case-sensitive',
	hint: 'S3 services accept keys of up to 1024 bytes of UTF-8',
};

export const uploadIdField: INodeProperties = {
	displayName: 'Upload ID',
	name: 'uploadId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.uploadId }}',
	description: 'The ID that Initiate returned',
};

export function notice(text: string): INodeProperties {
	return { displayName: text, name: 'notice', type: 'notice', default: '' };
}

/** Object headers shared by Upload and Initiate (the "same headers as Put object"). */
export const objectHeaderFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'ACL',
			name: 'acl',
			type: 'options',
			options: CANNED_ACLS,
			default: 'private',
			description: 'Canned access control of the object',
		},
		{
			displayName: 'Cache Control',
			name: 'cacheControl',
			type: 'string',
			default: '',
			placeholder: 'e.g. max-age=3600',
			description: 'Cache-Control header returned when the object is downloaded',
		},
		{
			displayName: 'Content Disposition',
			name: 'contentDisposition',
			type: 'string',
			default: '',
			placeholder: 'e.g. attachment; filename="report.pdf"',
			description: 'Content-Disposition header returned on download; sets the download file name',
		},
		{
			displayName: 'Content Encoding',
			name: 'contentEncoding',
			type: 'string',
			default: '',
			placeholder: 'e.g. gzip',
			description: 'Content-Encoding header returned on download',
		},
		{
			displayName: 'Content Type',
			name: 'contentType',
			type: 'string',
			default: '',
			placeholder: 'e.g. text/csv',
			description: "Media type of the object. Defaults to the binary file's MIME type, or text/plain for text.",
		},
		{
			displayName: 'Expires',
			name: 'expires',
			type: 'string',
			default: '',
			placeholder: 'e.g. Thu, 01 Dec 2026 16:00:00 GMT',
			description: 'Expires header returned on download; sent exactly as typed',
		},
		{
			displayName: 'Metadata',
			name: 'metadata',
			type: 'fixedCollection',
			placeholder: 'Add Metadata',
			default: {},
			typeOptions: { multipleValues: true },
			description: 'User metadata, returned as headers when the object is downloaded',
			options: [
				{
					name: 'values',
					displayName: 'Metadata',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'e.g. reviewed-by',
							description: 'Header-name characters only: letters, digits and hyphens',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							placeholder: 'e.g. jane',
							description: 'One line of ASCII text',
						},
					],
				},
			],
		},
	],
};

/* ------------------------------------------------------------ reading parameters */

export function getBucket(ctx: IExecuteFunctions, i: number): string {
	return check.bucketName(ctx.getNode(), i, ctx.getNodeParameter('bucket', i, '', { extractValue: true }));
}

export function getKey(ctx: IExecuteFunctions, i: number): string {
	return check.objectKey(ctx.getNode(), i, ctx.getNodeParameter('key', i, ''));
}

export interface ObjectHeaders {
	headers: Record<string, string>;
	contentType: string;
}

/**
 * The headers of Put object / Initiate multipart upload from the Additional Fields, checked.
 * `fallbackType` is used when no Content Type is given; `fallbackFrom` names the input binary
 * field it came from (an upstream node's MIME type, checked and named in the error).
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
	headers['Content-Type'] = contentType || fallback || 'application/octet-stream';
	if (fields.acl) headers[`${prefix}acl`] = String(fields.acl);
	const rows = ((fields.metadata as IDataObject | undefined)?.values ?? []) as Array<{ name?: unknown; value?: unknown }>;
	for (const [name, value] of Object.entries(check.metadata(node, i, rows))) headers[`${prefix}meta-${name}`] = value;
	return { headers, contentType: headers['Content-Type'] };
}

/* ------------------------------------------------------------ the item loop */

type ItemResult = IDataObject | INodeExecutionData | Array<IDataObject | INodeExecutionData>;

function isExecutionData(v: IDataObject | INodeExecutionData): v is INodeExecutionData {
	return typeof (v as INodeExecutionData).json === 'object' && (v as INodeExecutionData).json !== null && !Array.isArray((v as INodeExecutionData).json);
}

/**
 * Runs `fn` per input item, several at once per "Concurrent Requests" (one at a time for the
 * operations the router marks serial); output in input order, every item with pairedItem;
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

export function owner(node: XmlValue | undefined): IDataObject {
	return { id: text(node, 'ID'), displayName: text(node, 'DisplayName') };
}

/** Number of parts of a multipart ETag (`"…-7"` → 7), 1 for a plain MD5 ETag. */
export function partsOfEtag(etag: string): number {
	const m = /-(\d+)$/.exec(unquote(etag));
	return m ? Number(m[1]) : 1;
}

export function nonEmpty(obj: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== ''));
}

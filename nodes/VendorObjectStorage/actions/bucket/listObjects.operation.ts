import {
	NodeApiError,
	updateDisplayOptions,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import type { StorageContext } from '../../../shared/storage/call';
import { storageRequest, xmlBody } from '../../../shared/storage/transport';
import { children, text, type XmlNode } from '../../../shared/storage/xml';
import { bucketField, getBucket, nonEmpty, owner, perItem, unquote } from '../../helpers/common';
import { commonPrefixesOf, compareKeys } from '../../helpers/listing';
import * as check from '../../helpers/validate';

const properties: INodeProperties[] = [
	bucketField,
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Delimiter',
				name: 'delimiter',
				type: 'string',
				default: '',
				placeholder: 'e.g. /',
				description: 'Groups keys up to the first delimiter after the prefix into folder items; "/" lists one folder level',
			},
			{
				displayName: 'Page Size',
				name: 'maxKeys',
				type: 'number',
				default: 1000,
				typeOptions: { minValue: 1 },
				description: 'Max-keys of each request: how many objects and folders one page of the listing holds',
				hint: 'The service may return fewer per page (S3 at most 1000); the node pages until done',
			},
			{
				displayName: 'Prefix',
				name: 'prefix',
				type: 'string',
				default: '',
				placeholder: 'e.g. reports/2026/',
				description: 'Only keys that start with this text',
			},
			{
				displayName: 'Start After',
				name: 'marker',
				type: 'string',
				default: '',
				placeholder: 'e.g. reports/2026/q1.csv',
				description:
					'Marker: list the keys after this one. The vendor documents that the listing starts at this key; the node leaves the key itself out, so both readings give the same result.',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['bucket'], operation: ['listObjects'] } }, properties);

/** One object of a listing: the fields the service gave, named in n8n's style. */
function objectItem(c: XmlNode): IDataObject {
	const item: IDataObject = { type: 'object', key: text(c, 'Key') };
	if (c.Size !== undefined) {
		const size = Number(text(c, 'Size'));
		item.size = Number.isFinite(size) ? size : text(c, 'Size');
	}
	if (c.LastModified !== undefined) item.lastModified = text(c, 'LastModified');
	if (c.ETag !== undefined) item.etag = unquote(text(c, 'ETag'));
	if (c.StorageClass !== undefined) item.storageClass = text(c, 'StorageClass');
	if (c.Owner !== undefined) item.owner = nonEmpty(owner(c.Owner));
	return item;
}

export interface ListingPage {
	entries: Array<{ name: string; item: IDataObject }>;
	truncated: boolean;
	nextMarker: string;
	transId: string;
}

/**
 * One page of List Objects. `marker` is sent as given; a first entry equal to it is dropped, so
 * that a service whose listing starts AT the marker (the seed's wording) and one that starts
 * after it (S3) give the same result. One more entry than wanted is asked for when a marker is
 * sent, so that a page never holds only the dropped key.
 */
export async function listPage(
	ctx: StorageContext,
	i: number,
	bucket: string,
	o: { prefix?: string; delimiter?: string; marker?: string; maxKeys: number },
	overrides?: { credentialOverrides?: ICredentialDataDecryptedObject },
): Promise<ListingPage> {
	const query: Array<[string, string | number | undefined]> = [];
	if (o.delimiter) query.push(['delimiter', o.delimiter]);
	if (o.marker) query.push(['marker', o.marker]);
	query.push(['max-keys', o.marker ? o.maxKeys + 1 : o.maxKeys]);
	if (o.prefix) query.push(['prefix', o.prefix]);
	const res = await storageRequest(ctx, { method: 'GET', bucket, query, itemIndex: i, ...overrides });
	const doc = (await xmlBody(res)).ListBucketResult;
	const entries: ListingPage['entries'] = children(doc, 'Contents').map((c) => {
		const item = objectItem(c);
		return { name: String(item.key), item };
	});
	for (const folder of commonPrefixesOf(doc)) entries.push({ name: folder, item: { type: 'folder', prefix: folder } });
	entries.sort((a, b) => compareKeys(a.name, b.name));
	if (o.marker && entries.length && entries[0].name === o.marker) entries.shift();
	return {
		entries,
		truncated: text(doc, 'IsTruncated') === 'true',
		nextMarker: text(doc, 'NextMarker'),
		transId: res.transId,
	};
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(node, i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const pageSize = options.maxKeys === undefined ? 1000 : check.positiveInt(node, i, 'Page Size', options.maxKeys, 1, Number.MAX_SAFE_INTEGER);
		const prefix = options.prefix ? String(options.prefix) : '';
		const delimiter = options.delimiter ? String(options.delimiter) : '';
		let marker = options.marker ? String(options.marker) : '';

		const out: IDataObject[] = [];
		for (;;) {
			const page = await listPage(this, i, bucket, { prefix, delimiter, marker, maxKeys: Math.min(pageSize, limit - out.length) });
			for (const entry of page.entries) {
				if (out.length >= limit) break;
				out.push(entry.item);
			}
			if (!page.truncated || out.length >= limit) break;
			// The next page starts from the last entry listed (key or folder), which means the same
			// under both readings once a first entry equal to it is dropped. NextMarker is not used
			// while there is a last entry: S3 sets it to the last entry, while a service whose
			// listing starts AT the marker may set it to the first entry not yet returned.
			const last = page.entries.length ? page.entries[page.entries.length - 1].name : '';
			const next = last || page.nextMarker;
			if (!next || (marker && compareKeys(next, marker) <= 0)) {
				throw new NodeApiError(node, { transId: page.transId } as JsonObject, {
					message: 'The listing says more keys follow but gives no next position',
					description: `NextMarker was missing or did not advance past "${marker}" (X-Trans-Id ${page.transId}).`,
					itemIndex: i,
				});
			}
			marker = next;
		}
		return out;
	});
}

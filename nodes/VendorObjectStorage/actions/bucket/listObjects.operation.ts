import {
	NodeApiError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { storageRequest, xmlBody } from '../../../shared/storage/transport';
import { children, text } from '../../../shared/storage/xml';
import { bucketField, getBucket, owner, perItem, unquote } from '../../helpers/common';
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
				typeOptions: { minValue: 1, maxValue: 1000 },
				description: 'Max-keys of each request: how many objects and folders one page of the listing holds',
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
				description: 'Marker: the listing starts after this key',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['bucket'], operation: ['listObjects'] } }, properties);

/** Code-point order, the order the service lists in. */
function compare(a: string, b: string): number {
	const x = [...a];
	const y = [...b];
	for (let n = 0; n < Math.min(x.length, y.length); n++) {
		if (x[n] !== y[n]) return x[n].codePointAt(0)! < y[n].codePointAt(0)! ? -1 : 1;
	}
	return x.length - y.length;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(node, i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const pageSize = options.maxKeys === undefined ? 1000 : check.positiveInt(node, i, 'Page Size', options.maxKeys, 1, 1000);
		const prefix = options.prefix ? String(options.prefix) : '';
		const delimiter = options.delimiter ? String(options.delimiter) : '';
		let marker = options.marker ? String(options.marker) : '';

		const out: IDataObject[] = [];
		for (;;) {
			const query: Array<[string, string | number | undefined]> = [];
			if (delimiter) query.push(['delimiter', delimiter]);
			if (marker) query.push(['marker', marker]);
			query.push(['max-keys', Math.min(pageSize, limit - out.length)]);
			if (prefix) query.push(['prefix', prefix]);
			const res = await storageRequest(this, { method: 'GET', bucket, query, itemIndex: i });
			const doc = (await xmlBody(res)).ListBucketResult;
			const page: Array<{ name: string; item: IDataObject }> = [];
			for (const c of children(doc, 'Contents')) {
				const key = text(c, 'Key');
				page.push({
					name: key,
					item: {
						type: 'object',
						key,
						size: Number(text(c, 'Size')),
						lastModified: text(c, 'LastModified'),
						etag: unquote(text(c, 'ETag')),
						storageClass: text(c, 'StorageClass'),
						owner: owner(c.Owner),
					},
				});
			}
			for (const p of children(doc, 'CommonPrefixes')) {
				const folder = text(p, 'Prefix');
				page.push({ name: folder, item: { type: 'folder', prefix: folder } });
			}
			page.sort((a, b) => compare(a.name, b.name));
			for (const entry of page) {
				if (out.length >= limit) break;
				out.push(entry.item);
			}
			const truncated = text(doc, 'IsTruncated') === 'true';
			if (!truncated || out.length >= limit) break;
			const next = text(doc, 'NextMarker') || (page.length ? page[page.length - 1].name : '');
			if (!next || (marker && compare(next, marker) <= 0)) {
				throw new NodeApiError(node, { transId: res.transId } as JsonObject, {
					message: 'The listing says more keys follow but gives no next position',
					description: `NextMarker was missing or did not advance past "${marker}" (X-Trans-Id ${res.transId}).`,
					itemIndex: i,
				});
			}
			marker = next;
		}
		return out;
	});
}

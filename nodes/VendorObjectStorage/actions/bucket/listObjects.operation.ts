import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/dropdowns';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField } from '../../helpers/fields';
import { walkListing } from '../../helpers/listing';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'List objects',
	resource: 'bucket',
	operation: 'listObjects',
	name: 'List Objects',
	action: 'List files and folders in a bucket',
	description: 'List the files (objects) and folders of a bucket, optionally under a prefix',
	toolText: `Needs: ${TOOL_BUCKET}; optionally a Prefix (a folder such as reports/) and a Delimiter (/ lists one folder level). Returns one object per object (key, size, lastModified, etag) or folder (prefix), up to Limit.`,
	properties: [
		bucketField,
		...returnAllAndLimit(),
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
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(node, i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const pageSize = options.maxKeys === undefined ? 1000 : check.positiveInt(node, i, 'Page Size', options.maxKeys, 1, Number.MAX_SAFE_INTEGER);
		const prefix = options.prefix ? String(options.prefix) : '';
		const delimiter = options.delimiter ? String(options.delimiter) : '';
		const marker = options.marker ? String(options.marker) : '';

		const out: IDataObject[] = [];
		for await (const page of walkListing(this, i, bucket, { prefix, delimiter, marker, pageSize }, () => limit - out.length)) {
			for (const entry of page.entries) {
				if (out.length >= limit) break;
				out.push(entry.item);
			}
		}
		return out;
	});
}

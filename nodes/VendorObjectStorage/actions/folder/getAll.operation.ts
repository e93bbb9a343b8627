import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/dropdowns';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField } from '../../helpers/fields';
import { parentPrefix } from '../../helpers/folders';
import { walkListing } from '../../helpers/listing';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'List objects',
	resource: 'folder',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many folders',
	description: 'List the folders of a bucket, or the folders in a folder (one level)',
	toolText: `Needs: ${TOOL_BUCKET}; optionally Parent Folder (e.g. reports/; empty lists the top level). Returns one object per folder: folder (its key prefix, ending in /) and name.`,
	properties: [
		bucketField,
		{
			displayName: 'Parent Folder',
			name: 'parentFolder',
			type: 'string',
			default: '',
			placeholder: 'e.g. reports/2026/',
			description: 'List the folders in this folder; empty lists the folders at the top of the bucket',
		},
		...returnAllAndLimit(),
	],
	execute,
};

/** The folders of one level: the common prefixes of a listing with the delimiter "/" (docs/vendor/object-storage.md#listing). */
async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const parent = parentPrefix(node, i, this.getNodeParameter('parentFolder', i, ''), 'Parent Folder');
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(node, i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const out: IDataObject[] = [];
		// pages of 1000: objects between the folders take room in a page too
		for await (const page of walkListing(this, i, bucket, { prefix: parent, delimiter: '/' }, () => (out.length >= limit ? 0 : 1000))) {
			for (const entry of page.entries) {
				if (out.length >= limit) break;
				if (entry.item.type !== 'folder' || !entry.name.startsWith(parent) || entry.name === parent) continue;
				out.push({ bucket, folder: entry.name, name: entry.name.slice(parent.length, -1) });
			}
		}
		return out;
	});
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/dropdowns';
import { getSettings } from '../../../shared/storage/settings';
import { getBucket, getKey, perItem } from '../../helpers/common';
import { bucketField, keyField, uploadIdField } from '../../helpers/fields';
import { listParts } from '../../helpers/multipart';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY, TOOL_UPLOAD_ID } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'List parts',
	resource: 'multipartUpload',
	operation: 'listParts',
	name: 'List Parts',
	action: 'List the parts of a multipart upload',
	description: 'List the parts uploaded so far',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; ${TOOL_UPLOAD_ID}. Returns one object per uploaded part (part number, size, ETag).`,
	properties: [
		bucketField,
		keyField,
		uploadIdField,
		...returnAllAndLimit(),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Page Size',
					name: 'maxParts',
					type: 'number',
					default: 1000,
					typeOptions: { minValue: 1 },
					description: 'Max-parts of each request: how many parts one page of the listing holds',
					hint: 'The service may return fewer per page (S3 at most 1000); the node pages until done',
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
		const key = getKey(this, i);
		const uploadId = check.uploadId(node, i, this.getNodeParameter('uploadId', i, ''));
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(node, i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const pageSize = options.maxParts === undefined ? 1000 : check.positiveInt(node, i, 'Page Size', options.maxParts, 1, Number.MAX_SAFE_INTEGER);
		const settings = await getSettings(this, i);
		const parts = await listParts(this, { bucket, key, itemIndex: i, settings }, uploadId, limit, pageSize);
		return parts.map((p) => ({ ...p, uploadId }) as IDataObject);
	});
}

import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { bucketField, getBucket, getKey, keyField, perItem, uploadIdField } from '../../helpers/common';
import { listParts } from '../../helpers/multipart';
import * as check from '../../helpers/validate';

const properties: INodeProperties[] = [
	bucketField,
	keyField,
	uploadIdField,
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
];

export const description = updateDisplayOptions({ show: { resource: ['multipartUpload'], operation: ['listParts'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
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

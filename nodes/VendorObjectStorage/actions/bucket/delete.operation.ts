import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { storageRequest } from '../../../shared/storage/transport';
import { bucketField, getBucket, notice, perItem } from '../../helpers/common';

const properties: INodeProperties[] = [
	{ ...notice('The bucket must be empty: delete its objects and abort its multipart uploads first. This cannot be undone.'), name: 'deleteBucketNotice' },
	bucketField,
];

export const description = updateDisplayOptions({ show: { resource: ['bucket'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, itemIndex: i });
		return { deleted: true, bucket };
	});
}

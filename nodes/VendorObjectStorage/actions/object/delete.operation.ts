import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { storageRequest } from '../../../shared/storage/transport';
import { bucketField, getBucket, getExistingKey, existingKeyField, notice, perItem } from '../../helpers/common';

const properties: INodeProperties[] = [
	{ ...notice('The object is deleted for good: buckets keep no versions.'), name: 'deleteObjectNotice' },
	bucketField,
	existingKeyField,
];

export const description = updateDisplayOptions({ show: { resource: ['object'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, key, itemIndex: i });
		return { deleted: true, bucket, key };
	});
}

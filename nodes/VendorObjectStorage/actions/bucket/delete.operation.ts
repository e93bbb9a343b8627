import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { storageRequest } from '../../../shared/storage/transport';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField, notice } from '../../helpers/fields';
import { TOOL_BUCKET, TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Delete bucket',
	resource: 'bucket',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete a bucket',
	description: 'Delete an empty bucket',
	toolText: `Needs: ${TOOL_BUCKET}; it must be empty. Returns {deleted: true} with the bucket's name. ${TOOL_CONFIRM}`,
	properties: [
		{ ...notice('The bucket must be empty: delete its objects and abort its multipart uploads first. This cannot be undone.'), name: 'deleteBucketNotice' },
		bucketField,
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, itemIndex: i });
		return { deleted: true, bucket };
	});
}

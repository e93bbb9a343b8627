import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { storageRequest } from '../../../shared/storage/transport';
import { getBucket, getExistingKey, perItem } from '../../helpers/common';
import { bucketField, existingKeyField, notice } from '../../helpers/fields';
import { TOOL_BUCKET, TOOL_CONFIRM, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Delete object',
	resource: 'object',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete a file',
	description: 'Delete a file',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}. Returns {deleted: true} with the bucket and key. ${TOOL_CONFIRM}`,
	properties: [
		{ ...notice('The object is deleted; the vendor documents no versioning, so do not count on an earlier version to restore.'), name: 'deleteObjectNotice' },
		bucketField,
		existingKeyField,
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, key, itemIndex: i });
		return { deleted: true, bucket, key };
	});
}

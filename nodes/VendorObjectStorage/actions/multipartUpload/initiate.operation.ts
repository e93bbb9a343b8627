import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { bucketField, getBucket, getKey, keyField, objectHeaderFields, objectHeaders, perItem } from '../../helpers/common';
import { initiateUpload } from '../../helpers/multipart';

const properties: INodeProperties[] = [bucketField, keyField, objectHeaderFields];

export const description = updateDisplayOptions({ show: { resource: ['multipartUpload'], operation: ['initiate'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const settings = await getSettings(this, i);
		const { headers } = objectHeaders(this, i, settings, 'application/octet-stream');
		const uploadId = await initiateUpload(this, { bucket, key, itemIndex: i, settings }, headers);
		return { bucket, key, uploadId };
	});
}

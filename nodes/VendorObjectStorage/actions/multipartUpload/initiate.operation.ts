import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { getBucket, getKey, objectHeaders, perItem } from '../../helpers/common';
import { bucketField, keyField, objectHeaderFields } from '../../helpers/fields';
import { initiateUpload } from '../../helpers/multipart';
import { TOOL_BUCKET, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Initiate multipart upload',
	resource: 'multipartUpload',
	operation: 'initiate',
	name: 'Initiate',
	action: 'Initiate a multipart upload',
	description: 'Start a multipart upload and get its upload ID',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}. Returns the upload ID (uploadId) the other multipart operations take.`,
	properties: [bucketField, keyField, objectHeaderFields],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const settings = await getSettings(this, i);
		// Content-Type only when set: the documentation gives Initiate no default type
		const { headers } = objectHeaders(this, i, settings, '');
		const uploadId = await initiateUpload(this, { bucket, key, itemIndex: i, settings }, headers);
		return { bucket, key, uploadId };
	});
}

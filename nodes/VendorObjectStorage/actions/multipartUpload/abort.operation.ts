import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { getBucket, getKey, perItem } from '../../helpers/common';
import { bucketField, keyField, notice, uploadIdField } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_CONFIRM, TOOL_KEY, TOOL_UPLOAD_ID } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Abort multipart upload',
	resource: 'multipartUpload',
	operation: 'abort',
	name: 'Abort',
	action: 'Abort a multipart upload',
	description: 'Cancel a multipart upload and discard its parts',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; ${TOOL_UPLOAD_ID}. Returns {aborted: true} with the upload ID; the parts are discarded. ${TOOL_CONFIRM}`,
	properties: [
		{ ...notice('Aborting discards every part uploaded so far; the upload cannot be completed afterwards.'), name: 'abortNotice' },
		bucketField,
		keyField,
		uploadIdField,
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const uploadId = check.uploadId(this.getNode(), i, this.getNodeParameter('uploadId', i, ''));
		const settings = await getSettings(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, key, query: [[settings.uploadIdParam, uploadId]], itemIndex: i });
		return { aborted: true, bucket, key, uploadId };
	});
}

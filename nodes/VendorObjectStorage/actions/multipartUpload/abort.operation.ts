import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { bucketField, getBucket, getKey, keyField, notice, perItem, uploadIdField } from '../../helpers/common';
import * as check from '../../helpers/validate';

const properties: INodeProperties[] = [
	{ ...notice('Aborting discards every part uploaded so far; the upload cannot be completed afterwards.'), name: 'abortNotice' },
	bucketField,
	keyField,
	uploadIdField,
];

export const description = updateDisplayOptions({ show: { resource: ['multipartUpload'], operation: ['abort'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const uploadId = check.uploadId(this.getNode(), i, this.getNodeParameter('uploadId', i, ''));
		const settings = await getSettings(this, i);
		await storageRequest(this, { method: 'DELETE', bucket, key, query: [[settings.uploadIdParam, uploadId]], itemIndex: i });
		return { aborted: true, bucket, key, uploadId };
	});
}

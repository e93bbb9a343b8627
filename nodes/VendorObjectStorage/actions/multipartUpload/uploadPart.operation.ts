import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/transport';
import { bucketField, getBucket, getKey, keyField, perItem, unquote, uploadIdField } from '../../helpers/common';
import { uploadPart } from '../../helpers/multipart';
import * as check from '../../helpers/validate';

const properties: INodeProperties[] = [
	bucketField,
	keyField,
	uploadIdField,
	{
		displayName: 'Part Number',
		name: 'partNumber',
		type: 'number',
		default: 1,
		required: true,
		typeOptions: { minValue: 1, maxValue: 10000 },
		description: 'Position of this part in the object, 1 to 10000; every part but the last should be at least 5 MiB',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field holding the bytes of this part',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['multipartUpload'], operation: ['uploadPart'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const uploadId = check.uploadId(node, i, this.getNodeParameter('uploadId', i, ''));
		const partNumber = check.partNumber(node, i, this.getNodeParameter('partNumber', i, 1));
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data'));
		this.helpers.assertBinaryData(i, property);
		const data = await this.helpers.getBinaryDataBuffer(i, property);
		const settings = await getSettings(this, i);
		const started = Date.now();
		const etag = await uploadPart(this, { bucket, key, itemIndex: i, settings }, uploadId, partNumber, data);
		return { bucket, key, uploadId, partNumber, etag: unquote(etag), size: data.length, durationMs: Date.now() - started };
	});
}

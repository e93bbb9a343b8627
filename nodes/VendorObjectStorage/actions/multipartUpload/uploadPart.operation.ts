import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { getBucket, getKey, perItem, unquote } from '../../helpers/common';
import { bucketField, keyField, uploadIdField } from '../../helpers/fields';
import { sendPart } from '../../helpers/multipart';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY, TOOL_UPLOAD_ID } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Upload part',
	resource: 'multipartUpload',
	operation: 'uploadPart',
	name: 'Upload Part',
	action: 'Upload a part of a multipart upload',
	description: 'Upload one numbered part of a multipart upload from a binary field',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; ${TOOL_UPLOAD_ID}; Part Number (1-10000); the part's content in a binary field of the input. Returns the bucket, key, upload ID, part number, the part's MD5 and its ETag when the service sends one (Complete then takes it from List Parts).`,
	properties: [
		bucketField,
		keyField,
		uploadIdField,
		{
			displayName: 'Part Number',
			name: 'partNumber',
			type: 'number',
			default: 1,
			required: true,
			typeOptions: { minValue: 1 },
			description: 'Position of this part in the object, from 1',
			hint: 'S3 services accept part numbers up to 10000 and want every part but the last to be at least 5 MiB',
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
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const uploadId = check.uploadId(node, i, this.getNodeParameter('uploadId', i, ''));
		const partNumber = check.partNumber(node, i, this.getNodeParameter('partNumber', i, 1));
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data'));
		check.inputFile(this, i, property);
		const data = await this.helpers.getBinaryDataBuffer(i, property);
		const settings = await getSettings(this, i);
		const started = Date.now();
		const sent = await sendPart(this, { bucket, key, itemIndex: i, settings }, uploadId, partNumber, data);
		// etag: the service's ETag header (only when it sent one); md5: of the bytes sent, computed here.
		const json: IDataObject = { bucket, key, uploadId, partNumber };
		if (sent.etag !== undefined) json.etag = unquote(sent.etag);
		Object.assign(json, { md5: sent.md5, size: data.length, durationMs: Date.now() - started });
		return json;
	});
}

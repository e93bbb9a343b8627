import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getBucket, getExistingKey, perItem } from '../../helpers/common';
import { downloadObject } from '../../helpers/download';
import { bucketField, existingKeyField } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Get object',
	resource: 'object',
	operation: 'download',
	name: 'Download',
	action: 'Download a file',
	description: 'Download a file into a binary field, whole or a byte range, optionally on a condition',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}. Returns the bucket, key and size; the content goes to a binary field, which an AI model cannot read: use Get Presigned URL to hand out a link instead.`,
	properties: [
		bucketField,
		existingKeyField,
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			placeholder: 'e.g. data',
			hint: 'The name of the output binary field to put the file in',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. report.csv',
					description: 'Name of the output file, one line; defaults to the last segment of the key',
				},
				{
					displayName: 'If Match',
					name: 'ifMatch',
					type: 'string',
					default: '',
					placeholder: 'e.g. 9b2cf535f27731c974343645a3985328',
					description: 'Download only when the object still has this ETag; otherwise the node fails (412)',
				},
				{
					displayName: 'If Modified Since',
					name: 'ifModifiedSince',
					type: 'dateTime',
					default: '',
					description: 'Download only when the object changed after this time; otherwise the item says notModified (304)',
				},
				{
					displayName: 'If None Match',
					name: 'ifNoneMatch',
					type: 'string',
					default: '',
					placeholder: 'e.g. 9b2cf535f27731c974343645a3985328',
					description: 'Download only when the ETag differs from this one; otherwise the item says notModified (304)',
				},
				{
					displayName: 'If Unmodified Since',
					name: 'ifUnmodifiedSince',
					type: 'dateTime',
					default: '',
					description: 'Download only when the object has not changed since this time; otherwise the node fails (412)',
				},
				{
					displayName: 'Range',
					name: 'range',
					type: 'string',
					default: '',
					placeholder: 'e.g. bytes=0-99',
					description: 'Only these bytes: first-last position, both included; bytes=-100 gives the last 100',
				},
			],
		},
	],
	execute,
};

function etagCondition(raw: unknown): string {
	return String(raw)
		.split(',')
		.map((t) => t.trim())
		.filter(Boolean)
		.map((t) => (t === '*' || t.startsWith('"') || t.startsWith('W/') ? t : `"${t}"`))
		.join(', ');
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data')).trim();
		if (!property) throw check.inputError(node, i, 'The "Put Output File in Field" field is empty', 'Name the binary field, e.g. data.');
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const headers: Record<string, string> = {};
		if (options.range) headers.Range = check.range(node, i, options.range);
		if (options.ifModifiedSince) headers['If-Modified-Since'] = check.httpDate(node, i, 'If Modified Since', options.ifModifiedSince);
		if (options.ifUnmodifiedSince) headers['If-Unmodified-Since'] = check.httpDate(node, i, 'If Unmodified Since', options.ifUnmodifiedSince);
		if (options.ifMatch) headers['If-Match'] = etagCondition(check.headerValue(node, i, 'If Match', options.ifMatch));
		if (options.ifNoneMatch) headers['If-None-Match'] = etagCondition(check.headerValue(node, i, 'If None Match', options.ifNoneMatch));
		const fileName = options.fileName ? check.fileName(node, i, 'File Name', options.fileName) : undefined;
		const { json, binary } = await downloadObject(this, { bucket, key, headers, fileName, itemIndex: i });
		return binary ? { json, binary: { [property]: binary } } : json;
	});
}

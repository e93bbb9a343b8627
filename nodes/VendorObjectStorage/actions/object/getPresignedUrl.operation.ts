import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { serviceNow } from '../../../shared/storage/clock';
import { getSettings } from '../../../shared/storage/settings';
import { presignedUrl } from '../../../shared/storage/signer';
import { getBucket, getExistingKey, perItem } from '../../helpers/common';
import { bucketField, existingKeyField, notice } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Get object',
	local: true,
	resource: 'object',
	operation: 'getPresignedUrl',
	name: 'Get Presigned URL',
	action: 'Get a presigned URL to share a file',
	description: 'Make a time-limited URL that downloads or uploads a file without credentials',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; Expires In (Seconds). Returns the URL, its method and when it expires (expiresAt); anyone with the URL can download (or, with the PUT method, upload) the object until then.`,
	properties: [
		{
			...notice(
				'The URL is signed on this machine and not checked with the service: a wrong access key or secret still gives a URL, which the service then refuses (SignatureDoesNotMatch). Open it once to test it.',
			),
			name: 'presignNotice',
		},
		bucketField,
		existingKeyField,
		{
			displayName: 'Method',
			name: 'method',
			type: 'options',
			options: [
				{ name: 'GET (Download)', value: 'GET', description: 'The URL downloads the object' },
				{ name: 'PUT (Upload)', value: 'PUT', description: 'The URL uploads a file to the key' },
			],
			default: 'GET',
			description: 'What the holder of the URL may do',
		},
		{
			displayName: 'Expires In (Seconds)',
			name: 'expiresIn',
			type: 'number',
			default: 3600,
			typeOptions: { minValue: 1 },
			description: 'How long the URL stays valid, in seconds',
			hint: 'S3 services refuse URLs valid for more than 7 days (604800 seconds); the vendor documents no limit',
		},
		{
			displayName: 'Content Type',
			name: 'contentType',
			type: 'string',
			default: '',
			placeholder: 'e.g. image/png',
			description: 'Content-Type the uploader must send with the PUT; leave empty to allow an upload without one',
			displayOptions: { show: { method: ['PUT'] } },
		},
	],
	execute,
};

/** Signs locally; sends no request. The URL's signature is its purpose; the secret never leaves. */
async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		const method = String(this.getNodeParameter('method', i, 'GET')) === 'PUT' ? 'PUT' : 'GET';
		const expiresIn = check.expirySeconds(node, i, this.getNodeParameter('expiresIn', i, 3600));
		const contentType = method === 'PUT' ? check.headerValue(node, i, 'Content Type', this.getNodeParameter('contentType', i, '')) : '';
		const settings = await getSettings(this, i);
		const expires = Math.floor(serviceNow(settings.endpoint) / 1000) + expiresIn;
		const url = presignedUrl({
			endpoint: settings.endpoint,
			method,
			bucket,
			key,
			accessKey: settings.accessKey,
			secret: settings.accessSecret,
			expires,
			profile: settings.profile,
			keyParam: settings.presignKeyParam,
			headers: contentType ? { 'Content-Type': contentType } : {},
		});
		const json: IDataObject = { url, method, bucket, key, expiresAt: new Date(expires * 1000).toISOString(), expiresIn };
		if (contentType) json.contentType = contentType;
		return json;
	});
}

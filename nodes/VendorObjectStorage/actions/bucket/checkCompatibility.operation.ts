import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getBucket, perItem } from '../../helpers/common';
import { checkCompatibility, scratchPrefix } from '../../helpers/compat';
import { bucketField, notice } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Put object',
	uses: ['Put object', 'Get object', 'List objects', 'Get bucket ACL', 'Initiate multipart upload', 'List parts', 'Upload part', 'Complete multipart upload', 'Abort multipart upload', 'Delete object'],
	resource: 'bucket',
	operation: 'checkCompatibility',
	name: 'Verify Compatibility',
	action: 'Verify compatibility with the service in a bucket',
	description: 'Probe which readings of the documentation the service follows, under a scratch prefix it removes; outputs the settings to use',
	toolText: `Needs: ${TOOL_BUCKET} (a scratch bucket may be made and removed). Returns one object per finding and a summary with the settings to use.`,
	properties: [
		{
			...notice(
				'Tries the readings the vendor documentation leaves open, in the bucket you name: it writes small objects and two multipart uploads (about 10 MiB) under a scratch prefix and removes them afterwards. Outputs one item per finding, then the credential settings to use.',
			),
			name: 'compatibilityNotice',
		},
		bucketField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'First Part Size (MiB)',
					name: 'firstPartSize',
					type: 'number',
					default: 5,
					typeOptions: { minValue: 0.001, numberPrecision: 3 },
					description: 'Size of part 1 of each test upload; S3 services refuse a first part under 5 MiB',
				},
				{
					displayName: 'Probe ACL in a Scratch Bucket',
					name: 'scratchBucket',
					type: 'boolean',
					default: false,
					description:
						'Whether to create a temporary public-read bucket (n8n-compat-…), read its ACL and delete it, to tell whether the service lists grants other than FULL_CONTROL',
				},
				{
					displayName: 'Scratch Prefix',
					name: 'prefix',
					type: 'string',
					default: '',
					placeholder: 'e.g. n8n-compat/',
					description: 'Folder the test objects go under, removed afterwards. Default: n8n-compat- and a random suffix.',
				},
			],
		},
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		let prefix = options.prefix ? check.objectKey(node, i, String(options.prefix), 'Scratch Prefix') : scratchPrefix();
		if (!prefix.endsWith('/')) prefix = `${prefix}/`;
		const firstPartMiB = check.positiveNumber(node, i, 'First Part Size (MiB)', options.firstPartSize ?? 5, 0.001, 5120);
		return await checkCompatibility(this, {
			bucket,
			prefix,
			firstPartBytes: Math.max(1, Math.round(firstPartMiB * 1024 * 1024)),
			scratchBucket: options.scratchBucket === true,
			itemIndex: i,
		});
	});
}

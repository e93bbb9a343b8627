import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField } from '../../helpers/fields';
import { folderPrefix } from '../../helpers/folders';
import { putObject } from '../../helpers/put';
import { TOOL_BUCKET } from '../../tool';
import type { StorageOperation } from '../types';

export const folderField = {
	displayName: 'Folder',
	name: 'folder',
	type: 'string' as const,
	default: '',
	required: true,
	placeholder: 'e.g. reports/2026/',
	hint: 'A folder is a key prefix ending in "/"; the node adds the "/" when it is missing',
};

export const operation: StorageOperation = {
	endpoint: 'Put object',
	resource: 'folder',
	operation: 'create',
	name: 'Create',
	action: 'Create a folder',
	description: 'Create an empty folder (an empty object whose key ends in "/"), so it shows in listings before anything is put in it',
	toolText: `Needs: ${TOOL_BUCKET}; Folder: its path, e.g. reports/2026/. Returns {created: true} with the bucket and the folder's key. Creating a folder that exists changes nothing.`,
	properties: [bucketField, { ...folderField, description: 'Path of the new folder; parent folders need not exist' }],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const folder = folderPrefix(this.getNode(), i, this.getNodeParameter('folder', i, ''));
		const settings = await getSettings(this, i);
		const written = await putObject(this, { bucket, key: folder, itemIndex: i, settings, headers: { 'Content-Type': 'application/x-directory' } }, Buffer.alloc(0));
		return { created: true, bucket, folder, ...(written.etag !== undefined ? { etag: written.etag } : {}) };
	});
}

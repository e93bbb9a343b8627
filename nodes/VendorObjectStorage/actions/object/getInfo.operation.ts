import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { getBucket, getExistingKey, perItem } from '../../helpers/common';
import { bucketField, existingKeyField } from '../../helpers/fields';
import { infoFields, objectInfo } from '../../helpers/objectInfo';
import { TOOL_BUCKET, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Get object',
	uses: ['List objects', 'Get object'],
	resource: 'object',
	operation: 'getInfo',
	name: 'Get Info',
	action: 'Get info about a file',
	description: 'Get the size, type, ETag, last change and metadata of a file without downloading it',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}. Returns size (bytes), contentType, etag, lastModified and metadata; fails with NoSuchKey when there is no such object. Lists the key and reads one byte, so it is cheap also for large files.`,
	properties: [bucketField, existingKeyField],
	execute,
};

/**
 * The documentation has no HEAD and names no Content-Range: the listing entry of the key gives
 * the size, ETag and LastModified, a GET of the first byte the other headers
 * (helpers/objectInfo.ts; an empty object works too, and so does a key that may not list).
 */
async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		const settings = await getSettings(this, i);
		const info = await objectInfo(this, i, bucket, key);
		return { bucket, key, ...infoFields(info, settings) };
	});
}

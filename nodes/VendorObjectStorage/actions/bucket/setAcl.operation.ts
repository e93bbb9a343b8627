import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField, CANNED_ACLS, notice } from '../../helpers/fields';
import { TOOL_BUCKET, TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Set bucket ACL',
	resource: 'bucket',
	operation: 'setAcl',
	name: 'Set ACL',
	action: 'Set the ACL of a bucket',
	description: 'Replace the access control of a bucket with a canned ACL',
	toolText: `Needs: ${TOOL_BUCKET}; ACL: private, public-read or public-read-write. Returns the bucket's name and the ACL set. ${TOOL_CONFIRM}`,
	properties: [
		{ ...notice('The chosen ACL replaces every grant the bucket has now.'), name: 'setAclNotice' },
		bucketField,
		{
			displayName: 'ACL',
			name: 'acl',
			type: 'options',
			options: CANNED_ACLS,
			default: 'private',
			required: true,
			description: 'Canned access control that replaces the current one',
		},
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const acl = String(this.getNodeParameter('acl', i, 'private'));
		const settings = await getSettings(this, i);
		await storageRequest(this, {
			method: 'PUT',
			bucket,
			query: [['acl', undefined]],
			headers: { [`${settings.profile.headerPrefix}acl`]: acl },
			itemIndex: i,
		});
		return { bucket, acl };
	});
}

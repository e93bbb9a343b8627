import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { bucketField, CANNED_ACLS, getBucket, notice, perItem } from '../../helpers/common';

const properties: INodeProperties[] = [
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
];

export const description = updateDisplayOptions({ show: { resource: ['bucket'], operation: ['setAcl'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
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

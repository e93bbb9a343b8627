import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { perItem } from '../../helpers/common';
import { CANNED_ACLS } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Create bucket',
	resource: 'bucket',
	operation: 'create',
	name: 'Create',
	action: 'Create bucket',
	description: 'Create a bucket with a canned ACL',
	toolText: `Needs: Bucket Name (lower-case letters, digits, dots and hyphens); ACL: private, public-read or public-read-write. Returns {created: true} with the bucket's name and ACL.`,
	properties: [
		{
			displayName: 'Bucket Name',
			name: 'bucketName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. my-bucket',
			description: 'Name of the new bucket, unique across the service',
			hint: 'S3-compatible services usually want 3-63 lower-case letters, digits, dots and hyphens; the service says if it refuses the name',
		},
		{
			displayName: 'ACL',
			name: 'acl',
			type: 'options',
			options: CANNED_ACLS,
			default: 'private',
			description: 'Canned access control of the bucket',
		},
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = check.bucketName(this.getNode(), i, this.getNodeParameter('bucketName', i, ''), 'Bucket Name');
		const acl = String(this.getNodeParameter('acl', i, 'private'));
		const settings = await getSettings(this, i);
		const res = await storageRequest(this, {
			method: 'PUT',
			bucket,
			headers: { [`${settings.profile.headerPrefix}acl`]: acl },
			itemIndex: i,
		});
		// The documented answer is an empty 200: the item holds the request's own values, and the
		// Location header only when the service sent one.
		const json: IDataObject = { created: true, bucket, acl };
		if (res.headers.location) json.location = res.headers.location;
		return json;
	});
}

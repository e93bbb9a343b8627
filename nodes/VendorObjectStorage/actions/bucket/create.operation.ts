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
	action: 'Create a bucket',
	description: 'Create a bucket with a canned ACL',
	toolText: `Needs: Bucket Name (lower-case letters, digits, dots and hyphens); optional ACL: private, public-read, public-read-write or authenticated-read (not sent when empty: the service's default). Returns {created: true} with the bucket's name and the ACL sent.`,
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
			// alphabetical, as n8n's lint asks; the default is stated, not taken from the order
			options: [
				...CANNED_ACLS,
				{ name: 'Not Sent (Service Default)', value: '', description: 'No ACL header: the service applies its own default (the documentation says buckets are private by default)' },
			].sort((a, b) => a.name.localeCompare(b.name)),
			default: '',
			description: 'Canned access control of the bucket, sent as the ACL header only when chosen',
		},
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = check.bucketName(this.getNode(), i, this.getNodeParameter('bucketName', i, ''), 'Bucket Name');
		const acl = String(this.getNodeParameter('acl', i, ''));
		const settings = await getSettings(this, i);
		const res = await storageRequest(this, {
			method: 'PUT',
			bucket,
			// the header is optional: sent only when the user chose an ACL
			headers: acl ? { [`${settings.profile.headerPrefix}acl`]: acl } : {},
			itemIndex: i,
		});
		// The documented answer is an empty 200: the item holds the request's own values (the ACL
		// only when one was sent), and the Location header only when the service sent one.
		const json: IDataObject = { created: true, bucket };
		if (acl) json.acl = acl;
		if (res.headers.location) json.location = res.headers.location;
		return json;
	});
}

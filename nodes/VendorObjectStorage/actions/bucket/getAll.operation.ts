import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/dropdowns';
import { listBuckets } from '../../helpers/buckets';
import { perItem } from '../../helpers/common';
import { notice } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'List buckets (GET /, not in the documentation)',
	undocumented: 'R17',
	resource: 'bucket',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many buckets',
	description: "List the buckets of the credential's account",
	toolText:
		'Needs nothing (optionally Limit). Returns one object per bucket: name and creationDate. Fails with a clear message on a service that does not list buckets; then ask the user for the bucket name.',
	properties: [
		{
			...notice("Listing buckets is not part of the vendor's documented interface: a service that does not answer it gives a clear error, and bucket names can always be typed."),
			name: 'getAllBucketsNotice',
		},
		...returnAllAndLimit(),
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? Infinity : check.positiveInt(this.getNode(), i, 'Limit', this.getNodeParameter('limit', i, 50), 1, Number.MAX_SAFE_INTEGER);
		const buckets = await listBuckets(this, i);
		return buckets.slice(0, limit).map((b) => ({ ...b }) as IDataObject);
	});
}

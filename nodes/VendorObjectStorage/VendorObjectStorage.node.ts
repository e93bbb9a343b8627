import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { operationSubtitle } from '../shared/subtitle';
import { router } from './actions/router';
import { objectStorageArea } from './area';
import { searchBuckets, searchObjects } from './methods/listSearch';
import { storageProperties } from './properties';

export class VendorObjectStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Object Storage',
		name: 'vendorObjectStorage',
		icon: { light: 'file:../../icons/objectStorage.svg', dark: 'file:../../icons/objectStorage.dark.svg' },
		group: ['transform'],
		version: [1],
		defaultVersion: 1,
		subtitle: operationSubtitle(objectStorageArea),
		description: 'Store, fetch and share files in vendor object storage buckets; large files stream in parallel parts',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-object-storage.md#vendor-object-storage',
		defaults: { name: 'Vendor Object Storage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorObjectStorageApi', required: true }],
		properties: storageProperties(objectStorageArea),
	};

	methods = { listSearch: { searchBuckets, searchObjects } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { buildMethods, buildProperties, executeArea } from '../shared/api/build';
import { nodeVersions, versionedProperties } from '../shared/api/versions';
import { operationSubtitle } from '../shared/subtitle';
import { withToolDescriptions } from '../shared/api/tool-text';
import { cloudHostArea } from './area';

export class VendorCloudHost implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Cloud Host',
		name: 'vendorCloudHost',
		icon: { light: 'file:../../icons/cloudHost.svg', dark: 'file:../../icons/cloudHost.dark.svg' },
		group: ['transform'],
		...nodeVersions(cloudHostArea),
		subtitle: operationSubtitle(cloudHostArea),
		description: 'Create, power, reinstall and resize cloud hosts, read their monitoring, and manage their disks, backups and snapshots',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-cloud-host.md#vendor-cloud-host',
		defaults: { name: 'Vendor Cloud Host' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: versionedProperties(cloudHostArea, (area) => withToolDescriptions(area, buildProperties(area))),
	};

	methods = buildMethods(cloudHostArea);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, cloudHostArea);
	}
}

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
import { cdnArea } from './area';

export class VendorCdn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor CDN',
		name: 'vendorCdn',
		icon: { light: 'file:../../icons/cdn.svg', dark: 'file:../../icons/cdn.dark.svg' },
		group: ['transform'],
		...nodeVersions(cdnArea),
		subtitle: operationSubtitle(cdnArea),
		description: 'Manage CDN channels, certificates, cache refresh and prefetch, traffic packages, statistics and bills',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-cdn.md#vendor-cdn',
		defaults: { name: 'Vendor CDN' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: versionedProperties(cdnArea, (area) => withToolDescriptions(area, buildProperties(area))),
	};

	methods = buildMethods(cdnArea);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, cdnArea);
	}
}

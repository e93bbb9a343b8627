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
import { dnsArea } from './area';

export class VendorDns implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor DNS',
		name: 'vendorDns',
		icon: { light: 'file:../../icons/dns.svg', dark: 'file:../../icons/dns.dark.svg' },
		group: ['transform'],
		...nodeVersions(dnsArea),
		subtitle: operationSubtitle(dnsArea),
		description: 'Manage vendor DNS domains, records, downtime monitors, strategy templates and resolution strategies',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-dns.md#vendor-dns',
		defaults: { name: 'Vendor DNS' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: versionedProperties(dnsArea, (area) => withToolDescriptions(area, buildProperties(area))),
	};

	methods = buildMethods(dnsArea);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, dnsArea);
	}
}

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
import { diskNetworkFirewallArea } from './area';

export class VendorDiskNetworkFirewall implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Disk, Network & Firewall',
		name: 'vendorDiskNetworkFirewall',
		icon: { light: 'file:../../icons/network.svg', dark: 'file:../../icons/network.dark.svg' },
		group: ['transform'],
		...nodeVersions(diskNetworkFirewallArea),
		subtitle: operationSubtitle(diskNetworkFirewallArea),
		description: 'Manage vendor cloud disks, private networks, firewalls and firewall rules, and attach them to hosts',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/nodes/vendor-disk-network-firewall.md#vendor-disk-network--firewall',
		defaults: { name: 'Vendor Disk, Network & Firewall' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: versionedProperties(diskNetworkFirewallArea, (area) => withToolDescriptions(area, buildProperties(area))),
	};

	methods = buildMethods(diskNetworkFirewallArea);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, diskNetworkFirewallArea);
	}
}

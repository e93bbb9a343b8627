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

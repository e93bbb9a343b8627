import type { ApiArea } from '../shared/api/declarations';
import { cloudDiskOperations } from './resources/cloudDisk';
import { firewallOperations } from './resources/firewall';
import { firewallRuleOperations } from './resources/firewallRule';
import { networkOperations } from './resources/network';

/** Cloud disks, private networks, firewalls and their rules: the 22 disk-network-firewall rows of endpoints.tsv. */
export const diskNetworkFirewallArea: ApiArea = {
	node: 'vendorDiskNetworkFirewall',
	versions: [1],
	defaultResource: 'cloudDisk',
	defaultOperations: {
		cloudDisk: 'getAll',
		firewall: 'getAll',
		firewallRule: 'getAll',
		network: 'getAll',
	},
	resources: [
		{ value: 'cloudDisk', name: 'Cloud Disk', description: 'Data disks that are attached to and detached from hosts' },
		{ value: 'firewall', name: 'Firewall', description: 'Security groups that hosts join' },
		{ value: 'firewallRule', name: 'Firewall Rule', description: 'Accept and reject rules of a firewall' },
		{ value: 'network', name: 'Private Network', description: 'Private networks that connect hosts of one data center' },
	],
	operations: [...cloudDiskOperations, ...networkOperations, ...firewallOperations, ...firewallRuleOperations],
};

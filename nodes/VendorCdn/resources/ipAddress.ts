import type { IDataObject } from 'n8n-workflow';

import type { OperationDecl } from '../../shared/api/declarations';
import { payload } from '../../shared/api/envelope';
import { checked, list, required } from '../../shared/api/fields';

export const ipAddressOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/queryVmIp',
		path: 'cdn/queryVmIp',
		resource: 'ipAddress',
		operation: 'getLocation',
		name: 'Get Location',
		action: 'Get the location of IP addresses',
		description: 'Look up the country, area, province, city and ISP of IP addresses, one item per address',
		readOnly: true,
		fields: [
			required(checked(list('ip', 'IP Addresses', 'Addresses to look up, one per line or comma-separated', { placeholder: 'e.g. 203.0.113.45' }), { kind: 'ipList' })),
		],
		output: (envelope) => {
			const p = (payload(envelope) ?? {}) as IDataObject;
			return Object.entries(p).map(([ip, where]) => ({ ip, ...((where ?? {}) as IDataObject) }));
		},
	},
];

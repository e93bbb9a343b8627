import type { IDataObject } from 'n8n-workflow';

import type { OperationDecl } from '../../shared/api/declarations';
import { payload } from '../../shared/api/envelope';
import { checked, choice, required, str } from '../../shared/api/fields';

const channelName = (description: string) => ({ ...str('name', 'Channel', description), kind: 'options' as const, optionsFrom: 'channelName' });

export const serviceNodeOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/nodes',
		path: 'cdn/nodes',
		resource: 'serviceNode',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many service nodes',
		description: 'List the IP addresses of the core or edge nodes that serve a channel',
		list: { paged: false },
		readOnly: true,
		fields: [
			{ ...channelName("Channel whose nodes are listed; left empty, no channel is sent (the vendor's documentation does not say what the service then lists)"), topLevel: true },
			required(
				choice('type', 'Node Type', [
					{ name: 'Core', value: 'core' },
					{ name: 'Edge', value: 'edge' },
				], undefined, { default: 'edge' }),
			),
		],
		output: (envelope) => {
			const p = payload(envelope);
			return Array.isArray(p) ? p.map((ip) => ({ ip }) as IDataObject) : [];
		},
	},
	{
		endpoint: 'cdn/getNodesByClientIP',
		path: 'cdn/getNodesByClientIP',
		resource: 'serviceNode',
		operation: 'getForClient',
		name: 'Get for Client',
		action: 'Get service nodes for a client',
		description: 'Find which nodes of a channel serve a given client IP address, and their ISPs',
		readOnly: true,
		answersOneObject: true,
		fields: [
			required(checked(str('client_ip', 'Client IP', 'IP address of the client', { placeholder: 'e.g. 203.0.113.45' }), { kind: 'ip' })),
			required(channelName('The channel the client requests')),
			{ wire: 'absolute', displayName: 'Exact Node Only', kind: 'boolean', topLevel: true, description: 'Whether to return only the node that serves the client exactly' },
		],
	},
];

import type { OperationDecl } from '../../shared/api/declarations';
import { id, nameStr, required, str } from '../../shared/api/fields';
import { field, first, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { dataCentre, host, network } from './common';

/**
 * Simplified private networks: as listed, and as the actions answer them (the documents give
 * Create and Update the listed fields with `nodeid` for `node`; Delete `vxnet_id`, Join and Leave
 * `vxnet_id` with the host's `instance_id`).
 */
export const NETWORK_SIMPLE: SimplifySpec = {
	id: field('id'),
	networkId: field('vxnet_id'),
	name: field('name'),
	dataCentre: field('node.areaname'),
	dataCentreId: first('node.id', 'nodeid'),
	tag: field('tag'),
	// `num` and `username` as the documentation lists them, without a meaning it does not give
	count: number('num'),
	username: field('username'),
	note: field('note'),
	created: time('createtime'),
};

/** What the actions answer, simplified like a listed one. */
export const NETWORK_ACTION_SIMPLE: SimplifySpec = { ...NETWORK_SIMPLE, hostInstanceId: field('instance_id') };

export const networkOperations: OperationDecl[] = [
	{
		endpoint: 'instance/networkList',
		path: 'instance/networkList',
		resource: 'network',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many private networks',
		description: 'List private networks, optionally of one data center',
		list: { paged: true },
		readOnly: true,
		simplify: NETWORK_SIMPLE,
		fields: [id('id', 'Network ID', 'Only the network with this ID'), { ...dataCentre('Only networks in this data center'), required: false }],
	},
	{
		endpoint: 'instance/networkAdd',
		path: 'instance/networkAdd',
		simplify: NETWORK_ACTION_SIMPLE,
		resource: 'network',
		operation: 'create',
		name: 'Create',
		action: 'Create a private network',
		description: 'Create a private network in a data center',
		fields: [
			dataCentre('Data center of the network'),
			required(nameStr('name', 'Name', 'Name of the network', { placeholder: 'e.g. backend' })),
			str('note', 'Note', 'Remark'),
		],
	},
	{
		endpoint: 'instance/networkUpdate',
		path: 'instance/networkUpdate',
		simplify: NETWORK_ACTION_SIMPLE,
		resource: 'network',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a private network',
		description: 'Rename a private network or change its note',
		fields: [network('id', 'The network to change'), nameStr('name', 'Name', 'New name'), str('note', 'Note', 'New remark')],
	},
	{
		endpoint: 'instance/networkDelete',
		path: 'instance/networkDelete',
		simplify: NETWORK_ACTION_SIMPLE,
		resource: 'network',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a private network',
		description: 'Delete a private network',
		notice: "The private network is deleted; the vendor's documentation does not say what becomes of hosts in it",
		deletes: true,
		fields: [network('id', 'The network to delete')],
	},
	{
		endpoint: 'instance/joinVxnet',
		path: 'instance/joinVxnet',
		simplify: NETWORK_ACTION_SIMPLE,
		resource: 'network',
		operation: 'join',
		name: 'Join',
		action: 'Add a host to a private network',
		description: 'Put a host into a private network',
		fields: [network('id', 'The network the host joins'), host('iid', 'The host that joins the network')],
	},
	{
		endpoint: 'instance/leaveVxnet',
		path: 'instance/leaveVxnet',
		simplify: NETWORK_ACTION_SIMPLE,
		resource: 'network',
		operation: 'leave',
		name: 'Leave',
		action: 'Remove a host from its private network',
		description: 'Take a host out of the private network it is in',
		notice: 'The host leaves the private network',
		fields: [host('id', 'The host that leaves its network')],
	},
];

import type { OperationDecl } from '../../shared/api/declarations';
import { id, nameStr, required, str } from '../../shared/api/fields';
import { field, first, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { dataCentre, firewall, host } from './common';

/**
 * Simplified firewalls: as listed, and as the actions answer them (the documents give Create and
 * Update the listed fields with `nodeid` for `node`; Delete, Join and Leave `firewall_id` and
 * `name`, Join and Leave with the host's `instance_id`).
 */
export const FIREWALL_SIMPLE: SimplifySpec = {
	id: field('id'),
	firewallId: field('firewall_id'),
	name: field('name'),
	dataCentre: field('node.areaname'),
	dataCentreId: first('node.id', 'nodeid'),
	// `num` and `username` as the documentation lists them, without a meaning it does not give
	count: number('num'),
	username: field('username'),
	note: field('note'),
	updated: time('updatetime'),
	created: time('createtime'),
};

/** What the actions answer, simplified like a listed one. */
export const FIREWALL_ACTION_SIMPLE: SimplifySpec = { ...FIREWALL_SIMPLE, hostInstanceId: field('instance_id') };

export const firewallOperations: OperationDecl[] = [
	{
		endpoint: 'instance/firewallList',
		path: 'instance/firewallList',
		resource: 'firewall',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many firewalls',
		description: 'List firewalls (security groups), optionally of one data center',
		list: { paged: true },
		readOnly: true,
		simplify: FIREWALL_SIMPLE,
		fields: [id('id', 'Firewall ID', 'Only the firewall with this ID'), { ...dataCentre('Only firewalls in this data center'), required: false }],
	},
	{
		endpoint: 'instance/firewallAdd',
		path: 'instance/firewallAdd',
		simplify: FIREWALL_ACTION_SIMPLE,
		resource: 'firewall',
		operation: 'create',
		name: 'Create',
		action: 'Create a firewall',
		description: 'Create a firewall (security group) in a data center; add rules and hosts to it afterwards',
		fields: [
			dataCentre('Data center of the firewall'),
			required(nameStr('name', 'Name', 'Name of the firewall', { placeholder: 'e.g. web-sg' })),
			str('note', 'Note', 'Remark'),
		],
	},
	{
		endpoint: 'instance/firewallUpdate',
		path: 'instance/firewallUpdate',
		simplify: FIREWALL_ACTION_SIMPLE,
		resource: 'firewall',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a firewall',
		description: 'Rename a firewall or change its note',
		fields: [firewall('id', 'The firewall to change'), nameStr('name', 'Name', 'New name'), str('note', 'Note', 'New remark')],
	},
	{
		endpoint: 'instance/firewallDelete',
		path: 'instance/firewallDelete',
		simplify: FIREWALL_ACTION_SIMPLE,
		resource: 'firewall',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a firewall',
		description: 'Delete a firewall',
		notice: "The firewall is deleted; the vendor's documentation does not say what becomes of its rules and of hosts under it",
		deletes: true,
		fields: [firewall('id', 'The firewall to delete')],
	},
	{
		endpoint: 'instance/joinFirewall',
		path: 'instance/joinFirewall',
		simplify: FIREWALL_ACTION_SIMPLE,
		resource: 'firewall',
		operation: 'join',
		name: 'Join',
		action: 'Add a host to a firewall',
		description: 'Put a host under a firewall',
		fields: [firewall('fid', 'The firewall the host joins'), host('iid', 'The host that joins the firewall')],
	},
	{
		endpoint: 'instance/leaveFirewall',
		path: 'instance/leaveFirewall',
		simplify: FIREWALL_ACTION_SIMPLE,
		resource: 'firewall',
		operation: 'leave',
		name: 'Leave',
		action: 'Remove a host from its firewall',
		description: 'Take a host out of the firewall it is in; its rules no longer apply to the host',
		notice: "The firewall's rules stop applying to the host",
		fields: [host('id', 'The host that leaves its firewall')],
	},
];

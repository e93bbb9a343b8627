import type { IDataObject } from 'n8n-workflow';

import type { OperationDecl } from '../../shared/api/declarations';
import { payload } from '../../shared/api/transport';
import { locator, locators, required, str } from '../../shared/api/fields';
import { field, first, time } from '../../shared/api/simplify';

export const groupOperations: OperationDecl[] = [
	{
		endpoint: 'profile/groupList',
		path: 'profile/groupList',
		resource: 'group',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many groups',
		description: 'List the permission groups of sub-accounts',
		list: { paged: true },
		read: true,
		fields: [str('name', 'Name', 'Only groups whose name contains this text')],
		simplify: { id: field('id'), name: field('name'), note: field('note'), owner: field('username'), created: time('created') },
	},
	{
		endpoint: 'profile/groupAdd',
		path: 'profile/groupAdd',
		resource: 'group',
		operation: 'create',
		name: 'Create',
		action: 'Create a group',
		description: 'Create a permission group for sub-accounts',
		fields: [required(str('name', 'Name', 'Name of the group')), str('note', 'Note', 'Remark')],
	},
	{
		endpoint: 'profile/groupUpdate',
		path: 'profile/groupUpdate',
		resource: 'group',
		operation: 'update',
		name: 'Update',
		action: 'Update a group',
		description: 'Rename a permission group or change its note',
		fields: [locator('id', 'group', 'Group', 'The group to change'), str('name', 'Name', 'New name'), str('note', 'Note', 'New remark')],
	},
	{
		endpoint: 'profile/groupDelete',
		path: 'profile/groupDelete',
		resource: 'group',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a group',
		description: 'Delete a permission group',
		notice: 'Deleting a group also deletes its permission entries; move its sub-accounts to another group first',
		deletes: true,
		fields: [locator('id', 'group', 'Group', 'The group to delete')],
	},
];

export const groupPermissionOperations: OperationDecl[] = [
	{
		endpoint: 'profile/groupPermissions',
		path: 'profile/groupPermissions',
		resource: 'groupPermission',
		operation: 'getCatalogue',
		name: 'Get Catalogue',
		action: 'Get the permission catalogue',
		description: 'List every permission path that can be granted, one item per module',
		list: { paged: false },
		read: true,
		output: (envelope) => Object.values((payload(envelope) ?? {}) as IDataObject).map((m) => m as IDataObject),
	},
	{
		endpoint: 'profile/groupRoleList',
		path: 'profile/groupRoleList',
		resource: 'groupPermission',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many group permissions',
		description: 'List the permissions granted to a group',
		list: { paged: false },
		read: true,
		fields: [locator('gid', 'group', 'Group', 'The group whose permissions are listed')],
		simplify: { id: field('id'), permission: field('value'), group: field('group.name'), groupId: first('group.id', 'gid'), created: time('created') },
	},
	{
		endpoint: 'profile/groupRoleAdd',
		path: 'profile/groupRoleAdd',
		resource: 'groupPermission',
		operation: 'add',
		name: 'Add',
		action: 'Add permissions to a group',
		description: 'Grant a group one or more permission paths such as API/cdn/refresh',
		fields: [
			locator('gid', 'group', 'Group', 'The group that gets the permissions'),
			{ ...locators('value', 'permissionPath', 'Permissions', 'Permission paths to grant'), send: 'array' },
		],
	},
	{
		endpoint: 'profile/groupRoleUpdate',
		path: 'profile/groupRoleUpdate',
		resource: 'groupPermission',
		operation: 'update',
		name: 'Update',
		action: 'Update a group permission',
		description: 'Replace the permission path of one permission entry',
		fields: [
			locator('gid', 'group', 'Group', 'The group of the entry'),
			locator('id', 'groupRole', 'Permission Entry', 'The entry to change'),
			{ ...locator('value', 'permissionPath', 'Permission', 'The new permission path'), send: 'string' },
		],
	},
	{
		endpoint: 'profile/groupRoleDelete',
		path: 'profile/groupRoleDelete',
		resource: 'groupPermission',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete group permissions',
		description: 'Remove one or more permission entries from a group',
		notice: 'Sub-accounts of the group lose these permissions at once',
		deletes: true,
		fields: [
			{ ...locator('gid', 'group', 'Group', 'The group whose entries are listed (not sent)'), top: true, required: false, local: true },
			locators('id', 'groupRole', 'Permission Entries', 'Entries to delete'),
		],
	},
];

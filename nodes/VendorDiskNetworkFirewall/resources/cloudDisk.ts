import { CLOUD_DISK_STATUS, CODES } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { checked, choice, count, locator, locators, nameStr, required, str } from '../../shared/api/fields';
import { code, field, first, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { detachDisk } from '../detach';
import { dataCentre, host, requireIdList } from './common';

const disk = (description: string) => locator('id', 'cloudDisk', 'Cloud Disk', description, { param: 'diskId' });

/**
 * Simplified cloud disks: as listed, and as the actions answer them (the documents give Create
 * `id`, `disk_name`, `nodeid`, `note`, `value`; Delete `disk_id` and `disk_name`; Attach and
 * Detach those with the host's `instance_id` and `name`, the disk's name being `disk_name`).
 */
export const CLOUD_DISK_SIMPLE: SimplifySpec = {
	id: field('id'),
	diskId: field('disk_id'),
	name: field('disk_name'),
	sizeGb: number('value'),
	status: code('status', CODES.cloudDiskStatus),
	dataCentre: field('node.areaname'),
	dataCentreId: first('node.id', 'nodeid'),
	host: first('instance.name', 'name'),
	hostId: field('instance.id'),
	hostInstanceId: first('instance.instance_id', 'instance_id'),
	note: field('note'),
	updated: time('updatetime'),
	created: time('createtime'),
};

/** What the actions answer, simplified like a listed one. */
export const CLOUD_DISK_ACTION_SIMPLE: SimplifySpec = { ...CLOUD_DISK_SIMPLE, message: field('message') };

export const cloudDiskOperations: OperationDecl[] = [
	{
		endpoint: 'instance/cloudDiskList',
		path: 'instance/cloudDiskList',
		resource: 'cloudDisk',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many cloud disks',
		description: 'List cloud disks, optionally of one data center, one host or one status',
		list: { paged: true },
		readOnly: true,
		simplify: CLOUD_DISK_SIMPLE,
		fields: [
			{ ...dataCentre('Only disks in this data center'), required: false },
			{ ...host('iid', 'Only disks bound to this host'), required: false },
			choice('status', 'Status', CLOUD_DISK_STATUS, 'Only disks in this status', { default: 0 }),
		],
	},
	{
		endpoint: 'instance/cloudDiskAdd',
		path: 'instance/cloudDiskAdd',
		simplify: CLOUD_DISK_ACTION_SIMPLE,
		resource: 'cloudDisk',
		operation: 'create',
		name: 'Create',
		action: 'Create a cloud disk',
		description: 'Create a cloud disk (size in GB, a multiple of 10) in a data center',
		fields: [
			dataCentre('Data center of the disk'),
			required(nameStr('disk_name', 'Name', 'Name of the disk', { placeholder: 'e.g. db-data' })),
			required(checked(count('value', 'Size (GB)', 'a size', 'Size in GB, a multiple of 10; the service sets the smallest and largest size', { default: 10 }), { kind: 'multipleOf', n: 10 })),
			str('note', 'Note', 'Remark'),
		],
	},
	{
		endpoint: 'instance/cloudDiskUpdate',
		path: 'instance/cloudDiskUpdate',
		simplify: CLOUD_DISK_ACTION_SIMPLE,
		resource: 'cloudDisk',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a cloud disk',
		description: 'Rename a cloud disk or change its note',
		fields: [disk('The disk to change'), nameStr('disk_name', 'Name', 'New name'), str('note', 'Note', 'New remark')],
	},
	{
		endpoint: 'instance/cloudDiskDelete',
		path: 'instance/cloudDiskDelete',
		simplify: CLOUD_DISK_ACTION_SIMPLE,
		resource: 'cloudDisk',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a cloud disk',
		description: 'Move a cloud disk to the recycle bin, where it is kept for 2 hours',
		notice: 'The disk and its data go to the recycle bin, where they are kept for 2 hours',
		deletes: true,
		fields: [disk('The disk to delete')],
	},
	{
		endpoint: 'instance/cloudDiskBind',
		path: 'instance/cloudDiskBind',
		simplify: CLOUD_DISK_ACTION_SIMPLE,
		resource: 'cloudDisk',
		operation: 'attach',
		name: 'Attach',
		action: 'Attach cloud disks to a host',
		description: 'Attach one or more cloud disks to a host',
		fields: [
			{ ...locators('id', 'cloudDisk', 'Cloud Disks', 'Disks to attach'), param: 'diskIds', send: 'comma' },
			host('iid', 'The host that gets the disks'),
		],
		prepare: (body) => requireIdList(body, 'id', 'Cloud Disks'),
	},
	{
		endpoint: 'instance/unbind',
		path: 'instance/unbind',
		simplify: CLOUD_DISK_ACTION_SIMPLE,
		resource: 'cloudDisk',
		operation: 'detach',
		name: 'Detach',
		action: 'Detach a cloud disk from its host',
		description: 'Detach a cloud disk from the host it is bound to',
		notice: 'The host loses access to the disk; unmount it inside the host first',
		fields: [disk('The disk to detach')],
		// instance/unbind, or the documentation's example path when the service has no such endpoint (detach.ts)
		run: detachDisk,
	},
];

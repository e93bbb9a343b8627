import { HOST_DISK_STATUS } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { choice, count, locator, required } from '../../shared/api/fields';
import { field, number, time, type SimplifySpec } from '../../shared/api/simplify';

/** Simplified host disks: as listed, and as Resize answers them (`iid`, `instance_id`, `disk_id`, `value`). */
export const HOST_DISK_SIMPLE: SimplifySpec = {
	id: field('id'),
	diskId: field('disk_id'),
	name: field('disk_name'),
	// no documented meaning for a host disk's `type` (docs/vendor/readings.md#r5): shown as it came
	type: field('type'),
	// diskList and diskResize state no unit for `value`: the documents' word
	value: number('value'),
	hostId: field('iid'),
	updated: time('updatetime'),
	created: time('createtime'),
	hostInstanceId: field('instance_id'),
};

export const hostDiskOperations: OperationDecl[] = [
	{
		endpoint: 'instance/diskList',
		path: 'instance/diskList',
		resource: 'hostDisk',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many host disks',
		description: 'List the system and data disks of one host or of every host, with their sizes',
		list: { paged: true },
		readOnly: true,
		fields: [
			{ ...locator('iid', 'host', 'Host', 'Only disks of this host; leave empty for the disks of all hosts'), required: false, topLevel: true },
			choice('status', 'Status', HOST_DISK_STATUS, 'Only disks in this state', { default: 0 }),
		],
		simplify: HOST_DISK_SIMPLE,
	},
	{
		endpoint: 'instance/diskResize',
		path: 'instance/diskResize',
		resource: 'hostDisk',
		operation: 'resize',
		name: 'Resize',
		action: 'Resize a host disk',
		description: 'Give one disk of a host a new size',
		simplify: HOST_DISK_SIMPLE,
		fields: [
			{ ...locator('iid', 'host', 'Host', 'Narrows the disk list below to this host (not sent)'), required: false, topLevel: true, notSent: true },
			locator('id', 'hostDisk', 'Disk', 'The disk to resize'),
			required(count('value', 'Size', 'a size', "New size of the disk, in the unit the service uses (the vendor's documentation names none for diskResize; it sizes the disks of Change Configuration in GB)", { default: 50 })),
		],
	},
];

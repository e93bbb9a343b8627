import type { OperationDecl } from '../../shared/api/declarations';
import { choice, int, locator, required } from '../../shared/api/fields';

const HOST_DISK_STATUS = [
	{ name: 'Bound', value: 0 },
	{ name: 'Available', value: 1 },
	{ name: 'Recycle Bin', value: 2 },
];

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
		read: true,
		fields: [
			{ ...locator('iid', 'host', 'Host', 'Only disks of this host; leave empty for the disks of all hosts'), required: false, top: true },
			choice('status', 'Status', HOST_DISK_STATUS, 'Only disks in this state'),
		],
	},
	{
		endpoint: 'instance/diskResize',
		path: 'instance/diskResize',
		resource: 'hostDisk',
		operation: 'resize',
		name: 'Resize',
		action: 'Resize a host disk',
		description: 'Enlarge one disk of a host to a new size in G',
		fields: [
			{ ...locator('iid', 'host', 'Host', 'Narrows the disk list below to this host (not sent)'), required: false, top: true, local: true },
			locator('id', 'hostDisk', 'Disk', 'The disk to enlarge'),
			required(int('value', 'Size (G)', 'New size in G; a disk can only grow', { default: 50 })),
		],
	},
];

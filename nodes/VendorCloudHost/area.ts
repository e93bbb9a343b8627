import type { ApiArea } from '../shared/api/declarations';
import { backupOperations } from './resources/backup';
import { cpuPackageOperations } from './resources/cpuPackage';
import { dataCentreOperations } from './resources/dataCentre';
import { hostOperations } from './resources/host';
import { hostDiskOperations } from './resources/hostDisk';
import { imageOperations } from './resources/image';
import { lineOperations } from './resources/line';
import { memoryPackageOperations } from './resources/memoryPackage';
import { snapshotOperations } from './resources/snapshot';

/** Cloud hosts and their resources: the 28 cloud-host rows of endpoints.tsv. */
export const cloudHostArea: ApiArea = {
	node: 'vendorCloudHost',
	versions: [1, 1.1],
	defaultResource: 'host',
	defaultOperations: {
		host: 'getAll',
		backup: 'getAll',
		cpuPackage: 'getAll',
		dataCentre: 'getAll',
		hostDisk: 'getAll',
		image: 'getAll',
		line: 'getAll',
		memoryPackage: 'getAll',
		snapshot: 'getAll',
	},
	resources: [
		{ value: 'host', name: 'Host', description: 'Cloud hosts: create, power, reinstall, resize, console and monitoring' },
		{ value: 'backup', name: 'Backup', description: 'Backups of hosts and restoring from them' },
		{ value: 'cpuPackage', name: 'CPU Package', description: 'CPU sizes a host can have' },
		{ value: 'dataCentre', name: 'Data Center', description: 'Data centers where hosts run' },
		{ value: 'hostDisk', name: 'Host Disk', description: 'System and data disks of hosts' },
		{ value: 'image', name: 'Image', description: 'Operating system images' },
		{ value: 'line', name: 'Line', description: 'Network lines offered in a data center' },
		{ value: 'memoryPackage', name: 'Memory Package', description: 'Memory sizes a host can have' },
		{ value: 'snapshot', name: 'Snapshot', description: 'Snapshots of hosts and rolling back to them' },
	],
	operations: [
		...hostOperations,
		...dataCentreOperations,
		...cpuPackageOperations,
		...memoryPackageOperations,
		...lineOperations,
		...imageOperations,
		...hostDiskOperations,
		...backupOperations,
		...snapshotOperations,
	],
};

import type { OperationDecl } from '../../shared/api/declarations';
import { field, number } from '../../shared/api/simplify';

export const cpuPackageOperations: OperationDecl[] = [
	{
		endpoint: 'instance/cpuResourceList',
		path: 'instance/cpuResourceList',
		resource: 'cpuPackage',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many CPU packages',
		description: 'List the CPU packages (number of cores) a host can have, with their IDs',
		list: { paged: false },
		readOnly: true,
		simplify: { id: field('id'), cpus: number('volume'), status: field('status') },
	},
];

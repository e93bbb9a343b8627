import type { OperationDecl } from '../../shared/api/declarations';
import { field } from '../../shared/api/simplify';

export const memoryPackageOperations: OperationDecl[] = [
	{
		endpoint: 'instance/memResourceList',
		path: 'instance/memResourceList',
		resource: 'memoryPackage',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many memory packages',
		description: 'List the memory packages (memory sizes) a host can have, with their IDs',
		list: { paged: false },
		readOnly: true,
		simplify: { id: field('id'), memory: field('volume'), status: field('status') },
	},
];

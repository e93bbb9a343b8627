import type { OperationDecl } from '../../shared/api/declarations';
import { field } from '../../shared/api/simplify';

export const dataCentreOperations: OperationDecl[] = [
	{
		endpoint: 'instance/nodeList',
		path: 'instance/nodeList',
		resource: 'dataCentre',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many data centers',
		description: 'List the data centers where hosts can be created, with their IDs and status',
		list: { paged: false },
		readOnly: true,
		simplify: { id: field('id'), name: field('areaname'), status: field('status') },
	},
];

import type { OperationDecl } from '../../shared/api/declarations';
import { locator } from '../../shared/api/fields';

export const lineOperations: OperationDecl[] = [
	{
		endpoint: 'instance/networkResourceList',
		path: 'instance/networkResourceList',
		resource: 'line',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many lines',
		description: 'List the network lines (inner network, carriers, BGP) offered in a data centre, with their IDs',
		list: { paged: false },
		read: true,
		fields: [locator('nodeid', 'dataCentre', 'Data Centre', 'The data centre whose lines are listed')],
	},
];

import type { OperationDecl } from '../../shared/api/declarations';

export const accelerationProfileOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/profileDetail',
		path: 'cdn/profileDetail',
		resource: 'accelerationProfile',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many acceleration profiles',
		description: 'List the acceleration types the account may use, with their billing types',
		list: { paged: false },
		read: true,
	},
];

import { CODES } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { code } from '../../shared/api/simplify';

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
		readOnly: true,
		simplify: { type: code('type', CODES.accelerationType, 'type_zh'), billingType: code('billtype', {}, 'billtype_zh') },
	},
];

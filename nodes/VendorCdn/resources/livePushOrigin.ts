import type { OperationDecl } from '../../shared/api/declarations';
import { ACCELERATION_TYPES } from '../../shared/api/codes';
import { choice, str } from '../../shared/api/fields';

export const livePushOriginOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/getLivePushOrigin',
		path: 'cdn/getLivePushOrigin',
		resource: 'livePushOrigin',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many live push origins',
		description: 'List the channels a live stream can be pushed to',
		list: { paged: false },
		readOnly: true,
		fields: [
			str('domain', 'Domain', 'Only channels whose domain contains this text', { placeholder: 'e.g. live.example.com' }),
			choice('type', 'Acceleration Type', ACCELERATION_TYPES, 'Acceleration type of the channels (usually Live); another value the service knows can be entered as an expression', { default: 'live', allowOtherValues: true }),
		],
	},
];

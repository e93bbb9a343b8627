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
			str('domain', 'Domain', "Domain to ask about, sent as the request's domain; the vendor's documentation does not say how the service matches it", { placeholder: 'e.g. live.example.com' }),
			choice('type', 'Acceleration Type', ACCELERATION_TYPES, 'Acceleration type of the channels, such as Live; another value the service knows can be entered as an expression', { default: 'live', allowOtherValues: true }),
		],
	},
];

import type { OperationDecl } from '../../shared/api/declarations';
import { date, locator, str } from '../../shared/api/fields';

export const channelLogOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/domainLogList',
		path: 'cdn/domainLogList',
		resource: 'channelLog',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many channel log files',
		description: 'List the access log files of a channel with their download addresses',
		list: { paged: true },
		readOnly: true,
		fields: [
			locator('id', 'channel', 'Channel', 'The channel whose log files are listed'),
			str('dir', 'Directory', 'Only log files in this directory', { placeholder: 'e.g. 20261122' }),
			date('begintime', 'From', 'Only log files from this day on'),
			date('endtime', 'To', 'Only log files up to this day'),
		],
	},
];

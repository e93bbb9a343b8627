import type { OperationDecl } from '../../shared/api/declarations';
import { choice, locators } from '../../shared/api/fields';

export const taskOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/refreshList',
		path: 'cdn/refreshList',
		resource: 'task',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many tasks',
		description: 'List cache refresh and prefetch tasks, newest first',
		list: { paged: true },
		read: true,
		fields: [
			{ ...locators('domain_ids', 'channel', 'Channels', 'Only tasks with URLs of these channels'), required: false },
			choice('preload', 'Kind', [
				{ name: 'Cache Refresh', value: 0 },
				{ name: 'Prefetch', value: 1 },
			], 'Only refreshes or only prefetches'),
			choice('type', 'Type', [
				{ name: 'File', value: 'file' },
				{ name: 'Directory', value: 'dir' },
			], 'Only file or only directory tasks'),
		],
	},
	{
		endpoint: 'cdn/refreshDelete',
		path: 'cdn/refreshDelete',
		resource: 'task',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete tasks',
		description: 'Delete cache refresh or prefetch tasks from the task list',
		notice: 'Deleted tasks disappear from the task list and cannot be repeated',
		deletes: true,
		fields: [locators('ids', 'cdnTask', 'Tasks', 'The tasks to delete')],
	},
];

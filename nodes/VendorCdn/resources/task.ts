import { CODES, TASK_KINDS, TASK_TYPES } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { choice, locators } from '../../shared/api/fields';
import { code, field, flag, number, time } from '../../shared/api/simplify';

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
		readOnly: true,
		fields: [
			{ ...locators('domain_ids', 'channel', 'Channels', 'Only tasks with URLs of these channels'), required: false },
			choice('preload', 'Task Kind', TASK_KINDS, 'Only refreshes or only prefetches', { default: 0 }),
			choice('type', 'Type', TASK_TYPES, 'Only file or only directory tasks', { default: 'file' }),
		],
		simplify: {
			id: field('id'),
			kind: code('preload', CODES.taskKind),
			type: code('type', CODES.taskType),
			status: code('status', CODES.taskStatus),
			urls: field('urls'),
			urlCount: number('objectnum'),
			nodes: code('preloadtype', CODES.prefetchNodes),
			viaApi: flag('is_api'),
			created: time('created'),
		},
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

import { CODES, TASK_KINDS, TASK_TYPES } from '../../shared/api/codes';
import type { OperationDecl, SimpleField } from '../../shared/api/declarations';
import { choice, locators } from '../../shared/api/fields';
import { code, field, flag, number, time } from '../../shared/api/simplify';

const statusWord = code('status', CODES.taskStatus);
/**
 * A task's `status` in words. The documentation words status 0 "refreshing"; a prefetch task
 * (`preload` 1) at 0 is shown as "Not Completed", which is all that 0 says of it.
 */
const taskStatus: SimpleField = {
	read: (r, ctx) => (String(r.preload) === '1' && String(r.status) === '0' ? 'Not Completed' : statusWord.read(r, ctx)),
	code: statusWord.code,
};

export const taskOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/refreshList',
		path: 'cdn/refreshList',
		resource: 'task',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many tasks',
		description: 'List cache refresh and prefetch tasks',
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
			status: taskStatus,
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
		notice: 'The tasks are deleted from the task list',
		deletes: true,
		fields: [locators('ids', 'cdnTask', 'Tasks', 'The tasks to delete')],
	},
];

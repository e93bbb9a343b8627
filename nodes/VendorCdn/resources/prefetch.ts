import { PREFETCH_NODES } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { choice, locator, locators, required } from '../../shared/api/fields';
import { statusIds, statusRecords, waitExtras, waitForTask } from '../tasks';
import { prepareUrls } from '../urls';
import { checkChannelsField, separatorField, urlsField, urlsInTextField } from './common';

export const prefetchOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/preload',
		path: 'cdn/preload',
		resource: 'prefetch',
		operation: 'create',
		name: 'Create',
		action: 'Prefetch files into the CDN cache',
		description: 'Fetch files from the origin into the CDN cache before users ask for them',
		fields: [
			required(
				choice('preloadtype', 'Nodes to Fill', PREFETCH_NODES, 'Which nodes fetch the files', { default: 1 }),
			),
			urlsField('URLs of the files to prefetch, one per line'),
			separatorField,
			checkChannelsField,
			urlsInTextField,
		],
		prepare: prepareUrls,
		extras: waitExtras,
		after: waitForTask('cdn/preloadStatus', 'prefetch'),
	},
	{
		endpoint: 'cdn/preloadById',
		path: 'cdn/preloadById',
		resource: 'prefetch',
		operation: 'repeat',
		name: 'Repeat',
		action: 'Repeat a prefetch',
		description: 'Submit the URLs of an earlier prefetch again, as a new task',
		fields: [locator('id', 'prefetchTask', 'Prefetch Task', 'The earlier prefetch to repeat')],
		extras: waitExtras,
		after: waitForTask('cdn/preloadStatus', 'prefetch'),
	},
	{
		endpoint: 'cdn/preloadStatus',
		path: 'cdn/preloadStatus',
		resource: 'prefetch',
		operation: 'getStatus',
		name: 'Get Status',
		action: 'Get the status of prefetches',
		description: 'Get whether prefetch tasks are processing, succeeded or failed, one item per task',
		readOnly: true,
		fields: [locators('id', 'prefetchTask', 'Prefetch Tasks', 'The prefetch tasks to check')],
		prepare: statusIds,
		output: statusRecords,
	},
];

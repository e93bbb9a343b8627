import type { OperationDecl } from '../../shared/api/declarations';
import { choice, locator, locators, required } from '../../shared/api/fields';
import { statusIds, statusRecords, waitExtras, waitForTask } from '../tasks';
import { prepareUrls } from '../urls';
import { checkChannelsField, separatorField, urlsField, urlsInTextField } from './common';

export const cacheRefreshOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/refresh',
		path: 'cdn/refresh',
		resource: 'cacheRefresh',
		operation: 'create',
		name: 'Create',
		action: 'Purge cached files with a cache refresh',
		description: 'Purge cached files or directories on the CDN nodes so they are fetched from the origin again',
		fields: [
			required(
				choice('type', 'Type', [
					{ name: 'File', value: 'file' },
					{ name: 'Directory', value: 'dir' },
				], 'Whether the URLs are files or directories', { default: 'file' }),
			),
			urlsField('URLs of the files or directories to refresh, one per line'),
			separatorField,
			checkChannelsField,
			urlsInTextField,
		],
		prepare: prepareUrls,
		extras: waitExtras,
		after: waitForTask('cdn/refreshStatus', 'cache refresh'),
	},
	{
		endpoint: 'cdn/refreshById',
		path: 'cdn/refreshById',
		resource: 'cacheRefresh',
		operation: 'repeat',
		name: 'Repeat',
		action: 'Repeat a cache refresh',
		description: 'Submit the URLs of an earlier cache refresh again, as a new task',
		fields: [locator('id', 'refreshTask', 'Refresh Task', 'The earlier refresh to repeat')],
		extras: waitExtras,
		after: waitForTask('cdn/refreshStatus', 'cache refresh'),
	},
	{
		endpoint: 'cdn/refreshStatus',
		path: 'cdn/refreshStatus',
		resource: 'cacheRefresh',
		operation: 'getStatus',
		name: 'Get Status',
		action: 'Get the status of cache refreshes',
		description: 'Get whether cache refresh tasks are processing, succeeded or failed, one item per task',
		readOnly: true,
		fields: [locators('id', 'refreshTask', 'Refresh Tasks', 'The refresh tasks to check')],
		prepare: statusIds,
		output: statusRecords,
	},
];

import { NodeOperationError, sleep, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { InputError } from '../../shared/api/build';
import type { FieldDecl, OperationContext, OperationDecl } from '../../shared/api/declarations';
import { checked, choice, list, locator, locators, required, str } from '../../shared/api/fields';
import { apiRequest, payload, type Envelope } from '../../shared/api/transport';

/** The URL list: one URL per line (commas stay inside a URL), joined with the separator when sent. */
export const urlsField = (description: string): FieldDecl =>
	required({
		...list('urls', 'URLs', `${description}; full addresses such as https://www.example.com/index.html`, { placeholder: 'e.g. https://www.example.com/index.html' }),
		lines: true,
		send: 'array',
	});

export const separatorField = checked(
	str('partition', 'Separator', 'Character the URLs are joined with when sent (default a comma); no URL may contain it', { default: ',' }),
	{ kind: 'singleChar' },
);

/** Joins the URLs with the separator, refusing a URL that contains it. */
export function joinUrls(body: IDataObject): IDataObject {
	if (body.partition === '') delete body.partition;
	const sep = typeof body.partition === 'string' ? body.partition : ',';
	const urls = (body.urls as string[]) ?? [];
	const bad = urls.findIndex((u) => u.includes(sep));
	if (bad >= 0) {
		throw new InputError(
			`Invalid "URLs": URL ${bad + 1} contains the separator "${sep}" (${urls[bad]})`,
			'Set "Separator" in Additional Fields to a character that appears in none of the URLs, such as | or a space.',
		);
	}
	return { ...body, urls: urls.join(sep) };
}

/** "Wait for Completion" and its timing, shown after the fields of submitting operations. */
export const waitExtras: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to wait until the task has finished; the output item then also has "outcome": success or failed, as the status query answered (its "status" stays as the service returned the task)',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		default: 300,
		typeOptions: { minValue: 1 },
		description: 'How long to wait before stopping with an error',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		description: 'How often the status of the task is checked',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
];

/** `[{ "<id>": "success" | "failed" | "processing", ... }]` as one item per task. */
export function statusRecords(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	const maps = (Array.isArray(p) ? p : [p]).filter((m) => typeof m === 'object' && m !== null) as IDataObject[];
	return maps.flatMap((m) => Object.entries(m).map(([id, status]) => ({ id, status })));
}

/** Sends one id as a number and several as the comma-separated string the seed describes. */
export function statusIds(body: IDataObject): IDataObject {
	const ids = (body.id as number[]) ?? [];
	return { ...body, id: ids.length === 1 ? ids[0] : ids.join(',') };
}

/**
 * The `after` hook of operations that submit a task: with Wait for Completion on, polls the
 * status endpoint until the task is `success` or `failed` (both reported in the item) or the
 * timeout passes (an error naming the task).
 */
export function waitForTask(statusPath: string, what: string) {
	return async (records: IDataObject[], ctx: OperationContext): Promise<IDataObject[]> => {
		if (!ctx.param<boolean>('waitForCompletion', false)) return records;
		const timeoutSeconds = Number(ctx.param('waitTimeout', 300));
		const intervalMs = Math.max(100, Number(ctx.param('pollInterval', 5)) * 1000);
		const node = ctx.fn.getNode();
		const out: IDataObject[] = [];
		for (const task of records) {
			const id = String(task.id ?? '');
			if (!/^\d+$/.test(id)) {
				throw new NodeOperationError(node, `The service answered without a task ID, so the ${what} cannot be followed`, { itemIndex: ctx.itemIndex });
			}
			const deadline = Date.now() + timeoutSeconds * 1000;
			let status = 'processing';
			for (;;) {
				const remaining = deadline - Date.now();
				if (remaining <= 0) {
					throw new NodeOperationError(node, `The ${what} task ${id} did not finish within ${timeoutSeconds} seconds`, {
						itemIndex: ctx.itemIndex,
						description: `The task is still processing. Check it later with the Get Status operation (task ${id}), or raise the timeout.`,
					});
				}
				await sleep(Math.min(intervalMs, remaining));
				const envelope = await apiRequest(ctx.fn, statusPath, { id: Number(id) }, { itemIndex: ctx.itemIndex, read: true });
				const hit = statusRecords(envelope).find((r) => String(r.id) === id);
				status = String(hit?.status ?? 'processing').trim().toLowerCase();
				if (status === 'success' || status === 'failed') break;
			}
			// the task keeps its own `status` ("0"/"1" as the service sent it); the result of the wait is its own field
			out.push({ ...task, outcome: status });
		}
		return out;
	};
}

export const cacheRefreshOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/refresh',
		path: 'cdn/refresh',
		resource: 'cacheRefresh',
		operation: 'create',
		name: 'Create',
		action: 'Create a cache refresh',
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
		],
		prepare: joinUrls,
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
		read: true,
		fields: [locators('id', 'refreshTask', 'Refresh Tasks', 'The refresh tasks to check')],
		prepare: statusIds,
		output: statusRecords,
	},
];

/**
 * CDN tasks (cache refreshes and prefetches) after they were submitted: their status query
 * (one item per task), and the "Wait for Completion" option that follows a task until it
 * succeeded or failed, saying in words why it failed where the node can see it.
 */
import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { AfterCall, OperationContext } from '../shared/api/declarations';
import { payload, type Envelope } from '../shared/api/envelope';
import { apiRequest } from '../shared/api/transport';
import { waitUntil } from '../shared/wait';
import { channelNames, channelServes, channelsOf, hostOf, outside } from './urls';

/** "Wait for Completion" and its timing, shown after the fields of submitting operations. */
export const waitExtras: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to wait until the task has finished; the output item then also has "outcome" (success or failed, as the status query answered) and, when it failed, "reason" in words',
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

/** Sends one id as a number and several as the comma-separated string the documentation describes. */
export function statusIds(body: IDataObject): IDataObject {
	const ids = (body.id as number[]) ?? [];
	return { ...body, id: ids.length === 1 ? ids[0] : ids.join(',') };
}

/**
 * Why a task failed, in words. The status query answers only `failed`; what the
 * node can see is said: URLs outside every channel (e.g. a channel deleted since the task was
 * first submitted, for Repeat) or of a channel that is not enabled.
 */
async function failureReason(ctx: OperationContext, task: IDataObject, what: string): Promise<string> {
	const urls = Array.isArray(task.urls) ? (task.urls as unknown[]).map(String) : typeof task.urls === 'string' ? task.urls.split(/[\n,]/) : [];
	let channels: IDataObject[];
	try {
		channels = await channelsOf(ctx);
	} catch {
		return `The CDN reports the ${what} as failed and gives no reason; check the URLs with Task > Get Many`;
	}
	const bad = outside(urls, channels);
	if (bad.length) {
		return `The CDN reports the ${what} as failed: ${bad.map((b) => b.url).join(', ')} ${bad.length === 1 ? 'is' : 'are'} outside every channel of the account (channels: ${channels.length ? channelNames(channels) : 'none'})`;
	}
	const closed: string[] = [];
	for (const url of urls) {
		const host = hostOf(url);
		const channel = host === undefined ? undefined : channels.find((c) => channelServes(String(c.name ?? ''), host));
		if (channel && String(channel.status).trim() !== '1') closed.push(`${url} (channel ${String(channel.name)} is ${String(channel.status_zh || `in status ${String(channel.status)}`).toLowerCase()})`);
	}
	if (closed.length) return `The CDN reports the ${what} as failed; channels that are not enabled: ${closed.join(', ')}`;
	return `The CDN reports the ${what} as failed and gives no reason; the URLs belong to enabled channels, so try Repeat or check the origin`;
}

/**
 * The `after` of operations that submit a task: with Wait for Completion on, looks at the
 * status endpoint every Poll Interval (first after one interval) until the task is `success` or
 * `failed` (both reported in the item, `outcome`, with `reason` in words for a failure) or the
 * timeout passes (an error naming the task).
 */
export function waitForTask(statusPath: string, what: string): AfterCall {
	return async (records, ctx) => {
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
			const status = await waitUntil({
				deadline: Date.now() + timeoutSeconds * 1000,
				pause: () => intervalMs,
				pauseFirst: true,
				lastLookAtDeadline: true,
				look: async () => {
					const envelope = await apiRequest(ctx.fn, statusPath, { id: Number(id) }, { itemIndex: ctx.itemIndex, read: true });
					const hit = statusRecords(envelope).find((r) => String(r.id) === id);
					const seen = String(hit?.status ?? 'processing').trim().toLowerCase();
					return seen === 'success' || seen === 'failed' ? seen : undefined;
				},
				timedOut: () =>
					new NodeOperationError(node, `The ${what} task ${id} did not finish within ${timeoutSeconds} seconds`, {
						itemIndex: ctx.itemIndex,
						description: `The task is still processing. Check it later with the Get Status operation (task ${id}), or raise the timeout.`,
					}),
			});
			// the task keeps its own `status` ("0"/"1" as the service sent it); the result of the wait is its own field
			out.push(status === 'failed' ? { ...task, outcome: status, reason: await failureReason(ctx, task, what) } : { ...task, outcome: status });
		}
		return out;
	};
}

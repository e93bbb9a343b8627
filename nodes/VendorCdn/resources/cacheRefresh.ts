import { NodeOperationError, sleep, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { FieldDecl, OperationContext, OperationDecl } from '../../shared/api/declarations';
import { checked, choice, list, locator, locators, required, str } from '../../shared/api/fields';
import { LOCATORS } from '../../shared/api/locators';
import { locatorRecords } from '../../shared/api/resolve';
import { payload, type Envelope } from '../../shared/api/envelope';
import { apiRequest } from '../../shared/api/transport';
import { InputError } from '../../shared/errors';

/** The URL list: one URL per line (commas stay inside a URL), joined with the separator when sent. */
export const urlsField = (description: string): FieldDecl =>
	required({
		...list('urls', 'URLs', `${description}; full addresses such as https://www.example.com/index.html`, { placeholder: 'e.g. https://www.example.com/index.html' }),
		oneEntryPerLine: true,
		send: 'array',
	});

export const separatorField = checked(
	str('partition', 'Separator', 'Character the URLs are joined with when sent (default a comma); no URL may contain it', { default: ',' }),
	{ kind: 'singleChar' },
);

/** "Check URLs Against Channels" (Additional Fields): on unless turned off. */
export const checkChannelsField: FieldDecl = {
	wire: 'checkChannels',
	displayName: 'Check URLs Against Channels',
	kind: 'boolean',
	default: true,
	description:
		"Whether each URL's host is checked against the account's channels before anything is sent (one channel listing per run); turn off if the credential may not list channels",
};

/** "Find URLs in Text" (Additional Fields): the URLs field holds a text such as a chat message. */
export const urlsInTextField: FieldDecl = {
	wire: 'urlsInText',
	displayName: 'Find URLs in Text',
	kind: 'boolean',
	default: false,
	description:
		'Whether "URLs" is a text such as a chat message: every http or https address in it is taken, each once (a full stop or bracket after an address is not part of it)',
};

/** The http(s) addresses in a text, each once, without trailing punctuation. */
export function urlsInText(text: string): string[] {
	const found = text.match(/https?:\/\/[^\s,;<>"'`]+/gi) ?? [];
	return [...new Set(found.map((u) => u.replace(/[.)\]!?:]+$/, '')))];
}

/** Whether a channel (`www.example.com`, or `*.example.com` for its subdomains) serves a host name. */
export function channelServes(channel: string, host: string): boolean {
	const c = channel.trim().toLowerCase().replace(/\.$/, '');
	const h = host.trim().toLowerCase().replace(/\.$/, '');
	if (c.startsWith('*.')) return h.endsWith(c.slice(1)) && h.length > c.length - 1;
	return c === h;
}

function hostOf(url: string): string | undefined {
	try {
		const u = new URL(url.trim());
		return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : undefined;
	} catch {
		return undefined;
	}
}

/** The account's channels (every page), read once per run and shared by every item. */
async function channelsOf(ctx: OperationContext): Promise<IDataObject[]> {
	return await locatorRecords(ctx.fn, LOCATORS.channel, {}, ctx.itemIndex);
}

const channelNames = (channels: IDataObject[]) => {
	const names = channels.map((c) => String(c.name));
	return names.length > 15 ? `${names.slice(0, 15).join(', ')} and ${names.length - 15} more` : names.join(', ');
};

/** The URLs (with their number, from 1) whose host no channel serves. */
function outside(urls: string[], channels: IDataObject[]): Array<{ n: number; url: string; host: string }> {
	const out: Array<{ n: number; url: string; host: string }> = [];
	urls.forEach((url, i) => {
		const host = hostOf(url);
		if (host !== undefined && !channels.some((c) => channelServes(String(c.name ?? ''), host))) out.push({ n: i + 1, url, host });
	});
	return out;
}

/**
 * Before a refresh or prefetch is sent: every URL's host must be served by a channel of the
 * account (a wildcard channel serves its subdomains); otherwise nothing is sent and the error
 * names the URLs and the channels. A URL that is not a full http(s) address is left to the
 * service, whose own error is shown.
 */
export async function checkUrlsAgainstChannels(body: IDataObject, ctx: OperationContext): Promise<IDataObject> {
	const { checkChannels, ...rest } = body;
	if (checkChannels === 0) return rest;
	const urls = (rest.urls as string[]) ?? [];
	const channels = await channelsOf(ctx);
	const bad = outside(urls, channels);
	if (bad.length) {
		const which = bad.map((b) => `URL ${b.n} (${b.url})`).join(', ');
		throw new InputError(
			`${which} ${bad.length === 1 ? 'is' : 'are'} outside every CDN channel of the account, so the CDN cannot purge ${bad.length === 1 ? 'it' : 'them'}; channels: ${channels.length ? channelNames(channels) : 'none'}`,
			`Give URLs of your channels only (a channel *.example.com serves its subdomains), or add a channel for ${[...new Set(bad.map((b) => b.host))].join(', ')} with Channel > Create. Turn off "Check URLs Against Channels" to send them anyway.`,
		);
	}
	return rest;
}

/**
 * Why a task failed, in words. The status query answers only `failed` (seed 001); what the
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

/** The URLs of a refresh or prefetch: checked against the separator, then the channels; joined with the separator. */
export async function prepareUrls(body: IDataObject, ctx: OperationContext): Promise<IDataObject> {
	const { checkChannels, urlsInText: inText, ...rest } = body;
	if (inText === 1) {
		rest.urls = urlsInText(((rest.urls as string[]) ?? []).join('\n'));
		if (!(rest.urls as string[]).length) {
			throw new InputError('No URL found in the text of "URLs"', 'Give full addresses such as https://www.example.com/index.html, or turn off "Find URLs in Text".');
		}
	}
	const joined = joinUrls(rest);
	await checkUrlsAgainstChannels({ ...rest, checkChannels }, ctx);
	return joined;
}

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
			out.push(status === 'failed' ? { ...task, outcome: status, reason: await failureReason(ctx, task, what) } : { ...task, outcome: status });
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

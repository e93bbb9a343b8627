/**
 * What the three Vendor polling triggers share: one poll with its state in the workflow's
 * static data, and reading a list page by page.
 *
 * How n8n 2.40 keeps the static data of a polling node (the reason for `runTriggerPoll`):
 *  - by default, `getWorkflowStaticData('node')` is the live object of the active workflow in
 *    memory; whatever a poll writes into it stays there even when the poll then fails, and it
 *    is written to the database when the workflow is activated and whenever a poll emits items;
 *  - with durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED and the scheduler) each poll
 *    works on a staged copy that is committed together with the execution of the emitted items,
 *    or on its own after a poll that emitted nothing, and dropped when the poll throws.
 * A trigger here therefore reads its state once, works on a copy, and writes the new state back
 * in one assignment only after every request of the poll succeeded. A failed poll leaves the
 * state as it was, so the next successful poll sees everything that happened meanwhile. Polls of
 * one node may overlap in n8n (a poll that outlasts the interval); a poll whose state was moved
 * on by another one meanwhile drops its result instead of emitting the same events again.
 *
 * The state belongs to the account the credential logs in as (its username at its API URL, kept
 * as a hash in `account`): when the credential is pointed at another account, that account's
 * state starts afresh (a first poll: recorded, nothing emitted), so neither the other account's
 * watermark hides its events nor its history comes out as new events. A state saved before
 * states were kept per account is taken as the current account's.
 */
import { createHash } from 'crypto';
import {
	NodeApiError,
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IBinaryKeyData,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { API_CREDENTIAL, apiBaseUrl } from '../api/auth';
import { inUserWords } from '../errors';
import { credentialSecrets, redactError, redactRecords } from '../redact';

import { readListOnce, type PageOptions } from '../api/paging';

/** Records asked for per page; the documents' samples use pages of up to 1000 (docs/vendor/readings.md#r34). */
export const PAGE_SIZE = 1000;

/** Reads are retried once within a poll; the next poll retries anyway. */
export const READ = { read: true, attempts: 2 } as const;

/** Pending ids missing from this many full listings in a row are dropped. */
export const MAX_MISSES = 3;

export interface PollResult<S> {
	/** The state to keep when the poll succeeded. */
	state: S;
	/** The items to emit, already filtered. */
	events: IDataObject[];
	/** The binary fields of events that carry a file, by the event's index (a trigger that downloads). */
	files?: Array<IBinaryKeyData | undefined>;
}

/** Events with the binary fields of those that carry a file (see PollResult). */
export interface EventsWithFiles {
	events: IDataObject[];
	files: Array<IBinaryKeyData | undefined>;
}

export interface TriggerPoll<S> {
	/** Whether the stored state is a baseline for the current parameters. */
	hasBaseline(stored: S | undefined): boolean;
	/** One poll from the stored state (a private copy; undefined before the first poll). */
	poll(stored: S | undefined): Promise<PollResult<S>>;
	/** "Fetch Test Event": the newest real sample, read without touching the state. */
	sample(): Promise<IDataObject[] | EventsWithFiles>;
	/** The credential the trigger calls with (its account keys the state): the Vendor API one unless named. */
	credential?: string;
}

const STATE_KEY = 'state';

/**
 * Who the credential calls as, and where: a hash of the API URL (scheme and case aside) and the
 * username, or for object storage of the endpoint and the access key.
 */
export async function accountOf(ctx: IPollFunctions, credentialName = API_CREDENTIAL): Promise<string> {
	const credentials = await ctx.getCredentials(credentialName);
	const who =
		credentialName === API_CREDENTIAL
			? [apiBaseUrl(credentials).toLowerCase().replace(/^https?:\/\//, ''), String(credentials.username ?? '')]
			: [String(credentials.endpoint ?? '').toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, ''), String(credentials.accessKey ?? '')];
	return createHash('sha256').update(JSON.stringify(who), 'utf8').digest('hex').slice(0, 16);
}

/**
 * Runs one poll. Manual mode returns the newest sample and throws every error. Otherwise the
 * state is read from the node's static data, the poll runs on a copy, and the new state is
 * written back only after the whole poll succeeded. Errors are thrown on the first poll (no
 * baseline yet, so n8n refuses the activation and shows why) and logged afterwards, so an
 * active workflow keeps polling and the next successful poll catches up.
 */
export async function runTriggerPoll<S extends IDataObject>(
	ctx: IPollFunctions,
	trigger: TriggerPoll<S>,
): Promise<INodeExecutionData[][] | null> {
	try {
		return await pollOnce(ctx, trigger);
	} catch (error) {
		// a management error names "the poll", not the service's path (errors.ts)
		throw inUserWords(error, 'the poll');
	}
}

async function pollOnce<S extends IDataObject>(ctx: IPollFunctions, trigger: TriggerPoll<S>): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') {
		const sample = await trigger.sample();
		const { events, files } = Array.isArray(sample) ? { events: sample, files: undefined } : sample;
		return events.length ? [itemsOf(ctx, events, files)] : null;
	}

	const staticData = ctx.getWorkflowStaticData('node');
	const credentialName = trigger.credential ?? API_CREDENTIAL;
	const account = await accountOf(ctx, credentialName);
	const read = JSON.stringify(staticData[STATE_KEY] ?? null);
	let stored = read === 'null' ? undefined : (JSON.parse(read) as S);
	if (stored !== undefined && stored.account !== undefined && stored.account !== account) {
		ctx.logger.info(`The credential of "${ctx.getNode().name}" now logs in as another account: its state starts afresh and this poll emits nothing`);
		stored = undefined;
	}

	let result: PollResult<S> | undefined;
	let failure: unknown;
	try {
		result = await trigger.poll(stored);
	} catch (error) {
		failure = error ?? new Error('unknown failure');
	}
	if (result === undefined) {
		const node = ctx.getNode();
		const error = inUserWords(
			redactError(
				failure instanceof NodeApiError || failure instanceof NodeOperationError ? failure : new NodeOperationError(node, failure as Error),
				credentialSecrets(await ctx.getCredentials<ICredentialDataDecryptedObject>(credentialName)),
			),
			'the poll',
		);
		if (!trigger.hasBaseline(stored)) throw error;
		const workflow = ctx.getWorkflow();
		ctx.logger.error(
			`The poll of "${node.name}" in workflow "${workflow.id}" failed and is repeated at the next poll: ${error.message}${error.description ? ` (${error.description})` : ''}`,
			{ node: node.name, workflowId: workflow.id, error },
		);
		return null;
	}

	if (JSON.stringify(staticData[STATE_KEY] ?? null) !== read) {
		// n8n started another poll of this node before this one ended (a poll that outlasted the
		// interval) and that one has already moved the state on: what this poll saw on top of it,
		// the next poll sees again, so this result is dropped rather than emitted twice
		ctx.logger.warn(`A poll of "${ctx.getNode().name}" overlapped a newer one; its result is left to the next poll`);
		return null;
	}
	staticData[STATE_KEY] = { ...result.state, account };
	if (!result.events.length) return null;
	// a service may echo a secret in a record: never in an event
	const events = redactRecords(result.events, credentialSecrets(await ctx.getCredentials<ICredentialDataDecryptedObject>(credentialName)));
	return [itemsOf(ctx, events, result.files)];
}

/** The items of events, each with its file when it carries one. */
function itemsOf(ctx: IPollFunctions, events: IDataObject[], files: Array<IBinaryKeyData | undefined> | undefined): INodeExecutionData[] {
	const items = ctx.helpers.returnJsonArray(events);
	for (let n = 0; files && n < items.length; n++) {
		const binary = files[n];
		if (binary) items[n].binary = binary;
	}
	return items;
}

/* ------------------------------------------------------------------ lists */

export const idOf = (row: IDataObject): number => Number(row.id);

export interface ListOptions {
	/**
	 * Stop reading once a row with an id below this has been seen, provided every row read so
	 * far came newest first (ids strictly falling). Lists that come in another order are read
	 * to the end. Undefined reads every page.
	 */
	stopBelow?: number;
	/** Rows per page (default PAGE_SIZE). */
	pageSize?: number;
}

/**
 * Reads a paginated list (api/paging.ts): page 1, then further pages until the service says the
 * end (`total`, `totalpage` or a short page), or, with `stopBelow`, until the boundary is passed.
 * A list that changed between two pages may have shifted rows past the reader, so it is read
 * once more, and a poll that still sees it moving fails (to be repeated) rather than miss a row.
 * Rows are unique by id (of a row read twice, the later read is kept).
 */
export async function readList(
	ctx: IPollFunctions,
	path: string,
	body: IDataObject,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const stopBelow = options.stopBelow;
	const paging: PageOptions = {
		...READ,
		pageSize: options.pageSize ?? PAGE_SIZE,
		concurrency: 4,
		keepLater: true,
		// newest first: enough once a row below the boundary came, provided every row so far came
		// newest first (ids strictly falling); lists in another order are read to the end
		enough: stopBelow === undefined ? undefined : (rows) => passedBoundary(rows, stopBelow),
	};
	for (let read = 1; read <= 2; read++) {
		const once = await readListOnce(ctx, path, body, paging);
		if (!once.moved) return once.rows;
	}
	throw new NodeOperationError(ctx.getNode(), `The list the poll reads kept changing while it was read page by page`, {
		description: 'Nothing was lost: the next poll reads it again.',
	});
}

/** Whether rows read newest first have passed `stopBelow` (every id so far strictly falling). */
function passedBoundary(rows: IDataObject[], stopBelow: number): boolean {
	let last = Infinity;
	for (const row of rows) {
		const id = idOf(row);
		if (!Number.isFinite(id) || id >= last) return false;
		last = id;
	}
	return last < stopBelow;
}

/* ------------------------------------------------------------------ small helpers */

/** Pending ids kept across polls: id → how many full listings in a row missed it. */
export type Pending = Record<string, number>;

export function maxId(rows: IDataObject[], start = 0): number {
	let hi = start;
	for (const row of rows) {
		const id = idOf(row);
		if (Number.isFinite(id) && id > hi) hi = id;
	}
	return hi;
}

/** The smallest id a reader must reach: the oldest pending id, or the one after the watermark. */
export function lowestNeeded(hi: number, pending: Pending): number {
	let low = hi + 1;
	for (const id of Object.keys(pending)) low = Math.min(low, Number(id));
	return low;
}

/** Keeps pending ids the listing missed, until they were missed MAX_MISSES times in a row. */
export function carryMissing(previous: Pending, listed: Set<string>, next: Pending): void {
	for (const [id, misses] of Object.entries(previous)) {
		if (listed.has(id) || id in next) continue;
		if (misses + 1 < MAX_MISSES) next[id] = misses + 1;
	}
}

export function nowIso(): string {
	return new Date().toISOString();
}

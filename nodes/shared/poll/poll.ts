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
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { listRows, type Envelope } from '../api/envelope';
import { apiRequest } from '../api/transport';

/** Records asked for per page; the seed's own samples use pages of up to 1000. */
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
}

export interface TriggerPoll<S> {
	/** Whether the stored state is a baseline for the current parameters. */
	hasBaseline(stored: S | undefined): boolean;
	/** One poll from the stored state (a private copy; undefined before the first poll). */
	poll(stored: S | undefined): Promise<PollResult<S>>;
	/** "Fetch Test Event": the newest real sample, read without touching the state. */
	sample(): Promise<IDataObject[]>;
}

const STATE_KEY = 'state';

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
	if (ctx.getMode() === 'manual') {
		const sample = await trigger.sample();
		return sample.length ? [ctx.helpers.returnJsonArray(sample)] : null;
	}

	const staticData = ctx.getWorkflowStaticData('node');
	const read = JSON.stringify(staticData[STATE_KEY] ?? null);
	const stored = read === 'null' ? undefined : (JSON.parse(read) as S);

	let result: PollResult<S> | undefined;
	let failure: unknown;
	try {
		result = await trigger.poll(stored);
	} catch (error) {
		failure = error ?? new Error('unknown failure');
	}
	if (result === undefined) {
		const node = ctx.getNode();
		const error =
			failure instanceof NodeApiError || failure instanceof NodeOperationError ? failure : new NodeOperationError(node, failure as Error);
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
	staticData[STATE_KEY] = result.state;
	return result.events.length ? [ctx.helpers.returnJsonArray(result.events)] : null;
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
 * Reads a paginated list: page 1, then further pages until the end (or, with `stopBelow`, until
 * the boundary is passed). Every page must report the same `total`: a list that changed
 * between two pages may have shifted rows past the reader, so it is read once more, and a poll
 * that still sees it moving fails (to be repeated) rather than miss a row. Rows are unique by id.
 */
export async function readList(
	ctx: IPollFunctions,
	path: string,
	body: IDataObject,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const rows = (await readListOnce(ctx, path, body, options)) ?? (await readListOnce(ctx, path, body, options));
	if (rows === null) {
		throw new NodeOperationError(ctx.getNode(), `The list ${path} kept changing while it was read page by page`, {
			description: 'Nothing was lost: the next poll reads it again.',
		});
	}
	return rows;
}

/** One read of a list; null when it changed between two pages. */
async function readListOnce(ctx: IPollFunctions, path: string, body: IDataObject, options: ListOptions): Promise<IDataObject[] | null> {
	const limit = options.pageSize ?? PAGE_SIZE;
	const fetchPage = async (page: number) => await apiRequest(ctx, path, { ...body, page, limit }, READ);

	const first = await fetchPage(1);
	const total = String(first.total ?? '');
	const totalPages = Math.max(1, Number(first.totalpage ?? 1) || 1);
	const byId = new Map<string, IDataObject>();
	const extra: IDataObject[] = []; // rows without an id
	let descending = true;
	let lastId = Infinity;
	let passed = false;

	const take = (rows: IDataObject[]) => {
		for (const row of rows) {
			const id = idOf(row);
			if (!Number.isFinite(id)) {
				descending = false;
				extra.push(row);
				continue;
			}
			const key = String(id);
			if (byId.has(key)) {
				byId.set(key, row); // seen again after rows moved down a page: keep the later read
				continue;
			}
			if (id >= lastId) descending = false;
			lastId = Math.min(lastId, id);
			byId.set(key, row);
			if (options.stopBelow !== undefined && id < options.stopBelow) passed = true;
		}
	};
	const same = (envelope: Envelope) => String(envelope.total ?? '') === total;

	take(listRows(first));
	const early = () => options.stopBelow !== undefined && descending && passed;

	if (options.stopBelow !== undefined) {
		// newest first: one page at a time, stopping at the boundary
		for (let page = 2; page <= totalPages && !early(); page++) {
			const envelope = await fetchPage(page);
			if (!same(envelope)) return null;
			const rows = listRows(envelope);
			take(rows);
			if (rows.length === 0) break;
		}
	} else if (totalPages > 1) {
		// the whole list: the remaining pages a few at a time, taken in page order
		const pages: Envelope[] = [];
		const queue = Array.from({ length: totalPages - 1 }, (_, i) => i + 2);
		const worker = async () => {
			for (let page = queue.shift(); page !== undefined; page = queue.shift()) pages[page] = await fetchPage(page);
		};
		await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
		for (let page = 2; page <= totalPages; page++) {
			if (!same(pages[page])) return null;
			take(listRows(pages[page]));
		}
	}
	return [...byId.values(), ...extra];
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

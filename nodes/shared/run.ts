/**
 * What one run of a node shares between its items: how many items run at once ("Concurrent
 * Requests"), one back-off for every request of the run when the service says it is busy
 * (503 SlowDown, "too frequent"), and one limit on the requests in flight.
 *
 * Everything here lives in the node run's own context object, so nothing depends on living in
 * one process: a queue-mode worker runs a node exactly as a single instance does.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type IPairedItemData,
} from 'n8n-workflow';

import { Throttle } from './backoff';

/** Items run at once by default: enough to hide a 50 ms round trip, gentle on a small account. */
export const DEFAULT_CONCURRENCY = 4;
/** Pages a Return All reads at once (one item); requests in flight per run: max(items, this). */
export const PAGE_CONCURRENCY = 6;
export const MAX_CONCURRENCY = 64;

/**
 * The "Concurrent Requests" option, for the Options collection of every action node: how many
 * items run at once, or `serialNote` (why they do not), or `description` (what it bounds instead).
 */
export function concurrencyOption(serialNote?: string, description?: string): INodeProperties {
	return {
		displayName: 'Concurrent Requests',
		name: 'concurrency',
		type: 'number',
		default: DEFAULT_CONCURRENCY,
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		description: serialNote
			? `Ignored here: ${serialNote}`
			: description ?? 'How many input items are processed at the same time; 1 processes them one after another. Output keeps the input order.',
	};
}

/** At most `size` holders at once; the others queue in order. */
export class Limiter {
	private active = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(public size: number) {}

	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
		this.active++;
		try {
			return await work();
		} finally {
			this.active--;
			this.waiting.shift()?.();
		}
	}
}

export interface RunState {
	throttle: Throttle;
	/** Requests in flight, all items of the run together. */
	requests: Limiter;
	concurrency: number;
	/** Set by a router for operations whose items must run one after another: why. */
	serial?: string;
	/** Lists read once per run to resolve names (resolve.ts). */
	cache: Map<string, Promise<import('n8n-workflow').IDataObject[]>>;
	/** Credentials read once per run (read again after the service refused a token). */
	credentials: Map<string, Promise<import('n8n-workflow').ICredentialDataDecryptedObject>>;
}

const STATE = Symbol.for('n8n-nodes-vendor-cloud.run');

/**
 * The run state of a node run, made on first use. It is kept on the context object itself
 * (a proxy of the context sees the same state), so it ends with the run.
 */
export function runState(ctx: object): RunState {
	const holder = ctx as { [STATE]?: RunState };
	let state = holder[STATE];
	if (!state) {
		state = { throttle: new Throttle(), requests: new Limiter(Math.max(DEFAULT_CONCURRENCY, PAGE_CONCURRENCY)), concurrency: DEFAULT_CONCURRENCY, cache: new Map(), credentials: new Map() };
		try {
			Object.defineProperty(ctx, STATE, { value: state, enumerable: false, configurable: true });
		} catch {
			// a frozen context: the state lives for this call only
		}
	}
	return state;
}

/* ------------------------------------------------------------- the items */

export interface ItemsOptions {
	/** Run the items one after another whatever the option says (order matters to the service). */
	serial?: boolean;
}

/** The value of "Concurrent Requests" (Options collection, read from the first item). */
export function concurrencyOf(fn: IExecuteFunctions): number {
	let raw: unknown;
	try {
		raw = (fn.getNodeParameter('options', 0, {}) as IDataObject).concurrency;
	} catch {
		raw = undefined;
	}
	const n = Math.floor(Number(raw ?? DEFAULT_CONCURRENCY));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_CONCURRENCY) : DEFAULT_CONCURRENCY;
}

/** The error as an n8n error that names the item, without a second wrapper. */
export function asNodeError(fn: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	// an error of the node's own that says how to fix it (storage/xml.ts) keeps that as the description
	const description = (error as { description?: unknown })?.description;
	return new NodeOperationError(fn.getNode(), error as Error, { itemIndex, ...(typeof description === 'string' ? { description } : {}) });
}

/**
 * The item that takes a failed item's place under Continue On Fail: what went wrong (`error`) and
 * how to fix it (`description`). When the node's On Error setting is "Continue (using error
 * output)", n8n sends an item to the error output by its json: n8n 1.x when its fields are
 * `error` alone or `error` and `message`, 2.x when they are any of `error`, `message` and
 * `details`. So there how to fix it is `message`, and the item goes to the error output on both
 * lines; n8n adds the input item's fields. (An item that carries the error object itself is
 * routed too, but n8n then replaces its json by the message alone.)
 */
export function errorItem(
	fn: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	pairedItem: IPairedItemData | IPairedItemData[] = { item: itemIndex },
): INodeExecutionData {
	const e = error as { message?: string; description?: string | null };
	const json: IDataObject = { error: e.message ?? String(error) };
	if (e.description) json[fn.getNode().onError === 'continueErrorOutput' ? 'message' : 'description'] = e.description;
	return { json, pairedItem };
}

/**
 * Runs `work` for every input item, at most "Concurrent Requests" at once, and returns the
 * output in input order with pairedItem. Continue On Fail puts an error item in a failed item's
 * place and goes on; without it the first failure starts no further item, waits for the items
 * already under way, and is thrown naming its item.
 */
export async function runItems(
	fn: IExecuteFunctions,
	count: number,
	work: (itemIndex: number) => Promise<INodeExecutionData[]>,
	options: ItemsOptions = {},
): Promise<INodeExecutionData[]> {
	const state = runState(fn);
	const concurrency = options.serial ? 1 : concurrencyOf(fn);
	state.concurrency = concurrency;
	state.requests.size = Math.max(concurrency, PAGE_CONCURRENCY);
	const continueOnFail = fn.continueOnFail();
	const results: INodeExecutionData[][] = new Array(count);
	let next = 0;
	let failure: { error: unknown; itemIndex: number } | undefined;

	const worker = async () => {
		while (!failure && next < count) {
			const i = next++;
			try {
				results[i] = (await work(i)).map((item) => ({ ...item, pairedItem: { item: i } }));
			} catch (error) {
				if (continueOnFail) results[i] = [errorItem(fn, error, i)];
				else failure ??= { error, itemIndex: i };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	if (failure) throw asNodeError(fn, failure.error, failure.itemIndex);
	return results.flat();
}

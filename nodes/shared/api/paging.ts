/**
 * Reading a paged list of the management interface (`page`, `limit` in the request; `total`,
 * `totalpage`, `limit` in the answer; docs/vendor/management.md#pagination, readings R34).
 *
 * The end of a list is whatever the service says first: `total` records read, page `totalpage`
 * read, or, when it states neither, a page shorter than the page size (an empty page always
 * ends it). The pages read are bounded by what `total` (or else `totalpage`) and the Limit imply,
 * so a `totalpage` of 2000 beside a `total` of 250 costs 3 requests, not 2000.
 *
 * A list may change while it is read: rows added at its head move rows of page 1 onto page 2
 * (read twice), rows removed move rows of page 2 onto page 1 (never read). Rows are kept once by
 * `id`; the read is steady when every page stated the same `total`, no row came twice and
 * (without a Limit) as many rows came as `total` says. A read that was not steady is read once
 * more; when that one moved too, its rows are given and the caller is told (`onChanged`).
 */
import type { IDataObject } from 'n8n-workflow';

import { PAGE_CONCURRENCY } from '../run';
import { pageRows, type Envelope } from './envelope';
import type { ApiContext } from './send';
import { apiRequest, type ApiCallOptions } from './transport';

/** Pages one read of a list may take when the service states neither `total` nor `totalpage`. */
export const MAX_PAGES = 10000;

export interface PageOptions extends ApiCallOptions {
	/** Stop after this many records (Return All off). */
	limit?: number;
	/** Page size asked for (default 100). */
	pageSize?: number;
	/** Pages fetched at once after the first when the number of pages is known (default 6). */
	concurrency?: number;
	/** Told the list's size as the service states it (`total` of the first page), when it does. */
	onTotal?: (total: number) => void;
	/** Told that the list changed while it was read, also when it was read again. */
	onChanged?: () => void;
	/**
	 * Stop once this holds for the rows read so far (the triggers: newest first, down to the
	 * last row seen). Checked after each page; pages are then read one at a time.
	 */
	enough?: (rows: IDataObject[]) => boolean;
	/** Of a row read twice, keep the later read (default: the first). */
	keepLater?: boolean;
}

/** One read of a list, page by page. */
export interface ListRead {
	rows: IDataObject[];
	/** The list did not stay the same while it was read (see the header). */
	moved: boolean;
	/** `total` of the first page, when the service stated one. */
	total?: number;
}

/** A count the service states (`"250"` or 250); undefined when it states none or nonsense. */
function stated(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const n = Number(value);
	return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The key a row is known by: its `id`; undefined for a row without one (kept as it came). */
const keyOf = (row: IDataObject): string | undefined => (row.id === undefined || row.id === null || row.id === '' ? undefined : String(row.id));

/** Reads a list once, page by page (see the header). */
export async function readListOnce(ctx: ApiContext, path: string, body: IDataObject, options: PageOptions = {}): Promise<ListRead> {
	const call = { ...options, read: true };
	const asked = Math.max(1, options.limit !== undefined ? Math.min(options.pageSize ?? 100, options.limit) : (options.pageSize ?? 100));
	const fetchPage = async (page: number) => await apiRequest(ctx, path, { ...body, page, limit: asked }, call);

	const byKey = new Map<string, IDataObject>();
	const unkeyed: IDataObject[] = [];
	let moved = false;
	const rows = () => [...byKey.values(), ...unkeyed];
	const take = (list: IDataObject[]) => {
		let fresh = 0;
		for (const row of list) {
			const key = keyOf(row);
			if (key === undefined) {
				unkeyed.push(row);
				fresh++;
			} else if (byKey.has(key)) {
				moved = true; // rows moved down a page: this one was read on the page before
				if (options.keepLater) byKey.set(key, row);
			} else {
				byKey.set(key, row);
				fresh++;
			}
		}
		return fresh;
	};

	const first = await fetchPage(1);
	const total = stated(first.total);
	if (total !== undefined) options.onTotal?.(total);
	let latestTotal = total;
	// the page size the service used: what it says, else what was asked; a first page shorter
	// than that while `total` says there are more is the service's own page size
	const firstCount = pageRows(first).length;
	let size = Math.max(1, stated(first.limit) ?? asked);
	if (total !== undefined && firstCount > 0 && firstCount < size && firstCount < total) size = firstCount;
	const totalPages = stated(first.totalpage);
	/** The last page to read, by what the service states now: `total` first, then `totalpage`. */
	const lastPage = () => {
		if (latestTotal !== undefined) return Math.max(1, Math.ceil(latestTotal / size));
		if (totalPages !== undefined) return Math.max(1, totalPages);
		return MAX_PAGES;
	};
	const enough = () => (options.limit !== undefined && rows().length >= options.limit) || (options.enough?.(rows()) ?? false);
	/** Takes one page; whether the list ended with it. */
	const page = (envelope: Envelope, number: number): boolean => {
		const t = stated(envelope.total);
		if (t !== latestTotal) moved = true; // the list grew or shrank between two pages
		if (t !== undefined) latestTotal = t;
		const list = pageRows(envelope);
		const fresh = take(list);
		if (list.length === 0) return true;
		// a full page of rows read before: the service does not page (it ignores `page`)
		if (fresh === 0 && list.length >= size) return true;
		if (latestTotal !== undefined && byKey.size + unkeyed.length >= latestTotal) return true;
		if (latestTotal === undefined && totalPages === undefined && list.length < size) return true;
		return number >= lastPage();
	};

	let ended = page(first, 1);
	let next = 2;
	const parallel = options.enough === undefined && options.limit === undefined && lastPage() < MAX_PAGES;
	const concurrency = parallel ? Math.max(1, options.concurrency ?? PAGE_CONCURRENCY) : 1;
	while (!ended && !enough() && next <= lastPage()) {
		// a few pages at a time where the count is known, taken in page order
		const batch: number[] = [];
		for (let p = next; p <= lastPage() && batch.length < concurrency; p++) batch.push(p);
		const envelopes = await Promise.all(batch.map(fetchPage));
		for (let k = 0; k < batch.length && !ended; k++) ended = page(envelopes[k], batch[k]) || enough();
		next = batch[batch.length - 1] + 1;
	}
	if (!ended && !enough() && lastPage() >= MAX_PAGES) {
		throw new Error(`The list ${path} did not end within ${MAX_PAGES} pages of ${size}`);
	}
	const out = rows();
	// without a Limit, as many rows as the service says it has (a row removed meanwhile is a gap)
	if (options.limit === undefined && options.enough === undefined && latestTotal !== undefined && out.length !== latestTotal) moved = true;
	return { rows: options.limit !== undefined ? out.slice(0, options.limit) : out, moved, total };
}

/**
 * Reads a list, every page or up to `limit` records: once, and once more when it changed while
 * it was read; `onChanged` is told when the second read moved as well (its rows are given).
 */
export async function apiRequestAllItems(ctx: ApiContext, path: string, body: IDataObject = {}, options: PageOptions = {}): Promise<IDataObject[]> {
	const once = await readListOnce(ctx, path, body, options);
	if (!once.moved) return once.rows;
	const again = await readListOnce(ctx, path, body, { ...options, onTotal: undefined });
	if (again.moved) options.onChanged?.();
	return again.rows;
}

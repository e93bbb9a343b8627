/**
 * Reading a paged list of the management interface (`page`, `limit` in the request; `total`,
 * `totalpage` in the answer): every page for Return All, a few at a time in page order, or page
 * after page until Limit records arrived.
 */
import type { IDataObject } from 'n8n-workflow';

import { PAGE_CONCURRENCY } from '../run';
import { pageRows, type Envelope } from './envelope';
import type { ApiContext } from './send';
import { apiRequest, type ApiCallOptions } from './transport';

export interface PageOptions extends ApiCallOptions {
	/** Stop after this many records (Return All off). */
	limit?: number;
	/** Page size asked for (default 100). */
	pageSize?: number;
	/** Pages fetched at once after the first (default 6). */
	concurrency?: number;
	/** Told the list's size as the service states it (`total` of the first page), when it does. */
	onTotal?: (total: number) => void;
}

function reportTotal(envelope: Envelope, options: PageOptions): void {
	const total = Number(envelope.total);
	if (options.onTotal && envelope.total !== undefined && envelope.total !== '' && Number.isFinite(total)) options.onTotal(total);
}

function totalPages(envelope: Envelope): number {
	const n = Number(envelope.totalpage ?? 1);
	return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/**
 * Reads a paginated list: page 1 first, which tells `totalpage`; then, for Return All, the
 * remaining pages with bounded concurrency, kept in page order. With a limit, pages are read
 * one after the other until enough records arrived.
 */
export async function apiRequestAllItems(ctx: ApiContext, path: string, body: IDataObject = {}, options: PageOptions = {}): Promise<IDataObject[]> {
	const read = { ...options, read: true };
	if (options.limit !== undefined) {
		const pageSize = Math.min(options.pageSize ?? 100, Math.max(1, options.limit));
		const out: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			if (page === 1) reportTotal(envelope, options);
			const rows = pageRows(envelope);
			out.push(...rows);
			if (out.length >= options.limit || rows.length === 0 || page >= totalPages(envelope)) break;
		}
		return out.slice(0, options.limit);
	}
	const pageSize = options.pageSize ?? 100;
	const first = await apiRequest(ctx, path, { ...body, page: 1, limit: pageSize }, read);
	reportTotal(first, options);
	const pages: IDataObject[][] = [pageRows(first)];
	const remaining: number[] = [];
	for (let p = 2; p <= totalPages(first); p++) remaining.push(p);
	const concurrency = Math.max(1, options.concurrency ?? PAGE_CONCURRENCY);
	let next = 0;
	const worker = async () => {
		while (next < remaining.length) {
			const page = remaining[next++];
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			pages[page - 1] = pageRows(envelope);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, remaining.length) }, worker));
	return pages.flat();
}

/**
 * Reading List Objects: one page of a listing (objects and folders, in the service's order,
 * the same under both readings of the marker), shared by the operation, the "From List" key
 * search and the compatibility check.
 */
import { NodeApiError, type ICredentialDataDecryptedObject, type IDataObject, type INode, type JsonObject } from 'n8n-workflow';

import type { StorageContext } from '../../shared/storage/call';
import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, text, xmlBoolean, type XmlNode, type XmlValue } from '../../shared/storage/xml';
import { unquote } from './common';

/** Code-point order, the order the service lists in. */
export function compareKeys(a: string, b: string): number {
	const x = [...a];
	const y = [...b];
	for (let n = 0; n < Math.min(x.length, y.length); n++) {
		if (x[n] !== y[n]) return x[n].codePointAt(0)! < y[n].codePointAt(0)! ? -1 : 1;
	}
	return x.length - y.length;
}

/**
 * The common prefixes of a ListBucketResult, in either form: S3's
 * `<CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes>` or the documentation's "repeated string"
 * `<CommonPrefixes>p/</CommonPrefixes>`.
 */
export function commonPrefixesOf(doc: XmlValue | undefined): string[] {
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [];
	const raw = doc.CommonPrefixes;
	if (raw === undefined) return [];
	const out: string[] = [];
	for (const entry of Array.isArray(raw) ? raw : [raw]) {
		if (typeof entry === 'string') out.push(entry);
		else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
			if (entry.Prefix !== undefined) out.push(text(entry, 'Prefix'));
			else if (typeof entry['#text'] === 'string') out.push(entry['#text']);
		}
	}
	return out.filter((p) => p !== '');
}

/** An object's owner as listed, without the fields the service left empty. */
function owner(node: XmlValue | undefined): IDataObject {
	const fields: IDataObject = { id: text(node, 'ID'), displayName: text(node, 'DisplayName') };
	return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
}

/** One object of a listing: the fields the service gave, named in n8n's style. */
function objectItem(c: XmlNode): IDataObject {
	const item: IDataObject = { type: 'object', key: text(c, 'Key') };
	if (c.Size !== undefined) {
		const size = Number(text(c, 'Size'));
		item.size = Number.isFinite(size) ? size : text(c, 'Size');
	}
	if (c.LastModified !== undefined) item.lastModified = text(c, 'LastModified');
	if (c.ETag !== undefined) item.etag = unquote(text(c, 'ETag'));
	if (c.StorageClass !== undefined) item.storageClass = text(c, 'StorageClass');
	if (c.Owner !== undefined) item.owner = owner(c.Owner);
	return item;
}

/**
 * Whether a listing page (ListBucketResult, ListPartsResult) says more entries follow. Its
 * IsTruncated is an XML Schema boolean, which services write `true`, `True` or `1`
 * (xmlBoolean); an absent one means the list is complete (S3 always writes it). Any other value
 * fails: taking it as "no more" would cut the list short without a word.
 */
export function isTruncated(node: INode, doc: XmlValue | undefined, what: string, transId: string, itemIndex: number): boolean {
	const raw = text(doc, 'IsTruncated');
	if (raw === '') return false;
	const flag = xmlBoolean(raw);
	if (flag === undefined) {
		throw new NodeApiError(node, { transId } as JsonObject, {
			message: `${what}: the answer's IsTruncated is "${raw.slice(0, 40)}", neither true nor false`,
			description: `Whether more entries follow cannot be told, so the list was not used (X-Trans-Id ${transId}).`,
			itemIndex,
		});
	}
	return flag;
}

/**
 * The most a List Objects page of `maxKeys` entries can hold: 64 KiB for the listing's own
 * elements and 8 KiB per entry. An entry is a key of at most 1024 bytes of UTF-8 (5 KiB when
 * every character is written as a reference such as &#39;), its date, ETag, size, storage class
 * and owner: under 7 KiB. At most 64 MiB, whatever page size is asked for: a page of 1000 is at
 * most 8 MiB.
 */
export function listingPageCap(maxKeys: number): number {
	return Math.min(64 * 1024 * 1024, 64 * 1024 + Math.max(1, maxKeys) * 8 * 1024);
}

export interface ListingPage {
	/** The answer's Date header: the service's clock when it answered ('' when absent). */
	date: string;
	entries: Array<{ name: string; item: IDataObject }>;
	truncated: boolean;
	nextMarker: string;
	transId: string;
}

/**
 * One page of List Objects. `marker` is sent as given; entries at or before it are dropped, so
 * that a service whose listing starts AT the marker (the documentation's wording) and one that starts
 * after it (S3) give the same result, and so do entries a service lists again (the end of the
 * previous page repeated: docs/vendor/readings.md#r74). An entry listed twice in the page is
 * kept once (its last occurrence). One more entry than wanted is asked for when a marker is
 * sent, so that a page never holds only the dropped key.
 */
export async function listPage(
	ctx: StorageContext,
	i: number,
	bucket: string,
	o: { prefix?: string; delimiter?: string; marker?: string; maxKeys: number },
	overrides?: { credentialOverrides?: ICredentialDataDecryptedObject },
): Promise<ListingPage> {
	const query: Array<[string, string | number | undefined]> = [];
	if (o.delimiter) query.push(['delimiter', o.delimiter]);
	if (o.marker) query.push(['marker', o.marker]);
	query.push(['max-keys', o.marker ? o.maxKeys + 1 : o.maxKeys]);
	if (o.prefix) query.push(['prefix', o.prefix]);
	const res = await storageRequest(ctx, { method: 'GET', bucket, query, itemIndex: i, maxAnswerBytes: listingPageCap(o.maxKeys + 1), ...overrides });
	const doc = (await xmlBody(res)).ListBucketResult;
	const entries: ListingPage['entries'] = children(doc, 'Contents').map((c) => {
		const item = objectItem(c);
		return { name: String(item.key), item };
	});
	for (const folder of commonPrefixesOf(doc)) entries.push({ name: folder, item: { type: 'folder', prefix: folder } });
	entries.sort((a, b) => compareKeys(a.name, b.name));
	// in key order, each entry once: a repeat within the page is next to its first occurrence
	const unique: ListingPage['entries'] = [];
	for (const entry of entries) {
		if (o.marker && compareKeys(entry.name, o.marker) <= 0) continue;
		const last = unique[unique.length - 1];
		if (last && last.name === entry.name && last.item.type === entry.item.type) unique[unique.length - 1] = entry;
		else unique.push(entry);
	}
	return {
		date: res.headers.date ?? '',
		entries: unique,
		truncated: isTruncated(ctx.getNode(), doc, `List Objects ${bucket}`, res.transId, i),
		nextMarker: text(doc, 'NextMarker'),
		transId: res.transId,
	};
}

export interface ListingOptions {
	prefix?: string;
	delimiter?: string;
	/** Start after this key (the first page's marker). */
	marker?: string;
	/** Max-keys of each request. */
	pageSize?: number;
}

/**
 * Every page of a listing, in order: the next page starts from the last entry listed (key or
 * folder), which means the same under both readings of the marker once a first entry equal to it
 * is dropped (docs/vendor/readings.md#r21). NextMarker is used only for a page without entries:
 * S3 sets it to the last entry, while a service whose listing starts AT the marker may set it to
 * the first entry not yet returned. `wanted()` says how many entries the caller still takes
 * (the next page asks for no more; 0 ends the walk).
 */
export async function* walkListing(
	ctx: StorageContext,
	i: number,
	bucket: string,
	o: ListingOptions,
	wanted: () => number = () => Infinity,
): AsyncGenerator<ListingPage> {
	const pageSize = o.pageSize ?? 1000;
	let marker = o.marker ?? '';
	for (;;) {
		const page = await listPage(ctx, i, bucket, { prefix: o.prefix, delimiter: o.delimiter, marker, maxKeys: Math.min(pageSize, wanted()) });
		yield page;
		if (!page.truncated || wanted() <= 0) return;
		const last = page.entries.length ? page.entries[page.entries.length - 1].name : '';
		const next = last || page.nextMarker;
		if (!next || (marker && compareKeys(next, marker) <= 0)) {
			throw new NodeApiError(ctx.getNode(), { transId: page.transId } as JsonObject, {
				message: 'The listing says more keys follow but gives no next position',
				description: `NextMarker was missing or did not advance past "${marker}" (X-Trans-Id ${page.transId}).`,
				itemIndex: i,
			});
		}
		marker = next;
	}
}

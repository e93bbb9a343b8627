/**
 * The poll of the Vendor Object Storage Trigger (why it works this way: the header of
 * VendorObjectStorageTrigger.node.ts). One poll lists the watched objects, compares the listing
 * with the previous one through the state (a difference summary, summary.ts, and the objects of
 * the last minutes), and emits the objects that are new or changed since.
 */
import { createHash } from 'crypto';
import { NodeApiError, NodeOperationError, type IBinaryKeyData, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { Limiter } from '../shared/run';
import { CREDENTIAL as STORAGE_CREDENTIAL } from '../shared/storage/settings';
import { downloadObject } from '../VendorObjectStorage/helpers/download';
import { walkListing } from '../VendorObjectStorage/helpers/listing';
import * as check from '../VendorObjectStorage/helpers/validate';
import type { EventsWithFiles, PollResult, TriggerPoll } from '../shared/poll/poll';
import { blocksOf, decodeBlocks, encodeBlocks, inChangedRuns } from './blocks';
import { AgeClasses, Summary, decodeElements, elementId, encodeElements, etagIdOf, keyIdOf, keyIdString, type Element } from './summary';

/** Cells of the difference summary: 32,400 bytes, 43,200 characters of base64. */
export const SUMMARY_CELLS = 1800;
/** Objects kept in `recent` at most: 12,288 bytes, 16,384 characters of base64 (room for the age classes and key blocks). */
export const RECENT_MAX = 1024;
/** How far before the service's time at a poll's start the window of recent objects reaches. */
export const WINDOW_MS = 10 * 60 * 1000;
/** Files downloaded at the same time. */
const DOWNLOADS_AT_ONCE = 4;

/** What a poll keeps (about 64,000 characters at most, whatever the number of objects: 43,200 summary, 16,384 recent, 544 ages, 3,416 blocks). */
export interface ObjectState extends IDataObject {
	v: 1;
	/** The bucket, prefix and subfolder setting the state belongs to. */
	scope: string;
	/** The service's time when the listing of the poll that made this state began (ms). */
	t: number;
	/** Start of the window: every object of that listing modified at or after it is in `recent`. */
	w: number;
	/** The objects of that listing modified at or after `w` (encodeElements). */
	recent: string;
	/** The difference summary of that listing (Summary.encode). */
	summary: string;
	/** How many objects that listing held. */
	objects: number;
	/** The age classes of that listing, with `w` as reference (AgeClasses.encode); absent in states of earlier versions. */
	ages?: string;
	/** The key blocks of that listing (blocks.ts encodeBlocks); absent in states of earlier versions. */
	blocks?: string;
}

export type Event = 'new' | 'changed' | 'newOrChanged';

/** Objects emitted because the state could not tell whether they are new: `repeatPossible` says so. */
const REPEAT_NOTE = 'Emitted because more objects changed since the last poll than the state can tell apart: it may have been emitted before';
export type Watch = 'new' | 'newOrChanged';

/** The trigger's parameters, read and checked. */
interface Settings {
	watch: Watch;
	bucket: string;
	prefix: string;
	subfolders: boolean;
	download: boolean;
	property: string;
}

/** One object of a listing, with its element and its time. */
interface Listed extends Element {
	key: string;
	/** LastModified in ms; NaN when the listing gave none that reads as a time. */
	time: number;
	/** The object as the listing gave it (key, size, lastModified, etag, storageClass, owner). */
	item: IDataObject;
}

function settingsOf(ctx: IPollFunctions): Settings {
	const node = ctx.getNode();
	const watch = ctx.getNodeParameter('event', 'new') as Watch;
	const bucket = check.bucketName(node, 0, ctx.getNodeParameter('bucket', '', { extractValue: true }));
	const prefix = String(ctx.getNodeParameter('prefix', '') ?? '');
	const subfolders = ctx.getNodeParameter('includeSubfolders', true) !== false;
	const download = ctx.getNodeParameter('download', false) === true;
	const property = download ? String(ctx.getNodeParameter('binaryPropertyName', 'data') ?? '').trim() : '';
	if (download && !property) throw check.inputError(node, 0, 'The "Put Output File in Field" field is empty', 'Name the binary field, e.g. data.');
	return { watch, bucket, prefix, subfolders, download, property };
}

/**
 * The ETag id of a listed object: of its ETag, or, for an entry without one, of its size and
 * LastModified (a change then shows as either).
 */
function versionIdOf(item: IDataObject): number {
	const etag = String(item.etag ?? '');
	return etagIdOf(etag !== '' ? etag : `size ${String(item.size ?? '')} at ${String(item.lastModified ?? '')}`);
}

/**
 * Lists every watched object: all keys under the prefix, or (without subfolders) those directly
 * in it; each key once (walkListing drops entries a service lists again, and a key listed twice in
 * a row here is kept once, its later entry: one event per key and poll).
 */
async function listObjects(ctx: IPollFunctions, s: Settings): Promise<{ objects: Listed[]; date: string }> {
	const objects: Listed[] = [];
	let date: string | undefined;
	const options = { prefix: s.prefix, delimiter: s.subfolders ? '' : '/' };
	for await (const page of walkListing(ctx, 0, s.bucket, options)) {
		date ??= page.date;
		for (const { name, item } of page.entries) {
			// folders of a delimited listing, and the empty objects that S3 consoles create as folders
			if (item.type !== 'object' || name.endsWith('/')) continue;
			const { a, b } = keyIdOf(name);
			// without `type`, copied field by field: deleting it would turn every item into a slow dictionary object
			const fields: IDataObject = {};
			for (const field of Object.keys(item)) if (field !== 'type') fields[field] = item[field];
			const listed: Listed = { key: name, a, b, e: versionIdOf(item), time: Date.parse(String(item.lastModified ?? '')), item: fields };
			if (objects.length && objects[objects.length - 1].key === name) objects[objects.length - 1] = listed;
			else objects.push(listed);
		}
	}
	return { objects, date: date ?? '' };
}

/**
 * The window of the next poll and the objects in it: every object modified at or after
 * `t - WINDOW_MS`; when they are more than RECENT_MAX, the window starts at the latest second
 * that keeps them under it (whole seconds: LastModified has no finer steps).
 */
function windowOf(objects: Listed[], t: number): { w: number; recent: Listed[] } {
	const start = t - WINDOW_MS;
	const inWindow = objects.filter((o) => o.time >= start);
	if (inWindow.length <= RECENT_MAX) return { w: start, recent: inWindow };
	inWindow.sort((x, y) => y.time - x.time);
	let w = inWindow[0].time + 1000;
	let kept = 0;
	for (let n = 0; n < inWindow.length; ) {
		let m = n;
		while (m < inWindow.length && inWindow[m].time === inWindow[n].time) m++;
		if (m > RECENT_MAX) break;
		w = inWindow[n].time;
		kept = m;
		n = m;
	}
	return { w, recent: inWindow.slice(0, kept) };
}

/** The service's time from a Date header, to the second; this machine's clock when there is none. */
function serviceTime(date: string): number {
	const t = Date.parse(date);
	return Number.isNaN(t) ? Math.floor(Date.now() / 1000) * 1000 : t;
}

export interface Comparison {
	/**
	 * Objects of the listing that the previous one did not hold (by key and ETag), with what they
	 * are; `repeat` for those that may have been held (the state could not tell).
	 */
	found: Array<{ object: Listed; event: Event; repeat?: boolean }>;
	/** Whether every difference was read back (so "new" and "changed" are told apart). */
	complete: boolean;
	/** Differences the window gave, and those read from the summary. */
	fromWindow: number;
	fromSummary: number;
	/** Objects emitted that may have been emitted before (`complete` false). */
	unsure: number;
}

/**
 * The listed objects that are among `elements` (by key and ETag id), by element id. One pass over
 * the listing that compares numbers and makes a string only for a match: no map of the whole
 * listing is built on a poll where nothing changed.
 */
function findListed(objects: Listed[], elements: Element[]): Map<string, Listed> {
	const found = new Map<string, Listed>();
	if (elements.length === 0) return found;
	const wanted = new Set(elements.map(elementId));
	const keys = new Set(elements.map((x) => x.a));
	for (const o of objects) {
		if (!keys.has(o.a)) continue;
		const id = elementId(o);
		if (wanted.has(id)) found.set(id, o);
	}
	return found;
}

/**
 * What changed between the previous listing (its state) and this one. Objects modified inside
 * the previous window are compared directly with its recent list: those not in it are new (or
 * changed), those of the list no longer listed are gone. Both are taken out of the difference of
 * the two summaries, which leaves what the window cannot see (objects older than the window that
 * appeared, were changed or were removed) to be read back from it.
 */
/**
 * When the difference could not be read back completely: every object of the listing that may be
 * in what is left of it. Not an object modified inside the previous window (compared exactly);
 * not one whose age class holds the same objects as in the previous listing (AgeClasses); not one
 * in a run of keys that holds the same objects (blocks.ts); not one with a cell of the difference
 * left empty (Summary.mayHold). Whatever is new or changed among the older objects and was not
 * read back is among these, so it is emitted (at least once).
 */
function unsureObjects(stored: ObjectState, objects: Listed[], residue: Summary, found: Set<Listed>): Listed[] {
	const before = AgeClasses.decode(stored.ages, stored.w, WINDOW_MS);
	let differing: boolean[] | undefined;
	if (before) {
		const now = new AgeClasses(stored.w, WINDOW_MS);
		for (const o of objects) now.add(o, o.time);
		differing = now.differing(before);
	}
	const runs = decodeBlocks(stored.blocks);
	const changed = runs ? inChangedRuns(runs, objects) : undefined;
	return objects.filter(
		(o, n) => !(o.time >= stored.w) && !found.has(o) && (!differing || differing[before!.classOf(o.time)]) && (!changed || changed[n]) && residue.mayHold(o),
	);
}

export function compare(stored: ObjectState, objects: Listed[], summary: Summary): Comparison {
	const oldSummary = Summary.decode(stored.summary, SUMMARY_CELLS)!;
	const recent = decodeElements(stored.recent) ?? [];
	const recentIds = new Set(recent.map(elementId));
	const listedRecent = findListed(objects, recent);

	const difference = summary.minus(oldSummary);
	const windowAdded = objects.filter((o) => o.time >= stored.w && !recentIds.has(elementId(o)));
	for (const o of windowAdded) difference.add(o, -1);
	const windowRemoved = recent.filter((x) => !listedRecent.has(elementId(x)));
	for (const x of windowRemoved) difference.add(x, 1);
	const { added, removed, complete } = difference.peel();

	// an object modified again without a new ETag (the same content written again) is in the
	// window but was listed before: the summary gives it back as removed; it is neither
	const removedIds = new Set(removed.map(elementId));
	const additions: Listed[] = [];
	for (const o of windowAdded) {
		if (removedIds.delete(elementId(o))) continue;
		additions.push(o);
	}
	let consistent = true;
	const listedAdded = findListed(objects, added);
	for (const x of added) {
		const o = listedAdded.get(elementId(x));
		if (o) additions.push(o);
		else consistent = false; // not in this listing: a state that does not match it
	}
	const goneKeys = new Set([...windowRemoved, ...removed.filter((x) => removedIds.has(elementId(x)))].map(keyIdString));
	const certain = complete && consistent;
	const found: Comparison['found'] = additions.map((object) => ({
		object,
		event: (goneKeys.has(keyIdString(object)) ? 'changed' : certain ? 'new' : 'newOrChanged') as Event,
	}));
	// more differences than the summary holds: the objects that may be among those not read back
	const unsure = complete ? [] : unsureObjects(stored, objects, difference, new Set(additions));
	for (const object of unsure) found.push({ object, event: 'newOrChanged', repeat: true });
	found.sort((x, y) => (x.object.time || 0) - (y.object.time || 0) || (x.object.key < y.object.key ? -1 : x.object.key > y.object.key ? 1 : 0));
	return { found, complete: certain, fromWindow: windowAdded.length + windowRemoved.length, fromSummary: added.length + removed.length, unsure: unsure.length };
}

/** The state after a listing. */
function stateOf(scope: string, objects: Listed[], summary: Summary, t: number): ObjectState {
	const { w, recent } = windowOf(objects, t);
	const ages = new AgeClasses(w, WINDOW_MS);
	for (const o of objects) ages.add(o, o.time);
	return { v: 1, scope, t, w, recent: encodeElements(recent), summary: summary.encode(), objects: objects.length, ages: ages.encode(), blocks: encodeBlocks(blocksOf(objects)) };
}

/** The item of an event: what it is and the object as listed; `repeatPossible` when it may have been emitted before. */
function eventItem(event: Event, bucket: string, o: Listed, repeat = false): IDataObject {
	return repeat ? { event, bucket, ...o.item, repeatPossible: true, repeatNote: REPEAT_NOTE } : { event, bucket, ...o.item };
}

/** What a download adds to an event's item (the listing already gave key, size, ETag and time). */
const DOWNLOAD_FIELDS = ['contentType', 'metadata', 'cacheControl', 'contentDisposition', 'contentEncoding', 'expires'];

/**
 * Downloads the file of each event, a few at a time, exactly the version listed (If-Match on its
 * ETag). An object deleted or written again since it was listed (404, 412), or one the access key
 * may not read (403), gives its event without a file and says why in `downloadError`; any other
 * failure fails the poll, which is then repeated.
 */
async function downloadAll(ctx: IPollFunctions, s: Settings, items: IDataObject[]): Promise<Array<IBinaryKeyData | undefined>> {
	const limiter = new Limiter(DOWNLOADS_AT_ONCE);
	return await Promise.all(
		items.map(
			async (item) =>
				await limiter.run(async () => {
					const key = String(item.key);
					try {
						const headers = item.etag ? { 'If-Match': `"${String(item.etag)}"` } : undefined;
						const { json, binary } = await downloadObject(ctx, { bucket: s.bucket, key, headers });
						for (const field of DOWNLOAD_FIELDS) if (json[field] !== undefined) item[field] = json[field];
						return binary ? { [s.property]: binary } : undefined;
					} catch (error) {
						const status = error instanceof NodeApiError ? String(error.httpCode ?? '') : '';
						if (!['403', '404', '412'].includes(status)) throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error);
						const why: Record<string, string> = {
							'403': 'the access key may not read this object',
							'404': 'the object was deleted before it could be downloaded',
							'412': 'the object was written again before it could be downloaded (a later poll reports the new version as changed)',
						};
						// the service's own words add nothing to these (its code is on the error, not shown)
						item.downloadError = `Not downloaded: ${why[status]}`;
						return undefined;
					}
				}),
		),
	);
}

/** The poll of this trigger, for the current parameters. */
export function objectTrigger(ctx: IPollFunctions): TriggerPoll<ObjectState> {
	const s = settingsOf(ctx);
	const scope = JSON.stringify([s.bucket, s.prefix, s.subfolders]);

	const trigger: TriggerPoll<ObjectState> = {
		credential: STORAGE_CREDENTIAL,
		hasBaseline: (stored) =>
			stored !== undefined &&
			stored.v === 1 &&
			stored.scope === scope &&
			typeof stored.w === 'number' &&
			Summary.decode(stored.summary, SUMMARY_CELLS) !== undefined &&
			decodeElements(stored.recent) !== undefined,

		async poll(stored): Promise<PollResult<ObjectState>> {
			const { objects, date } = await listObjects(ctx, s);
			const summary = Summary.of(objects, SUMMARY_CELLS);
			const state = stateOf(scope, objects, summary, serviceTime(date));
			if (!trigger.hasBaseline(stored)) return { state, events: [] };

			const result = compare(stored!, objects, summary);
			if (!result.complete) {
				ctx.logger.warn(
					`"${ctx.getNode().name}" saw more differences between two polls than its state can tell apart ` +
						`(about ${Math.floor(SUMMARY_CELLS / 1.3)} differences older than the last ${WINDOW_MS / 60000} minutes can be told apart). ` +
						`${result.found.length - result.unsure} objects it found for certain are emitted once, marked "newOrChanged" where it cannot tell new from changed; ` +
						`${result.unsure} more that may be new or changed are emitted with repeatPossible: true (some may have been emitted before). None is left out.`,
				);
			}
			const wanted = result.found.filter((f) => s.watch === 'newOrChanged' || f.event !== 'changed');
			const events = wanted.map((f) => eventItem(f.event, s.bucket, f.object, f.repeat));
			const files = s.download && events.length ? await downloadAll(ctx, s, events) : undefined;
			return { state, events, files };
		},

		async sample(): Promise<EventsWithFiles> {
			// a real object: the one modified last (a full listing, as a poll makes)
			const { objects } = await listObjects(ctx, s);
			let newest: Listed | undefined;
			for (const o of objects) if (!newest || (o.time || 0) > (newest.time || 0) || ((o.time || 0) === (newest.time || 0) && o.key > newest.key)) newest = o;
			if (newest) {
				const events = [eventItem('new', s.bucket, newest)];
				return { events, files: s.download ? await downloadAll(ctx, s, events) : [] };
			}
			return await sampleWithoutObject(ctx, s);
		},
	};
	return trigger;
}

/** Fetch Test Event with nothing to show: a sample for these settings, marked as one. */
async function sampleWithoutObject(ctx: IPollFunctions, s: Settings): Promise<EventsWithFiles> {
	const place = s.prefix ? (s.subfolders ? `under "${s.prefix}" in` : `directly in "${s.prefix}" (not in its subfolders) in`) : s.subfolders ? 'in' : 'at the top (not in folders) of';
	const where = `${place} bucket "${s.bucket}"`;
	const text = `Sample file of the Vendor Object Storage Trigger: no object is listed ${where}.\n`;
	const body = Buffer.from(text, 'utf8');
	const event: IDataObject = {
		event: 'new',
		bucket: s.bucket,
		key: `${s.prefix}example.txt`,
		size: body.length,
		lastModified: new Date().toISOString(),
		etag: createHash('md5').update(body).digest('hex'),
		storageClass: 'STANDARD',
		sample: true,
		sampleNote:
			`Sample, not an event: no object is listed ${where}, so this one is made up. A real event has these fields for each object ` +
			`${s.watch === 'newOrChanged' ? 'added or changed' : 'added'} there after the workflow is published, with "event" saying which` +
			`${s.download ? ', and its file in the binary field' : ''}.`,
	};
	if (!s.download) return { events: [event], files: [] };
	event.contentType = 'text/plain';
	event.metadata = {};
	const binary = await ctx.helpers.prepareBinaryData(body, 'example.txt', 'text/plain');
	return { events: [event], files: [{ [s.property]: binary }] };
}

/**
 * Things chosen by what a person (or a model) says: wherever a host, disk, domain, channel or
 * another listed resource is chosen, the input may be its ID or what people call it (a name,
 * an instance ID, an IP address). Anything that is not an ID is looked up in the resource's
 * own list before anything is sent, and must match exactly one record; otherwise the error
 * names the candidates. One listing per resource serves every item of a run.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { runState } from '../run';
import type { LocatorDecl } from './declarations';
import { listRows } from './envelope';
import { apiRequestAllItems } from './paging';
import { apiRequest } from './transport';

const MAX_NAMED = 15;

function values(v: unknown): string[] {
	if (Array.isArray(v)) return v.flatMap(values);
	if (v === undefined || v === null || typeof v === 'object') return [];
	return [String(v).trim().toLowerCase()];
}

/** The records of a locator's list (every page), read once per run and shared by every item. */
export async function locatorRecords(fn: IExecuteFunctions, loc: LocatorDecl, body: IDataObject, itemIndex: number): Promise<IDataObject[]> {
	const cache = runState(fn).cache;
	const key = `${loc.key}\u0000${JSON.stringify(body)}`;
	let rows = cache.get(key);
	if (!rows) {
		rows = (async () => {
			if (loc.paged) return await apiRequestAllItems(fn, loc.path, body, { itemIndex });
			const envelope = await apiRequest(fn, loc.path, body, { itemIndex, read: true });
			return loc.rows ? loc.rows(envelope) : listRows(envelope);
		})();
		cache.set(key, rows);
		rows.catch(() => cache.delete(key));
	}
	return await rows;
}

/** What a record is called, for messages: its first name field ("web-1"), else its display name. */
function nameOf(loc: LocatorDecl, row: IDataObject): string {
	const first = loc.resolve?.fields.map((f) => row[f]).find((v) => typeof v === 'string' || typeof v === 'number');
	return first !== undefined && String(first) !== '' ? String(first) : loc.name(row);
}

/** "web-1 (203.0.114.3) (ID 3)": the list's display name, for sentences about a text. */
function shown(loc: LocatorDecl, row: IDataObject): string {
	return `${loc.name(row)} (ID ${String(row[loc.idField ?? 'id'])})`;
}

/** "web-1 (ID 3)". */
export function describe(loc: LocatorDecl, row: IDataObject): string {
	return `${nameOf(loc, row)} (ID ${String(row[loc.idField ?? 'id'])})`;
}

/** Edit distance, for putting the records closest to a mistyped name first. */
function distance(a: string, b: string): number {
	if (a === b) return 0;
	const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		let diag = prev[0];
		prev[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const up = prev[j];
			prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
			diag = up;
		}
	}
	return prev[b.length];
}

/** The records, those whose names are closest to `needle` first (stable otherwise). */
function closest(loc: LocatorDecl, rows: IDataObject[], needle: string): IDataObject[] {
	const score = (row: IDataObject) => Math.min(...loc.resolve!.fields.flatMap((f) => values(row[f])).map((v) => distance(v.slice(0, 64), needle.slice(0, 64))), Infinity);
	return rows
		.map((row, i) => ({ row, i, d: score(row) }))
		.sort((a, b) => a.d - b.d || a.i - b.i)
		.map((x) => x.row);
}

/** "hosts: web-1 (ID 1), web-10 (ID 12), ... and 108 more". */
function candidates(loc: LocatorDecl, rows: IDataObject[], needle: string): string {
	const noun = loc.label.toLowerCase();
	const known = closest(loc, rows, needle).slice(0, MAX_NAMED).map((r) => describe(loc, r));
	const more = rows.length > MAX_NAMED ? ` and ${rows.length - MAX_NAMED} more` : '';
	return `${noun}s: ${known.join(', ')}${more}`;
}

/** The records of `loc` with these IDs, in their order (from the run's listing; one listing per run). */
export async function rowsWithIds(
	fn: IExecuteFunctions,
	loc: LocatorDecl,
	ids: string[],
	itemIndex: number,
	current: (name: string) => unknown,
): Promise<IDataObject[]> {
	const rows = await locatorRecords(fn, loc, { ...(loc.body ? loc.body(current) : {}) }, itemIndex);
	const key = loc.idField ?? 'id';
	return ids.map((id) => rows.find((r) => String(r[key]) === String(id))).filter((r): r is IDataObject => r !== undefined);
}

export { nameOf };

/** Whether the input is already an ID of this resource. */
export function isId(loc: LocatorDecl, input: string): boolean {
	return new RegExp(loc.idPattern ?? '^[0-9]+$').test(input);
}

/**
 * The ID of the one record of `loc` that `input` names. An input that is already an ID is
 * returned as it is. `current` reads other parameters of the item (e.g. the host whose disks
 * are meant).
 */
export async function resolveReference(
	fn: IExecuteFunctions,
	loc: LocatorDecl,
	input: string,
	label: string,
	itemIndex: number,
	current: (name: string) => unknown,
	/** verifyIds: a tool run (the model's IDs are checked too, and messages speak to a model). */
	options: { verifyIds?: boolean } = {},
): Promise<string> {
	const wanted = input.trim();
	if (!loc.resolve) return wanted;
	const noun = loc.label.toLowerCase();
	const body: IDataObject = { ...(loc.body ? loc.body(current) : {}) };
	if (isId(loc, wanted)) {
		// an ID is sent as it is; a model's IDs (tool runs) are checked against the list first, so
		// a wrong one is answered with the candidates instead of the service's refusal
		if (!options.verifyIds) return wanted;
		let rows: IDataObject[];
		try {
			rows = await locatorRecords(fn, loc, body, itemIndex);
		} catch {
			return wanted; // the list cannot be read (e.g. no permission): the service decides
		}
		if (rows.some((r) => String(r[loc.idField ?? 'id']) === wanted)) return wanted;
		const named = rows.filter((row) => loc.resolve!.fields.some((f) => values(row[f]).includes(wanted.toLowerCase())));
		if (named.length === 1) return String(named[0][loc.idField ?? 'id']);
		const message = rows.length ? `No ${noun} has the ID ${wanted}; ${candidates(loc, rows, wanted)}. Use one of these names or IDs.` : `No ${noun} has the ID ${wanted}: there are no ${noun}s.`;
		throw new NodeOperationError(fn.getNode(), message, { itemIndex, description: message });
	}
	const rows = await locatorRecords(fn, loc, body, itemIndex);
	const needle = wanted.toLowerCase();
	const hits = rows.filter((row) => loc.resolve!.fields.some((f) => values(row[f]).includes(needle)));
	if (hits.length === 1) return String(hits[0][loc.idField ?? 'id']);
	if (hits.length > 1) {
		throw new NodeOperationError(
			fn.getNode(),
			`${hits.length} ${noun}s match "${wanted}": ${hits.slice(0, MAX_NAMED).map((r) => describe(loc, r)).join(', ')}; give the ID of the one meant in "${label}"`,
			{ itemIndex, description: `"${label}" takes an ID, or ${loc.resolve.what} that matches exactly one ${noun}.` },
		);
	}
	const message = rows.length
		? `No ${noun} is called "${wanted}" (checked: ${loc.resolve.what}); ${candidates(loc, rows, needle)}`
		: `No ${noun} is called "${wanted}": there are no ${noun}s`;
	// a model (tool runs) reads the message only: it ends with what to do instead of the editor's advice
	if (options.verifyIds) throw new NodeOperationError(fn.getNode(), `${message}. Use one of these names or IDs.`, { itemIndex, description: `${message}. Use one of these names or IDs.` });
	throw new NodeOperationError(fn.getNode(), message, {
		itemIndex,
		description: `"${label}" takes an ID, or ${loc.resolve.what} of exactly one ${noun}; choose it from the list to be sure.`,
	});
}

/** Letters, digits, `_` and `-` continue a name; anything else (a space, a comma, a quote) ends it. */
const NAME_CHAR = /[\p{L}\p{N}_-]/u;

/**
 * Whether `text` names `value` as a whole word: "restart web-1." names web-1, "web-10" does not;
 * "ping 10.0.0.1." names 10.0.0.1, "10.0.0.12" does not. Case is ignored.
 */
export function mentions(text: string, value: string): boolean {
	const needle = value.trim().toLowerCase();
	if (!needle) return false;
	const hay = text.toLowerCase();
	for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
		const before = hay.slice(0, at);
		const prev = before.slice(-1);
		const next = hay.charAt(at + needle.length);
		const afterNext = hay.charAt(at + needle.length + 1);
		const startOk = !prev || (!NAME_CHAR.test(prev) && prev !== '.');
		// a dot after the name ends it only when no name character follows ("web-1." but not "web-1.example")
		const endOk = !next || (!NAME_CHAR.test(next) && (next !== '.' || !afterNext || !NAME_CHAR.test(afterNext)));
		if (startOk && endOk) return true;
	}
	return false;
}

export interface NamedInText {
	/** The records the text names, by any of the locator's `resolve` fields. */
	named: IDataObject[];
	/** Every record that was looked at. */
	all: IDataObject[];
	/** One sentence: which record the text names, or why none can be chosen. */
	message: string;
}

/**
 * The records of `loc` that `text` names by what people call them (the fields of its `resolve`:
 * for hosts a name, an instance ID or an IP address), from the same listing and with the same
 * words as resolveReference. Several values of one record (its name and its IP) count once.
 */
export async function findNamedIn(
	fn: IExecuteFunctions,
	loc: LocatorDecl,
	text: string,
	itemIndex: number,
	current: (name: string) => unknown = () => undefined,
): Promise<NamedInText> {
	if (!loc.resolve) throw new Error(`${loc.key} has no names to look for`);
	const rows = await locatorRecords(fn, loc, { ...(loc.body ? loc.body(current) : {}) }, itemIndex);
	const named = rows.filter((row) => loc.resolve!.fields.some((f) => values(row[f]).some((v) => mentions(text, v))));
	const noun = loc.label.toLowerCase();
	const quoted = `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
	const known = rows.slice(0, MAX_NAMED).map((r) => shown(loc, r));
	const more = rows.length > MAX_NAMED ? ` and ${rows.length - MAX_NAMED} more` : '';
	let message: string;
	if (named.length === 1) message = `The text names ${noun} ${shown(loc, named[0])}`;
	else if (named.length > 1)
		message = `The text names ${named.length} ${noun}s: ${named.slice(0, MAX_NAMED).map((r) => shown(loc, r)).join(', ')}; name only one of them`;
	else if (rows.length) message = `No ${noun} is named in ${quoted} (looked for ${loc.resolve.what}); ${noun}s: ${known.join(', ')}${more}`;
	else message = `No ${noun} is named in ${quoted}: there are no ${noun}s`;
	return { named, all: rows, message };
}

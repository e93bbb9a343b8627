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
import { apiRequest, apiRequestAllItems, payload } from './transport';

const MAX_NAMED = 15;

function values(v: unknown): string[] {
	if (Array.isArray(v)) return v.flatMap(values);
	if (v === undefined || v === null || typeof v === 'object') return [];
	return [String(v).trim().toLowerCase()];
}

async function rowsOf(fn: IExecuteFunctions, loc: LocatorDecl, body: IDataObject, itemIndex: number): Promise<IDataObject[]> {
	const cache = runState(fn).cache;
	const key = `${loc.key}\u0000${JSON.stringify(body)}`;
	let rows = cache.get(key);
	if (!rows) {
		rows = (async () => {
			if (loc.paged) return await apiRequestAllItems(fn, loc.path, body, { itemIndex });
			const envelope = await apiRequest(fn, loc.path, body, { itemIndex, read: true });
			if (loc.rows) return loc.rows(envelope);
			const p = payload(envelope);
			return Array.isArray(p) ? (p as IDataObject[]) : [];
		})();
		cache.set(key, rows);
		rows.catch(() => cache.delete(key));
	}
	return await rows;
}

/** "web-1 (ID 3, 203.0.113.10)". */
function describe(loc: LocatorDecl, row: IDataObject): string {
	return `${loc.name(row)} (ID ${String(row[loc.idField ?? 'id'])})`;
}

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
): Promise<string> {
	const wanted = input.trim();
	if (isId(loc, wanted) || !loc.resolve) return wanted;
	const body: IDataObject = { ...(loc.body ? loc.body(current) : {}) };
	const rows = await rowsOf(fn, loc, body, itemIndex);
	const needle = wanted.toLowerCase();
	const hits = rows.filter((row) => loc.resolve!.fields.some((f) => values(row[f]).includes(needle)));
	const noun = loc.label.toLowerCase();
	if (hits.length === 1) return String(hits[0][loc.idField ?? 'id']);
	if (hits.length > 1) {
		throw new NodeOperationError(
			fn.getNode(),
			`${hits.length} ${noun}s match "${wanted}": ${hits.slice(0, MAX_NAMED).map((r) => describe(loc, r)).join(', ')}; give the ID of the one meant in "${label}"`,
			{ itemIndex, description: `"${label}" takes an ID, or ${loc.resolve.what} that matches exactly one ${noun}.` },
		);
	}
	const known = rows.slice(0, MAX_NAMED).map((r) => describe(loc, r));
	const more = rows.length > MAX_NAMED ? ` and ${rows.length - MAX_NAMED} more` : '';
	throw new NodeOperationError(
		fn.getNode(),
		rows.length
			? `No ${noun} is called "${wanted}" (checked: ${loc.resolve.what}); ${noun}s: ${known.join(', ')}${more}`
			: `No ${noun} is called "${wanted}": there are no ${noun}s`,
		{ itemIndex, description: `"${label}" takes an ID, or ${loc.resolve.what} of exactly one ${noun}; choose it from the list to be sure.` },
	);
}

/**
 * Simplified output ("Simplify", on by default): records a person (or a model) reads without
 * knowing the API. An operation declares which fields it keeps, under which English names, and
 * how each is shown; build.ts applies it in one place. With Simplify off the record is the
 * service's, unchanged.
 *
 * The conventions, the same in every node:
 * - Names are camelCase English words (`hostRecord`, `dataCentre`, `created`), never an API
 *   field spelled otherwise (`subdomain`, `node_zh`, `createtime`) and never a field in another
 *   language (`type_zh`): a `_zh` display name is used as a value, under the English name.
 * - A coded field gives the word and, next to it, the code as the service sent it:
 *   `status: 'Running', statusCode: '1'`. A code the documents give no word for
 *   (docs/vendor/readings.md#r5) is shown as it came (`status: '12', statusCode: '12'`), or as
 *   the service's own display name when it sends one. Where a bare number would read as a word
 *   the user should know (payment and invoice status), the record has only `statusCode`, and the
 *   run says once that the documents give these codes no meaning (the operation's `notes`).
 * - Yes/no codes (0/1) are booleans: `starred: true`.
 * - Times are ISO 8601 with the offset of the workflow's time zone
 *   (`created: '2026-11-22T10:04:05+00:00'`); see time.ts. Amounts, sizes and counts are
 *   numbers; identifiers stay as they came.
 * - The currency of amounts is said once per run, not on every record (CURRENCY_NOT_NAMED in the
 *   operation's `notes`): the service names none (docs/vendor/readings.md#r71).
 * - A field the record does not have is left out (never null-filled).
 */
import type { IDataObject } from 'n8n-workflow';

import { codeKey, wordOf, type CodeTable } from './codes/reading';
import type { SimpleField, SimpleReader, SimplifyContext, SimplifySpec } from './declarations';
import { toIso } from './time';

export type { SimpleField, SimplifyContext, SimplifySpec };

/** A field by path: `name`, `node.areaname`. */
export function get(record: IDataObject, path: string): unknown {
	let v: unknown = record;
	for (const part of path.split('.')) {
		if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
		v = (v as IDataObject)[part];
	}
	return v;
}

const present = (v: unknown) => v !== undefined;

/* ------------------------------------------------------------- constructors */

/** The field as it came. */
export const field = (path: string): SimpleField => ({ read: (r) => get(r, path) });

/** The first of several fields that is present and not empty. */
export const first = (...paths: string[]): SimpleField => ({
	read: (r) => {
		for (const p of paths) {
			const v = get(r, p);
			if (v !== undefined && v !== null && v !== '') return v;
		}
		return paths.map((p) => get(r, p)).find(present);
	},
});

/** A number (amounts, sizes, counts); a value that is not one stays as it came. */
export const number = (path: string): SimpleField => ({
	read: (r) => {
		const v = get(r, path);
		if (v === undefined || v === null || v === '') return v === '' ? null : v;
		const n = typeof v === 'number' ? v : Number(String(v).replace(/,/g, '').trim());
		return Number.isFinite(n) ? n : v;
	},
});

/** A 0/1 (or "yes"/"no", "on"/"off") flag as a boolean; another value stays as it came. */
export const flag = (path: string): SimpleField => ({
	read: (r) => {
		const v = get(r, path);
		const key = codeKey(v)?.toLowerCase();
		if (key === '1' || key === 'yes' || key === 'on' || key === 'true') return true;
		if (key === '0' || key === 'no' || key === 'off' || key === 'false') return false;
		return v;
	},
});

/** A time: a display date-time (read in the workflow's time zone) or a Unix timestamp, as ISO 8601. */
export const time = (path: string): SimpleField => ({
	read: (r, ctx) => {
		const v = get(r, path);
		return v === undefined ? undefined : toIso(v, ctx.timeZone);
	},
});

/**
 * A coded field: its word under the key and the code under `<key>Code`. `display` names a field
 * the service sends with its own display name of the code (`status_zh`), used when the table
 * has no word for the code.
 */
export const code = (path: string, codes: CodeTable, display?: string): SimpleField => ({
	read: (r) => {
		const v = get(r, path);
		if (v === undefined) return undefined;
		const word = wordOf(codes, v);
		if (word !== undefined) return word;
		const shown = display ? get(r, display) : undefined;
		return shown !== undefined && shown !== null && shown !== '' ? shown : v;
	},
	code: (r) => get(r, path),
});

/**
 * A field the record carries only as the service's display name (`type_zh` of payments): the
 * word when the request named the code (a filter sent in `requestWire`) or when the display
 * name is one of the table's words; otherwise the display name as it came.
 */
export const named = (path: string, codes: CodeTable, requestWire?: string): SimpleField => ({
	read: (r, ctx) => {
		const sent = requestWire ? ctx.body[requestWire] : undefined;
		const fromRequest = sent === undefined ? undefined : wordOf(codes, sent);
		if (fromRequest !== undefined) return fromRequest;
		const v = get(r, path);
		if (v === undefined) return undefined;
		return wordOf(codes, v) ?? v;
	},
});

/**
 * The currency of amounts. The vendor's documentation names none, on the account, the balance or
 * any record (docs/vendor/readings.md#r71): the operations that give amounts say so once per run
 * (their `notes`), and the billing report in its text.
 */
export const CURRENCY_NOT_NAMED = "Amounts are in the account's currency, which the service does not name.";

/**
 * The note of a record that carries a status code the documents give no meaning for (payment and
 * invoice `status`, docs/vendor/readings.md#r5): the record shows it as `statusCode`, as it came.
 */
export const statusWithoutMeaning = (records: string) =>
	`statusCode is the service's own status code of ${records}; the vendor's documentation gives no meaning for it, so it is shown as it came.`;

/** Anything else, computed from the record. */
export const computed = (read: SimpleReader): SimpleField => ({ read });

/* ---------------------------------------------------------------- applying */

/** One record simplified by `spec`. */
export function simplifyRecord(record: IDataObject, spec: SimplifySpec, ctx: SimplifyContext): IDataObject {
	const out: IDataObject = {};
	for (const [key, f] of Object.entries(spec)) {
		const value = f.read(record, ctx);
		if (value === undefined) continue;
		out[key] = value as IDataObject[string];
		if (f.code) {
			const c = f.code(record, ctx);
			if (c !== undefined) out[`${key}Code`] = c as IDataObject[string];
		}
	}
	return out;
}

/** The names a simplified record can have, for the Simplify hint and the docs. */
export function simplifiedNames(spec: SimplifySpec): string[] {
	return Object.entries(spec).flatMap(([key, f]) => (f.code ? [key, `${key}Code`] : [key]));
}

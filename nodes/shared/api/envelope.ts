/**
 * The envelope every answer of the management interface comes in: `code` (1 is success),
 * `message`, and the payload under `data` (or `result`, where a list answers under that key),
 * with `page`, `limit`, `total` and `totalpage` for paged lists.
 */
import type { IDataObject } from 'n8n-workflow';

export interface Envelope extends IDataObject {
	code: number | string;
	message?: string;
}

/**
 * The envelope's `code` as a number: a JSON number, or a string holding a decimal number (`"1"`,
 * readings R36); anything else (`true`, `"yes"`, an object) is not a code and gives NaN, so it is
 * never taken for success (docs/vendor/management.md#envelope: only 1 is success).
 */
export function codeOf(envelope: Envelope): number {
	const code: unknown = envelope.code;
	if (typeof code === 'number') return code;
	if (typeof code === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(code)) return Number(code);
	return Number.NaN;
}

/** The payload of an envelope: `data`, or `result` where a list answers under that key. */
export function payload(envelope: Envelope): unknown {
	if (envelope.data !== undefined) return envelope.data;
	if (envelope.result !== undefined) return envelope.result;
	return undefined;
}

/** The records of a list answer: the payload when it is an array, otherwise none. */
export function listRows(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	return Array.isArray(p) ? (p as IDataObject[]) : [];
}

/**
 * The records of one page of a paged list: the payload array; a single record (an object that
 * is not empty) as one record; nothing for an empty answer (none, `""`, `{}`).
 */
export function pageRows(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	if (Array.isArray(p)) return p as IDataObject[];
	if (p === undefined || p === null || p === '') return [];
	if (typeof p === 'object' && Object.keys(p).length === 0) return [];
	return [p as IDataObject];
}

/** The first record of a one-record answer: the payload object, or the first element when it came as a list. */
export function firstRecord(envelope: Envelope): IDataObject | undefined {
	const p = payload(envelope);
	return (Array.isArray(p) ? p[0] : p) as IDataObject | undefined;
}

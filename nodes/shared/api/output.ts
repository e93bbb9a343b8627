/**
 * The output items of an operation: the records of the service's answer (one item per record),
 * an item for an answer without data (the identifiers the request named and what the service
 * said), `deleted: true` for deletes, and the simplified form when Simplify is on.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationDecl } from './declarations';
import { payload, type Envelope } from './envelope';
import { FIELD_KINDS } from './field-kinds';
import { simplifyRecord } from './simplify';
import { readBoolean } from './values';

/**
 * Envelope fields that are not part of an item: the code, the payload, and `created` (the
 * response time, which next to the identifiers would read as the record's creation time).
 */
const NOT_IN_ITEM = new Set(['code', 'data', 'result', 'created']);
const SECRET_KEY = /token|password|secret/i;

/**
 * The item of an answer without data (a password change, a record note, an empty `[]`): the
 * identifiers the request named (so the next node knows what was acted on) and what the
 * service said: its `message` and any top-level field beyond the envelope's. Nothing is
 * invented; an answer with no message gives just the identifiers.
 */
export function noDataRecord(envelope: Envelope, request: IDataObject = {}): IDataObject {
	const out: IDataObject = { ...request };
	for (const [key, value] of Object.entries(envelope)) {
		if (!NOT_IN_ITEM.has(key) && !SECRET_KEY.test(key)) out[key] = value;
	}
	return out;
}

/** The records of an answer: one per element of a list payload, the payload object, or the no-data item. */
export function defaultRecords(envelope: Envelope, request: IDataObject = {}): IDataObject[] {
	const p = payload(envelope);
	if (p === undefined || p === null || p === '') return [noDataRecord(envelope, request)];
	if (Array.isArray(p)) return p.map((x) => (typeof x === 'object' && x !== null ? (x as IDataObject) : { value: x as string }));
	if (typeof p === 'object') return [p as IDataObject];
	return [{ data: p as string }];
}

/** The records of an answer with the envelope's message (e.g. "kept for 2 hours") added to each record that has none. */
export function recordsWithMessage(envelope: Envelope): IDataObject[] {
	return defaultRecords(envelope).map((r) => (envelope.message && r.message === undefined ? { ...r, message: envelope.message } : r));
}

/** The identifiers a request named (locators and ID fields), as sent; never secrets. */
export function requestIdentifiers(op: OperationDecl, body: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const f of op.fields ?? []) {
		if (FIELD_KINDS[f.kind].identifies && !f.notSent && body[f.wire] !== undefined) out[f.wire] = body[f.wire];
	}
	return out;
}

/** The records of the answer to one call that is not a list. */
export function answerRecords(op: OperationDecl, envelope: Envelope, body: IDataObject): IDataObject[] {
	const identifiers = requestIdentifiers(op, body);
	let records = op.output ? op.output(envelope) : defaultRecords(envelope, identifiers);
	if (records.length === 0 && !op.output) {
		// a change answered with no records (`[]`, an empty array) still gives one item; a read gives
		// what came (no record: no item), except that `[]` for a one-object answer is that object, empty
		if (!op.readOnly) records = [noDataRecord(envelope, identifiers)];
		else if (op.answersOneObject) records = [{}];
	}
	if (op.deletes) records = records.map((r) => ({ deleted: true, ...r }));
	return records;
}

/** The records as Simplify (on by default, where the operation declares it) shows them; a delete's keep `deleted: true`. */
export function simplified(fn: IExecuteFunctions, op: OperationDecl, itemIndex: number, records: IDataObject[], body: IDataObject): IDataObject[] {
	if (!op.simplify || !readBoolean(fn.getNodeParameter('simplify', itemIndex, true), 'Simplify')) return records;
	const context = { body, timeZone: fn.getTimezone() };
	return records.map((r) => (op.deletes ? { deleted: true, ...simplifyRecord(r, op.simplify!, context) } : simplifyRecord(r, op.simplify!, context)));
}

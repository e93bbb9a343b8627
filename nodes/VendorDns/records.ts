/**
 * DNS records beyond their fields: the value each record type needs, and Record > Add's first
 * record and More Records written as the one `records` string dns/recordAdd takes, each record
 * checked with its own label before anything is sent.
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { OperationContext } from '../shared/api/declarations';
import { defaultRecords } from '../shared/api/output';
import { apiRequest } from '../shared/api/transport';
import { InputError } from '../shared/errors';
import { check } from '../shared/validation';

/**
 * A value that holds ";" or "#" (a DKIM or SPF TXT value) cannot travel in a recordAdd entry,
 * where those characters separate fields and records. Such a record is added under a host record
 * of its own that nobody asks for (`_n8n-pending-<random>`) with this value in its place, then
 * moved to its host record and given its value with dns/recordUpdate, which takes each field as
 * a parameter of its own. So the stand-in never answers for the host record the user named: that
 * name gets the record only with its whole value. (A stand-in value under the real name would be
 * live between the two calls: a DKIM or SPF check asking then would get it.)
 */
const PENDING_VALUE = 'n8n-value-pending';
const PENDING_HOST = '_n8n-pending-';
/** A record of an Add that is finished by dns/recordUpdate: the entry as the user gave it, and where it waits. */
interface Deferred {
	/** The host record it is added under first. */
	pending: string;
	/** The user's entry: subdomain, recordtype, recordline, value, mx, ttl, weight (text as typed; empty = not set). */
	entry: Record<string, string>;
	label: string;
}
/** The records of an Add whose value is set afterwards. */
const deferredValues = new WeakMap<IDataObject, Deferred[]>();

/** What a value must be for the record types whose values can be checked. */
const VALUE_CHECK: Record<string, { kind: 'ipv4' | 'ipv6' | 'hostname'; what: string }> = {
	A: { kind: 'ipv4', what: 'an A record needs an IPv4 address' },
	AAAA: { kind: 'ipv6', what: 'an AAAA record needs an IPv6 address' },
	CNAME: { kind: 'hostname', what: 'a CNAME record needs a host name' },
	MX: { kind: 'hostname', what: 'an MX record needs a mail server host name' },
	NS: { kind: 'hostname', what: 'an NS record needs a name server host name' },
};

/** Checks a value against its record type; returns the problem or undefined. */
export function valueProblem(type: string, v: string): string | undefined {
	const rule = VALUE_CHECK[type];
	if (!rule) return undefined;
	const problem = check({ kind: rule.kind }, v);
	return problem ? `${problem} (${rule.what})` : undefined;
}

/**
 * recordAdd `records`: entries `subdomain;recordtype;recordline;value;mx;ttl;weight` joined by
 * `#`; what the user did not set is left empty in its place (never a made-up line, TTL, MX
 * priority or weight: readings R69). Each record is checked here with its label, so nothing is
 * sent when one is wrong.
 */
function serializeRecords(records: Array<{ row: IDataObject; label: (field: string) => string }>, deferred: Deferred[]): string {
	return records
		.map(({ row, label }) => {
			const type = String(row.recordtype);
			const text = (key: string) => (row[key] === undefined || row[key] === null ? '' : String(row[key]).trim());
			for (const [key, name] of [
				['subdomain', 'Host Record'],
				['recordline', 'Line'],
			]) {
				if (/[;#]/.test(text(key))) {
					throw new InputError(
						`Invalid "${label(name)}": "${text(key)}" contains ";" or "#", which separate records`,
						'Remove ; and # from the value, or add the record with another value and set it with Record: Update.',
					);
				}
			}
			const problem = valueProblem(type, text('value'));
			if (problem) throw new InputError(`Invalid "${label('Value')}": ${problem}`, 'Correct the value or change the type.');
			const entry = {
				subdomain: text('subdomain') || '@',
				recordtype: type,
				recordline: text('recordline'),
				value: text('value'),
				mx: type.toUpperCase() === 'MX' ? text('mx') : '',
				ttl: text('ttl'),
				weight: text('weight'),
			};
			let { subdomain, value } = entry;
			if (/[;#]/.test(value)) {
				// added under a host record of its own, then moved and given its value by dns/recordUpdate (see PENDING_VALUE)
				subdomain = `${PENDING_HOST}${Math.random().toString(36).slice(2, 10)}`;
				deferred.push({ pending: subdomain, entry, label: label('Value') });
				value = PENDING_VALUE;
			}
			// an unset line, TTL, MX priority or weight leaves its place empty: the service chooses (readings R69)
			return [subdomain, type, entry.recordline, value, entry.mx, entry.ttl, entry.weight].join(';');
		})
		.join('#');
}

/** The first record (the form's fields) and the More Records rows as one `records` string. */
export function recordsOf(body: IDataObject): IDataObject {
	const { did, recordtype, subdomain, value: v, recordline, ttl: t, mx: m, weight: w, records: more } = body;
	const first = { recordtype, subdomain, value: v, recordline, ttl: t, mx: m, weight: w };
	const rows = Array.isArray(more) ? (more as IDataObject[]) : [];
	const all = [
		{ row: first as IDataObject, label: (f: string) => f },
		...rows.map((row, n) => ({ row, label: (f: string) => `More Records ${n + 1}: ${f}` })),
	];
	const deferred: Deferred[] = [];
	const out: IDataObject = { did, records: serializeRecords(all, deferred) };
	if (deferred.length) deferredValues.set(out, deferred);
	return out;
}

/** A number field of the update: as typed, else as the added record has it; left out when neither says. */
function numberOf(typed: string, added: unknown): number | string | undefined {
	const v = typed !== '' ? typed : added === undefined || added === null ? '' : String(added).trim();
	if (v === '') return undefined;
	return /^-?\d+$/.test(v) ? Number(v) : v;
}

/**
 * The dns/recordUpdate that finishes a deferred record: the whole record as the user gave it
 * (its host record, type, value), with what the user left unset taken from the record as the
 * service added it (the line, TTL, MX priority and weight the service chose), so the update
 * changes nothing else: its documentation gives the update's `ttl` a default of 300, which a
 * TTL left out could reset.
 */
function updateOf(did: unknown, record: IDataObject, d: Deferred): IDataObject {
	const { entry } = d;
	const body: IDataObject = { did: did as IDataObject[string], record_id: Number(record.id), subdomain: entry.subdomain, recordtype: entry.recordtype };
	const line = entry.recordline !== '' ? entry.recordline : record.recordline;
	if (line !== undefined && line !== null && line !== '') body.recordline = String(line);
	body.value = entry.value;
	const numbers: Array<[string, string]> = [
		['ttl', entry.ttl],
		['weight', entry.weight],
	];
	if (entry.recordtype.toUpperCase() === 'MX') numbers.unshift(['mx', entry.mx]);
	for (const [key, typed] of numbers) {
		const n = numberOf(typed, record[key]);
		if (n !== undefined) body[key] = n;
	}
	return body;
}

/**
 * Record > Add: one dns/recordAdd; then each record whose value holds ";" or "#" is moved from
 * its pending host record to its own and given its value with dns/recordUpdate. If that fails,
 * the records this call added are deleted again, so no record is left pending, and the error
 * says which value could not be set.
 */
export async function addRecords(ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	const envelope = await apiRequest(ctx.fn, 'dns/recordAdd', body, { itemIndex: ctx.itemIndex });
	const records = defaultRecords(envelope, { did: body.did });
	const deferred = deferredValues.get(body) ?? [];
	for (const d of deferred) {
		const index = records.findIndex((r) => String(r.subdomain ?? '').toLowerCase() === d.pending);
		const record = records[index];
		try {
			if (!record || record.id === undefined) throw new Error(`the service did not answer the record it added under ${d.pending}`);
			const updated = await apiRequest(ctx.fn, 'dns/recordUpdate', updateOf(body.did, record, d), { itemIndex: ctx.itemIndex });
			const [after] = defaultRecords(updated);
			records[index] = { ...record, ...(after && typeof after === 'object' ? after : {}), subdomain: after?.subdomain ?? d.entry.subdomain, value: after?.value ?? d.entry.value };
		} catch (error) {
			const ids = records.map((r) => r.id).filter((id) => id !== undefined);
			let undone = 'they were deleted again';
			try {
				if (ids.length) await apiRequest(ctx.fn, 'dns/recordDelete', { did: body.did, record_id: ids.join(',') }, { itemIndex: ctx.itemIndex });
			} catch {
				undone = `deleting them failed too: delete records ${ids.join(', ')} by hand (the one with this value waits under the host record ${d.pending})`;
			}
			throw new NodeOperationError(ctx.fn.getNode(), `The "${d.label}" (it holds ";" or "#") could not be set after the records were added: ${(error as Error).message}`, {
				itemIndex: ctx.itemIndex,
				description: `A value with ";" or "#" is added in two steps, because ";" and "#" separate records in an add: the record is added under a host record of its own (${d.pending}), then moved to its host record with its value by an update. This relies on the service updating a record of this type (its documentation lists A, AAAA and CNAME for an update). The records of this call were added, then ${undone}.`,
			});
		}
	}
	return records;
}

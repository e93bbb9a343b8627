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
 * where those characters separate fields and records. Such a record is added with this value in
 * its place, then given its value with dns/recordUpdate, which takes the value as a parameter of
 * its own.
 */
const PENDING_VALUE = 'n8n-value-pending';
/** The records of an Add whose value is set afterwards: their place in the answer and their value. */
const deferredValues = new WeakMap<IDataObject, Array<{ index: number; value: string; label: string }>>();

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
 * `#`; what the user did not set is left empty in its place (never a made-up line or weight). Each record is checked here with its label, so nothing is sent when one is wrong.
 */
function serializeRecords(records: Array<{ row: IDataObject; label: (field: string) => string }>, deferred: Array<{ index: number; value: string; label: string }>): string {
	return records
		.map(({ row, label }, index) => {
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
			const mxValue = type.toUpperCase() === 'MX' ? text('mx') : '';
			let v = text('value');
			if (/[;#]/.test(v)) {
				// carried by dns/recordUpdate after the add (see PENDING_VALUE)
				deferred.push({ index, value: v, label: label('Value') });
				v = PENDING_VALUE;
			}
			// an unset line or weight leaves its place empty: the service chooses (readings R69)
			return [text('subdomain') || '@', type, text('recordline'), v, mxValue, text('ttl'), text('weight')].join(';');
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
	const deferred: Array<{ index: number; value: string; label: string }> = [];
	const out: IDataObject = { did, records: serializeRecords(all, deferred) };
	if (deferred.length) deferredValues.set(out, deferred);
	return out;
}

/**
 * Record > Add: one dns/recordAdd; then each record whose value holds ";" or "#" gets its value
 * with dns/recordUpdate. If that fails, the records this call added are deleted again, so no
 * record is left with a stand-in value, and the error says which value could not be set.
 */
export async function addRecords(ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	const envelope = await apiRequest(ctx.fn, 'dns/recordAdd', body, { itemIndex: ctx.itemIndex });
	const records = defaultRecords(envelope, { did: body.did });
	const deferred = deferredValues.get(body) ?? [];
	for (const d of deferred) {
		const record = records[d.index];
		try {
			if (!record || record.id === undefined) throw new Error('the service did not answer the record it added');
			const updated = await apiRequest(ctx.fn, 'dns/recordUpdate', { did: body.did, record_id: Number(record.id), value: d.value }, { itemIndex: ctx.itemIndex });
			const [after] = defaultRecords(updated);
			records[d.index] = { ...record, ...(after && typeof after === 'object' ? after : {}), value: after?.value ?? d.value };
		} catch (error) {
			const ids = records.map((r) => r.id).filter((id) => id !== undefined);
			let undone = 'they were deleted again';
			try {
				if (ids.length) await apiRequest(ctx.fn, 'dns/recordDelete', { did: body.did, record_id: ids.join(',') }, { itemIndex: ctx.itemIndex });
			} catch {
				undone = `deleting them failed too: delete records ${ids.join(', ')} by hand (their value is "${PENDING_VALUE}")`;
			}
			throw new NodeOperationError(ctx.fn.getNode(), `The "${d.label}" (it holds ";" or "#") could not be set after the records were added: ${(error as Error).message}`, {
				itemIndex: ctx.itemIndex,
				description: `A value with ";" or "#" is added in two steps (add, then update the value), because ";" and "#" separate records in an add. The records of this call were added, then ${undone}.`,
			});
		}
	}
	return records;
}


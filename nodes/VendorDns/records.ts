/**
 * DNS records beyond their fields: the value each record type needs, and Record > Add's first
 * record and More Records written as the one `records` string dns/recordAdd takes, each record
 * checked with its own label before anything is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../shared/errors';
import { check } from '../shared/validation';

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
 * `#`. Each record is checked here with its label, so nothing is sent when one is wrong.
 */
function serializeRecords(records: Array<{ row: IDataObject; label: (field: string) => string }>): string {
	return records
		.map(({ row, label }) => {
			const type = String(row.recordtype);
			const text = (key: string) => (row[key] === undefined || row[key] === null ? '' : String(row[key]).trim());
			for (const [key, name] of [
				['subdomain', 'Host Record'],
				['recordline', 'Line'],
				['value', 'Value'],
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
			return [text('subdomain') || '@', type, text('recordline') || 'default', text('value'), mxValue, text('ttl'), text('weight')].join(';');
		})
		.join('#');
}

/** The first record (the form's fields) and the More Records rows as one `records` string. */
export function recordsOf(body: IDataObject): IDataObject {
	const { did, recordtype, subdomain, value: v, recordline, ttl: t, mx: m, weight: w, records: more } = body;
	const first = { recordtype, subdomain, value: v, recordline, ttl: t, mx: m, weight: w ?? 1 };
	const rows = Array.isArray(more) ? (more as IDataObject[]) : [];
	const all = [
		{ row: first as IDataObject, label: (f: string) => f },
		...rows.map((row, n) => ({ row, label: (f: string) => `More Records ${n + 1}: ${f}` })),
	];
	return { did, records: serializeRecords(all) };
}


import type { IDataObject } from 'n8n-workflow';

import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { choice, count, int, locator, locators, nameStr, required, str, topLevel } from '../../shared/api/fields';
import { CODES, DNS_LINES, ENABLED_PAUSED, RECORD_TYPES } from '../../shared/api/codes';
import { code, field, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { addRecords, recordsOf, valueProblem } from '../records';
import { domain, newStatus } from './common';
import { InputError } from '../../shared/errors';

const subdomain = (description: string, extra: Partial<FieldDecl> = {}) => nameStr('subdomain', 'Host Record', description, { placeholder: 'e.g. www', ...extra });
/** Types are named by example ("for example A, AAAA, CNAME", docs/vendor/readings.md#r6): the list is open, another type is entered as an expression. */
const recordType = (description: string, extra: Partial<FieldDecl> = {}) =>
	choice('recordtype', 'Type', RECORD_TYPES, `${description}; another type the service knows can be entered as an expression`, { default: 'A', allowOtherValues: true, ...extra });
/**
 * The vendor's documentation names no line values and no default line (docs/vendor/readings.md#r6, #r69):
 * the usual ones to choose, any other line the service knows as an expression.
 */
const line = (extra: Partial<FieldDecl> = {}) =>
	choice('recordline', 'Line', DNS_LINES, 'Visitors the record answers; another line the service offers can be entered as an expression', {
		default: 'default',
		allowOtherValues: true,
		...extra,
	});
/**
 * Record > Add's line: empty by default, the line's place in the entry then left empty and the
 * service chooses (readings R69). No endpoint of the vendor's documentation lists DNS record lines
 * (networkResourceList lists the bandwidth lines of hosts), so the node cannot offer the service's
 * own lines in a list; the field says so.
 */
const addLine = () =>
	line({
		options: [{ name: 'Not Set (the Service Chooses)', value: '', description: 'The line is left empty in the request and the service uses its default line' }, ...DNS_LINES],
		default: '',
		description:
			'Visitors the record answers. Not Set leaves the line empty and the service uses its default line. The vendor\'s documentation names no lines and no request that lists them, so the node cannot list the service\'s own lines: another line the service offers (for example one in its own language, as its records show) can be entered as an expression.',
	});
const value = (extra: Partial<FieldDecl> = {}) =>
	str('value', 'Value', 'IPv4 for A, IPv6 for AAAA, a host name for CNAME, MX and NS, text for TXT', { placeholder: 'e.g. 203.0.113.10', ...extra });
// the documents state no ranges for these (docs/vendor/readings.md#r3): the usual ones are hints, and the service's own error is shown
const mx = (extra: Partial<FieldDecl> = {}) => int('mx', 'MX Priority', 'Priority of an MX record, lower first (usually 1-100)', { default: 10, ...extra });
const ttl = (extra: Partial<FieldDecl> = {}) => count('ttl', 'TTL (Seconds)', 'a time to live', 'How long resolvers may cache the answer (default 300)', { default: 300, ...extra });
const weight = (extra: Partial<FieldDecl> = {}) => int('weight', 'Weight', 'Share of answers among records of the same host record and line (usually 1-100)', { default: 1, ...extra });
/**
 * Record > Add's TTL and MX priority: the vendor's documentation gives recordAdd no default for
 * either (its TTL default of 300 is recordUpdate's), so they are text fields, empty by default,
 * and an empty one leaves its place in the entry empty: the service chooses (readings R69).
 */
const addTtl = (extra: Partial<FieldDecl> = {}) =>
	ttl({
		kind: 'optionalInt',
		default: undefined,
		placeholder: 'e.g. 600',
		description: "How long resolvers may cache the answer, in seconds; left empty, no TTL is sent and the service chooses (the vendor's documentation gives a default of 300 only for an update)",
		...extra,
	});
const addMx = (extra: Partial<FieldDecl> = {}) =>
	mx({ kind: 'optionalInt', default: undefined, placeholder: 'e.g. 10', description: 'Priority of an MX record, lower first (usually 1-100); left empty, no priority is sent and the service chooses', ...extra });
/** Record > Add's weight: sent only when set (the vendor's documentation gives no default); a row of More Records always carries one. */
const addWeight = () => weight({ description: 'Share of answers among records of the same host record and line (usually 1-100); not sent unless set, and the service then chooses' });
/** A row of More Records always holds each of its fields: the weight is text, empty (not sent: its place in the entry stays empty) unless typed. */
const rowWeight = () =>
	weight({
		kind: 'optionalInt',
		default: undefined,
		description: 'Share of answers among records of the same host record and line (usually 1-100); left empty, its place in the entry stays empty and the service chooses',
	});

/**
 * Record > Add's Value: what a value with ";" or "#" takes (records.ts), and what that relies on:
 * an update of a TXT record, where the vendor's documentation lists A, AAAA and CNAME.
 */
const VALUE_WITH_SEPARATORS =
	"IPv4 for A, IPv6 for AAAA, a host name for CNAME, MX and NS, text for TXT. As ; and # separate records in an add, a value with ; or # (a DKIM or SPF text) takes two requests: the record is added under a temporary host record with a stand-in value, then moved to its host record with its value by an update; this relies on the service updating records of that type (the vendor's documentation lists A, AAAA and CNAME for an update), and when the update is refused the added records are deleted again.";

/** Simplified DNS records. */
const RECORD_SIMPLE: SimplifySpec = {
	id: field('id'),
	hostRecord: field('subdomain'),
	type: field('recordtype'),
	value: field('value'),
	// as they came: the documents name no lines (readings R6, R69) and give `locale` no meaning
	line: field('recordline'),
	locale: field('locale'),
	mxPriority: number('mx'),
	ttl: number('ttl'),
	weight: number('weight'),
	status: code('status', CODES.enabledPaused),
	domain: field('domainname'),
	note: field('note'),
	created: time('createtime'),
};

const record = (description: string) => locator('record_id', 'record', 'Record', description, { param: 'recordId' });

export const recordOperations: OperationDecl[] = [
	{
		endpoint: 'dns/recordList',
		path: 'dns/recordList',
		resource: 'record',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many DNS records',
		description: 'List the DNS records of a domain, optionally of one type, host record or status',
		list: { paged: true },
		readOnly: true,
		simplify: RECORD_SIMPLE,
		fields: [
			domain('did', 'The domain whose records are listed'),
			recordType('Only records of this type'),
			str('subdomain', 'Host Record', 'Only records of this host record (@ for the domain itself)', { placeholder: 'e.g. www' }),
			choice('status', 'Status', ENABLED_PAUSED, 'Only enabled or only paused records', { default: 1 }),
		],
	},
	{
		endpoint: 'dns/recordAdd',
		path: 'dns/recordAdd',
		resource: 'record',
		operation: 'add',
		name: 'Add',
		action: 'Add DNS records',
		description: 'Add one or more DNS records (A, AAAA, CNAME, MX, TXT, NS, SRV, CAA) to a domain in one call',
		simplify: RECORD_SIMPLE,
		// in the order a person fills the form: type, host record, value, line, TTL (MX priority for MX)
		fields: [
			domain('did', 'The domain that gets the records'),
			required(recordType('Record type', { default: 'A' })),
			required(subdomain('Host record: @ for the domain itself, * for a wildcard, or a name such as www; it may not hold ; or #, which separate records', { default: '@' })),
			required(value({ description: VALUE_WITH_SEPARATORS })),
			topLevel(addLine()),
			topLevel(addTtl()),
			topLevel(addMx({ show: { recordtype: ['MX'] } })),
			addWeight(),
			{
				wire: 'records',
				displayName: 'More Records',
				kind: 'rows',
				description: 'Further records added in the same call; each is checked before anything is sent',
				rows: {
					itemName: 'Record',
					fields: [
						required(subdomain('Host record: @ for the domain itself, * for a wildcard, or a name such as www', { default: '@' })),
						required(recordType('Record type', { default: 'A' })),
						addLine(),
						required(value({ description: VALUE_WITH_SEPARATORS })),
						addMx({ show: { recordtype: ['MX'] } }),
						addTtl(),
						rowWeight(),
					],
					serialize: (rows: IDataObject[]) => rows,
				},
			},
		],
		prepare: recordsOf,
		// a value with ";" or "#" is set by dns/recordUpdate after the add (records.ts)
		run: addRecords,
	},
	{
		endpoint: 'dns/recordUpdate',
		path: 'dns/recordUpdate',
		resource: 'record',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a DNS record',
		description: 'Change the host record, type, line, value, MX priority, TTL or weight of a DNS record',
		simplify: RECORD_SIMPLE,
		fields: [
			domain('did', 'The domain of the record'),
			record('The record to change'),
			subdomain('New host record (@ for the domain itself)'),
			recordType('New record type; the value is checked against it'),
			line(),
			value({ description: 'New value: IPv4 for A, IPv6 for AAAA, a host name for CNAME, MX and NS' }),
			mx(),
			ttl(),
			weight(),
		],
		prepare: (body) => {
			if (body.recordtype !== undefined && body.value !== undefined) {
				const problem = valueProblem(String(body.recordtype), String(body.value).trim());
				if (problem) throw new InputError(`Invalid "Value": ${problem}`, 'Correct the value or change the type.');
			}
			return body;
		},
	},
	{
		endpoint: 'dns/recordStatus',
		path: 'dns/recordStatus',
		resource: 'record',
		operation: 'setStatus',
		name: 'Set Status',
		action: 'Enable or pause a DNS record',
		description: 'Enable a DNS record or pause it',
		fields: [domain('did', 'The domain of the record'), record('The record to enable or pause'), newStatus(ENABLED_PAUSED, 'Enabled answers the record; Paused stops answering it')],
	},
	{
		endpoint: 'dns/recordNote',
		path: 'dns/recordNote',
		resource: 'record',
		operation: 'updateNote',
		name: 'Update Note',
		action: 'Update the note of a DNS record',
		description: 'Replace the remark of a DNS record; an empty note clears it',
		fields: [domain('did', 'The domain of the record'), record('The record whose note is set'), topLevel(str('note', 'Note', 'The new remark; leave empty to clear it'))],
		prepare: (body) => ({ ...body, note: body.note ?? '' }),
	},
	{
		endpoint: 'dns/recordDelete',
		path: 'dns/recordDelete',
		resource: 'record',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete DNS records',
		description: 'Delete one or more DNS records of a domain',
		notice: 'The records are deleted',
		deletes: true,
		fields: [
			domain('did', 'The domain of the records'),
			{ ...locators('record_id', 'record', 'Records', 'Records to delete'), param: 'recordIds', send: 'comma' },
		],
		prepare: (body) => {
			if (!/^\d+(,\d+)*$/.test(String(body.record_id ?? ''))) {
				throw new InputError(`The "Records" field must hold numeric IDs, not "${String(body.record_id)}"`, 'Choose from the list, or give IDs separated by commas such as 70001,70002.');
			}
			return body;
		},
	},
];

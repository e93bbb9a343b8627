/**
 * Invoice > Get Many's period (Filters: Period, Created From, Created Until). The service's
 * invoice list (profile/invoiceList) takes only a page and a page size, so the node filters: an
 * invoice is kept when its `created` time, a display time read in the workflow's time zone
 * (time.ts), falls in the period. Reading stops once Limit invoices of the period were found, or
 * at the end of the list (Return All, or fewer in the period than Limit): the records come in the
 * service's order, which the documents do not state, so no page can be skipped.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { instantOf, parseDisplayTime, wallTime } from '../shared/api/time';
import { toInstant } from '../shared/api/values';
import type { FieldDecl } from '../shared/api/declarations';
import { choice, date } from '../shared/api/fields';
import { InputError } from '../shared/errors';
import { PERIODS, periodOf } from './billingReport';

/** The periods offered (Billing Report's, without Custom: Created From and Until are the custom period). */
export const INVOICE_PERIODS = PERIODS.filter((p) => p.value !== 'custom');

const FILTERED_HERE = "filtered by the node, which reads the service's invoice list page by page (it takes no dates)";

export const invoicePeriodFields: FieldDecl[] = [
	{
		...choice('period', 'Period', INVOICE_PERIODS, `Only invoices created in this period, in the workflow's time zone; ${FILTERED_HERE}`, { default: 'lastMonth' }),
		notSent: true,
	},
	{ ...date('createdFrom', 'Created From', `Only invoices created on this day or later, in the workflow's time zone; ${FILTERED_HERE}`), notSent: true },
	{ ...date('createdUntil', 'Created Until', `Only invoices created on this day or earlier, in the workflow's time zone; ${FILTERED_HERE}`), notSent: true },
];

/** The start of the day `ms` falls on, in `timeZone`, and `days` days on. */
function dayStart(ms: number, timeZone: string, days = 0): number {
	const w = wallTime(ms, timeZone);
	return instantOf({ year: w.year, month: w.month, day: w.day + days, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** Which invoices item `i`'s filters keep; undefined when it sets no period (every invoice). */
export function invoicesInPeriod(fn: IExecuteFunctions, i: number): ((record: IDataObject) => boolean) | undefined {
	const filters = (fn.getNodeParameter('filters', i, {}) ?? {}) as IDataObject;
	const timeZone = fn.getTimezone();
	const bounds: Array<(t: number) => boolean> = [];
	if (filters.period !== undefined && filters.period !== '') {
		const p = periodOf({ period: filters.period }, Date.now(), timeZone);
		bounds.push((t) => t >= p.from && (p.toIncluded ? t <= p.to : t < p.to));
	}
	const day = (name: 'createdFrom' | 'createdUntil') => {
		const raw = filters[name];
		if (raw === undefined || raw === null || raw === '') return undefined;
		return toInstant(invoicePeriodFields.find((f) => f.wire === name)!, raw, timeZone);
	};
	const from = day('createdFrom');
	const until = day('createdUntil');
	if (from !== undefined) bounds.push((t) => t >= dayStart(from, timeZone));
	if (until !== undefined) bounds.push((t) => t < dayStart(until, timeZone, 1));
	if (from !== undefined && until !== undefined && dayStart(from, timeZone) > dayStart(until, timeZone)) {
		throw new InputError('"Created From" is after "Created Until"', 'Choose a Created From day on or before the Created Until day.');
	}
	if (!bounds.length) return undefined;
	return (record) => {
		const t = parseDisplayTime(record.created, timeZone);
		return t !== undefined && bounds.every((inside) => inside(t));
	};
}

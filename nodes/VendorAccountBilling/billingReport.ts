/**
 * Billing Report > Get: the balance, the spending of a period by service, refunds and invoices
 * in one item, with numbers as numbers, a ready sentence (`text`) and an HTML table (`html`) for
 * e-mail or chat. Reads only: profile/balance, profile/payList (consumption as a whole, per
 * service and refunds, each filtered by the documented codes), profile/invoiceList and
 * profile/invoiceBalance, every list with all its pages.
 *
 * Readings where the documentation is silent:
 * - A payment record names its type and service only by display names (`type_zh`,
 *   `paytype_zh`, in the service's language); the report asks for each type and service by its
 *   code (`type`, `paytype` filters), so the words are the documented ones. Consumption of a service
 *   the documentation does not list is shown under the service's own display name.
 * - Times are display date-times read in the workflow's time zone (time.ts); the period is
 *   measured in the same zone ("This Month" starts at midnight on the 1st there).
 * - The documentation gives no meaning for invoice status values, so the report says nothing of
 *   whether an invoice was sent, accepted or refused: it counts the invoices that have no courier
 *   tracking number (`expresscode`), whatever their status, and says just that.
 */
import type { IDataObject } from 'n8n-workflow';

import { CODES, PAYMENT_SERVICES } from '../shared/api/codes';
import type { OperationContext } from '../shared/api/declarations';
import { firstRecord, payload } from '../shared/api/envelope';
import { apiRequestAllItems } from '../shared/api/paging';
import { instantOf, isoInZone, parseDisplayTime, wallTime } from '../shared/api/time';
import { CURRENCY_NOT_NAMED } from '../shared/api/simplify';
import { apiRequest } from '../shared/api/transport';
import { InputError } from '../shared/errors';

const DAY = 86400000;

/** Said when Currency is left empty: the service's amounts come without a currency (the simplified records' words, simplify.ts). */
export const NO_CURRENCY = `${CURRENCY_NOT_NAMED} Set Currency to show it.`;

/** The periods of Billing Report (the node's own choices: the service never sees them). */
export const PERIODS = [
	{ name: 'Last 7 Days', value: 'last7Days' },
	{ name: 'Last 30 Days', value: 'last30Days' },
	{ name: 'This Month', value: 'thisMonth' },
	{ name: 'Last Month', value: 'lastMonth' },
	{ name: 'Custom', value: 'custom', description: 'From and To below, whole days' },
];

export interface Period {
	label: string;
	from: number;
	/** End of the period: `to` itself belongs to it for rolling periods, not for calendar ones. */
	to: number;
	toIncluded: boolean;
}

/** The period chosen in the node, in the workflow's time zone. */
export function periodOf(body: IDataObject, now: number, timeZone: string): Period {
	const choice = String(body.period ?? 'last30Days');
	const label = PERIODS.find((p) => p.value === choice)?.name ?? choice;
	const w = wallTime(now, timeZone);
	const day = (y: number, m: number, d: number) => instantOf({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0 }, timeZone);
	switch (choice) {
		case 'last7Days':
			return { label, from: now - 7 * DAY, to: now, toIncluded: true };
		case 'last30Days':
			return { label, from: now - 30 * DAY, to: now, toIncluded: true };
		case 'thisMonth':
			return { label, from: day(w.year, w.month, 1), to: now, toIncluded: true };
		case 'lastMonth':
			return { label, from: day(w.year, w.month - 1, 1), to: day(w.year, w.month, 1), toIncluded: false };
		case 'custom': {
			const parse = (v: unknown, name: string) => {
				const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(v ?? ''));
				if (!m) throw new InputError(`The "${name}" field is required for a custom period`, 'Pick the first and the last day of the period.');
				return [Number(m[1]), Number(m[2]), Number(m[3])] as const;
			};
			const [fy, fm, fd] = parse(body.from, 'From');
			const [ty, tm, td] = parse(body.to, 'To');
			const from = day(fy, fm, fd);
			const to = day(ty, tm, td + 1);
			if (to <= from) throw new InputError('"From" is after "To"', 'Choose a From day on or before the To day.');
			return { label, from, to, toIncluded: false };
		}
	}
	throw new InputError(`The "Period" field has "${choice}", which is not one of its choices`, `Use one of: ${PERIODS.map((p) => p.value).join(', ')}.`);
}

const cents = (n: number) => Math.round(n * 100) / 100;
const amountOf = (r: IDataObject) => {
	const n = Number(String(r.price ?? '').replace(/,/g, ''));
	return Number.isFinite(n) ? n : 0;
};
const sum = (rows: IDataObject[]) => cents(rows.reduce((t, r) => t + amountOf(r), 0));

function htmlEscape(s: string): string {
	return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The report item from what was read; `now` and `timeZone` make it reproducible in tests. */
export function buildReport(
	read: {
		balance: number;
		consumption: IDataObject[];
		byService: Array<{ service: string; rows: IDataObject[] }>;
		refunds: IDataObject[];
		invoices: IDataObject[];
		invoiceable: number | null;
	},
	period: Period,
	timeZone: string,
	currency = '',
): IDataObject {
	const inPeriod = (r: IDataObject, field: string) => {
		const t = parseDisplayTime(r[field], timeZone);
		return t !== undefined && t >= period.from && (period.toIncluded ? t <= period.to : t < period.to);
	};
	const spending = read.consumption.filter((r) => inPeriod(r, 'created'));
	const refunds = read.refunds.filter((r) => inPeriod(r, 'created'));
	// each consumption record under the service whose listing holds it; the rest by their display name
	const spentByService: Record<string, number> = {};
	const placed = new Set<string>();
	for (const { service, rows } of read.byService) {
		const mine = rows.filter((r) => inPeriod(r, 'created'));
		if (!mine.length) continue;
		for (const r of mine) placed.add(String(r.id));
		spentByService[service] = cents((spentByService[service] ?? 0) + sum(mine));
	}
	for (const r of spending) {
		if (placed.has(String(r.id))) continue;
		const service = String(r.paytype_zh || 'Unknown Service');
		spentByService[service] = cents((spentByService[service] ?? 0) + amountOf(r));
	}
	const services = Object.entries(spentByService).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

	const newInvoices = read.invoices.filter((r) => inPeriod(r, 'created'));
	const untracked = read.invoices.filter((r) => !String(r.expresscode ?? '').trim());
	const spent = sum(spending);
	const refunded = sum(refunds);

	const money = (n: number) => `${currency ? `${currency} ` : ''}${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
	const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' });
	const lastMoment = period.toIncluded ? period.to : period.to - 1;
	const span = `${dayFormat.format(new Date(period.from))} to ${dayFormat.format(new Date(lastMoment))}`;
	const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

	const text = [
		`Balance: ${money(read.balance)}.`,
		`${period.label} (${span}): spent ${money(spent)} in ${plural(spending.length, 'payment')}${
			services.length ? ` (${services.map(([s, v]) => `${s} ${money(v)}`).join(', ')})` : ''
		}; refunds ${money(refunded)}${refunds.length ? ` (${plural(refunds.length, 'refund')})` : ''}.`,
		`Invoices: ${plural(newInvoices.length, 'new invoice')} (${money(sum(newInvoices))}); ${plural(untracked.length, 'invoice')} without a tracking number (${money(sum(untracked))})${
			read.invoiceable === null ? '' : `; ${money(read.invoiceable)} can still be invoiced`
		}.`,
		// the service never names the currency of its amounts (docs/vendor/readings.md#r71): say so
		...(currency ? [] : [NO_CURRENCY]),
	].join(' ');

	const cell = 'padding:4px 12px;border-bottom:1px solid #ddd';
	const row = (label: string, value: string, indent = false) =>
		`<tr><td style="${cell}${indent ? ';padding-left:28px' : ''}">${htmlEscape(label)}</td><td style="${cell};text-align:right">${htmlEscape(value)}</td></tr>`;
	const html = [
		'<table style="border-collapse:collapse;font-family:sans-serif;font-size:14px">',
		`<caption style="text-align:left;font-weight:bold;padding:4px 12px">Billing report: ${htmlEscape(period.label)} (${htmlEscape(span)})</caption>`,
		row('Balance', money(read.balance)),
		row(`Spent (${plural(spending.length, 'payment')})`, money(spent)),
		...services.map(([s, v]) => row(s, money(v), true)),
		row(`Refunds (${plural(refunds.length, 'refund')})`, money(refunded)),
		row(`New invoices (${newInvoices.length})`, money(sum(newInvoices))),
		row(`Invoices without a tracking number (${untracked.length})`, money(sum(untracked))),
		...(read.invoiceable === null ? [] : [row('Can still be invoiced', money(read.invoiceable))]),
		'</table>',
	].join('');

	return {
		period: period.label,
		from: isoInZone(period.from, timeZone),
		to: isoInZone(lastMoment, timeZone),
		timeZone,
		...(currency ? { currency } : { currency: null, currencyNote: NO_CURRENCY }),
		balance: read.balance,
		spent,
		payments: spending.length,
		spentByService: Object.fromEntries(services),
		refunded,
		refunds: refunds.length,
		netSpent: cents(spent - refunded),
		newInvoices: newInvoices.length,
		newInvoiceAmount: sum(newInvoices),
		invoicesWithoutTracking: untracked.length,
		invoicesWithoutTrackingAmount: sum(untracked),
		invoices: read.invoices.length,
		invoiceAmount: sum(read.invoices),
		invoiceableAmount: read.invoiceable,
		text,
		html,
	};
}

function numberIn(v: unknown): number | null {
	if (v === undefined || v === null || v === '') return null;
	const n = Number(String(v).replace(/,/g, ''));
	return Number.isFinite(n) ? n : null;
}

/** Billing Report > Get: reads every list it needs (reads only) and builds the report item. */
export async function billingReport(ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	const fn = ctx.fn;
	const itemIndex = ctx.itemIndex;
	const timeZone = fn.getTimezone();
	const period = periodOf(body, Date.now(), timeZone);
	const all = (filters: IDataObject) => apiRequestAllItems(fn, 'profile/payList', filters, { itemIndex });
	const [balanceAnswer, consumption, refunds, byService, invoices, invoiceableAnswer] = await Promise.all([
		apiRequest(fn, 'profile/balance', {}, { itemIndex, read: true }),
		all({ type: 1 }),
		all({ type: 2 }),
		Promise.all(PAYMENT_SERVICES.map(async (s) => ({ service: CODES.paymentService[String(s.value)], rows: await all({ type: 1, paytype: s.value }) }))),
		apiRequestAllItems(fn, 'profile/invoiceList', {}, { itemIndex }),
		apiRequest(fn, 'profile/invoiceBalance', {}, { itemIndex, read: true }),
	]);
	const balance = numberIn(firstRecord(balanceAnswer)?.price);
	if (balance === null) {
		throw new InputError('The service answered profile/balance without a balance', 'Run Balance > Get to see what the service answers.');
	}
	const inv = payload(invoiceableAnswer) as IDataObject | undefined;
	const invoiceable = inv && typeof inv === 'object' ? numberIn(inv.invoiceprice) : null;
	const currency = String((body.currency as string | undefined) ?? '').trim();
	return [buildReport({ balance, consumption, refunds, byService, invoices, invoiceable }, period, timeZone, currency)];
}


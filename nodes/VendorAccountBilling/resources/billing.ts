import type { OperationDecl } from '../../shared/api/declarations';
import { CODES, COUPON_STATUS, INVOICE_HOLDERS, INVOICE_KINDS, LOG_TYPES, PAYMENT_SERVICES, PAYMENT_TYPES, RECHARGE_TYPES } from '../../shared/api/codes';
import { checked, choice, count, date, decimal, id, nameStr, required, str } from '../../shared/api/fields';
import { CURRENCY_NOT_NAMED, code, field, flag, named, number, statusWithoutMeaning, time, type SimplifySpec } from '../../shared/api/simplify';
import { InputError } from '../../shared/errors';
import { invoicePeriodFields, invoicesInPeriod } from '../invoices';

/** Simplified invoices: as listed, and as Apply answers (the invoice). */
const INVOICE_SIMPLE: SimplifySpec = {
	id: field('id'),
	title: field('title'),
	amount: number('price'),
	holder: code('type', CODES.invoiceHolder),
	invoiceType: code('invoicetype', CODES.invoiceKind),
	// no documented meaning for invoice status values (docs/vendor/readings.md#r55): the code as it came, and a note of the run
	statusCode: field('status'),
	courier: field('expressname'),
	trackingNumber: field('expresscode'),
	mailingAddress: field('mailaddress'),
	content: field('content'),
	created: time('created'),
};
/** Said once per run of an operation that gives invoices. */
const INVOICE_NOTES = [CURRENCY_NOT_NAMED, statusWithoutMeaning('each invoice')];

export const billingOperations: OperationDecl[] = [
	{
		endpoint: 'profile/rechargeList',
		path: 'profile/rechargeList',
		resource: 'recharge',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many recharges',
		description: 'List the recharge records of the account',
		list: { paged: true },
		readOnly: true,
		fields: [id('id', 'Recharge ID', 'Only the recharge with this ID'), choice('type', 'Type', RECHARGE_TYPES, 'Only recharges of this kind', { default: 1 })],
		simplify: {
			id: field('id'),
			code: field('code'),
			type: named('type_zh', CODES.rechargeType, 'type'),
			amount: number('price'),
			status: field('status'),
			// the record's `name`, which the documentation does not explain
			name: field('name'),
			created: time('createtime'),
		},
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'profile/balance',
		path: 'profile/balance',
		resource: 'balance',
		operation: 'get',
		name: 'Get',
		action: 'Get the balance',
		description: 'Get the prepaid balance of the account',
		readOnly: true,
		simplify: { balance: number('price') },
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'profile/balanceAlarm',
		path: 'profile/balanceAlarm',
		resource: 'balance',
		operation: 'setAlarm',
		name: 'Set Alarm',
		action: 'Set the balance alarm',
		description: 'Turn the low-balance alarm on or off, optionally with a new threshold and number of alerts',
		// the answer holds the alarm as it now is, under the names of Account > Get
		simplify: { balanceAlarm: flag('alarm'), alarmThreshold: number('alarm_value'), alarmCount: number('alarm_num') },
		notes: [CURRENCY_NOT_NAMED],
		// only what the user sets is sent: turning the alarm off keeps the account's threshold and count,
		// and a new threshold or count leaves the alarm on or off as it is (the documentation marks
		// none of the three required)
		fields: [
			{
				wire: 'alarm',
				displayName: 'Alarm',
				kind: 'boolean',
				default: true,
				description: 'Whether the balance alarm is on; add it only to turn the alarm on or off (left out, none is sent)',
			},
			decimal('alarm_value', 'Threshold', 'The threshold of the balance alarm; left out, none is sent', { default: 100 }),
			count('alarm_num', 'Number of Alerts', 'a number of alerts', 'How many alerts are sent; left out, none is sent (the service sets its own limits)', { default: 3 }),
		],
		prepare: (body) => {
			if (!['alarm', 'alarm_value', 'alarm_num'].some((k) => body[k] !== undefined && body[k] !== '')) {
				throw new InputError('Nothing to set', 'Add Alarm, Threshold or Number of Alerts under "Additional Fields".');
			}
			return body;
		},
	},
	{
		endpoint: 'profile/payList',
		path: 'profile/payList',
		resource: 'payment',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many payments',
		description: 'List consumption, refund, invoice and coupon records',
		list: { paged: true },
		readOnly: true,
		fields: [
			choice('type', 'Type', PAYMENT_TYPES, 'Only records of this kind', { default: 1 }),
			choice('paytype', 'Service', PAYMENT_SERVICES, 'Only records of this service', { default: 1 }),
			id('bid', 'Business ID', 'Only records of this business (for example a host ID)'),
		],
		// a payment record carries its type and service only as the service's display names
		// (type_zh, paytype_zh): the word comes from the filter sent, or from a display name that is one
		simplify: {
			id: field('id'),
			code: field('code'),
			name: field('name'),
			type: named('type_zh', CODES.paymentType, 'type'),
			service: named('paytype_zh', CODES.paymentService, 'paytype'),
			amount: number('price'),
			// no documented meaning for payment status values (docs/vendor/readings.md#r5): the code as it came, and a note of the run
			statusCode: field('status'),
			created: time('created'),
		},
		notes: [CURRENCY_NOT_NAMED, statusWithoutMeaning('each payment')],
	},
	{
		endpoint: 'profile/invoiceList',
		path: 'profile/invoiceList',
		resource: 'invoice',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many invoices',
		description: 'List the invoices applied for',
		list: { paged: true, keep: invoicesInPeriod },
		readOnly: true,
		fields: invoicePeriodFields,
		simplify: INVOICE_SIMPLE,
		notes: INVOICE_NOTES,
	},
	{
		endpoint: 'profile/invoiceApply',
		path: 'profile/invoiceApply',
		resource: 'invoice',
		operation: 'apply',
		name: 'Apply',
		action: 'Apply for an invoice',
		description: 'Apply for an invoice over part of the invoiceable amount',
		simplify: INVOICE_SIMPLE,
		notes: INVOICE_NOTES,
		fields: [
			// The documentation marks none of these required. Title and Amount are: an invoice made out
			// to no one or over no amount is no request at all. Holder and Invoice Type are sent only
			// when set: the documentation gives them no default, and the node does not pick one.
			required(nameStr('title', 'Title', 'Invoice title (company or person name); required by the node because an invoice is made out to someone')),
			checked(
				required(decimal('price', 'Amount', 'Amount to invoice, above 0 and at most the invoiceable amount (see Get Invoiceable Amount); required by the node because an invoice is over an amount')),
				// an invoice over nothing or less is certain nonsense (docs/vendor/readings.md#r3)
				{ kind: 'above', n: 0 },
			),
			choice('type', 'Holder', INVOICE_HOLDERS, "Whether the invoice is made out to an enterprise or a person; not sent unless set (the vendor's documentation gives no default, and a service may ask for it)", { default: 1 }),
			choice('invoicetype', 'Invoice Type', INVOICE_KINDS, "Special or ordinary VAT invoice; not sent unless set (the vendor's documentation gives no default, and a service may ask for it)", { default: 1 }),
			str('registerno', 'Registration Number', 'Tax registration number'),
			str('bankname', 'Bank Name'),
			str('card', 'Bank Account'),
			str('address', 'Registered Address'),
			str('tel', 'Registered Telephone'),
			str('businesslicense', 'Business License', 'Business license (address of the scan)'),
			str('taxcertificate', 'Tax Certificate', 'Tax registration certificate (address of the scan)'),
			str('taxatorqual', 'Taxpayer Qualification', 'General taxpayer qualification (address of the scan)'),
			str('recipients', 'Recipient', 'Who receives the invoice'),
			str('mailaddress', 'Mailing Address', 'Where the invoice is sent'),
			str('phone', 'Recipient Phone'),
			str('postcode', 'Postal Code'),
		],
	},
	{
		endpoint: 'profile/invoiceBalance',
		path: 'profile/invoiceBalance',
		resource: 'invoice',
		operation: 'getBalance',
		name: 'Get Invoiceable Amount',
		action: 'Get the invoiceable amount',
		description: 'Get the amount that can still be invoiced',
		readOnly: true,
		answersOneObject: true,
		simplify: { invoiceableAmount: number('invoiceprice') },
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'profile/couponList',
		path: 'profile/couponList',
		resource: 'coupon',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many coupons',
		description: 'List the coupons of the account',
		list: { paged: true },
		readOnly: true,
		fields: [str('couponid', 'Coupon Code', 'Only the coupon with this code'), choice('status', 'Status', COUPON_STATUS, 'Only coupons in this status', { default: 0 })],
		simplify: {
			id: field('id'),
			code: field('couponid'),
			status: code('status', CODES.couponStatus),
			amount: number('price'),
			priceOver: number('priceover'),
			created: time('created'),
			endTime: time('endtime'),
		},
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'profile/couponExchange',
		path: 'profile/couponExchange',
		resource: 'coupon',
		operation: 'exchange',
		name: 'Exchange',
		action: 'Exchange a coupon',
		description: 'Redeem a coupon code',
		// the answer: the coupon's `name` and `price`
		simplify: { name: field('name'), amount: number('price') },
		notes: [CURRENCY_NOT_NAMED],
		fields: [required(str('couponid', 'Coupon Code', 'The code to redeem', { placeholder: 'e.g. WELCOME50' }))],
	},
	{
		endpoint: 'profile/couponExchange (coupon balance)',
		path: 'profile/couponExchange',
		resource: 'coupon',
		operation: 'getBalance',
		name: 'Get Balance',
		action: 'Get the coupon balance',
		description: 'Get the coupon balance of the account',
		readOnly: true,
		// the answer's data is the amount itself (a decimal string), which becomes { data }
		simplify: { couponBalance: number('data') },
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'profile/logs',
		path: 'profile/logs',
		resource: 'log',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many operation logs',
		description: 'List the operation log of the account, optionally of one kind and period',
		list: { paged: true },
		readOnly: true,
		fields: [
			choice('type', 'Type', LOG_TYPES, 'Only entries of this kind', { default: 'user' }),
			date('start', 'From', 'Only entries from this day on'),
			date('end', 'To', 'Only entries up to this day'),
		],
		simplify: {
			id: field('id'),
			type: code('type', CODES.logType),
			title: field('title'),
			content: field('content'),
			// `op` has no documented meaning (docs/vendor/readings.md#r5): shown as it came
			operation: field('op'),
			ip: field('ip'),
			created: time('created'),
		},
	},
];

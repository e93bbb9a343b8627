import type { OperationDecl } from '../../shared/api/declarations';
import { choice, date, required, str } from '../../shared/api/fields';
import { PERIODS, billingReport } from '../billingReport';

export const reportOperations: OperationDecl[] = [
	{
		// not one endpoint: reads of several; no row of endpoints.tsv
		endpoint: 'billing report: profile/balance, profile/payList, profile/invoiceList, profile/invoiceBalance (reads only)',
		path: '',
		resource: 'report',
		operation: 'get',
		name: 'Get',
		action: 'Get a billing report',
		description:
			'Balance, spending of a period by service, refunds, new and unsent invoices in one item, with a ready sentence (text) and an HTML table (html) for e-mail or chat',
		readOnly: true,
		onceForSameRequest: {
			said: (n) =>
				`The ${n} incoming items all asked for the same report, so it was made once: one item, paired with all ${n}. Items that ask for different reports (a field set by an expression) get one each.`,
		},
		fields: [
			required(choice('period', 'Period', PERIODS, 'Which days the spending, refunds and new invoices are counted for (in the workflow\'s time zone)', { default: 'last30Days' })),
			{ ...date('from', 'From', 'First day of the period'), required: true, show: { period: ['custom'] } },
			{ ...date('to', 'To', 'Last day of the period'), required: true, show: { period: ['custom'] } },
			str('currency', 'Currency', 'Shown before the amounts in the text and the table; the service does not name the currency of its amounts, so left empty the report says so', { placeholder: 'e.g. CNY' }),
		],
		run: billingReport,
	},
];

import type { ApiArea } from '../shared/api/declarations';
import { accountOperations } from './resources/account';
import { billingOperations } from './resources/billing';
import { groupOperations, groupPermissionOperations } from './resources/group';
import { reportOperations } from './resources/report';
import { subAccountOperations } from './resources/subAccount';

/** Account, sub-accounts, groups and billing: the 31 account-billing rows of endpoints.tsv, and the billing report. */
export const accountBillingArea: ApiArea = {
	node: 'vendorAccountBilling',
	versions: [1],
	defaultResource: 'account',
	defaultOperations: {
		account: 'register',
		balance: 'get',
		report: 'get',
		coupon: 'getAll',
		group: 'getAll',
		groupPermission: 'getCatalogue',
		invoice: 'getAll',
		log: 'getAll',
		payment: 'getAll',
		recharge: 'getAll',
		subAccount: 'getAll',
	},
	resources: [
		{ value: 'account', name: 'Account', description: 'Your account: register, log in, details and profile' },
		{ value: 'balance', name: 'Balance', description: 'Prepaid balance and its low-balance alarm' },
		{ value: 'report', name: 'Billing Report', description: 'Balance, spending by service, refunds and invoices of a period in one item' },
		{ value: 'coupon', name: 'Coupon', description: 'Coupons of the account and their balance' },
		{ value: 'group', name: 'Group', description: 'Permission groups of sub-accounts' },
		{ value: 'groupPermission', name: 'Group Permission', description: 'Permission paths granted to groups' },
		{ value: 'invoice', name: 'Invoice', description: 'VAT invoices applied for, and the amount that can still be invoiced' },
		{ value: 'log', name: 'Operation Log', description: 'What was done on the account and when' },
		{ value: 'payment', name: 'Payment', description: 'Consumption, refunds, invoice amounts and coupons' },
		{ value: 'recharge', name: 'Recharge', description: 'Money paid into the account' },
		{ value: 'subAccount', name: 'Sub-Account', description: 'Users of the account that log in on their own under group permissions' },
	],
	operations: [...accountOperations, ...subAccountOperations, ...groupOperations, ...groupPermissionOperations, ...billingOperations, ...reportOperations],
};

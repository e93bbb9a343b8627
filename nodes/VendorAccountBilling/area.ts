import type { ApiArea } from '../shared/api/declarations';
import { accountOperations } from './resources/account';
import { billingOperations } from './resources/billing';
import { groupOperations, groupPermissionOperations } from './resources/group';
import { subAccountOperations } from './resources/subAccount';

/** Account, sub-accounts, groups and billing: the 31 account-billing rows of endpoints.tsv. */
export const accountBillingArea: ApiArea = {
	node: 'vendorAccountBilling',
	resources: [
		{ value: 'account', name: 'Account', description: 'Your account: register, log in, details and profile' },
		{ value: 'balance', name: 'Balance', description: 'Prepaid balance and its low-balance alarm' },
		{ value: 'coupon', name: 'Coupon' },
		{ value: 'group', name: 'Group', description: 'Permission groups of sub-accounts' },
		{ value: 'groupPermission', name: 'Group Permission', description: 'Permission paths granted to groups' },
		{ value: 'invoice', name: 'Invoice' },
		{ value: 'log', name: 'Operation Log' },
		{ value: 'payment', name: 'Payment', description: 'Consumption, refunds, invoice amounts and coupons' },
		{ value: 'recharge', name: 'Recharge' },
		{ value: 'subAccount', name: 'Sub-Account' },
	],
	operations: [...accountOperations, ...subAccountOperations, ...groupOperations, ...groupPermissionOperations, ...billingOperations],
};

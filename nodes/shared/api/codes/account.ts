/** Codes of accounts, sub-accounts, groups and billing (the account and billing part of the management documentation). */
import type { OptionDecl } from '../declarations';

/** Sub-account `status` (0 disabled, 1 enabled). */
export const SUB_ACCOUNT_STATUS: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Disabled', value: 0 },
];

/** Sub-account permission `type`: the kind of resource a permission entry covers. */
export const PERMISSION_TYPES: OptionDecl[] = [
	{ name: 'Cloud Host', value: 1 },
	{ name: 'Cloud Disk', value: 2 },
	{ name: 'Security Group', value: 3 },
	{ name: 'Private Network', value: 4 },
	{ name: 'Content Delivery', value: 5 },
	{ name: 'Cloud DNS', value: 6 },
];

/** The daily, weekly and monthly report switches of the account profile (1 send, 0 do not send). */
export const REPORT_SENDING: OptionDecl[] = [
	{ name: 'Send', value: 1 },
	{ name: 'Do Not Send', value: 0 },
];

/** profile/rechargeList `type` (1 alipay, 2 online banking, 3 offline transfer, 4 system recharge, 5 invitation). */
export const RECHARGE_TYPES: OptionDecl[] = [
	{ name: 'Alipay', value: 1 },
	{ name: 'Online Banking', value: 2 },
	{ name: 'Offline Transfer', value: 3 },
	{ name: 'System Recharge', value: 4 },
	{ name: 'Invitation', value: 5 },
];

/** profile/payList `type` (1 consumption, 2 refund, 3 invoice amount, 4 coupon). */
export const PAYMENT_TYPES: OptionDecl[] = [
	{ name: 'Consumption', value: 1 },
	{ name: 'Refund', value: 2 },
	{ name: 'Invoice Amount', value: 3 },
	{ name: 'Coupon', value: 4 },
];

/**
 * profile/payList `paytype`, the service paid for (1 cloud host, 2 cloud disk, 3 cloud host
 * backup, 5 content delivery, 6 delivery traffic package, 7 cloud DNS, 8 other, 9 physical
 * cloud host; the documentation has no 4).
 */
export const PAYMENT_SERVICES: OptionDecl[] = [
	{ name: 'Cloud Host', value: 1 },
	{ name: 'Cloud Disk', value: 2 },
	{ name: 'Cloud Host Backup', value: 3 },
	{ name: 'Content Delivery', value: 5 },
	// the documents' "delivery traffic package": named as the CDN node sells it (Traffic Package > Buy,
	// cdn/payFlowAdd), so a report, a payment and the CDN node give the one thing one name
	{ name: 'CDN Traffic Package', value: 6 },
	{ name: 'Cloud DNS', value: 7 },
	{ name: 'Other', value: 8 },
	{ name: 'Physical Cloud Host', value: 9 },
];

/** Invoice `type` (profile/invoiceApply: 1 enterprise, 2 person). */
export const INVOICE_HOLDERS: OptionDecl[] = [
	{ name: 'Enterprise', value: 1 },
	{ name: 'Person', value: 2 },
];

/** Invoice `invoicetype` (profile/invoiceApply: 1 special VAT invoice, 2 ordinary VAT invoice). */
export const INVOICE_KINDS: OptionDecl[] = [
	{ name: 'Special VAT Invoice', value: 1 },
	{ name: 'Ordinary VAT Invoice', value: 2 },
];

/** Coupon `status`. */
export const COUPON_STATUS: OptionDecl[] = [
	{ name: 'Unused', value: 0 },
	{ name: 'Activated', value: 1 },
	{ name: 'Used', value: 2 },
	{ name: 'Void', value: 3 },
	{ name: 'Expired', value: 4 },
];

/** profile/logs `type` (the documentation's words). */
export const LOG_TYPES: OptionDecl[] = [
	{ name: 'User', value: 'user' },
	{ name: 'Finance', value: 'finance' },
	{ name: 'Cloud Host', value: 'instance' },
	{ name: 'CDN', value: 'webcdn' },
	{ name: 'DNS', value: 'dns' },
];

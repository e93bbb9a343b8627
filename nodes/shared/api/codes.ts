/**
 * Words for the codes of the management interface, each from the seeds (001 and 002, sections 2
 * to 4). One table per coded field; the dropdowns that choose a code and the simplified output
 * that shows it read the same list, so a code has one word everywhere.
 *
 * A value a table does not hold (a status the seed gives no meaning for, a new code of the
 * vendor) is shown as it came: `wordOf` never invents a word.
 */
import type { OptionDecl } from './declarations';
import { ACCELERATION_TYPES, COUPON_STATUS, HOST_STATUS, PAY_TYPES } from './enums';

/** Code (as a string, the way the service sends it) → word. */
export type CodeTable = Record<string, string>;

/** The word table of a dropdown's options. */
export const table = (options: OptionDecl[]): CodeTable => Object.fromEntries(options.map((o) => [String(o.value), o.name]));

/* ------------------------------------------------ seed 001: accounts and billing */

/** Sub-account `status` (section 3: 0 disabled, 1 enabled). */
export const SUB_ACCOUNT_STATUS: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Disabled', value: 0 },
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
 * cloud host; the seed has no 4).
 */
export const PAYMENT_SERVICES: OptionDecl[] = [
	{ name: 'Cloud Host', value: 1 },
	{ name: 'Cloud Disk', value: 2 },
	{ name: 'Cloud Host Backup', value: 3 },
	{ name: 'Content Delivery', value: 5 },
	{ name: 'Delivery Traffic Package', value: 6 },
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

/** profile/logs `type` (the seed's words). */
export const LOG_TYPES: OptionDecl[] = [
	{ name: 'User', value: 'user' },
	{ name: 'Finance', value: 'finance' },
	{ name: 'Cloud Host', value: 'instance' },
	{ name: 'CDN', value: 'webcdn' },
	{ name: 'DNS', value: 'dns' },
];

/* ------------------------------------------------------------ seed 001: CDN */

/** Channel `status`: the seed gives only 1 enabled (the closed value is not given). */
export const CHANNEL_STATUS: OptionDecl[] = [{ name: 'Enabled', value: 1 }];

/** Channel `cachetype`. */
export const CACHE_TYPES: OptionDecl[] = [
	{ name: 'Follow Origin', value: 'followOrigin' },
	{ name: 'Cache Static Files', value: 'cacheStatic' },
	{ name: 'Custom', value: 'custom' },
];

/** Channel `origin_sty`. */
export const ORIGIN_POLICIES: OptionDecl[] = [
	{ name: 'ISP and City', value: 'isp_city' },
	{ name: 'ISP and Province', value: 'isp_province' },
	{ name: 'ISP and Region', value: 'isp_region' },
	{ name: 'ISP', value: 'isp' },
	{ name: 'City', value: 'city' },
	{ name: 'Province', value: 'province' },
	{ name: 'Region', value: 'region' },
	{ name: 'Off', value: 'null' },
	{ name: 'Weighted', value: 'wgt' },
];

/** Refresh or prefetch task `type`. */
export const TASK_TYPES: OptionDecl[] = [
	{ name: 'File', value: 'file' },
	{ name: 'Directory', value: 'dir' },
];

/** Refresh task `status` (section 3: 0 refreshing, 1 completed). */
export const TASK_STATUS: OptionDecl[] = [
	{ name: 'Refreshing', value: 0 },
	{ name: 'Completed', value: 1 },
];

/** Task `preload` (0 no, 1 yes): what kind of task it is. */
export const TASK_KINDS: OptionDecl[] = [
	{ name: 'Cache Refresh', value: 0 },
	{ name: 'Prefetch', value: 1 },
];

/** Task `preloadtype` (0 core nodes only, 1 all nodes). */
export const PREFETCH_NODES: OptionDecl[] = [
	{ name: 'All Nodes', value: 1 },
	{ name: 'Core Nodes Only', value: 0 },
];

/** Refresh or prefetch status query result (section 3). */
export const TASK_RESULTS: OptionDecl[] = [
	{ name: 'Succeeded', value: 'success' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Processing', value: 'processing' },
];

/* ---------------------------------------------------- seed 002: hosts and disks */

/** Host disk `status` (instance/diskList filter: 0 bound, 1 available, 2 recycle bin). */
export const HOST_DISK_STATUS: OptionDecl[] = [
	{ name: 'Bound', value: 0 },
	{ name: 'Available', value: 1 },
	{ name: 'Recycle Bin', value: 2 },
];

/** Cloud disk `status` (cloudDiskList filter: 0 bound, 1 usable, 2 recycle bin). */
export const CLOUD_DISK_STATUS: OptionDecl[] = [
	{ name: 'Bound', value: 0 },
	{ name: 'Usable', value: 1 },
	{ name: 'Recycle Bin', value: 2 },
];

/** Backup `backup_type` (1 system, 2 system and data). */
export const BACKUP_TYPES: OptionDecl[] = [
	{ name: 'System Disk', value: 1 },
	{ name: 'System and Data Disks', value: 2 },
];

/** Backup `status` (section 3: 0 in progress, 1 completed, 2 failed, 3 in arrears, 4 recycle bin). */
export const BACKUP_STATUS_WORDS: CodeTable = { '0': 'In Progress', '1': 'Completed', '2': 'Failed', '3': 'In Arrears', '4': 'Recycle Bin' };

/**
 * Line codes (instance/create `networkid`: 1 inner network, 2 Telecom, 3 Unicom, 4 Mobile,
 * 5 BGP, 6 dual line). A line row gives it as `linetype`, a host as `network`.
 */
export const LINES: OptionDecl[] = [
	{ name: 'Inner Network', value: 1 },
	{ name: 'Telecom', value: 2 },
	{ name: 'Unicom', value: 3 },
	{ name: 'Mobile', value: 4 },
	{ name: 'BGP', value: 5 },
	{ name: 'Dual Line', value: 6 },
];

/** Firewall rule `direction`. */
export const DIRECTIONS: OptionDecl[] = [
	{ name: 'Inbound', value: 'in' },
	{ name: 'Outbound', value: 'out' },
];

/** Firewall rule `action`. */
export const RULE_ACTIONS: OptionDecl[] = [
	{ name: 'Accept', value: 'ACCEPT' },
	{ name: 'Reject', value: 'REJECT' },
];

/** Firewall rule `status` (0 disabled, 1 enabled). */
export const RULE_STATUS: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Disabled', value: 0 },
];

/* -------------------------------------------------------------- seed 002: DNS */

/** DNS domain `status` (1 enabled, 2 paused, 3 abnormal). */
export const DOMAIN_STATUS: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Paused', value: 2 },
	{ name: 'Abnormal', value: 3 },
];

/** `0 paused / 1 enabled` toggles (records, monitors, monitor records, strategies). */
export const ENABLED_PAUSED: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Paused', value: 0 },
];

/** `0 closed / 1 enabled` toggles (strategy templates and their records). */
export const ENABLED_CLOSED: OptionDecl[] = [
	{ name: 'Enabled', value: 1 },
	{ name: 'Closed', value: 0 },
];

/** Resolution strategy `sty`. */
export const STRATEGIES: OptionDecl[] = [
	{ name: 'Zone Only', value: 'auto', description: 'Answer by zone only' },
	{ name: 'Carrier and Region', value: 'isp_region', description: 'Answer by carrier plus region' },
	{ name: 'Carrier and Province', value: 'isp_province', description: 'Answer by carrier plus province' },
	{ name: 'Carrier and City', value: 'isp_city', description: 'Answer by carrier plus city' },
	{ name: 'Off', value: 'null', description: 'No strategy' },
];

/**
 * DNS record lines. The seed names no values for `recordline`; the dropdown offers the line
 * that answers everyone and the carriers seed 002 names for host lines, and any other line the
 * service knows is entered as an expression (DECISIONS: lists given by example stay open).
 */
export const DNS_LINES: OptionDecl[] = [
	{ name: 'Default', value: 'default', description: 'Answers everyone' },
	{ name: 'Telecom', value: 'telecom' },
	{ name: 'Unicom', value: 'unicom' },
	{ name: 'Mobile', value: 'mobile' },
];

/* ------------------------------------------------------------------ tables */

/** Every word table, by the name the simplified output and the docs use. */
export const CODES = {
	subAccountStatus: table(SUB_ACCOUNT_STATUS),
	rechargeType: table(RECHARGE_TYPES),
	paymentType: table(PAYMENT_TYPES),
	paymentService: table(PAYMENT_SERVICES),
	invoiceHolder: table(INVOICE_HOLDERS),
	invoiceKind: table(INVOICE_KINDS),
	couponStatus: table(COUPON_STATUS),
	logType: table(LOG_TYPES),
	accelerationType: table(ACCELERATION_TYPES),
	channelStatus: table(CHANNEL_STATUS),
	cacheType: table(CACHE_TYPES),
	originPolicy: table(ORIGIN_POLICIES),
	taskType: table(TASK_TYPES),
	taskStatus: table(TASK_STATUS),
	taskKind: table(TASK_KINDS),
	prefetchNodes: table(PREFETCH_NODES),
	taskResult: table(TASK_RESULTS),
	hostStatus: table(HOST_STATUS),
	billing: table(PAY_TYPES),
	line: table(LINES),
	hostDiskStatus: table(HOST_DISK_STATUS),
	cloudDiskStatus: table(CLOUD_DISK_STATUS),
	backupType: table(BACKUP_TYPES),
	backupStatus: BACKUP_STATUS_WORDS,
	direction: table(DIRECTIONS),
	ruleAction: table(RULE_ACTIONS),
	ruleStatus: table(RULE_STATUS),
	domainStatus: table(DOMAIN_STATUS),
	enabledPaused: table(ENABLED_PAUSED),
	enabledClosed: table(ENABLED_CLOSED),
	strategy: table(STRATEGIES),
} satisfies Record<string, CodeTable>;

/** A value as a table key: `1`, `"1"`, `" 1 "` and `"1.0"` read alike; undefined when there is none. */
export function codeKey(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'object') return undefined;
	const s = String(value).trim();
	if (s === '') return undefined;
	return /^[-+]?\d+(\.0*)?$/.test(s) ? String(Number(s)) : s;
}

/**
 * The word of a code, or undefined when the table does not hold it. A value that already is one
 * of the table's words (any case: "Online banking") gives that word, so a service that sends
 * display names instead of codes reads the same.
 */
export function wordOf(codes: CodeTable, value: unknown): string | undefined {
	const key = codeKey(value);
	if (key === undefined) return undefined;
	if (codes[key] !== undefined) return codes[key];
	const lower = key.toLowerCase();
	return Object.values(codes).find((w) => w.toLowerCase() === lower);
}

/**
 * The codes of the management interface and their words, in one place.
 *
 * What goes where:
 * - A list of values the service takes or sends for one field (a status, a type, a switch),
 *   each with the word the node shows for it, goes in the file of its area: account.ts,
 *   cdn.ts, hosts.ts, dns.ts, or switches.ts for yes/no and on/off. The lists are the options
 *   of the dropdowns that choose a code. A choice that one field alone uses may be written
 *   inline in its declaration; once two fields share it, or output shows its words, it moves here.
 * - CODES below turns those lists into word tables, under the names the simplified output
 *   uses, so a code has one word everywhere: in the dropdown and in the output.
 * - reading.ts: how a value the service sent is read as a code (numbers and numeric strings
 *   alike, a word instead of a code, a carrier's name instead of a line code).
 * - states.ts: what a status means for a wait or a trigger (final, failure), on top of its word.
 *
 * A value a table does not hold (a status the documentation gives no meaning for, a new code of
 * the vendor) is shown as it came: `wordOf` never invents a word.
 */
import { COUPON_STATUS, INVOICE_HOLDERS, INVOICE_KINDS, LOG_TYPES, PAYMENT_SERVICES, PAYMENT_TYPES, RECHARGE_TYPES, SUB_ACCOUNT_STATUS } from './account';
import { ACCELERATION_TYPES, CACHE_TYPES, CHANNEL_STATUS, ORIGIN_POLICIES, PREFETCH_NODES, TASK_KINDS, TASK_RESULTS, TASK_STATUS, TASK_TYPES } from './cdn';
import { DNS_LINES, DOMAIN_STATUS, ENABLED_CLOSED, ENABLED_PAUSED, STRATEGIES } from './dns';
import { BACKUP_STATUS, BACKUP_TYPES, CLOUD_DISK_STATUS, DIRECTIONS, HOST_DISK_STATUS, HOST_STATUS, LINES, PAY_TYPES, RULE_ACTIONS, RULE_STATUS } from './hosts';
import { table, type CodeTable } from './reading';

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
	backupStatus: table(BACKUP_STATUS),
	direction: table(DIRECTIONS),
	ruleAction: table(RULE_ACTIONS),
	ruleStatus: table(RULE_STATUS),
	domainStatus: table(DOMAIN_STATUS),
	enabledPaused: table(ENABLED_PAUSED),
	enabledClosed: table(ENABLED_CLOSED),
	strategy: table(STRATEGIES),
	dnsLine: table(DNS_LINES),
} satisfies Record<string, CodeTable>;

export * from './account';
export * from './cdn';
export * from './dns';
export * from './hosts';
export * from './switches';
export * from './reading';
export * from './states';

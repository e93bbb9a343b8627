/** Enumerations the seeds list, shared by several nodes and the triggers. */
import type { OptionDecl } from './declarations';

/** CDN acceleration types (channel `type`). */
export const ACCELERATION_TYPES: OptionDecl[] = [
	{ name: 'Cloud', value: 'cloud' },
	{ name: 'Download', value: 'download' },
	{ name: 'HLS', value: 'hls' },
	{ name: 'Music', value: 'music' },
	{ name: 'Live', value: 'live' },
	{ name: 'Static', value: 'static' },
];

/** Cloud host `status` (seed 002 section 3). */
export const HOST_STATUS: OptionDecl[] = [
	{ name: 'Creating', value: 0 },
	{ name: 'Running', value: 1 },
	{ name: 'Paused', value: 2 },
	{ name: 'Abnormal', value: 3 },
	{ name: 'Reinstalling', value: 4 },
	{ name: 'Restricted', value: 5 },
	{ name: 'Maintenance', value: 6 },
	{ name: 'Deleting', value: 7 },
	{ name: 'Queued', value: 8 },
	{ name: 'Recycle Bin', value: 9 },
];

export const HOST_STATUS_NAMES: Record<string, string> = Object.fromEntries(HOST_STATUS.map((o) => [String(o.value), o.name]));

/**
 * A status value as the service sends it (`1`, `"1"`, `" 1 "`, `"1.0"`) as the key of the tables
 * here; undefined when there is none (absent, null, empty). Never compare a service value with a
 * number directly: the seed says most numbers arrive as strings, and either form must read alike.
 */
export function statusKey(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'object') return undefined;
	const s = String(value).trim();
	if (s === '') return undefined;
	return /^[-+]?\d+(\.0*)?$/.test(s) ? String(Number(s)) : s;
}

/** The display name of a host status: "Running", or "Status 12" for a value the seed does not list. */
export function hostStatusName(value: unknown): string | null {
	const key = statusKey(value);
	if (key === undefined) return null;
	return HOST_STATUS_NAMES[key] ?? `Status ${key}`;
}

export const HOST_RUNNING = '1';

/**
 * Host statuses that end a wait for "running" as a failure: the host will not run by itself from
 * them (3 abnormal, 7 deleting, 9 recycle bin). The others (creating, paused, reinstalling,
 * restricted, maintenance, queued) may still turn into running, so a wait goes on until its timeout.
 */
export const HOST_WAIT_FAILURES: Record<string, string> = {
	'3': 'abnormal',
	'7': 'being deleted',
	'9': 'in the recycle bin',
};

/** One backup status and what it means for a task that watches the backup. */
export interface BackupState {
	name: string;
	/** Whether the backup has left "in progress" for good: a wait ends, the Task Trigger reports it. */
	final: boolean;
	/** For a final state: whether the backup did not end usable (a wait fails, the trigger says "failed"). */
	failure: boolean;
	/** What the state means, as a user reads it in an error or an item. */
	meaning: string;
}

/**
 * Backup `status` (seed 002 section 3: 0 in progress, 1 completed, 2 failed, 3 in arrears,
 * 4 recycle bin), the one table the backup wait and the Task Trigger both read.
 *
 * "In arrears" is read as billing uses the word (seed 001: the balance, arrears): the backup is
 * held because the account owes money. It is not "in progress" (nothing the service will finish
 * by itself) and it is not a usable backup, so it is a final state and a failure: a wait stops
 * with a message to recharge the account, and the trigger reports the backup as failed with
 * status name "In Arrears". The recycle bin (a deleted backup, kept 2 hours) is final and a
 * failure too: a backup watched while in progress that ends there was not seen completed.
 * A status the seed does not list counts as still in progress (a wait goes on until its timeout).
 */
export const BACKUP_STATES: Record<string, BackupState> = {
	'0': { name: 'In Progress', final: false, failure: false, meaning: 'in progress' },
	'1': { name: 'Completed', final: true, failure: false, meaning: 'completed' },
	'2': { name: 'Failed', final: true, failure: true, meaning: 'failed' },
	'3': { name: 'In Arrears', final: true, failure: true, meaning: 'held because the account is in arrears (it owes money)' },
	'4': { name: 'Recycle Bin', final: true, failure: true, meaning: 'deleted (in the recycle bin)' },
};

/** The state of a backup status value (number or string); undefined for a value the seed does not list. */
export function backupState(value: unknown): BackupState | undefined {
	const key = statusKey(value);
	return key === undefined ? undefined : BACKUP_STATES[key];
}

/** Backup `status` as dropdown options (seed 002 section 3). */
export const BACKUP_STATUS: OptionDecl[] = Object.entries(BACKUP_STATES).map(([value, s]) => ({ name: s.name, value: Number(value) }));

/** Billing mode of hosts: type/paytype 1 on demand, 2 monthly, 3 yearly. */
export const PAY_TYPES: OptionDecl[] = [
	{ name: 'On Demand', value: 1 },
	{ name: 'Monthly', value: 2 },
	{ name: 'Yearly', value: 3 },
];

/** Coupon `status` (seed 001 section 3). */
export const COUPON_STATUS: OptionDecl[] = [
	{ name: 'Unused', value: 0 },
	{ name: 'Activated', value: 1 },
	{ name: 'Used', value: 2 },
	{ name: 'Void', value: 3 },
	{ name: 'Expired', value: 4 },
];

/** Statistics view types of cdn/domainBandwidth and cdn/domainLogstat. */
export const VIEW_TYPES: OptionDecl[] = [
	{ name: 'Today', value: 'today' },
	{ name: 'Yesterday', value: 'yesterday' },
	{ name: 'Week', value: 'week' },
	{ name: 'Month', value: 'month' },
	{ name: 'Last Month', value: 'last_month' },
	{ name: 'Custom', value: 'custom' },
];

/** Service types of the statistics endpoints. */
export const SERVICE_TYPES: OptionDecl[] = [
	{ name: 'Cloud', value: 'cloud' },
	{ name: 'Static', value: 'static' },
	{ name: 'Dynamic', value: 'dynamic' },
	{ name: 'RTMP', value: 'rtmp' },
	{ name: 'Music', value: 'music' },
	{ name: 'HLS', value: 'hls' },
	{ name: 'Download', value: 'download' },
];

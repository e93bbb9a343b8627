/** Codes of cloud hosts, disks, backups, lines and firewalls (the hosts part of the management documentation). */
import type { OptionDecl } from '../declarations';

/** Cloud host `status`. */
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

/** Billing mode of hosts: type/paytype 1 on demand, 2 monthly, 3 yearly. */
export const PAY_TYPES: OptionDecl[] = [
	{ name: 'On Demand', value: 1 },
	{ name: 'Monthly', value: 2 },
	{ name: 'Yearly', value: 3 },
];

/** instance/monitor `type`: the span of time the monitoring points cover. */
export const MONITOR_PERIODS: OptionDecl[] = [
	{ name: 'Last Hour', value: 'hour' },
	{ name: 'Last Day', value: 'day' },
	{ name: 'Last Week', value: 'week' },
	{ name: 'Last Month', value: 'month' },
	{ name: 'Last Year', value: 'year' },
];

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

/**
 * Backup `status` (0 in progress, 1 completed, 2 failed, 3 in arrears, 4 recycle bin). What
 * each means for a wait and for the Task Trigger is in states.ts.
 */
export const BACKUP_STATUS: OptionDecl[] = [
	{ name: 'In Progress', value: 0 },
	{ name: 'Completed', value: 1 },
	{ name: 'Failed', value: 2 },
	{ name: 'In Arrears', value: 3 },
	{ name: 'Recycle Bin', value: 4 },
];

/**
 * Line codes (instance/create `networkid`: 1 inner network, 2 Telecom, 3 Unicom, 4 Mobile,
 * 5 BGP, 6 dual line). A line row gives it as `linetype`, a host as `network`; the names a
 * service may send instead of the code are in reading.ts (`lineCode`).
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

/**
 * Firewall rule `protocol`. The documentation gives tcp and udp as examples ("for example tcp,
 * udp"), so the list is open: the usual protocols to choose from, any other the service knows
 * entered as an expression.
 */
export const FIREWALL_PROTOCOLS: OptionDecl[] = [
	{ name: 'TCP', value: 'tcp' },
	{ name: 'UDP', value: 'udp' },
	{ name: 'ICMP', value: 'icmp' },
	{ name: 'All', value: 'all' },
];

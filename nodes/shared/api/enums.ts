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

/** Backup `status` (seed 002 section 3). */
export const BACKUP_STATUS: OptionDecl[] = [
	{ name: 'In Progress', value: 0 },
	{ name: 'Completed', value: 1 },
	{ name: 'Failed', value: 2 },
	{ name: 'In Arrears', value: 3 },
	{ name: 'Recycle Bin', value: 4 },
];

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

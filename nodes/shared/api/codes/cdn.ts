/** Codes of content delivery: channels, tasks, statistics and bills. */
import type { OptionDecl } from '../declarations';

/** CDN acceleration types (channel `type`). */
export const ACCELERATION_TYPES: OptionDecl[] = [
	{ name: 'Cloud', value: 'cloud' },
	{ name: 'Download', value: 'download' },
	{ name: 'HLS', value: 'hls' },
	{ name: 'Music', value: 'music' },
	{ name: 'Live', value: 'live' },
	{ name: 'Static', value: 'static' },
];

/** Channel `status`: the documentation gives only 1 enabled (the closed value is not given). */
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

/** Refresh task `status` (0 refreshing, 1 completed). */
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

/** What the refresh and prefetch status queries answer per task. */
export const TASK_RESULTS: OptionDecl[] = [
	{ name: 'Succeeded', value: 'success' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Processing', value: 'processing' },
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

/** The breakdowns cdn/domainLogstat returns (`types`). */
export const STAT_BREAKDOWNS: OptionDecl[] = [
	{ name: 'Cache Hits', value: 'cache' },
	{ name: 'Response Codes', value: 'code' },
	{ name: 'Countries', value: 'country' },
	{ name: 'Provinces', value: 'province' },
	{ name: 'ISPs', value: 'isp' },
];

/** Service types of the CDN bills (cdn/getBillByUser `type`). */
export const BILL_SERVICE_TYPES: OptionDecl[] = [
	{ name: 'Cloud', value: 'cloud' },
	{ name: 'Download', value: 'download' },
	{ name: 'HLS', value: 'hls' },
	{ name: 'Music', value: 'music' },
	{ name: 'RTMP', value: 'rtmp' },
	{ name: 'Static', value: 'static' },
];

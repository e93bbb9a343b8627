import type { ApiArea } from '../shared/api/declarations';
import { accelerationProfileOperations } from './resources/accelerationProfile';
import { billOperations } from './resources/bill';
import { cacheRefreshOperations } from './resources/cacheRefresh';
import { certificateOperations } from './resources/certificate';
import { channelOperations } from './resources/channel';
import { channelLogOperations } from './resources/channelLog';
import { ipAddressOperations } from './resources/ipAddress';
import { livePushOriginOperations } from './resources/livePushOrigin';
import { prefetchOperations } from './resources/prefetch';
import { serviceNodeOperations } from './resources/serviceNode';
import { statisticOperations } from './resources/statistic';
import { taskOperations } from './resources/task';
import { trafficPackageOperations } from './resources/trafficPackage';

/** Content delivery: the 33 cdn rows of endpoints.tsv. */
export const cdnArea: ApiArea = {
	node: 'vendorCdn',
	versions: [1],
	defaultResource: 'channel',
	defaultOperations: {
		channel: 'getAll',
		accelerationProfile: 'getAll',
		bill: 'getByAccount',
		cacheRefresh: 'create',
		certificate: 'getAll',
		channelLog: 'getAll',
		ipAddress: 'getLocation',
		livePushOrigin: 'getAll',
		prefetch: 'create',
		serviceNode: 'getAll',
		statistic: 'getBandwidth',
		task: 'getAll',
		trafficPackage: 'getPriceTiers',
	},
	resources: [
		{ value: 'channel', name: 'Channel', description: 'Accelerated domains with their origins, cache and access settings' },
		{ value: 'accelerationProfile', name: 'Acceleration Profile', description: 'Acceleration types and billing types the account may use' },
		{ value: 'bill', name: 'Bill', description: 'CDN traffic bills by month or by channel' },
		{ value: 'cacheRefresh', name: 'Cache Refresh', description: 'Purge cached files so they are fetched from the origin again' },
		{ value: 'certificate', name: 'Certificate', description: 'SSL certificates of channels' },
		{ value: 'channelLog', name: 'Channel Log', description: 'Access log files of channels' },
		{ value: 'ipAddress', name: 'IP Address', description: 'Where IP addresses are located' },
		{ value: 'livePushOrigin', name: 'Live Push Origin', description: 'Channels a live stream can be pushed to' },
		{ value: 'prefetch', name: 'Prefetch', description: 'Warm the CDN cache with files before users ask for them' },
		{ value: 'serviceNode', name: 'Service Node', description: 'Core and edge nodes that serve channels' },
		{ value: 'statistic', name: 'Statistic', description: 'Bandwidth, traffic and request statistics of channels' },
		{ value: 'task', name: 'Task', description: 'Cache refresh and prefetch tasks' },
		{ value: 'trafficPackage', name: 'Traffic Package', description: 'Prepaid CDN traffic and its balance' },
	],
	operations: [
		...channelOperations,
		...accelerationProfileOperations,
		...billOperations,
		...cacheRefreshOperations,
		...certificateOperations,
		...channelLogOperations,
		...ipAddressOperations,
		...livePushOriginOperations,
		...prefetchOperations,
		...serviceNodeOperations,
		...statisticOperations,
		...taskOperations,
		...trafficPackageOperations,
	],
};

import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { ACCELERATION_TYPES, CACHE_TYPES, CODES, ON_OFF, ORIGIN_POLICIES, YES_NO, YES_NO_STRING } from '../../shared/api/codes';
import { code, computed, field, flag, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { checked, choice, count, int, locator, locators, required, secret, str, text, topLevel } from '../../shared/api/fields';
import { checkOrigins, foundOne, originList, originObject } from '../channels';

/** Simplified channel records (cdn/domainList has about 35 fields). */
export const CHANNEL_SIMPLE: SimplifySpec = {
	id: field('id'),
	domain: field('name'),
	type: code('type', CODES.accelerationType, 'type_zh'),
	// only 1 (enabled) is documented (docs/vendor/readings.md#r5); another value shows the service's own name (status_zh)
	status: code('status', CODES.channelStatus, 'status_zh'),
	cname: field('cname'),
	origins: computed((r) => originList(r.ip)),
	backupOrigins: computed((r) => originList(r.originback)),
	originPolicy: code('origin_sty', CODES.originPolicy),
	cacheType: code('cachetype', CODES.cacheType),
	certificate: field('sslconf_name'),
	certificateId: field('sslconf_id'),
	forceHttps: flag('ssl_redirect'),
	starred: flag('mark'),
	note: field('note'),
	// the cache policy Channel > Get returns (cacheconf), as it came
	cacheRules: field('cacheconf'),
	created: time('createtime'),
	endTime: time('endtime'),
};

const originRowFields = (withWeight: boolean): FieldDecl[] => [
	required(str('ip', 'Address', 'IP address of the origin (Origin Type IP); a domain name or bucket address when Origin Type is Domain or Bucket', { placeholder: 'e.g. 203.0.113.10' })),
	required(checked(int('port', 'Port', 'Port of the origin', { default: 80 }), { kind: 'port' })),
	...(withWeight ? [int('weight', 'Weight', 'Share of requests when Origin Policy is Weighted (often 1-100); 0 for none')] : []),
];

const origins: FieldDecl = {
	wire: 'ip',
	param: 'origins',
	displayName: 'Origins',
	kind: 'rows',
	description: 'Origin servers the channel fetches from',
	rows: { itemName: 'Origin', fields: originRowFields(true), serialize: (rows) => originObject(rows, 'Origins') },
};

const backupOrigins: FieldDecl = {
	wire: 'originback',
	param: 'backupOrigins',
	displayName: 'Backup Origins',
	kind: 'rows',
	description: 'Origins used when the main origins fail',
	rows: {
		itemName: 'Backup Origin',
		fields: originRowFields(false),
		serialize: (rows) => rows.map((r) => originObject([r], 'Backup Origins')),
	},
};

const cacheRules: FieldDecl = {
	wire: 'cacheconf',
	param: 'cacheRules',
	displayName: 'Cache Rules',
	kind: 'rows',
	description: 'Cache policy rules, used when Cache Type is Custom',
	rows: {
		itemName: 'Rule',
		fields: [
			str('pattern', 'File Suffixes', 'Comma-separated file suffixes the rule applies to', { placeholder: 'e.g. jpg,png,css' }),
			str('path', 'Path', 'Directory the rule applies to, usually starting with /', { placeholder: 'e.g. /static/' }),
			required(
				choice('type', 'Rule Type', [
					{ name: 'Cache', value: 'cache' },
					{ name: 'Do Not Cache', value: 'noCache' },
					{ name: 'Cache Home Page', value: 'cacheHome' },
				], undefined, { default: 'cache' }),
			),
			count('ttl', 'TTL', 'a time to live', 'How long matching files are cached, in the unit below', { default: 1 }),
			choice(
				'unit',
				'TTL Unit',
				[
					{ name: 'Minutes', value: 'm' },
					{ name: 'Hours', value: 'h' },
					{ name: 'Days', value: 'd' },
				],
				undefined,
				{ default: 'd' },
			),
			{ wire: 'check_origin', displayName: 'Prefer Origin Policy', kind: 'boolean', description: "Whether the origin's own cache headers take precedence" },
		],
		serialize: (rows) => rows,
	},
};

/** Channel settings of cdn/domainAdd and cdn/domainUpdate (docs/vendor/account-billing-cdn.md#channel-settings). */
function channelSettings(adding: boolean): FieldDecl[] {
	return [
		...(adding ? [] : [origins]),
		choice('origintype', 'Origin Type', [
			{ name: 'IP', value: 'ip' },
			{ name: 'Domain', value: 'domain' },
			{ name: 'Bucket', value: 'bucket' },
		], 'What the origin addresses are (default IP on create)', { default: 'ip' }),
		choice('origin_sty', 'Origin Policy', ORIGIN_POLICIES, 'How requests are spread over several origins', { default: 'isp_city' }),
		backupOrigins,
		choice('origin_protocol', 'Origin Protocol', [
			{ name: 'HTTPS', value: 0 },
			{ name: 'HTTP', value: 1 },
		], 'Protocol used to fetch from the origin (default HTTPS)', { default: 0 }),
		str('add_server_header', 'Origin Host Header', 'Host header sent to the origin, usually a domain', { placeholder: 'e.g. origin.example.com' }),
		str('icp', 'ICP Filing Number'),
		str('siteinfo', 'Site Kind', 'Kind of site served by the channel'),
		str('monitorurl', 'Monitoring URL', 'Address used to monitor the channel', { placeholder: 'e.g. https://www.example.com/health' }),
		choice('cachetype', 'Cache Type', CACHE_TYPES, 'Cache policy (default Follow Origin); Custom uses the cache rules', { default: 'followOrigin' }),
		cacheRules,
		choice('cache_ignore_query', 'Ignore Query String', ON_OFF, 'Whether the query string is left out of the cache key', { default: 'on' }),
		{ ...locator('sslconf_id', 'certificate', 'Certificate', 'SSL certificate of the channel'), required: false },
		{ wire: 'ssl_redirect', displayName: 'Force HTTPS', kind: 'boolean', description: 'Whether HTTP requests are redirected to HTTPS' },
		text('deny_ip', 'IP Blacklist', 'Addresses to refuse, one per line (commas are turned into new lines); the service decides whether it takes CIDR blocks', { placeholder: 'e.g. 198.51.100.7' }),
		choice('accesskey', 'Token Anti-Leech', ON_OFF, 'Whether requests must carry a signed token', { default: 'on' }),
		str('accesskey_hashmethod', 'Token Hash Method', 'Hash of the token signature (the service default is md5)', { placeholder: 'e.g. md5' }),
		secret('accesskey_signature', 'Token Key', 'Key the token signature is made with'),
		str('accesskey_exclude', 'Token Excluded Characters', 'Characters left out when the token is checked'),
		choice('referer_enable', 'Referer Control', ON_OFF, 'Whether requests are checked against the referer lists', { default: 'on' }),
		text('referer_white', 'Referer Whitelist', 'Allowed referers, one per line'),
		text('referer_black', 'Referer Blacklist', 'Refused referers, one per line'),
		choice('allow_null_referer', 'Allow Empty Referer', ON_OFF, 'Whether requests without a referer are allowed', { default: 'on' }),
		str('access_referer_suffix', 'Referer Check Suffixes', 'File suffixes the referer check applies to', { placeholder: 'e.g. jpg,png' }),
		choice('ua_enable', 'User Agent Control', ON_OFF, 'Whether requests are checked against the user agent lists', { default: 'on' }),
		text('ua_white', 'User Agent Whitelist', 'Allowed user agents, one per line'),
		text('ua_black', 'User Agent Blacklist', 'Refused user agents, one per line'),
		choice('allow_null_ua', 'Allow Empty User Agent', ON_OFF, 'Whether requests without a user agent are allowed', { default: 'on' }),
		str('access_ua_suffix', 'User Agent Check Suffixes', 'File suffixes the user agent check applies to', { placeholder: 'e.g. mp4,flv' }),
		str('access_deny_url', 'Access Denied Image', 'Custom image shown when a request is refused', { placeholder: 'e.g. https://www.example.com/denied.png' }),
		str('rtmp_host', 'RTMP Origin Host', 'RTMP origin host of a live channel', { placeholder: 'e.g. rtmp.example.com' }),
		choice('inputType', 'Live Input Mode', [
			{ name: 'RTMP Push', value: 'rtmp_push' },
			{ name: 'RTMP Pull', value: 'rtmp' },
			{ name: 'HLS Pull', value: 'hls' },
		], 'How a live channel receives its stream', { default: 'rtmp_push' }),
		choice('flv_enabled', 'FLV Output', YES_NO_STRING, 'Whether a live channel also serves FLV', { default: '1' }),
		choice('hls_enabled', 'HLS Output', YES_NO_STRING, 'Whether a live channel also serves HLS', { default: '1' }),
		str('note', 'Note', 'Remark'),
	];
}

/** Speed-limit settings, cdn/domainUpdate only. */
const speedLimitSettings: FieldDecl[] = [
	choice('limit_url_enable', 'Speed Limit', ON_OFF, 'Whether each download link is limited in speed', { default: 'on' }),
	count('limit_rate', 'Speed Limit Rate (KB/s)', 'a speed', 'Highest speed of one link in KB/s'),
	count('limit_rate_size', 'Speed Limit File Size (MB)', 'a size in megabytes', 'Only files larger than this many MB are limited'),
	checked(str('limit_rate_time', 'Speed Limit Time Ranges', 'Comma-separated times of day when the limit applies', { placeholder: 'e.g. 08:00-12:00,19:00-23:00' }), {
		kind: 'timeRanges',
	}),
	count('limit_rate_after', 'Speed Limit After (KB)', 'a size in kilobytes', 'KB sent at full speed before the limit starts'),
	str('limit_rate_filter', 'Speed Limit Directories', 'Comma-separated directories, usually starting with /; only paths in them are limited', { placeholder: 'e.g. /video/,/download/' }),
];

const channelIds = (description: string) => locators('domain_ids', 'channel', 'Channels', description);

export const channelOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/domainList',
		path: 'cdn/domainList',
		resource: 'channel',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many channels',
		description: 'List accelerated channels, optionally of one acceleration type or only starred ones',
		list: { paged: true },
		readOnly: true,
		simplify: CHANNEL_SIMPLE,
		fields: [choice('type', 'Acceleration Type', ACCELERATION_TYPES, 'Only channels of this type', { default: 'cloud' }), choice('mark', 'Starred', YES_NO, 'Only starred or only unstarred channels', { default: 1 })],
	},
	{
		endpoint: 'cdn/domainList',
		path: 'cdn/domainList',
		resource: 'channel',
		operation: 'get',
		name: 'Get',
		action: 'Get a channel',
		description: 'Get one channel with its origin, cache and certificate settings',
		readOnly: true,
		simplify: CHANNEL_SIMPLE,
		fields: [locator('id', 'channel', 'Channel', 'The channel to get')],
		after: foundOne('Channel'),
	},
	{
		endpoint: 'cdn/domainAdd',
		path: 'cdn/domainAdd',
		resource: 'channel',
		operation: 'create',
		name: 'Create',
		action: 'Create a channel',
		description: 'Add an accelerated channel for a domain, with its origins and settings',
		fields: [
			required(
				checked(str('name', 'Domain', 'Domain the channel accelerates; *.example.com for a wildcard channel', { placeholder: 'e.g. cdn.example.com' }), {
					kind: 'domain',
					wildcard: true,
				}),
			),
			required(choice('type', 'Acceleration Type', ACCELERATION_TYPES, undefined, { default: 'cloud' })),
			topLevel(origins),
			...channelSettings(true),
		],
		prepare: (body) => checkOrigins(body, true),
	},
	{
		endpoint: 'cdn/domainUpdate',
		path: 'cdn/domainUpdate',
		resource: 'channel',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a channel',
		description: 'Change the origins, cache, access, certificate or speed-limit settings of a channel',
		fields: [
			locator('id', 'channel', 'Channel', 'The channel to change'),
			choice('mark', 'Starred', YES_NO, 'Whether the channel is starred', { default: 1 }),
			...channelSettings(false),
			...speedLimitSettings,
		],
		prepare: (body) => checkOrigins(body, false),
	},
	{
		endpoint: 'cdn/domainStart',
		path: 'cdn/domainStart',
		resource: 'channel',
		operation: 'start',
		name: 'Start',
		action: 'Start channels',
		description: 'Enable one or more channels',
		fields: [channelIds('Channels to enable')],
	},
	{
		endpoint: 'cdn/domainClose',
		path: 'cdn/domainClose',
		resource: 'channel',
		operation: 'close',
		name: 'Close',
		action: 'Close channels',
		description: 'Close one or more channels (Start enables them again)',
		notice: 'The channels are closed until Start enables them again',
		fields: [channelIds('Channels to close')],
	},
	{
		endpoint: 'cdn/domainDelete',
		path: 'cdn/domainDelete',
		resource: 'channel',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete channels',
		description: 'Delete one or more channels',
		notice: 'The channels and their settings are deleted',
		deletes: true,
		fields: [channelIds('Channels to delete')],
	},
	{
		endpoint: 'cdn/domainCurrentData',
		path: 'cdn/domainCurrentData',
		resource: 'channel',
		operation: 'getCurrentData',
		name: 'Get Current Data',
		action: 'Get current data of channels',
		description: 'Get the latest requests, traffic and response time of one or more channels',
		readOnly: true,
		fields: [locators('ids', 'channel', 'Channels', 'Channels to read')],
		simplify: {
			channelId: field('did'),
			requests: number('reqs'),
			trafficBytes: number('tx'),
			originBytes: number('rx'),
			avgDownloadMs: number('tpr'),
			updated: time('updatetime'),
		},
	},
];

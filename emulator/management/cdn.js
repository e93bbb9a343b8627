'use strict';
/**
 * Content delivery operations (`API/cdn/...`, docs/vendor/account-billing-cdn.md).
 *
 * State slice `state.cdn`:
 *   channels  [{ id, uid, sub_uid, name, type, status, mark, ip, originback, cacheconf, ...,
 *                settings: {...}, limits: {...}, createdAt }]
 *   certs     [{ id, uid, name, ssl_crt, ssl_key, ssl_ca, commonname, subjectAltName, createdAt }]
 *   tasks     [{ id, uid, sub_uid, kind: 'refresh'|'preload', type, urls, preloadtype,
 *                createdAt, readyAt, failed }]
 *   packages  [{ id, uid, sub_uid, flow, flowover, month, monthUsed, paymentId, code, createdAt }]
 *   flow      { <uid>: { month: 'yyyymm', freeUsed, monthUsed } }
 *   tiers     traffic price tiers (flowPriceList)
 *
 * Choices where the documents are silent (the emulator's, not the vendor's):
 *   - channel status: 1 enabled ("Enabled"), 2 closed ("Closed"); a new channel is enabled at
 *     once; domainDelete removes the channel (any status);
 *   - cname: `<name>.cdn.vendor.example` (`*` of a wildcard channel becomes `wildcard`);
 *   - adding a channel charges CHANNEL_FEE (1.00) to the balance (payment paytype 5, bid = id);
 *   - traffic: 10 GiB free every month; bought packages (payFlowAdd, paytype 6) are used next,
 *     oldest first; traffic beyond that is charged at the first tier's price per GiB
 *     (paytype 5). Traffic is consumed through the control route POST /cdn/traffic;
 *   - price tiers are per GiB of a package: <10 TiB 0.20, <50 TiB 0.18, <100 TiB 0.15,
 *     above 0.12; `lower`/`upper` are in GiB (upper "0" = no upper bound);
 *   - refresh/prefetch tasks are `processing` (status 0) for `timing.taskDelayMs` (default
 *     3000 ms of emulator time) after they are submitted, then completed (status 1); the
 *     status query says `failed` when any URL's host was not one of the caller's channels at
 *     submission, `success` otherwise. refreshById/preloadById submit a new task with the
 *     same URLs; cdn/refresh with `id` does the same;
 *   - statistics are derived from sha256(channel id, hour) so they are the same on every run:
 *     hourly records for bandwidth, bills are sums of the hourly `tx`; logstat's cache split
 *     is the sum of `hit`; response-code, country, province and isp splits are fixed shares
 *     per channel. `custom` ranges span at most 31 days; getBillByDomainID at most 366 days;
 *   - getBillByUser: `months` may reach back 12 months before the current one (UTC), not
 *     into the future; channel type `live` is billed as service type `rtmp`;
 *   - getLivePushOrigin lists the caller's channels of `type` (default `live`) whose name
 *     contains `domain`;
 *   - nodes: core nodes 198.51.100.1-8, edge nodes 203.0.113.1-32 (documentation ranges);
 *     a channel is served by 4 core and 8 edge nodes picked from its name.
 *
 * The code is in cdn/: model.js (constants, state slice, deterministic numbers, channel
 * look-ups), settings.js (the channel settings domainAdd and domainUpdate read), channels.js,
 * statistics.js, certificates.js, tasks.js and traffic.js (the helpers and route tables of each
 * theme) and control.js (control routes, init and demo data). This file joins the route tables
 * in the order of the operations.
 */
const { hourStats } = require('./cdn/model');
const { channelRoutes } = require('./cdn/channels');
const { statisticsRoutes, nodeRoutes } = require('./cdn/statistics');
const { certificateRoutes } = require('./cdn/certificates');
const { taskRoutes } = require('./cdn/tasks');
const { packageRoutes, billRoutes } = require('./cdn/traffic');
const demo = require('./cdn/control');

const routes = {
	...packageRoutes,
	...channelRoutes,
	...statisticsRoutes,
	...nodeRoutes,
	...certificateRoutes,
	...taskRoutes,
	...billRoutes,
};

module.exports = {
	group: 'cdn',
	name: 'Content delivery',
	init: demo.init,
	seedDemo: demo.seedDemo,
	routes,
	hourStats,
	control: demo.control,
};

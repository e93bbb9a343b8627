'use strict';
/**
 * Content delivery: what every part of the group shares. The constants (types, labels, price
 * and node lists), the state slice, the deterministic numbers (hourly statistics from sha256),
 * the date helpers and the look-ups of the caller's channels.
 */
const crypto = require('node:crypto');
const { ApiError, displayDate } = require('../util');
const account = require('../account');

const CDN_TYPES = account.CDN_TYPES;
const TYPE_ZH = {
	cloud: 'Web acceleration',
	download: 'Download acceleration',
	hls: 'HLS streaming',
	music: 'Audio streaming',
	live: 'Live streaming',
	static: 'Static acceleration',
};
const SERVICE_TYPES = ['cloud', 'static', 'dynamic', 'rtmp', 'music', 'hls', 'download'];
const BILL_SRV_TYPES = ['cloud', 'download', 'hls', 'music', 'rtmp', 'static'];
const SRV_ZH = { ...TYPE_ZH, rtmp: 'Live streaming (RTMP)', dynamic: 'Dynamic acceleration' };
const BILLTYPE_ZH = { flow: 'Traffic', bandwidth: 'Peak bandwidth', peak95: '95th percentile bandwidth' };
const STATUS_ZH = { 1: 'Enabled', 2: 'Closed' };
const ORIGIN_STY = ['isp_city', 'isp_province', 'isp_region', 'isp', 'city', 'province', 'region', 'null', 'wgt'];
const CACHE_TYPES = ['followOrigin', 'cacheStatic', 'custom'];
const ORIGIN_TYPES = ['ip', 'domain', 'bucket'];
const VIEW_TYPES = ['today', 'yesterday', 'week', 'month', 'last_month', 'custom'];
const STAT_TYPES = ['cache', 'code', 'country', 'province', 'isp'];
const ON_OFF = ['on', 'off'];
const ISPS = ['Telecom', 'Unicom', 'Mobile', 'Education Network'];
const LOCATIONS = [
	{ country: 'China', area: 'South China', province: 'Guangdong', city: 'Shenzhen' },
	{ country: 'China', area: 'North China', province: 'Beijing', city: 'Beijing' },
	{ country: 'China', area: 'East China', province: 'Zhejiang', city: 'Hangzhou' },
	{ country: 'China', area: 'East China', province: 'Shanghai', city: 'Shanghai' },
	{ country: 'United States', area: 'North America', province: 'California', city: 'San Jose' },
	{ country: 'Japan', area: 'Asia Pacific', province: 'Tokyo', city: 'Tokyo' },
];
const CORE_NODES = Array.from({ length: 8 }, (_, i) => `198.51.100.${i + 1}`);
const EDGE_NODES = Array.from({ length: 32 }, (_, i) => `203.0.113.${i + 1}`);

const GIB = 1073741824;
const FREE_FLOW = 10 * GIB;
const CHANNEL_FEE = 1;
const DAY = 86400000;
const DOMAIN_RE = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const HOST_RE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function slice(core) {
	return core.state.cdn;
}

// ---------------------------------------------------------------- deterministic numbers

function digest(...parts) {
	return crypto.createHash('sha256').update(parts.join('|')).digest();
}
const h32 = (...parts) => digest(...parts).readUInt32BE(0);

/** Traffic of channel `cid` in the hour starting at Unix second `ts`. */
function hourStats(cid, ts) {
	const d = digest(cid, 'h', ts);
	const reqs = 500 + (d.readUInt32BE(0) % 9500);
	const hit = Math.floor((reqs * (8000 + (d.readUInt32BE(4) % 1900))) / 10000);
	const tx = reqs * (20480 + (d.readUInt32BE(8) % 512000));
	const rx = Math.floor((tx * (reqs - hit)) / reqs);
	const tpr = 20 + (d.readUInt32BE(12) % 180);
	return { reqs, hit, tx, rx, tpr };
}

const monthMemo = new Map();
/** Sum of hourly tx of a channel over a month, hours up to `nowS` only. */
function monthTx(cid, yyyymm, nowS) {
	const y = Number(yyyymm.slice(0, 4));
	const m = Number(yyyymm.slice(4)) - 1;
	const from = Date.UTC(y, m, 1) / 1000;
	const to = Date.UTC(y, m + 1, 1) / 1000;
	const complete = to <= nowS;
	const key = `${cid}|${yyyymm}`;
	if (complete && monthMemo.has(key)) return monthMemo.get(key);
	let total = 0;
	for (let ts = from; ts < to && ts <= nowS; ts += 3600) total += hourStats(cid, ts).tx;
	if (complete) monthMemo.set(key, total);
	return total;
}

function formatBytes(n) {
	const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
	let v = Number(n);
	let i = 0;
	while (v >= 1024 && i < units.length - 1) {
		v /= 1024;
		i++;
	}
	return `${v.toFixed(2)} ${units[i]}`;
}

const yyyymm = (ms) => displayDate(ms).slice(0, 7).replace('-', '');
const dayStart = (ms) => Math.floor(ms / DAY) * DAY;

function readDay(p, name, { required = false } = {}) {
	if (!p.has(name)) {
		if (required) throw new ApiError(`${name} is required`);
		return undefined;
	}
	const s = p.str(name).trim();
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
	const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
	if (!m || displayDate(ms) !== s) throw new ApiError(`${name} must be a date in the form Y-m-d`);
	return ms;
}

// ---------------------------------------------------------------- channels

function cnameOf(name) {
	return `${name.replace(/^\*/, 'wildcard')}.cdn.vendor.example`;
}

function hostMatches(channelName, host) {
	const n = channelName.toLowerCase();
	const h = host.toLowerCase();
	if (n.startsWith('*.')) return h.endsWith(n.slice(1)) && h.length > n.length - 1;
	return n === h;
}

/** Channels of the caller: the owner's, narrowed by the sub-account's type-5 permissions. */
function channelsOf(rq) {
	return slice(rq.core).channels.filter((c) => c.uid === rq.owner.uid && rq.core.canAccess(rq.user, 5, c.id));
}

function channelById(rq, id, param = 'id') {
	const c = slice(rq.core).channels.find((x) => x.id === Number(id) && x.uid === rq.owner.uid);
	if (!c) throw new ApiError(`${param}: channel ${id} does not exist`);
	if (!rq.core.canAccess(rq.user, 5, c.id)) throw new ApiError(`${param}: permission denied for channel ${id}`);
	return c;
}

/** An array of channel ids (domain_ids, ids); absent means all of the caller's channels. */
function channelsParam(rq, name, { required = false } = {}) {
	const ids = rq.p.array(name, { required, of: 'int' });
	if (ids === undefined) return channelsOf(rq);
	if (required && !ids.length) throw new ApiError(`${name} must hold at least one channel id`);
	return [...new Set(ids)].map((id) => channelById(rq, id, name));
}

function currentStats(c, nowMs) {
	const b = Math.floor(nowMs / 300000) * 300;
	if (c.status !== 1) return { reqs: 0, rx: 0, tx: 0, tpr: 0, updatetime: b };
	const d = digest(c.id, 'cur', b);
	const reqs = 50 + (d.readUInt32BE(0) % 950);
	const tx = reqs * (20480 + (d.readUInt32BE(4) % 512000));
	const rx = Math.floor((tx * (200 + (d.readUInt32BE(8) % 1800))) / 10000);
	const tpr = 20 + (d.readUInt32BE(12) % 180);
	return { reqs, rx, tx, tpr, updatetime: b };
}

module.exports = {
	CDN_TYPES,
	TYPE_ZH,
	SERVICE_TYPES,
	BILL_SRV_TYPES,
	SRV_ZH,
	BILLTYPE_ZH,
	STATUS_ZH,
	ORIGIN_STY,
	CACHE_TYPES,
	ORIGIN_TYPES,
	VIEW_TYPES,
	STAT_TYPES,
	ON_OFF,
	ISPS,
	LOCATIONS,
	CORE_NODES,
	EDGE_NODES,
	GIB,
	FREE_FLOW,
	CHANNEL_FEE,
	DAY,
	DOMAIN_RE,
	HOST_RE,
	slice,
	digest,
	h32,
	hourStats,
	monthTx,
	formatBytes,
	yyyymm,
	dayStart,
	readDay,
	cnameOf,
	hostMatches,
	channelsOf,
	channelById,
	channelsParam,
	currentStats,
};

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
 */
const crypto = require('node:crypto');
const net = require('node:net');
const { ApiError, pageOf, str, displayDate, displayTime, round2, money } = require('./util');
const { accountName, controlRoute } = require('./common');
const account = require('./account');

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

function renderChannel(core, c) {
	const cur = currentStats(c, core.now());
	const cert = c.sslconf_id ? slice(core).certs.find((x) => x.id === c.sslconf_id) : null;
	return {
		id: str(c.id),
		uid: str(c.uid),
		sub_uid: str(c.sub_uid),
		username: accountName(core, c.uid),
		name: c.name,
		monitorurl: c.monitorurl,
		mark: str(c.mark),
		type: c.type,
		type_zh: TYPE_ZH[c.type],
		origin_sty: c.origin_sty,
		tx: `${((cur.tx * 8) / 300 / 1e6).toFixed(2)} Mbps`,
		reqs: str(cur.reqs),
		tpr: `${cur.tpr} ms`,
		ip: { ...c.ip },
		originback: { ...c.originback },
		icp: c.icp,
		cname: c.cname,
		powerheader: c.powerheader,
		inputType: c.inputType,
		isflv: str(c.isflv),
		ishls: str(c.ishls),
		cacheconf: c.cacheconf.map((x) => ({ ...x })),
		cachetype: c.cachetype,
		siteinfo: c.siteinfo,
		sslconf_id: str(c.sslconf_id),
		sslconf_name: cert ? cert.name : '',
		ssl_redirect: str(c.ssl_redirect),
		vcorigin: str(c.vcorigin),
		status: str(c.status),
		status_zh: STATUS_ZH[c.status],
		note: c.note,
		...core.stamp(c.createdAt, 'createtime'),
		endtime: '',
	};
}

function renderSaved(c, withMark) {
	const out = {
		id: str(c.id),
		name: c.name,
		icp: c.icp,
		type: c.type,
		ip: { ...c.ip },
		monitorurl: c.monitorurl,
		siteinfo: c.siteinfo,
		cacheconf: c.cacheconf.map((x) => ({ ...x })),
		cachetype: c.cachetype,
		sslconf_id: str(c.sslconf_id),
		ssl_redirect: str(c.ssl_redirect),
		originback: { ...c.originback },
		note: c.note,
	};
	if (withMark) out.mark = str(c.mark);
	return out;
}

function checkPort(name, host, v, weighted) {
	const s = String(v).trim();
	const m = weighted ? /^(\d+),(\d+)$/.exec(s) : /^(\d+)$/.exec(s);
	if (!m || typeof v === 'boolean' || (typeof v !== 'string' && typeof v !== 'number')) {
		throw new ApiError(
			weighted
				? `${name}: the value of ${host} must be "port,weight" when origin_sty is wgt`
				: `${name}: the value of ${host} must be a port`,
		);
	}
	const port = Number(m[1]);
	if (port < 1 || port > 65535) throw new ApiError(`${name}: port ${port} of ${host} is out of range 1-65535`);
	if (weighted) {
		const w = Number(m[2]);
		if (w < 1 || w > 100) throw new ApiError(`${name}: weight ${w} of ${host} must be 1-100`);
		return `${port},${w}`;
	}
	return String(port);
}

function checkOrigin(name, obj, origintype, weighted) {
	const out = {};
	for (const [host, v] of Object.entries(obj)) {
		const okHost = origintype === 'ip' ? net.isIP(host) !== 0 : HOST_RE.test(host) || net.isIP(host) !== 0;
		if (!okHost) {
			throw new ApiError(`${name}: ${host} is not ${origintype === 'ip' ? 'an IP address' : 'a domain name'} (origintype ${origintype})`);
		}
		out[host] = checkPort(name, host, v, weighted);
	}
	return out;
}

function readCacheconf(p) {
	const list = p.array('cacheconf');
	if (list === undefined) return undefined;
	return list.map((it, i) => {
		const n = `cacheconf[${i}]`;
		if (!it || typeof it !== 'object' || Array.isArray(it)) throw new ApiError(`${n} must be an object`);
		if (!['cache', 'noCache', 'cacheHome'].includes(it.type)) throw new ApiError(`${n}.type must be one of cache, noCache, cacheHome`);
		const pattern = it.pattern === undefined || it.pattern === null ? '' : it.pattern;
		if (typeof pattern !== 'string') throw new ApiError(`${n}.pattern must be a string of comma-separated suffixes`);
		const suffixes = pattern
			.split(',')
			.map((x) => x.trim())
			.filter(Boolean);
		for (const s of suffixes) if (!/^\.?[A-Za-z0-9_-]+$/.test(s)) throw new ApiError(`${n}.pattern: ${s} is not a file suffix`);
		const path = it.path === undefined || it.path === null ? '' : it.path;
		if (typeof path !== 'string' || (path && !path.startsWith('/'))) throw new ApiError(`${n}.path must be a path starting with /`);
		if (it.type !== 'cacheHome' && !suffixes.length && !path) throw new ApiError(`${n} needs a pattern or a path`);
		let ttl = it.ttl;
		if (ttl === undefined || ttl === null || ttl === '') {
			if (it.type === 'cache') throw new ApiError(`${n}.ttl is required`);
			ttl = 0;
		}
		if (typeof ttl === 'boolean' || !/^\d+$/.test(String(ttl))) throw new ApiError(`${n}.ttl must be a whole number`);
		const unit = it.unit === undefined || it.unit === '' ? 'd' : it.unit;
		if (!['m', 'h', 'd'].includes(unit)) throw new ApiError(`${n}.unit must be one of m, h, d`);
		const co = it.check_origin === undefined || it.check_origin === '' ? 0 : it.check_origin;
		if (!['0', '1'].includes(String(co))) throw new ApiError(`${n}.check_origin must be 0 or 1`);
		return { pattern: suffixes.join(','), ttl: String(Number(ttl)), unit, type: it.type, path, check_origin: String(co) };
	});
}

const TIME_RANGE_RE = /^(?:[01]\d|2[0-3]):[0-5]\d-(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Applies the channel (and, on update, speed-limit) settings of the request to `c`. */
function applySettings(rq, c, { adding }) {
	const { p, core, owner } = rq;
	const onOff = (n) => (p.has(n) ? p.oneOf(n, ON_OFF) : undefined);
	const s = c.settings;
	if (p.has('origintype')) c.origintype = p.oneOf('origintype', ORIGIN_TYPES);
	if (p.has('origin_sty')) c.origin_sty = p.oneOf('origin_sty', ORIGIN_STY);
	if (p.has('cachetype')) c.cachetype = p.oneOf('cachetype', CACHE_TYPES);
	const ip = p.object('ip');
	if (ip !== undefined) {
		if (!Object.keys(ip).length) throw new ApiError('ip must hold at least one origin {"<ip>": <port>}');
		c.ip = ip;
	}
	const back = p.array('originback');
	if (back !== undefined) {
		const merged = {};
		back.forEach((item, i) => {
			if (!item || typeof item !== 'object' || Array.isArray(item))
				throw new ApiError(`originback[${i}] must be an object {"<host>": <port>}`);
			Object.assign(merged, checkOrigin(`originback[${i}]`, item, 'domain', false));
		});
		c.originback = merged;
	}
	c.ip = checkOrigin('ip', c.ip, c.origintype, c.origin_sty === 'wgt');
	const cacheconf = readCacheconf(p);
	if (cacheconf !== undefined) c.cacheconf = cacheconf;
	if (c.cachetype === 'custom' && !c.cacheconf.length) throw new ApiError('cacheconf must hold at least one rule when cachetype is custom');
	for (const f of ['icp', 'siteinfo', 'note']) if (p.raw(f) !== undefined) c[f] = p.str(f, { max: 255, def: '' });
	if (p.raw('monitorurl') !== undefined) {
		const u = p.str('monitorurl', { max: 512, def: '' });
		if (u && !/^https?:\/\/\S+$/.test(u)) throw new ApiError('monitorurl must be an http(s) address');
		c.monitorurl = u;
	}
	if (p.raw('add_server_header') !== undefined) {
		const h = p.str('add_server_header', { max: 255, def: '' });
		if (h && !HOST_RE.test(h)) throw new ApiError('add_server_header must be a domain name');
		s.add_server_header = h;
	}
	if (p.has('ssl_redirect')) c.ssl_redirect = p.oneOf('ssl_redirect', [0, 1]);
	if (p.has('sslconf_id')) {
		const id = p.int('sslconf_id', { min: 0 });
		if (id && !slice(core).certs.some((x) => x.id === id && x.uid === owner.uid))
			throw new ApiError(`sslconf_id: certificate ${id} does not exist`);
		c.sslconf_id = id;
	}
	if (c.ssl_redirect === 1 && !c.sslconf_id) throw new ApiError('ssl_redirect 1 needs a certificate (sslconf_id)');
	if (p.has('origin_protocol')) s.origin_protocol = p.oneOf('origin_protocol', [0, 1]);
	for (const f of ['cache_ignore_query', 'accesskey', 'referer_enable', 'allow_null_referer', 'ua_enable', 'allow_null_ua']) {
		const v = onOff(f);
		if (v !== undefined) s[f] = v;
	}
	if (p.has('accesskey_hashmethod')) s.accesskey_hashmethod = p.oneOf('accesskey_hashmethod', ['md5', 'sha1', 'sha256']);
	for (const f of [
		'accesskey_signature',
		'accesskey_exclude',
		'referer_white',
		'referer_black',
		'access_referer_suffix',
		'access_ua_suffix',
		'access_deny_url',
		'ua_white',
		'ua_black',
	]) {
		if (p.raw(f) !== undefined) s[f] = p.str(f, { max: 4000, def: '' });
	}
	if (s.accesskey === 'on' && !s.accesskey_signature) throw new ApiError('accesskey_signature is required when accesskey is on');
	if (p.raw('deny_ip') !== undefined) {
		const lines = p
			.str('deny_ip', { max: 20000, def: '' })
			.split(/\r?\n/)
			.map((x) => x.trim())
			.filter(Boolean);
		for (const l of lines) {
			const [addr, bits, extra] = l.split('/');
			const v = net.isIP(addr);
			const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (v === 6 ? 128 : 32));
			if (!v || !okBits || extra !== undefined) throw new ApiError(`deny_ip: ${l} is not an IP address or CIDR range`);
		}
		s.deny_ip = lines.join('\n');
	}
	if (p.raw('rtmp_host') !== undefined) {
		const h = p.str('rtmp_host', { max: 255, def: '' });
		if (h && !HOST_RE.test(h.replace(/:\d+$/, '')) && !net.isIP(h)) throw new ApiError('rtmp_host must be a host name');
		c.rtmp_host = h;
	}
	if (p.has('inputType')) c.inputType = p.oneOf('inputType', ['rtmp_push', 'rtmp', 'hls']);
	if (p.has('flv_enabled')) c.isflv = p.oneOf('flv_enabled', [0, 1]);
	if (p.has('hls_enabled')) c.ishls = p.oneOf('hls_enabled', [0, 1]);

	const limitFields = ['limit_url_enable', 'limit_rate', 'limit_rate_size', 'limit_rate_time', 'limit_rate_after', 'limit_rate_filter'];
	if (adding) {
		for (const f of limitFields) if (p.has(f)) throw new ApiError(`${f} can only be set by cdn/domainUpdate`);
	} else {
		const l = c.limits;
		if (p.has('limit_url_enable')) l.limit_url_enable = p.oneOf('limit_url_enable', ON_OFF);
		for (const f of ['limit_rate', 'limit_rate_size', 'limit_rate_after']) if (p.has(f)) l[f] = p.int(f, { min: 0 });
		if (p.raw('limit_rate_time') !== undefined) {
			const ranges = p
				.str('limit_rate_time', { max: 1000, def: '' })
				.split(',')
				.map((x) => x.trim())
				.filter(Boolean);
			for (const r of ranges) {
				if (!TIME_RANGE_RE.test(r)) throw new ApiError(`limit_rate_time: ${r} is not a time range hh:mm-hh:mm`);
				const [a, b] = r.split('-');
				if (a === b) throw new ApiError(`limit_rate_time: ${r} is an empty time range`);
			}
			l.limit_rate_time = ranges.join(',');
		}
		if (p.raw('limit_rate_filter') !== undefined) {
			const dirs = p
				.str('limit_rate_filter', { max: 2000, def: '' })
				.split(',')
				.map((x) => x.trim())
				.filter(Boolean);
			for (const d of dirs) if (!/^\/\S*$/.test(d)) throw new ApiError(`limit_rate_filter: ${d} is not a directory starting with /`);
			l.limit_rate_filter = dirs.join(',');
		}
		if (l.limit_url_enable === 'on' && !(Number(l.limit_rate) > 0))
			throw new ApiError('limit_rate (KB/s, above 0) is required when limit_url_enable is on');
	}
}

function newChannel(core, { uid, sub_uid = 0, name, type }) {
	return {
		id: 0,
		uid,
		sub_uid,
		name,
		type,
		status: 1,
		mark: 0,
		origintype: 'ip',
		origin_sty: 'null',
		ip: {},
		originback: {},
		icp: '',
		cname: cnameOf(name),
		powerheader: '',
		inputType: type === 'live' ? 'rtmp_push' : '',
		rtmp_host: '',
		isflv: 0,
		ishls: 0,
		cacheconf: [],
		cachetype: 'followOrigin',
		siteinfo: '',
		sslconf_id: 0,
		ssl_redirect: 0,
		vcorigin: 0,
		monitorurl: '',
		note: '',
		settings: {
			add_server_header: '',
			origin_protocol: 0,
			cache_ignore_query: 'off',
			deny_ip: '',
			accesskey: 'off',
			accesskey_hashmethod: 'md5',
			referer_enable: 'off',
			allow_null_referer: 'on',
			ua_enable: 'off',
			allow_null_ua: 'on',
		},
		limits: { limit_url_enable: 'off' },
		createdAt: core.now(),
	};
}

function changeStatus(rq, to) {
	const channels = channelsParam(rq, 'domain_ids', { required: true });
	const s = slice(rq.core);
	for (const c of channels) {
		if (to === 'deleted') s.channels = s.channels.filter((x) => x !== c);
		else c.status = to;
	}
	return { data: channels.map((c) => ({ id: str(c.id), name: c.name })) };
}

// ---------------------------------------------------------------- statistics ranges

/** The [from, to] day range (ms, UTC midnights) of viewtype/begintime/endtime. */
function dayRange(rq, { maxDays = 31 } = {}) {
	const { p, core } = rq;
	const today = dayStart(core.now());
	const begin = readDay(p, 'begintime');
	const end = readDay(p, 'endtime');
	let viewtype = p.has('viewtype') ? p.oneOf('viewtype', VIEW_TYPES) : begin !== undefined || end !== undefined ? 'custom' : 'today';
	const d = new Date(today);
	switch (viewtype) {
		case 'today':
			return [today, today];
		case 'yesterday':
			return [today - DAY, today - DAY];
		case 'week':
			return [today - 6 * DAY, today];
		case 'month':
			return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), today];
		case 'last_month':
			return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0)];
		default: {
			if (begin === undefined) throw new ApiError('begintime is required when viewtype is custom');
			if (end === undefined) throw new ApiError('endtime is required when viewtype is custom');
			if (begin > end) throw new ApiError('begintime must not be later than endtime');
			if ((end - begin) / DAY + 1 > maxDays) throw new ApiError(`begintime and endtime may span at most ${maxDays} days`);
			return [begin, end];
		}
	}
}

function serviceTypeOf(c) {
	return c.type === 'live' ? 'rtmp' : c.type;
}

function serviceFilter(rq, channels) {
	const types = rq.p.array('serviceTypes', { of: 'string' });
	if (types === undefined) return channels;
	for (const t of types) if (!SERVICE_TYPES.includes(t)) throw new ApiError(`serviceTypes: ${t} is not one of ${SERVICE_TYPES.join(', ')}`);
	return channels.filter((c) => types.includes(serviceTypeOf(c)));
}

/** Hourly records summed over `channels` for the hours of [fromMs, toMs) not in the future. */
function hourly(channels, fromMs, toMs, nowMs) {
	const out = [];
	const nowS = Math.floor(nowMs / 1000);
	for (let ts = fromMs / 1000; ts < toMs / 1000 && ts <= nowS; ts += 3600) {
		const rec = { logtime: ts, hit: 0, reqs: 0, rx: 0, tx: 0, tprSum: 0 };
		for (const c of channels) {
			const h = hourStats(c.id, ts);
			rec.hit += h.hit;
			rec.reqs += h.reqs;
			rec.rx += h.rx;
			rec.tx += h.tx;
			rec.tprSum += h.tpr * h.reqs;
		}
		out.push(rec);
	}
	return out;
}

function shares(cid, kind, labels, min, spread) {
	// Fixed shares per channel: each label but the first gets min + hash % spread (per mille),
	// the first takes the rest.
	const out = {};
	let rest = 1000;
	for (const l of labels.slice(1)) {
		const v = min + (h32(cid, kind, l) % spread);
		out[l] = v;
		rest -= v;
	}
	out[labels[0]] = rest;
	return out;
}

function splitBy(channels, totals, kind, labels, min, spread) {
	const out = {};
	for (const l of labels) out[l] = { reqs: 0, tx: 0 };
	for (const c of channels) {
		const t = totals.get(c.id);
		const sh = shares(c.id, kind, labels, min, spread);
		let reqsLeft = t.reqs;
		let txLeft = t.tx;
		for (const l of labels.slice(1)) {
			const r = Math.floor((t.reqs * sh[l]) / 1000);
			const x = Math.floor((t.tx * sh[l]) / 1000);
			out[l].reqs += r;
			out[l].tx += x;
			reqsLeft -= r;
			txLeft -= x;
		}
		out[labels[0]].reqs += reqsLeft;
		out[labels[0]].tx += txLeft;
	}
	const rendered = {};
	for (const l of labels) rendered[l] = { reqs: str(out[l].reqs), tx: str(out[l].tx) };
	return rendered;
}

// ---------------------------------------------------------------- certificates

const CERT_RE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const KEY_RE = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/**
 * commonname and subjectAltName of a certificate: a real X.509 certificate is read with
 * node:crypto; otherwise `CN=<name>` and `DNS:<name>` markers in the text count; otherwise
 * the certificate's name.
 */
function certNames(crt, fallback) {
	try {
		const x = new crypto.X509Certificate(crt);
		const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject);
		const sans = (x.subjectAltName || '')
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s.startsWith('DNS:'))
			.map((s) => s.slice(4));
		const commonname = cn ? cn[1].trim() : sans[0] || fallback;
		return { commonname, subjectAltName: sans.length ? sans : [commonname] };
	} catch {
		const cn = /CN\s*=\s*([A-Za-z0-9*._-]+)/.exec(crt);
		const sans = [...crt.matchAll(/DNS:\s*([A-Za-z0-9*._-]+)/g)].map((m) => m[1]);
		const commonname = cn ? cn[1] : sans[0] || fallback;
		return { commonname, subjectAltName: sans.length ? [...new Set(sans)] : [commonname] };
	}
}

function readPem(p, name, re, what, required) {
	const v = p.str(name, { required, max: 100000 });
	if (v === undefined) return undefined;
	if (!re.test(v))
		throw new ApiError(
			`${name} must hold ${what} in PEM form (-----BEGIN ${what === 'a private key' ? 'PRIVATE KEY' : 'CERTIFICATE'}-----)`,
		);
	return v;
}

function renderCert(core, x) {
	return {
		id: str(x.id),
		uid: str(x.uid),
		username: accountName(core, x.uid),
		name: x.name,
		commonname: x.commonname,
		subjectAltName: [...x.subjectAltName],
		...core.stamp(x.createdAt, 'createtime'),
	};
}

function certById(rq, id) {
	const x = slice(rq.core).certs.find((c) => c.id === Number(id) && c.uid === rq.owner.uid);
	if (!x) throw new ApiError(`id: certificate ${id} does not exist`);
	return x;
}

// ---------------------------------------------------------------- refresh and prefetch

function taskState(core, t) {
	if (core.now() < t.readyAt) return 'processing';
	return t.failed ? 'failed' : 'success';
}

function renderTask(core, t) {
	// dialect failedTasksListedRunning (docs/vendor/readings.md#r59): the documents give a task's
	// listed status only as 0 refreshing, 1 completed; this service never lists a failed task as
	// completed, it stays 0 while the status query says `failed`
	const listedRunning = core.now() < t.readyAt || (t.failed && core.emu.dialects && core.emu.dialects.has('failedTasksListedRunning'));
	return {
		id: str(t.id),
		type: t.type,
		status: listedRunning ? '0' : '1',
		urls: [...t.urls],
		preload: t.kind === 'preload' ? '1' : '0',
		preloadtype: str(t.preloadtype),
		is_api: '1',
		created: displayTime(t.createdAt),
		objectnum: str(t.urls.length),
	};
}

function readUrls(p, type) {
	const raw = p.str('urls', { required: true, max: 100000 });
	let sep = ',';
	if (p.has('partition')) {
		sep = p.str('partition');
		if (sep.length > 1) throw new ApiError('partition must be at most one character');
	}
	const urls = raw
		.split(sep)
		.map((u) => u.trim())
		.filter(Boolean);
	if (!urls.length) throw new ApiError('urls must hold at least one URL');
	if (urls.length > 100) throw new ApiError('urls may hold at most 100 URLs per task');
	for (const u of urls) {
		let parsed;
		try {
			parsed = new URL(u);
		} catch {
			throw new ApiError(`urls: ${u} is not a valid URL`);
		}
		if (!['http:', 'https:'].includes(parsed.protocol)) throw new ApiError(`urls: ${u} must be an http or https URL`);
		if (type === 'dir' && !parsed.pathname.endsWith('/')) throw new ApiError(`urls: ${u} must end with / when type is dir`);
	}
	return urls;
}

function submitTask(rq, { kind, type, urls, preloadtype = 0 }) {
	const { core, user, owner } = rq;
	const mine = channelsOf(rq);
	const failed = urls.some((u) => {
		const host = new URL(u).hostname;
		return !mine.some((c) => hostMatches(c.name, host));
	});
	const now = core.now();
	const t = {
		id: core.nextId('task'),
		uid: owner.uid,
		sub_uid: user.parent ? user.uid : 0,
		kind,
		type,
		urls,
		preloadtype,
		createdAt: now,
		readyAt: now + core.timing('taskDelayMs', 3000),
		failed,
	};
	slice(core).tasks.push(t);
	return t;
}

function taskById(rq, id, kind, param = 'id') {
	const t = slice(rq.core).tasks.find((x) => x.id === Number(id) && x.uid === rq.owner.uid && (!kind || x.kind === kind));
	if (!t) throw new ApiError(`${param}: ${kind || ''}${kind ? ' ' : ''}task ${id} does not exist`);
	return t;
}

function rerun(rq, kind) {
	const t = taskById(rq, rq.p.int('id', { required: true }), kind);
	return { data: renderTask(rq.core, submitTask(rq, { kind, type: t.type, urls: [...t.urls], preloadtype: t.preloadtype })) };
}

function statusOf(rq, kind) {
	const ids = rq.p.idList('id', { required: true });
	const out = {};
	for (const id of ids) out[String(id)] = taskState(rq.core, taskById(rq, id, kind));
	return { data: [out] };
}

// ---------------------------------------------------------------- traffic

function flowAccount(core, uid) {
	const s = slice(core);
	const m = yyyymm(core.now());
	const f = (s.flow[uid] = s.flow[uid] || { month: m, freeUsed: 0, monthUsed: 0 });
	if (f.month !== m) Object.assign(f, { month: m, freeUsed: 0, monthUsed: 0 });
	return f;
}

function packagesOf(core, uid) {
	const m = yyyymm(core.now());
	return slice(core)
		.packages.filter((x) => x.uid === uid)
		.map((x) => {
			if (x.month !== m) Object.assign(x, { month: m, monthUsed: 0 });
			return x;
		});
}

function tierFor(core, gib) {
	const tiers = slice(core).tiers;
	return tiers.find((t) => gib >= t.lower && (t.upper === 0 || gib < t.upper)) || tiers[tiers.length - 1];
}

function flowBalance(core, owner) {
	const f = flowAccount(core, owner.uid);
	const pk = packagesOf(core, owner.uid);
	const buyTotal = pk.reduce((a, x) => a + x.flow, 0);
	const buyLeft = pk.reduce((a, x) => a + x.flowover, 0);
	return { f, buyTotal, buyLeft, freeLeft: Math.max(0, FREE_FLOW - f.freeUsed) };
}

/** Uses `bytes` of traffic of channel `c`: free quota, then packages, then the balance. */
function consumeTraffic(core, c, bytes) {
	const owner = core.account(c.uid);
	const f = flowAccount(core, owner.uid);
	let left = bytes;
	const fromFree = Math.min(left, Math.max(0, FREE_FLOW - f.freeUsed));
	left -= fromFree;
	let fromPackages = 0;
	for (const x of packagesOf(core, owner.uid).sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)) {
		if (left <= 0) break;
		const take = Math.min(left, x.flowover);
		x.flowover -= take;
		x.monthUsed += take;
		left -= take;
		fromPackages += take;
	}
	let charged = '0.00';
	if (left > 0) {
		const price = Math.ceil((left / GIB) * Number(slice(core).tiers[0].price) * 100) / 100;
		core.charge(owner, { price, paytype: 5, bid: c.id, name: `CDN traffic ${formatBytes(left)} of ${c.name}` });
		charged = money(price);
	}
	f.freeUsed += fromFree;
	f.monthUsed += bytes;
	return { free: fromFree, packages: fromPackages, overage: left, charged };
}

function renderPackage(core, x) {
	return {
		username: accountName(core, x.uid),
		id: str(x.id),
		uid: str(x.uid),
		sub_uid: str(x.sub_uid),
		bid: str(x.paymentId),
		name: x.name,
		code: x.code,
		type: '1',
		paytype: '6',
		type_zh: 'Purchase',
		paytype_zh: 'CDN traffic package',
		flowtype_zh: 'Purchased traffic',
		flow: str(x.flow),
		flowover: str(x.flowover),
		monthflow: str(x.month === yyyymm(core.now()) ? x.monthUsed : 0),
		status: x.flowover > 0 ? '1' : '0',
		...core.stamp(x.createdAt),
	};
}

// ---------------------------------------------------------------- routes

function acceleration(rq) {
	const cfg = rq.user.parent && Array.isArray(rq.user.cdnconfig) && rq.user.cdnconfig.length ? rq.user.cdnconfig : null;
	return cfg || CDN_TYPES.map((type) => ({ type, billtype: 'flow' }));
}

function nodesFor(name, type) {
	const pool = type === 'core' ? CORE_NODES : EDGE_NODES;
	const n = type === 'core' ? 4 : 8;
	return [...pool].sort((a, b) => h32(name, type, a) - h32(name, type, b) || a.localeCompare(b)).slice(0, n);
}

const ispOfNode = (ip) => ISPS[Number(ip.split('.').pop()) % ISPS.length];

function isReserved(ip) {
	if (net.isIPv6(ip)) return /^(::1$|fe80:|fc|fd)/i.test(ip);
	const [a, b] = ip.split('.').map(Number);
	return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || a === 0;
}

const routes = {
	'cdn/flowPriceList': {
		label: 'Traffic price tiers',
		read: true,
		handler(rq) {
			const { core } = rq;
			return {
				data: slice(core).tiers.map((t) => ({
					id: str(t.id),
					type: str(t.type),
					lower: str(t.lower),
					upper: str(t.upper),
					price: t.price,
					...core.stamp(t.createdAt),
					...core.stamp(t.updatedAt, 'updatetime'),
				})),
			};
		},
	},
	'cdn/payFlowAdd': {
		label: 'Buy traffic package',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner, user } = rq;
			const flow = p.int('flow', { required: true, min: GIB });
			const useCoupon = p.decimal('couponprice', { min: 0, def: 0 });
			const gib = flow / GIB;
			const tier = tierFor(core, gib);
			const cost = Math.ceil(gib * Number(tier.price) * 100) / 100;
			if (useCoupon > cost) throw new ApiError(`couponprice ${money(useCoupon)} exceeds the package price ${money(cost)}`);
			if (useCoupon > Number(account.couponBalance(core, owner)) + 1e-9) {
				throw new ApiError(`couponprice ${money(useCoupon)} exceeds the coupon balance ${account.couponBalance(core, owner)}`);
			}
			const id = core.nextId('flowpkg');
			const name = `Traffic package ${formatBytes(flow)}`;
			const cash = round2(cost - useCoupon);
			let pay = null;
			if (cash > 0) pay = core.charge(owner, { price: cash, paytype: 6, bid: id, name });
			if (useCoupon > 0) {
				account.spendCoupons(core, owner, useCoupon);
				const rec = core.charge(owner, { price: useCoupon, paytype: 6, bid: id, name, type: 4 });
				pay = pay || rec;
			}
			const x = {
				id,
				uid: owner.uid,
				sub_uid: user.parent ? user.uid : 0,
				name,
				flow,
				flowover: flow,
				month: yyyymm(core.now()),
				monthUsed: 0,
				paymentId: pay.id,
				code: pay.code,
				createdAt: core.now(),
			};
			slice(core).packages.push(x);
			const b = flowBalance(core, owner);
			return { data: { username: owner.name, freeflowtotal: str(FREE_FLOW), freeflow: str(b.freeLeft), flow: str(b.buyLeft) } };
		},
	},
	'cdn/payFlowList': {
		label: 'List traffic packages',
		read: true,
		handler(rq) {
			const items = packagesOf(rq.core, rq.owner.uid).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return { data: items.map((x) => renderPackage(rq.core, x)), total: str(items.length) };
		},
	},
	'cdn/payFlowBalance': {
		label: 'Traffic balance',
		read: true,
		handler(rq) {
			const b = flowBalance(rq.core, rq.owner);
			return {
				data: {
					free: { total: str(FREE_FLOW), used: str(Math.min(FREE_FLOW, b.f.freeUsed)) },
					buy: { total: str(b.buyTotal), used: str(b.buyTotal - b.buyLeft) },
					month: { total: str(b.f.monthUsed), month: b.f.month },
				},
			};
		},
	},
	'cdn/profileDetail': {
		label: 'Acceleration profiles',
		read: true,
		handler(rq) {
			return {
				data: acceleration(rq).map((a) => ({
					type: a.type,
					type_zh: TYPE_ZH[a.type],
					billtype: a.billtype,
					billtype_zh: BILLTYPE_ZH[a.billtype],
				})),
			};
		},
	},
	'cdn/domainList': {
		label: 'List channels',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const id = p.int('id');
			const type = p.has('type') ? p.oneOf('type', CDN_TYPES) : undefined;
			const mark = p.has('mark') ? p.oneOf('mark', [0, 1]) : undefined;
			const items = channelsOf(rq)
				.filter(
					(c) => (id === undefined || c.id === id) && (type === undefined || c.type === type) && (mark === undefined || c.mark === mark),
				)
				.sort((a, b) => b.id - a.id);
			return pageOf(items, p, { render: (c) => renderChannel(core, c) });
		},
	},
	'cdn/domainAdd': {
		label: 'Add channel',
		handler(rq) {
			const { p, core, owner, user } = rq;
			const name = p.str('name', { required: true, max: 253 }).trim().toLowerCase();
			if (!DOMAIN_RE.test(name)) throw new ApiError(`name: ${name} is not a domain name`);
			const type = p.oneOf('type', CDN_TYPES, { required: true });
			const allowed = acceleration(rq).map((a) => a.type);
			if (!allowed.includes(type)) throw new ApiError(`type: this sub-account may not use acceleration type ${type}`);
			if (slice(core).channels.some((c) => c.name === name)) throw new ApiError(`name: channel ${name} already exists`);
			const c = newChannel(core, { uid: owner.uid, sub_uid: user.parent ? user.uid : 0, name, type });
			if (type !== 'live' && !p.has('ip')) throw new ApiError('ip is required: the origin {"<ip>": <port>}');
			applySettings(rq, c, { adding: true });
			if (type === 'live' && c.inputType !== 'rtmp_push' && !Object.keys(c.ip).length && !c.rtmp_host) {
				throw new ApiError(`ip or rtmp_host is required when inputType is ${c.inputType}`);
			}
			c.id = core.nextId('channel', 1001);
			core.charge(owner, { price: CHANNEL_FEE, paytype: 5, bid: c.id, name: `CDN channel ${name}` });
			slice(core).channels.push(c);
			// A sub-account limited to some channels keeps access to the one it made.
			if (user.parent && user.perms && Array.isArray(user.perms[5]) && user.perms[5].length) user.perms[5].push(c.id);
			return { data: renderSaved(c, false) };
		},
	},
	'cdn/domainUpdate': {
		label: 'Update channel',
		handler(rq) {
			const { p } = rq;
			const c = channelById(rq, p.int('id', { required: true }));
			if (p.has('name') && p.str('name').trim().toLowerCase() !== c.name) throw new ApiError('name: the channel name cannot be changed');
			if (p.has('type') && p.str('type') !== c.type) throw new ApiError('type: the acceleration type cannot be changed');
			const draft = JSON.parse(JSON.stringify(c));
			if (p.has('mark')) draft.mark = p.oneOf('mark', [0, 1]);
			applySettings(rq, draft, { adding: false });
			Object.assign(c, draft);
			return { data: renderSaved(c, true) };
		},
	},
	'cdn/domainStart': {
		label: 'Enable channels',
		handler: (rq) => changeStatus(rq, 1),
	},
	'cdn/domainClose': {
		label: 'Close channels',
		handler: (rq) => changeStatus(rq, 2),
	},
	'cdn/domainDelete': {
		label: 'Delete channels',
		handler: (rq) => changeStatus(rq, 'deleted'),
	},
	'cdn/domainLogList': {
		label: 'List channel log files',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const c = channelById(rq, p.int('id', { required: true }));
			let dir;
			if (p.has('dir')) {
				const d = p.str('dir').trim().replace(/\/+$/, '');
				const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(d);
				if (!m) throw new ApiError('dir must be a day directory, YYYYMMDD or Y-m-d');
				dir = `${m[1]}${m[2]}${m[3]}`;
			}
			const today = dayStart(core.now());
			let from = readDay(p, 'begintime');
			let to = readDay(p, 'endtime');
			if (from === undefined && to === undefined && dir) from = to = Date.UTC(+dir.slice(0, 4), +dir.slice(4, 6) - 1, +dir.slice(6));
			if (to === undefined) to = today;
			if (from === undefined) from = to - 6 * DAY;
			if (from > to) throw new ApiError('begintime must not be later than endtime');
			if ((to - from) / DAY + 1 > 93) throw new ApiError('begintime and endtime may span at most 93 days');
			const files = [];
			for (let d = Math.min(to, today); d >= from; d -= DAY) {
				const day = displayDate(d).replace(/-/g, '');
				if (dir && day !== dir) continue;
				const name = `${day}_${c.name.replace(/^\*/, 'wildcard')}.log.gz`;
				files.push({
					name,
					size: str(1048576 + (h32(c.id, 'log', day) % 209715200)),
					url: `https://logs.cdn.vendor.example/${c.uid}/${c.id}/${day}/${name}`,
				});
			}
			return pageOf(files, p);
		},
	},
	'cdn/domainBandwidth': {
		label: 'Channel bandwidth',
		read: true,
		handler(rq) {
			const channels = serviceFilter(rq, channelsParam(rq, 'domain_ids'));
			const [from, to] = dayRange(rq);
			const recs = hourly(channels, from, to + DAY, rq.core.now());
			return {
				data: {
					bandwidth: recs.map((r) => ({
						logtime: str(r.logtime),
						hit: str(r.hit),
						reqs: str(r.reqs),
						rx: str(r.rx),
						tx: str(r.tx),
						tpr: str(r.reqs ? Math.round(r.tprSum / r.reqs) : 0),
					})),
				},
			};
		},
	},
	'cdn/domainLogstat': {
		label: 'Channel statistics',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const channels = serviceFilter(rq, channelsParam(rq, 'domain_ids'));
			const types = p.array('types', { of: 'string' }) || ['cache', 'code'];
			for (const t of types) if (!STAT_TYPES.includes(t)) throw new ApiError(`types: ${t} is not one of ${STAT_TYPES.join(', ')}`);
			const [from, to] = dayRange(rq);
			const nowS = Math.floor(core.now() / 1000);
			const totals = new Map();
			let last = 0;
			for (const c of channels) {
				const t = { reqs: 0, hit: 0, tx: 0, rx: 0 };
				for (let ts = from / 1000; ts < (to + DAY) / 1000 && ts <= nowS; ts += 3600) {
					const h = hourStats(c.id, ts);
					t.reqs += h.reqs;
					t.hit += h.hit;
					t.tx += h.tx;
					t.rx += h.rx;
					last = Math.max(last, ts);
				}
				totals.set(c.id, t);
			}
			const sum = { reqs: 0, hit: 0, tx: 0, rx: 0 };
			for (const t of totals.values()) for (const k of Object.keys(sum)) sum[k] += t[k];
			const data = { summary: { timestamp: str(last) } };
			if (types.includes('cache')) {
				const hitPct = sum.reqs ? (sum.hit * 100) / sum.reqs : 0;
				data.cacheGraph = [
					['hit', hitPct.toFixed(2)],
					['miss', (sum.reqs ? 100 - hitPct : 0).toFixed(2)],
				];
				data.cache = {
					hit: { reqs: str(sum.hit), tx: str(sum.tx - sum.rx) },
					miss: { reqs: str(sum.reqs - sum.hit), tx: str(sum.rx) },
				};
			}
			if (types.includes('code')) data.code = splitBy(channels, totals, 'code', ['200', '206', '304', '404', '500'], 5, 40);
			if (types.includes('country'))
				data.country = splitBy(channels, totals, 'country', ['China', 'United States', 'Japan', 'Other'], 10, 60);
			if (types.includes('province')) {
				data.province = splitBy(channels, totals, 'province', ['Guangdong', 'Beijing', 'Zhejiang', 'Shanghai', 'Other'], 50, 100);
			}
			if (types.includes('isp')) data.isp = splitBy(channels, totals, 'isp', ['Telecom', 'Unicom', 'Mobile', 'Other'], 100, 150);
			return { data };
		},
	},
	'cdn/getLivePushOrigin': {
		label: 'Live push origins',
		read: true,
		handler(rq) {
			const { p } = rq;
			const domain = p.str('domain', { max: 253 });
			const type = p.has('type') ? p.oneOf('type', CDN_TYPES) : 'live';
			const items = channelsOf(rq)
				.filter((c) => c.type === type && (!domain || c.name.includes(domain.trim().toLowerCase())))
				.sort((a, b) => a.id - b.id);
			return { data: items.map((c) => ({ id: str(c.id), name: c.name })) };
		},
	},
	'cdn/domainCurrentData': {
		label: 'Channel current data',
		read: true,
		handler(rq) {
			const channels = channelsParam(rq, 'ids', { required: true });
			const now = rq.core.now();
			return {
				data: channels.map((c) => {
					const s = currentStats(c, now);
					return { did: str(c.id), reqs: str(s.reqs), rx: str(s.rx), tx: str(s.tx), tpr: str(s.tpr), updatetime: str(s.updatetime) };
				}),
			};
		},
	},
	'cdn/nodes': {
		label: 'Service nodes',
		read: true,
		handler(rq) {
			const { p } = rq;
			const type = p.has('type') ? p.oneOf('type', ['core', 'edge']) : 'edge';
			if (!p.has('name')) return { data: type === 'core' ? [...CORE_NODES] : [...EDGE_NODES] };
			const name = p.str('name', { max: 253 }).trim().toLowerCase();
			const c = channelsOf(rq).find((x) => x.name === name);
			if (!c) throw new ApiError(`name: channel ${name} does not exist`);
			return { data: nodesFor(c.name, type) };
		},
	},
	'cdn/getNodesByClientIP': {
		label: 'Nodes serving a client',
		read: true,
		handler(rq) {
			const { p } = rq;
			const ip = p.str('client_ip', { required: true, max: 64 }).trim();
			if (!net.isIP(ip)) throw new ApiError(`client_ip: ${ip} is not an IP address`);
			const name = p.str('name', { required: true, max: 253 }).trim().toLowerCase();
			const c = channelsOf(rq).find((x) => x.name === name);
			if (!c) throw new ApiError(`name: channel ${name} does not exist`);
			const absolute = p.has('absolute') ? p.oneOf('absolute', [0, 1]) : 0;
			const isp = ISPS[h32('isp', ip) % ISPS.length];
			const edge = nodesFor(c.name, 'edge');
			const ordered = [...edge.filter((n) => ispOfNode(n) === isp), ...edge.filter((n) => ispOfNode(n) !== isp)];
			const picked = ordered.slice(0, absolute === 1 ? 1 : 3);
			return {
				data: {
					client: { client_ip: ip, client_isp: isp },
					server: picked.map((n) => ({ server_ip: n, server_isp: ispOfNode(n) })),
				},
			};
		},
	},
	'cdn/queryVmIp': {
		label: 'Locate IP addresses',
		read: true,
		handler(rq) {
			const list = rq.p
				.str('ip', { required: true, max: 10000 })
				.split(',')
				.map((x) => x.trim())
				.filter(Boolean);
			if (!list.length) throw new ApiError('ip must hold at least one address');
			if (list.length > 100) throw new ApiError('ip may hold at most 100 addresses');
			const out = {};
			for (const ip of list) {
				if (!net.isIP(ip)) throw new ApiError(`ip: ${ip} is not an IP address`);
				if (isReserved(ip)) out[ip] = { country: 'Reserved', area: '', province: '', city: '', isp: 'LAN' };
				else out[ip] = { ...LOCATIONS[h32('loc', ip) % LOCATIONS.length], isp: ISPS[h32('isp', ip) % ISPS.length] };
			}
			return { data: out };
		},
	},
	'cdn/sslList': {
		label: 'List certificates',
		read: true,
		handler(rq) {
			const id = rq.p.int('id');
			const items = slice(rq.core)
				.certs.filter((x) => x.uid === rq.owner.uid && (id === undefined || x.id === id))
				.sort((a, b) => b.id - a.id);
			return pageOf(items, rq.p, { render: (x) => renderCert(rq.core, x) });
		},
	},
	'cdn/sslAdd': {
		label: 'Add certificate',
		handler(rq) {
			const { p, core, owner } = rq;
			const name = p.str('name', { required: true, max: 128 }).trim();
			if (slice(core).certs.some((x) => x.uid === owner.uid && x.name === name))
				throw new ApiError(`name: a certificate named ${name} already exists`);
			const ssl_crt = readPem(p, 'ssl_crt', CERT_RE, 'a certificate', true);
			const ssl_key = readPem(p, 'ssl_key', KEY_RE, 'a private key', true);
			const ssl_ca = readPem(p, 'ssl_ca', CERT_RE, 'a certificate', false) || '';
			const x = {
				id: core.nextId('cert'),
				uid: owner.uid,
				name,
				ssl_crt,
				ssl_key,
				ssl_ca,
				...certNames(ssl_crt, name),
				createdAt: core.now(),
			};
			slice(core).certs.push(x);
			return { data: { id: str(x.id), name: x.name, commonname: x.commonname, subjectAltName: [...x.subjectAltName] } };
		},
	},
	'cdn/sslUpdate': {
		label: 'Update certificate',
		handler(rq) {
			const { p, core, owner } = rq;
			const x = certById(rq, p.int('id', { required: true }));
			const name = p.has('name') ? p.str('name', { max: 128 }).trim() : x.name;
			if (slice(core).certs.some((o) => o !== x && o.uid === owner.uid && o.name === name))
				throw new ApiError(`name: a certificate named ${name} already exists`);
			const ssl_crt = readPem(p, 'ssl_crt', CERT_RE, 'a certificate', false);
			const ssl_key = readPem(p, 'ssl_key', KEY_RE, 'a private key', false);
			const ssl_ca = readPem(p, 'ssl_ca', CERT_RE, 'a certificate', false);
			x.name = name;
			if (ssl_crt) x.ssl_crt = ssl_crt;
			if (ssl_key) x.ssl_key = ssl_key;
			if (ssl_ca) x.ssl_ca = ssl_ca;
			Object.assign(x, certNames(x.ssl_crt, x.name));
			return { data: { id: str(x.id), name: x.name, commonname: x.commonname, subjectAltName: [...x.subjectAltName] } };
		},
	},
	'cdn/sslDelete': {
		label: 'Delete certificate',
		handler(rq) {
			const x = certById(rq, rq.p.int('id', { required: true }));
			const users = slice(rq.core).channels.filter((c) => c.sslconf_id === x.id);
			if (users.length) throw new ApiError(`id: certificate ${x.id} is used by channel ${users.map((c) => c.name).join(', ')}`);
			slice(rq.core).certs = slice(rq.core).certs.filter((o) => o !== x);
			return { data: { id: str(x.id), name: x.name } };
		},
	},
	'cdn/refreshList': {
		label: 'List refresh and prefetch tasks',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const channels = p.has('domain_ids') ? channelsParam(rq, 'domain_ids') : null;
			const preload = p.has('preload') ? p.oneOf('preload', [0, 1]) : undefined;
			const type = p.has('type') ? p.oneOf('type', ['file', 'dir']) : undefined;
			const items = slice(core)
				.tasks.filter(
					(t) =>
						t.uid === rq.owner.uid &&
						(preload === undefined || (t.kind === 'preload' ? 1 : 0) === preload) &&
						(type === undefined || t.type === type) &&
						(!channels || t.urls.some((u) => channels.some((c) => hostMatches(c.name, new URL(u).hostname)))),
				)
				.sort((a, b) => b.id - a.id);
			return pageOf(items, p, { render: (t) => renderTask(core, t) });
		},
	},
	'cdn/refresh': {
		label: 'Refresh cache',
		handler(rq) {
			const { p, core } = rq;
			if (p.has('id') && !p.has('urls')) return rerun(rq, 'refresh');
			const type = p.oneOf('type', ['file', 'dir'], { required: true });
			const urls = readUrls(p, type);
			return { data: renderTask(core, submitTask(rq, { kind: 'refresh', type, urls })) };
		},
	},
	'cdn/refreshById': {
		label: 'Refresh cache again',
		handler: (rq) => rerun(rq, 'refresh'),
	},
	'cdn/refreshStatus': {
		label: 'Refresh status',
		read: true,
		handler: (rq) => statusOf(rq, 'refresh'),
	},
	'cdn/preload': {
		label: 'Prefetch',
		handler(rq) {
			const { p, core } = rq;
			const preloadtype = p.has('preloadtype') ? p.oneOf('preloadtype', [0, 1]) : 1;
			const urls = readUrls(p, 'file');
			return { data: renderTask(core, submitTask(rq, { kind: 'preload', type: 'file', urls, preloadtype })) };
		},
	},
	'cdn/preloadById': {
		label: 'Prefetch again',
		handler: (rq) => rerun(rq, 'preload'),
	},
	'cdn/preloadStatus': {
		label: 'Prefetch status',
		read: true,
		handler: (rq) => statusOf(rq, 'preload'),
	},
	'cdn/refreshDelete': {
		label: 'Delete refresh and prefetch tasks',
		handler(rq) {
			const ids = rq.p.array('ids', { required: true, of: 'int' });
			if (!ids.length) throw new ApiError('ids must hold at least one task id');
			const tasks = [...new Set(ids)].map((id) => taskById(rq, id, null, 'ids'));
			const drop = new Set(tasks);
			slice(rq.core).tasks = slice(rq.core).tasks.filter((t) => !drop.has(t));
			return { data: tasks.map((t) => ({ id: str(t.id), urls: [...t.urls] })) };
		},
	},
	'cdn/getBillByUser': {
		label: 'Bills by account',
		read: true,
		handler(rq) {
			const { p, core, owner, user } = rq;
			const types = p.array('type', { of: 'string' }) || BILL_SRV_TYPES;
			for (const t of types) if (!BILL_SRV_TYPES.includes(t)) throw new ApiError(`type: ${t} is not one of ${BILL_SRV_TYPES.join(', ')}`);
			const now = core.now();
			const cur = new Date(now);
			const curIndex = cur.getUTCFullYear() * 12 + cur.getUTCMonth();
			const months = p.array('months') || [yyyymm(now)];
			for (const m of months) {
				const s = String(m);
				const ok = /^\d{6}$/.test(s) && Number(s.slice(4)) >= 1 && Number(s.slice(4)) <= 12;
				if (!ok || typeof m === 'boolean' || typeof m === 'object')
					throw new ApiError(`months: ${JSON.stringify(m)} is not a month in the form yyyymm`);
				const idx = Number(s.slice(0, 4)) * 12 + Number(s.slice(4)) - 1;
				if (idx > curIndex) throw new ApiError(`months: ${s} is in the future`);
				if (curIndex - idx > 12) throw new ApiError(`months: ${s} is more than 12 months back; bills reach back 12 months at most`);
			}
			let subUid = p.int('sub_uid', { min: 0 });
			let sub = null;
			if (user.parent) {
				if (subUid && subUid !== user.uid) throw new ApiError('sub_uid: a sub-account may only query its own bill');
				subUid = user.uid;
			}
			if (subUid) {
				sub = core.account(subUid);
				if (!sub || sub.parent !== owner.uid) throw new ApiError(`sub_uid: ${subUid} is not a sub-account of this account`);
			}
			const cfg = sub && Array.isArray(sub.cdnconfig) ? sub.cdnconfig : [];
			const billtypeOf = (srv) => {
				const hit = cfg.find((x) => (x.type === 'live' ? 'rtmp' : x.type) === srv);
				return hit ? hit.billtype : 'flow';
			};
			const channels = slice(core).channels.filter((c) => c.uid === owner.uid && (!subUid || c.sub_uid === subUid));
			const nowS = Math.floor(now / 1000);
			const out = [];
			for (const m of [...new Set(months.map(String))].sort()) {
				for (const srv of types) {
					const mine = channels.filter((c) => serviceTypeOf(c) === srv);
					if (!mine.length) continue;
					const total = mine.reduce((a, c) => a + monthTx(c.id, m, nowS), 0);
					const billtype = billtypeOf(srv);
					out.push({
						billtype,
						billtype_zh: BILLTYPE_ZH[billtype],
						srvtype: srv,
						srvtype_zh: SRV_ZH[srv],
						month: m,
						total_format: formatBytes(total),
						total: str(total),
					});
				}
			}
			return { data: out };
		},
	},
	'cdn/getBillByDomainID': {
		label: 'Bills by channel',
		read: true,
		handler(rq) {
			const { p, core } = rq;
			const channels = channelsParam(rq, 'domain_ids', { required: true });
			const begin = p.int('begintime', { required: true, min: 0 });
			const end = p.int('endtime', { required: true, min: 0 });
			if (begin > end) throw new ApiError('begintime must not be later than endtime');
			if (end - begin > 366 * 86400) throw new ApiError('begintime and endtime may span at most 366 days');
			const nowS = Math.floor(core.now() / 1000);
			let total = 0;
			for (let ts = Math.floor(begin / 3600) * 3600; ts <= end && ts <= nowS; ts += 3600) {
				for (const c of channels) total += hourStats(c.id, ts).tx;
			}
			return { data: [{ billtype: 'flow', total_format: formatBytes(total), total: str(total) }] };
		},
	},
};

// ---------------------------------------------------------------- control and demo data

/** Control routes (/__emulator/management/cdn/...) of one emulator's core. */
function control(core) {
	return {
		/** Make every refresh/prefetch task final now. */
		'POST /cdn/tasks/settle': controlRoute(() => {
			const now = core.now();
			let n = 0;
			for (const t of slice(core).tasks) {
				if (t.readyAt > now) {
					t.readyAt = now;
					n++;
				}
			}
			return { settled: n };
		}),
		/** Use traffic on a channel: { id | name, bytes } → how it was paid for. */
		'POST /cdn/traffic': controlRoute((b) => {
			const c = slice(core).channels.find((x) => (b.id !== undefined && x.id === Number(b.id)) || (b.name && x.name === b.name));
			if (!c) throw new ApiError(`no channel ${b.id || b.name}`);
			const bytes = Number(b.bytes);
			if (!(bytes > 0)) throw new ApiError('bytes must be above 0');
			return consumeTraffic(core, c, Math.floor(bytes));
		}),
	};
}

function seedCert(cn, extra = '') {
	const body = Buffer.from(`demo certificate ${cn}`).toString('base64');
	return `subject=CN=${cn}\n${extra}-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

module.exports = {
	group: 'cdn',
	name: 'Content delivery',
	init(core) {
		const now = core.now();
		const tiers = [
			[0, 10240, '0.20'],
			[10240, 51200, '0.18'],
			[51200, 102400, '0.15'],
			[102400, 0, '0.12'],
		].map(([lower, upper, price], i) => ({ id: i + 1, type: 1, lower, upper, price, createdAt: now, updatedAt: now }));
		core.state.cdn = { channels: [], certs: [], tasks: [], packages: [], flow: {}, tiers };
	},
	seedDemo(core) {
		const demo = core.accountByName('demo');
		if (!demo) return;
		const s = slice(core);
		const now = core.now();
		const cert = {
			id: core.nextId('cert'),
			uid: demo.uid,
			name: 'example-wildcard',
			ssl_crt: seedCert('*.example.com', 'X509v3 Subject Alternative Name: DNS:*.example.com, DNS:example.com\n'),
			ssl_key: '-----BEGIN PRIVATE KEY-----\nZGVtbyBrZXk=\n-----END PRIVATE KEY-----\n',
			ssl_ca: '',
			createdAt: now - 35 * DAY,
		};
		Object.assign(cert, certNames(cert.ssl_crt, cert.name));
		s.certs.push(cert);
		const ops = core.accountByName('demo_ops');
		const defs = [
			{ name: 'www.example.com', type: 'cloud', ip: { '192.0.2.10': '80' }, ssl: true, days: 40 },
			{ name: 'static.example.com', type: 'static', ip: { '192.0.2.11': '80' }, ssl: true, days: 30, mark: 1 },
			{ name: 'download.example.com', type: 'download', ip: { '192.0.2.12': '8080' }, days: 25, status: 2 },
			{ name: 'live.example.com', type: 'live', ip: {}, days: 10, sub: true },
		];
		for (const d of defs) {
			const c = newChannel(core, { uid: demo.uid, sub_uid: d.sub && ops ? ops.uid : 0, name: d.name, type: d.type });
			Object.assign(c, {
				id: core.nextId('channel', 1001),
				ip: d.ip,
				status: d.status || 1,
				mark: d.mark || 0,
				sslconf_id: d.ssl ? cert.id : 0,
				ssl_redirect: d.ssl ? 1 : 0,
				icp: 'EX-ICP-0001',
				createdAt: now - d.days * DAY,
			});
			if (d.type === 'static') {
				c.cachetype = 'custom';
				c.cacheconf = [{ pattern: 'jpg,png,css,js', ttl: '30', unit: 'd', type: 'cache', path: '', check_origin: '0' }];
			}
			s.channels.push(c);
		}
		// Finished tasks from last week.
		const finished = [
			{ kind: 'refresh', type: 'file', urls: ['https://www.example.com/index.html', 'https://www.example.com/app.js'] },
			{ kind: 'refresh', type: 'dir', urls: ['https://static.example.com/img/'] },
			{ kind: 'preload', type: 'file', urls: ['https://download.example.com/setup.exe'], preloadtype: 1 },
		];
		finished.forEach((t, i) => {
			const createdAt = now - (7 - i) * DAY;
			s.tasks.push({
				id: core.nextId('task'),
				uid: demo.uid,
				sub_uid: 0,
				preloadtype: 0,
				...t,
				createdAt,
				readyAt: createdAt + 3000,
				failed: false,
			});
		});
		// The 100 GB package paid 20 days ago (its payment is in the account history).
		const pay = core.state.payments.find((x) => x.uid === demo.uid && Number(x.paytype) === 6);
		s.packages.push({
			id: core.nextId('flowpkg'),
			uid: demo.uid,
			sub_uid: 0,
			name: 'Traffic package 100.00 GB',
			flow: 100 * GIB,
			flowover: 60 * GIB,
			month: yyyymm(now),
			monthUsed: 15 * GIB,
			paymentId: pay ? pay.id : 0,
			code: pay ? pay.code : 'P0',
			createdAt: now - 20 * DAY,
		});
		if (pay) pay.bid = s.packages[s.packages.length - 1].id;
		const f = flowAccount(core, demo.uid);
		f.freeUsed = 4 * GIB;
		f.monthUsed = 19 * GIB;
	},
	routes,
	hourStats,
	control,
};

'use strict';
/**
 * Content delivery: statistics and node look-ups. The day ranges, hourly records and fixed
 * shares the statistics are made of, and the routes: bandwidth, statistics, live push origins,
 * current data (statisticsRoutes); service nodes, nodes serving a client, IP locations
 * (nodeRoutes).
 */
const net = require('node:net');
const { ApiError, str } = require('../util');
const {
	CDN_TYPES,
	SERVICE_TYPES,
	VIEW_TYPES,
	STAT_TYPES,
	ISPS,
	LOCATIONS,
	CORE_NODES,
	EDGE_NODES,
	DAY,
	h32,
	hourStats,
	dayStart,
	readDay,
	channelsOf,
	channelsParam,
	currentStats,
} = require('./model');

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

const statisticsRoutes = {
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
};

const nodeRoutes = {
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
};

module.exports = { serviceTypeOf, statisticsRoutes, nodeRoutes };

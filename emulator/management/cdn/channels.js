'use strict';
/**
 * Content delivery: channels. How a channel is made, written in answers and switched on, off
 * or deleted, and its routes: acceleration profiles, list, add, update, enable, close, delete
 * and log files.
 */
const { ApiError, pageOf, str, displayDate } = require('../util');
const { accountName } = require('../common');
const {
	CDN_TYPES,
	TYPE_ZH,
	BILLTYPE_ZH,
	STATUS_ZH,
	CHANNEL_FEE,
	DAY,
	DOMAIN_RE,
	slice,
	h32,
	dayStart,
	readDay,
	cnameOf,
	channelsOf,
	channelById,
	channelsParam,
	currentStats,
} = require('./model');
const { applySettings } = require('./settings');

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

function acceleration(rq) {
	const cfg = rq.user.parent && Array.isArray(rq.user.cdnconfig) && rq.user.cdnconfig.length ? rq.user.cdnconfig : null;
	return cfg || CDN_TYPES.map((type) => ({ type, billtype: 'flow' }));
}

const channelRoutes = {
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
};

module.exports = { newChannel, channelRoutes };

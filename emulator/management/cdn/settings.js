'use strict';
/**
 * Content delivery: the settings of a channel as cdn/domainAdd and cdn/domainUpdate read them
 * (origins, cache rules, certificate, access control, live input, and on update the speed
 * limits), each checked and naming its parameter when refused.
 */
const net = require('node:net');
const { ApiError } = require('../util');
const { ORIGIN_STY, CACHE_TYPES, ORIGIN_TYPES, ON_OFF, HOST_RE, slice } = require('./model');

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

	applyLimits(p, c, adding);
}

/** Applies the speed-limit settings of the request to `c`; when `adding`, each of them is refused. */
function applyLimits(p, c, adding) {
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

module.exports = { applySettings };

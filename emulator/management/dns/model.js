'use strict';
/**
 * Group `dns` (see ../dns.js): the plan catalogue and record lines, the state slice and its route
 * builder, parameter checks and the look-ups of the caller's objects.
 */
const { ApiError } = require('../util');
const { routeBuilder, owned, ownedChild, ownedList, where } = require('../common');

const YEAR_MS = 365 * 86400e3;
const STY_LABELS = {
	auto: 'Zone only',
	isp_region: 'Carrier + region',
	isp_province: 'Carrier + province',
	isp_city: 'Carrier + city',
	null: 'Off',
};
const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'];
const LINES = {
	default: 'Default',
	telecom: 'Telecom',
	unicom: 'Unicom',
	mobile: 'Mobile',
	edu: 'Education network',
	overseas: 'Overseas',
	search: 'Search engines',
};
/** Dialect dnsLinesOwn (docs/vendor/readings.md#r69): the lines as the service's own values. */
const LINES_OWN = { default: '默认', telecom: '电信', unicom: '联通', mobile: '移动', edu: '教育网', overseas: '境外', search: '搜索引擎' };
const ownLines = (core) => Boolean(core.emu.dialects && core.emu.dialects.has('dnsLinesOwn'));
/** A record's line as the service writes it (its code kept in the state). */
const lineOut = (core, code) => (ownLines(core) ? LINES_OWN[code] || code : code);

const GROUPS = [
	{ id: 1, mid: 1, name: 'Standard resolution', status: 1, note: 'shared name servers', syncdb: 1 },
	{ id: 2, mid: 1, name: 'Business resolution', status: 1, note: 'dedicated name servers', syncdb: 1 },
	{ id: 3, mid: 1, name: 'Enterprise resolution', status: 1, note: 'dedicated name servers with anycast', syncdb: 1 },
];

const PLANS = [
	{
		id: 1,
		gid: 1,
		name: 'Free',
		price: 0,
		enable_strategy: 0,
		strategy: [],
		strategy_num: 0,
		strategy_template_num: 0,
		record_num: 20,
		monitor_num: 0,
		monitor_retry: [],
		monitor_interval: [],
		monitor_notice: [],
	},
	{
		id: 2,
		gid: 1,
		name: 'Personal',
		price: 29,
		enable_strategy: 1,
		strategy: ['auto', 'null'],
		strategy_num: 5,
		strategy_template_num: 2,
		record_num: 200,
		monitor_num: 5,
		monitor_retry: [3, 5, 10],
		monitor_interval: [5, 10, 30, 60],
		monitor_notice: ['mail'],
	},
	{
		id: 3,
		gid: 2,
		name: 'Business',
		price: 199,
		enable_strategy: 1,
		strategy: ['auto', 'isp_region', 'isp_province', 'null'],
		strategy_num: 50,
		strategy_template_num: 20,
		record_num: 1000,
		monitor_num: 50,
		monitor_retry: [1, 3, 5, 10],
		monitor_interval: [1, 5, 10, 30, 60],
		monitor_notice: ['mail', 'sms'],
	},
	{
		id: 4,
		gid: 3,
		name: 'Enterprise',
		price: 499,
		enable_strategy: 1,
		strategy: ['auto', 'isp_region', 'isp_province', 'isp_city', 'null'],
		strategy_num: 200,
		strategy_template_num: 100,
		record_num: 5000,
		monitor_num: 200,
		monitor_retry: [1, 2, 3, 5, 10],
		monitor_interval: [1, 5, 10, 30, 60],
		monitor_notice: ['mail', 'sms', 'wechat'],
	},
];

// ---------------------------------------------------------------- helpers

const S = (core) => core.state.dns;
const route = routeBuilder(S);

function phpSerialize(list) {
	const item = (v) => (typeof v === 'number' ? `i:${v};` : `s:${Buffer.byteLength(String(v), 'utf8')}:"${v}";`);
	return `a:${list.length}:{${list.map((v, i) => `i:${i};${item(v)}`).join('')}}`;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN_RE = new RegExp(`^(?:${LABEL}\\.)+[a-z]{2,63}$`);
const HOST_RE = new RegExp(`^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\\.)+[a-z0-9-]{1,63}\\.?$`);
const SUB_LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const SUB_RE = new RegExp(`^(?:\\*\\.)?${SUB_LABEL}(?:\\.${SUB_LABEL})*$`);
const EMAIL_RE = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/;

function isDomain(name) {
	return name.length <= 253 && DOMAIN_RE.test(name);
}
function isHostname(name) {
	return name.length <= 254 && HOST_RE.test(name.toLowerCase());
}
function normSub(sub) {
	const s = String(sub || '')
		.trim()
		.toLowerCase();
	return s === '' ? '@' : s;
}
function isSubdomain(sub) {
	return sub === '@' || sub === '*' || (sub.length <= 200 && SUB_RE.test(sub));
}
function subdomainParam(p, required) {
	const sub = normSub(p.str('subdomain', { required }));
	if (!isSubdomain(sub)) throw new ApiError('subdomain is not a valid host record');
	return sub;
}

function planById(s, id, param = 'pid') {
	const plan = s.plans.find((p) => p.id === id);
	if (!plan) throw new ApiError(`${param}: plan ${id} does not exist`);
	return plan;
}

// Look-ups of the caller's objects; a sub-account needs resource permission 6 for a domain and
// for what hangs off it. Strategy templates belong to the account and need none.

function domainById(rq, id, param = 'id') {
	return owned(rq, S(rq.core).domains, id, { param, what: 'domain', permType: 6 });
}

function recordOf(rq, s, d, id, param = 'record_id') {
	const r = s.records[id];
	if (!r || r.did !== d.id) throw new ApiError(`${param}: record ${id} does not exist in domain ${d.name}`);
	return r;
}

function templateById(rq, s, id, param = 'id') {
	return owned(rq, s.templates, id, { param, what: 'strategy template' });
}

function monitorById(rq, s, id, param = 'monitor_id') {
	return ownedChild(rq, s.monitors, id, {
		param,
		what: 'monitor',
		parents: s.domains,
		parentKey: 'did',
		parentWhat: 'domain',
		permType: 6,
	});
}

/** Strategy `id`, in domain `did` when that is given. */
function styById(rq, s, id, did) {
	return ownedChild(rq, s.strategies, id, {
		what: 'strategy',
		parents: s.domains,
		parentKey: 'did',
		parentWhat: 'domain',
		parentId: did,
		permType: 6,
	});
}

/** Template record `id`, in template `tid` when that is given. */
function tempStyById(rq, s, id, tid) {
	return ownedChild(rq, s.tempStys, id, {
		what: 'template record',
		parents: s.templates,
		parentKey: 'tid',
		parentWhat: 'template',
		parentId: tid,
	});
}

function visibleDomainIds(rq) {
	return new Set(ownedList(rq, S(rq.core).domains, 6).map((d) => d.id));
}

function recordsOf(s, did) {
	return Object.values(s.records).filter((r) => r.did === did);
}

/** The A and AAAA records of `subdomain` in domain `did`: what a downtime monitor watches. */
function addressRecords(s, did, subdomain) {
	return recordsOf(s, did).filter((r) => r.subdomain === subdomain && (r.recordtype === 'A' || r.recordtype === 'AAAA'));
}

/** The items of `coll` in the caller's visible domains, by `id` and `did` when sent (did must be the caller's). */
function inVisibleDomains(rq, coll) {
	const { p } = rq;
	const id = p.int('id');
	const did = p.int('did');
	if (did !== undefined) domainById(rq, did, 'did');
	const visible = visibleDomainIds(rq);
	const items = Object.values(coll).filter((x) => visible.has(x.did));
	return where(items, { id, did });
}

/** A 0/1 switch such as status: `def` when it is not sent. */
function flag(p, name, def) {
	return p.oneOf(name, [0, 1], { def });
}

/** The 0/1 `status` an enable / pause operation must send. */
function requiredStatus(p) {
	return p.oneOf('status', [0, 1], { required: true });
}

function emails(p, name) {
	const v = p.str(name, { def: '', max: 500 }).trim();
	if (!v) return '';
	const list = v.split(',').map((x) => x.trim());
	for (const e of list) if (!EMAIL_RE.test(e)) throw new ApiError(`${name} must hold e-mail addresses separated by commas (bad: ${e})`);
	return list.join(',');
}

function phones(p, name) {
	const v = p.str(name, { def: '', max: 500 }).trim();
	if (!v) return '';
	const list = v.split(',').map((x) => x.trim());
	for (const e of list) if (!/^\+?\d{5,20}$/.test(e)) throw new ApiError(`${name} must hold phone numbers separated by commas (bad: ${e})`);
	return list.join(',');
}

module.exports = {
	YEAR_MS,
	STY_LABELS,
	RECORD_TYPES,
	LINES,
	LINES_OWN,
	ownLines,
	lineOut,
	GROUPS,
	PLANS,
	S,
	route,
	phpSerialize,
	isDomain,
	isHostname,
	normSub,
	isSubdomain,
	subdomainParam,
	planById,
	domainById,
	recordOf,
	templateById,
	monitorById,
	styById,
	tempStyById,
	visibleDomainIds,
	recordsOf,
	addressRecords,
	inVisibleDomains,
	flag,
	requiredStatus,
	emails,
	phones,
};

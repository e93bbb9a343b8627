'use strict';
/**
 * Group `dns` of the management interface (seed 002 section 4): plans, domains, records,
 * downtime monitors with their monitor records, strategy templates with template records,
 * and resolution strategies.
 *
 * Choices where the seed is silent (the emulator's, not the vendor's):
 *  - Plans are a fixed catalogue (Free, Personal, Business, Enterprise); prices are per year
 *    and domainAdd / domainUpgrade charge price × period with paytype 7 and bid = domain id.
 *    The serialized lists of a plan (strategy, monitor_retry, monitor_interval,
 *    monitor_notice) use PHP serialize() notation. A plan's `auth` is the caller's latest
 *    domain on that plan, or null when there is none.
 *  - Plan limits are enforced: record_num per domain, monitor_num per domain, strategy_num
 *    per domain, strategy_template_num per plan and account; strategies need
 *    enable_strategy 1 and a sty among the plan's `strategy`; monitor retry and interval
 *    must be among the plan's monitor_retry / monitor_interval.
 *  - A domain name is hosted once across all accounts. Domains are created with status 1.
 *  - Record lines: default, telecom, unicom, mobile, edu, overseas, search (`locale` is the
 *    line's display name, `real_locale` its code); an empty line is `default`. The documents
 *    name no line: dialect dnsLinesOwn plays a service whose lines are its own values in its
 *    language (默认, 电信, 联通, 移动, 教育网, 境外, 搜索引擎; docs/vendor/readings.md#r69), which
 *    refuses the words above. subdomain '' means '@'. ttl defaults to
 *    300, weight to 1, mx to 10 for MX (mx is '0' on other types). A CNAME cannot share a
 *    subdomain and line with any other record; an identical record cannot be added twice.
 *  - recordAdd entries: `subdomain;recordtype;recordline;value[;mx[;ttl[;weight]]]`; an entry
 *    with more than 7 fields keeps the extra `;` inside the value (TXT such as DKIM).
 *  - recordUpdate keeps the fields that are not sent.
 *  - Monitor records: one per A/AAAA record of the monitored subdomain, kept in step as
 *    records come and go. monitorStatus `record_id` names monitor record ids of that monitor
 *    (all of them when absent) and sets them and the monitor to `status`.
 *  - Monitor `notify` is a notification method (DECISIONS): one of the plan's monitor_notice
 *    values (several comma-separated are taken); addresses go in other_email / other_phone.
 *  - tempStyDelete answers the deleted template record's id as the `data` string.
 *  - domainList `type` is '1' (authoritative hosting).
 */
const net = require('node:net');
const { ApiError, str, pageOf } = require('./util');
const { sortDesc, sortAsc, routeBuilder, owned, ownedChild, ownedList, where, accountName, requireBalance } = require('./common');

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

// ---------------------------------------------------------------- record validation

/**
 * Checks one record; `fail(field, text)` raises the caller's error. Returns normalised fields.
 * `own`: dialect dnsLinesOwn, the line is one of the service's own values (LINES_OWN) or empty.
 */
function checkRecord(input, fail, own = false) {
	const subdomain = normSub(input.subdomain);
	if (!isSubdomain(subdomain)) fail('subdomain', `"${input.subdomain}" is not a valid host record (use @, * or labels such as www)`);
	const recordtype = String(input.recordtype || '')
		.trim()
		.toUpperCase();
	if (!RECORD_TYPES.includes(recordtype)) fail('recordtype', `must be one of ${RECORD_TYPES.join(', ')}`);
	let recordline;
	if (own) {
		const given = String(input.recordline || '').trim();
		recordline = given === '' ? 'default' : Object.keys(LINES_OWN).find((k) => LINES_OWN[k] === given);
		if (!recordline) fail('recordline', `must be one of ${Object.values(LINES_OWN).join(', ')} (empty: ${LINES_OWN.default})`);
	} else {
		recordline =
			String(input.recordline || '')
				.trim()
				.toLowerCase() || 'default';
		if (!LINES[recordline]) fail('recordline', `must be one of ${Object.keys(LINES).join(', ')}`);
	}
	let value = String(input.value ?? '').trim();
	if (!value) fail('value', 'is required');
	switch (recordtype) {
		case 'A':
			if (!net.isIPv4(value)) fail('value', 'must be an IPv4 address for an A record');
			break;
		case 'AAAA':
			if (!net.isIPv6(value)) fail('value', 'must be an IPv6 address for an AAAA record');
			value = value.toLowerCase();
			break;
		case 'CNAME':
		case 'MX':
		case 'NS':
			if (!isHostname(value)) fail('value', `must be a host name for a ${recordtype} record`);
			value = value.toLowerCase();
			break;
		case 'TXT':
			if (value.length > 512) fail('value', 'must be at most 512 characters for a TXT record');
			break;
		case 'SRV': {
			const m = /^(\d{1,5})\s+(\d{1,5})\s+(\d{1,5})\s+(\S+)$/.exec(value);
			if (
				!m ||
				Number(m[1]) > 65535 ||
				Number(m[2]) > 65535 ||
				Number(m[3]) < 1 ||
				Number(m[3]) > 65535 ||
				!(m[4] === '.' || isHostname(m[4]))
			) {
				fail('value', 'must be "priority weight port target" for an SRV record, e.g. 10 5 5060 sip.example.com');
			}
			break;
		}
		case 'CAA': {
			const m = /^(\d{1,3})\s+(issue|issuewild|iodef)\s+"[^"]*"$/i.exec(value);
			if (!m || Number(m[1]) > 255) fail('value', 'must be `flags tag "value"` for a CAA record, e.g. 0 issue "letsencrypt.org"');
			break;
		}
		default:
	}
	const intField = (name, raw, min, max, def) => {
		const v = String(raw ?? '').trim();
		if (v === '') return def;
		if (!/^\d+$/.test(v)) fail(name, 'must be an integer');
		const n = Number(v);
		if (n < min || n > max) fail(name, `must be between ${min} and ${max}`);
		return n;
	};
	const mx = recordtype === 'MX' ? intField('mx', input.mx, 1, 100, 10) : 0;
	const ttl = intField('ttl', input.ttl, 1, 86400, 300);
	const weight = intField('weight', input.weight, 1, 100, 1);
	return { subdomain, recordtype, recordline, value, mx, ttl, weight };
}

/** CNAME exclusivity and duplicates against the existing records (minus `skipId`). */
function conflicts(existing, rec, skipId) {
	for (const r of existing) {
		if (r.id === skipId || r.subdomain !== rec.subdomain || r.recordline !== rec.recordline) continue;
		if (r.recordtype === 'CNAME' || rec.recordtype === 'CNAME') {
			if (r.recordtype === 'CNAME' && rec.recordtype === 'CNAME' && r.value === rec.value) return 'the same record already exists';
			return `a CNAME record cannot share host record ${rec.subdomain} and line ${rec.recordline} with another record`;
		}
		if (r.recordtype === rec.recordtype && r.value === rec.value) return 'the same record already exists';
	}
	return null;
}

// ---------------------------------------------------------------- monitors

function syncMonitor(core, m) {
	const s = S(core);
	const wanted = addressRecords(s, m.did, m.subdomain);
	const have = Object.values(s.monitorRecords).filter((mr) => mr.mid === m.id);
	for (const mr of have) if (!wanted.some((r) => r.id === mr.rid)) delete s.monitorRecords[mr.id];
	for (const r of wanted) {
		if (have.some((mr) => mr.rid === r.id)) continue;
		const id = core.nextId('dns.monitorRecord', 1);
		s.monitorRecords[id] = { id, mid: m.id, rid: r.id, status: m.status, createdAt: core.now() };
	}
}

function syncDomainMonitors(core, did) {
	for (const m of Object.values(S(core).monitors)) if (m.did === did) syncMonitor(core, m);
}

function monitorFields(rq, plan, p, base, domain) {
	const out = { ...base };
	if (!base || p.has('subdomain')) out.subdomain = subdomainParam(p, !base);
	if (!base || p.has('retry')) {
		out.retry = p.int('retry', { def: 10, min: 1 });
		if (plan.monitor_retry.length && !plan.monitor_retry.includes(out.retry)) {
			throw new ApiError(`retry must be one of ${plan.monitor_retry.join(', ')} on plan ${plan.name}`);
		}
	}
	if (!base || p.has('interval')) {
		out.check_interval = p.int('interval', { def: 10, min: 1 });
		if (plan.monitor_interval.length && !plan.monitor_interval.includes(out.check_interval)) {
			throw new ApiError(`interval must be one of ${plan.monitor_interval.join(', ')} on plan ${plan.name}`);
		}
	}
	if (!base || p.has('host')) {
		const host = p.str('host', { def: '', max: 255 }).trim();
		if (host && !isHostname(host) && !net.isIP(host)) throw new ApiError('host must be a host name or IP address');
		out.host = host || (out.subdomain === '@' ? domain.name : `${out.subdomain}.${domain.name}`);
	}
	if (!base || p.has('path')) {
		const path = p.str('path', { def: '/', max: 255 }).trim() || '/';
		if (!path.startsWith('/')) throw new ApiError('path must start with /');
		out.path = path;
	}
	if (!base || p.has('port')) out.port = p.int('port', { def: 80, min: 1, max: 65535 });
	if (!base || p.has('protocol') || p.has('port')) {
		out.protocol = p.has('protocol')
			? p.oneOf('protocol', ['http', 'https', 'tcp'])
			: base && base.protocol !== 'http' && base.protocol !== 'https'
				? base.protocol
				: out.port === 443
					? 'https'
					: 'http';
	}
	if (!base || p.has('switch')) out.switch = flag(p, 'switch', 0);
	if (!base || p.has('notify')) {
		// a notification method of the plan's monitor_notice (DECISIONS), not an address
		const notify = p.str('notify', { def: '', max: 255 }).trim();
		const methods = notify ? notify.split(',').map((x) => x.trim()) : [];
		for (const m of methods) {
			if (!plan.monitor_notice.includes(m)) {
				throw new ApiError(
					plan.monitor_notice.length
						? `notify must be a notification method of plan ${plan.name}: ${plan.monitor_notice.join(', ')} (addresses go in other_email and other_phone)`
						: `notify: plan ${plan.name} offers no notification methods (addresses go in other_email and other_phone)`,
				);
			}
		}
		out.notify = methods.join(',');
	}
	if (!base || p.has('less')) out.less = flag(p, 'less', 0);
	if (!base || p.has('enable_delay')) out.enable_delay = flag(p, 'enable_delay', 0);
	if (!base || p.has('delay')) out.delay = p.int('delay', { def: 0, min: 0, max: 1440 });
	if (!base || p.has('other_email')) out.other_email = emails(p, 'other_email');
	if (!base || p.has('other_phone')) out.other_phone = phones(p, 'other_phone');
	if (!base || p.has('status')) out.status = flag(p, 'status', 1);
	return out;
}

// ---------------------------------------------------------------- rendering

/** A plan as `ownerUid` sees it (`auth` is its latest domain on the plan). */
function renderPlan(core, plan, ownerUid) {
	const s = S(core);
	const g = s.groups.find((x) => x.id === plan.gid) || GROUPS[0];
	const mine = Object.values(s.domains)
		.filter((d) => d.uid === ownerUid && d.pid === plan.id)
		.sort(sortDesc)[0];
	return {
		id: str(plan.id),
		group: {
			id: str(g.id),
			mid: str(g.mid),
			name: g.name,
			status: str(g.status),
			note: g.note,
			created: core.displayTime(s.createdAt),
			syncdb: str(g.syncdb),
		},
		name: plan.name,
		price: plan.price.toFixed(2),
		auth: mine
			? {
					id: str(mine.id),
					name: mine.name,
					uid: str(mine.uid),
					pid: str(mine.pid),
					is_auth: '1',
					mark: str(mine.mark),
					recordnum: str(recordsOf(s, mine.id).length),
					status: str(mine.status),
					note: mine.note,
					createtime: core.displayTime(mine.createdAt),
					updatetime: core.displayTime(mine.updatedAt),
					endtime: core.displayTime(mine.endAt),
					username: accountName(core, ownerUid),
					type: '1',
					gid: str(plan.gid),
					authid: str(mine.id),
					sub_uid: str(mine.subUid || 0),
				}
			: null,
		strategy: phpSerialize(plan.strategy),
		enable_strategy: str(plan.enable_strategy),
		strategy_num: str(plan.strategy_num),
		strategy_template_num: str(plan.strategy_template_num),
		record_num: str(plan.record_num),
		monitor_num: str(plan.monitor_num),
		monitor_retry: phpSerialize(plan.monitor_retry),
		monitor_interval: phpSerialize(plan.monitor_interval),
		monitor_notice: phpSerialize(plan.monitor_notice),
		...core.stamp(s.createdAt, 'createtime'),
	};
}

function renderDomain(core, d) {
	const s = S(core);
	const plan = s.plans.find((p) => p.id === d.pid);
	return {
		id: str(d.id),
		name: d.name,
		group_id: str(plan.gid),
		type: '1',
		plan_id: str(plan.id),
		plan_name: plan.name,
		plan_enable_strategy: str(plan.enable_strategy),
		plan_price: plan.price.toFixed(2),
		mark: str(d.mark),
		recordnum: str(recordsOf(s, d.id).length),
		status: str(d.status),
		note: d.note,
		...core.stamp(d.createdAt, 'createtime'),
		endtime: core.displayTime(d.endAt),
	};
}

function renderRecord(core, r) {
	const d = S(core).domains[r.did];
	return {
		id: str(r.id),
		subdomain: r.subdomain,
		recordtype: r.recordtype,
		domainname: d ? d.name : '',
		recordline: lineOut(core, r.recordline),
		value: r.value,
		locale: ownLines(core) ? LINES_OWN[r.recordline] : LINES[r.recordline],
		real_locale: lineOut(core, r.recordline),
		status: str(r.status),
		mx: str(r.mx),
		ttl: str(r.ttl),
		weight: str(r.weight),
		note: r.note,
		...core.stamp(r.createdAt, 'createtime'),
	};
}

function recordAddItem(core, r) {
	return {
		id: str(r.id),
		subdomain: r.subdomain,
		status: str(r.status),
		recordtype: r.recordtype,
		recordline: lineOut(core, r.recordline),
		value: r.value,
		mx: str(r.mx),
		ttl: str(r.ttl),
		weight: str(r.weight),
		locale: ownLines(core) ? LINES_OWN[r.recordline] : LINES[r.recordline],
	};
}

function monitorCount(s, m) {
	return Object.values(s.monitorRecords).filter((mr) => mr.mid === m.id).length;
}

function renderMonitor(core, m, { forAdd = false } = {}) {
	const s = S(core);
	const d = s.domains[m.did] || { name: '' };
	const common = {
		id: str(m.id),
		subdomain: m.subdomain,
		retry: str(m.retry),
		check_interval: str(m.check_interval),
		host: m.host,
		path: m.path,
		port: str(m.port),
		protocol: m.protocol,
		switch: str(m.switch),
		notify: m.notify,
		less: str(m.less),
		enable_delay: str(m.enable_delay),
		delay: str(m.delay),
		other_email: m.other_email,
		other_phone: m.other_phone,
		status: str(m.status),
	};
	if (forAdd) {
		return {
			...common,
			did: str(m.did),
			createtime: core.displayTime(m.createdAt),
			updatetime: core.displayTime(m.updatedAt),
			recordnum: str(monitorCount(s, m)),
		};
	}
	return {
		...common,
		domain_name: d.name,
		domain_id: str(m.did),
		recordnum: str(monitorCount(s, m)),
		...core.stamp(m.createdAt, 'createtime'),
	};
}

function renderMonitorRecord(core, mr) {
	const s = S(core);
	const m = s.monitors[mr.mid];
	const r = s.records[mr.rid];
	return {
		id: str(mr.id),
		subdomain: m.subdomain,
		did: str(m.did),
		retry: str(m.retry),
		check_interval: str(m.check_interval),
		path: m.path,
		host: m.host,
		ip: r ? r.value : '',
		status: str(mr.status),
		...core.stamp(mr.createdAt, 'createtime'),
	};
}

function renderTemplate(core, t) {
	const s = S(core);
	const plan = s.plans.find((p) => p.id === t.pid);
	return {
		id: str(t.id),
		name: t.name,
		count: str(Object.values(s.tempStys).filter((x) => x.tid === t.id).length),
		status: str(t.status),
		pid: str(t.pid),
		planname: plan ? plan.name : '',
		note: t.note,
		...core.stamp(t.createdAt, 'createtime'),
		...core.stamp(t.updatedAt, 'updatetime'),
	};
}

function renderTempSty(core, x) {
	return {
		id: str(x.id),
		tid: str(x.tid),
		continent: x.continent,
		country: x.country,
		isp: x.isp,
		area: x.area,
		province: x.province,
		city: x.city,
		ip: x.ip,
		ip_location: [x.country, x.province, x.city, x.isp].filter(Boolean).join(' '),
		weight: str(x.weight),
		status: str(x.status),
		...core.stamp(x.createdAt, 'createtime'),
		...core.stamp(x.updatedAt, 'updatetime'),
	};
}

function renderSty(core, y) {
	const s = S(core);
	const d = s.domains[y.did] || { name: '' };
	const t = s.templates[y.tid];
	return {
		id: str(y.id),
		domain_id: str(y.did),
		domain_name: d.name,
		subdomain: y.subdomain,
		sty: y.sty,
		sty_en: STY_LABELS[y.sty],
		maxip: str(y.maxip),
		sty_count: str(t ? Object.values(s.tempStys).filter((x) => x.tid === t.id && x.status === 1).length : 0),
		temp_id: str(y.tid),
		temp_name: t ? t.name : '',
		status: str(y.status),
		...core.stamp(y.createdAt, 'createtime'),
	};
}

// ---------------------------------------------------------------- domain creation

function makeDomain(core, owner, { name, pid, period = 1, note = '', subUid = 0 }, now = core.now()) {
	const id = core.nextId('dns.domain', 3001);
	const d = {
		id,
		uid: owner.uid,
		subUid,
		name,
		pid,
		mark: 0,
		status: 1,
		note,
		createdAt: now,
		updatedAt: now,
		endAt: now + period * YEAR_MS,
	};
	S(core).domains[id] = d;
	return d;
}

function makeRecord(core, d, rec, now = core.now()) {
	const id = core.nextId('dns.record', 70001);
	const r = { id, did: d.id, ...rec, status: 1, note: rec.note || '', createdAt: now, updatedAt: now };
	S(core).records[id] = r;
	return r;
}

function stFields(p, base) {
	const out = { ...base };
	for (const k of ['continent', 'country', 'isp', 'area', 'province', 'city']) {
		if (!base || p.has(k)) out[k] = p.str(k, { def: '', max: 64 }).trim();
	}
	if (!base || p.has('ip')) {
		const ip = p.str('ip', { required: true, max: 64 }).trim();
		if (!net.isIP(ip)) throw new ApiError('ip must be an IPv4 or IPv6 address');
		out.ip = ip;
	}
	if (!base || p.has('status')) out.status = flag(p, 'status', 1);
	if (!base || p.has('weight')) out.weight = p.int('weight', { def: 1, min: 1, max: 100 });
	return out;
}

function styFields(rq, s, p, base, domain, plan) {
	const out = { ...base };
	if (!base || p.has('subdomain')) out.subdomain = subdomainParam(p, !base);
	if (!base || p.has('sty')) out.sty = p.oneOf('sty', Object.keys(STY_LABELS), { required: !base });
	if (!plan.strategy.includes(out.sty)) {
		throw new ApiError(`sty: plan ${plan.name} allows ${plan.strategy.join(', ') || 'no strategies'}`);
	}
	if (!base || p.has('maxip')) out.maxip = p.int('maxip', { def: 1, min: 1, max: 10 });
	if (!base || p.has('tid')) {
		const t = templateById(rq, s, p.int('tid', { required: true }), 'tid');
		out.tid = t.id;
	}
	if (!base || p.has('status')) out.status = flag(p, 'status', 1);
	const dup = Object.values(s.strategies).find((y) => y.did === domain.id && y.subdomain === out.subdomain && (!base || y.id !== base.id));
	if (dup) throw new ApiError(`subdomain: ${out.subdomain} of ${domain.name} already has strategy ${dup.id}`);
	return out;
}

function strategyDomain(rq, s, p) {
	const d = domainById(rq, p.int('did', { required: true }), 'did');
	const plan = planById(s, d.pid);
	if (plan.enable_strategy !== 1) throw new ApiError(`did: plan ${plan.name} of ${d.name} does not include resolution strategies`);
	return { d, plan };
}

/** A plan that includes resolution strategies (strategy templates are made for one). */
function strategyPlan(s, id) {
	const plan = planById(s, id);
	if (plan.enable_strategy !== 1) throw new ApiError(`pid: plan ${plan.name} does not include resolution strategies`);
	return plan;
}

/** A template's name: trimmed, not blank. */
function templateName(p, required) {
	const name = p.str('name', { required, max: 64 }).trim();
	if (!name) throw new ApiError('name must not be blank');
	return name;
}

/** A monitor on `subdomain` of `d` needs an A or AAAA record there and no other monitor (`skipId` aside). */
function checkMonitorTarget(s, d, subdomain, skipId) {
	if (!addressRecords(s, d.id, subdomain).length)
		throw new ApiError(`subdomain: ${subdomain} of ${d.name} has no A or AAAA record to monitor`);
	if (Object.values(s.monitors).some((m) => m.did === d.id && m.id !== skipId && m.subdomain === subdomain)) {
		throw new ApiError(`subdomain: ${subdomain} of ${d.name} is already monitored`);
	}
}

/** Plan and period of domainAdd / domainUpgrade; the price is per year. */
function planOrder(s, p) {
	const plan = planById(s, p.int('pid', { required: true }));
	const period = p.int('period', { def: 1, min: 1, max: 10 });
	return { plan, period, price: plan.price * period };
}

/** Charges a plan order (paytype 7, bid = domain id) and answers it. */
function payPlanOrder(core, owner, d, { plan, period, price }) {
	if (price > 0) core.charge(owner, { price, paytype: 7, bid: d.id, name: `Cloud DNS ${d.name} (${plan.name}, ${period} year(s))` });
	return { data: { id: str(d.id), name: d.name, plan: { id: str(plan.id), name: plan.name } } };
}

// ---------------------------------------------------------------- routes

const routes = {
	// ---- plans and domains
	'dns/planList': route(
		'DNS plans',
		(rq, s) => {
			const { p, core } = rq;
			const filters = { id: p.int('id'), enable_strategy: p.oneOf('enable_strategy', [0, 1]) };
			const items = where(s.plans, filters).sort(sortAsc);
			return pageOf(items, p, { render: (x) => renderPlan(core, x, rq.owner.uid) });
		},
		{ read: true },
	),

	'dns/domainList': route.list(
		'DNS domains',
		(rq, s) => {
			const { p } = rq;
			const filters = { id: p.int('id'), mark: p.oneOf('mark', [0, 1]), status: p.oneOf('status', [1, 2, 3]) };
			return where(ownedList(rq, s.domains, 6), filters).sort(sortDesc);
		},
		renderDomain,
	),

	'dns/domainAdd': route('Add DNS domain', (rq, s) => {
		const { p, core, owner } = rq;
		const name = p.str('domain', { required: true, max: 253 }).trim().toLowerCase().replace(/\.$/, '');
		if (!isDomain(name)) throw new ApiError(`domain: ${name} is not a valid domain name`);
		if (Object.values(s.domains).some((d) => d.name === name)) throw new ApiError(`domain: ${name} is already hosted`);
		const order = planOrder(s, p);
		const note = p.str('note', { def: '', max: 255 });
		if (order.price > 0) requireBalance(core, owner, order.price);
		const d = makeDomain(core, owner, { name, pid: order.plan.id, period: order.period, note, subUid: rq.user.parent ? rq.user.uid : 0 });
		return payPlanOrder(core, owner, d, order);
	}),

	'dns/domainStatus': route('Enable or pause DNS domain', (rq) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('id', { required: true }));
		d.status = p.oneOf('status', [1, 2], { required: true });
		d.updatedAt = core.now();
		return { data: { id: str(d.id), name: d.name, status: str(d.status) } };
	}),

	'dns/domainMark': route('Star DNS domain', (rq) => {
		const { p } = rq;
		const d = domainById(rq, p.int('id', { required: true }));
		d.mark = flag(p, 'mark', 0);
		return { data: { id: str(d.id), name: d.name, mark: str(d.mark) } };
	}),

	'dns/domainNote': route('DNS domain note', (rq) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('id', { required: true }));
		d.note = p.str('note', { def: '', max: 255 });
		d.updatedAt = core.now();
		return { data: { id: str(d.id), name: d.name, note: d.note } };
	}),

	'dns/domainUpgrade': route('Upgrade or renew DNS domain', (rq, s) => {
		const { p, core, owner } = rq;
		const d = domainById(rq, p.int('id', { required: true }));
		const order = planOrder(s, p);
		const { plan, period } = order;
		const count = recordsOf(s, d.id).length;
		if (count > plan.record_num) {
			throw new ApiError(`pid: plan ${plan.name} allows ${plan.record_num} records but ${d.name} has ${count}`);
		}
		const monitors = Object.values(s.monitors).filter((m) => m.did === d.id).length;
		if (monitors > plan.monitor_num)
			throw new ApiError(`pid: plan ${plan.name} allows ${plan.monitor_num} monitors but ${d.name} has ${monitors}`);
		const stys = Object.values(s.strategies).filter((y) => y.did === d.id);
		if (stys.length && plan.enable_strategy !== 1)
			throw new ApiError(`pid: plan ${plan.name} has no strategies but ${d.name} uses ${stys.length}`);
		if (order.price > 0) requireBalance(core, owner, order.price);
		const now = core.now();
		d.endAt = (plan.id === d.pid ? Math.max(now, d.endAt) : now) + period * YEAR_MS;
		d.pid = plan.id;
		d.updatedAt = now;
		return payPlanOrder(core, owner, d, order);
	}),

	'dns/domainDelete': route('Delete DNS domain', (rq, s) => {
		const d = domainById(rq, rq.p.int('id', { required: true }));
		for (const r of recordsOf(s, d.id)) delete s.records[r.id];
		for (const m of Object.values(s.monitors)) {
			if (m.did !== d.id) continue;
			for (const mr of Object.values(s.monitorRecords)) if (mr.mid === m.id) delete s.monitorRecords[mr.id];
			delete s.monitors[m.id];
		}
		for (const y of Object.values(s.strategies)) if (y.did === d.id) delete s.strategies[y.id];
		delete s.domains[d.id];
		return { data: { id: str(d.id), name: d.name } };
	}),

	// ---- records
	'dns/recordList': route.list(
		'DNS records',
		(rq, s) => {
			const { p } = rq;
			const d = domainById(rq, p.int('did', { required: true }), 'did');
			const status = flag(p, 'status');
			const recordtype = p.has('recordtype') ? p.str('recordtype').trim().toUpperCase() : undefined;
			const subdomain = p.has('subdomain') ? normSub(p.str('subdomain')) : undefined;
			return where(recordsOf(s, d.id), { status, recordtype, subdomain }).sort(sortAsc);
		},
		renderRecord,
	),
	'dns/recordAdd': route('Add DNS records', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const plan = planById(s, d.pid);
		const text = p.str('records', { required: true, max: 100000 });
		const entries = text.split('#').map((e) => e.trim());
		const existing = recordsOf(s, d.id);
		const accepted = [];
		entries.forEach((entry, i) => {
			const fail = (field, msg) => {
				throw new ApiError(
					`records entry ${i + 1} (${entry.length > 60 ? `${entry.slice(0, 57)}...` : entry || 'empty'}): ${field} ${msg}; nothing was added`,
				);
			};
			const f = entry.split(';');
			if (!entry || f.length < 4) fail('records', 'must be subdomain;recordtype;recordline;value;mx;ttl;weight');
			const [subdomain, recordtype, recordline] = f;
			let value;
			let rest;
			if (f.length > 7) {
				value = f.slice(3, f.length - 3).join(';');
				rest = f.slice(f.length - 3);
			} else {
				value = f[3];
				rest = f.slice(4);
			}
			const rec = checkRecord({ subdomain, recordtype, recordline, value, mx: rest[0], ttl: rest[1], weight: rest[2] }, fail, ownLines(core));
			const clash = conflicts([...existing, ...accepted], rec, null);
			if (clash) fail('value', clash);
			accepted.push({ ...rec, id: -1 - i });
		});
		if (existing.length + accepted.length > plan.record_num) {
			throw new ApiError(
				`records: plan ${plan.name} allows ${plan.record_num} records per domain (${d.name} has ${existing.length}); nothing was added`,
			);
		}
		const created = accepted.map(({ id, ...rec }) => makeRecord(core, d, rec));
		syncDomainMonitors(core, d.id);
		return { data: created.map((r) => recordAddItem(core, r)) };
	}),

	'dns/recordUpdate': route('Update DNS record', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const r = recordOf(rq, s, d, p.int('record_id', { required: true }));
		const input = {};
		for (const k of ['subdomain', 'recordtype', 'recordline', 'value', 'mx', 'ttl', 'weight']) {
			input[k] = p.has(k) ? p.raw(k) : k === 'recordline' ? lineOut(core, r[k]) : r[k];
		}
		if (!p.has('mx') && String(input.recordtype).toUpperCase() === 'MX' && r.recordtype !== 'MX') input.mx = '';
		const rec = checkRecord(
			input,
			(field, msg) => {
				throw new ApiError(`${field} ${msg}`);
			},
			ownLines(core),
		);
		const clash = conflicts(recordsOf(s, d.id), rec, r.id);
		if (clash) throw new ApiError(`value: ${clash}`);
		Object.assign(r, rec, { updatedAt: core.now() });
		syncDomainMonitors(core, d.id);
		return { data: [renderRecord(core, r)] };
	}),

	'dns/recordStatus': route('Enable or pause DNS records', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const records = p.idList('record_id', { required: true }).map((id) => recordOf(rq, s, d, id));
		const status = requiredStatus(p);
		for (const r of records) {
			r.status = status;
			r.updatedAt = core.now();
		}
		return { data: records.map((r) => ({ id: str(r.id), subdomain: r.subdomain, status: str(r.status) })) };
	}),

	'dns/recordNote': route('DNS record note', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const r = recordOf(rq, s, d, p.int('record_id', { required: true }));
		r.note = p.str('note', { def: '', max: 255 });
		r.updatedAt = core.now();
		return {};
	}),

	'dns/recordDelete': route('Delete DNS records', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const records = p.idList('record_id', { required: true }).map((id) => recordOf(rq, s, d, id));
		for (const r of records) delete s.records[r.id];
		syncDomainMonitors(core, d.id);
		return { data: records.map((r) => ({ id: str(r.id), subdomain: r.subdomain })) };
	}),

	// ---- monitors
	'dns/monitorList': route.list('DNS downtime monitors', (rq, s) => inVisibleDomains(rq, s.monitors).sort(sortDesc), renderMonitor),

	'dns/monitorAdd': route('Add DNS downtime monitor', (rq, s) => {
		const { p, core } = rq;
		const d = domainById(rq, p.int('did', { required: true }), 'did');
		const plan = planById(s, d.pid);
		const count = Object.values(s.monitors).filter((m) => m.did === d.id).length;
		if (count >= plan.monitor_num) {
			throw new ApiError(`did: plan ${plan.name} allows ${plan.monitor_num} downtime monitors per domain`);
		}
		const fields = monitorFields(rq, plan, p, null, d);
		checkMonitorTarget(s, d, fields.subdomain);
		const id = core.nextId('dns.monitor', 501);
		const m = { id, did: d.id, ...fields, createdAt: core.now(), updatedAt: core.now() };
		s.monitors[id] = m;
		syncMonitor(core, m);
		return { data: renderMonitor(core, m, { forAdd: true }) };
	}),

	'dns/monitorUpdate': route('Update DNS downtime monitor', (rq, s) => {
		const { p, core } = rq;
		const m = monitorById(rq, s, p.int('monitor_id', { required: true }));
		const d = s.domains[m.did];
		const plan = planById(s, d.pid);
		const { id, did, createdAt, updatedAt, ...current } = m;
		const fields = monitorFields(rq, plan, p, current, d);
		if (fields.subdomain !== m.subdomain) checkMonitorTarget(s, d, fields.subdomain, m.id);
		Object.assign(m, fields, { updatedAt: core.now() });
		syncMonitor(core, m);
		return { data: renderMonitor(core, m, { forAdd: true }) };
	}),

	'dns/monitorStatus': route('Enable or pause DNS downtime monitor', (rq, s) => {
		const { p, core } = rq;
		const m = monitorById(rq, s, p.int('monitor_id', { required: true }));
		const status = requiredStatus(p);
		const own = Object.values(s.monitorRecords).filter((mr) => mr.mid === m.id);
		let targets = own;
		if (p.has('record_id')) {
			targets = p.idList('record_id').map((rid) => {
				const mr = own.find((x) => x.id === rid);
				if (!mr) throw new ApiError(`record_id: monitor record ${rid} does not belong to monitor ${m.id}`);
				return mr;
			});
		}
		for (const mr of targets) mr.status = status;
		m.status = status;
		m.updatedAt = core.now();
		return { data: { id: str(m.id), status: str(m.status) } };
	}),

	'dns/monitorDelete': route('Delete DNS downtime monitor', (rq, s) => {
		const m = monitorById(rq, s, rq.p.int('monitor_id', { required: true }));
		for (const mr of Object.values(s.monitorRecords)) if (mr.mid === m.id) delete s.monitorRecords[mr.id];
		delete s.monitors[m.id];
		return { data: { id: str(m.id), host: m.host } };
	}),

	'dns/monitorRecordList': route.list(
		'DNS monitor records',
		(rq, s) => {
			const { p } = rq;
			const mid = p.int('mid');
			if (mid !== undefined) monitorById(rq, s, mid, 'mid');
			const id = p.int('id');
			const visible = visibleDomainIds(rq);
			const records = Object.values(s.monitorRecords).filter((mr) => s.monitors[mr.mid] && visible.has(s.monitors[mr.mid].did));
			return where(records, { mid, id }).sort(sortAsc);
		},
		renderMonitorRecord,
		{ defaultLimit: 1000 },
	),

	'dns/monitorRecordStatus': route('Enable or pause DNS monitor record', (rq, s) => {
		const { p } = rq;
		const id = p.int('id', { required: true });
		const mid = p.int('mid', { required: true });
		const m = monitorById(rq, s, mid, 'mid');
		const mr = s.monitorRecords[id];
		if (!mr || mr.mid !== m.id) throw new ApiError(`id: monitor record ${id} does not belong to monitor ${mid}`);
		mr.status = requiredStatus(p);
		return { data: { id: str(mr.id), mid: str(mr.mid), status: str(mr.status) } };
	}),

	// ---- strategy templates
	'dns/tempList': route.list(
		'DNS strategy templates',
		(rq, s) => {
			const { p } = rq;
			const id = p.int('id');
			const gid = p.int('gid');
			return where(ownedList(rq, s.templates), { id })
				.filter((t) => gid === undefined || (s.plans.find((x) => x.id === t.pid) || {}).gid === gid)
				.sort(sortDesc);
		},
		renderTemplate,
	),

	'dns/tempAdd': route('Add DNS strategy template', (rq, s) => {
		const { p, core } = rq;
		const plan = strategyPlan(s, p.int('pid', { required: true }));
		const name = templateName(p, true);
		const status = flag(p, 'status', 1);
		const note = p.str('note', { def: '', max: 255 });
		const mine = ownedList(rq, s.templates).filter((t) => t.pid === plan.id).length;
		if (mine >= plan.strategy_template_num) {
			throw new ApiError(`pid: plan ${plan.name} allows ${plan.strategy_template_num} strategy templates`);
		}
		const id = core.nextId('dns.template', 801);
		const t = { id, uid: rq.owner.uid, pid: plan.id, name, status, note, createdAt: core.now(), updatedAt: core.now() };
		s.templates[id] = t;
		return { data: { id: str(t.id), name: t.name, pid: str(t.pid), note: t.note } };
	}),

	'dns/tempUpdate': route('Update DNS strategy template', (rq, s) => {
		const { p, core } = rq;
		const t = templateById(rq, s, p.int('id', { required: true }));
		if (p.has('pid')) t.pid = strategyPlan(s, p.int('pid')).id;
		if (p.has('name')) t.name = templateName(p, false);
		if (p.has('status')) t.status = flag(p, 'status');
		if (p.has('note')) t.note = p.str('note', { max: 255 });
		t.updatedAt = core.now();
		return { data: { id: str(t.id), name: t.name, status: str(t.status), pid: str(t.pid), note: t.note } };
	}),

	'dns/tempDelete': route('Delete DNS strategy template', (rq, s) => {
		const t = templateById(rq, s, rq.p.int('id', { required: true }));
		const used = Object.values(s.strategies).filter((y) => y.tid === t.id).length;
		if (used) throw new ApiError(`id: strategy template ${t.id} is used by ${used} strategy(ies)`);
		for (const x of Object.values(s.tempStys)) if (x.tid === t.id) delete s.tempStys[x.id];
		delete s.templates[t.id];
		return { data: { name: t.name } };
	}),

	'dns/tempStatus': route('Enable or close DNS strategy template', (rq, s) => {
		const { p, core } = rq;
		const t = templateById(rq, s, p.int('id', { required: true }));
		Object.assign(t, { status: requiredStatus(p), updatedAt: core.now() });
		return { data: { id: str(t.id), name: t.name, status: str(t.status) } };
	}),

	'dns/tempStyList': route.list(
		'DNS template records',
		(rq, s) => {
			const tid = rq.p.int('tid');
			if (tid !== undefined) templateById(rq, s, tid, 'tid');
			const mine = new Set(ownedList(rq, s.templates).map((t) => t.id));
			const items = Object.values(s.tempStys).filter((x) => mine.has(x.tid));
			return where(items, { tid }).sort(sortAsc);
		},
		renderTempSty,
	),

	'dns/tempStyAdd': route('Add DNS template record', (rq, s) => {
		const { p, core } = rq;
		const t = templateById(rq, s, p.int('tid', { required: true }), 'tid');
		const fields = stFields(p, null);
		const id = core.nextId('dns.tempSty', 9001);
		s.tempStys[id] = { id, tid: t.id, ...fields, createdAt: core.now(), updatedAt: core.now() };
		t.updatedAt = core.now();
		return {};
	}),

	'dns/tempStyUpdate': route('Update DNS template record', (rq, s) => {
		const { p, core } = rq;
		const tid = p.has('tid') ? p.int('tid') : undefined;
		const x = tempStyById(rq, s, p.int('id', { required: true }), tid);
		const { id, createdAt, updatedAt, ...current } = x;
		Object.assign(x, stFields(p, current), { updatedAt: core.now() });
		return {};
	}),

	'dns/tempStyDelete': route('Delete DNS template record', (rq, s) => {
		const { p } = rq;
		const x = tempStyById(rq, s, p.int('id', { required: true }), p.int('tid', { required: true }));
		delete s.tempStys[x.id];
		return { data: str(x.id) };
	}),

	'dns/tempStyStatus': route('Enable or close DNS template record', (rq, s) => {
		const { p, core } = rq;
		const x = tempStyById(rq, s, p.int('id', { required: true }), p.int('tid', { required: true }));
		Object.assign(x, { status: requiredStatus(p), updatedAt: core.now() });
		return {};
	}),

	// ---- strategies
	'dns/styList': route.list('DNS resolution strategies', (rq, s) => inVisibleDomains(rq, s.strategies).sort(sortDesc), renderSty),

	'dns/styAdd': route('Add DNS resolution strategy', (rq, s) => {
		const { p, core } = rq;
		const { d, plan } = strategyDomain(rq, s, p);
		const count = Object.values(s.strategies).filter((y) => y.did === d.id).length;
		if (count >= plan.strategy_num) throw new ApiError(`did: plan ${plan.name} allows ${plan.strategy_num} strategies per domain`);
		const fields = styFields(rq, s, p, null, d, plan);
		const id = core.nextId('dns.strategy', 601);
		s.strategies[id] = { id, did: d.id, ...fields, createdAt: core.now(), updatedAt: core.now() };
		return {};
	}),

	'dns/styUpdate': route('Update DNS resolution strategy', (rq, s) => {
		const { p, core } = rq;
		const y = styById(rq, s, p.int('id', { required: true }), p.has('did') ? p.int('did') : undefined);
		const d = s.domains[y.did];
		const plan = planById(s, d.pid);
		const { createdAt, updatedAt, did, ...current } = y;
		Object.assign(y, styFields(rq, s, p, current, d, plan), { updatedAt: core.now() });
		return {};
	}),

	'dns/styDelete': route('Delete DNS resolution strategy', (rq, s) => {
		const { p } = rq;
		const y = styById(rq, s, p.int('id', { required: true }), p.int('did', { required: true }));
		delete s.strategies[y.id];
		return {};
	}),

	'dns/styStatus': route('Enable or pause DNS resolution strategy', (rq, s) => {
		const { p, core } = rq;
		const y = styById(rq, s, p.int('id', { required: true }), p.int('did', { required: true }));
		Object.assign(y, { status: requiredStatus(p), updatedAt: core.now() });
		return {};
	}),
};

// ---------------------------------------------------------------- init, demo data, control

function init(core) {
	core.state.dns = {
		createdAt: core.now() - 400 * 86400e3,
		groups: GROUPS.map((g) => ({ ...g })),
		plans: PLANS.map((p) => ({ ...p })),
		domains: {},
		records: {},
		monitors: {},
		monitorRecords: {},
		templates: {},
		tempStys: {},
		strategies: {},
	};
}

function seedDemo(core) {
	const owner = core.accountByName('demo');
	if (!owner) return;
	const now = core.now();
	const day = 86400e3;
	const d = makeDomain(core, owner, { name: 'example-demo.com', pid: 2, period: 1, note: 'demo domain' }, now - 60 * day);
	const recs = [
		['@', 'A', 'default', '203.0.113.10'],
		['www', 'CNAME', 'default', 'example-demo.com'],
		['api', 'A', 'default', '203.0.113.20'],
		['api', 'A', 'telecom', '203.0.113.21'],
		['@', 'MX', 'default', 'mail.example-demo.com', 10],
		['mail', 'A', 'default', '203.0.113.30'],
		['@', 'TXT', 'default', 'v=spf1 mx -all'],
	];
	for (const [subdomain, recordtype, recordline, value, mx] of recs) {
		makeRecord(core, d, { subdomain, recordtype, recordline, value, mx: mx || 0, ttl: 600, weight: 1 }, now - 60 * day);
	}
}

/** Control routes (/__emulator/management/dns/...) of one emulator's core. */
function control(core) {
	return {
		/** Force a domain's status { id, status } (1 enabled, 2 paused, 3 abnormal). */
		'POST /dns/domains/status': async (b) => {
			const d = S(core).domains[Number(b.id)];
			if (!d) return { ok: false, error: `no domain ${b.id}` };
			d.status = Number(b.status);
			d.updatedAt = core.now();
			return { ok: true, domain: renderDomain(core, d) };
		},
	};
}

module.exports = {
	group: 'dns',
	name: 'Cloud DNS',
	init,
	seedDemo,
	routes,
	control,
};

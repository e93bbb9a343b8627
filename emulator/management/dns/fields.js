'use strict';
/**
 * Group `dns` (see ../dns.js): record validation, downtime monitors kept in step with the
 * records, the fields of monitors, template records and strategies, and the making of domains,
 * records and plan orders.
 */
const net = require('node:net');
const { ApiError, str } = require('../util');
const {
	YEAR_MS,
	STY_LABELS,
	RECORD_TYPES,
	LINES,
	LINES_OWN,
	S,
	isHostname,
	normSub,
	isSubdomain,
	subdomainParam,
	planById,
	domainById,
	templateById,
	addressRecords,
	flag,
	emails,
	phones,
} = require('./model');

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
		// a notification method of the plan's monitor_notice (docs/vendor/readings.md#r62), not an address
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

module.exports = {
	checkRecord,
	conflicts,
	syncMonitor,
	syncDomainMonitors,
	monitorFields,
	makeDomain,
	makeRecord,
	stFields,
	styFields,
	strategyDomain,
	strategyPlan,
	templateName,
	checkMonitorTarget,
	planOrder,
	payPlanOrder,
};

'use strict';
/**
 * Group `dns` (see ../dns.js): how plans, domains, records, monitors, monitor records, strategy
 * templates, template records and strategies are answered.
 */
const { str } = require('../util');
const { sortDesc, accountName } = require('../common');
const { STY_LABELS, LINES, LINES_OWN, ownLines, lineOut, GROUPS, S, phpSerialize, recordsOf } = require('./model');

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

module.exports = {
	renderPlan,
	renderDomain,
	renderRecord,
	recordAddItem,
	monitorCount,
	renderMonitor,
	renderMonitorRecord,
	renderTemplate,
	renderTempSty,
	renderSty,
};

'use strict';
/**
 * Group `dns` (see ../dns.js): the routes of downtime monitors and their monitor records.
 */
const { ApiError, str } = require('../util');
const { sortDesc, sortAsc, where } = require('../common');
const { route, planById, domainById, monitorById, visibleDomainIds, inVisibleDomains, requiredStatus } = require('./model');
const { syncMonitor, monitorFields, checkMonitorTarget } = require('./fields');
const { renderMonitor, renderMonitorRecord } = require('./render');

const monitorRoutes = {
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
};

module.exports = { monitorRoutes };

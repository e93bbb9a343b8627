'use strict';
/**
 * Group `dns` (see ../dns.js): the routes of plans and domains, and of records.
 */
const { ApiError, str, pageOf } = require('../util');
const { sortDesc, sortAsc, ownedList, where, requireBalance } = require('../common');
const {
	YEAR_MS,
	ownLines,
	lineOut,
	route,
	isDomain,
	normSub,
	planById,
	domainById,
	recordOf,
	recordsOf,
	flag,
	requiredStatus,
} = require('./model');
const { checkRecord, conflicts, syncDomainMonitors, makeDomain, makeRecord, planOrder, payPlanOrder } = require('./fields');
const { renderPlan, renderDomain, renderRecord, recordAddItem } = require('./render');

const domainRoutes = {
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
};

const recordRoutes = {
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
};

module.exports = { domainRoutes, recordRoutes };

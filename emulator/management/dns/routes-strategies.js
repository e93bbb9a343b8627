'use strict';
/**
 * Group `dns` (see ../dns.js): the routes of strategy templates with their template records,
 * and of resolution strategies.
 */
const { ApiError, str } = require('../util');
const { sortDesc, sortAsc, ownedList, where } = require('../common');
const { route, planById, templateById, styById, tempStyById, inVisibleDomains, flag, requiredStatus } = require('./model');
const { stFields, styFields, strategyDomain, strategyPlan, templateName } = require('./fields');
const { renderTemplate, renderTempSty, renderSty } = require('./render');

const templateRoutes = {
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
};

const strategyRoutes = {
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

module.exports = { templateRoutes, strategyRoutes };

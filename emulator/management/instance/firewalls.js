'use strict';
/**
 * Group `instance`, routes of firewalls and their rules.
 */
const { ApiError, str } = require('../util');
const { sortDesc, ownedList, where } = require('../common');
const { route, hostById, firewallById, ruleById, hostsIn, makeFirewall, makeRule } = require('./model');
const { renderFirewall, renderRule } = require('./render');
const { placedFields, updateNameAndNote, joinHost, leaveHost, ruleFields } = require('./params');

const firewallRoutes = {
	// ---- firewalls
	'instance/firewallList': route.list(
		'Firewalls',
		(rq, s) => where(ownedList(rq, s.firewalls, 3), { id: rq.p.int('id'), nodeid: rq.p.int('nodeid') }).sort(sortDesc),
		renderFirewall,
	),

	'instance/firewallAdd': route('Create firewall', (rq) => {
		const fw = makeFirewall(rq.core, rq.owner, placedFields(rq));
		return { data: firewallReply(rq.core, fw) };
	}),

	'instance/firewallUpdate': route('Update firewall', (rq) => {
		const fw = firewallById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, fw);
		return { data: firewallReply(rq.core, fw) };
	}),

	'instance/firewallDelete': route('Delete firewall', (rq, s) => {
		const fw = firewallById(rq, rq.p.int('id', { required: true }));
		const members = hostsIn(rq.core, 'firewallId', fw.id);
		if (members.length) {
			throw new ApiError(`id: firewall ${fw.id} still protects ${members.length} host(s); let them leave it first`);
		}
		for (const r of Object.values(s.rules)) if (r.fid === fw.id) delete s.rules[r.id];
		delete s.firewalls[fw.id];
		return { data: { firewall_id: fw.firewall_id, name: fw.name } };
	}),

	'instance/joinFirewall': route('Join firewall', (rq) => {
		const { p } = rq;
		const fw = firewallById(rq, p.int('fid', { required: true }), 'fid');
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		joinHost(h, 'firewallId', fw, 'firewall');
		return { data: { firewall_id: fw.firewall_id, name: fw.name, instance_id: h.instance_id } };
	}),

	'instance/leaveFirewall': route('Leave firewall', (rq, s) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		const fw = leaveHost(h, 'firewallId', s.firewalls, 'firewall');
		return { data: { firewall_id: fw.firewall_id, name: fw.name, instance_id: h.instance_id } };
	}),

	'instance/firewallRuleList': route.list(
		'Firewall rules',
		(rq, s) => {
			const { p } = rq;
			const id = p.int('id');
			const fid = p.int('fid');
			if (fid !== undefined) firewallById(rq, fid, 'fid');
			const filters = { id, fid, direction: p.oneOf('direction', ['in', 'out']), status: p.oneOf('status', [0, 1]) };
			const visible = new Set(ownedList(rq, s.firewalls, 3).map((fw) => fw.id));
			const rules = Object.values(s.rules).filter((r) => visible.has(r.fid));
			return where(rules, filters).sort((a, b) => a.fid - b.fid || a.seq - b.seq);
		},
		renderRule,
	),

	'instance/firewallRuleAdd': route('Add firewall rule', (rq) => {
		const { p, core } = rq;
		const fw = firewallById(rq, p.int('fid', { required: true }), 'fid');
		const fields = ruleFields(p, null);
		const r = makeRule(core, fw, fields);
		fw.updatedAt = core.now();
		return {
			data: {
				id: str(r.id),
				seq: str(r.seq),
				firewall_id: fw.firewall_id,
				direction: r.direction,
				action: r.action,
				protocol: r.protocol,
				sourceport: str(r.sourceport),
				destport: r.destport,
				source: r.source,
				destination: r.destination,
				status: str(r.status),
				note: r.note,
			},
		};
	}),

	'instance/firewallRuleUpdate': route('Update firewall rule', (rq, s) => {
		const { p, core } = rq;
		const r = ruleById(rq, s, p.int('id', { required: true }));
		const { id, fid, seq, createdAt, ...current } = r;
		const fields = ruleFields(p, current);
		Object.assign(r, fields, { updatedAt: core.now() });
		return { data: renderRule(core, r, true) };
	}),

	'instance/firewallRuleDelete': route('Delete firewall rule', (rq, s) => {
		const r = ruleById(rq, s, rq.p.int('id', { required: true }));
		const out = renderRule(rq.core, r, true);
		delete s.rules[r.id];
		return { data: out };
	}),
};

function firewallReply(core, fw) {
	return {
		id: str(fw.id),
		nodeid: str(fw.nodeid),
		name: fw.name,
		note: fw.note,
		createtime: core.displayTime(fw.createdAt),
		firewall_id: fw.firewall_id,
	};
}

module.exports = {
	firewallRoutes,
};

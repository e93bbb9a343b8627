'use strict';
/**
 * Group `dns` (see ../dns.js): the fresh state (init), the demo data and the control routes.
 */
const { GROUPS, PLANS, S } = require('./model');
const { makeDomain, makeRecord } = require('./fields');
const { renderDomain } = require('./render');

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

module.exports = { init, seedDemo, control };

'use strict';
/**
 * Group `instance`, routes of private networks.
 */
const { ApiError, str } = require('../util');
const { sortDesc, ownedList, where } = require('../common');
const { route, hostById, networkById, hostsIn, makeNetwork } = require('./model');
const { renderNetwork } = require('./render');
const { placedFields, updateNameAndNote, joinHost, leaveHost } = require('./params');

const networkRoutes = {
	// ---- private networks
	'instance/networkList': route.list(
		'Private networks',
		(rq, s) => where(ownedList(rq, s.networks, 4), { id: rq.p.int('id'), nodeid: rq.p.int('nodeid') }).sort(sortDesc),
		renderNetwork,
	),

	'instance/networkAdd': route('Create private network', (rq) => {
		const n = makeNetwork(rq.core, rq.owner, placedFields(rq));
		return { data: networkReply(rq.core, n) };
	}),

	'instance/networkUpdate': route('Update private network', (rq) => {
		const n = networkById(rq, rq.p.int('id', { required: true }));
		updateNameAndNote(rq, n);
		return { data: networkReply(rq.core, n) };
	}),

	'instance/networkDelete': route('Delete private network', (rq, s) => {
		const n = networkById(rq, rq.p.int('id', { required: true }));
		const members = hostsIn(rq.core, 'netId', n.id);
		if (members.length) {
			throw new ApiError(`id: private network ${n.id} still holds ${members.length} host(s); let them leave it first`);
		}
		delete s.networks[n.id];
		return { data: { vxnet_id: n.vxnet_id } };
	}),

	'instance/joinVxnet': route('Join private network', (rq) => {
		const { p } = rq;
		const n = networkById(rq, p.int('id', { required: true }));
		const h = hostById(rq, p.int('iid', { required: true }), 'iid');
		joinHost(h, 'netId', n, 'private network');
		return { data: { vxnet_id: n.vxnet_id, instance_id: h.instance_id } };
	}),

	'instance/leaveVxnet': route('Leave private network', (rq, s) => {
		const h = hostById(rq, rq.p.int('id', { required: true }));
		const n = leaveHost(h, 'netId', s.networks, 'private network');
		return { data: { vxnet_id: n.vxnet_id, instance_id: h.instance_id } };
	}),
};

function networkReply(core, n) {
	return {
		id: str(n.id),
		nodeid: str(n.nodeid),
		name: n.name,
		tag: str(n.tag),
		note: n.note,
		createtime: core.displayTime(n.createdAt),
		vxnet_id: n.vxnet_id,
	};
}

module.exports = {
	networkRoutes,
};

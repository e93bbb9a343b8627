'use strict';
/**
 * Group `profile` (see ../account.js): the route of the operation logs.
 */
const { ApiError, pageOf, str } = require('../util');
const { LOG_TYPES, subaccountsOf } = require('./model');

function readDate(p, name, endOfDay) {
	if (!p.has(name)) return undefined;
	const s = p.str(name).trim();
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
	if (!m) throw new ApiError(`${name} must be a date (Y-m-d or Y-m-d H:i:s)`);
	const [y, mo, d, hh, mi, ss] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
	const ms = Date.UTC(y, mo - 1, d, hh || 0, mi || 0, ss || 0);
	const dt = new Date(ms);
	if (dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) throw new ApiError(`${name} is not a valid date`);
	if (!endOfDay) return ms;
	if (hh === undefined) return ms + 86400000 - 1;
	return ms + (ss === undefined ? 59999 : 999);
}

const logRoutes = {
	'profile/logs': {
		label: 'Operation logs',
		read: true,
		handler(rq) {
			const { p, core, owner, user } = rq;
			const type = p.has('type') ? p.oneOf('type', LOG_TYPES) : undefined;
			const start = readDate(p, 'start', false);
			const end = readDate(p, 'end', true);
			if (start !== undefined && end !== undefined && start > end) throw new ApiError('start must not be later than end');
			const uids = new Set(user.parent ? [user.uid] : [owner.uid, ...subaccountsOf(core, owner).map((a) => a.uid)]);
			const items = core.state.logs
				.filter(
					(l) =>
						uids.has(l.uid) &&
						(type === undefined || l.type === type) &&
						(start === undefined || l.createdAt >= start) &&
						(end === undefined || l.createdAt <= end),
				)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (l) => ({
					id: str(l.id),
					uid: str(l.uid),
					type: l.type,
					ip: l.ip,
					op: l.op,
					title: l.title,
					content: l.content,
					...core.stamp(l.createdAt),
				}),
			});
		},
	},
};

module.exports = { logRoutes };

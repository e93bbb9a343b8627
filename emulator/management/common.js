'use strict';
/**
 * Building blocks the groups of the management interface share: route builders, look-ups of
 * the caller's objects with the sub-account permission check, list filters, the balance check
 * before an order and the error handling of control routes.
 */
const { ApiError, pageOf, money } = require('./util');

/** Newest first (ids grow with time). */
const sortDesc = (a, b) => b.id - a.id;
/** Oldest first. */
const sortAsc = (a, b) => a.id - b.id;

/**
 * The route builder of a group whose handlers take `(rq, s)`, `s` being the group's state slice
 * `slice(core)`; `before(core)`, when given, runs before every handler (e.g. lazy transitions).
 *
 *   route(label, (rq, s) => ({ data }), { read: true })
 *   route.list(label, (rq, s) => items, renderItem, pageOptions?)
 *
 * `route.list` is a read-only paged list: `select` reads the filters and returns the items in
 * order, `render(core, item)` renders those of the requested page (see pageOf).
 */
function routeBuilder(slice, before) {
	function route(label, handler, opts = {}) {
		return {
			label,
			...opts,
			handler(rq) {
				if (before) before(rq.core);
				return handler(rq, slice(rq.core));
			},
		};
	}
	route.list = (label, select, render, pageOptions = {}) =>
		route(label, (rq, s) => pageOf(select(rq, s), rq.p, { ...pageOptions, render: (x) => render(rq.core, x) }), { read: true });
	return route;
}

/** Refuses a sub-account without resource permission `permType` (1..6) for `what` `id`. */
function requireAccess(rq, permType, what, id) {
	if (!rq.core.canAccess(rq.user, permType, id)) {
		throw new ApiError(`permission denied: this sub-account may not use ${what} ${id}`);
	}
}

/**
 * The caller's object `id` of `coll` (an object keyed by id). It must belong to the main account
 * the caller works for (and pass `match`), else "<param>: <what> <id> does not exist"; with
 * `permType` a sub-account needs that resource permission for it.
 */
function owned(rq, coll, id, { param = 'id', what, permType, match } = {}) {
	const obj = coll[id];
	if (!obj || (match && !match(obj)) || obj.uid !== rq.owner.uid) throw new ApiError(`${param}: ${what} ${id} does not exist`);
	if (permType) requireAccess(rq, permType, what, id);
	return obj;
}

/**
 * An object that belongs to the caller through its parent (a firewall rule through its
 * firewall, a monitor through its domain): `obj[parentKey]` names the parent in `parents`,
 * which must be the owner's. When the request names the parent too (`parentId`), the object
 * must be in that one. With `permType` a sub-account needs that permission for the parent.
 */
function ownedChild(rq, coll, id, { param = 'id', what, parents, parentKey, parentWhat, parentId, permType }) {
	const obj = coll[id];
	const parent = obj && parents[obj[parentKey]];
	if (!parent || parent.uid !== rq.owner.uid || (parentId !== undefined && obj[parentKey] !== parentId)) {
		throw new ApiError(`${param}: ${what} ${id} does not exist${parentId !== undefined ? ` in ${parentWhat} ${parentId}` : ''}`);
	}
	if (permType) requireAccess(rq, permType, parentWhat, parent.id);
	return obj;
}

/** The objects of `coll` the caller may see: the owner's, narrowed by resource permission `permType`. */
function ownedList(rq, coll, permType) {
	return Object.values(coll).filter((x) => x.uid === rq.owner.uid && (!permType || rq.core.canAccess(rq.user, permType, x.id)));
}

/** Keeps the items whose fields equal each filter value given; an undefined filter keeps all. */
function where(items, filters) {
	const given = Object.entries(filters).filter(([, v]) => v !== undefined);
	return items.filter((x) => given.every(([k, v]) => x[k] === v));
}

/** The name of account `uid`, '' when there is none. */
function accountName(core, uid) {
	const account = core.account(uid);
	return account ? account.name : '';
}

/** An order is refused up front when the balance does not cover it. */
function requireBalance(core, owner, amount) {
	const bal = core.balanceOf(owner.uid);
	if (!bal || Number(bal.price) < amount) {
		throw new ApiError(`insufficient balance: the order costs ${money(amount)}, please recharge first`);
	}
}

/** A control route `fn(body)` whose ApiError is answered as `{ error }` (HTTP 200). */
function controlRoute(fn) {
	return async (b) => {
		try {
			return await fn(b || {});
		} catch (err) {
			if (err instanceof ApiError) return { error: err.message };
			throw err;
		}
	};
}

module.exports = {
	sortDesc,
	sortAsc,
	routeBuilder,
	requireAccess,
	owned,
	ownedChild,
	ownedList,
	where,
	accountName,
	requireBalance,
	controlRoute,
};

'use strict';
/**
 * Group `profile` (see ../account.js): the routes of groups and of their permissions (group
 * roles), with the look-ups of permission entries.
 */
const { ApiError, pageOf, str } = require('../util');
const { slice, renderGroup, groupById, subaccountsOf } = require('./model');

const groupRoutes = {
	'profile/groupList': {
		label: 'List groups',
		read: true,
		handler(rq) {
			const name = rq.p.str('name', { max: 64 });
			const items = slice(rq.core)
				.groups.filter((g) => g.uid === rq.owner.uid && (!name || g.name.toLowerCase().includes(name.toLowerCase())))
				.sort((a, b) => b.id - a.id);
			return pageOf(items, rq.p, {
				render: (g) => ({ ...renderGroup(g), username: rq.owner.name, created_ago: rq.core.ago(g.createdAt) }),
			});
		},
	},
	'profile/groupAdd': {
		label: 'Add group',
		handler(rq) {
			const { p, core, owner } = rq;
			const name = p.str('name', { required: true, max: 64 }).trim();
			const note = p.str('note', { max: 255, def: '' });
			if (slice(core).groups.some((g) => g.uid === owner.uid && g.name === name))
				throw new ApiError(`name: a group named ${name} already exists`);
			const g = { id: core.nextId('group'), uid: owner.uid, name, note, createdAt: core.now() };
			slice(core).groups.push(g);
			return { data: renderGroup(g) };
		},
	},
	'profile/groupUpdate': {
		label: 'Update group',
		handler(rq) {
			const { p, core, owner } = rq;
			const g = groupById(core, owner, p.int('id', { required: true }));
			if (p.has('name')) {
				const name = p.str('name', { max: 64 }).trim();
				if (slice(core).groups.some((x) => x !== g && x.uid === owner.uid && x.name === name))
					throw new ApiError(`name: a group named ${name} already exists`);
				g.name = name;
			}
			if (p.raw('note') !== undefined) g.note = p.str('note', { max: 255, def: '' });
			return { data: renderGroup(g) };
		},
	},
	'profile/groupDelete': {
		label: 'Delete group',
		handler(rq) {
			const { p, core, owner } = rq;
			const g = groupById(core, owner, p.int('id', { required: true }));
			const members = subaccountsOf(core, owner).filter((a) => Number(a.gid) === g.id);
			if (members.length) throw new ApiError(`id: group ${g.id} still holds sub-accounts (${members.map((a) => a.name).join(', ')})`);
			const s = slice(core);
			s.groups = s.groups.filter((x) => x !== g);
			s.groupRoles = s.groupRoles.filter((e) => Number(e.gid) !== g.id);
			return {};
		},
	},
};

const roleRoutes = {
	'profile/groupPermissions': {
		label: 'List permissions',
		read: true,
		handler(rq) {
			return { data: rq.core.permissionCatalogue() };
		},
	},
	'profile/groupRoleList': {
		label: 'List group permissions',
		read: true,
		handler(rq) {
			const { p, core, owner } = rq;
			const gid = p.int('gid');
			if (gid !== undefined) groupById(core, owner, gid, 'gid');
			const mine = new Map(
				slice(core)
					.groups.filter((g) => g.uid === owner.uid)
					.map((g) => [g.id, g]),
			);
			const items = slice(core).groupRoles.filter((e) => mine.has(Number(e.gid)) && (gid === undefined || Number(e.gid) === gid));
			return {
				data: items.map((e) => ({
					id: str(e.id),
					group: renderGroup(mine.get(Number(e.gid))),
					value: e.value,
					...core.stamp(e.createdAt),
				})),
			};
		},
	},
	'profile/groupRoleAdd': {
		label: 'Grant group permissions',
		handler(rq) {
			const { p, core, owner } = rq;
			const g = groupById(core, owner, p.int('gid', { required: true }), 'gid');
			const values = p.array('value', { required: true, of: 'string' });
			if (!values.length) throw new ApiError('value must hold at least one permission path');
			const known = knownPermissions(core);
			for (const v of values) if (!known.has(v)) throw new ApiError(`value: ${v} is not a known permission`);
			const out = [];
			for (const v of [...new Set(values)]) {
				let e = slice(core).groupRoles.find((x) => Number(x.gid) === g.id && x.value === v);
				if (!e) {
					e = { id: core.nextId('groupRole'), gid: g.id, value: v, uid: owner.uid, createdAt: core.now() };
					slice(core).groupRoles.push(e);
				}
				out.push(renderRole(core, e));
			}
			return { data: out };
		},
	},
	'profile/groupRoleUpdate': {
		label: 'Update group permission',
		handler(rq) {
			const { p, core, owner } = rq;
			const e = roleById(core, owner, p.int('id', { required: true }));
			const gid = p.int('gid');
			if (gid !== undefined) groupById(core, owner, gid, 'gid');
			const value = p.str('value', { required: true });
			if (!knownPermissions(core).has(value)) throw new ApiError(`value: ${value} is not a known permission`);
			if (gid !== undefined) e.gid = gid;
			e.value = value;
			return { data: renderRole(core, e) };
		},
	},
	'profile/groupRoleDelete': {
		label: 'Revoke group permissions',
		handler(rq) {
			const { p, core, owner } = rq;
			const ids = p.array('id', { required: true, of: 'int' });
			for (const id of ids) roleById(core, owner, id);
			const drop = new Set(ids);
			slice(core).groupRoles = slice(core).groupRoles.filter((e) => !drop.has(Number(e.id)));
			return {};
		},
	},
};

function renderRole(core, e) {
	return { id: str(e.id), gid: str(e.gid), value: e.value, ...core.stamp(e.createdAt) };
}

function roleById(core, owner, id) {
	const e = slice(core).groupRoles.find((x) => Number(x.id) === Number(id));
	const g = e && slice(core).groups.find((x) => x.id === Number(e.gid));
	if (!e || !g || g.uid !== owner.uid) throw new ApiError(`id: permission entry ${id} does not exist`);
	return e;
}

function knownPermissions(core) {
	const out = new Set();
	for (const mod of Object.values(core.permissionCatalogue())) for (const path of Object.keys(mod.subs)) out.add(path);
	return out;
}

module.exports = { groupRoutes, roleRoutes };

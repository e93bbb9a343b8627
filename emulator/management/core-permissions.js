'use strict';
/**
 * Sub-account permissions of the management interface: the paths a sub-account may always call,
 * the core's canAccess and permissionCatalogue (mixed into the core by core-accounts.js), and
 * the group permissions handle() (core-router.js) checks every call of a sub-account against.
 */

/** Paths a sub-account may always call, whatever its group grants. */
const ALWAYS_ALLOWED = new Set(['profile/detail', 'profile/passwordUpdate', 'profile/pictureUpdate']);

/** canAccess and permissionCatalogue of the core; getModules() is the mounted groups. */
function permissionMethods(getModules) {
	return {
		/** Whether a sub-account may act on resource `id` of permission type 1..6 (subaccountPerm). */
		canAccess(user, type, id) {
			if (!user.parent) return true;
			const list = user.perms && user.perms[type];
			if (!list || list.length === 0) return true;
			return list.map(Number).includes(Number(id));
		},
		/** Permission catalogue of profile/groupPermissions, built from the routes. */
		permissionCatalogue() {
			const out = {};
			for (const mod of getModules()) {
				const subs = {};
				for (const [path, route] of Object.entries(mod.routes)) {
					if (route.noToken) continue;
					subs[`API/${path}`] = route.label;
				}
				out[mod.group] = { module: mod.group, name: mod.name, subs };
			}
			return out;
		},
	};
}

/** allowedPaths(user) of `core`. */
function createAllowedPaths(core) {
	/** The group permissions of a sub-account (profile/groupRole* entries of its group). */
	function allowedPaths(user) {
		const entries = (core.state.account && core.state.account.groupRoles) || [];
		return new Set(entries.filter((e) => Number(e.gid) === Number(user.gid)).map((e) => e.value));
	}

	return allowedPaths;
}

module.exports = { ALWAYS_ALLOWED, permissionMethods, createAllowedPaths };

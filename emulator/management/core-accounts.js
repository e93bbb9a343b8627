'use strict';
/**
 * The core object of the management interface (see the header of index.js), which every group
 * gets as `core`: the clock and display times, ids, accounts, balances and payments (charge)
 * and the operation log; its permission methods come from core-permissions.js, its log-in
 * methods from core-tokens.js.
 */
const { ApiError, Params, displayTime, ago, str } = require('./util');
const { permissionMethods } = require('./core-permissions');
const { tokenMethods } = require('./core-tokens');

/**
 * The core of emulator `emu`: getState() is the current state (index.js replaces it on reset
 * and restore), getModules() the mounted groups.
 */
function createCore(emu, settings, getState, getModules) {
	const core = {
		emu,
		settings,
		get state() {
			return getState();
		},
		now: () => emu.clock.now(),
		displayTime,
		ago: (ms) => ago(ms, emu.clock.now()),
		str,
		ApiError,
		Params,
		nextId(kind, start = 1) {
			core.state.seq[kind] = (core.state.seq[kind] || start - 1) + 1;
			return core.state.seq[kind];
		},
		/** `<key>` and `<key>_ago` display fields of a time: { created, created_ago } by default. */
		stamp(ms = emu.clock.now(), key = 'created') {
			return { [key]: displayTime(ms), [`${key}_ago`]: ago(ms, emu.clock.now()) };
		},
		/** settings.timing[key] (ms of emulator time), `def` when it is not configured. */
		timing(key, def) {
			const v = settings.timing[key];
			return v === undefined ? def : Number(v);
		},
	};
	return Object.assign(
		core,
		accountMethods(core),
		billingMethods(core),
		permissionMethods(getModules),
		tokenMethods(core, emu, settings),
		{ routes: {} },
	);
}

/** Accounts: createAccount, account, accountByName, controlAccount, ownerOf, balanceOf. */
function accountMethods(core) {
	return {
		createAccount({ username, password, mail = '', phone = '', balance = 0, parent = null, gid = 0, status = 1 }) {
			if (Object.values(core.state.accounts).some((a) => a.name === username)) {
				throw new ApiError(`username ${username} is already taken`);
			}
			const uid = core.nextId('uid', 10001);
			const account = {
				uid,
				name: username,
				password,
				mail,
				phone,
				status,
				parent,
				gid,
				perms: {},
				profile: {},
				createdAt: core.now(),
				updatedAt: core.now(),
			};
			core.state.accounts[uid] = account;
			if (!parent) {
				core.state.balances[uid] = {
					price: Number(balance).toFixed(2),
					status: '1',
					alarm: '0',
					alarm_num: '0',
					send_num: '0',
					alarm_value: '0.00',
				};
			}
			return account;
		},
		account(uid) {
			return core.state.accounts[uid];
		},
		accountByName(name) {
			return Object.values(core.state.accounts).find((a) => a.name === name);
		},
		/** The account a control route names with `uid` or `username` (the demo account when neither). */
		controlAccount(b) {
			return b.uid ? core.account(Number(b.uid)) : core.accountByName(b.username || 'demo');
		},
		/** Main account whose resources a (sub-)account works on. */
		ownerOf(account) {
			return account.parent ? core.state.accounts[account.parent] : account;
		},
		balanceOf(ownerUid) {
			return core.state.balances[ownerUid];
		},
	};
}

/** Balances, payments and the operation log: onCharge, charge, log. */
function billingMethods(core) {
	return {
		/** Called as fn(core, owner, payment) after every charge (see the header). */
		onCharge: [],
		/** Consumption lowers the balance and leaves a payment record (profile/payList). */
		charge(owner, { price, paytype, bid = 0, name, type = 1 }) {
			const bal = core.state.balances[owner.uid];
			const amount = Number(price);
			if (type === 1 && Number(bal.price) < amount) throw new ApiError('insufficient balance, please recharge first');
			const delta = type === 2 ? amount : -amount;
			bal.price = (Number(bal.price) + (type === 1 || type === 2 ? delta : 0)).toFixed(2);
			const rec = {
				id: core.nextId('payment'),
				uid: owner.uid,
				name,
				code: `P${Date.now().toString(36).toUpperCase()}${core.nextId('paycode')}`,
				type,
				paytype,
				bid,
				price: amount.toFixed(2),
				status: 1,
				createdAt: core.now(),
			};
			core.state.payments.push(rec);
			for (const fn of core.onCharge) fn(core, owner, rec);
			return rec;
		},
		log(user, type, title, content, ip = '127.0.0.1', op = '') {
			core.state.logs.push({
				id: core.nextId('log'),
				uid: user.uid,
				type,
				ip,
				op,
				title,
				content,
				createdAt: core.now(),
			});
		},
	};
}

module.exports = { createCore };

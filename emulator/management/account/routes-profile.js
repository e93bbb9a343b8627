'use strict';
/**
 * Group `profile` (see ../account.js): the routes of the caller's own account and of its
 * sub-accounts, with the checks of a profile or sub-account save.
 */
const { ApiError, pageOf, str } = require('../util');
const {
	CDN_TYPES,
	BILL_TYPES,
	MAIL_RE,
	PHONE_RE,
	USERNAME_RE,
	renderProfile,
	groupById,
	subaccountsOf,
	renderSubaccount,
} = require('./model');
const { couponBalance } = require('./billing');

/** Reads the 0/1 flags and plain strings of a profile save into `profile`. */
function applyProfile(p, profile, { strings, flags, lists }) {
	for (const f of strings) if (p.raw(f) !== undefined) profile[f] = p.str(f, { max: 255, def: '' });
	for (const f of flags) if (p.has(f)) profile[f] = str(p.oneOf(f, [0, 1]));
	for (const f of lists) {
		if (p.raw(f) === undefined) continue;
		const v = p.str(f, { max: 1000, def: '' });
		const items = v
			.split(',')
			.map((x) => x.trim())
			.filter(Boolean);
		const re = f === 'other_mail' ? MAIL_RE : PHONE_RE;
		for (const x of items)
			if (!re.test(x)) throw new ApiError(`${f}: ${x} is not a valid ${f === 'other_mail' ? 'e-mail address' : 'phone number'}`);
		profile[f] = items.join(',');
	}
}

function readCdnconfig(p) {
	const list = p.array('cdnconfig');
	if (list === undefined) return undefined;
	return list.map((item, i) => {
		if (!item || typeof item !== 'object' || Array.isArray(item)) throw new ApiError(`cdnconfig[${i}] must be an object {type, billtype}`);
		if (!CDN_TYPES.includes(item.type)) throw new ApiError(`cdnconfig[${i}].type must be one of ${CDN_TYPES.join(', ')}`);
		const billtype = item.billtype === undefined || item.billtype === '' ? 'flow' : item.billtype;
		if (!BILL_TYPES.includes(billtype)) throw new ApiError(`cdnconfig[${i}].billtype must be one of ${BILL_TYPES.join(', ')}`);
		return { type: item.type, billtype };
	});
}

function checkPassword(password, password2, pName = 'password', p2Name = 'password2') {
	if (password.length < 8) throw new ApiError(`${pName} must be at least 8 characters`);
	if (password !== password2) throw new ApiError(`${p2Name} does not match ${pName}`);
}

function requireMain(rq, what) {
	if (rq.user.parent) throw new ApiError(`a sub-account cannot ${what}`);
}

const SUB_STRINGS = ['tel', 'fax', 'card', 'address', 'company', 'contactname', 'business', 'website', 'industry', 'apptype', 'qq'];
const MAIN_STRINGS = ['tel', 'fax', 'card', 'address', 'company', 'business', 'website', 'contactname', 'qq'];
const FLAGS = ['recieve_mail', 'recieve_sms', 'daily_report', 'week_report', 'month_report'];
const LISTS = ['other_mail', 'other_phone'];

function saveSubaccount(rq) {
	const { core, p, owner } = rq;
	requireMain(rq, 'create or modify sub-accounts');
	const uidRaw = rq.body.uid;
	const creating = uidRaw === '' || uidRaw === null || uidRaw === 0 || uidRaw === '0';
	const gid = p.int('gid', { min: 0 });
	if (gid) groupById(core, owner, gid, 'gid');
	const status = p.has('status') ? p.oneOf('status', [0, 1]) : undefined;
	const cdnconfig = readCdnconfig(p);
	const mail = p.str('mail', { max: 128 });
	if (mail !== undefined && !MAIL_RE.test(mail)) throw new ApiError('mail is not a valid e-mail address');
	const phone = p.str('phone', { max: 32 });
	if (phone !== undefined && !PHONE_RE.test(phone)) throw new ApiError('phone is not a valid phone number');
	let account;
	if (creating) {
		const username = p.str('username', { required: true, max: 32 });
		if (!USERNAME_RE.test(username)) throw new ApiError('username must start with a letter and hold 4-32 letters, digits or _');
		const password = p.str('password', { required: true });
		checkPassword(password, p.str('password2', { def: '' }));
		account = core.createAccount({
			username,
			password,
			mail: mail || '',
			phone: phone || '',
			parent: owner.uid,
			gid: gid || 0,
			status: status ?? 1,
		});
		account.platform = 2;
		account.cdnconfig = cdnconfig || [];
	} else {
		const uid = p.int('uid', { min: 1 });
		account = core.account(uid);
		if (!account || account.parent !== owner.uid) throw new ApiError(`uid: ${uid} is not a sub-account of this account`);
		if (p.has('username') && p.str('username') !== account.name) {
			const username = p.str('username', { max: 32 });
			if (!USERNAME_RE.test(username)) throw new ApiError('username must start with a letter and hold 4-32 letters, digits or _');
			if (core.accountByName(username)) throw new ApiError(`username ${username} is already taken`);
			account.name = username;
		}
		if (p.has('password')) {
			const password = p.str('password');
			checkPassword(password, p.str('password2', { def: '' }));
			account.password = password;
		}
		if (mail !== undefined) account.mail = mail;
		if (phone !== undefined) account.phone = phone;
		if (gid !== undefined) account.gid = gid;
		if (status !== undefined) account.status = status;
		if (cdnconfig !== undefined) account.cdnconfig = cdnconfig;
	}
	applyProfile(p, account.profile, { strings: SUB_STRINGS, flags: FLAGS, lists: LISTS });
	account.updatedAt = core.now();
	return { data: { uid: str(account.uid), name: account.name, mail: account.mail, phone: account.phone } };
}

const profileRoutes = {
	'profile/detail': {
		label: 'Account details',
		read: true,
		handler(rq) {
			const { core, user, owner } = rq;
			const bal = core.balanceOf(owner.uid);
			return {
				data: {
					uid: str(user.uid),
					name: user.name,
					mail: user.mail,
					status: str(user.status),
					profile: renderProfile(user),
					balance: { ...bal },
					couponprice: couponBalance(core, owner),
					subaccounts: user.parent
						? []
						: subaccountsOf(core, owner).map((a) => ({
								uid: str(a.uid),
								name: a.name,
								mail: a.mail,
								status: str(a.status),
								profile: renderProfile(a),
								couponprice: '0.00',
								gid: str(a.gid || 0),
							})),
				},
			};
		},
	},
	'profile/update': {
		label: 'Update profile or save sub-account',
		handler(rq) {
			if (Object.prototype.hasOwnProperty.call(rq.body, 'uid')) return saveSubaccount(rq);
			const { user, core, p } = rq;
			applyProfile(p, user.profile, { strings: MAIN_STRINGS, flags: FLAGS, lists: LISTS });
			user.updatedAt = core.now();
			return { data: { phone: user.phone } };
		},
	},
	'profile/pictureUpdate': {
		label: 'Update avatar',
		handler(rq) {
			const picture = rq.p.str('picture', { required: true, max: 512 });
			if (!/^(https?:\/\/\S+|\/\S*)$/.test(picture)) throw new ApiError('picture must be an http(s) address or a path');
			rq.user.profile.picture = picture;
			rq.user.updatedAt = rq.core.now();
			return { data: { picture } };
		},
	},
	'profile/passwordUpdate': {
		label: 'Change password',
		handler(rq) {
			const { p, user, core } = rq;
			const old = p.str('old_password', { required: true });
			const next = p.str('new_password', { required: true });
			const next2 = p.str('new_password2', { required: true });
			if (old !== user.password && old !== core.encodePassword(user.password)) throw new ApiError('old_password is incorrect');
			checkPassword(next, next2, 'new_password', 'new_password2');
			user.password = next;
			user.updatedAt = core.now();
			return {};
		},
	},
	'profile/mailUpdate': {
		label: 'Change e-mail',
		handler(rq) {
			const mail = rq.p.str('mail', { required: true, max: 128 });
			if (!MAIL_RE.test(mail)) throw new ApiError('mail is not a valid e-mail address');
			rq.user.mail = mail;
			rq.user.updatedAt = rq.core.now();
			return { data: { mail } };
		},
	},
	'profile/phoneUpdate': {
		label: 'Change phone',
		handler(rq) {
			const phone = rq.p.str('phone', { required: true, max: 32 });
			if (!PHONE_RE.test(phone)) throw new ApiError('phone is not a valid phone number');
			rq.user.phone = phone;
			rq.user.updatedAt = rq.core.now();
			return { data: { phone } };
		},
	},
	'profile/subaccountList': {
		label: 'List sub-accounts',
		read: true,
		handler(rq) {
			return pageOf(subaccountsOf(rq.core, rq.owner), rq.p, { render: (a) => renderSubaccount(rq.core, a) });
		},
	},
	'profile/subaccountPerm': {
		label: 'Set sub-account resource permissions',
		handler(rq) {
			const { p, core, owner } = rq;
			requireMain(rq, 'set sub-account permissions');
			const uid = p.int('uid', { required: true, min: 1 });
			const account = core.account(uid);
			if (!account || account.parent !== owner.uid) throw new ApiError(`uid: ${uid} is not a sub-account of this account`);
			const perms = p.object('perms', { required: true });
			const out = {};
			for (const [type, ids] of Object.entries(perms)) {
				if (!/^[1-6]$/.test(type)) throw new ApiError(`perms: type ${type} must be one of 1-6`);
				if (!Array.isArray(ids)) throw new ApiError(`perms.${type} must be an array of ids`);
				for (const id of ids) if (!/^\d+$/.test(String(id))) throw new ApiError(`perms.${type} must hold integer ids`);
				out[type] = ids.map(Number);
			}
			account.perms = out;
			account.updatedAt = core.now();
			return {};
		},
	},
};

module.exports = { profileRoutes };

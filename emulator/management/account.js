'use strict';
/**
 * Account, sub-account, group and billing operations (`API/profile/...`,
 * docs/vendor/account-billing-cdn.md).
 *
 * State slice `state.account`:
 *   groups      [{ id, uid, name, note, createdAt }]
 *   groupRoles  [{ id, gid, value: 'API/<group>/<op>', uid, createdAt }]   (read by the core's
 *               permission check, so the shape of these entries must stay as it is)
 *   recharges   [{ id, uid, price, type, status, code, createdAt }]
 *   invoices    [{ id, uid, title, price, type, invoicetype, status, ..., createdAt }]
 *   coupons     [{ id, uid (0 = not yet claimed), couponid, name, status, price, priceover,
 *                  createdAt, endAt }]
 * Accounts, balances, payments and logs live in the core's slices.
 *
 * Choices where the documents are silent (the emulator's, not the vendor's):
 *   - a sub-account (account with `parent`) is created or changed through profile/update with a
 *     `uid` key (empty creates); sub-accounts cannot manage sub-accounts, groups or billing of
 *     other accounts: everything acts on the main account (`rq.owner`);
 *   - coupon status is computed on read: an unused or activated coupon whose end time has
 *     passed reads as 4 (expired); an activated coupon spent down to 0 is 2 (used);
 *     `couponprice` is the sum of `priceover` of the activated coupons;
 *   - invoice balance = consumption payments − refunds − invoices not rejected (status 2);
 *     invoice status 0 applied, 1 sent, 2 rejected;
 *   - `profile/balance` answers `data: [{ price }]` with `total` "1";
 *   - balance alarm: after every `core.charge`, when `alarm` is 1 and the balance is below
 *     `alarm_value`, `send_num` goes up (at most `alarm_num` times) and a `finance` log entry
 *     "Balance alarm" is written; profile/balanceAlarm and a recharge above the threshold
 *     re-arm it (send_num 0).
 */
const { ApiError, pageOf, str, displayTime, round2, money } = require('./util');
const { controlRoute } = require('./common');

const CDN_TYPES = ['cloud', 'download', 'hls', 'music', 'live', 'static'];
const BILL_TYPES = ['flow', 'bandwidth', 'peak95'];

const RECHARGE_TYPES = { 1: 'Alipay', 2: 'Online banking', 3: 'Offline transfer', 4: 'System recharge', 5: 'Invitation reward' };
const PAY_TYPES = { 1: 'Consumption', 2: 'Refund', 3: 'Invoice amount', 4: 'Coupon' };
const PAY_PAYTYPES = {
	1: 'Cloud host',
	2: 'Cloud disk',
	3: 'Cloud host backup',
	5: 'Content delivery',
	6: 'CDN traffic package',
	7: 'Cloud DNS',
	8: 'Other',
	9: 'Physical cloud host',
};
const LOG_TYPES = ['user', 'finance', 'instance', 'webcdn', 'dns'];
const PLATFORMS = { 1: 'Console', 2: 'API' };

const MAIL_RE = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/;
const PHONE_RE = /^\+?[0-9][0-9 -]{4,19}$/;
const USERNAME_RE = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/** Profile fields of profile/detail (main and sub-accounts). */
const PROFILE_FIELDS = [
	'picture',
	'contactname',
	'phone',
	'tel',
	'fax',
	'card',
	'address',
	'company',
	'website',
	'qq',
	'other_mail',
	'other_phone',
	'daily_report',
	'month_report',
	'week_report',
];
const SUB_PROFILE_EXTRA = ['verify_phone', 'verify_mail', 'industry', 'apptype', 'business'];
const PROFILE_DEFAULTS = {
	daily_report: '0',
	week_report: '0',
	month_report: '0',
	recieve_mail: '1',
	recieve_sms: '1',
	verify_phone: '0',
	verify_mail: '0',
};

function slice(core) {
	return core.state.account;
}

function profileValue(account, field) {
	if (field === 'phone') return str(account.phone);
	const v = account.profile && account.profile[field];
	return v === undefined ? PROFILE_DEFAULTS[field] || '' : str(v);
}

function renderProfile(account) {
	const out = {};
	const fields = account.parent ? [...PROFILE_FIELDS, ...SUB_PROFILE_EXTRA] : PROFILE_FIELDS;
	for (const f of fields) out[f] = profileValue(account, f);
	return out;
}

function renderGroup(g) {
	return g ? { id: str(g.id), uid: str(g.uid), name: g.name, note: g.note, created: displayTime(g.createdAt) } : null;
}

function groupById(core, owner, id, param = 'id') {
	const g = slice(core).groups.find((x) => x.id === Number(id) && x.uid === owner.uid);
	if (!g) throw new ApiError(`${param}: group ${id} does not exist`);
	return g;
}

function subaccountsOf(core, owner) {
	return Object.values(core.state.accounts)
		.filter((a) => a.parent === owner.uid)
		.sort((a, b) => a.uid - b.uid);
}

function renderSubaccount(core, a) {
	const g = slice(core).groups.find((x) => x.id === Number(a.gid));
	const platform = a.platform || 2;
	return {
		uid: str(a.uid),
		name: a.name,
		mail: a.mail,
		created: displayTime(a.createdAt),
		picture: profileValue(a, 'picture'),
		contactname: profileValue(a, 'contactname'),
		phone: str(a.phone),
		verify_phone: profileValue(a, 'verify_phone'),
		verify_mail: profileValue(a, 'verify_mail'),
		tel: profileValue(a, 'tel'),
		fax: profileValue(a, 'fax'),
		card: profileValue(a, 'card'),
		address: profileValue(a, 'address'),
		company: profileValue(a, 'company'),
		industry: profileValue(a, 'industry'),
		apptype: profileValue(a, 'apptype'),
		business: profileValue(a, 'business'),
		website: profileValue(a, 'website'),
		qq: profileValue(a, 'qq'),
		recieve_mail: profileValue(a, 'recieve_mail'),
		recieve_sms: profileValue(a, 'recieve_sms'),
		platform: str(platform),
		...core.stamp(a.updatedAt, 'updatetime'),
		other_mail: profileValue(a, 'other_mail'),
		platform_zh: PLATFORMS[platform] || 'API',
		group: renderGroup(g),
		gid: str(a.gid || 0),
		status: str(a.status),
	};
}

/** Effective coupon status: end time and spent amount decide expired / used. */
function couponStatus(core, c) {
	if (c.status === 0 || c.status === 1) {
		if (c.endAt && c.endAt <= core.now()) return 4;
		if (c.status === 1 && Number(c.priceover) <= 0) return 2;
	}
	return c.status;
}

function couponBalance(core, owner) {
	let sum = 0;
	for (const c of slice(core).coupons) {
		if (c.uid === owner.uid && couponStatus(core, c) === 1) sum += Number(c.priceover);
	}
	return money(sum);
}

/** Spends `amount` of the owner's activated coupons, oldest end time first. */
function spendCoupons(core, owner, amount) {
	let left = Number(amount);
	if (left > Number(couponBalance(core, owner)) + 1e-9) {
		throw new ApiError(`couponprice ${money(amount)} exceeds the coupon balance ${couponBalance(core, owner)}`);
	}
	const usable = slice(core)
		.coupons.filter((c) => c.uid === owner.uid && couponStatus(core, c) === 1)
		.sort((a, b) => (a.endAt || Infinity) - (b.endAt || Infinity) || a.id - b.id);
	for (const c of usable) {
		if (left <= 0) break;
		const take = Math.min(left, Number(c.priceover));
		c.priceover = money(Number(c.priceover) - take);
		left = round2(left - take);
		if (Number(c.priceover) <= 0) c.status = 2;
	}
}

function invoiceBalance(core, owner) {
	let sum = 0;
	for (const p of core.state.payments) {
		if (p.uid !== owner.uid) continue;
		if (Number(p.type) === 1) sum += Number(p.price);
		if (Number(p.type) === 2) sum -= Number(p.price);
	}
	for (const inv of slice(core).invoices) if (inv.uid === owner.uid && inv.status !== 2) sum -= Number(inv.price);
	return Math.max(0, round2(sum));
}

function checkBalanceAlarm(core, owner) {
	const bal = core.balanceOf(owner.uid);
	if (!bal) return;
	if (Number(bal.price) >= Number(bal.alarm_value)) {
		bal.send_num = '0';
		return;
	}
	if (bal.alarm !== '1' || Number(bal.send_num) >= Number(bal.alarm_num)) return;
	bal.send_num = str(Number(bal.send_num) + 1);
	core.log(
		owner,
		'finance',
		'Balance alarm',
		`balance ${bal.price} is below the alarm value ${bal.alarm_value}`,
		'127.0.0.1',
		'profile/balanceAlarm',
	);
}

/** A recharge record only (history: the balance is not touched). */
function recordRecharge(core, owner, { price, type = 4, status = 1, createdAt = core.now() }) {
	const id = core.nextId('recharge');
	const rec = {
		id,
		uid: owner.uid,
		price: money(price),
		type: Number(type),
		status,
		code: `R${displayTime(createdAt).replace(/\D/g, '').slice(0, 8)}${String(id).padStart(6, '0')}`,
		createdAt,
	};
	slice(core).recharges.push(rec);
	return rec;
}

/** A recharge: its record, and a completed one (status 1) raises the balance. */
function addRecharge(core, owner, { price, type = 4, status = 1, createdAt = core.now() }) {
	const rec = recordRecharge(core, owner, { price, type, status, createdAt });
	if (status === 1) {
		const bal = core.balanceOf(owner.uid);
		bal.price = money(Number(bal.price) + Number(price));
		checkBalanceAlarm(core, owner);
	}
	return rec;
}

function addCoupon(core, { uid = 0, couponid, name, price, priceover, status = 0, createdAt = core.now(), endAt = null }) {
	if (slice(core).coupons.some((c) => c.couponid === couponid)) throw new ApiError(`coupon ${couponid} already exists`);
	const c = {
		id: core.nextId('coupon'),
		uid,
		couponid,
		name: name || `Coupon ${couponid}`,
		status,
		price: money(price),
		priceover: money(priceover === undefined ? (status === 2 ? 0 : price) : priceover),
		createdAt,
		endAt,
	};
	slice(core).coupons.push(c);
	return c;
}

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

const routes = {
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
	'profile/rechargeList': {
		label: 'List recharges',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const id = p.int('id');
			const type = p.has('type') ? p.oneOf('type', [1, 2, 3, 4, 5]) : undefined;
			const items = slice(core)
				.recharges.filter((r) => r.uid === owner.uid && (id === undefined || r.id === id) && (type === undefined || r.type === type))
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (r) => ({
					id: str(r.id),
					name: owner.name,
					uid: str(r.uid),
					price: r.price,
					code: r.code,
					type_zh: RECHARGE_TYPES[r.type],
					status: str(r.status),
					...core.stamp(r.createdAt, 'createtime'),
				}),
			});
		},
	},
	'profile/balance': {
		label: 'Balance',
		read: true,
		logType: 'finance',
		handler(rq) {
			return { data: [{ price: rq.core.balanceOf(rq.owner.uid).price }], total: '1' };
		},
	},
	'profile/balanceAlarm': {
		label: 'Set balance alarm',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const bal = core.balanceOf(owner.uid);
			// the documentation marks none of alarm, alarm_num, alarm_value required: one left out
			// keeps the account's value (a new threshold leaves the alarm on or off as it is)
			const alarm = p.has('alarm') ? p.oneOf('alarm', [0, 1]) : Number(bal.alarm);
			const alarmNum = p.int('alarm_num', { min: 0, max: 100 });
			const alarmValue = p.decimal('alarm_value', { min: 0 });
			if (!p.has('alarm') && alarmNum === undefined && alarmValue === undefined) throw new ApiError('nothing to set: send alarm, alarm_num or alarm_value');
			if (alarm === 1 && alarmValue === undefined && Number(bal.alarm_value) <= 0)
				throw new ApiError('alarm_value is required to switch the alarm on');
			bal.alarm = str(alarm);
			if (alarmNum !== undefined) bal.alarm_num = str(alarmNum);
			else if (alarm === 1 && bal.alarm_num === '0') bal.alarm_num = '1';
			if (alarmValue !== undefined) bal.alarm_value = money(alarmValue);
			bal.send_num = '0';
			return { data: { alarm: bal.alarm, alarm_num: bal.alarm_num, alarm_value: bal.alarm_value } };
		},
	},
	'profile/payList': {
		label: 'List payments',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const type = p.has('type') ? p.oneOf('type', [1, 2, 3, 4]) : undefined;
			const paytype = p.has('paytype') ? p.oneOf('paytype', [1, 2, 3, 5, 6, 7, 8, 9]) : undefined;
			const bid = p.int('bid');
			const items = core.state.payments
				.filter(
					(r) =>
						r.uid === owner.uid &&
						(type === undefined || Number(r.type) === type) &&
						(paytype === undefined || Number(r.paytype) === paytype) &&
						(bid === undefined || Number(r.bid) === bid),
				)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (r) => ({
					id: str(r.id),
					uid: str(r.uid),
					name: r.name,
					code: r.code,
					type_zh: PAY_TYPES[r.type] || '',
					paytype_zh: PAY_PAYTYPES[r.paytype] || '',
					price: money(r.price),
					status: str(r.status),
					...core.stamp(r.createdAt),
				}),
			});
		},
	},
	'profile/invoiceList': {
		label: 'List invoices',
		read: true,
		logType: 'finance',
		handler(rq) {
			const items = slice(rq.core)
				.invoices.filter((i) => i.uid === rq.owner.uid)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, rq.p, { render: (i) => renderInvoice(rq.core, i) });
		},
	},
	'profile/invoiceApply': {
		label: 'Apply for invoice',
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const title = p.str('title', { required: true, max: 128 }).trim();
			const price = p.decimal('price', { required: true });
			if (!(price > 0)) throw new ApiError('price must be greater than 0');
			const type = p.oneOf('type', [1, 2], { required: true });
			const invoicetype = p.oneOf('invoicetype', [1, 2], { required: true });
			const fields = {};
			for (const f of [
				'registerno',
				'bankname',
				'card',
				'address',
				'tel',
				'businesslicense',
				'taxcertificate',
				'taxatorqual',
				'recipients',
				'mailaddress',
				'phone',
				'postcode',
			]) {
				fields[f] = p.str(f, { max: 255, def: '' });
			}
			if (invoicetype === 1) {
				if (type !== 1) throw new ApiError('invoicetype 1 (special VAT invoice) needs type 1 (enterprise)');
				for (const f of ['registerno', 'bankname', 'card'])
					if (!fields[f]) throw new ApiError(`${f} is required for a special VAT invoice`);
			}
			if (fields.phone && !PHONE_RE.test(fields.phone)) throw new ApiError('phone is not a valid phone number');
			const available = invoiceBalance(core, owner);
			if (price > available + 1e-9) throw new ApiError(`price ${money(price)} exceeds the invoice balance ${money(available)}`);
			const inv = {
				id: core.nextId('invoice'),
				uid: owner.uid,
				title,
				price: money(price),
				type,
				invoicetype,
				status: 0,
				expressname: '',
				expresscode: '',
				content: 'Cloud service fee',
				fees: '0.00',
				express: '',
				platform: '2',
				...fields,
				createdAt: core.now(),
			};
			slice(core).invoices.push(inv);
			return {
				data: {
					...renderInvoice(core, inv),
					registerno: inv.registerno,
					bankname: inv.bankname,
					card: inv.card,
					address: inv.address,
					tel: inv.tel,
					businesslicense: inv.businesslicense,
					taxcertificate: inv.taxcertificate,
					taxatorqual: inv.taxatorqual,
					fees: inv.fees,
					express: inv.express,
					recipients: inv.recipients,
					phone: inv.phone,
					postcode: inv.postcode,
					platform: inv.platform,
					username: owner.name,
				},
			};
		},
	},
	'profile/invoiceBalance': {
		label: 'Invoice balance',
		read: true,
		logType: 'finance',
		handler(rq) {
			return { data: { invoiceprice: money(invoiceBalance(rq.core, rq.owner)) } };
		},
	},
	'profile/couponList': {
		label: 'List coupons',
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner } = rq;
			const couponid = p.str('couponid', { max: 64 });
			const status = p.has('status') ? p.oneOf('status', [0, 1, 2, 3, 4]) : undefined;
			const items = slice(core)
				.coupons.filter(
					(c) =>
						c.uid === owner.uid &&
						(couponid === undefined || c.couponid.toLowerCase() === couponid.trim().toLowerCase()) &&
						(status === undefined || couponStatus(core, c) === status),
				)
				.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
			return pageOf(items, p, {
				render: (c) => ({
					id: str(c.id),
					uid: str(c.uid),
					couponid: c.couponid,
					status: str(couponStatus(core, c)),
					price: c.price,
					priceover: c.priceover,
					...core.stamp(c.createdAt),
					endtime: c.endAt ? displayTime(c.endAt) : '',
				}),
			});
		},
	},
	'profile/couponExchange': {
		label: 'Exchange coupon',
		// Without couponid this is the coupon-balance query (a read); the exchange logs itself.
		read: true,
		logType: 'finance',
		handler(rq) {
			const { p, core, owner, user } = rq;
			if (!p.has('couponid')) return { data: couponBalance(core, owner) };
			const code = p.str('couponid', { max: 64 }).trim();
			const c = slice(core).coupons.find((x) => x.couponid.toLowerCase() === code.toLowerCase() && (x.uid === 0 || x.uid === owner.uid));
			if (!c) throw new ApiError(`couponid: coupon ${code} does not exist`);
			const status = couponStatus(core, c);
			const why = { 1: 'has already been activated', 2: 'has already been used', 3: 'is void', 4: 'has expired' }[status];
			if (why) throw new ApiError(`couponid: coupon ${code} ${why}`);
			c.status = 1;
			c.uid = owner.uid;
			core.log(user, 'finance', 'Exchange coupon', JSON.stringify({ couponid: code }), rq.ip, rq.path);
			return { data: { name: c.name, price: c.price } };
		},
	},
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

function renderInvoice(core, i) {
	return {
		id: str(i.id),
		uid: str(i.uid),
		title: i.title,
		price: i.price,
		type: str(i.type),
		invoicetype: str(i.invoicetype),
		status: str(i.status),
		expressname: i.expressname,
		expresscode: i.expresscode,
		mailaddress: i.mailaddress || '',
		content: i.content,
		...core.stamp(i.createdAt),
	};
}

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

function ownerFromBody(core, b) {
	const acc = core.controlAccount(b);
	if (!acc) throw new ApiError(`no such account ${b.uid || b.username}`);
	return core.ownerOf(acc);
}

/** Control routes (/__emulator/management/profile/...) of one emulator's core. */
function control(core) {
	return {
		/** Add a recharge record and raise the balance: { username|uid, price, type = 4 }. */
		'POST /profile/recharge': controlRoute((b) => {
			const owner = ownerFromBody(core, b);
			const rec = addRecharge(core, owner, { price: Number(b.price), type: b.type || 4 });
			return { id: rec.id, balance: core.balanceOf(owner.uid).price };
		}),
		/** Mint a coupon code: { couponid, price, username?|uid? (unclaimed when absent), status?, endtime? (ms) }. */
		'POST /profile/coupons': controlRoute((b) => {
			const uid = b.username || b.uid ? ownerFromBody(core, b).uid : 0;
			const c = addCoupon(core, {
				uid,
				couponid: String(b.couponid),
				name: b.name,
				price: Number(b.price || 10),
				priceover: b.priceover,
				status: Number(b.status || 0),
				endAt: b.endtime ? Number(b.endtime) : null,
			});
			return { id: c.id, couponid: c.couponid };
		}),
		/** Mark an invoice sent (status 1) or rejected (status 2): { id, status?, expressname?, expresscode? }. */
		'POST /profile/invoices/update': controlRoute((b) => {
			const inv = slice(core).invoices.find((i) => i.id === Number(b.id));
			if (!inv) throw new ApiError(`no invoice ${b.id}`);
			inv.status = b.status === undefined ? 1 : Number(b.status);
			if (b.expressname !== undefined) inv.expressname = String(b.expressname);
			if (b.expresscode !== undefined) inv.expresscode = String(b.expresscode);
			return { id: inv.id, status: inv.status };
		}),
	};
}

module.exports = {
	group: 'profile',
	name: 'Account and billing',
	CDN_TYPES,
	BILL_TYPES,
	couponBalance,
	spendCoupons,
	checkBalanceAlarm,
	init(core) {
		core.state.account = { groups: [], groupRoles: [], recharges: [], invoices: [], coupons: [] };
		// Every consumption may trip the balance alarm (see the header comment); init runs again on reset.
		if (!core.onCharge.includes(checkBalanceAlarm)) core.onCharge.push(checkBalanceAlarm);
	},
	seedDemo(core) {
		const demo = core.accountByName('demo');
		if (!demo) return;
		const s = slice(core);
		const now = core.now();
		const day = 86400000;
		Object.assign(demo.profile, {
			contactname: 'Demo User',
			company: 'Example Ltd.',
			address: '1 Example Road',
			website: 'https://www.example.com',
		});
		if (!demo.mail) demo.mail = 'demo@example.com';
		if (!demo.phone) demo.phone = '+1 555 0100';
		// A group that may look at and refresh CDN channels, and a sub-account in it.
		const g = { id: core.nextId('group'), uid: demo.uid, name: 'Operators', note: 'CDN operators', createdAt: now - 30 * day };
		s.groups.push(g);
		for (const value of ['API/cdn/domainList', 'API/cdn/refresh', 'API/cdn/refreshStatus', 'API/cdn/refreshList', 'API/profile/logs']) {
			s.groupRoles.push({ id: core.nextId('groupRole'), gid: g.id, value, uid: demo.uid, createdAt: now - 30 * day });
		}
		const ops = core.createAccount({
			username: 'demo_ops',
			password: 'ops-password',
			mail: 'ops@example.com',
			parent: demo.uid,
			gid: g.id,
		});
		ops.platform = 1;
		ops.cdnconfig = [{ type: 'cloud', billtype: 'flow' }];
		Object.assign(ops.profile, { contactname: 'Ops Team' });
		// Recharges (history: they do not change the configured balance).
		for (const [i, [price, type]] of [
			[500, 1],
			[300, 2],
			[200, 4],
		].entries()) {
			recordRecharge(core, demo, { price, type, createdAt: now - (60 - i * 10) * day });
		}
		// Consumption history (paid before the configured balance was set).
		const history = [
			{ name: 'Cloud host web-1 (monthly)', paytype: 1, price: 120, type: 1, days: 45 },
			{ name: 'Cloud disk data-1 (monthly)', paytype: 2, price: 30, type: 1, days: 44 },
			{ name: 'CDN channel www.example.com', paytype: 5, price: 1, type: 1, days: 40 },
			{ name: 'CDN traffic package 100 GB', paytype: 6, price: 20, type: 1, days: 20 },
			{ name: 'Cloud DNS example.com', paytype: 7, price: 9.9, type: 1, days: 15 },
			{ name: 'Refund cloud disk data-1', paytype: 2, price: 10, type: 2, days: 10 },
		];
		for (const h of history) {
			core.state.payments.push({
				id: core.nextId('payment'),
				uid: demo.uid,
				name: h.name,
				code: `P${String(now - h.days * day).slice(-9)}${core.nextId('paycode')}`,
				type: h.type,
				paytype: h.paytype,
				bid: 0,
				price: money(h.price),
				status: 1,
				createdAt: now - h.days * day,
			});
		}
		// Invoices: one sent, one applied.
		const invoiceBase = {
			uid: demo.uid,
			type: 1,
			invoicetype: 2,
			content: 'Cloud service fee',
			fees: '0.00',
			express: '',
			platform: '1',
			registerno: '',
			bankname: '',
			card: '',
			address: '1 Example Road',
			tel: '',
			businesslicense: '',
			taxcertificate: '',
			taxatorqual: '',
			recipients: 'Demo User',
			mailaddress: '1 Example Road',
			phone: '+1 555 0100',
			postcode: '10001',
		};
		s.invoices.push({
			...invoiceBase,
			id: core.nextId('invoice'),
			title: 'Example Ltd.',
			price: money(100),
			status: 1,
			expressname: 'Example Express',
			expresscode: 'EX100200300',
			createdAt: now - 12 * day,
		});
		s.invoices.push({
			...invoiceBase,
			id: core.nextId('invoice'),
			title: 'Example Ltd.',
			price: money(25),
			status: 0,
			expressname: '',
			expresscode: '',
			createdAt: now - 2 * day,
		});
		// Coupons in each status; WELCOME50 is the unused code to exchange. Days are relative to now.
		const coupons = [
			{ couponid: 'WELCOME50', name: 'Welcome coupon', price: 50, status: 0, created: -5, ends: 90 },
			{ couponid: 'SPRING20', name: 'Spring coupon', price: 20, priceover: 12.5, status: 1, created: -20, ends: 30 },
			{ couponid: 'USED10', name: 'Ten off', price: 10, priceover: 0, status: 2, created: -40, ends: 10 },
			{ couponid: 'VOID5', name: 'Void coupon', price: 5, status: 3, created: -40, ends: 10 },
			{ couponid: 'OLD30', name: 'Autumn coupon', price: 30, status: 0, created: -100, ends: -10 },
		];
		for (const { created, ends, ...c } of coupons) {
			addCoupon(core, { uid: demo.uid, ...c, createdAt: now + created * day, endAt: now + ends * day });
		}
	},
	routes,
	control,
};

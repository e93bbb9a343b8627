'use strict';
/**
 * Group `profile` (see ../account.js): the catalogues (CDN and bill types, recharge, payment and
 * log types, platforms), the field checks and profile fields, the state slice, and the profile,
 * group and sub-account look-ups and answers.
 */
const { ApiError, str, displayTime } = require('../util');

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

module.exports = {
	CDN_TYPES,
	BILL_TYPES,
	RECHARGE_TYPES,
	PAY_TYPES,
	PAY_PAYTYPES,
	LOG_TYPES,
	PLATFORMS,
	MAIL_RE,
	PHONE_RE,
	USERNAME_RE,
	PROFILE_FIELDS,
	SUB_PROFILE_EXTRA,
	PROFILE_DEFAULTS,
	slice,
	profileValue,
	renderProfile,
	renderGroup,
	groupById,
	subaccountsOf,
	renderSubaccount,
};

'use strict';
/**
 * Group `profile` (see ../account.js): the control routes, the fresh state (init) and the demo
 * data.
 */
const { ApiError, money } = require('../util');
const { controlRoute } = require('../common');
const { slice } = require('./model');
const { checkBalanceAlarm, recordRecharge, addRecharge, addCoupon } = require('./billing');

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

/** Demo data: the demo account's profile, a group with its permissions and a sub-account in it. */
function seedProfiles(core, demo, s, now, day) {
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
}

/** Demo data: recharges and consumption history. */
function seedPayments(core, demo, now, day) {
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
}

/** Demo data: invoices. */
function seedInvoices(core, demo, s, now, day) {
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
}

/** Demo data: coupons. */
function seedCoupons(core, demo, now, day) {
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
}

module.exports = {
	control,
	init(core) {
		core.state.account = { groups: [], groupRoles: [], recharges: [], invoices: [], coupons: [] };
		// Every consumption may trip the balance alarm (see the header comment of ../account.js); init runs again on reset.
		if (!core.onCharge.includes(checkBalanceAlarm)) core.onCharge.push(checkBalanceAlarm);
	},
	seedDemo(core) {
		const demo = core.accountByName('demo');
		if (!demo) return;
		const s = slice(core);
		const now = core.now();
		const day = 86400000;
		seedProfiles(core, demo, s, now, day);
		seedPayments(core, demo, now, day);
		seedInvoices(core, demo, s, now, day);
		seedCoupons(core, demo, now, day);
	},
};

'use strict';
/**
 * Group `profile` (see ../account.js): coupons (status, balance, spending), the invoice balance,
 * the balance alarm, recharges and the minting of coupons.
 */
const { ApiError, str, displayTime, round2, money } = require('../util');
const { slice } = require('./model');

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

module.exports = {
	couponStatus,
	couponBalance,
	spendCoupons,
	invoiceBalance,
	checkBalanceAlarm,
	recordRecharge,
	addRecharge,
	addCoupon,
};

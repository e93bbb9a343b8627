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
 *
 * The group's code lives in account/: model.js (catalogues, field checks, state slice, profile,
 * group and sub-account answers), billing.js (coupons, invoice balance, balance alarm,
 * recharges), routes-profile.js, routes-groups.js, routes-billing.js and routes-logs.js (the
 * route tables, merged below in this order) and control.js (control routes, init, demo data).
 */
const { CDN_TYPES, BILL_TYPES } = require('./account/model');
const { couponBalance, spendCoupons, checkBalanceAlarm } = require('./account/billing');
const { profileRoutes } = require('./account/routes-profile');
const { groupRoutes, roleRoutes } = require('./account/routes-groups');
const { rechargeRoutes, invoiceRoutes, couponRoutes } = require('./account/routes-billing');
const { logRoutes } = require('./account/routes-logs');
const { control, init, seedDemo } = require('./account/control');

const routes = {
	...profileRoutes,
	...groupRoutes,
	...roleRoutes,
	...rechargeRoutes,
	...invoiceRoutes,
	...couponRoutes,
	...logRoutes,
};

module.exports = {
	group: 'profile',
	name: 'Account and billing',
	CDN_TYPES,
	BILL_TYPES,
	couponBalance,
	spendCoupons,
	checkBalanceAlarm,
	init,
	seedDemo,
	routes,
	control,
};

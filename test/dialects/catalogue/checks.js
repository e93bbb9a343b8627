'use strict';
/**
 * What the catalogue's node files share: assertions that throw saying what was expected,
 * resource locator values, and readers of the emulator's state (in process, free of any wire
 * dialect).
 */

const crypto = require('node:crypto');

/* ---------- assertions ---------- */

function must(cond, message) {
	if (!cond) throw new Error(message);
}
const show = (x) => {
	const s = JSON.stringify(x);
	return s && s.length > 160 ? `${s.slice(0, 157)}...` : s;
};
function same(actual, expected, what) {
	if (String(actual) !== String(expected)) throw new Error(`${what}: expected ${show(String(expected))}, got ${show(actual)}`);
}
function count(list, n, what) {
	must(Array.isArray(list), `${what}: expected a list, got ${show(list)}`);
	if (list.length !== n) throw new Error(`${what}: expected ${n} item(s), got ${list.length}: ${show(list)}`);
}
function one(list, what) {
	count(list, 1, what);
	return list[0];
}
const has = (list, pred) => Array.isArray(list) && list.some(pred);
const md5 = (s) => crypto.createHash('md5').update(s).digest('hex');

/* ---------- parameter helpers ---------- */

const byId = (id) => ({ __rl: true, mode: 'id', value: String(id) });
const fromList = (id) => ({ __rl: true, mode: 'list', value: String(id) });

/* ---------- state readers ---------- */

const demoUid = (ctx) => ctx.core().accountByName('demo').uid;
const account = (ctx, name) => ctx.core().accountByName(name);
const acc = (ctx) => ctx.state('account');
const cdn = (ctx) => ctx.state('cdn');
const inst = (ctx) => ctx.state('instance');
const dns = (ctx) => ctx.state('dns');
const channel = (ctx, id) => cdn(ctx).channels.find((c) => String(c.id) === String(id));
const task = (ctx, id) => cdn(ctx).tasks.find((t) => String(t.id) === String(id));
const host = (ctx, id) => inst(ctx).hosts[Number(id)];

module.exports = { must, show, same, count, one, has, md5, byId, fromList, demoUid, account, acc, cdn, inst, dns, channel, task, host };

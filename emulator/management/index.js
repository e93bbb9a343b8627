'use strict';
/**
 * The JSON management interface (docs/vendor/management.md): `POST /API/<group>/<operation>`,
 * JSON body with `token`, envelope `{ code, message, data | result, created, ... }`.
 *
 * This file and its core-*.js siblings hold what every group shares: accounts and tokens
 * (OAuth/authorize and profile/register), the token check, sub-account permission checks, the
 * operation log, the balance and consumption records, fault injection and the envelope:
 *   index.js             createManagement(): the state, the groups mounted, the control routes
 *   core-accounts.js     the core object (ids, accounts, balances, payments, the log)
 *   core-permissions.js  sub-account permissions
 *   core-tokens.js       log-in, tokens, the token check, OAuth/authorize and profile/register
 *   core-router.js       handle(): a request to its route
 *   core-envelope.js     send(): the envelope on the wire, with the wire dialects
 *   core-faults.js       the fault rules that answer instead of the operation
 * The groups live in their own modules (account.js, cdn.js, instance.js, dns.js), each exporting
 *
 *   { group, name, init(core), seedDemo(core)?, routes: { 'cdn/domainList': Route, ... },
 *     control?: { 'POST /cdn/...': fn } | (core) => { 'POST /cdn/...': fn } }
 *
 * init(core) runs for every fresh state (creation and reset); a `control` function is called
 * once per emulator with that emulator's core, so several emulators in one process keep their
 * control routes apart. A module that must act after every consumption pushes
 * `fn(core, owner, payment)` onto `core.onCharge` (once: init runs again on reset).
 *
 * where Route is { label, read?, noToken?, logType?, permType?, handler(rq) } and rq is
 *   { p: Params, body, path, user, owner, now, core }
 * A handler returns the envelope fields besides code/message/created, e.g. `{ data }`,
 * `pageOf(items, rq.p)` or `{ result }`; it throws ApiError for a failure envelope.
 *
 * Every JSON answer leaves through `send()` (core-envelope.js), which plays the wire dialects
 * (dialects.js) as one transform of the whole answer, envelope included, so every endpoint gets
 * them:
 *   extraFields          (docs/vendor/readings.md#r38) the envelope gets `x_extra` and
 *                        `_links`, every record in it `x_extra`. A record is an object with
 *                        keys; an object keyed by data (IP addresses, ids, codes, permission
 *                        paths) or whose values are all objects is taken for a map and gets
 *                        none, its values do.
 *   emptyObjectsAsArrays (docs/vendor/readings.md#r37) every {} is written [].
 *   numbersAsStrings     (docs/vendor/readings.md#r36: most values are strings, `code` and
 *                        `expires` declared int) every number is written as a string.
 *   numbersAsNumbers     (the other reading of "most ... are strings") every numeric string is
 *                        written as a number (no leading zeros, safe integers; `message` and
 *                        `access_token` stay strings); `code` stays a number.
 * and then frames it (../framing.js, docs/vendor/readings.md#r46): byteOrderMark, charsetLatin1,
 * jsonContentTypes, whitespaceAround, compressedAnswers.
 * Log-in dialects (docs/vendor/readings.md#r32, #r33), in OAuth/authorize and issueToken
 * (core-tokens.js):
 *   loginInvalidates     a successful OAuth/authorize revokes the account's earlier tokens
 *                        (they then get code -1 "token is invalid").
 *   tokenLifetime60      tokens issued while it is on live 60 s of emulator time (`expires` 60).
 *   expiresTimestamp     `expires` is the Unix time (s, emulator clock) at which the token ends,
 *                        not its lifetime (docs/vendor/readings.md#r45).
 * How a refused token is answered (docs/vendor/readings.md#r30 by default, #r44 the others; the
 * documents state no failure code), in tokenRefusal (core-tokens.js):
 *   default              code -1, "token is invalid or has expired, please authorize again"
 *   tokenRefusedOtherCode  code 0 (the code of every other failure here), "access token expired,
 *                        please log in again"
 *   tokenRefusedChinese  code 401, "登录已失效，请重新登录" (the log-in is no longer valid, log
 *                        in again): the service's language, and no word "token"
 * Which paths exist: unbindOnBindPath (docs/vendor/readings.md#r60) answers instance/unbind with
 * HTTP 404 like any unknown path; instance/cloud-disks.js unbinds through cloudDiskBind without
 * iid either way.
 * The `loginExpires` switch (faults.js) makes the log-in answer another `expires` (a value that
 * makes no sense, for the clients that must ignore it); the token lives as long as ever.
 * Fault rules (faults.js) are acted on in handle() (core-router.js, core-faults.js): hang, reset,
 * http, html200, envelope, tooFrequent, bigAnswer, drip, deepJson, emptyList, empty200 and
 * badEncoding answer instead of the operation;
 * truncatedJson and afterCreate500 perform it and then answer badly; envelopeFields performs it
 * and changes the envelope; listShift answers a page of a list that changed after page 1.
 */
const { createCore } = require('./core-accounts');
const { createAllowedPaths } = require('./core-permissions');
const { createTokenCheck, createAuthRoutes } = require('./core-tokens');
const { createSend } = require('./core-envelope');
const { createFaultAnswers } = require('./core-faults');
const { createHandler } = require('./core-router');

const MODULE_FILES = ['./account', './cdn', './instance', './dns'];

function createManagement(emu, options = {}) {
	const settings = {
		passwordEncoding: options.passwordEncoding || 'none', // none | md5 | base64
		accounts: options.accounts || [{ username: 'demo', password: 'demo-password', balance: 1000 }],
		timing: { ...(options.timing || {}) },
	};
	let state;

	const core = createCore(emu, settings, () => state, () => modules);

	const modules = [createAuthRoutes(core)];
	for (const file of MODULE_FILES) {
		let mod;
		try {
			mod = require(file);
		} catch (err) {
			if (err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(file.slice(2))) continue;
			throw err;
		}
		modules.push(mod);
	}
	for (const mod of modules) Object.assign(core.routes, mod.routes);

	function freshState() {
		state = { seq: {}, accounts: {}, tokens: {}, balances: {}, payments: [], logs: [] };
		for (const mod of modules) if (mod.init) mod.init(core);
		for (const a of settings.accounts) core.createAccount(a);
	}
	freshState();

	const send = createSend(emu);
	const { injectFault, answerFault } = createFaultAnswers(emu, core, send);
	const authenticate = createTokenCheck(emu, core);
	const allowedPaths = createAllowedPaths(core);
	const handle = createHandler({ emu, core, send, answerFault, injectFault, authenticate, allowedPaths });

	const control = {
		'POST /accounts': async (b) => {
			const a = core.createAccount({ username: b.username, password: b.password, mail: b.mail, balance: b.balance ?? 0 });
			return { uid: a.uid };
		},
		'POST /tokens/revoke': async (b) => {
			let n = 0;
			for (const t of Object.values(state.tokens)) {
				if (!b.username || state.accounts[t.uid]?.name === b.username) {
					t.revoked = true;
					n++;
				}
			}
			return { revoked: n };
		},
		'POST /tokens/expire': async () => {
			for (const t of Object.values(state.tokens)) t.expiresAt = Math.min(t.expiresAt, core.now());
			return { ok: true };
		},
		'POST /balance': async (b) => {
			const bal = state.balances[core.ownerOf(core.controlAccount(b)).uid];
			bal.price = Number(b.price).toFixed(2);
			return { ...bal };
		},
		'GET /state': async (b, q) => (q.slice ? state[q.slice] : state),
		'GET /requests': async () => ({ count: requestCount }),
	};
	for (const mod of modules) Object.assign(control, (typeof mod.control === 'function' ? mod.control(core) : mod.control) || {});

	let requestCount = 0;
	return {
		core,
		get state() {
			return state;
		},
		async handle(req, res, url) {
			requestCount++;
			return handle(req, res, url);
		},
		control,
		snapshot: () => state,
		restore(saved) {
			state = saved;
		},
		reset() {
			freshState();
		},
		async seedDemo() {
			for (const mod of modules) if (mod.seedDemo) await mod.seedDemo(core);
		},
	};
}

module.exports = { createManagement };

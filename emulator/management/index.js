'use strict';
/**
 * The JSON management interface (docs/vendor/management.md): `POST /API/<group>/<operation>`,
 * JSON body with `token`, envelope `{ code, message, data | result, created, ... }`.
 *
 * This file holds what every group shares: accounts and tokens (OAuth/authorize and
 * profile/register), the token check, sub-account permission checks, the operation log,
 * the balance and consumption records, fault injection and the envelope. The groups live
 * in their own modules (account.js, cdn.js, instance.js, dns.js), each exporting
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
 * Every JSON answer leaves through `send()`, which plays the wire dialects (dialects.js) as one
 * transform of the whole answer, envelope included, so every endpoint gets them:
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
 * Log-in dialects (docs/vendor/readings.md#r32, #r33), in OAuth/authorize and issueToken below:
 *   loginInvalidates     a successful OAuth/authorize revokes the account's earlier tokens
 *                        (they then get code -1 "token is invalid").
 *   tokenLifetime60      tokens issued while it is on live 60 s of emulator time (`expires` 60).
 *   expiresTimestamp     `expires` is the Unix time (s, emulator clock) at which the token ends,
 *                        not its lifetime (docs/vendor/readings.md#r45).
 * How a refused token is answered (docs/vendor/readings.md#r30 by default, #r44 the others; the
 * documents state no failure code), in tokenRefusal below:
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
 * Fault rules (faults.js) are acted on in handle(): hang, reset, http, html200, envelope,
 * tooFrequent, bigAnswer, drip, deepJson, emptyList, empty200 and badEncoding answer instead of
 * the operation;
 * truncatedJson and afterCreate500 perform it and then answer badly; envelopeFields performs it
 * and changes the envelope; listShift answers a page of a list that changed after page 1.
 */
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { ApiError, Params, displayTime, ago, str } = require('./util');
const { readJson } = require('../http-util');
const { frame } = require('../framing');

const MODULE_FILES = ['./account', './cdn', './instance', './dns'];

/** Paths a sub-account may always call, whatever its group grants. */
const ALWAYS_ALLOWED = new Set(['profile/detail', 'profile/passwordUpdate', 'profile/pictureUpdate']);

/** Operation-log type of each group (profile/logs `type`). */
const LOG_TYPE = { profile: 'user', cdn: 'webcdn', instance: 'instance', dns: 'dns', OAuth: 'user' };

function createManagement(emu, options = {}) {
	const settings = {
		passwordEncoding: options.passwordEncoding || 'none', // none | md5 | base64
		accounts: options.accounts || [{ username: 'demo', password: 'demo-password', balance: 1000 }],
		timing: { ...(options.timing || {}) },
	};
	let state;

	const core = {
		emu,
		settings,
		get state() {
			return state;
		},
		now: () => emu.clock.now(),
		displayTime,
		ago: (ms) => ago(ms, emu.clock.now()),
		str,
		ApiError,
		Params,
		nextId(kind, start = 1) {
			state.seq[kind] = (state.seq[kind] || start - 1) + 1;
			return state.seq[kind];
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
		createAccount({ username, password, mail = '', phone = '', balance = 0, parent = null, gid = 0, status = 1 }) {
			if (Object.values(state.accounts).some((a) => a.name === username)) {
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
			state.accounts[uid] = account;
			if (!parent) {
				state.balances[uid] = {
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
			return state.accounts[uid];
		},
		accountByName(name) {
			return Object.values(state.accounts).find((a) => a.name === name);
		},
		/** The account a control route names with `uid` or `username` (the demo account when neither). */
		controlAccount(b) {
			return b.uid ? core.account(Number(b.uid)) : core.accountByName(b.username || 'demo');
		},
		/** Main account whose resources a (sub-)account works on. */
		ownerOf(account) {
			return account.parent ? state.accounts[account.parent] : account;
		},
		balanceOf(ownerUid) {
			return state.balances[ownerUid];
		},
		/** Called as fn(core, owner, payment) after every charge (see the header). */
		onCharge: [],
		/** Consumption lowers the balance and leaves a payment record (profile/payList). */
		charge(owner, { price, paytype, bid = 0, name, type = 1 }) {
			const bal = state.balances[owner.uid];
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
			state.payments.push(rec);
			for (const fn of core.onCharge) fn(core, owner, rec);
			return rec;
		},
		log(user, type, title, content, ip = '127.0.0.1', op = '') {
			state.logs.push({
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
			for (const mod of modules) {
				const subs = {};
				for (const [path, route] of Object.entries(mod.routes)) {
					if (route.noToken) continue;
					subs[`API/${path}`] = route.label;
				}
				out[mod.group] = { module: mod.group, name: mod.name, subs };
			}
			return out;
		},
		encodePassword(pw) {
			if (settings.passwordEncoding === 'md5') return crypto.createHash('md5').update(pw, 'utf8').digest('hex');
			if (settings.passwordEncoding === 'base64') return Buffer.from(pw, 'utf8').toString('base64');
			return pw;
		},
		/** A successful log-in: under the dialect loginInvalidates it revokes the account's earlier tokens. */
		logIn(account) {
			if (emu.dialects && emu.dialects.has('loginInvalidates')) {
				for (const t of Object.values(state.tokens)) if (t.uid === account.uid) t.revoked = true;
			}
			const issued = core.issueToken(account);
			if (emu.stats) emu.stats.login(account.name);
			return issued;
		},
		issueToken(account) {
			const token = crypto.randomBytes(24).toString('hex');
			// dialect tokenLifetime60: 60 s of emulator time, whatever the tokenLifetimeS switch says
			const lifetime = emu.dialects && emu.dialects.has('tokenLifetime60') ? 60 : Number(emu.faults.tokenLifetimeS);
			const expiresAt = core.now() + lifetime * 1000;
			state.tokens[token] = { uid: account.uid, expiresAt, revoked: false };
			// dialect expiresTimestamp (docs/vendor/readings.md#r45): `expires` is when the token ends
			let expires = emu.dialects && emu.dialects.has('expiresTimestamp') ? Math.floor(expiresAt / 1000) : lifetime;
			if (emu.faults.loginExpires !== null && emu.faults.loginExpires !== undefined) expires = emu.faults.loginExpires;
			return { token, lifetime, expires };
		},
		routes: {},
	};

	const authRoutes = {
		group: 'OAuth',
		name: 'Authorization',
		routes: {
			'OAuth/authorize': {
				label: 'Authorize',
				noToken: true,
				handler(rq) {
					const username = rq.p.str('username', { required: true });
					const password = rq.p.str('password', { required: true });
					const account = core.accountByName(username);
					if (!account || core.encodePassword(account.password) !== password) {
						throw new ApiError('username or password is incorrect', 0);
					}
					if (Number(account.status) !== 1) throw new ApiError('this account is disabled', 0);
					const { token, expires } = core.logIn(account);
					core.log(account, 'user', 'Log in', `log in as ${username}`, rq.ip, 'OAuth/authorize');
					return { access_token: token, expires };
				},
			},
			'profile/register': {
				label: 'Register',
				noToken: true,
				handler(rq) {
					const username = rq.p.str('username', { required: true, max: 32 });
					const password = rq.p.str('password', { required: true });
					const confirm = rq.p.str('confirm_password', { required: true });
					const mail = rq.p.str('mail', { required: true });
					const phone = rq.p.str('phone', { def: '' });
					if (!/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(username)) {
						throw new ApiError('username must start with a letter and hold 4-32 letters, digits or _');
					}
					if (password.length < 8) throw new ApiError('password must be at least 8 characters');
					if (password !== confirm) throw new ApiError('confirm_password does not match password');
					if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(mail)) throw new ApiError('mail is not a valid e-mail address');
					const account = core.createAccount({ username, password, mail, phone });
					return { data: { uid: str(account.uid), name: account.name, mail: account.mail, phone: account.phone } };
				},
			},
		},
	};

	const modules = [authRoutes];
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

	/** The failure envelope of a refused token, as the enabled dialect words it (see the header). */
	function tokenRefusal(text) {
		if (emu.stats) emu.stats.tokenRefused();
		// dialect tokenRefusedChinese (docs/vendor/readings.md#r44): another code, the service's language
		if (emu.dialects && emu.dialects.has('tokenRefusedChinese')) return new ApiError('登录已失效，请重新登录', 401);
		// dialect tokenRefusedOtherCode (docs/vendor/readings.md#r44): the code of every other failure
		if (emu.dialects && emu.dialects.has('tokenRefusedOtherCode')) return new ApiError('access token expired, please log in again', 0);
		return new ApiError(text, -1);
	}

	function authenticate(body) {
		const token = body.token;
		const rec = typeof token === 'string' && state.tokens[token];
		if (!rec || rec.revoked || rec.expiresAt <= core.now()) {
			throw tokenRefusal('token is invalid or has expired, please authorize again');
		}
		const user = state.accounts[rec.uid];
		if (!user || Number(user.status) !== 1) throw tokenRefusal('token is invalid: the account is disabled');
		return user;
	}

	/** The group permissions of a sub-account (profile/groupRole* entries of its group). */
	function allowedPaths(user) {
		const entries = (state.account && state.account.groupRoles) || [];
		return new Set(entries.filter((e) => Number(e.gid) === Number(user.gid)).map((e) => e.value));
	}

	async function injectFault(res) {
		const kind = Math.floor(emu.faults.random() * 4);
		if (kind === 0) {
			res.socket.destroy();
			return;
		}
		const status = [500, 502, 503][kind - 1];
		sendHtml(res, status, `<html><body><h1>${status}</h1>Service temporarily unavailable</body></html>`);
	}

	/** A fault rule that answers instead of the operation (faults.js); true when it answered. */
	function answerFault(req, res, rule) {
		switch (rule.kind) {
			case 'hang':
				return true; // the request was read; no answer until the client gives up or emu.close()
			case 'reset':
				req.socket.destroy();
				return true;
			case 'http': {
				const status = rule.status || 500;
				sendHtml(res, status, `<html><body><h1>${status}</h1>${escapeHtml(rule.message || 'Service temporarily unavailable')}</body></html>`);
				return true;
			}
			case 'html200':
				sendHtml(res, 200, '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>The service is under maintenance</h1><p>Please come back later.</p></body></html>');
				return true;
			case 'envelope': {
				const envelope = { code: rule.code === undefined ? 0 : rule.code };
				if (rule.message !== null) envelope.message = rule.message === undefined ? 'the service failed to handle the request' : rule.message;
				send(res, envelope, null, rule.path);
				return true;
			}
			case 'tooFrequent':
				send(res, { code: 0, message: 'Requests too frequent, please try again later' }, null, rule.path);
				return true;
			case 'bigAnswer':
				streamBigAnswer(req, res, rule);
				return true;
			case 'drip':
				dripAnswer(req, res, rule);
				return true;
			case 'deepJson': {
				const depth = rule.depth === undefined ? 100000 : rule.depth;
				const body = Buffer.from(`{"code":1,"message":"success","data":${'['.repeat(depth)}${']'.repeat(depth)}}`);
				res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
				res.end(body);
				return true;
			}
			case 'empty200':
				res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 0 });
				res.end();
				return true;
			case 'badEncoding': {
				const coding = rule.coding || 'gzip';
				const envelope = Buffer.from(JSON.stringify({ code: 1, message: 'success', data: { note: `sent under Content-Encoding ${coding}` } }));
				// raw deflate: no gzip reader takes it, and a client that does not know the coding keeps bytes that are not JSON
				const body = rule.plain ? envelope : zlib.deflateRawSync(envelope);
				res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': coding, 'Content-Length': body.length });
				res.end(body);
				return true;
			}
			case 'emptyList': {
				const limit = String((rule.body && rule.body.limit) || 30);
				const page = String((rule.body && rule.body.page) || 1);
				send(res, { code: 1, message: 'success', data: [], limit, page, total: '0', totalpage: '1', created: displayTime(core.now()) }, null, rule.path);
				return true;
			}
			default:
				return false;
		}
	}

	/**
	 * listShift: the page asked for, of a list that `by` rows were added to (or removed from, when
	 * negative) at its head after page 1 was read. The route is asked for the whole list and the
	 * page is cut from it shifted by `by`; `total` and `totalpage` count the rows after the change.
	 */
	async function shiftedPage(route, rq, out, rule) {
		const key = Array.isArray(out.data) ? 'data' : Array.isArray(out.result) ? 'result' : null;
		if (!key || out.total === undefined) return out;
		const limit = Number(out.limit) || 30;
		const page = Number(out.page) || 1;
		const all = [];
		for (let n = 1, pages = 1; n <= pages; n++) {
			const whole = await route.handler({ ...rq, p: new Params({ ...rq.body, page: n, limit: 1000 }) });
			all.push(...(whole[key] || []));
			pages = Number(whole.totalpage) || 1;
		}
		const by = rule.by === undefined ? 1 : rule.by;
		const start = Math.max(0, (page - 1) * limit - by);
		const total = Math.max(0, all.length + by);
		return { ...out, [key]: all.slice(start, Math.max(start, page * limit - by)), total: str(total), totalpage: str(Math.max(1, Math.ceil(total / limit))) };
	}

	/**
	 * Writes a JSON answer: the dialect transform of the whole answer, then an after-the-fact
	 * fault (truncatedJson: the JSON cut in half; afterCreate500: HTTP 500 instead).
	 */
	function send(res, envelope, rule, path) {
		if (rule && rule.kind === 'afterCreate500') {
			return sendHtml(res, 500, '<html><body><h1>500</h1>Internal Server Error</body></html>');
		}
		let wire = wireForm(envelope, emu.dialects, path);
		if (rule && rule.kind === 'envelopeFields') {
			wire = { ...wire, ...(rule.set || {}) };
			for (const field of rule.drop || []) delete wire[field];
		}
		const json = JSON.stringify(wire);
		const text = rule && rule.kind === 'truncatedJson' ? json.slice(0, Math.floor(json.length / 2)) : json;
		// the framing dialects (../framing.js): byte order mark, charset, Content-Type, white space, compression
		const { body, headers } = frame('json', text, { dialects: emu.dialects, req: res.req, path });
		res.writeHead(200, { ...headers, 'Content-Length': body.length });
		res.end(body);
	}

	async function handle(req, res, url) {
		const path = url.pathname.replace(/^\/API\//, '');
		if (emu.stats) emu.stats.managementRequest(path);
		// unbindOnBindPath (docs/vendor/readings.md#r60): the documentation shows no path of the unbind operation's own
		const absent = path === 'instance/unbind' && emu.dialects && emu.dialects.has('unbindOnBindPath');
		const route = absent ? undefined : core.routes[path];
		if (req.method !== 'POST' || !route) {
			await drain(req);
			const body = Buffer.from(`no such endpoint: ${req.method} ${url.pathname}`);
			res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
			return res.end(body);
		}
		let body;
		let badJson = false;
		try {
			body = await readJson(req);
		} catch {
			badJson = true;
		}
		if (emu.stats && !badJson) emu.stats.managementBody(path, body);
		// listShift changes the pages after the first only
		const laterPage = !badJson && body && Number(body.page) >= 2;
		const rule = emu.faults.pick('management', path, (kind) => kind !== 'listShift' || laterPage);
		if (rule && answerFault(req, res, { ...rule, path, body })) return;
		if (badJson) return send(res, { code: 0, message: 'the request body is not valid JSON' }, rule, path);
		if (emu.faults.shouldFail(path)) return injectFault(res);
		const now = core.now();
		const rq = { p: new Params(body), body, path, now, core, ip: req.socket.remoteAddress || '127.0.0.1' };
		try {
			if (!route.noToken) {
				rq.user = authenticate(body);
				rq.owner = core.ownerOf(rq.user);
				if (rq.user.parent && !ALWAYS_ALLOWED.has(path) && !allowedPaths(rq.user).has(`API/${path}`)) {
					throw new ApiError(`permission denied: this sub-account has no permission for API/${path}`, 0);
				}
			}
			let out = (await route.handler(rq)) || {};
			if (rule && rule.kind === 'listShift') out = await shiftedPage(route, rq, out, rule);
			if (!route.read && !route.noToken && rq.user) {
				const group = path.split('/')[0];
				const content = JSON.stringify(redact(body));
				core.log(rq.user, route.logType || LOG_TYPE[group] || group, route.label, content, rq.ip, path);
			}
			const message = out.message || 'success';
			delete out.message;
			send(res, { code: 1, message, ...out, created: displayTime(core.now()) }, rule, path);
			// otherLogin: another client of the same account logs in right after this answer
			const account = rq.user || (path === 'OAuth/authorize' && core.accountByName(rq.body.username));
			if (rule && rule.kind === 'otherLogin' && account) (rule.tokens = rule.tokens || []).push(core.logIn(account).token);
			return undefined;
		} catch (err) {
			if (err instanceof ApiError) {
				return send(res, { code: err.code, message: err.message, ...err.extra, created: displayTime(core.now()) }, rule, path);
			}
			throw err;
		}
	}

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

function redact(body) {
	const out = {};
	for (const [k, v] of Object.entries(body || {})) {
		if (k === 'token' || /pass/i.test(k) || k === 'ssl_key') continue;
		out[k] = v;
	}
	return out;
}

function drain(req) {
	return new Promise((resolve) => {
		req.on('data', () => {});
		req.on('end', resolve);
		req.on('error', resolve);
	});
}

function sendHtml(res, status, html) {
	const body = Buffer.from(html);
	res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
	res.end(body);
}

/** bigAnswer: a valid envelope of `bytes` bytes (or endless), written as fast as the client takes it. */
function streamBigAnswer(req, res, rule) {
	const head = Buffer.from('{"code":1,"message":"success","data":[],"pad":"');
	const tail = Buffer.from('"}');
	const endless = rule.endless === true;
	const bytes = Math.max(head.length + tail.length, rule.bytes === undefined ? 64 * 1048576 : rule.bytes);
	const chunk = Buffer.alloc(1048576, 0x78); // "x"
	res.writeHead(200, endless ? { 'Content-Type': 'application/json; charset=utf-8' } : { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes });
	let left = bytes - head.length - tail.length;
	let closed = false;
	res.on('close', () => (closed = true));
	res.write(head);
	const pump = () => {
		while (!closed && (endless || left > 0)) {
			const piece = endless || left >= chunk.length ? chunk : chunk.subarray(0, left);
			if (!endless) left -= piece.length;
			if (!res.write(piece)) return res.once('drain', pump);
		}
		if (!closed && !endless) res.end(tail);
	};
	pump();
}

/** drip: the headers at once, then one byte of a valid envelope every `intervalMs`. */
function dripAnswer(req, res, rule) {
	const body = Buffer.from('{"code":1,"message":"success","data":[]}');
	const interval = rule.intervalMs === undefined ? 5000 : rule.intervalMs;
	res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
	res.flushHeaders();
	let at = 0;
	const timer = setInterval(() => {
		if (res.destroyed || at >= body.length) {
			clearInterval(timer);
			if (!res.destroyed) res.end();
			return;
		}
		res.write(body.subarray(at, at + 1));
		at++;
	}, interval);
	res.on('close', () => clearInterval(timer));
}

function escapeHtml(text) {
	return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// ---- wire dialects (see the header) ------------------------------------------------------

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An object keyed by data rather than by field names (see extraFields in the header). */
function isMap(obj) {
	const keys = Object.keys(obj);
	if (!keys.length) return true;
	if (keys.some((k) => !IDENTIFIER.test(k))) return true;
	return keys.every((k) => isPlainObject(obj[k]));
}

/** extraFields: `x_extra` on every record below `value` (the envelope's own fields are added by wireForm). */
function addExtraFields(value) {
	if (Array.isArray(value)) return value.map(addExtraFields);
	if (!isPlainObject(value)) return value;
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = addExtraFields(v);
	if (!isMap(value)) out.x_extra = 'emulator extra field';
	return out;
}

function emptyObjectsAsArrays(value) {
	if (Array.isArray(value)) return value.map(emptyObjectsAsArrays);
	if (!isPlainObject(value)) return value;
	if (!Object.keys(value).length) return [];
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = emptyObjectsAsArrays(v);
	return out;
}

function numbersAsStrings(value) {
	if (typeof value === 'number') return String(value);
	if (Array.isArray(value)) return value.map(numbersAsStrings);
	if (!isPlainObject(value)) return value;
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = numbersAsStrings(v);
	return out;
}

const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const KEEP_STRING = new Set(['message', 'access_token']);

function numbersAsNumbers(value) {
	if (typeof value === 'string') {
		if (!NUMERIC.test(value)) return value;
		const n = Number(value);
		return Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER ? n : value;
	}
	if (Array.isArray(value)) return value.map(numbersAsNumbers);
	if (!isPlainObject(value)) return value;
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = KEEP_STRING.has(k) ? v : numbersAsNumbers(v);
	return out;
}

/** The answer as the enabled dialects write it (the default: unchanged). */
function wireForm(envelope, dialects, path) {
	if (!dialects || !dialects.enabled.size) return envelope;
	let out = envelope;
	if (dialects.has('extraFields')) {
		out = addExtraFields(out);
		out.x_extra = 'emulator extra field';
		out._links = { self: `/API/${path || ''}`, docs: 'https://example.invalid/api' };
	}
	if (dialects.has('emptyObjectsAsArrays')) out = emptyObjectsAsArrays(out);
	if (dialects.has('numbersAsStrings')) out = numbersAsStrings(out);
	if (dialects.has('numbersAsNumbers')) {
		const code = out.code;
		out = numbersAsNumbers(out);
		out.code = typeof code === 'string' && NUMERIC.test(code) ? Number(code) : code;
	}
	return out;
}

module.exports = { createManagement };

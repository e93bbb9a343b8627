'use strict';
/**
 * The JSON management interface of seeds 001 and 002: `POST /API/<group>/<operation>`,
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
 */
const crypto = require('node:crypto');
const { ApiError, Params, displayTime, ago, str } = require('./util');
const { readJson } = require('../http-util');

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
		issueToken(account) {
			const token = crypto.randomBytes(24).toString('hex');
			const lifetime = Number(emu.faults.tokenLifetimeS);
			state.tokens[token] = { uid: account.uid, expiresAt: core.now() + lifetime * 1000, revoked: false };
			return { token, lifetime };
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
					const { token, lifetime } = core.issueToken(account);
					core.log(account, 'user', 'Log in', `log in as ${username}`, rq.ip, 'OAuth/authorize');
					return { access_token: token, expires: lifetime };
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

	function authenticate(body) {
		const token = body.token;
		const rec = typeof token === 'string' && state.tokens[token];
		if (!rec || rec.revoked || rec.expiresAt <= core.now()) {
			throw new ApiError('token is invalid or has expired, please authorize again', -1);
		}
		const user = state.accounts[rec.uid];
		if (!user || Number(user.status) !== 1) throw new ApiError('token is invalid: the account is disabled', -1);
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
		const body = Buffer.from(`<html><body><h1>${status}</h1>Service temporarily unavailable</body></html>`);
		res.writeHead(status, { 'Content-Type': 'text/html', 'Content-Length': body.length });
		res.end(body);
	}

	async function handle(req, res, url) {
		const path = url.pathname.replace(/^\/API\//, '');
		const route = core.routes[path];
		if (req.method !== 'POST' || !route) {
			await drain(req);
			const body = Buffer.from(`no such endpoint: ${req.method} ${url.pathname}`);
			res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
			return res.end(body);
		}
		let body;
		try {
			body = await readJson(req);
		} catch {
			return reply(res, { code: 0, message: 'the request body is not valid JSON' });
		}
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
			const out = (await route.handler(rq)) || {};
			if (!route.read && !route.noToken && rq.user) {
				const group = path.split('/')[0];
				const content = JSON.stringify(redact(body));
				core.log(rq.user, route.logType || LOG_TYPE[group] || group, route.label, content, rq.ip, path);
			}
			const message = out.message || 'success';
			delete out.message;
			return reply(res, { code: 1, message, ...out, created: displayTime(core.now()) });
		} catch (err) {
			if (err instanceof ApiError) {
				return reply(res, { code: err.code, message: err.message, ...err.extra, created: displayTime(core.now()) });
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

function reply(res, envelope) {
	const body = Buffer.from(JSON.stringify(envelope));
	res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
	res.end(body);
}

module.exports = { createManagement };

'use strict';
/**
 * Log-in and tokens of the management interface (see the header of index.js for the log-in
 * dialects and how a refused token is answered): the core's encodePassword, logIn and
 * issueToken (mixed into the core by core-accounts.js), the token check of every call
 * (authenticate), and the routes that need no token, OAuth/authorize and profile/register.
 */
const crypto = require('node:crypto');
const { ApiError, str } = require('./util');

/** encodePassword, logIn and issueToken of the core. */
function tokenMethods(core, emu, settings) {
	return {
		encodePassword(pw) {
			if (settings.passwordEncoding === 'md5') return crypto.createHash('md5').update(pw, 'utf8').digest('hex');
			if (settings.passwordEncoding === 'base64') return Buffer.from(pw, 'utf8').toString('base64');
			return pw;
		},
		/** A successful log-in: under the dialect loginInvalidates it revokes the account's earlier tokens. */
		logIn(account) {
			if (emu.dialects && emu.dialects.has('loginInvalidates')) {
				for (const t of Object.values(core.state.tokens)) if (t.uid === account.uid) t.revoked = true;
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
			core.state.tokens[token] = { uid: account.uid, expiresAt, revoked: false };
			// dialect expiresTimestamp (docs/vendor/readings.md#r45): `expires` is when the token ends
			let expires = emu.dialects && emu.dialects.has('expiresTimestamp') ? Math.floor(expiresAt / 1000) : lifetime;
			if (emu.faults.loginExpires !== null && emu.faults.loginExpires !== undefined) expires = emu.faults.loginExpires;
			return { token, lifetime, expires };
		},
	};
}

/** authenticate(body) of emulator `emu`: the account of the body's token, or a refusal thrown. */
function createTokenCheck(emu, core) {
	/** The failure envelope of a refused token, as the enabled dialect words it (see the header of index.js). */
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
		const rec = typeof token === 'string' && core.state.tokens[token];
		if (!rec || rec.revoked || rec.expiresAt <= core.now()) {
			throw tokenRefusal('token is invalid or has expired, please authorize again');
		}
		const user = core.state.accounts[rec.uid];
		if (!user || Number(user.status) !== 1) throw tokenRefusal('token is invalid: the account is disabled');
		return user;
	}

	return authenticate;
}

/** The routes of the group OAuth (and profile/register): the calls made without a token. */
function createAuthRoutes(core) {
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
	return authRoutes;
}

module.exports = { tokenMethods, createTokenCheck, createAuthRoutes };

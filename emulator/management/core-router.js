'use strict';
/**
 * The router of the management interface: handle() takes a `POST /API/<group>/<operation>`
 * request to its route, acting on the fault rules on the way (see the header of index.js), and
 * checks the token and the sub-account's permissions, logs the operation and sends the envelope.
 */
const { ApiError, Params, displayTime } = require('./util');
const { readJson } = require('../http-util');
const { shiftedPage } = require('./core-faults');
const { ALWAYS_ALLOWED } = require('./core-permissions');

/** Operation-log type of each group (profile/logs `type`). */
const LOG_TYPE = { profile: 'user', cdn: 'webcdn', instance: 'instance', dns: 'dns', OAuth: 'user' };

/** handle(req, res, url) of emulator `emu`, with the parts index.js made for it. */
function createHandler({ emu, core, send, answerFault, injectFault, authenticate, allowedPaths }) {
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

	return handle;
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

module.exports = { createHandler };

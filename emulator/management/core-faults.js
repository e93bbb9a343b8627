'use strict';
/**
 * The fault rules (faults.js) of the management interface that answer instead of the operation
 * (answerFault: hang, reset, http, html200, envelope, tooFrequent, bigAnswer, drip, deepJson,
 * emptyList, empty200, badEncoding), the random injected error of the error rate (injectFault),
 * and listShift's page of a list that changed after page 1 (shiftedPage). handle()
 * (core-router.js) acts on them; see the header of index.js.
 */
const zlib = require('node:zlib');
const { Params, displayTime, str } = require('./util');
const { sendHtml } = require('./core-envelope');

/** injectFault(res) and answerFault(req, res, rule) of emulator `emu`, answering through `send`. */
function createFaultAnswers(emu, core, send) {
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

	return { injectFault, answerFault };
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

module.exports = { createFaultAnswers, shiftedPage };

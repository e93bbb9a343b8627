'use strict';
/**
 * How a JSON answer of the management interface goes on the wire (see the header of index.js):
 * send() plays the wire dialects (dialects.js) as one transform of the whole answer, envelope
 * included, then an after-the-fact fault, then the framing (../framing.js); sendHtml() writes
 * an HTML page (for the fault answers that are not JSON).
 */
const { frame } = require('../framing');

/** The send(res, envelope, rule, path) of emulator `emu`. */
function createSend(emu) {
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
	return send;
}

function sendHtml(res, status, html) {
	const body = Buffer.from(html);
	res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
	res.end(body);
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

module.exports = { createSend, sendHtml };

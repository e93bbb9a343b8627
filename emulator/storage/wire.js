'use strict';
/**
 * How the storage emulator reads a request's path and query and writes its answers: percent
 * decoding, XML and empty answers with the wire dialects (extraFields, numericReferences), the
 * fault rules that act where an answer is written (afterCreate500, resetMidBody), request bodies
 * drained or read as text, and the time formats of its answers.
 */
const crypto = require('node:crypto');
const { S3Error } = require('./errors');
const { errorDoc } = require('./xml');
const { frame } = require('../framing');

/** Per-response wire settings: { rule (afterCreate500 | resetMidBody | null), extraHeader }. */
const WIRE = Symbol('emulatorWire');
const EXTRA_ELEMENT = '<x-vendor-extra>1</x-vendor-extra>';

function encodeSegment(s) {
	return encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
}

function decodePath(s) {
	try {
		return decodeURIComponent(s);
	} catch {
		throw new S3Error('InvalidArgument', 'The request path is not valid percent-encoding.');
	}
}

function decodeQuery(s) {
	try {
		return decodeURIComponent(s.replace(/\+/g, ' '));
	} catch {
		throw new S3Error('InvalidArgument', 'The query string is not valid percent-encoding.');
	}
}

const iso = (ms) => new Date(ms).toISOString();
const httpDate = (ms) => new Date(ms).toUTCString();

/** Consume whatever is left of a request body. */
function drain(req) {
	if (req.readableEnded || req.destroyed) return Promise.resolve();
	return new Promise((resolve) => {
		req.once('end', resolve);
		req.once('close', resolve);
		req.once('error', resolve);
		req.resume();
	});
}

/** A small request body as text; MalformedXML beyond `limit` bytes. */
async function readText(req, limit) {
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size <= limit) chunks.push(chunk);
	}
	if (size > limit)
		throw new S3Error('MalformedXML', `The XML body is larger than ${limit} bytes.`);
	return Buffer.concat(chunks).toString('utf8');
}

function sendXml(res, status, xml, headers = {}) {
	const w = res[WIRE];
	let text = w && w.extraHeader ? withExtraElement(xml) : xml;
	if (w && w.numericReferences) text = goEscaped(text);
	// the framing dialects (mark, charset, white space, compression: readings R29) in ../framing.js
	const framed = frame('xml', text, { dialects: w && w.dialects, req: res.req });
	respond(res, status, { ...headers, ...framed.headers }, framed.body);
}

function sendEmpty(res, status, headers = {}) {
	respond(res, status, headers, Buffer.alloc(0));
}

/**
 * numericReferences: the text of an XML document as Go's encoding/xml escapes it. The builder
 * (xml.js) writes &quot; and &apos; and leaves tab, line feed and carriage return as they are;
 * Go writes &#34; &#39; &#x9; &#xA; &#xD;. The line break after the XML declaration is markup, not
 * text, and stays.
 */
function goEscaped(xml) {
	const m = /^(<\?xml[^>]*\?>\n?)/.exec(xml);
	const decl = m ? m[1] : '';
	const body = xml
		.slice(decl.length)
		.replace(/&quot;/g, '&#34;')
		.replace(/&apos;/g, '&#39;')
		.replace(/\t/g, '&#x9;')
		.replace(/\n/g, '&#xA;')
		.replace(/\r/g, '&#xD;');
	return decl + body;
}

/** extraFields: an unknown element first in the root element of an XML document. */
function withExtraElement(xml) {
	return xml.replace(/^(<\?xml[^>]*\?>\s*)?(<[A-Za-z][\w-]*(?:\s[^>]*)?>)/, (m, decl, open) => `${decl || ''}${open}${EXTRA_ELEMENT}`);
}

/** The headers of an answer with the extraFields header when that dialect is on. */
function wireHeaders(res, headers) {
	const w = res[WIRE];
	return w && w.extraHeader ? { ...headers, [w.extraHeader]: '1' } : headers;
}

/**
 * Every storage answer with a body in memory leaves here: afterCreate500 turns it into
 * 500 InternalError, resetMidBody cuts it (see the header), extraFields adds its header.
 */
function respond(res, status, headers, body) {
	const w = res[WIRE];
	const rule = w && w.rule;
	if (rule && rule.kind === 'afterCreate500') {
		w.rule = null;
		const requestId = res.getHeader('X-Trans-Id') || crypto.randomUUID();
		return sendXml(res, 500, errorDoc('InternalError', 'We encountered an internal error. Please try again.', requestId));
	}
	const out = wireHeaders(res, { ...headers, 'Content-Length': body.length });
	if (rule && rule.kind === 'resetMidBody' && body.length) {
		res.writeHead(status, out);
		return void res.write(body.subarray(0, cutAt(rule, body.length)), () => closeConnection(res));
	}
	res.writeHead(status, out);
	res.end(body);
}

/** resetMidBody: how many of `length` body bytes are sent (afterBytes, default 65536, never all). */
function cutAt(rule, length) {
	const after = rule.afterBytes === undefined ? 65536 : rule.afterBytes;
	return Math.max(0, Math.min(after, length - 1));
}

/** Ends the connection once what was written is flushed (the client sees a short body). */
function closeConnection(res) {
	const socket = res.socket;
	if (socket && !socket.destroyed) socket.destroySoon();
	else res.destroy();
}

module.exports = {
	WIRE,
	EXTRA_ELEMENT,
	encodeSegment,
	decodePath,
	decodeQuery,
	iso,
	httpDate,
	drain,
	readText,
	sendXml,
	sendEmpty,
	wireHeaders,
	respond,
	cutAt,
	closeConnection,
};

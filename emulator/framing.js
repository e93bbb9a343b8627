'use strict';
/**
 * How an answer's document is framed on the wire: the bytes around and under a JSON or XML
 * document that a service may write without changing the document (docs/vendor/readings.md
 * R46 for JSON, R29 for XML). The management interface frames every JSON envelope here
 * (management/core-envelope.js `send`), the object storage every XML document
 * (storage/index.js `sendXml`). The default frames nothing: UTF-8 without a mark, `application/json;
 * charset=utf-8` or `application/xml`, uncompressed. The dialects (dialects.js):
 *
 *   byteOrderMark     EF BB BF before the document, as .NET and Windows-built servers write it
 *   charsetLatin1     the document in ISO-8859-1: JSON says so in its Content-Type (`charset=
 *                     ISO-8859-1`) and writes characters beyond U+00FF as \u escapes; XML says
 *                     so in its declaration only (Content-Type `application/xml`, no charset)
 *                     and writes them as character references
 *   jsonContentTypes  JSON under another Content-Type, chosen by endpoint: text/html with
 *                     charset=UTF-8 (what PHP sends unless told otherwise), text/plain,
 *                     application/javascript, application/json without charset, or none
 *   whitespaceAround  JSON between line breaks and spaces; XML after a line break (before its
 *                     declaration, which is not XML but is what a server script with an empty
 *                     line ahead of its code writes: readings R29)
 *   compressedAnswers the document compressed with a coding the request accepts (Accept-Encoding):
 *                     JSON by endpoint gzip, deflate or br; XML gzip (what a proxy in front of a
 *                     service does); nothing when the request accepts none of them
 *
 *   frame(kind, text, { dialects, req, path, contentType }) -> { body: Buffer, headers }
 */
const zlib = require('node:zlib');

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The default Content-Type of each kind of document. */
const CONTENT_TYPE = { json: 'application/json; charset=utf-8', xml: 'application/xml' };

/** jsonContentTypes: the types a JSON answer may go under (null: no Content-Type header). */
const JSON_TYPES = ['text/html; charset=UTF-8', 'text/plain;charset=utf-8', 'application/javascript', 'application/json', null];

/** A small stable number of a path, so an endpoint always gets the same type or coding. */
function pick(path, n) {
	let h = 0;
	for (const c of String(path || '')) h = (h * 31 + c.codePointAt(0)) >>> 0;
	return h % n;
}

/** charsetLatin1: JSON text in ISO-8859-1, every character beyond U+00FF as a \u escape (JSON.stringify output only has them in strings). */
function latin1Json(text) {
	return Buffer.from(
		text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
		'latin1',
	);
}

/** charsetLatin1: an XML document in ISO-8859-1, declared so, every character beyond U+00FF as a character reference. */
function latin1Xml(text) {
	const declared = /^<\?xml[^>]*\?>/.test(text)
		? text.replace(/^(<\?xml[^>]*?)\s+encoding\s*=\s*(["'])[^"']*\2/, '$1').replace(/^<\?xml([^>]*?)\s*\?>/, '<?xml$1 encoding="ISO-8859-1"?>')
		: `<?xml version="1.0" encoding="ISO-8859-1"?>\n${text}`;
	return Buffer.from(
		declared.replace(/[\u{100}-\u{10ffff}]/gu, (c) => `&#x${c.codePointAt(0).toString(16).toUpperCase()};`),
		'latin1',
	);
}

/** compressedAnswers: the codings of `candidates` the request accepts, in order (q=0 refuses one). */
function accepted(req, candidates) {
	const header = String((req && req.headers['accept-encoding']) || '').toLowerCase();
	const offered = new Map(
		header
			.split(',')
			.map((part) => part.trim().split(';'))
			.filter(([name]) => name)
			.map(([name, ...params]) => {
				const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)/.exec(p)).find(Boolean);
				return [name.trim(), q ? Number(q[1]) : 1];
			}),
	);
	return candidates.filter((c) => (offered.get(c) ?? offered.get('*') ?? 0) > 0);
}

const COMPRESS = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };

/**
 * The bytes and headers of a document of `kind` ('json' or 'xml') as the enabled dialects frame
 * it. `contentType` overrides the default type (before jsonContentTypes and charsetLatin1).
 */
function frame(kind, text, { dialects, req, path, contentType } = {}) {
	const has = (name) => !!(dialects && dialects.has(name));
	const headers = { 'Content-Type': contentType || CONTENT_TYPE[kind] };
	let body;
	if (has('charsetLatin1')) {
		body = kind === 'json' ? latin1Json(text) : latin1Xml(text);
		if (kind === 'json') headers['Content-Type'] = 'application/json; charset=ISO-8859-1';
	} else body = Buffer.from(text, 'utf8');
	if (kind === 'json' && has('jsonContentTypes')) {
		const type = JSON_TYPES[pick(path, JSON_TYPES.length)];
		if (type === null) delete headers['Content-Type'];
		else headers['Content-Type'] = has('charsetLatin1') && /charset/i.test(type) ? type.replace(/charset=[^;]*/i, 'charset=ISO-8859-1') : type;
	}
	if (has('whitespaceAround')) body = kind === 'json' ? Buffer.concat([Buffer.from('\r\n  '), body, Buffer.from('\n\n')]) : Buffer.concat([Buffer.from('\n'), body]);
	// a mark says UTF-8, so a document in ISO-8859-1 never gets one
	if (has('byteOrderMark') && !has('charsetLatin1')) body = Buffer.concat([BOM, body]);
	if (has('compressedAnswers')) {
		const codings = accepted(req, kind === 'json' ? ['gzip', 'deflate', 'br'] : ['gzip']);
		if (codings.length) {
			const coding = codings[pick(path, codings.length)];
			body = COMPRESS[coding](body);
			headers['Content-Encoding'] = coding;
			headers.Vary = 'Accept-Encoding';
		}
	}
	return { body, headers };
}

module.exports = { frame, CONTENT_TYPE };

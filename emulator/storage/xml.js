'use strict';
/** XML output for the storage emulator: a tiny escaping builder, the namespace, the error body. */
const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function esc(value) {
	return String(value)
		.replace(/[&<>"']/g, (c) => ENTITIES[c])
		.replace(
			/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g,
			(c) => `&#x${c.charCodeAt(0).toString(16)};`,
		);
}

/** `<name>escaped text</name>`; nothing when the value is undefined or null. */
function el(name, value) {
	if (value === undefined || value === null) return '';
	return `<${name}>${esc(value)}</${name}>`;
}

/** `<name attrs>children</name>` where children are already-built element strings. */
function node(name, children, attrs = '') {
	const inner = Array.isArray(children) ? children.join('') : children || '';
	return `<${name}${attrs ? ' ' + attrs : ''}>${inner}</${name}>`;
}

/** A whole document with the root in the S3 namespace. */
function doc(root, children) {
	return `<?xml version="1.0" encoding="UTF-8"?>\n${node(root, children, `xmlns="${NS}"`)}`;
}

/** The error body of docs/vendor/readings.md#r16: Code, Message, RequestId (plus S3's debugging extras when given). */
function errorDoc(code, message, requestId, extra = {}) {
	const parts = [el('Code', code), el('Message', message), el('RequestId', requestId)];
	for (const [k, v] of Object.entries(extra)) parts.push(el(k, v));
	return `<?xml version="1.0" encoding="UTF-8"?>\n${node('Error', parts)}`;
}

module.exports = { NS, XSI, esc, el, node, doc, errorDoc };

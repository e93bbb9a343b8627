/**
 * XML of the object storage (S3 forms). The only module that imports fast-xml-parser; the
 * build bundles it into this file's output so the package has no runtime dependencies.
 */
import { XMLParser } from 'fast-xml-parser';

import { withoutSpaceBeforeDeclaration, xmlText } from '../charset';

const ARRAYS = new Set(['Contents', 'CommonPrefixes', 'Part', 'Grant', 'Bucket', 'Upload']);

const parser = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: '@',
	removeNSPrefix: false,
	parseTagValue: false,
	parseAttributeValue: false,
	trimValues: false,
	processEntities: true,
	isArray: (name) => ARRAYS.has(name),
});

export type XmlNode = { [key: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

/** A character XML 1.0 allows (its production Char): what a character reference may name. */
function isXmlChar(code: number): boolean {
	return (
		code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
	);
}

/** What the parser makes of each character that markup uses, so a decoded reference stays text. */
const PREDEFINED: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

/**
 * Numeric character references (`&#39;`, `&#x27;`, `&#34;`: the form Go-based S3 servers write)
 * turned into their characters before parsing; the parser decodes the five predefined entities
 * (`&lt; &gt; &amp; &apos; &quot;`) itself, in one pass, so `&amp;#39;` stays the text `&#39;`.
 * These are every reference XML defines. A decoded `<`, `&`, `>`, `"` or `'` becomes its
 * predefined entity, so it stays text; CDATA sections, comments and processing instructions are
 * left alone (XML decodes no reference there); a reference to a character XML does not allow
 * (`&#0;`) and every other named entity (`&nbsp;`, HTML's) are not XML's and stay as written.
 */
export function decodeCharacterReferences(xml: string): string {
	if (!xml.includes('&#')) return xml;
	return xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|&#(?:([0-9]+)|x([0-9a-fA-F]+));/g, (match, dec?: string, hex?: string) => {
		if (dec === undefined && hex === undefined) return match;
		const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
		if (!Number.isSafeInteger(code) || !isXmlChar(code)) return match;
		const ch = String.fromCodePoint(code);
		return PREDEFINED[ch] ?? ch;
	});
}

/** A document type declaration in the prolog (after the XML declaration, comments, processing instructions). */
const DOCTYPE = /^(?:[ \t\r\n]+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<!DOCTYPE/i;

/**
 * An XML answer with a document type declaration (readings R29). No answer of the object storage
 * has one; the entities one declares would be expanded into the text (to any size), so such an
 * answer is not read at all.
 */
export class XmlDoctypeError extends Error {
	readonly description =
		'Check the Endpoint of the credential: something other than the object storage (a proxy, a web server) may be answering. Entities a document type declares are never expanded.';

	constructor() {
		super('The object storage answered with XML that has a document type declaration (<!DOCTYPE ...>), which no answer of the object storage has; it was not read');
	}
}

/**
 * Parses XML into plain objects: the bytes of an answer (decoded as xmlText in ../charset.ts
 * says, with the answer's Content-Type) or its text. Text is kept exactly (object keys may begin
 * or end with spaces); whitespace between elements is dropped; every character reference XML
 * defines is decoded (decodeCharacterReferences), and nothing more. A document type declaration
 * is refused (XmlDoctypeError); an encoding the node cannot read too (XmlEncodingError).
 */
export function parseXml(xml: string | Uint8Array, contentType?: unknown): XmlNode {
	const text = typeof xml === 'string' ? withoutSpaceBeforeDeclaration(xml.replace(/^\uFEFF/, '')) : xmlText(xml, contentType);
	if (DOCTYPE.test(text)) throw new XmlDoctypeError();
	return clean(parser.parse(decodeCharacterReferences(text))) as XmlNode;
}

/**
 * An XML Schema boolean as S3 services write it: `true`/`false` (S3), `1`/`0` (the schema's
 * other lexical form), in any case (`True`, written by some servers); surrounding whitespace
 * ignored. `undefined` for an absent element (''), and for anything else: callers must not
 * guess what such a value means.
 */
export function xmlBoolean(value: string): boolean | undefined {
	const v = value.trim().toLowerCase();
	if (v === 'true' || v === '1') return true;
	if (v === 'false' || v === '0') return false;
	return undefined;
}

function clean(value: unknown): XmlValue {
	if (Array.isArray(value)) return value.map(clean);
	if (value === null || value === undefined) return '';
	if (typeof value !== 'object') return String(value);
	const out: XmlNode = {};
	const entries = Object.entries(value as Record<string, unknown>);
	const hasChildren = entries.some(([k]) => k !== '#text' && !k.startsWith('@'));
	for (const [k, v] of entries) {
		if (k === '#text' && hasChildren) continue;
		out[k] = clean(v);
	}
	if (!hasChildren && out['#text'] !== undefined && Object.keys(out).length === 1) return out['#text'];
	return out;
}

/** Text of a child element, '' when absent. */
export function text(node: XmlValue | undefined, name: string): string {
	if (!node || typeof node !== 'object' || Array.isArray(node)) return '';
	const v = node[name];
	if (v === undefined) return '';
	if (typeof v === 'string') return v;
	if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : '';
	return typeof v['#text'] === 'string' ? v['#text'] : '';
}

export function children(node: XmlValue | undefined, name: string): XmlNode[] {
	if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
	const v = node[name];
	if (v === undefined) return [];
	const list = Array.isArray(v) ? v : [v];
	return list.map((x) => (typeof x === 'string' ? { '#text': x } : (x as XmlNode)));
}

export function escapeXml(s: string): string {
	return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

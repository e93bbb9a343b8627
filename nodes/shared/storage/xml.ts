/**
 * XML of the object storage (S3 forms). The only module that imports fast-xml-parser; the
 * build bundles it into this file's output so the package has no runtime dependencies.
 */
import { XMLParser } from 'fast-xml-parser';

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

/**
 * Parses XML into plain objects. Text is kept exactly (object keys may begin or end with
 * spaces); whitespace between elements is dropped.
 */
export function parseXml(xml: string): XmlNode {
	return clean(parser.parse(xml)) as XmlNode;
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

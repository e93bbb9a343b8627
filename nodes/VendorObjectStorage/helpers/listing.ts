/** Readers of List Objects answers shared by the operation and the compatibility check. */
import { text, type XmlValue } from '../../shared/storage/xml';

/** Code-point order, the order the service lists in. */
export function compareKeys(a: string, b: string): number {
	const x = [...a];
	const y = [...b];
	for (let n = 0; n < Math.min(x.length, y.length); n++) {
		if (x[n] !== y[n]) return x[n].codePointAt(0)! < y[n].codePointAt(0)! ? -1 : 1;
	}
	return x.length - y.length;
}

/**
 * The common prefixes of a ListBucketResult, in either form: S3's
 * `<CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes>` or the seed's "repeated string"
 * `<CommonPrefixes>p/</CommonPrefixes>`.
 */
export function commonPrefixesOf(doc: XmlValue | undefined): string[] {
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [];
	const raw = doc.CommonPrefixes;
	if (raw === undefined) return [];
	const out: string[] = [];
	for (const entry of Array.isArray(raw) ? raw : [raw]) {
		if (typeof entry === 'string') out.push(entry);
		else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
			if (entry.Prefix !== undefined) out.push(text(entry, 'Prefix'));
			else if (typeof entry['#text'] === 'string') out.push(entry['#text']);
		}
	}
	return out.filter((p) => p !== '');
}


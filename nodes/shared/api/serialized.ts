/**
 * Lists the service writes in a field as one value. The DNS plans give `monitor_notice` (the
 * notification methods of downtime monitors) in PHP serialize() notation; other services may
 * write the same list as JSON or as a comma-separated string, and all read alike here.
 */
const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * The entries of a serialized list of a DNS plan (`monitor_notice` and the like): PHP
 * serialize() notation `a:2:{i:0;s:4:"mail";i:1;s:3:"sms";}`, a JSON array (as text or
 * parsed), or a comma-separated string.
 */
export function serializedList(v: unknown): string[] {
	if (Array.isArray(v)) return v.map((x) => s(x).trim()).filter(Boolean);
	if (typeof v === 'object' && v !== null) return Object.values(v).map((x) => s(x).trim()).filter(Boolean);
	const text = s(v).trim();
	if (!text) return [];
	if (/^a:\d+:\{/.test(text)) {
		const out: string[] = [];
		// values are the odd entries: i:<key>;s:<len>:"<value>"; (or i:<key>;i:<n>;)
		const re = /(?:i|s):(?:\d+|\d+:"[^"]*");(s:\d+:"([^"]*)"|i:(-?\d+)|d:([-\d.eE]+));/g;
		for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[2] ?? m[3] ?? m[4]);
		return out.filter((x) => x !== undefined && x !== '');
	}
	if (text.startsWith('[')) {
		try {
			return serializedList(JSON.parse(text));
		} catch {
			// not JSON after all: read it as a comma list
		}
	}
	return text.split(',').map((x) => x.trim()).filter(Boolean);
}

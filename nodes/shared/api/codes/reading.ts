/**
 * Reading a value the service sent as a code: `1`, `"1"`, `" 1 "` and `"1.0"` read alike (the
 * service writes most numbers as strings, some as numbers); a word that is already one of a
 * table's words reads as that word; a line may come as a carrier's name instead of its code.
 */
import type { OptionDecl } from '../declarations';

/** Code (as a string, the way the service sends it) → word. */
export type CodeTable = Record<string, string>;

/** The word table of a list of codes. */
export const table = (options: OptionDecl[]): CodeTable => Object.fromEntries(options.map((o) => [String(o.value), o.name]));

/**
 * A value as a table key: `1`, `"1"`, `" 1 "` and `"1.0"` read alike; undefined when there is
 * none (absent, null, empty, an object). Never compare a service value with a number directly.
 */
export function codeKey(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'object') return undefined;
	const s = String(value).trim();
	if (s === '') return undefined;
	return /^[-+]?\d+(\.0*)?$/.test(s) ? String(Number(s)) : s;
}

/**
 * The word of a code, or undefined when the table does not hold it. A value that already is one
 * of the table's words (any case: "Online banking") gives that word, so a service that sends
 * display names instead of codes reads the same.
 */
export function wordOf(codes: CodeTable, value: unknown): string | undefined {
	const key = codeKey(value);
	if (key === undefined) return undefined;
	if (codes[key] !== undefined) return codes[key];
	const lower = key.toLowerCase();
	return Object.values(codes).find((w) => w.toLowerCase() === lower);
}

/** Names a service may give as a line's `linetype` instead of its code (lower case, single spaces). */
const LINE_ALIASES: Record<string, number> = {
	'inner network': 1,
	'inner line': 1,
	'internal network': 1,
	intranet: 1,
	inner: 1,
	'内网': 1,
	telecom: 2,
	'china telecom': 2,
	ctcc: 2,
	'电信': 2,
	unicom: 3,
	'china unicom': 3,
	cucc: 3,
	'联通': 3,
	mobile: 4,
	'china mobile': 4,
	cmcc: 4,
	'移动': 4,
	bgp: 5,
	'dual line': 6,
	dual: 6,
	'双线': 6,
};

/** The line code (LINES in hosts.ts) of a `linetype` given as a number, a numeric string or a known name; undefined otherwise. */
export function lineCode(linetype: unknown): number | undefined {
	const text = (linetype === undefined || linetype === null ? '' : String(linetype)).trim();
	if (/^\d+$/.test(text)) return Number(text);
	return LINE_ALIASES[text.toLowerCase().replace(/[\s_-]+/g, ' ')];
}

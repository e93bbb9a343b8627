/**
 * Reading one entered value: whether it is given, as a yes/no, a number, a date or a list of
 * entries, its checks (validation.ts) and its wire form (`send`). Every refusal is an InputError
 * naming the field and saying how to fix it, raised before anything is sent: a value is taken as
 * the user meant it or refused, never turned into something else ("TRUE" is true, "0x10" and
 * "ten" are not numbers, 2026-02-30 is not a date, a date is a day in the workflow's time zone).
 */
import { InputError } from '../errors';
import { check } from '../validation';
import type { FieldDecl, SendAs } from './declarations';
import { instantOf, wallTime } from './time';

/** Whether a value counts as not given: absent, empty text or an empty list. */
export function isEmpty(v: unknown): boolean {
	return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Every usual spelling of yes and no, as typed or as an expression gives it (case and spaces aside). */
const TRUE_WORDS = new Set(['true', 'yes', 'on', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', 'n', '0']);

/**
 * A yes/no value from a switch or an expression: true/false, yes/no, on/off, y/n, 1/0 in any
 * case; anything else is refused naming the field (an expression giving "TRUE" must not switch
 * something off).
 */
export function readBoolean(raw: unknown, label: string): boolean {
	if (typeof raw === 'boolean') return raw;
	if (raw === 1 || raw === 0) return raw === 1;
	if (typeof raw === 'string') {
		const word = raw.trim().toLowerCase();
		if (TRUE_WORDS.has(word)) return true;
		if (FALSE_WORDS.has(word)) return false;
	}
	throw new InputError(
		`The "${label}" field must be true or false, not "${String(raw)}"`,
		`Switch "${label}" in the editor, or give true or false from the expression (yes/no, on/off and 1/0 are read as well).`,
	);
}

/** A decimal number as written: digits with an optional sign and fraction; no hexadecimal, exponent or words. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A number as typed or given by an expression; undefined when it is not a decimal number. */
export function decimalOf(raw: unknown): number | undefined {
	if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
	if (typeof raw !== 'string' || !DECIMAL.test(raw.trim())) return undefined;
	return Number(raw.trim());
}

/** A whole number from `min` on (a Limit, a count), refused naming the field otherwise. */
export function readWholeNumber(raw: unknown, label: string, min = Number.MIN_SAFE_INTEGER, hint = 'Enter a whole number'): number {
	const n = decimalOf(raw);
	if (n === undefined || !Number.isSafeInteger(n) || n < min) {
		throw new InputError(`The "${label}" field must be a whole number${min > Number.MIN_SAFE_INTEGER ? ` from ${min}` : ''}, not "${String(raw)}"`, `${hint}.`);
	}
	return n;
}

export function toInt(field: FieldDecl, raw: unknown): number {
	const n = decimalOf(raw);
	if (n === undefined || !Number.isSafeInteger(n)) {
		throw new InputError(
			`The "${field.displayName}" field must be a whole number, not "${String(raw)}"`,
			`Enter a whole number written with digits${field.description ? `: ${field.description}` : ''}.`,
		);
	}
	return n;
}

export function toNumber(field: FieldDecl, raw: unknown): number {
	const n = decimalOf(raw);
	if (n === undefined) {
		throw new InputError(`The "${field.displayName}" field must be a number, not "${String(raw)}"`, 'Enter a number written with digits, such as 12.5.');
	}
	return n;
}

/** The entries of a list typed one per line or comma-separated (`linesOnly`: new lines only), trimmed, without empty ones. */
export function splitEntries(raw: unknown, linesOnly = false): string[] {
	if (Array.isArray(raw)) return raw.map((x) => String(x).trim()).filter(Boolean);
	return String(raw ?? '')
		.split(linesOnly ? /\r?\n/ : /\r?\n|,/)
		.map((s) => s.trim())
		.filter(Boolean);
}

/** Y-m-d, then an optional time and zone: 2026-11-22, 2026-11-22 10:04, 2026-11-22T10:04:05.123+08:00. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function notADate(field: FieldDecl, raw: unknown): InputError {
	return new InputError(
		`The "${field.displayName}" field is not a date: "${String(raw)}"`,
		'Pick a date, or give one such as 2026-11-22 (a time and a zone may follow: 2026-11-22T10:00:00+08:00).',
	);
}

/**
 * A date or time entered for a request, as an instant, read in the workflow's time zone: a date
 * or a time without a zone means that day or time in `timeZone` (the zone the output's times are
 * given in, docs/vendor/readings.md#r40); a time with a zone, a JavaScript date and Unix seconds
 * or milliseconds are the instant they say. Only real dates pass: 2026-02-30 is refused, not
 * moved to March.
 */
export function toInstant(field: FieldDecl, raw: unknown, timeZone: string): number {
	if (raw instanceof Date) {
		if (Number.isNaN(raw.getTime())) throw notADate(field, raw);
		return raw.getTime();
	}
	const text = String(raw).trim();
	if (/^\d{9,13}$/.test(text)) return text.length > 11 ? Number(text) : Number(text) * 1000;
	const m = DATE_TIME.exec(text);
	if (!m) throw notADate(field, raw);
	const [, y, mo, d, h = '0', mi = '0', sec = '0', zone] = m;
	const w = { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: +sec };
	if (w.month < 1 || w.month > 12 || w.day < 1 || w.day > daysIn(w.year, w.month) || w.hour > 23 || w.minute > 59 || w.second > 59) throw notADate(field, raw);
	if (!zone) return instantOf(w, timeZone);
	const utc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
	if (/^z$/i.test(zone)) return utc;
	const [, sign, hh, mm = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
	const offset = (Number(hh) * 60 + Number(mm)) * 60000;
	if (Number(hh) > 14 || Number(mm) > 59) throw notADate(field, raw);
	return sign === '+' ? utc - offset : utc + offset;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the service takes a day, `Y-m-d`, in the workflow's time zone. */
export function ymd(ms: number, timeZone: string): string {
	const w = wallTime(ms, timeZone);
	return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** A value in its wire form: the field's `send`, else the kind's `fallback`. */
export function sendAs(field: FieldDecl, value: unknown, fallback: SendAs): unknown {
	const form = field.send ?? fallback;
	const list = Array.isArray(value) ? value : [value];
	switch (form) {
		case 'string':
			return Array.isArray(value) ? value.join(',') : String(value);
		case 'number':
			return Array.isArray(value) ? value.map(Number) : Number(value);
		case 'comma':
			return list.map(String).join(',');
		case 'array':
			return list;
		case 'intArray':
			return list.map((x) => {
				const n = decimalOf(x);
				if (n === undefined || !Number.isSafeInteger(n)) throw new InputError(`The "${field.displayName}" field must hold numeric IDs, not "${String(x)}"`, 'Choose from the list or give numeric IDs.');
				return n;
			});
	}
	return value;
}

/** Runs the field's checks (`validate`) on a value; the first problem is thrown. */
export function runValidators(field: FieldDecl, value: unknown, label = field.displayName) {
	for (const v of field.validate ?? []) {
		const problem = check(v, value);
		if (problem) {
			throw new InputError(`Invalid "${label}": ${problem}`, field.description ? `${field.displayName}: ${field.description}.` : `Correct the "${label}" field.`);
		}
	}
}

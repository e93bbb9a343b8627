/**
 * Reading one entered value: whether it is given, as a number, a date or a list of entries, its
 * checks (validation.ts) and its wire form (`send`). Every refusal is an InputError naming the
 * field and saying how to fix it, raised before anything is sent.
 */
import { InputError } from '../errors';
import { check } from '../validation';
import type { FieldDecl, SendAs } from './declarations';

/** Whether a value counts as not given: absent, empty text or an empty list. */
export function isEmpty(v: unknown): boolean {
	return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

export function toInt(field: FieldDecl, raw: unknown): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isInteger(n)) {
		throw new InputError(
			`The "${field.displayName}" field must be a whole number, not "${String(raw)}"`,
			`Enter a whole number${field.description ? `: ${field.description}` : ''}.`,
		);
	}
	return n;
}

export function toNumber(field: FieldDecl, raw: unknown): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (Number.isNaN(n)) {
		throw new InputError(`The "${field.displayName}" field must be a number, not "${String(raw)}"`, 'Enter a number such as 12.5.');
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

export function toDate(field: FieldDecl, raw: unknown): Date {
	const d = raw instanceof Date ? raw : new Date(String(raw));
	if (Number.isNaN(d.getTime())) {
		throw new InputError(`The "${field.displayName}" field is not a date: "${String(raw)}"`, 'Pick a date or enter one such as 2026-11-22.');
	}
	return d;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as the service takes it: `Y-m-d`. */
export const ymd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

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
				const n = Number(x);
				if (!Number.isInteger(n)) throw new InputError(`The "${field.displayName}" field must hold numeric IDs, not "${String(x)}"`, 'Choose from the list or give numeric IDs.');
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

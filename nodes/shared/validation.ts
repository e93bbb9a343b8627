/**
 * Checks on user input, run before any request is sent. Each returns a problem text (what is
 * wrong and what is expected) or undefined when the value is fine.
 */
import type { Validator } from './api/declarations';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(v: string): boolean {
	return IPV4.test(v);
}

export function isIpv6(v: string): boolean {
	if (!/^[0-9a-fA-F:.]+$/.test(v) || !v.includes(':')) return false;
	const parts = v.split('::');
	if (parts.length > 2) return false;
	const groups = (s: string) => (s === '' ? [] : s.split(':'));
	let tail = groups(parts[1] ?? '');
	let head = groups(parts[0]);
	const last = (parts.length === 2 ? tail : head).slice(-1)[0];
	let extra = 0;
	if (last && last.includes('.')) {
		if (!isIpv4(last)) return false;
		extra = 2;
		if (parts.length === 2) tail = tail.slice(0, -1);
		else head = head.slice(0, -1);
	}
	const all = [...head, ...tail];
	if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
	const count = all.length + extra;
	return parts.length === 2 ? count < 8 : count === 8;
}

/** A domain name: dot-separated labels of letters (any script), digits and hyphens, not an IP. */
export function isDomain(v: string): boolean {
	const name = v.endsWith('.') ? v.slice(0, -1) : v;
	if (name.length > 253 || !name.includes('.')) return false;
	const labels = name.split('.');
	return labels.every((label) => /^[\p{L}\p{N}]([\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/** A host name as DNS values hold it (CNAME, MX, NS targets): labels may also hold `_`. */
export function isHostname(v: string): boolean {
	const name = v.endsWith('.') ? v.slice(0, -1) : v;
	return name.length > 0 && name.length <= 253 && name.split('.').every((l) => /^[\p{L}\p{N}_]([\p{L}\p{N}_-]{0,61}[\p{L}\p{N}_])?$/u.test(l));
}

/** An e-mail address: something, one @, a domain part; nothing stricter is certain. */
const EMAIL = /^[^@\s,;]+@[^@\s,;]+$/;

function splitList(v: string): string[] {
	return v
		.split(/[,\n]/)
		.map((s) => s.trim())
		.filter(Boolean);
}

/** A TCP/UDP port: 1-65535. */
function portOk(s: string): boolean {
	return /^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= 65535;
}

function ipOrCidr(v: string): boolean {
	const [addr, bits, more] = v.split('/');
	const max = isIpv4(addr) ? 32 : isIpv6(addr) ? 128 : -1;
	return max > 0 && more === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
}

/** Whole months between yyyymm and today's month (UTC). */
function monthsBack(yyyymm: string, now: Date): number {
	const y = Number(yyyymm.slice(0, 4));
	const m = Number(yyyymm.slice(4, 6));
	return (now.getUTCFullYear() - y) * 12 + (now.getUTCMonth() + 1 - m);
}

export function check(validator: Validator, value: unknown, now: Date = new Date()): string | undefined {
	const s = Array.isArray(value) ? value.map(String) : String(value ?? '');
	const one = typeof s === 'string' ? s.trim() : '';
	switch (validator.kind) {
		case 'ipv4':
			return isIpv4(one) ? undefined : `"${one}" is not an IPv4 address such as 203.0.113.10`;
		case 'ipv6':
			return isIpv6(one) ? undefined : `"${one}" is not an IPv6 address such as 2001:db8::1`;
		case 'ip':
			return isIpv4(one) || isIpv6(one) ? undefined : `"${one}" is not an IP address`;
		case 'ipOrCidr':
			return ipOrCidr(one) ? undefined : `"${one}" is not an IP address or an address with a /prefix such as 10.0.0.0/8`;
		case 'ipList': {
			const list = Array.isArray(s) ? s : splitList(one);
			if (list.length === 0) return 'give at least one IP address';
			const bad = list.find((x) => !isIpv4(x.trim()) && !isIpv6(x.trim()));
			return bad === undefined ? undefined : `"${bad}" is not an IP address`;
		}
		case 'domain': {
			const name = validator.wildcard && one.startsWith('*.') ? one.slice(2) : one;
			if (isDomain(name)) return undefined;
			return `"${one}" is not a domain name such as cdn.example.com${validator.wildcard ? ', or *.example.com for a wildcard' : ''}`;
		}
		case 'hostname':
			return isHostname(one) ? undefined : `"${one}" is not a host name such as www.example.com`;
		case 'email':
			return EMAIL.test(one) ? undefined : `"${one}" is not an e-mail address`;
		case 'emailList': {
			const bad = splitList(one).find((x) => !EMAIL.test(x));
			return bad === undefined ? undefined : `"${bad}" is not an e-mail address`;
		}
		case 'multipleOf': {
			const n = Number(value);
			return Number.isInteger(n / validator.n) ? undefined : `${one} is not a multiple of ${validator.n}`;
		}
		case 'pattern':
			return new RegExp(validator.regex).test(one) ? undefined : validator.message;
		case 'port':
			return portOk(one) ? undefined : `"${one}" is not a port between 1 and 65535`;
		case 'timeRanges': {
			const hhmm = '([01]\\d|2[0-3]):[0-5]\\d';
			const re = new RegExp(`^${hhmm}-${hhmm}$`);
			const bad = one.split(',').find((p) => !re.test(p.trim()));
			return bad === undefined ? undefined : `"${bad}" is not a time range such as 08:00-18:00`;
		}
		case 'months': {
			const list = Array.isArray(s) ? s : splitList(one);
			for (const m of list) {
				if (!/^\d{4}(0[1-9]|1[0-2])$/.test(m)) return `"${m}" is not a month in the form yyyymm such as 202611`;
				const back = monthsBack(m, now);
				if (back > 12) return `${m} is more than 12 months back; the service keeps bills of the latest 12 months`;
			}
			return undefined;
		}
		case 'singleChar':
			return one.length <= 1 ? undefined : `"${one}" is ${one.length} characters; the separator must be at most one character`;
		case 'oneLine':
			return /[\r\n\u2028\u2029]/.test(typeof s === 'string' ? s : '') ? 'it holds a line break; a name is one line' : undefined;
		case 'count': {
			const n = Number(value);
			return Number.isFinite(n) && n < 0 ? `${one} is below 0; ${validator.what} is 0 or more` : undefined;
		}
	}
	return undefined;
}

/**
 * A control character in text a person gives (NUL, escape, backspace...; tab and line breaks
 * aside): no field of the vendor's documentation holds one, and a NUL ends a string in the
 * servers that store such fields, so the value would be cut or refused (docs/vendor/readings.md#r3).
 * Returns the problem, naming the character by its code point, or undefined.
 */
export function controlCharacterProblem(v: string): string | undefined {
	// by code unit, not a regular expression of control characters (the lint refuses those: no-control-regex)
	let index = 0;
	while (index < v.length && !isControl(v.charCodeAt(index))) index++;
	if (index === v.length) return undefined;
	const unit = v.charCodeAt(index);
	const code = `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
	return `it holds the control character ${code}${unit === 0 ? ' (NUL)' : ''} at position ${index + 1}; no field takes control characters`;
}

/** C0 controls but tab, line feed and carriage return, and DEL. */
const isControl = (c: number) => c <= 0x08 || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f) || c === 0x7f;

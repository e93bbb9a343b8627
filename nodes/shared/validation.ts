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

export function isDomain(v: string): boolean {
	if (v.length > 253 || !v.includes('.')) return false;
	return v
		.split('.')
		.every((label) => /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(label)) && !/^\d+$/.test(v.split('.').pop()!);
}

export function isHostname(v: string): boolean {
	const name = v.endsWith('.') ? v.slice(0, -1) : v;
	return name.length > 0 && name.length <= 253 && name.split('.').every((l) => /^[a-zA-Z0-9_]([a-zA-Z0-9-_]{0,61}[a-zA-Z0-9])?$/.test(l));
}

const EMAIL = /^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/;

function splitList(v: string): string[] {
	return v
		.split(/[,\n]/)
		.map((s) => s.trim())
		.filter(Boolean);
}

function inRange(n: number, min?: number, max?: number): boolean {
	return (min === undefined || n >= min) && (max === undefined || n <= max);
}

function portOk(s: string): boolean {
	return /^\d{1,5}$/.test(s) && inRange(Number(s), 1, 65535);
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
		case 'ipv4OrCidr': {
			const [ip, bits, more] = one.split('/');
			if (more === undefined && isIpv4(ip) && (bits === undefined || (/^\d{1,2}$/.test(bits) && Number(bits) <= 32))) return undefined;
			return `"${one}" is not an IPv4 address or CIDR block such as 10.0.0.0/8`;
		}
		case 'ipList': {
			const list = Array.isArray(s) ? s : splitList(one);
			if (list.length === 0) return 'give at least one IP address';
			const bad = list.find((x) => !isIpv4(x.trim()) && !isIpv6(x.trim()));
			return bad === undefined ? undefined : `"${bad}" is not an IP address`;
		}
		case 'ipOrCidrList': {
			const list = Array.isArray(s) ? s : splitList(one);
			const bad = list.find((x) => {
				const [addr, bits, more] = x.trim().split('/');
				const max = isIpv4(addr) ? 32 : isIpv6(addr) ? 128 : -1;
				return max < 0 || more !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max));
			});
			return bad === undefined ? undefined : `"${bad.trim()}" is not an IP address or CIDR block such as 203.0.113.0/24`;
		}
		case 'ipOrDomain':
			return isIpv4(one) || isIpv6(one) || isDomain(one) ? undefined : `"${one}" is not an IP address or domain name`;
		case 'domain':
			return isDomain(one) ? undefined : `"${one}" is not a domain name such as cdn.example.com`;
		case 'hostname':
			return isHostname(one) ? undefined : `"${one}" is not a host name such as www.example.com`;
		case 'email':
			return EMAIL.test(one) ? undefined : `"${one}" is not an e-mail address`;
		case 'emailList': {
			const bad = splitList(one).find((x) => !EMAIL.test(x));
			return bad === undefined ? undefined : `"${bad}" is not an e-mail address`;
		}
		case 'url':
			return /^https?:\/\/[^\s/]+/i.test(one) ? undefined : `"${one}" is not an http(s) URL`;
		case 'urlList': {
			const list = Array.isArray(s) ? s : splitList(one);
			if (list.length === 0) return 'give at least one URL';
			const bad = list.find((x) => !/^https?:\/\/[^\s/]+/i.test(x.trim()));
			return bad === undefined ? undefined : `"${bad}" is not an http(s) URL`;
		}
		case 'range': {
			const n = Number(value);
			if (Number.isNaN(n)) return `"${one}" is not a number`;
			if (inRange(n, validator.min, validator.max)) return undefined;
			if (validator.min !== undefined && validator.max !== undefined) return `${n} is outside ${validator.min}-${validator.max}`;
			return validator.min !== undefined ? `${n} is less than ${validator.min}` : `${n} is more than ${validator.max}`;
		}
		case 'multipleOf': {
			const n = Number(value);
			return Number.isInteger(n / validator.n) ? undefined : `${one} is not a multiple of ${validator.n}`;
		}
		case 'length': {
			const len = one.length;
			if (validator.min !== undefined && len < validator.min) return `it must be at least ${validator.min} characters long`;
			if (validator.max !== undefined && len > validator.max) return `it must be at most ${validator.max} characters long`;
			return undefined;
		}
		case 'pattern':
			return new RegExp(validator.regex).test(one) ? undefined : validator.message;
		case 'hostPassword':
			return /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[\x21-\x7e]{8,30}$/.test(one)
				? undefined
				: 'the password must be 8-30 characters with at least one upper-case letter, one lower-case letter and one digit, and no spaces';
		case 'port':
			return portOk(one) ? undefined : `"${one}" is not a port between 1 and 65535`;
		case 'portSpec': {
			const parts = one.split(',').map((p) => p.trim());
			const ok = parts.every((p) => {
				const [a, b, extra] = p.split('-');
				if (extra !== undefined) return false;
				return b === undefined ? portOk(a) : portOk(a) && portOk(b) && Number(a) <= Number(b);
			});
			return ok ? undefined : `"${one}" is not a port, a range such as 1000-2000, or a comma list of those`;
		}
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
				if (back < 0) return `${m} is in the future`;
				if (back > 12) return `${m} is more than 12 months back; the service keeps bills of the latest 12 months`;
			}
			return undefined;
		}
		case 'singleChar':
			return one.length <= 1 ? undefined : `"${one}" is ${one.length} characters; the separator must be at most one character`;
	}
	return undefined;
}

'use strict';
/** Small helpers shared by the management modules of the emulator. */

class ApiError extends Error {
	/** A failure envelope: HTTP 200 with `code` other than 1 and `message`. */
	constructor(message, code = 0, extra = {}) {
		super(message);
		this.code = code;
		this.extra = extra;
	}
}

const pad = (n) => String(n).padStart(2, '0');

/** "2026-11-22" in UTC. */
function displayDate(ms) {
	const d = new Date(ms);
	return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** "2026-11-22 10:04:05" in UTC, the display date-time of `created` fields. */
function displayTime(ms) {
	const d = new Date(ms);
	return `${displayDate(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** "3 minutes ago": the display strings of `_ago` fields. */
function ago(ms, now) {
	const s = Math.max(0, Math.round((now - ms) / 1000));
	if (s < 60) return `${s} seconds ago`;
	if (s < 3600) return `${Math.floor(s / 60)} minutes ago`;
	if (s < 86400) return `${Math.floor(s / 3600)} hours ago`;
	return `${Math.floor(s / 86400)} days ago`;
}

/** Most numeric values travel as strings (docs/vendor/management.md#values). */
const str = (v) => (v === undefined || v === null ? '' : String(v));

/** Rounded to cents. */
const round2 = (n) => Math.round(Number(n) * 100) / 100;

/** An amount of money as the service writes it: "12.50". */
const money = (n) => round2(n).toFixed(2);

/**
 * Reads typed parameters from a request body, the way the service checks them:
 *   p.int('id', { required: true })           integer or a string of digits
 *   p.decimal('price')                         number or numeric string
 *   p.str('name', { required: true, max: 64 })
 *   p.oneOf('type', ['file', 'dir'])
 *   p.array('domain_ids', { of: 'int' })       a JSON array, nothing else
 *   p.idList('id')                             "1,2,3" or "1, 2, 3" (several ids) or a single int;
 *                                              each id once, in the order given
 *   p.object('ip')
 * A wrong type or a missing required value is an ApiError naming the parameter.
 */
class Params {
	constructor(body) {
		this.body = body || {};
	}
	has(name) {
		const v = this.body[name];
		return v !== undefined && v !== null && v !== '';
	}
	raw(name) {
		return this.body[name];
	}
	_missing(name, required) {
		if (!this.has(name)) {
			if (required) throw new ApiError(`${name} is required`);
			return true;
		}
		return false;
	}
	int(name, { required = false, min, max, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (typeof v === 'boolean' || !/^-?\d+$/.test(String(v).trim())) throw new ApiError(`${name} must be an integer`);
		const n = Number(v);
		if (min !== undefined && n < min) throw new ApiError(`${name} must be at least ${min}`);
		if (max !== undefined && n > max) throw new ApiError(`${name} must be at most ${max}`);
		return n;
	}
	decimal(name, { required = false, min, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (typeof v === 'boolean' || !/^-?\d+(\.\d+)?$/.test(String(v).trim())) throw new ApiError(`${name} must be a number`);
		const n = Number(v);
		if (min !== undefined && n < min) throw new ApiError(`${name} must be at least ${min}`);
		return n;
	}
	str(name, { required = false, max, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (typeof v === 'object') throw new ApiError(`${name} must be a string`);
		const s = String(v);
		if (max !== undefined && s.length > max) throw new ApiError(`${name} must be at most ${max} characters`);
		return s;
	}
	oneOf(name, values, { required = false, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		const hit = values.find((x) => String(x) === String(v));
		if (hit === undefined) throw new ApiError(`${name} must be one of ${values.join(', ')}`);
		return hit;
	}
	array(name, { required = false, of, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (!Array.isArray(v)) throw new ApiError(`${name} must be an array`);
		if (of === 'int') {
			for (const x of v) if (!/^\d+$/.test(String(x))) throw new ApiError(`${name} must hold integer ids`);
			return v.map(Number);
		}
		if (of === 'string') {
			for (const x of v) if (typeof x !== 'string') throw new ApiError(`${name} must hold strings`);
		}
		return v;
	}
	idList(name, { required = false, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (typeof v === 'number' && Number.isInteger(v)) return [v];
		if (typeof v !== 'string' || !/^\d+(\s*,\s*\d+)*$/.test(v.trim()))
			throw new ApiError(`${name} must be an id or ids separated by commas`);
		return [...new Set(v.split(',').map(Number))];
	}
	object(name, { required = false, def } = {}) {
		if (this._missing(name, required)) return def;
		const v = this.body[name];
		if (typeof v !== 'object' || Array.isArray(v)) throw new ApiError(`${name} must be an object`);
		return v;
	}
}

/**
 * A paginated list reply: `page` from 1, `limit` (default 30), with total and totalpage.
 * The items are mapped after slicing so only the page is rendered.
 */
function pageOf(items, p, { defaultLimit = 30, key = 'data', render = (x) => x } = {}) {
	const limit = p.int('limit', { min: 1, max: 1000, def: defaultLimit });
	const page = p.int('page', { min: 1, def: 1 });
	const total = items.length;
	const totalpage = Math.max(1, Math.ceil(total / limit));
	const slice = items.slice((page - 1) * limit, page * limit).map(render);
	return { [key]: slice, limit: str(limit), page: str(page), total: str(total), totalpage: str(totalpage) };
}

module.exports = { ApiError, Params, displayDate, displayTime, ago, str, round2, money, pageOf };

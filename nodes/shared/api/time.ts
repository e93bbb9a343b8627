/**
 * Times of the management interface. The service writes `created`, `createtime`, `endtime`, ...
 * as display date-times ("2026-11-22 10:04:05", docs/vendor/management.md#values) without
 * saying in which time zone (docs/vendor/readings.md#r40); statistics carry Unix timestamps. The
 * nodes read display times in the workflow's time zone (n8n's workflow setting,
 * GENERIC_TIMEZONE by default): set it to the vendor's zone.
 * Only the platform's Intl is used (no runtime dependencies).
 */

const DISPLAY = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(timeZone, f);
	}
	return f;
}

/** Whether the platform knows the time zone. */
export function isTimeZone(timeZone: string): boolean {
	try {
		formatter(timeZone);
		return true;
	} catch {
		return false;
	}
}

export interface WallTime {
	year: number;
	month: number; // 1-12
	day: number;
	hour: number;
	minute: number;
	second: number;
}

/** The wall-clock time of an instant in a time zone. */
export function wallTime(ms: number, timeZone: string): WallTime {
	const parts: Record<string, number> = {};
	for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
	return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** Offset of the zone from UTC at an instant, in ms (UTC+8: 28800000). */
function offsetAt(ms: number, timeZone: string): number {
	const w = wallTime(ms, timeZone);
	return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant of a wall-clock time in a zone (months and days may overflow, as with Date.UTC). */
export function instantOf(w: WallTime, timeZone: string): number {
	const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
	let ms = guess - offsetAt(guess, timeZone);
	// once more at the result: right across a change of daylight saving time
	ms = guess - offsetAt(ms, timeZone);
	return ms;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-22T10:04:05+08:00": an instant as ISO 8601 in a zone, with the zone's offset. */
export function isoInZone(ms: number, timeZone: string): string {
	const w = wallTime(ms, timeZone);
	const off = Math.round(offsetAt(ms, timeZone) / 60000);
	const sign = off < 0 ? '-' : '+';
	const abs = Math.abs(off);
	return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The instant of a display date-time of the service read in `timeZone`; undefined when it is not one. */
export function parseDisplayTime(value: unknown, timeZone: string): number | undefined {
	if (typeof value !== 'string') return undefined;
	const m = DISPLAY.exec(value.trim());
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s] = m;
	return instantOf({ year: +y, month: +mo, day: +d, hour: Number(h ?? 0), minute: Number(mi ?? 0), second: Number(s ?? 0) }, timeZone);
}

/**
 * A time of a record as ISO 8601 with the zone's offset: a display date-time read in
 * `timeZone`, Unix seconds or milliseconds as they are. Empty values give null; anything else
 * is returned as it came.
 */
export function toIso(value: unknown, timeZone: string): unknown {
	if (value === undefined || value === null || value === '' || value === 0 || value === '0') return null;
	const display = parseDisplayTime(value, timeZone);
	if (display !== undefined) return isoInZone(display, timeZone);
	const text = String(value).trim();
	if (/^\d{9,13}$/.test(text)) {
		const n = Number(text);
		return isoInZone(text.length > 11 ? n : n * 1000, timeZone);
	}
	return value;
}

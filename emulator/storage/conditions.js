'use strict';
/** The conditions and the range of a Get Object: ETags compared, 200 / 304 / 412, byte ranges. */

const bareEtag = (v) =>
	String(v === undefined || v === null ? '' : v)
		.trim()
		.replace(/^W\//, '')
		.replace(/^"(.*)"$/, '$1')
		.toLowerCase();

function etagMatches(header, etag) {
	if (header.trim() === '*') return true;
	const want = bareEtag(etag);
	return header.split(',').some((t) => bareEtag(t) === want);
}

/**
 * 200, 304 or 412 for a GET's conditional headers (RFC 7232 order, as S3 does). `ifMatchIgnored`
 * (dialect ifMatchIgnored): If-Match is read as absent.
 */
function evaluateConditions(h, obj, ifMatchIgnored = false) {
	const lm = obj.lastModified;
	if (h['if-match'] !== undefined && !ifMatchIgnored) {
		if (!etagMatches(h['if-match'], obj.etag)) return 412;
	} else if (h['if-unmodified-since'] !== undefined) {
		const t = Date.parse(h['if-unmodified-since']);
		if (!Number.isNaN(t) && lm > t) return 412;
	}
	if (h['if-none-match'] !== undefined) {
		if (etagMatches(h['if-none-match'], obj.etag)) return 304;
	} else if (h['if-modified-since'] !== undefined) {
		const t = Date.parse(h['if-modified-since']);
		if (!Number.isNaN(t) && lm <= t) return 304;
	}
	return 200;
}

/** { start, end } for a single byte range, 'unsatisfiable', or null to ignore the header. */
function parseRange(header, size) {
	const m = /^bytes=(\d*)-(\d*)$/.exec(String(header).trim());
	if (!m || (m[1] === '' && m[2] === '')) return null;
	if (m[1] === '') {
		const n = Number(m[2]);
		if (n === 0 || size === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - n), end: size - 1 };
	}
	const start = Number(m[1]);
	if (m[2] !== '' && Number(m[2]) < start) return null;
	if (start >= size) return 'unsatisfiable';
	return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}


module.exports = { bareEtag, etagMatches, evaluateConditions, parseRange };

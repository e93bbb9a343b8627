'use strict';
/**
 * Sorted key index of a bucket. Keys are ordered by code point, which is the UTF-8 byte order
 * S3 lists in (plain JS `<` compares UTF-16 code units and gets astral characters wrong).
 * Listing finds its start by binary search and skips a whole common prefix at once, so paging
 * through 100,000 keys costs the page, not the bucket.
 */

function unit(u) {
	// Code-unit order -> code-point order: surrogates above U+E000..U+FFFF.
	return u >= 0xe000 ? u - 0x800 : u + 0x2000;
}

function cmpKeys(a, b) {
	if (a === b) return 0;
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) {
		let x = a.charCodeAt(i);
		let y = b.charCodeAt(i);
		if (x !== y) {
			if (x >= 0xd800 && y >= 0xd800) {
				x = unit(x);
				y = unit(y);
			}
			return x < y ? -1 : 1;
		}
	}
	return a.length < b.length ? -1 : 1;
}

/** First index whose key is >= k. */
function lowerBound(keys, k) {
	let lo = 0;
	let hi = keys.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (cmpKeys(keys[mid], k) < 0) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** First index whose key is > k. */
function upperBound(keys, k) {
	let lo = 0;
	let hi = keys.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (cmpKeys(keys[mid], k) <= 0) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** From index i (whose key starts with p), the first index whose key does not. */
function skipPrefix(keys, i, p) {
	let lo = i;
	let hi = keys.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (keys[mid].startsWith(p)) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

function insertKey(keys, k) {
	if (!keys.length || cmpKeys(keys[keys.length - 1], k) < 0) return void keys.push(k);
	const i = lowerBound(keys, k);
	if (keys[i] !== k) keys.splice(i, 0, k);
}

function removeKey(keys, k) {
	const i = lowerBound(keys, k);
	if (keys[i] === k) keys.splice(i, 1);
}

/**
 * One page of a listing. Entries are keys and common prefixes, at most maxKeys of them.
 * Returns { keys, prefixes, truncated, nextMarker }.
 *
 * Default (S3): the listing starts after `marker`; a common prefix at or before the marker was
 * returned on an earlier page; NextMarker is the last entry returned.
 * Dialect markerInclusive (docs/vendor/readings.md#r21): the listing
 * starts AT `marker` (a key or common prefix equal to it is returned again); a common prefix
 * before the marker is skipped; NextMarker is the first entry NOT returned, so a client that
 * follows NextMarker gets every entry once.
 */
function listPage(keys, { prefix = '', delimiter = '', marker = '', maxKeys = 1000, inclusive = false }) {
	let i = lowerBound(keys, prefix);
	if (marker) i = Math.max(i, inclusive ? lowerBound(keys, marker) : upperBound(keys, marker));
	const before = (entry) => {
		const c = cmpKeys(entry, marker);
		return inclusive ? c < 0 : c <= 0;
	};
	const outKeys = [];
	const prefixes = [];
	let count = 0;
	let last;
	let truncated = false;
	let nextEntry;
	while (i < keys.length) {
		const k = keys[i];
		if (!k.startsWith(prefix)) break;
		if (delimiter) {
			const j = k.indexOf(delimiter, prefix.length);
			if (j >= 0) {
				const cp = k.slice(0, j + delimiter.length);
				const next = skipPrefix(keys, i, cp);
				// A group at or before the marker was returned on an earlier page.
				if (marker && before(cp)) {
					i = next;
					continue;
				}
				if (count === maxKeys) {
					truncated = true;
					nextEntry = cp;
					break;
				}
				prefixes.push(cp);
				last = cp;
				count++;
				i = next;
				continue;
			}
		}
		if (count === maxKeys) {
			truncated = true;
			nextEntry = k;
			break;
		}
		outKeys.push(k);
		last = k;
		count++;
		i++;
	}
	const nextMarker = !truncated ? undefined : inclusive ? nextEntry : last;
	return { keys: outKeys, prefixes, truncated, nextMarker };
}

/**
 * Dialect listingRepeats (readings R74): the keys of a page as a service that repeats entries
 * lists them: after a marker, the two keys at or before it (the end of the previous page) come
 * first again, and every third key of the page is listed twice.
 */
function withRepeats(keys, pageKeys, { prefix = '', delimiter = '', marker = '' }) {
	const again = [];
	if (marker) {
		for (let i = upperBound(keys, marker) - 1; i >= 0 && again.length < 2; i--) {
			const k = keys[i];
			if (!k.startsWith(prefix)) break;
			if (delimiter && k.indexOf(delimiter, prefix.length) >= 0) continue;
			again.unshift(k);
		}
	}
	const out = [...again];
	pageKeys.forEach((k, n) => {
		out.push(k);
		if (n % 3 === 2) out.push(k);
	});
	return out;
}

module.exports = { cmpKeys, lowerBound, upperBound, insertKey, removeKey, listPage, withRepeats };

'use strict';
/**
 * A request to a local test server on a connection of its own (no keep-alive pool).
 *
 * Why not fetch: fetch keeps idle connections for reuse. A test that runs the nodes and the
 * emulator in one process blocks the event loop for seconds at a time (a trigger reading 30,000
 * listed objects); the first fetch after such a block can take a pooled connection whose idle
 * time the server's timer ends in the same turn, and the request fails with ECONNRESET although
 * neither side did anything wrong (seen on a loaded 2-core machine, load average 20). A new
 * connection per call has no such race; these calls are few (set-up and control of the emulator).
 *
 *   const res = await localRequest(`${url}/__emulator/clock`, { method: 'POST', json: { ... } });
 *   res.status; res.text; res.json()   (decompressed as fetch does; json() ignores a byte order mark, as fetch's)
 */
const http = require('node:http');
const zlib = require('node:zlib');

/** The body as fetch would give it: decompressed per Content-Encoding. */
function decoded(buffer, encoding) {
	switch (String(encoding || '').toLowerCase()) {
		case 'gzip':
		case 'x-gzip':
			return zlib.gunzipSync(buffer);
		case 'deflate':
			return zlib.inflateSync(buffer);
		case 'br':
			return zlib.brotliDecompressSync(buffer);
		default:
			return buffer;
	}
}

function localRequest(url, { method = 'GET', headers = {}, json, body } = {}) {
	const payload = json !== undefined ? JSON.stringify(json) : body;
	const allHeaders = { ...headers };
	if (json !== undefined && !Object.keys(allHeaders).some((h) => h.toLowerCase() === 'content-type')) allHeaders['content-type'] = 'application/json';
	if (payload !== undefined) allHeaders['content-length'] = Buffer.byteLength(payload);
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method, headers: allHeaders, agent: false }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('error', reject);
			res.on('end', () => {
				const text = decoded(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8');
				// as fetch's json(): UTF-8 with a leading byte order mark ignored
				resolve({ status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text.replace(/^\uFEFF/, '')) });
			});
		});
		req.on('error', reject);
		req.end(payload);
	});
}

module.exports = { localRequest };

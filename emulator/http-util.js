'use strict';
/** Body reading and JSON replies for the emulator's servers. */
function readJson(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('error', reject);
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			if (!text) return resolve({});
			try {
				resolve(JSON.parse(text));
			} catch (e) {
				reject(e);
			}
		});
	});
}

function sendJson(res, status, value) {
	const body = Buffer.from(JSON.stringify(value));
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
	res.end(body);
}

module.exports = { readJson, sendJson };

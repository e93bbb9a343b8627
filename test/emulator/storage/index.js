'use strict';
// Placeholder until the storage half lands: answers 501 so nothing pretends to work.
function createStorage() {
	return {
		async handle(req, res) {
			res.writeHead(501, { 'Content-Type': 'text/plain' });
			res.end('object storage emulator not yet implemented');
		},
	};
}
module.exports = { createStorage };

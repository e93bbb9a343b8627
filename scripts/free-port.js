'use strict';
/** A TCP port free on 127.0.0.1 right now (the OS picks it), for servers the tools and tests start. */
const net = require('node:net');

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

module.exports = { freePort };

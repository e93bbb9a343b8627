'use strict';
/**
 * Request counters (`GET /__emulator/stats`, `POST /__emulator/stats/reset`):
 *
 *   { management: { logins, loginsByUser: { demo: n }, requests: { 'profile/detail': n } },
 *     storage: { requests: { GetObject: n } } }
 *
 * Every request that reached a handler counts, also one a fault answered. `logins` counts
 * every OAuth/authorize call (successful, refused, or answered by a fault); `loginsByUser`
 * the successful ones per user name. Storage requests count under their operation name
 * (the fault names: HEAD of an object is GetObject, HEAD of a bucket ListObjects, the ACL of
 * an object Get/PutBucketAcl), requests that name no operation under `Unsupported`.
 */
class Stats {
	constructor() {
		this.reset();
	}
	reset() {
		this.management = { logins: 0, loginsByUser: {}, requests: {} };
		this.storage = { requests: {} };
		return this.toJSON();
	}
	managementRequest(path) {
		this.management.requests[path] = (this.management.requests[path] || 0) + 1;
		if (path === 'OAuth/authorize') this.management.logins++;
	}
	login(username) {
		this.management.loginsByUser[username] = (this.management.loginsByUser[username] || 0) + 1;
	}
	storageRequest(op) {
		this.storage.requests[op] = (this.storage.requests[op] || 0) + 1;
	}
	toJSON() {
		return JSON.parse(JSON.stringify({ management: this.management, storage: this.storage }));
	}
}

module.exports = { Stats };

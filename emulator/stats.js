'use strict';
/**
 * Request counters (`GET /__emulator/stats`, `POST /__emulator/stats/reset`):
 *
 *   { management: { logins, loginsByUser: { demo: n }, tokenRefusals, requests: { 'profile/detail': n } },
 *     storage: { requests: { GetObject: n } } }
 *
 * Every request that reached a handler counts, also one a fault answered. `logins` counts
 * every OAuth/authorize call (successful, refused, or answered by a fault); `loginsByUser`
 * the successful ones per user name, `tokenRefusals` the answers that refused a token (a missing,
 * wrong, revoked or expired one, in whatever words the dialect gives them). Storage requests count under their operation name
 * (the fault names: HEAD of an object is GetObject, HEAD of a bucket ListObjects, the ACL of
 * an object Get/PutBucketAcl), requests that name no operation under `Unsupported`.
 *
 * `inFlight`: `now`, the requests (management and storage, control routes excepted) that have
 * arrived and not yet been answered in full, and `max`, the most there were at once since the
 * last reset (which sets it to `now`): what a client's concurrency looks like from the service.
 *
 * The request log (`GET /__emulator/requests`, emptied by the stats reset): what each request
 * asked for, in arrival order, for tests that compare the requests of two runs (the upgrade test:
 * a workflow saved by an older version sends what it sent then). Management requests give the
 * path and the JSON body; storage requests the operation, method, path, the query without the
 * signature's parameters and the headers that carry the request's meaning. Secrets never enter
 * it: tokens and passwords are written `(secret)`. At most 5,000 entries (the oldest go first).
 */
const LOG_MAX = 5000;
const SECRET_FIELD = /token|password|secret/i;
const SIGNATURE_QUERY = /^(signature|expires|[a-z]*accesskeyid)$/i;
const MEANING_HEADER = /^(content-type|content-md5|content-encoding|content-disposition|cache-control|expires|range|if-.*|x-[a-z]+-(acl|meta-.*))$/i;

function withoutSecrets(value) {
	if (Array.isArray(value)) return value.map(withoutSecrets);
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '(secret)' : withoutSecrets(v)]));
	}
	return value;
}

class Stats {
	constructor() {
		this.reset();
	}
	reset() {
		const now = this.inFlight ? this.inFlight.now : 0;
		this.inFlight = { now, max: now };
		this.management = { logins: 0, loginsByUser: {}, tokenRefusals: 0, requests: {} };
		this.storage = { requests: {} };
		this.log = [];
		return this.toJSON();
	}
	record(entry) {
		this.log.push(entry);
		if (this.log.length > LOG_MAX) this.log.shift();
	}
	/** A management request's path and body, as the log keeps them. */
	managementBody(path, body) {
		this.record({ api: 'management', path, body: withoutSecrets(body) });
	}
	/** A storage request as the log keeps it (req: Node's IncomingMessage; op: the operation name). */
	storageCall(op, req) {
		const url = new URL(req.url, 'http://emulator');
		const query = [...url.searchParams].filter(([k]) => !SIGNATURE_QUERY.test(k)).sort(([a], [b]) => a.localeCompare(b));
		const headers = Object.entries(req.headers)
			.filter(([k]) => MEANING_HEADER.test(k))
			.sort(([a], [b]) => a.localeCompare(b));
		this.record({ api: 'storage', op, method: req.method, path: url.pathname, query: Object.fromEntries(query), headers: Object.fromEntries(headers) });
	}
	/** A request arrived (answered: `left`). */
	arrived() {
		this.inFlight.now++;
		this.inFlight.max = Math.max(this.inFlight.max, this.inFlight.now);
	}
	left() {
		this.inFlight.now--;
	}
	requests() {
		return { requests: JSON.parse(JSON.stringify(this.log)) };
	}
	managementRequest(path) {
		this.management.requests[path] = (this.management.requests[path] || 0) + 1;
		if (path === 'OAuth/authorize') this.management.logins++;
	}
	tokenRefused() {
		this.management.tokenRefusals++;
	}
	login(username) {
		this.management.loginsByUser[username] = (this.management.loginsByUser[username] || 0) + 1;
	}
	storageRequest(op) {
		this.storage.requests[op] = (this.storage.requests[op] || 0) + 1;
	}
	toJSON() {
		return JSON.parse(JSON.stringify({ management: this.management, storage: this.storage, inFlight: this.inFlight }));
	}
}

module.exports = { Stats };

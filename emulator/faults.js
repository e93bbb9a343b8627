'use strict';
/**
 * Fault switches shared by both halves of the emulator.
 *
 *  latencyMs     added before every request is answered (control routes excepted)
 *  errorRate     0..1, the share of matching requests answered with an injected error
 *  errorOps      which operations the error rate applies to: [] means all, otherwise a list
 *                of operation names ("UploadPart", "cdn/refresh", "instance/list", ...)
 *  errorKinds    what an injected error looks like, picked at random:
 *                  storage:    503 SlowDown, 500 InternalError
 *  storageErrors the storage codes an injected error is picked from: ['SlowDown',
 *                'InternalError'] (the default), or one of them (a service that fails hard
 *                without asking the client to slow down: ['InternalError'])
 *                  management: HTTP 500/502/503 with no JSON, or a connection reset
 *  clockOffsetMs the emulator's clock runs this far from the real one (skew tests)
 *  tokenLifetimeS lifetime of new management tokens (expiry tests)
 *  loginExpires  null, or what OAuth/authorize answers as `expires` instead of the lifetime (a
 *                value that makes no sense: -5, 0, "soon", a time long past); the token still
 *                lives tokenLifetimeS
 *
 * The random source is seeded so a failing run can be repeated (faults.seed(n)).
 *
 * Fault rules (EMULATOR-INTERFACE.md): `set({ inject: [rule, ...] })` appends rules,
 * `set({ inject: [] })` clears them; reset() clears them too. A rule is
 *   { op, kind, times?, skip?, rate?, status?, code?, message?, afterBytes?, bytes?, endless?,
 *     intervalMs?, depth?, set?, drop?, by?, coding?, plain? }
 * `op` is a management path ("cdn/refresh"), a storage operation ("GetObject"), or "*",
 * "management", "storage". `times`: the next N matching requests only; `rate`: that share of
 * matching requests (seeded random); neither: every matching request. A rule only matches the
 * requests its kind applies to (KINDS below); `skip`: the first N matching requests pass untouched
 * (`{ op: 'DeleteObject', kind: 'http', status: 404, code: 'NoSuchBucket', skip: 2 }`: from the
 * third on), so `{ op: '*', kind: 'slowDown' }` leaves the
 * management interface alone. The modules act on a rule (management/core-router.js and
 * management/core-faults.js, storage/index.js):
 *   hang          read the request, never answer (sockets are destroyed by emu.close())
 *   reset         destroy the connection without answering (not performed)
 *   http          HTTP `status` (default 500) with no JSON / an S3 <Error> body (not performed)
 *   html200       HTTP 200 with a text/html page (not performed)
 *   truncatedJson perform, then HTTP 200 application/json with the answer cut in half
 *   envelope      HTTP 200 {"code": code (default 0), "message": message}; message null: none
 *   tooFrequent   HTTP 200 {"code": 0, "message": "Requests too frequent, please try again later"}
 *   slowDown      HTTP 503 <Error><Code>SlowDown</Code> (not performed)
 *   resetMidBody  storage reads: headers and the first `afterBytes` (default 65536, never the
 *                 whole body) bytes of the body, then the connection is destroyed
 *   flipByte      storage reads (Get Object): the whole answer, with the byte at offset
 *                 `afterBytes` (default 0) of its body inverted: changed on the way
 *   afterCreate500  perform, then HTTP 500 (storage: <Error><Code>InternalError</Code>)
 *   otherLogin    perform and answer, then log the request's account in once more, as another
 *                 client of the same account would (under loginInvalidates that ends every
 *                 earlier token); the new tokens are kept in the rule's `tokens`, in order
 * A service that misbehaves on the size, time or shape of an answer (management only):
 *   bigAnswer     HTTP 200 JSON of `bytes` bytes (a valid envelope padded by one long string),
 *                 written as fast as the client reads; `endless: true` never ends (chunked)
 *   drip          HTTP 200 JSON, the headers at once, then one byte every `intervalMs` (5000)
 *   deepJson      HTTP 200 JSON whose `data` is `depth` (100000) arrays nested in each other
 *   emptyList     perform nothing; answer an empty page (`data: []`, `total: 0`)
 *   empty200      HTTP 200 with an empty body (not performed)
 *   badEncoding   HTTP 200 under `Content-Encoding: coding` (default gzip), a valid envelope
 *                 compressed as raw deflate: a gzip answer that does not decompress, or a coding
 *                 the client does not know; `plain: true` sends the envelope uncompressed (a
 *                 coding named by mistake) (not performed)
 *   envelopeFields  perform; then `set` ({field: value}) and `drop` ([field]) envelope fields of
 *                 the answer (after the dialects): a list without `totalpage`, a `totalpage` of 2000
 *   listShift     a list read page by page changes between its pages: every page from 2 on is
 *                 answered as if `by` rows (+ added, - removed) had appeared at the head of the list
 *                 after page 1 was read (duplicates or gaps at page boundaries; `total` moves by `by`)
 */
/** Which half of the emulator each rule kind applies to. */
const KINDS = {
	hang: ['management', 'storage'],
	reset: ['management', 'storage'],
	http: ['management', 'storage'],
	html200: ['management', 'storage'],
	truncatedJson: ['management'],
	envelope: ['management'],
	tooFrequent: ['management'],
	slowDown: ['storage'],
	resetMidBody: ['storage'],
	flipByte: ['storage'],
	afterCreate500: ['management', 'storage'],
	otherLogin: ['management'],
	bigAnswer: ['management'],
	drip: ['management'],
	deepJson: ['management'],
	emptyList: ['management'],
	empty200: ['management'],
	badEncoding: ['management'],
	envelopeFields: ['management'],
	listShift: ['management'],
};

/** A checked copy of an injected rule; an Error with status 400 when it is malformed. */
function checkRule(r) {
	const bad = (why) => {
		const err = new Error(`fault rule ${JSON.stringify(r)}: ${why}`);
		err.status = 400;
		return err;
	};
	if (!r || typeof r !== 'object') throw bad('must be an object');
	if (typeof r.op !== 'string' || !r.op) throw bad('op must be a management path, a storage operation, "*", "management" or "storage"');
	if (!KINDS[r.kind]) throw bad(`kind must be one of ${Object.keys(KINDS).join(', ')}`);
	const rule = { op: r.op, kind: r.kind };
	if (r.times !== undefined) {
		if (!Number.isInteger(r.times) || r.times < 0) throw bad('times must be a whole number');
		rule.times = r.times;
	}
	if (r.skip !== undefined) {
		if (!Number.isInteger(r.skip) || r.skip < 0) throw bad('skip must be a whole number');
		rule.skip = r.skip;
		rule.skipped = 0;
	}
	if (r.rate !== undefined) {
		if (typeof r.rate !== 'number' || !(r.rate >= 0 && r.rate <= 1)) throw bad('rate must be a number from 0 to 1');
		rule.rate = r.rate;
	}
	if (r.status !== undefined) {
		if (!Number.isInteger(r.status) || r.status < 100 || r.status > 599) throw bad('status must be an HTTP status');
		rule.status = r.status;
	}
	if (r.code !== undefined) rule.code = r.code;
	if (r.message !== undefined) rule.message = r.message;
	if (r.afterBytes !== undefined) {
		if (!Number.isInteger(r.afterBytes) || r.afterBytes < 0) throw bad('afterBytes must be a whole number');
		rule.afterBytes = r.afterBytes;
	}
	for (const key of ['bytes', 'intervalMs', 'depth']) {
		if (r[key] === undefined) continue;
		if (!Number.isSafeInteger(r[key]) || r[key] < 0) throw bad(`${key} must be a whole number`);
		rule[key] = r[key];
	}
	if (r.endless !== undefined) rule.endless = r.endless === true;
	if (r.plain !== undefined) rule.plain = r.plain === true;
	if (r.coding !== undefined) {
		if (typeof r.coding !== 'string' || !/^[\w.-]+$/.test(r.coding)) throw bad('coding must be a content-coding name (gzip, zstd, ...)');
		rule.coding = r.coding;
	}
	if (r.by !== undefined) {
		if (!Number.isInteger(r.by)) throw bad('by must be a whole number (rows added, or removed when negative)');
		rule.by = r.by;
	}
	if (r.set !== undefined) {
		if (!r.set || typeof r.set !== 'object' || Array.isArray(r.set)) throw bad('set must be an object of envelope fields');
		rule.set = { ...r.set };
	}
	if (r.drop !== undefined) {
		if (!Array.isArray(r.drop)) throw bad('drop must be a list of envelope field names');
		rule.drop = r.drop.map(String);
	}
	rule.fired = 0;
	return rule;
}

class Faults {
	constructor(init = {}) {
		this.reset();
		this.set(init);
	}

	reset() {
		this.latencyMs = 0;
		this.errorRate = 0;
		this.errorOps = [];
		this.storageErrors = ['SlowDown', 'InternalError'];
		this.clockOffsetMs = 0;
		this.tokenLifetimeS = 7200;
		this.loginExpires = null;
		this.injected = 0;
		this.rules = [];
		this.seed(12345);
		return this;
	}

	set(values = {}) {
		for (const key of ['latencyMs', 'errorRate', 'errorOps', 'clockOffsetMs', 'tokenLifetimeS', 'loginExpires']) {
			if (values[key] !== undefined) this[key] = values[key];
		}
		if (values.storageErrors !== undefined) {
			const codes = values.storageErrors;
			if (!Array.isArray(codes) || !codes.length || codes.some((c) => !['SlowDown', 'InternalError'].includes(c))) {
				const err = new Error('storageErrors must be a non-empty list of SlowDown and InternalError');
				err.status = 400;
				throw err;
			}
			this.storageErrors = [...codes];
		}
		if (values.seed !== undefined) this.seed(values.seed);
		if (values.inject !== undefined) {
			if (!Array.isArray(values.inject)) {
				const err = new Error('inject must be an array of fault rules ([] clears them)');
				err.status = 400;
				throw err;
			}
			if (values.inject.length === 0) this.rules = [];
			else this.rules.push(...values.inject.map(checkRule));
		}
		return this.toJSON();
	}

	/**
	 * The injected rule that fires for this request, or null. `area` is 'management' or
	 * 'storage', `op` the path or operation; `applies(kind)`, when given, narrows further (the
	 * storage reads of resetMidBody). A rule that fires counts it.
	 */
	pick(area, op, applies) {
		for (const rule of this.rules) {
			if (!(rule.op === op || rule.op === '*' || rule.op === area)) continue;
			if (!KINDS[rule.kind].includes(area)) continue;
			if (applies && !applies(rule.kind)) continue;
			if (rule.times !== undefined && rule.fired >= rule.times) continue;
			if (rule.skip !== undefined && rule.skipped < rule.skip) {
				rule.skipped++;
				continue;
			}
			if (rule.rate !== undefined && !(this.random() < rule.rate)) continue;
			rule.fired++;
			return rule;
		}
		return null;
	}

	seed(n) {
		this._rng = mulberry32(Number(n) >>> 0);
	}

	random() {
		return this._rng();
	}

	/** Whether the request for `op` gets an injected error this time. */
	shouldFail(op) {
		if (!(this.errorRate > 0)) return false;
		if (this.errorOps.length && !this.errorOps.includes(op)) return false;
		const fail = this.random() < this.errorRate;
		if (fail) this.injected++;
		return fail;
	}

	async delay() {
		if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
	}

	toJSON() {
		return {
			latencyMs: this.latencyMs,
			errorRate: this.errorRate,
			errorOps: this.errorOps,
			storageErrors: this.storageErrors,
			clockOffsetMs: this.clockOffsetMs,
			tokenLifetimeS: this.tokenLifetimeS,
			loginExpires: this.loginExpires,
			injected: this.injected,
			rules: this.rules.map((r) => ({ ...r })),
		};
	}
}

function mulberry32(a) {
	return function () {
		a |= 0;
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The emulator's clock: real time plus the fault offset plus any manual advance. */
class Clock {
	constructor(faults) {
		this.faults = faults;
		this.advancedMs = 0;
	}
	now() {
		return Date.now() + this.faults.clockOffsetMs + this.advancedMs;
	}
	date() {
		return new Date(this.now());
	}
	/** Move emulator time forward (tests use it instead of sleeping through delays). */
	advance(ms) {
		this.advancedMs += ms;
	}
}

module.exports = { Faults, Clock, KINDS };

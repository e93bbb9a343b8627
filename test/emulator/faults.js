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
 *                  management: HTTP 500/502/503 with no JSON, or a connection reset
 *  clockOffsetMs the emulator's clock runs this far from the real one (skew tests)
 *  tokenLifetimeS lifetime of new management tokens (expiry tests)
 *
 * The random source is seeded so a failing run can be repeated (faults.seed(n)).
 */
class Faults {
	constructor(init = {}) {
		this.reset();
		this.set(init);
	}

	reset() {
		this.latencyMs = 0;
		this.errorRate = 0;
		this.errorOps = [];
		this.clockOffsetMs = 0;
		this.tokenLifetimeS = 7200;
		this.injected = 0;
		this.seed(12345);
		return this;
	}

	set(values = {}) {
		for (const key of ['latencyMs', 'errorRate', 'errorOps', 'clockOffsetMs', 'tokenLifetimeS']) {
			if (values[key] !== undefined) this[key] = values[key];
		}
		if (values.seed !== undefined) this.seed(values.seed);
		return this.toJSON();
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
			clockOffsetMs: this.clockOffsetMs,
			tokenLifetimeS: this.tokenLifetimeS,
			injected: this.injected,
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

module.exports = { Faults, Clock };

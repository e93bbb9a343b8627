/**
 * What happens after an attempt failed: whether the request is sent again, and the error the
 * user sees after the last try.
 *
 * - No answer (timeout, lost connection): sent again when it is idempotent, or when the
 *   connection was refused (the service saw nothing); otherwise the error says it was sent once.
 * - RequestTimeTooSkewed: the clock is corrected from the answer's Date and the request sent
 *   again, once, without counting as a try.
 * - SlowDown: the service did not take the request; every request of the run backs off and this
 *   one is sent again, for up to two minutes of busy answers, without counting as a try.
 * - 5xx and other transient codes (errors.ts isTransient): sent again when idempotent.
 */
import type { JsonObject } from 'n8n-workflow';

import { learnServiceClock } from './clock';
import { markMayHaveBeenPerformed, isTransient, storageApiError, storageFailure, type StorageErrorInfo } from './errors';
import type { Attempt, PreparedRequest } from './request';
import type { Throttle } from '../backoff';
import { seconds } from './watchdog';

/** How long requests keep being repeated while the service answers SlowDown. */
const BUSY_TOTAL_MS = 120000;

/** What the attempts of one request have met so far, for the decisions and the final message. */
export interface RetryState {
	/** What each earlier failed try met (a code or a headline), named in the final error. */
	earlier: string[];
	skewRetried: boolean;
	/** When the service began answering SlowDown (0: it has not). */
	busySince: number;
}

/** The error after the last try of a request that failed without an answer. */
function unanswered(r: PreparedRequest, headline: string, detail: string, tried: number, cause?: JsonObject) {
	const times = tried > 1 ? ` It was tried ${tried} times.` : '';
	const safe = r.idempotent
		? ' Running it again is safe.'
		: ' It was sent once and not repeated, because the service may have performed it before the answer was lost.';
	const error = storageFailure(r.node, headline, `${detail}${times}${safe}`, r.call.itemIndex, { cause });
	if (!r.idempotent) markMayHaveBeenPerformed(error);
	return error;
}

/**
 * After an attempt that got no answer: what to note for the next try (the request is then sent
 * again), or the error, thrown, when it is not.
 */
export function retryWithoutAnswer(r: PreparedRequest, failed: Extract<Attempt, { answered: false }>, attempt: number): string {
	const { what, settings, idempotent } = r;
	const t = failed.timedOut;
	if (t) {
		const headline =
			t.phase === 'wait'
				? `${what} timed out: no answer within ${seconds(t.ms)}`
				: `${what} timed out: the service took in no data for ${seconds(t.ms)} while the request body was sent`;
		if (idempotent && attempt < r.attempts) return headline;
		const setting = t.phase === 'wait' ? 'Response Timeout' : 'Idle Timeout';
		throw unanswered(
			r,
			headline,
			`The ${setting} is set in the credential under Advanced Protocol Settings (${seconds(t.ms)} now). Check that the Endpoint (${settings.endpoint}) is the object storage and that it is up.`,
			attempt,
		);
	}
	if (r.cancelSignal?.aborted) {
		throw storageFailure(r.node, `${what} was cancelled`, 'The execution was stopped while the request was under way.', r.call.itemIndex);
	}
	const code = failed.code;
	if (code && (idempotent || code === 'ECONNREFUSED') && attempt < r.attempts) return code;
	if (code) {
		throw unanswered(
			r,
			`Could not reach the object storage for ${what} (${code})`,
			`Check the credential's Endpoint (${settings.endpoint}) and the network.`,
			attempt,
			{ message: (failed.error as Error).message, code } as JsonObject,
		);
	}
	throw storageFailure(
		r.node,
		`The request ${what} failed: ${(failed.error as Error).message}`,
		`Check the credential's Endpoint (${settings.endpoint}) and the network.`,
		r.call.itemIndex,
	);
}

/**
 * After an error answer: 'again' to send it again without counting a try (clock corrected, the
 * service busy), 'retry' to send it again after a back-off, or the error, thrown.
 */
export function retryAfterErrorAnswer(
	r: PreparedRequest,
	info: StorageErrorInfo,
	dateHeader: string | undefined,
	attempt: number,
	state: RetryState,
	throttle: Throttle,
	sentAt: number,
): 'again' | 'retry' {
	if (info.code === 'RequestTimeTooSkewed' && !state.skewRetried && dateHeader) {
		if (learnServiceClock(r.settings.endpoint, dateHeader)) {
			state.skewRetried = true;
			return 'again';
		}
	}
	if (info.code === 'SlowDown') {
		state.busySince ||= Date.now();
		const pause = throttle.slowDown(sentAt);
		if (Date.now() - state.busySince + pause < BUSY_TOTAL_MS) {
			if (state.earlier[state.earlier.length - 1] !== info.code) state.earlier.push(info.code);
			return 'again';
		}
	}
	// A non-idempotent request is repeated only when the service says it did not perform it.
	const retry = r.idempotent ? isTransient(info) : info.code === 'SlowDown';
	if (retry && attempt < r.attempts) {
		state.earlier.push(info.code);
		return 'retry';
	}
	const error = storageApiError(r.node, info, r.call.itemIndex);
	if (state.earlier.length) error.description = `${error.description} It was tried ${attempt} times (${[...state.earlier, info.code].join(', ')}).`;
	if (!r.idempotent && info.statusCode >= 500 && info.code !== 'SlowDown') {
		markMayHaveBeenPerformed(error);
		error.description = `${error.description} ${r.what} was sent once and not repeated, because the service may have performed it before failing.`;
	}
	throw error;
}

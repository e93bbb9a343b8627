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
	/**
	 * What each send of the request met (a code such as SlowDown, or "no answer"), one entry per
	 * send: counted tries, repeats after SlowDown and after a clock correction alike.
	 */
	earlier: string[];
	skewRetried: boolean;
	/** When the service began answering SlowDown (0: it has not). */
	busySince: number;
}

/**
 * How often a request was sent and what each send met, for the end of an error's description:
 * '' for one send; "It was tried 3 times." when every send met the same; otherwise
 * "It was tried 4 times (SlowDown, then InternalError 3 times)." The count is the number of
 * sends, so it always matches the list.
 */
export function triedSentence(outcomes: string[]): string {
	if (outcomes.length <= 1) return '';
	const runs: Array<{ what: string; count: number }> = [];
	for (const what of outcomes) {
		const last = runs[runs.length - 1];
		if (last && last.what === what) last.count++;
		else runs.push({ what, count: 1 });
	}
	const n = outcomes.length;
	if (runs.length === 1) return `It was tried ${n} times.`;
	return `It was tried ${n} times (${runs.map((r) => (r.count > 1 ? `${r.what} ${r.count} times` : r.what)).join(', then ')}).`;
}

/** The error after the last try of a request that failed without an answer. */
function unanswered(r: PreparedRequest, headline: string, detail: string, outcomes: string[], cause?: JsonObject) {
	const sentence = triedSentence(outcomes);
	const times = sentence ? ` ${sentence}` : '';
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
export function retryWithoutAnswer(r: PreparedRequest, failed: Extract<Attempt, { answered: false }>, attempt: number, state: RetryState): void {
	const { what, settings, idempotent } = r;
	const t = failed.timedOut;
	if (t) {
		const headline =
			t.phase === 'wait'
				? `${what} timed out: no answer within ${seconds(t.ms)}`
				: t.phase === 'deadline'
					? `${what} timed out: not finished within its deadline of ${seconds(t.ms)}`
					: `${what} timed out: the service took in no data for ${seconds(t.ms)} while the request body was sent`;
		state.earlier.push(t.phase === 'wait' ? 'no answer' : t.phase === 'deadline' ? 'deadline' : 'no data taken in');
		if (idempotent && attempt < r.attempts && t.phase !== 'deadline') return;
		const setting =
			t.phase === 'deadline'
				? `The deadline of a request follows from the Response Timeout set in the credential under Advanced Protocol Settings (${seconds(settings.responseTimeoutMs)} now; see "Time limits" in the package's docs/output-and-errors.md).`
				: `The ${t.phase === 'wait' ? 'Response Timeout' : 'Idle Timeout'} is set in the credential under Advanced Protocol Settings (${seconds(t.ms)} now).`;
		throw unanswered(r, headline, `${setting} Check that the Endpoint (${settings.endpoint}) is the object storage and that it is up.`, state.earlier);
	}
	if (r.cancelSignal?.aborted) {
		throw storageFailure(r.node, `${what} was canceled`, 'The execution was stopped while the request was under way.', r.call.itemIndex);
	}
	const code = failed.code;
	if (code) state.earlier.push(code);
	if (code && (idempotent || code === 'ECONNREFUSED') && attempt < r.attempts && !r.overDeadline()) return;
	if (code) {
		throw unanswered(
			r,
			`Could not reach the object storage for ${what} (${code})`,
			`Check the credential's Endpoint (${settings.endpoint}) and the network.`,
			state.earlier,
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
	state.earlier.push(info.code);
	if (info.code === 'RequestTimeTooSkewed' && !state.skewRetried && dateHeader) {
		if (learnServiceClock(r.settings.endpoint, dateHeader)) {
			state.skewRetried = true;
			return 'again';
		}
	}
	if (info.code === 'SlowDown') {
		state.busySince ||= Date.now();
		const pause = throttle.slowDown(sentAt);
		if (Date.now() - state.busySince + pause < BUSY_TOTAL_MS) return 'again';
	}
	// A non-idempotent request is repeated only when the service says it did not perform it.
	const retry = r.idempotent ? isTransient(info) : info.code === 'SlowDown';
	if (retry && attempt < r.attempts && !r.overDeadline()) return 'retry';
	const error = storageApiError(r.node, info, r.call.itemIndex, { bucket: r.call.bucket, key: r.call.key, what: r.what });
	const sentence = triedSentence(state.earlier);
	if (sentence) error.description = `${error.description} ${sentence}`;
	if (!r.idempotent && info.statusCode >= 500 && info.code !== 'SlowDown') {
		markMayHaveBeenPerformed(error);
		error.description = `${error.description} ${r.what} was sent once and not repeated, because the service may have performed it before failing.`;
	}
	throw error;
}

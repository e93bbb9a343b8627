/**
 * Transport of the object storage: `storageRequest()` sends one request through the credential
 * (which signs) and tries it again where that is safe. The rooms of a change:
 *
 * - call.ts      what a request is (StorageCall), what comes back, how messages name it
 * - settings.ts  the credential and the Endpoint check; clock.ts the service's time
 * - request.ts   one attempt: URL, headers, the send under the watchdog and the cancel signal
 * - watchdog.ts  the Response Timeout and Idle Timeout; body.ts the bodies it watches
 * - retry.ts     after a failed attempt: send again or not, and the error after the last try
 * - errors.ts    the service's error codes, their hints, NodeApiErrors that keep their message
 */
import { sleep } from 'n8n-workflow';

import { MAX_ERROR_BODY_BYTES, readAll } from './body';
import type { StorageCall, StorageContext, StorageResponse } from './call';
import { errorInfo } from './errors';
import { prepareRequest, sendOnce, type PreparedRequest } from './request';
import { retryAfterErrorAnswer, retryWithoutAnswer, type RetryState } from './retry';
import { backoffMs } from '../backoff';
import { runState } from '../run';
import { parseXml } from './xml';

/** The back-off between tries: the node's own pause, not counted against the request's deadline. */
async function pause(r: PreparedRequest, ms: number): Promise<void> {
	const from = Date.now();
	await sleep(ms);
	r.budget.pausedMs += Date.now() - from;
}

/**
 * Sends `call` and resolves its answer (2xx, or a status the call accepts). Failures are tried
 * again as retry.ts decides, with backoffMs between tries; every request of the node run shares
 * one back-off while the service answers SlowDown.
 */
export async function storageRequest(ctx: StorageContext, call: StorageCall): Promise<StorageResponse> {
	const r = await prepareRequest(ctx, call);
	const state: RetryState = { earlier: [], skewRetried: false, busySince: 0 };
	const throttle = runState(ctx).throttle;
	for (let attempt = 1; ; attempt++) {
		// a pause the service asked for (SlowDown) is not counted against the request's deadline
		const waitFrom = Date.now();
		await throttle.ready();
		r.budget.pausedMs += Date.now() - waitFrom;
		const sentAt = Date.now();
		const sent = await sendOnce(r);
		if (!sent.answered) {
			retryWithoutAnswer(r, sent, attempt, state);
			await pause(r, backoffMs(attempt));
			continue;
		}
		const { status, headers, transId, body } = sent;
		if ((status >= 200 && status < 300) || call.accept?.includes(status)) {
			throttle.ok(sentAt);
			if (call.stream) return { statusCode: status, headers, body: body.stream, transId, explain: body.explain, verify: body.verify };
			return { statusCode: status, headers, body: await body.read(call.maxAnswerBytes), transId };
		}
		const info = errorInfo(status, headers, await body.read(MAX_ERROR_BODY_BYTES, true));
		if (retryAfterErrorAnswer(r, info, headers.date, attempt, state, throttle, sentAt) === 'again') attempt--;
		else await pause(r, backoffMs(attempt));
	}
}

/** Parses an XML response body (its encoding from its bytes and Content-Type: readings R29). */
export async function xmlBody(response: StorageResponse) {
	return parseXml(await readAll(response.body), response.headers?.['content-type']);
}

/**
 * Waiting until the service has done something (a host runs, a backup completes, a CDN task
 * finishes). The service has no events, so a wait looks, pauses, and looks again until the look
 * says it is done or the deadline comes. Every wait of the nodes goes through `waitUntil`;
 * pauses use n8n's `sleep` (no timers: n8n Cloud's lint forbids them).
 */
import { sleep } from 'n8n-workflow';

export interface WaitPlan<T> {
	/** When the wait gives up (ms since the epoch). */
	deadline: number;
	/** The pause after look n (n from 0): a fixed interval, or growing (`growingPause`). */
	pause: (n: number) => number;
	/** One look: the result when done, undefined when not yet; it throws for a state that will not come right. */
	look: () => Promise<T | undefined>;
	/** The error when the deadline comes first. */
	timedOut: () => Error;
	/** Pause before the first look (something just submitted) instead of looking at once. */
	pauseFirst?: boolean;
	/**
	 * A pause that would pass the deadline is cut short to end at it, for one last look there;
	 * without it the wait gives up as soon as the next pause would pass the deadline.
	 */
	lastLookAtDeadline?: boolean;
}

/** Pauses from `firstMs`, doubling up to `maxMs`. */
export const growingPause =
	(firstMs: number, maxMs: number) =>
	(n: number): number =>
		Math.min(firstMs * 2 ** n, maxMs);

/** Looks until `plan.look` gives a result or the deadline comes (then `plan.timedOut()` is thrown). */
export async function waitUntil<T>(plan: WaitPlan<T>): Promise<T> {
	if (!plan.pauseFirst) {
		const done = await plan.look();
		if (done !== undefined) return done;
	}
	for (let n = 0; ; n++) {
		const pause = plan.pause(n);
		const remaining = plan.deadline - Date.now();
		if (plan.lastLookAtDeadline ? remaining <= 0 : pause > remaining) throw plan.timedOut();
		await sleep(plan.lastLookAtDeadline ? Math.min(pause, remaining) : pause);
		const done = await plan.look();
		if (done !== undefined) return done;
	}
}

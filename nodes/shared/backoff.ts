/**
 * Back-off, the two kinds: the pause before one request is repeated after a transient failure
 * (`backoffMs`), and the pause every request of a run waits out while the service says it is
 * busy (`Throttle`, kept in the run's state, see run.ts).
 */
import { sleep } from 'n8n-workflow';

/**
 * The pause before repeat `attempt` (1-based) of one request: `firstMs`, then twice as long each
 * time (200 ms, 400 ms, 800 ms ... by default), with 25 % jitter either way.
 */
export function backoffMs(attempt: number, firstMs = 200): number {
	return Math.round(firstMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
}

const BUSY_FIRST_PAUSE_MS = 250;
const BUSY_MAX_PAUSE_MS = 20000;

/**
 * One back-off shared by every request of a run, reacting once per round trip as TCP does: a
 * busy answer to a request sent after the last reaction doubles the pause (from 0.25 s up to
 * 20 s, with jitter) and every request waits it out before it is sent; busy answers to requests
 * that were already under way only keep that pause. A success of a request sent after the last
 * reaction halves the pause again.
 */
export class Throttle {
	private pauseMs = 0;
	private until = 0;
	private reactedAt = 0;
	/** Busy answers seen in this run (printed by the benchmarks). */
	busy = 0;

	/** The service said it is busy to a request sent at `sentAt`: every request of the run waits. */
	slowDown(sentAt = Date.now()): number {
		this.busy++;
		if (sentAt >= this.reactedAt || this.pauseMs === 0) {
			this.pauseMs = this.pauseMs ? Math.min(this.pauseMs * 2, BUSY_MAX_PAUSE_MS) : BUSY_FIRST_PAUSE_MS;
			this.reactedAt = Date.now();
			this.until = Math.max(this.until, this.reactedAt + Math.round(this.pauseMs * (0.75 + Math.random() * 0.5)));
		}
		return Math.max(0, this.until - Date.now());
	}

	/** A request sent at `sentAt` was answered normally. */
	ok(sentAt = Date.now()): void {
		if (this.pauseMs && sentAt >= this.reactedAt) {
			this.pauseMs = this.pauseMs <= BUSY_FIRST_PAUSE_MS ? 0 : this.pauseMs / 2;
			this.reactedAt = Date.now();
		}
	}

	/** Waits until the shared pause is over. */
	async ready(): Promise<void> {
		for (let wait = this.until - Date.now(); wait > 0; wait = this.until - Date.now()) await sleep(wait);
	}
}

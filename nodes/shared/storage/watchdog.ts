/**
 * The time limits of one request (the credential's Response Timeout and Idle Timeout), checked
 * without timers, which n8n Cloud's lint forbids: n8n's abortable `sleep` ticks the Watchdog.
 */
import { sleep } from 'n8n-workflow';

/** `1.5 s`, for messages. */
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

export type Phase = 'send' | 'wait' | 'body' | 'deadline';

/** The request's deadline as it stands: how long it may take in all (ms), and whether that is past. */
export type DeadlineCheck = () => { over: boolean; ms: number };

/**
 * The clock of one request: no byte moving while the body is sent ('send', idle timeout), no
 * answer once it is sent ('wait', response timeout), no byte of the answer's body while its
 * reader waits for one ('body', idle timeout), and the request's deadline, which counts the
 * whole request, all its tries, and grows with the bytes it moves ('deadline', see
 * request.ts). It checks a few times per limit (n8n's sleep, cancelled by stop()), so it fires
 * at most a quarter of the shortest limit late.
 */
export class Watchdog {
	fired?: { phase: Phase; ms: number };

	/** Whether the reader of the answer holds things up (its buffer is full): not the service's doing. */
	paused: () => boolean = () => false;

	private phase: Phase | 'done';

	private last = Date.now();

	private readonly stopper = new AbortController();

	constructor(
		initial: Phase,
		private readonly limits: { wait: number; idle: number },
		private readonly onFire: () => void,
		private readonly deadline?: DeadlineCheck,
	) {
		this.phase = initial;
		void this.run();
	}

	touch(phase?: Phase): void {
		this.last = Date.now();
		// Once the answer is there, pulls of a body the service no longer wants change nothing.
		if (phase && this.phase !== 'done' && (this.phase !== 'body' || phase === 'body')) this.phase = phase;
	}

	private fire(fired: { phase: Phase; ms: number }): void {
		this.fired = fired;
		this.phase = 'done';
		this.onFire();
	}

	stop(): void {
		this.phase = 'done';
		this.stopper.abort();
	}

	private async run(): Promise<void> {
		const tick = Math.max(25, Math.min(this.limits.wait, this.limits.idle) / 4);
		try {
			for (;;) {
				await sleep(tick, this.stopper.signal);
				const phase = this.phase;
				if (phase === 'done') return;
				// the limit of the phase first: at a tie its message says more than the deadline's
				const reader = phase === 'body' && this.paused();
				if (reader) this.last = Date.now();
				const ms = phase === 'wait' ? this.limits.wait : this.limits.idle;
				if (!reader && phase !== 'deadline' && Date.now() - this.last >= ms) {
					this.fire({ phase, ms });
					return;
				}
				// while waiting for an answer, the Response Timeout of the try bounds the request: the
				// deadline ends transfers (a body sent or read too slowly), not waits
				const due = phase === 'wait' ? undefined : this.deadline?.();
				if (due?.over) {
					this.fire({ phase: 'deadline', ms: due.ms });
					return;
				}
			}
		} catch {
			// stopped
		}
	}
}

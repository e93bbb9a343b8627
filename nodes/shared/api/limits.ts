/**
 * Time limits of the management interface (README "Time limits and errors"), from the
 * credential's Timeout (default 30 s per attempt), and the pause before a request is repeated.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** The first pause before a request of the management interface is repeated (then doubling; backoff.ts). */
export const RETRY_FIRST_PAUSE_MS = 250;

/** The limits of one call. */
export interface Limits {
	readAttemptMs: number;
	/** A read with its retries ends within this. */
	readTotalMs: number;
	writeMs: number;
}

export const DEFAULT_TIMEOUT_S = 30;

export function limitsOf(credentials: ICredentialDataDecryptedObject): Limits {
	const s = Number(credentials.timeout ?? DEFAULT_TIMEOUT_S);
	const attempt = (Number.isFinite(s) && s > 0 ? s : DEFAULT_TIMEOUT_S) * 1000;
	return { readAttemptMs: attempt, readTotalMs: attempt * 3, writeMs: attempt * 2 };
}

/**
 * How long, from the start of a call, it is repeated while the service says it is too busy: the
 * call's own limit (a read 3 × Timeout, a write 2 × Timeout; README "Time limits and errors").
 * Nothing was done by a refused request, so a write is repeated too, but never past its limit.
 */
export function busyWindowMs(limits: Limits, read: boolean): number {
	return read ? limits.readTotalMs : limits.writeMs;
}

/**
 * Time limits of the management interface (README "Time limits"), from the credential's Timeout
 * (default 30 s per attempt), and the pause before a request is repeated.
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
	/** How long requests keep being repeated while the service says it is too busy. */
	busyTotalMs: number;
}

export const DEFAULT_TIMEOUT_S = 30;

export function limitsOf(credentials: ICredentialDataDecryptedObject): Limits {
	const s = Number(credentials.timeout ?? DEFAULT_TIMEOUT_S);
	const attempt = (Number.isFinite(s) && s > 0 ? s : DEFAULT_TIMEOUT_S) * 1000;
	return { readAttemptMs: attempt, readTotalMs: attempt * 3, writeMs: attempt * 2, busyTotalMs: Math.max(attempt * 4, 120000) };
}

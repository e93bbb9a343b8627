/**
 * Tokens of the management interface within one process. A token is only sent with the
 * credentials that obtained it (auth.ts). A refused token (`code` -1) is renewed through n8n's
 * own pre-authentication, which stores the new token in the credential, so other executions and
 * other processes (queue-mode workers) find it there instead of logging in again; within one
 * process one renewal serves everyone waiting.
 */
import { sleep, type ICredentialDataDecryptedObject } from 'n8n-workflow';

import { backoffMs } from '../backoff';
import { apiError } from '../errors';
import { API_CREDENTIAL, apiBaseUrl, asDecrypted, credentialFingerprint, findLoginFailure, usableToken } from './auth';
import { RETRY_FIRST_PAUSE_MS, limitsOf } from './limits';
import type { ApiContext } from './send';

export interface TokenState {
	/** The newest token this process obtained or saw work. */
	token?: string;
	/** Tokens the service refused (never sent again). */
	refused: string[];
	renewing?: Promise<string>;
}

/** Per credential and log-in details (fingerprint), in this process. Holds no password. */
const tokens = new Map<string, TokenState>();

export function tokenState(ctx: ApiContext, credentials: ICredentialDataDecryptedObject): TokenState {
	const id = ctx.getNode().credentials?.[API_CREDENTIAL]?.id ?? '';
	const key = `${id}\u0000${credentialFingerprint(credentials)}`;
	let ts = tokens.get(key);
	if (!ts) {
		ts = { refused: [] };
		tokens.set(key, ts);
	}
	return ts;
}

/** Marks a token the service refused: it is never sent again. */
export function refuse(ts: TokenState, token: string) {
	if (!ts.refused.includes(token)) ts.refused.push(token);
	if (ts.refused.length > 32) ts.refused.shift();
	if (ts.token === token) ts.token = undefined;
}

/** The token to send: the credential's stored one unless refused, else the newest this process saw work. */
function pickToken(credentials: ICredentialDataDecryptedObject, ts: TokenState): string | undefined {
	const stored = usableToken(credentials);
	if (stored && !ts.refused.includes(stored)) return stored;
	if (ts.token && !ts.refused.includes(ts.token)) return ts.token;
	return undefined;
}

/**
 * Logs in again through n8n: the request goes out with an empty token field, so n8n runs the
 * credential's pre-authentication, which logs in and stores the new token in the credential
 * (persisted for every process). The vehicle is a read (profile/detail) whose answer is not
 * used. One renewal at a time per log-in details in this process; the others wait for it.
 */
async function renew(ctx: ApiContext, credentials: ICredentialDataDecryptedObject, ts: TokenState, itemIndex?: number): Promise<string> {
	ts.renewing ??= (async () => {
		const data: ICredentialDataDecryptedObject = { ...credentials, accessToken: '' };
		let failure: unknown;
		try {
			await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				API_CREDENTIAL,
				{
					method: 'POST',
					url: `${apiBaseUrl(credentials)}/API/profile/detail`,
					headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
					body: {},
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout: limitsOf(credentials).readAttemptMs,
				},
				{ credentialsDecrypted: asDecrypted(data) },
			);
		} catch (error) {
			failure = error;
		}
		const token = usableToken(data);
		if (token) {
			ts.token = token;
			return token;
		}
		throw loginError(ctx, failure, itemIndex);
	})().finally(() => {
		ts.renewing = undefined;
	});
	return await ts.renewing;
}

function loginError(ctx: ApiContext, failure: unknown, itemIndex?: number) {
	const login = findLoginFailure(failure);
	if (login) return apiError(ctx.getNode(), { message: login.message, description: login.description, itemIndex, context: { loginFailure: login.kind } });
	return apiError(ctx.getNode(), {
		message: `The log-in failed: ${(failure as Error)?.message ?? 'no token came back'}`,
		description: 'Open the Vendor API credential, check the API URL, username and password, and test it.',
		itemIndex,
	});
}

/** What one call did about tokens: the log-ins it made, whether it waited for another worker's, whether the credential must be read again. */
export interface Renewals {
	renewals: number;
	waited: boolean;
	fresh: boolean;
}

/** Log-ins one call may make after its token was refused (each after a wait, from the second on). */
const MAX_RENEWALS = 4;

/**
 * The token a call sends: the usable one, or a new one from a log-in when every known token was
 * refused. Undefined means "read the credential again first": refused again after this call's
 * own log-in, on a service where every log-in ends the earlier tokens, another worker has just
 * logged in and is storing its token in the credential. The call waits a moment and reads the
 * credential again before logging in once more, so that two processes do not take turns ending
 * each other's tokens.
 */
export async function tokenToSend(
	ctx: ApiContext,
	credentials: ICredentialDataDecryptedObject,
	ts: TokenState,
	r: Renewals,
	path: string,
	itemIndex?: number,
): Promise<string | undefined> {
	const token = pickToken(credentials, ts);
	if (token) return token;
	if (r.renewals >= 1 && !r.waited) {
		r.waited = true;
		r.fresh = true;
		await sleep(backoffMs(r.renewals + 1, RETRY_FIRST_PAUSE_MS));
		return undefined;
	}
	if (r.renewals >= MAX_RENEWALS) {
		throw apiError(ctx.getNode(), {
			message: `The service refused the token for ${path} even after logging in again`,
			description: 'Check that the account (or sub-account) is enabled and may use the API.',
			itemIndex,
			context: { endpoint: path, serviceCode: -1 },
		});
	}
	r.renewals++;
	r.waited = false;
	return await renew(ctx, credentials, ts, itemIndex);
}

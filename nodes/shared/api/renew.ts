/**
 * The two requests token renewal makes besides the call's own (tokens.ts decides when):
 *
 *  - a log-in through n8n: a read (profile/detail) sent with an empty token field makes n8n run
 *    the credential's pre-authentication, which logs in (OAuth/authorize) and writes the new token
 *    into the credential in n8n's database, where every execution and every queue-mode worker
 *    reads it (n8n reads a credential from the database each time a node asks for it). The read
 *    itself goes out with the new token right after, so its answer says whether the service took
 *    the token at once.
 *  - a probe: profile/detail with a token an endpoint refused, to tell a token that ended (another
 *    log-in ended it) from one the service takes elsewhere (the endpoint refuses the account).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { apiError } from '../errors';
import { API_CREDENTIAL, apiBaseUrl, asDecrypted, findLoginFailure, storedRenewAt, storedToken, usableToken } from './auth';
import { limitsOf } from './limits';
import { envelopeOf, send, type ApiContext } from './send';
import { tokenRefused } from './words';

/** What a log-in gave: the new token, and whether the service refused it at once (the log-in's own read). */
export interface Login {
	token: string;
	refusedAtOnce: boolean;
}

/** What renew() reads and writes of a credential's token state (tokens.ts TokenState has these and more). */
export interface RenewState {
	token?: string;
	renewAt?: number;
	/** The log-in under way in this process. */
	renewing?: Promise<Login>;
}

const PROBE_PATH = 'profile/detail';

function readOptions(credentials: ICredentialDataDecryptedObject) {
	return {
		method: 'POST' as const,
		url: `${apiBaseUrl(credentials)}/API/${PROBE_PATH}`,
		headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
		body: {},
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: limitsOf(credentials).readAttemptMs,
	};
}

/**
 * Logs in again through n8n (see the header). One log-in at a time per credential and log-in
 * details in this process: every call that needs one while it is under way waits for it and
 * takes its token.
 */
export async function renew(ctx: ApiContext, credentials: ICredentialDataDecryptedObject, ts: RenewState, itemIndex?: number): Promise<Login> {
	ts.renewing ??= (async () => {
		const data: ICredentialDataDecryptedObject = { ...credentials, accessToken: '' };
		let failure: unknown;
		let refusedAtOnce = false;
		try {
			const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, API_CREDENTIAL, readOptions(credentials), {
				credentialsDecrypted: asDecrypted(data),
			})) as { statusCode?: number; body?: unknown };
			refusedAtOnce = tokenRefused(Number(response?.statusCode ?? 200), envelopeOf(response?.body));
		} catch (error) {
			failure = error;
		}
		const token = usableToken(data);
		if (!token) throw loginError(ctx, failure, itemIndex);
		ts.token = token;
		ts.renewAt = storedRenewAt(data);
		return { token, refusedAtOnce };
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

/**
 * Whether the service still takes `token` (profile/detail): true when it answers anything but a
 * refused token, false when it refuses the token, undefined when no answer came.
 */
export async function tokenStillTaken(ctx: ApiContext, credentials: ICredentialDataDecryptedObject, token: string): Promise<boolean | undefined> {
	const sent = await send(ctx, readOptions(credentials), { ...credentials, accessToken: storedToken(credentials, token) });
	if (!('response' in sent)) return undefined;
	return !tokenRefused(Number(sent.response.statusCode), envelopeOf(sent.response.body));
}

export { PROBE_PATH };

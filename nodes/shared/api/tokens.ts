/**
 * Tokens of the management interface within one process, and when a call logs in again. A token
 * is only sent with the credentials that obtained it (auth.ts). A new token comes from n8n's own
 * pre-authentication (renew.ts), which writes it into the credential in n8n's database; n8n reads
 * a credential from the database each time a node asks for it, so every execution and every
 * queue-mode worker finds the newest token there (docs/vendor/readings.md#r33).
 *
 * When: before a token is sent once its time is up (the log-in answer's `expires`, read by
 * readExpires in auth.ts), and when the service refuses it (words.ts: code -1, HTTP 401, or a
 * message about the token, #r30, #r44); any other refusal is the service's answer, never repeated.
 *
 * How, per call, after a refused token (it is never sent again by this process):
 *  1. the credential is read again: a token that another execution or worker stored, or that this
 *     process obtained meanwhile, and that nobody refused yet, is sent at once;
 *  2. otherwise the call logs in, through the one log-in under way in this process if there is
 *     one (the first reaction: no pause);
 *  3. after that, before each further log-in the call pauses (about 1 s, then twice as long each
 *     time, at most 8 s, with jitter of half either way) and reads the credential again: on a
 *     service where each log-in ends the earlier tokens, workers that log in at once end each
 *     other's, and the pause lets the newest token reach the credential before anyone logs in
 *     again;
 *  4. everything within the call's own time limit (a read 3 x Timeout, a write 2 x Timeout from
 *     its start, as for busy answers, #r43); past it the call fails saying the tokens kept being
 *     refused.
 * A call fails sooner only when the service itself refuses the account, told apart from a log-in
 * of someone else: the token of the call's own log-in is refused, nobody stored a newer one, and
 * either the log-in's own read was refused at once twice in a row (the account may not use the
 * API), or profile/detail still takes the token (the endpoint refuses this account).
 */
import { sleep, type ICredentialDataDecryptedObject, type IExecuteFunctions } from 'n8n-workflow';

import { apiError, seconds } from '../errors';
import { API_CREDENTIAL, credentialFingerprint, storedRenewAt, usableToken } from './auth';
import type { Envelope } from './envelope';
import { PROBE_PATH, renew, tokenStillTaken, type Login } from './renew';
import type { ApiContext } from './send';

export { saysTokenRefused, tokenRefused } from './words';

export interface TokenState {
	/** The newest token this process obtained or saw work. */
	token?: string;
	/** When `token` is renewed before it is sent again (ms); undefined: only once refused. */
	renewAt?: number;
	/** Tokens the service refused (never sent again). */
	refused: string[];
	/** The log-in under way in this process. */
	renewing?: Promise<Login>;
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
	if (ts.refused.length > 64) ts.refused.shift();
	if (ts.token === token) {
		ts.token = undefined;
		ts.renewAt = undefined;
	}
}

/* ------------------------------------------------------------ one call */

/** What one call did about tokens. */
export interface Renewals {
	/** Log-ins this call made or waited for. */
	renewals: number;
	/** The credential must be read again before the next attempt. */
	fresh: boolean;
	/** Whether the credential was read again since the last token was refused or fell due. */
	reread?: boolean;
	/** Tokens this call had refused, when the first was, and the last refusal as the service worded it. */
	refusals?: number;
	refusedSince?: number;
	lastRefusal?: { code: unknown; message: string; status: number };
	/** The token last refused (never shown). */
	lastRefused?: string;
	/** The log-ins this call made or waited for. */
	logins?: Login[];
	/** Pauses taken (each about twice as long as the one before), and whether one was taken since the last refusal. */
	pauses?: number;
	paused?: boolean;
	/** Log-ins whose token the log-in's own read saw refused at once, and no newer token came. */
	strikes?: number;
}

/** What tokenToSend needs to know of the call. */
export interface TokenCall {
	path: string;
	itemIndex?: number;
	/** The end of the call's own time limit (ms). */
	until: number;
}

/** A refused token: never sent again, and the credential is read again before the next attempt. */
export function noteRefusal(ts: TokenState, r: Renewals, token: string, status: number, envelope: Envelope | undefined) {
	refuse(ts, token);
	r.refusals = (r.refusals ?? 0) + 1;
	r.refusedSince ??= Date.now();
	r.lastRefusal = { code: envelope?.code, message: typeof envelope?.message === 'string' ? envelope.message : '', status };
	r.lastRefused = token;
	r.fresh = true;
	r.reread = true;
	r.paused = false;
}

/**
 * The token to send: the stored one or the newest this process saw work, unless refused or due
 * for renewal. `due` also accepts one whose renewal time has come (after this call's log-in it
 * still works until it ends).
 */
function pickToken(credentials: ICredentialDataDecryptedObject, ts: TokenState, due: boolean): string | undefined {
	const now = Date.now();
	const candidates: Array<[string | undefined, number | undefined]> = [
		[usableToken(credentials), storedRenewAt(credentials)],
		[ts.token, ts.renewAt],
	];
	for (const [token, renewAt] of candidates) {
		if (token && !ts.refused.includes(token) && (due || renewAt === undefined || now < renewAt)) return token;
	}
	return undefined;
}

/** The pause before a further log-in: 1 s, 2 s, 4 s, then 8 s, each with jitter of half either way. */
export function renewalPauseMs(pausesBefore: number): number {
	return Math.round(Math.min(8000, 1000 * 2 ** pausesBefore) * (0.5 + Math.random()));
}

const said = (r: Renewals) => {
	const last = r.lastRefusal;
	const words = last?.message ? `: ${last.message}` : '';
	const code = last && last.code !== undefined ? `code ${String(last.code)}` : `HTTP ${last?.status ?? '?'}`;
	return { words, code };
};

/** The service refuses the account, not a token someone else ended. */
function refusedAgain(ctx: ApiContext, r: Renewals, call: TokenCall, why: 'endpoint' | 'atOnce') {
	const { words, code } = said(r);
	return apiError(ctx.getNode(), {
		message: `The service refused the token for ${call.path} even after logging in again${words} (${code})`,
		description:
			why === 'endpoint'
				? `The call logged in again and ${call.path} refused the new token, while ${PROBE_PATH} still takes it, so the service refuses this endpoint to the account. Check that the account (or sub-account) may use API/${call.path} (its group's permissions); if the message is about something other than the token, correct what it names.`
				: `The log-ins were accepted, but the service refused each new token at once, ${r.renewals} times, and no other execution stored a newer one. Check that the account (or sub-account) is enabled and may use the API.`,
		itemIndex: call.itemIndex,
		context: { endpoint: call.path, serviceCode: r.lastRefusal?.code === undefined ? undefined : String(r.lastRefusal.code), tokenRefusals: r.refusals, logins: r.renewals },
	});
}

/** The tokens kept being refused until the call's time limit. */
function keptRefusing(ctx: ApiContext, r: Renewals, call: TokenCall) {
	const { words, code } = said(r);
	const logins = `${r.renewals} log-in${r.renewals === 1 ? '' : 's'}`;
	return apiError(ctx.getNode(), {
		message: `The service kept refusing the tokens for ${call.path} for ${seconds(Date.now() - (r.refusedSince ?? Date.now()))} (${r.refusals ?? 0} refused, ${logins} by this call)${words} (${code})`,
		description:
			'Each new token was soon refused again: other executions, n8n workers or programs keep logging in with the same account, and this service ends the earlier tokens at each log-in. Nothing was changed. Give them separate (sub-)accounts, or run fewer of them at once.',
		itemIndex: call.itemIndex,
		context: { endpoint: call.path, serviceCode: r.lastRefusal?.code === undefined ? undefined : String(r.lastRefusal.code), tokenRefusals: r.refusals, logins: r.renewals },
	});
}

/**
 * The token a call sends: a usable one, or a new one from a log-in when every known token was
 * refused or its time is up (see the header for when and how often). Undefined means "read the
 * credential again first": another execution or worker may have stored a newer token.
 */
export async function tokenToSend(
	ctx: ApiContext,
	credentials: ICredentialDataDecryptedObject,
	ts: TokenState,
	r: Renewals,
	call: TokenCall,
): Promise<string | undefined> {
	const token = pickToken(credentials, ts, r.renewals > 0);
	if (token) return token;
	if (!r.reread) {
		// before logging in: another execution or worker may have stored a newer token
		r.reread = true;
		r.fresh = true;
		return undefined;
	}
	const refusals = r.refusals ?? 0;
	if ((r.renewals > 0 || refusals >= 2) && !r.paused) {
		// not the first reaction: let a log-in of someone else reach the credential first
		const pause = renewalPauseMs(r.pauses ?? 0);
		if (Date.now() + pause > call.until) throw keptRefusing(ctx, r, call);
		r.pauses = (r.pauses ?? 0) + 1;
		r.paused = true;
		r.fresh = true;
		try {
			await sleep(pause, (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.());
		} catch {
			throw apiError(ctx.getNode(), { message: `The execution was cancelled while ${call.path} was under way`, itemIndex: call.itemIndex, context: { endpoint: call.path } });
		}
		return undefined;
	}
	const own = r.lastRefused === undefined ? undefined : r.logins?.find((l) => l.token === r.lastRefused);
	if (own) {
		// the token of this call's own log-in was refused and, after the pause, nobody stored a newer one
		if (own.refusedAtOnce) {
			r.strikes = (r.strikes ?? 0) + 1;
			if (r.strikes >= 2) throw refusedAgain(ctx, r, call, 'atOnce');
		} else if (call.path !== PROBE_PATH && (await tokenStillTaken(ctx, credentials, own.token)) === true) {
			throw refusedAgain(ctx, r, call, 'endpoint');
		}
	}
	if (Date.now() > call.until) throw keptRefusing(ctx, r, call);
	r.renewals++;
	const login = await renew(ctx, credentials, ts, call.itemIndex);
	(r.logins ??= []).push(login);
	return login.token;
}

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
 * How, after a refused token (it is never sent again by this process):
 *  1. the call reads the credential again: a token that another execution or worker stored, or
 *     that this process obtained meanwhile, and that nobody refused yet, is sent at once;
 *  2. otherwise it logs in, through the one log-in under way in this process if there is one;
 *  3. but where others log in with the same account (the credential held a token this process
 *     did not obtain within the last 10 minutes: queue-mode workers, another n8n), a token of this
 *     process's own log-in refused within a minute of it was ended by someone else's log-in; on a
 *     service where each log-in ends the earlier tokens, workers that log in at once end each
 *     other's. The process then holds its log-ins for a pause drawn once for the whole process
 *     (about 1 s, then twice as long for each further such refusal within a minute, at most 8 s,
 *     with jitter of half either way) and every call reads the credential again after it: the
 *     worker that logged in last finds its token stored and used by the others instead of
 *     logging in again. The pause is the process's, not each call's: many calls drawing their own
 *     pauses would act on the shortest;
 *  4. a call that logged in already pauses before its next log-in too (1, 2, 4, 8 s, jitter of
 *     half either way) unless the process held it;
 *  5. everything within the call's own time limit (a read 3 x Timeout, a write 2 x Timeout from
 *     its start, as for busy answers, #r43); past it the call fails saying the tokens kept being
 *     refused.
 * A call fails sooner only when the service itself refuses the account, told apart from a log-in
 * of someone else: the token of the call's own log-in is refused, nobody stored a newer one by
 * the end of the pause, and either the log-in's own read was refused at once twice in a row (the
 * account may not use the API), or profile/detail still takes the token (the endpoint refuses
 * this account).
 */
import { sleep, type ICredentialDataDecryptedObject, type IExecuteFunctions } from 'n8n-workflow';

import { apiError, seconds } from '../errors';
import { API_CREDENTIAL, credentialFingerprint, loggedInHere, storedRenewAt, usableToken } from './auth';
import type { Envelope } from './envelope';
import { PROBE_PATH, renew, tokenStillTaken, type Login, type RenewState } from './renew';
import type { ApiContext } from './send';

export { saysTokenRefused, tokenRefused } from './words';

export interface TokenState extends RenewState {
	/** The newest token this process obtained or saw work. */
	token?: string;
	/** When `token` is renewed before it is sent again (ms); undefined: only once refused. */
	renewAt?: number;
	/** Tokens the service refused (never sent again). */
	refused: string[];
	/** No log-in by this process before this time (ms): someone else's log-in ended one of its new tokens. */
	holdUntil: number;
	/** Tokens of this process's log-ins ended by someone else within a minute of each other, and when the last was. */
	contention: number;
	contendedAt: number;
	/** When the credential last held a token this process did not obtain (another worker or n8n logs in too). */
	othersAt: number;
	/** Whether profile/detail still takes a token (probes shared by the calls of this process). */
	probes: Map<string, Promise<boolean | undefined>>;
}

/** A token refused this soon after this process's log-in obtained it was ended by someone else's log-in. */
const FRESH_MS = 60000;
/** How long after the credential held another client's token this process counts on others logging in too. */
const OTHERS_MS = 10 * 60000;

/** Per credential and log-in details (fingerprint), in this process. Holds no password. */
const tokens = new Map<string, TokenState>();

export function tokenState(ctx: ApiContext, credentials: ICredentialDataDecryptedObject): TokenState {
	const id = ctx.getNode().credentials?.[API_CREDENTIAL]?.id ?? '';
	const key = `${id}\u0000${credentialFingerprint(credentials)}`;
	let ts = tokens.get(key);
	if (!ts) {
		ts = { refused: [], holdUntil: 0, contention: 0, contendedAt: 0, othersAt: 0, probes: new Map() };
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
	/** Log-ins whose token the log-in's own read saw refused at once, and no newer token came. */
	strikes?: number;
	/** Pauses this call took before a further log-in, and whether it paused (or was held) since the last refusal. */
	pauses?: number;
	paused?: boolean;
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
	const now = Date.now();
	const mine = loggedInHere(token);
	if (mine !== undefined && now - mine < FRESH_MS && now - ts.othersAt < OTHERS_MS && !ts.refused.includes(token)) {
		// a new token of this process, ended by someone else's log-in: hold this process's log-ins
		ts.contention = now - ts.contendedAt < FRESH_MS ? ts.contention + 1 : 1;
		ts.contendedAt = now;
		ts.holdUntil = Math.max(ts.holdUntil, now + renewalPauseMs(ts.contention - 1));
	}
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

/** A pause before logging in again: 1 s, 2 s, 4 s, then 8 s, each with jitter of half either way. */
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

/** Whether profile/detail still takes `token`, asked once per token in this process. */
async function probe(ctx: ApiContext, credentials: ICredentialDataDecryptedObject, ts: TokenState, token: string) {
	let asked = ts.probes.get(token);
	if (!asked) {
		asked = tokenStillTaken(ctx, credentials, token);
		ts.probes.set(token, asked);
		if (ts.probes.size > 8) ts.probes.delete(ts.probes.keys().next().value!);
	}
	return await asked;
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
	const stored = usableToken(credentials);
	if (stored && loggedInHere(stored) === undefined) ts.othersAt = Date.now();
	const token = pickToken(credentials, ts, r.renewals > 0);
	if (token) return token;
	if (!r.reread) {
		// before logging in: another execution or worker may have stored a newer token
		r.reread = true;
		r.fresh = true;
		return undefined;
	}
	// the process is held (someone else's log-in ended a new token of it: let the newest token reach
	// the credential), or this call logged in already and pauses before its next log-in
	let hold = Math.max(0, ts.holdUntil - Date.now());
	if (hold === 0 && r.renewals > 0 && !r.paused) {
		hold = renewalPauseMs(r.pauses ?? 0);
		r.pauses = (r.pauses ?? 0) + 1;
	}
	if (hold > 0) {
		if (Date.now() + hold > call.until) throw keptRefusing(ctx, r, call);
		r.paused = true;
		r.fresh = true;
		try {
			await sleep(hold, (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.());
		} catch {
			throw apiError(ctx.getNode(), { message: `The execution was canceled while ${call.path} was under way`, itemIndex: call.itemIndex, context: { endpoint: call.path } });
		}
		return undefined;
	}
	const own = r.lastRefused === undefined ? undefined : r.logins?.find((l) => l.token === r.lastRefused);
	if (own) {
		// the token of this call's own log-in was refused and, after the hold, nobody stored a newer one
		if (own.refusedAtOnce) {
			r.strikes = (r.strikes ?? 0) + 1;
			if (r.strikes >= 2) throw refusedAgain(ctx, r, call, 'atOnce');
		} else if (call.path !== PROBE_PATH && (await probe(ctx, credentials, ts, own.token)) === true) {
			throw refusedAgain(ctx, r, call, 'endpoint');
		}
	}
	if (Date.now() > call.until) throw keptRefusing(ctx, r, call);
	r.renewals++;
	const login = await renew(ctx, credentials, ts, call.itemIndex);
	(r.logins ??= []).push(login);
	return login.token;
}

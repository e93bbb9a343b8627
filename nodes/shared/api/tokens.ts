/**
 * Tokens of the management interface within one process. A token is only sent with the
 * credentials that obtained it (auth.ts). A token is renewed through n8n's own
 * pre-authentication, which stores the new token in the credential, so other executions and
 * other processes (queue-mode workers) find it there instead of logging in again; within one
 * process one renewal serves everyone waiting.
 *
 * When: before a token is sent once its time is up (the log-in answer's `expires`, read by
 * readExpires in auth.ts: a lifetime or an end time; a value that makes no sense is ignored),
 * and when the service refuses it. The documents give no failure codes (docs/vendor/readings.md
 * #r30, #r44): a refusal is about the token when it has code -1, comes with HTTP 401, or its
 * message says so in English or Chinese (tokenRefused below); any other refusal is the
 * service's answer and is never repeated.
 *
 * How often, per call: at most one log-in (its own or one it waited for), and the request is
 * sent again only with a token not yet refused: once after that log-in, and once more with a
 * token another execution or worker stored meanwhile (two workers on a service where every
 * log-in ends the earlier tokens would otherwise end each other's). A token the service always
 * refuses costs one log-in and one repeat per call.
 */
import { sleep, type ICredentialDataDecryptedObject } from 'n8n-workflow';

import { backoffMs } from '../backoff';
import { apiError } from '../errors';
import { API_CREDENTIAL, apiBaseUrl, asDecrypted, credentialFingerprint, findLoginFailure, storedRenewAt, usableToken } from './auth';
import type { Envelope } from './envelope';
import { RETRY_FIRST_PAUSE_MS, limitsOf } from './limits';
import type { ApiContext } from './send';

export interface TokenState {
	/** The newest token this process obtained or saw work. */
	token?: string;
	/** When `token` is renewed before it is sent again (ms); undefined: only once refused. */
	renewAt?: number;
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

/* ------------------------------------------------------------ a refused token */

/**
 * Messages that say the token (or the log-in it came from) is missing, invalid, expired or
 * revoked: English, and Chinese as the vendor's display fields (`*_zh`) are written. A message
 * about a password, a permission or anything else does not match.
 */
const TOKEN_WORDS = [
	/\b(?:access[ _-]?)?token\b[^.;,]{0,40}\b(?:invalid|expired?|revoked|missing|required|empty|unknown|wrong|illegal|not (?:valid|found|exist|recogni[sz]ed))\b/i,
	/\b(?:invalid|expired|revoked|missing|unknown|illegal|bad|wrong|no)\b[^.;,]{0,20}\b(?:access[ _-]?)?token\b/i,
	/\b(?:please )?(?:re-?)?(?:log ?in|sign ?in|login|authori[sz]e|authenticate) again\b|\bre-?(?:login|authori[sz]e|authenticate)\b/i,
	/\b(?:not|no longer) (?:logged|signed) in\b|\b(?:session|login|log-in) (?:has )?expired\b/i,
	/(?:token|令牌|凭证|凭据|授权|登录态|登录状态|登陆状态|会话)[^，。,;；]{0,8}(?:无效|失效|过期|不存在|错误|非法|为空|不能为空|缺失)/i,
	/(?:无效|非法|错误|缺少)的?(?:token|令牌|凭证|凭据)/i,
	/请?重新(?:登录|登陆|授权|认证|获取(?:token|令牌))|未登录|未登陆|登录(?:已)?(?:超时|过期|失效)|登陆(?:已)?(?:超时|过期|失效)|身份(?:验证|认证)(?:失败|过期|失效)/i,
];

/** Whether a message says the token was refused. */
export function saysTokenRefused(message: string): boolean {
	return TOKEN_WORDS.some((re) => re.test(message));
}

/**
 * Whether an answer refuses the token: HTTP 401, or a failure envelope with code -1 (the
 * project's reading, docs/vendor/readings.md#r30) or a message that says so, whatever its code
 * (#r44).
 */
export function tokenRefused(status: number, envelope: Envelope | undefined): boolean {
	if (status === 401) return true;
	if (!envelope) return false;
	const code = Number(envelope.code);
	if (code === 1) return false;
	return code === -1 || saysTokenRefused(String(envelope.message ?? ''));
}

/** Marks a token the service refused: it is never sent again. */
export function refuse(ts: TokenState, token: string) {
	if (!ts.refused.includes(token)) ts.refused.push(token);
	if (ts.refused.length > 32) ts.refused.shift();
	if (ts.token === token) {
		ts.token = undefined;
		ts.renewAt = undefined;
	}
}

/* ------------------------------------------------------------ one call */

/** What one call did about tokens. */
export interface Renewals {
	/** Log-ins this call made or waited for (at most one). */
	renewals: number;
	/** Whether it already waited and read the credential again after its own log-in's token was refused. */
	waited: boolean;
	/** The credential must be read again before the next attempt. */
	fresh: boolean;
	/** Whether the credential was read again since the last token was refused or fell due. */
	reread?: boolean;
	/** Tokens this call had refused, and the last refusal as the service worded it. */
	refusals?: number;
	lastRefusal?: { code: unknown; message: string; status: number };
}

/**
 * Refusals one call takes: its first token, the one of its log-in, and up to three that other
 * workers stored meanwhile (on a service where every log-in ends the earlier tokens, workers
 * logging in at once end each other's; the call logs in only once, it takes the newer tokens).
 */
const MAX_REFUSALS = 5;

/** A refused token: never sent again, and the credential is read again before the next attempt. */
export function noteRefusal(ts: TokenState, r: Renewals, token: string, status: number, envelope: Envelope | undefined) {
	refuse(ts, token);
	r.refusals = (r.refusals ?? 0) + 1;
	r.lastRefusal = { code: envelope?.code, message: typeof envelope?.message === 'string' ? envelope.message : '', status };
	r.fresh = true;
	r.reread = true;
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
			ts.renewAt = storedRenewAt(data);
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

function refusedAgain(ctx: ApiContext, r: Renewals, path: string, itemIndex?: number) {
	const last = r.lastRefusal;
	const said = last?.message ? `: ${last.message}` : '';
	const code = last && last.code !== undefined ? `code ${String(last.code)}` : `HTTP ${last?.status ?? '?'}`;
	return apiError(ctx.getNode(), {
		message: `The service refused the token for ${path} even after logging in again${said} (${code})`,
		description:
			'The call logged in once and was refused again, so it was not sent any more. Check that the account (or sub-account) is enabled and may use the API; if the message is about something other than the token, correct what it names.',
		itemIndex,
		context: { endpoint: path, serviceCode: last?.code === undefined ? undefined : String(last.code), tokenRefusals: r.refusals },
	});
}

/**
 * The token a call sends: a usable one, or a new one from a log-in (at most one per call) when
 * every known token was refused or its time is up. Undefined means "read the credential again
 * first": another execution or worker may have stored a newer token.
 */
export async function tokenToSend(
	ctx: ApiContext,
	credentials: ICredentialDataDecryptedObject,
	ts: TokenState,
	r: Renewals,
	path: string,
	itemIndex?: number,
): Promise<string | undefined> {
	if ((r.refusals ?? 0) >= MAX_REFUSALS) throw refusedAgain(ctx, r, path, itemIndex);
	const token = pickToken(credentials, ts, r.renewals > 0);
	if (token) {
		// a token another worker stored after this call's log-in: if it is refused too, wait for the next one again
		if (r.renewals > 0 && r.waited) r.waited = false;
		return token;
	}
	if (!r.reread) {
		// before logging in: another execution or worker may have stored a newer token
		r.reread = true;
		r.fresh = true;
		return undefined;
	}
	if (r.renewals === 0) {
		r.renewals = 1;
		return await renew(ctx, credentials, ts, itemIndex);
	}
	if (!r.waited) {
		// refused after this call's own log-in: on a service where every log-in ends the earlier
		// tokens, another worker has just logged in and is storing its token in the credential
		r.waited = true;
		r.fresh = true;
		await sleep(backoffMs(2, RETRY_FIRST_PAUSE_MS));
		return undefined;
	}
	throw refusedAgain(ctx, r, path, itemIndex);
}

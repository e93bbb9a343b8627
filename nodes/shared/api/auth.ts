/**
 * Token exchange of the management interface (docs/vendor/management.md#token):
 * `OAuth/authorize` with the username and the (optionally encoded) password gives
 * `access_token`; every other call sends it as `token` in the JSON body.
 *
 * The token is stored with a fingerprint of what obtained it (API URL, username, password,
 * password encoding): a token is only ever sent with the credentials that obtained it, so an
 * edited credential logs in again instead of riding on the old log-in.
 */
import { createHash } from 'crypto';
import { sleep, type ICredentialDataDecryptedObject, type ICredentialsDecrypted, type IDataObject, type IHttpRequestOptions } from 'n8n-workflow';

import { backoffMs } from '../backoff';
import { credentialSecrets, redact } from '../redact';
import { codeOf, type Envelope } from './envelope';
import { DEFAULT_TIMEOUT_S, RETRY_FIRST_PAUSE_MS } from './limits';

export const API_CREDENTIAL = 'vendorApi';

export function apiBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.apiUrl ?? '').trim().replace(/\/+$/, '');
}

/** Credential data as n8n's request helper takes it in place of the stored credential. */
export function asDecrypted(credentials: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	return { id: '', name: '', type: API_CREDENTIAL, data: credentials };
}

/** The password as `OAuth/authorize` expects it (docs/vendor/readings.md#r31: none, MD5 hex or base64). */
export function encodePassword(password: string, encoding: unknown): string {
	if (encoding === 'md5') return createHash('md5').update(password, 'utf8').digest('hex');
	if (encoding === 'base64') return Buffer.from(password, 'utf8').toString('base64');
	return password;
}

/* ------------------------------------------------------------- stored token */

/** `vc1:<fingerprint>:<token>` (no renewal time) and `vc2:<fingerprint>:<renew at, ms or empty>:<token>`. */
const TOKEN_PREFIX = 'vc2';
const TOKEN_PREFIX_V1 = 'vc1';

/** Identifies the log-in details; a one-way hash, kept only inside the encrypted credential. */
export function credentialFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const parts = [apiBaseUrl(credentials), String(credentials.username ?? ''), String(credentials.password ?? ''), String(credentials.loginEncoding ?? 'none')];
	return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex').slice(0, 32);
}

/**
 * The value kept in the credential's hidden Access Token field: the token, the fingerprint of
 * the log-in details and, when the log-in answer's `expires` made sense, the time (ms, this
 * machine's clock) from which the token is renewed before it is sent again (readExpires).
 */
export function storedToken(credentials: ICredentialDataDecryptedObject, token: string, renewAt?: number): string {
	return `${TOKEN_PREFIX}:${credentialFingerprint(credentials)}:${renewAt === undefined ? '' : Math.floor(renewAt)}:${token}`;
}

/** The stored token and its renewal time, if these very credentials obtained it. */
function parseStored(credentials: ICredentialDataDecryptedObject): { token: string; renewAt?: number } | undefined {
	const raw = String(credentials.accessToken ?? '');
	const [prefix, fingerprint, ...rest] = raw.split(':');
	if (fingerprint !== credentialFingerprint(credentials)) return undefined;
	if (prefix === TOKEN_PREFIX_V1 && rest.length > 0) return { token: rest.join(':') };
	if (prefix !== TOKEN_PREFIX || rest.length < 2) return undefined;
	const [renewAt, ...token] = rest;
	if (!token.join(':')) return undefined;
	return { token: token.join(':'), renewAt: /^\d+$/.test(renewAt) ? Number(renewAt) : undefined };
}

/**
 * The token to send with these credentials: the stored one if these very credentials obtained
 * it, otherwise none (an edited credential, or a token stored by an older version).
 */
export function usableToken(credentials: ICredentialDataDecryptedObject): string | undefined {
	return parseStored(credentials)?.token;
}

/** When the stored token is to be renewed before it is sent (ms, this machine's clock); undefined: only once the service refuses it. */
export function storedRenewAt(credentials: ICredentialDataDecryptedObject): number | undefined {
	return parseStored(credentials)?.renewAt;
}

/* ------------------------------------------------------ log-ins of this process */

/**
 * Tokens that log-ins in this process obtained (the credential's pre-authentication, whoever
 * asked for it), and when; the newest last. A token in the credential that is not among them was
 * stored by another process: a queue-mode worker, another n8n (tokens.ts).
 */
const loginsHere: Array<{ token: string; at: number }> = [];

export function noteLoginHere(token: string): void {
	loginsHere.push({ token, at: Date.now() });
	if (loginsHere.length > 64) loginsHere.shift();
}

/** When a log-in in this process obtained `token` (ms), or undefined when another process did. */
export function loggedInHere(token: string): number | undefined {
	for (let i = loginsHere.length - 1; i >= 0; i--) if (loginsHere[i].token === token) return loginsHere[i].at;
	return undefined;
}

/* ------------------------------------------------------------ token expiry */

/** What `expires` of a log-in answer was read as (docs/vendor/readings.md#r32, #r45). */
export interface Expiry {
	/** lifetime: seconds from the answer; timestamp: Unix time (s or ms) of the service's clock; none: absent; ignored: makes no sense. */
	reading: 'lifetime' | 'timestamp' | 'none' | 'ignored';
	/** When the token ends, on this machine's clock (ms). */
	endsAt?: number;
	/** When it is renewed before it is sent again: a minute before it ends, or a fifth of its life for a short one. */
	renewAt?: number;
	/** Why a value was ignored, or how it was read, in words. */
	why: string;
}

/** Shorter lifetimes are not believed (a flag, or another unit); longer ones are not either. */
const MIN_LIFE_MS = 5000;
const MAX_LIFE_MS = 10 * 365 * 86400e3;

/**
 * Reads `expires` of a log-in answer, received at `receivedAt` (this machine's clock) with the
 * answer's `Date` header. The documents declare it int and give no meaning: a value up to 10
 * years of seconds is a lifetime; from 10^9 on (September 2001 as a Unix time) it is a Unix time
 * in seconds, from 10^12 on in milliseconds, of the service's clock (brought to this machine's by
 * the Date header). Anything else is ignored, not trusted: not a number, 0 or less, a lifetime
 * under 5 s or over 10 years, a time already past or under 5 s away. An ignored value leaves the
 * token to be renewed only once the service refuses it.
 */
export function readExpires(value: unknown, receivedAt: number, serverDate?: unknown): Expiry {
	if (value === undefined || value === null || value === '') return { reading: 'none', why: 'no expires in the answer' };
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^-?\d+(\.\d+)?$/.test(text)) return { reading: 'ignored', why: `expires ${JSON.stringify(value)} is not a number` };
	const n = Number(text);
	if (!(n > 0)) return { reading: 'ignored', why: `expires ${text} is not a positive number` };
	const renew = (endsAt: number) => endsAt - Math.min(60000, (endsAt - receivedAt) / 5);
	if (n < 1e9) {
		const life = n * 1000;
		if (life < MIN_LIFE_MS || life > MAX_LIFE_MS) return { reading: 'ignored', why: `expires ${text} is neither a believable lifetime in seconds nor a time` };
		const endsAt = receivedAt + life;
		return { reading: 'lifetime', endsAt, renewAt: renew(endsAt), why: `a lifetime of ${text} s` };
	}
	const serverMs = typeof serverDate === 'string' ? Date.parse(serverDate) : NaN;
	// the service's clock against this one, from the answer's Date header (whole seconds)
	const skew = Number.isFinite(serverMs) ? serverMs - receivedAt : 0;
	const endsAt = (n >= 1e12 ? n : n * 1000) - (Math.abs(skew) > 1500 ? skew : 0);
	const life = endsAt - receivedAt;
	if (life < MIN_LIFE_MS || life > MAX_LIFE_MS) return { reading: 'ignored', why: `expires ${text} as a time is ${life < 0 ? 'already past' : life < MIN_LIFE_MS ? 'about to pass' : 'more than 10 years away'}` };
	return { reading: 'timestamp', endsAt, renewAt: renew(endsAt), why: `the time ${new Date(n >= 1e12 ? n : n * 1000).toISOString()} (${Math.round(life / 1000)} s from the answer)` };
}

/* ------------------------------------------------------------------ log-in */

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

export type LoginResult =
	| { ok: true; token: string; expires?: unknown; expiry: Expiry }
	/** refused: the service declined these credentials; fault: the service or the network failed. */
	| { ok: false; kind: 'refused' | 'fault'; message: string; description: string };

/** Attempts of a log-in that meets a server or network fault, as for reads. */
const LOGIN_ATTEMPTS = 4;

function networkWord(error: unknown): string {
	let e = error as { code?: string; cause?: unknown; message?: string } | undefined;
	for (let depth = 0; e && depth < 6; depth++) {
		if (e.code && /^E[A-Z_]+$/.test(e.code)) return e.code === 'ECONNABORTED' && /timeout/i.test(String(e.message)) ? 'timeout' : e.code;
		e = e.cause as typeof e;
	}
	const text = String((error as Error)?.message ?? error);
	if (/timeout|timed out/i.test(text)) return 'timeout';
	return text.slice(0, 120);
}

/**
 * Logs in. Only the service's own refusal (an answer without code 1) is blamed on the
 * credentials; a server error, a reset, an HTML page or broken JSON is a fault of the service,
 * retried like a read. Never includes the password or a token in a message.
 */
export async function authorize(httpRequest: HttpRequest, credentials: ICredentialDataDecryptedObject): Promise<LoginResult> {
	const base = apiBaseUrl(credentials);
	const username = String(credentials.username ?? '');
	const timeoutS = Number(credentials.timeout) > 0 ? Number(credentials.timeout) : DEFAULT_TIMEOUT_S;
	let fault = '';
	for (let attempt = 1; attempt <= LOGIN_ATTEMPTS; attempt++) {
		if (attempt > 1) await sleep(backoffMs(attempt - 1, RETRY_FIRST_PAUSE_MS));
		let response: { statusCode?: number; headers?: Record<string, unknown>; body?: unknown } | undefined;
		try {
			response = (await httpRequest({
				method: 'POST',
				url: `${base}/API/OAuth/authorize`,
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
				body: { username, password: encodePassword(String(credentials.password ?? ''), credentials.loginEncoding) },
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: timeoutS * 1000,
			})) as { statusCode?: number; headers?: Record<string, unknown>; body?: unknown };
		} catch (error) {
			const word = networkWord(error);
			fault = word === 'timeout' ? `no answer within ${timeoutS} s` : `the connection failed (${word})`;
			if (word === 'ENOTFOUND') break;
			continue;
		}
		const status = Number(response?.statusCode ?? 200);
		let body = response?.body;
		if (typeof body === 'string') {
			const raw: string = body;
			try {
				body = JSON.parse(raw) as unknown;
			} catch {
				fault = `HTTP ${status} with ${/^\s*</.test(raw) ? 'an HTML page' : 'a body that is not JSON'} instead of JSON`;
				if (status === 404) break;
				continue;
			}
		}
		if (status >= 500 || status === 429) {
			fault = status === 429 ? 'HTTP 429 Too Many Requests: the service limited the rate of log-ins' : `HTTP ${status}`;
			continue;
		}
		if (status === 404) {
			fault = 'HTTP 404 (no such endpoint)';
			break;
		}
		if (typeof body !== 'object' || body === null || Array.isArray(body)) {
			fault = `HTTP ${status} without a JSON envelope`;
			continue;
		}
		const envelope = body as IDataObject;
		const token = envelope.access_token ?? (envelope.data as IDataObject | undefined)?.access_token;
		if (codeOf(envelope as Envelope) === 1 && typeof token === 'string' && token) {
			const expires = envelope.expires ?? (envelope.data as IDataObject | undefined)?.expires;
			return { ok: true, token, expires, expiry: readExpires(expires, Date.now(), response?.headers?.date) };
		}
		if (envelope.code === undefined || Number.isNaN(codeOf(envelope as Envelope))) {
			// `code: true` is no code (docs/vendor/management.md#envelope): a fault, not a refusal
			fault = envelope.code === undefined ? `HTTP ${status} without a code in the answer` : `HTTP ${status} with code ${JSON.stringify(envelope.code).slice(0, 40)}, which is not a number`;
			continue;
		}
		const said = typeof envelope.message === 'string' && envelope.message ? redact(envelope.message, credentialSecrets(credentials)) : '';
		if (codeOf(envelope as Envelope) === 1) {
			// success without a token: not a refusal of the credentials (readings R30)
			return {
				ok: false,
				kind: 'fault',
				message: `The log-in as "${username}" was accepted (code 1${said ? `, "${said}"` : ''}) but the answer carried no access token, so nothing can be called with it`,
				description: `OAuth/authorize at ${base} answered success without "access_token". The credentials were accepted; check that the API URL points at the vendor's management API, or ask the vendor.`,
			};
		}
		return {
			ok: false,
			kind: 'refused',
			message: `Log-in as "${username}" was refused${said ? `: ${said}` : ''}. Check the username, password and password encoding in the Vendor API credential.`,
			description: `The service answered OAuth/authorize with code ${String(envelope.code)}. Open the Vendor API credential, correct the username, password or Password Encoding, save and test it.`,
		};
	}
	return {
		ok: false,
		kind: 'fault',
		message: `The log-in service failed (${fault}); the credentials were not checked. Try again later.`,
		description: `OAuth/authorize at ${base} did not answer with JSON after ${LOGIN_ATTEMPTS} attempts or could not be reached. Check the API URL of the Vendor API credential if this persists.`,
	};
}

/** Carried by the error preAuthentication throws, so the node can tell a refusal from a fault. */
export interface LoginFailure {
	vendorLogin: { kind: 'refused' | 'fault'; message: string; description: string };
}

/**
 * The log-in failures preAuthentication threw lately in this process, by message. n8n 1.x wraps
 * the error preAuthentication throws in a NodeApiError that keeps its message but drops its
 * `cause` (n8n-workflow 1.x declares `cause` as a class field, which overwrites it), so the node
 * cannot find `vendorLogin` in the chain; it finds the failure by the message it kept instead.
 * The credential and the nodes load this module from one file, so they share it. A few entries:
 * a lookup follows its log-in at once.
 */
const recentLoginFailures = new Map<string, LoginFailure['vendorLogin']>();
const RECENT_LOGIN_FAILURES = 16;

export function loginFailure(result: Extract<LoginResult, { ok: false }>): Error & LoginFailure {
	const vendorLogin = { kind: result.kind, message: result.message, description: result.description };
	recentLoginFailures.delete(result.message);
	recentLoginFailures.set(result.message, vendorLogin);
	if (recentLoginFailures.size > RECENT_LOGIN_FAILURES) recentLoginFailures.delete(recentLoginFailures.keys().next().value as string);
	return Object.assign(new Error(result.message), { vendorLogin });
}

/**
 * The log-in failure somewhere in an error's cause chain, or (n8n 1.x, which drops the chain) the
 * recent log-in failure whose message an error of the chain carries.
 */
export function findLoginFailure(error: unknown): LoginFailure['vendorLogin'] | undefined {
	let e = error as (Partial<LoginFailure> & { cause?: unknown; message?: unknown }) | undefined;
	for (let depth = 0; e && depth < 8; depth++) {
		if (e.vendorLogin) return e.vendorLogin;
		if (typeof e.message === 'string' && recentLoginFailures.has(e.message)) return recentLoginFailures.get(e.message);
		e = e.cause as typeof e;
	}
	return undefined;
}

/**
 * Transport of the JSON management interface (seeds 001 and 002): POST <API URL>/API/<path>
 * with a JSON body, the token added by the credential, the envelope checked (`code` 1 is
 * success, anything else a NodeApiError naming the endpoint and showing `message`).
 *
 * Time: a read is tried at most 4 times within 90 s in all (each attempt at most 30 s); a
 * write is sent once and waited for at most 60 s, and only repeated when it cannot have
 * reached the service (connection refused) or the service said it was too busy to take it.
 *
 * Tokens: a token is only sent with the credentials that obtained it (see auth.ts). A refused
 * token (`code` -1) is renewed through n8n's own pre-authentication, which stores the new token
 * in the credential, so other executions and other processes (queue-mode workers) find it there
 * instead of logging in again; within one process one renewal serves everyone waiting.
 */
import {
	sleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import { backoffMs } from '../backoff';
import { apiError, seconds } from '../errors';
import { PAGE_CONCURRENCY, runState } from '../run';
import { API_CREDENTIAL, apiBaseUrl, credentialFingerprint, findLoginFailure, storedToken, usableToken } from './auth';
import { pageRows, type Envelope } from './envelope';
import { RETRY_FIRST_PAUSE_MS, limitsOf } from './limits';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ApiCallOptions {
	itemIndex?: number;
	/** A read may be repeated after a transient failure; a write is not repeated blindly. */
	read?: boolean;
	/** Attempts for transient failures of reads (default 4). */
	attempts?: number;
	/** Endpoints that take no token (profile/register, OAuth/authorize). */
	noToken?: boolean;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string>;
	body: unknown;
}

/* ------------------------------------------------------------------ tokens */

interface TokenState {
	/** The newest token this process obtained or saw work. */
	token?: string;
	/** Tokens the service refused (never sent again). */
	refused: string[];
	renewing?: Promise<string>;
}

/** Per credential and log-in details (fingerprint), in this process. Holds no password. */
const tokens = new Map<string, TokenState>();

function tokenState(ctx: ApiContext, credentials: ICredentialDataDecryptedObject): TokenState {
	const id = ctx.getNode().credentials?.[API_CREDENTIAL]?.id ?? '';
	const key = `${id}\u0000${credentialFingerprint(credentials)}`;
	let ts = tokens.get(key);
	if (!ts) {
		ts = { refused: [] };
		tokens.set(key, ts);
	}
	return ts;
}

function refuse(ts: TokenState, token: string) {
	if (!ts.refused.includes(token)) ts.refused.push(token);
	if (ts.refused.length > 32) ts.refused.shift();
	if (ts.token === token) ts.token = undefined;
}

function pickToken(credentials: ICredentialDataDecryptedObject, ts: TokenState): string | undefined {
	const stored = usableToken(credentials);
	if (stored && !ts.refused.includes(stored)) return stored;
	if (ts.token && !ts.refused.includes(ts.token)) return ts.token;
	return undefined;
}

function decrypted(credentials: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	return { id: '', name: '', type: API_CREDENTIAL, data: credentials };
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
				{ credentialsDecrypted: decrypted(data) },
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

/* ------------------------------------------------------------------ sending */

/** What a send ended with: a response, or a transport failure. */
type Sent = { response: FullResponse } | { failed: 'timeout' | string; reachedServer: boolean; cancelled?: boolean };

const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A short word for a transport failure: `timeout`, a network code, or the first words of the message. */
function failureWord(error: unknown): string {
	let e = error as { code?: string; cause?: unknown; message?: string; name?: string } | undefined;
	for (let depth = 0; e && depth < 8; depth++) {
		if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' || e.name === 'TimeoutError') {
			if (e.code !== 'ECONNABORTED' || /timeout/i.test(String(e.message))) return 'timeout';
		}
		if (e.code && /^E[A-Z_]+$|^UND_ERR/.test(e.code)) return e.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : e.code;
		e = e.cause as typeof e;
	}
	const text = String((error as Error)?.message ?? error);
	if (/timeout|timed out/i.test(text)) return 'timeout';
	if (/socket hang up/i.test(text)) return 'ECONNRESET';
	return text.replace(/\s+/g, ' ').slice(0, 120);
}

function cancelled(ctx: ApiContext): boolean {
	const signal = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
	return signal?.aborted === true;
}

async function send(ctx: ApiContext, options: IHttpRequestOptions, credentials?: ICredentialDataDecryptedObject): Promise<Sent> {
	try {
		if (!credentials) return { response: (await ctx.helpers.httpRequest(options)) as FullResponse };
		return {
			response: (await ctx.helpers.httpRequestWithAuthentication.call(ctx, API_CREDENTIAL, options, {
				credentialsDecrypted: decrypted(credentials),
			})) as FullResponse,
		};
	} catch (error) {
		if (cancelled(ctx)) return { failed: 'cancelled', reachedServer: true, cancelled: true };
		const word = failureWord(error);
		return { failed: word, reachedServer: !NOT_REACHED.has(word) };
	}
}

/** Whether a failure answer says the service is too busy (it did not take the request). */
export function isBusyAnswer(message: string): boolean {
	return /too (?:frequent|many requests|busy)|frequently|rate.?limit|throttl/i.test(message);
}

/** The JSON of an answer: an object, or undefined for an HTML page, broken or empty JSON. */
function envelopeOf(body: unknown): Envelope | undefined {
	let value = body;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	return (value as Envelope).code === undefined ? undefined : (value as Envelope);
}

function describeBody(body: unknown): string {
	if (typeof body !== 'string') return 'an answer without the JSON envelope';
	if (/^\s*</.test(body)) return 'an HTML page';
	return body.trim() ? 'broken JSON' : 'an empty answer';
}

/** Log-ins one call may make after its token was refused (each after a wait, from the second on). */
const MAX_RENEWALS = 4;

/**
 * Calls one endpoint and returns the whole envelope. Throws NodeApiError for a failure
 * envelope, HTTP errors, timeouts and unreachable hosts; never includes the token or password.
 */
export async function apiRequest(ctx: ApiContext, path: string, body: IDataObject = {}, options: ApiCallOptions = {}): Promise<Envelope> {
	const node = ctx.getNode();
	const itemIndex = options.itemIndex;
	const read = options.read === true;
	const maxAttempts = read ? (options.attempts ?? 4) : 1;
	const noToken = options.noToken === true || path === 'OAuth/authorize';
	const run = runState(ctx);
	const started = Date.now();
	let attempts = 0;
	let renewals = 0;
	let waited = false;
	let busySince = 0;
	let lastFault = '';

	let fresh = false;
	for (;;) {
		// read once per run; read again (another execution or worker may have stored a new token)
		// after the service refused the token
		if (fresh || !run.credentials.has(API_CREDENTIAL)) {
			const reading = ctx.getCredentials(API_CREDENTIAL);
			run.credentials.set(API_CREDENTIAL, reading);
			reading.catch(() => run.credentials.delete(API_CREDENTIAL));
			fresh = false;
		}
		const credentials = await run.credentials.get(API_CREDENTIAL)!;
		const base = apiBaseUrl(credentials);
		if (!/^https?:\/\//.test(base)) {
			throw apiError(node, {
				message: `The credential's API URL "${base}" is not an http(s) URL`,
				description: 'Open the Vendor API credential and enter the base address, for example https://api.vendor.example',
				itemIndex,
			});
		}
		const ts = tokenState(ctx, credentials);
		let token: string | undefined;
		if (!noToken) {
			token = pickToken(credentials, ts);
			if (!token && renewals >= 1 && !waited) {
				// Refused again after this call's own log-in: on a service where every log-in ends the
				// earlier tokens, another worker has just logged in and is storing its token in the
				// credential. Wait a moment and read the credential again before logging in once more,
				// so that two processes do not take turns ending each other's tokens.
				waited = true;
				fresh = true;
				await sleep(backoffMs(renewals + 1, RETRY_FIRST_PAUSE_MS));
				continue;
			}
			if (!token) {
				if (renewals >= MAX_RENEWALS) {
					throw apiError(node, {
						message: `The service refused the token for ${path} even after logging in again`,
						description: 'Check that the account (or sub-account) is enabled and may use the API.',
						itemIndex,
						context: { endpoint: path, serviceCode: -1 },
					});
				}
				renewals++;
				waited = false;
				token = await renew(ctx, credentials, ts, itemIndex);
			}
		}

		const LIMITS = limitsOf(credentials);
		const elapsed = Date.now() - started;
		const timeout = read ? Math.min(LIMITS.readAttemptMs, LIMITS.readTotalMs - elapsed) : LIMITS.writeMs;
		const request: IHttpRequestOptions = {
			method: 'POST',
			url: `${base}/API/${path}`,
			headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
			body: { ...body },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// the API answers POSTs itself; a redirect means a wrong API URL (said below)
			disableFollowRedirect: true,
			timeout: Math.max(timeout, 500),
		};
		await run.throttle.ready();
		const sentAt = Date.now();
		attempts++;
		const sent = await run.requests.run(
			async () => await send(ctx, request, noToken ? undefined : { ...credentials, accessToken: storedToken(credentials, token!) }),
		);

		/* ---- no answer */
		if ('failed' in sent) {
			if (sent.cancelled) {
				throw apiError(node, { message: `The execution was cancelled while ${path} was under way`, itemIndex, context: { endpoint: path } });
			}
			const timedOut = sent.failed === 'timeout';
			lastFault = timedOut ? `no answer within ${seconds(request.timeout!)}` : `the connection failed (${sent.failed})`;
			const mayRepeat = read || !sent.reachedServer;
			const limit = read ? maxAttempts : 2;
			if (mayRepeat && attempts < limit && Date.now() - started + backoffMs(attempts, RETRY_FIRST_PAUSE_MS) < (read ? LIMITS.readTotalMs : LIMITS.writeMs)) {
				await sleep(backoffMs(attempts, RETRY_FIRST_PAUSE_MS));
				continue;
			}
			const total = seconds(Date.now() - started);
			if (read || !sent.reachedServer) {
				throw apiError(node, {
					message: timedOut
						? `The API did not answer ${path} in time: ${attempts} attempt${attempts > 1 ? 's' : ''} over ${total}, each given at most ${seconds(LIMITS.readAttemptMs)}`
						: `Could not reach the API for ${path}: ${lastFault} after ${attempts} attempt${attempts > 1 ? 's' : ''} over ${total}`,
					description: `Nothing was changed. Check the credential's API URL (${base}) and the network, or try again later.`,
					itemIndex,
					context: { endpoint: path, attempts, timedOut },
				});
			}
			throw apiError(node, {
				message: timedOut
					? `The API did not answer ${path} within ${seconds(LIMITS.writeMs)}; the change may or may not have been made, check before repeating it`
					: `The connection failed while ${path} was under way (${sent.failed}); the change may or may not have been made, check before repeating it`,
				description: `The request was sent, so it was not repeated automatically. Look at the object in question (for example with a Get or Get Many operation) before running this again. API URL: ${base}`,
				itemIndex,
				context: { endpoint: path, attempts, timedOut, mayHaveChanged: true },
			});
		}

		const response = sent.response;
		const status = Number(response.statusCode);
		const envelope = envelopeOf(response.body);

		/* ---- the service is too busy: every request of this run backs off, then this one is repeated */
		const busy = status === 429 || (status === 200 && envelope !== undefined && Number(envelope.code) !== 1 && Number(envelope.code) !== -1 && isBusyAnswer(String(envelope.message ?? '')));
		if (busy) {
			busySince ||= Date.now();
			const pause = run.throttle.slowDown(sentAt);
			if (Date.now() - busySince + pause < LIMITS.busyTotalMs) {
				attempts--;
				continue;
			}
			throw apiError(node, {
				message: `The service stayed too busy for ${path} for ${seconds(Date.now() - busySince)}${envelope?.message ? `: ${String(envelope.message)}` : ''}`,
				description: 'Nothing was changed. Lower "Concurrent Requests" in the node\'s Options, or run the workflow later.',
				httpStatus: status,
				itemIndex,
				context: { endpoint: path, busy: true },
			});
		}

		/* ---- a redirect: the API URL is not the API's own address */
		if (status >= 300 && status < 400) {
			const location = String(response.headers?.location ?? '');
			throw apiError(node, {
				message: `The API URL redirects ${path} to ${location || 'another address'} (HTTP ${status})`,
				description: `Nothing was changed. Use the address the service redirects to as the API URL of the Vendor API credential (now ${base}).`,
				httpStatus: status,
				itemIndex,
				context: { endpoint: path },
			});
		}

		/* ---- a server fault or an answer that is not the envelope */
		if (status >= 500 || envelope === undefined) {
			const what = status >= 500 ? `HTTP ${status}` : `${describeBody(response.body)} (HTTP ${status})`;
			lastFault = what;
			if (status === 404) {
				throw apiError(node, {
					message: `The API has no endpoint ${path} (HTTP 404)`,
					description: `Check the credential's API URL (${base}); calls go to <API URL>/API/<group>/<operation>.`,
					httpStatus: 404,
					itemIndex,
					context: { endpoint: path },
				});
			}
			if (read && attempts < maxAttempts && Date.now() - started + backoffMs(attempts, RETRY_FIRST_PAUSE_MS) < LIMITS.readTotalMs) {
				await sleep(backoffMs(attempts, RETRY_FIRST_PAUSE_MS));
				continue;
			}
			throw apiError(node, {
				message: read
					? `The service failed to answer ${path}: ${what} after ${attempts} attempt${attempts > 1 ? 's' : ''}`
					: `The service answered ${path} with ${what}; the change may or may not have been made, check before repeating it`,
				description: read
					? `Nothing was changed. Try again later; if it persists, check the credential's API URL (${base}).`
					: 'The request reached the service, so it was not repeated automatically. Look at the object in question before running this again.',
				httpStatus: status,
				itemIndex,
				context: { endpoint: path, attempts, ...(read ? {} : { mayHaveChanged: true }) },
			});
		}

		const code = Number(envelope.code);
		/* ---- a refused token: log in again (once per call, shared) and repeat */
		if (code === -1 && !noToken) {
			refuse(ts, token!);
			fresh = true;
			attempts--;
			continue;
		}
		if (code !== 1) {
			const said = typeof envelope.message === 'string' && envelope.message ? envelope.message : '';
			if (path === 'OAuth/authorize') {
				throw apiError(node, {
					message: `Log-in as "${String(credentials.username ?? '')}" was refused${said ? `: ${said}` : ''}. Check the username, password and password encoding in the Vendor API credential.`,
					description: `The service answered OAuth/authorize with code ${String(envelope.code)}. Open the Vendor API credential, correct the username, password or Password Encoding, save and test it.`,
					itemIndex,
					context: { endpoint: path, serviceCode: String(envelope.code), loginFailure: 'refused' },
				});
			}
			const permission = /permission|denied|not allowed|forbidden|unauthori[sz]ed/i.test(said);
			const hint = permission ? 'the sub-account needs this permission in its group' : 'check the values sent';
			throw apiError(node, {
				message: `${said || 'The service refused the request without a message'} (${path}, code ${String(envelope.code)}: ${hint})`,
				description: permission
					? `The service refused ${path} for this (sub-)account. Grant the permission API/${path} to its group (Account & Billing > Group Permission > Add), or use the main account.`
					: `The service refused ${path} with code ${String(envelope.code)}. Nothing was changed. Check the values sent.`,
				itemIndex,
				context: { endpoint: path, serviceCode: String(envelope.code) },
			});
		}
		run.throttle.ok(sentAt);
		if (!noToken && token) ts.token = token;
		return envelope;
	}
}

export interface PageOptions extends ApiCallOptions {
	/** Stop after this many records (Return All off). */
	limit?: number;
	/** Page size asked for (default 100). */
	pageSize?: number;
	/** Pages fetched at once after the first (default 6). */
	concurrency?: number;
	/** Told the list's size as the service states it (`total` of the first page), when it does. */
	onTotal?: (total: number) => void;
}

function reportTotal(envelope: Envelope, options: PageOptions): void {
	const total = Number(envelope.total);
	if (options.onTotal && envelope.total !== undefined && envelope.total !== '' && Number.isFinite(total)) options.onTotal(total);
}

function totalPages(envelope: Envelope): number {
	const n = Number(envelope.totalpage ?? 1);
	return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/**
 * Reads a paginated list: page 1 first, which tells `totalpage`; then, for Return All, the
 * remaining pages with bounded concurrency, kept in page order. With a limit, pages are read
 * one after the other until enough records arrived.
 */
export async function apiRequestAllItems(ctx: ApiContext, path: string, body: IDataObject = {}, options: PageOptions = {}): Promise<IDataObject[]> {
	const read = { ...options, read: true };
	if (options.limit !== undefined) {
		const pageSize = Math.min(options.pageSize ?? 100, Math.max(1, options.limit));
		const out: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			if (page === 1) reportTotal(envelope, options);
			const rows = pageRows(envelope);
			out.push(...rows);
			if (out.length >= options.limit || rows.length === 0 || page >= totalPages(envelope)) break;
		}
		return out.slice(0, options.limit);
	}
	const pageSize = options.pageSize ?? 100;
	const first = await apiRequest(ctx, path, { ...body, page: 1, limit: pageSize }, read);
	reportTotal(first, options);
	const pages: IDataObject[][] = [pageRows(first)];
	const remaining: number[] = [];
	for (let p = 2; p <= totalPages(first); p++) remaining.push(p);
	const concurrency = Math.max(1, options.concurrency ?? PAGE_CONCURRENCY);
	let next = 0;
	const worker = async () => {
		while (next < remaining.length) {
			const page = remaining[next++];
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			pages[page - 1] = pageRows(envelope);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, remaining.length) }, worker));
	return pages.flat();
}

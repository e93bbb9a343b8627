/**
 * Transport of the JSON management interface: POST <API URL>/API/<path> with a JSON body, the
 * token added by the credential, the envelope checked (`code` 1 is success, anything else a
 * NodeApiError naming the endpoint and showing `message`).
 *
 * Time: a read is tried at most 4 times within 90 s in all (each attempt at most 30 s, its
 * answer's last byte included); a write is sent once and waited for at most 60 s, and only
 * repeated when it cannot have reached the service (connection refused) or the service said it
 * was too busy to take it, within the same 60 s. An answer larger than 16 MiB or nested deeper
 * than 64 levels is not read (send.ts). The service's words pass through the redaction of the
 * credential's secrets (../redact.ts) before the user sees them.
 *
 * The parts: send.ts sends one request and reads what came back, tokens.ts keeps and renews
 * tokens, limits.ts holds the time limits, paging.ts reads paged lists; this file decides,
 * after each attempt, whether the call succeeded, is repeated, or fails, and with which words.
 */
import { sleep, type ICredentialDataDecryptedObject, type IDataObject, type IHttpRequestOptions, type INode } from 'n8n-workflow';

import { backoffMs } from '../backoff';
import { apiError, seconds } from '../errors';
import { credentialSecrets, redact, redactError, unionSecrets } from '../redact';
import { runState, type RunState } from '../run';
import { API_CREDENTIAL, apiBaseUrl, storedToken } from './auth';
import { codeOf, type Envelope } from './envelope';
import { RETRY_FIRST_PAUSE_MS, busyWindowMs, limitsOf, type Limits } from './limits';
import { MAX_ANSWER_BYTES, MAX_JSON_DEPTH, describeBody, envelopeOf, isBusyAnswer, send, type ApiContext, type FullResponse, type Sent } from './send';
import { noteRefusal, tokenRefused, tokenState, tokenToSend, type Renewals, type TokenState } from './tokens';

export interface ApiCallOptions {
	itemIndex?: number;
	/** A read may be repeated after a transient failure; a write is not repeated blindly. */
	read?: boolean;
	/** Attempts for transient failures of reads (default 4). */
	attempts?: number;
	/** Endpoints that take no token (profile/register, OAuth/authorize). */
	noToken?: boolean;
}

/** One call of `apiRequest`, across its attempts. */
interface Call extends Renewals {
	ctx: ApiContext;
	node: INode;
	path: string;
	itemIndex?: number;
	read: boolean;
	maxAttempts: number;
	noToken: boolean;
	run: RunState;
	started: number;
	attempts: number;
	/** When the service first said it was too busy for this call (0: not yet). */
	busySince: number;
	/** The credential's secrets in every form, kept out of every message (../redact.ts). */
	secrets: string[];
}

/** One attempt: what was sent, with which credentials and token. */
interface Attempt {
	credentials: ICredentialDataDecryptedObject;
	base: string;
	limits: Limits;
	request: IHttpRequestOptions;
	ts: TokenState;
	token?: string;
	sentAt: number;
}

/** The outcome of an attempt that neither succeeded nor failed for good. */
const REPEAT = Symbol('repeat');

const plural = (n: number) => `${n} attempt${n > 1 ? 's' : ''}`;

/** The credentials of the call: read once per run, and again after the service refused a token. */
async function credentialsOf(call: Call): Promise<ICredentialDataDecryptedObject> {
	const { run } = call;
	if (call.fresh || !run.credentials.has(API_CREDENTIAL)) {
		// another execution or worker may have stored a new token meanwhile
		const reading = call.ctx.getCredentials(API_CREDENTIAL);
		run.credentials.set(API_CREDENTIAL, reading);
		reading.catch(() => run.credentials.delete(API_CREDENTIAL));
		call.fresh = false;
	}
	return await run.credentials.get(API_CREDENTIAL)!;
}

function checkedBaseUrl(call: Call, credentials: ICredentialDataDecryptedObject): string {
	const base = apiBaseUrl(credentials);
	if (!/^https?:\/\//.test(base)) {
		throw apiError(call.node, {
			message: `The credential's API URL "${base}" is not an http(s) URL`,
			description: 'Open the Vendor API credential and enter the base address, for example https://api.vendor.example',
			itemIndex: call.itemIndex,
		});
	}
	return base;
}

function requestOptions(call: Call, base: string, body: IDataObject, limits: Limits): IHttpRequestOptions {
	const elapsed = Date.now() - call.started;
	// the deadline of this attempt: no later than the end of the call's own limit
	const timeout = call.read ? Math.min(limits.readAttemptMs, limits.readTotalMs - elapsed) : limits.writeMs - elapsed;
	return {
		method: 'POST',
		url: `${base}/API/${call.path}`,
		headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
		body: { ...body },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// the API answers POSTs itself; a redirect means a wrong API URL (said below)
		disableFollowRedirect: true,
		timeout: Math.max(timeout, 500),
	};
}

/** No answer (a timeout, a lost or refused connection): repeated while it is safe and time allows, else an error saying whether anything may have changed. */
async function afterNoAnswer(call: Call, sent: Extract<Sent, { failed: string }>, a: Attempt): Promise<typeof REPEAT> {
	const { path, read, attempts, itemIndex } = call;
	if (sent.cancelled) {
		throw apiError(call.node, { message: `The execution was canceled while ${path} was under way`, itemIndex, context: { endpoint: path } });
	}
	const timedOut = sent.failed === 'timeout';
	const fault = timedOut ? `no answer within ${seconds(a.request.timeout!)}` : `the connection failed (${sent.failed})`;
	const mayRepeat = read || !sent.reachedServer;
	const limit = read ? call.maxAttempts : 2;
	if (mayRepeat && attempts < limit && Date.now() - call.started + backoffMs(attempts, RETRY_FIRST_PAUSE_MS) < (read ? a.limits.readTotalMs : a.limits.writeMs)) {
		await sleep(backoffMs(attempts, RETRY_FIRST_PAUSE_MS));
		return REPEAT;
	}
	const total = seconds(Date.now() - call.started);
	if (read || !sent.reachedServer) {
		throw apiError(call.node, {
			message: timedOut
				? `The API did not answer ${path} in time: ${plural(attempts)} over ${total}, each given at most ${seconds(a.limits.readAttemptMs)}`
				: `Could not reach the API for ${path}: ${fault} after ${plural(attempts)} over ${total}`,
			description: `Nothing was changed. Check the credential's API URL (${a.base}) and the network, or try again later.`,
			itemIndex,
			context: { endpoint: path, attempts, timedOut },
		});
	}
	throw apiError(call.node, {
		message: timedOut
			? `The API did not answer ${path} within ${seconds(a.limits.writeMs)}; the change may or may not have been made, check before repeating it`
			: `The connection failed while ${path} was under way (${sent.failed}); the change may or may not have been made, check before repeating it`,
		description: `The request was sent, so it was not repeated automatically. Look at the object in question (for example with a Get or Get Many operation) before running this again. API URL: ${a.base}`,
		itemIndex,
		context: { endpoint: path, attempts, timedOut, mayHaveChanged: true },
	});
}

/**
 * The service is too busy (a busy envelope), or limits the rate of requests (HTTP 429, named so in
 * the message): every request of this run backs off, then this one is repeated, while
 * the call's own time allows (a read within 3 × Timeout, a write within 2 × Timeout, counted from
 * the call's start, as the README's "Time limits and errors" states).
 */
function afterBusy(call: Call, status: number, envelope: Envelope | undefined, a: Attempt): typeof REPEAT {
	call.busySince ||= Date.now();
	const pause = call.run.throttle.slowDown(a.sentAt);
	if (Date.now() - call.started + pause < busyWindowMs(a.limits, call.read)) {
		call.attempts--;
		return REPEAT;
	}
	const said = envelope?.message ? `: ${redact(String(envelope.message), call.secrets)}` : '';
	const lasted = seconds(Date.now() - call.busySince);
	throw apiError(call.node, {
		message:
			status === 429
				? `The service limited the rate of requests (HTTP 429 Too Many Requests) and still refused ${call.path} after ${lasted} of waiting and repeating${said}`
				: `The service stayed too busy for ${call.path} for ${lasted}${said}`,
		description:
			status === 429
				? 'Nothing was changed. The service takes only so many requests in a given time. Lower "Concurrent Requests" in the node\'s Options, run fewer workflows against this account at once, or run the workflow later.'
				: 'Nothing was changed. Lower "Concurrent Requests" in the node\'s Options, or run the workflow later.',
		httpStatus: status,
		itemIndex: call.itemIndex,
		context: { endpoint: call.path, busy: true, ...(status === 429 ? { rateLimited: true } : {}) },
	});
}

/** A redirect: the API URL is not the API's own address. */
function redirected(call: Call, response: FullResponse, status: number, a: Attempt): never {
	const location = String(response.headers?.location ?? '');
	throw apiError(call.node, {
		message: `The API URL redirects ${call.path} to ${location || 'another address'} (HTTP ${status})`,
		description: `Nothing was changed. Use the address the service redirects to as the API URL of the Vendor API credential (now ${a.base}).`,
		httpStatus: status,
		itemIndex: call.itemIndex,
		context: { endpoint: call.path },
	});
}

/** A server fault or an answer that is not the envelope: a read is repeated while time allows. */
async function afterBadAnswer(call: Call, response: FullResponse, status: number, a: Attempt): Promise<typeof REPEAT> {
	const { path, read, attempts, itemIndex } = call;
	const what = status >= 500 ? `HTTP ${status}` : `${describeBody(response)} (HTTP ${status})`;
	if (status === 404) {
		throw apiError(call.node, {
			message: `The API has no endpoint ${path} (HTTP 404)`,
			description: `Check the credential's API URL (${a.base}); calls go to <API URL>/API/<group>/<operation>.`,
			httpStatus: 404,
			itemIndex,
			context: { endpoint: path },
		});
	}
	if (read && attempts < call.maxAttempts && Date.now() - call.started + backoffMs(attempts, RETRY_FIRST_PAUSE_MS) < a.limits.readTotalMs) {
		await sleep(backoffMs(attempts, RETRY_FIRST_PAUSE_MS));
		return REPEAT;
	}
	throw apiError(call.node, {
		message: read
			? `The service failed to answer ${path}: ${what} after ${plural(attempts)}`
			: `The service answered ${path} with ${what}; the change may or may not have been made, check before repeating it`,
		description: read
			? `Nothing was changed. Try again later; if it persists, check the credential's API URL (${a.base}).`
			: 'The request reached the service, so it was not repeated automatically. Look at the object in question before running this again.',
		httpStatus: status,
		itemIndex,
		context: { endpoint: path, attempts, ...(read ? {} : { mayHaveChanged: true }) },
	});
}

/**
 * An answer that was not read: larger than MAX_ANSWER_BYTES or nested deeper than
 * MAX_JSON_DEPTH. Not repeated (the same request gets the same answer); a write may have been made.
 */
function unread(call: Call, sent: Extract<Sent, { refused: string }>, a: Attempt): never {
	const { path, read, itemIndex } = call;
	const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
	const what =
		sent.refused === 'size'
			? `an answer larger than ${mib(MAX_ANSWER_BYTES)} (${sent.announced !== undefined ? `${mib(sent.announced)} announced` : `more than ${mib(MAX_ANSWER_BYTES)} sent`}); it was not read further`
			: `an answer nested more than ${MAX_JSON_DEPTH} levels deep (${mib(sent.bytes)}); it was not parsed`;
	throw apiError(call.node, {
		message: read
			? `The service answered ${path} with ${what}`
			: `The service answered ${path} with ${what}; the change may or may not have been made, check before repeating it`,
		description: `${read ? 'Nothing was changed. ' : ''}A page or record of this interface is a few megabytes at most, so this is a fault of the service or of something between it and n8n (a proxy, a wrong API URL: ${a.base}). It was not repeated: the same request would get the same answer.`,
		httpStatus: sent.status,
		itemIndex,
		context: { endpoint: path, unread: sent.refused, bytes: sent.announced ?? sent.bytes, ...(read ? {} : { mayHaveChanged: true }) },
	});
}

/** A failure envelope (`code` other than 1, not a refused token): the service's words, and what to do. */
function refused(call: Call, envelope: Envelope, a: Attempt): never {
	const { path, itemIndex } = call;
	const said = typeof envelope.message === 'string' && envelope.message ? redact(envelope.message, call.secrets) : '';
	if (path === 'OAuth/authorize') {
		throw apiError(call.node, {
			message: `Log-in as "${String(a.credentials.username ?? '')}" was refused${said ? `: ${said}` : ''}. Check the username, password and password encoding in the Vendor API credential.`,
			description: `The service answered OAuth/authorize with code ${String(envelope.code)}. Open the Vendor API credential, correct the username, password or Password Encoding, save and test it.`,
			itemIndex,
			context: { endpoint: path, serviceCode: String(envelope.code), loginFailure: 'refused' },
		});
	}
	const permission = /permission|denied|not allowed|forbidden|unauthori[sz]ed/i.test(said);
	const hint = 'the sub-account needs this permission in its group';
	// the service's words first; its path and code are in the description (errors.ts inUserWords)
	throw apiError(call.node, {
		message: said ? (permission ? `${said} (${hint})` : said) : `The service refused ${path} without a message`,
		description: permission
			? `The service refused ${path} for this (sub-)account. Grant the permission API/${path} to its group (Account & Billing > Group Permission > Add), or use the main account.`
			: `The service refused ${path} with code ${String(envelope.code)}. Nothing was changed. Check the values sent.`,
		itemIndex,
		context: { endpoint: path, serviceCode: String(envelope.code) },
	});
}

/** An answer came: the envelope on success, REPEAT to try again, or an error. */
async function afterAnswer(call: Call, response: FullResponse, a: Attempt): Promise<Envelope | typeof REPEAT> {
	const status = Number(response.statusCode);
	const envelope = envelopeOf(response.body);
	const code = envelope === undefined ? undefined : codeOf(envelope);
	if (!call.noToken && tokenRefused(status, envelope)) {
		// a refused token (tokens.ts): the newest stored token, or a log-in (shared in this process), and repeat
		noteRefusal(a.ts, call, a.token!, status, envelope);
		call.attempts--;
		return REPEAT;
	}
	if (status === 429 || (status === 200 && envelope !== undefined && code !== 1 && code !== -1 && isBusyAnswer(String(envelope.message ?? '')))) {
		return afterBusy(call, status, envelope, a);
	}
	if (status >= 300 && status < 400) redirected(call, response, status, a);
	if (status >= 500 || envelope === undefined) return await afterBadAnswer(call, response, status, a);
	if (code !== 1) refused(call, envelope, a);
	call.run.throttle.ok(a.sentAt);
	if (!call.noToken && a.token) a.ts.token = a.token;
	return envelope;
}

/**
 * Calls one endpoint and returns the whole envelope. Throws NodeApiError for a failure
 * envelope, HTTP errors, timeouts and unreachable hosts; never includes the token or password.
 */
export async function apiRequest(ctx: ApiContext, path: string, body: IDataObject = {}, options: ApiCallOptions = {}): Promise<Envelope> {
	const read = options.read === true;
	const call: Call = {
		ctx,
		node: ctx.getNode(),
		path,
		itemIndex: options.itemIndex,
		read,
		maxAttempts: read ? (options.attempts ?? 4) : 1,
		noToken: options.noToken === true || path === 'OAuth/authorize',
		run: runState(ctx),
		started: Date.now(),
		attempts: 0,
		renewals: 0,
		fresh: false,
		busySince: 0,
		secrets: [],
	};
	try {
		return await runAttempts(call, body);
	} catch (error) {
		// the service's words may echo the password or the token (a log-in refusal, a failure envelope)
		throw redactError(error, call.secrets);
	}
}

/** The attempts of one call until one succeeds or the call fails. */
async function runAttempts(call: Call, body: IDataObject): Promise<Envelope> {
	const { ctx, path } = call;
	for (;;) {
		const credentials = await credentialsOf(call);
		call.secrets = unionSecrets(call.secrets, credentialSecrets(credentials));
		const base = checkedBaseUrl(call, credentials);
		const ts = tokenState(ctx, credentials);
		const limits = limitsOf(credentials);
		const until = call.started + busyWindowMs(limits, call.read);
		const token = call.noToken ? undefined : await tokenToSend(ctx, credentials, ts, call, { path, itemIndex: call.itemIndex, until });
		if (!call.noToken && token === undefined) continue;
		const request = requestOptions(call, base, body, limits);
		await call.run.throttle.ready();
		const a: Attempt = { credentials, base, limits, request, ts, token, sentAt: Date.now() };
		if (token) call.secrets = unionSecrets(call.secrets, credentialSecrets(undefined, [token]));
		call.attempts++;
		const sent = await call.run.requests.run(
			async () => await send(ctx, request, call.noToken ? undefined : { ...credentials, accessToken: storedToken(credentials, token!) }),
		);
		if ('refused' in sent) unread(call, sent, a);
		const outcome = 'failed' in sent ? await afterNoAnswer(call, sent, a) : await afterAnswer(call, sent.response, a);
		if (outcome !== REPEAT) return outcome;
	}
}

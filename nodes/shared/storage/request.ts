/**
 * One attempt of a request: its URL (path-style, keys RFC 3986-encoded per segment), its headers
 * (the prefixed date by the service's clock, Content-Length, Content-Type) and the send itself
 * through the credential, which signs, under the Watchdog and the execution's cancel signal.
 * What to do after a failed attempt is retry.ts; the loop over attempts is transport.ts.
 */
import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import { encodeQuery, type StorageSettings } from './auth';
import { pulledBody, watchBody, type Budget } from './body';
import { describeCall, type StorageCall, type StorageContext } from './call';
import { serviceNow } from './clock';
import { networkCode } from './errors';
import { CREDENTIAL, settingsOf } from './settings';
import { objectPath } from './signer';
import { Watchdog, type Phase } from './watchdog';

/**
 * The slowest average rate a transfer may have before its deadline ends it: 32 KiB/s (256 kbit/s).
 * The deadline of a request is its base (the wait of its first try plus a Response Timeout for
 * each further try: 90 s at the defaults, 360 s for Complete) plus one second for every 32 KiB
 * it moves (sent, and announced or received): a 1 GiB download may take 9 hours, a listing
 * that drips one byte every 5 s ends at 90 s.
 */
export const MIN_TRANSFER_BYTES_PER_S = 32 * 1024;

/** A request with everything its attempts share. */
export interface PreparedRequest {
	call: StorageCall;
	node: INode;
	settings: StorageSettings;
	url: string;
	/** How messages name it: "Get Object my-bucket/a.txt". */
	what: string;
	idempotent: boolean;
	attempts: number;
	/** The credential with the call's overrides, handed to n8n's request helper. */
	additional?: { credentialsDecrypted: { id: string; name: string; type: string; data: ICredentialDataDecryptedObject } };
	cancelSignal?: AbortSignal;
	/** The context the request is sent through, without the cancel signal (see uncancellable). */
	sender: StorageContext;
	/** The wait for the first byte of an answer, per try (Response Timeout, or Complete Timeout). */
	waitMs: number;
	budget: Budget;
	/** The deadline as it stands (ms from the start) and whether it has passed. */
	deadline: () => { over: boolean; ms: number };
	overDeadline: () => boolean;
}

/** What one attempt gave: an answer (any status), or a failure without one. */
export type Attempt =
	| { answered: true; status: number; headers: Record<string, string>; transId: string; body: ReturnType<typeof watchBody> }
	| { answered: false; error: unknown; code?: string; timedOut?: { phase: Phase; ms: number } };

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[]>;
	body: unknown;
}

/**
 * The same context without its execution-cancel signal, so that n8n's request helper does not
 * attach the (already fired) signal to a clean-up request. Methods stay bound to the context.
 */
function uncancellable<T extends object>(ctx: T): T {
	return new Proxy(ctx, {
		has: (target, prop) => prop !== 'getExecutionCancelSignal' && Reflect.has(target, prop),
		get: (target, prop) => {
			if (prop === 'getExecutionCancelSignal') return undefined;
			const value = Reflect.get(target, prop, target) as unknown;
			return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
}

/**
 * `<endpoint>/<bucket>/<key>?<query>`: path-style, the query in the order given. A bucket-level
 * request goes to `/<bucket>/` with `bucketPathSlash` (the credential's Bucket Path, readings R10),
 * else to `/<bucket>`.
 */
export function requestUrl(endpoint: string, call: StorageCall, o: { bucketPathSlash?: boolean } = {}): string {
	let path = objectPath(call.bucket ?? '', call.key).replace(/^\/$/, '/') || '/';
	if (o.bucketPathSlash && call.bucket && (call.key === undefined || call.key === '')) path = `${path}/`;
	const query = (call.query ?? [])
		.map(([k, v]) => encodeQuery({ [k]: v === undefined ? '' : String(v) }))
		.join('&');
	return `${endpoint}${call.bucket ? path : '/'}${query ? `?${query}` : ''}`;
}

export async function prepareRequest(ctx: StorageContext, call: StorageCall): Promise<PreparedRequest> {
	const node = ctx.getNode();
	const stored = await ctx.getCredentials(CREDENTIAL);
	const credentials: ICredentialDataDecryptedObject = call.credentialOverrides ? { ...stored, ...call.credentialOverrides } : stored;
	const settings = settingsOf(credentials, node, call.itemIndex);
	const attempts = call.attempts ?? 3;
	const waitMs = call.longRunning ? settings.completeTimeoutMs : settings.responseTimeoutMs;
	const budget: Budget = { start: Date.now(), pausedMs: 0, moved: 0 };
	const baseMs = waitMs + (attempts - 1) * settings.responseTimeoutMs;
	const deadline = () => {
		const ms = Math.round(baseMs + (budget.moved / MIN_TRANSFER_BYTES_PER_S) * 1000);
		return { over: Date.now() - budget.start - budget.pausedMs >= ms, ms };
	};
	return {
		call,
		node,
		settings,
		url: requestUrl(settings.endpoint, call, settings),
		what: describeCall(call, settings),
		idempotent: call.idempotent ?? call.method !== 'POST',
		attempts,
		waitMs,
		budget,
		deadline,
		overDeadline: () => deadline().over,
		additional: call.credentialOverrides
			? { credentialsDecrypted: { id: 'storage-request', name: 'storage-request', type: CREDENTIAL, data: credentials } }
			: undefined,
		cancelSignal: call.survivesCancel ? undefined : (ctx as IExecuteFunctions).getExecutionCancelSignal?.(),
		sender: uncancellable(ctx),
	};
}

/** The headers of one attempt; the date is taken now, by the service's clock. */
function attemptHeaders(call: StorageCall, settings: StorageSettings) {
	const headers: Record<string, string> = { ...(call.headers ?? {}) };
	headers[`${settings.profile.headerPrefix}date`] = new Date(serviceNow(settings.endpoint)).toUTCString();
	const hasBody = call.body !== undefined && call.body.length > 0;
	if (call.body !== undefined) headers['Content-Length'] = String(call.body.length);
	let contentType = Object.entries(headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1];
	if (hasBody && contentType === undefined) {
		contentType = 'application/octet-stream';
		headers['Content-Type'] = contentType;
	}
	return { headers, hasBody, contentType };
}

function lowerHeaders(headers: Record<string, string | string[]>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : String(v);
	return out;
}

/** Sends the request once. The answer's body is handed back watched, not yet read. */
export async function sendOnce(r: PreparedRequest): Promise<Attempt> {
	const { call, settings, cancelSignal } = r;
	const { headers, hasBody, contentType } = attemptHeaders(call, settings);
	// The request is aborted when the execution is cancelled or the watchdog fires.
	const controller = new AbortController();
	const onCancel = () => controller.abort();
	if (cancelSignal?.aborted) controller.abort();
	cancelSignal?.addEventListener?.('abort', onCancel, { once: true });
	r.budget.moved += call.body?.length ?? 0;
	const dog = new Watchdog(hasBody ? 'send' : 'wait', { wait: r.waitMs, idle: settings.idleTimeoutMs }, () => controller.abort(), r.deadline);
	const options: IHttpRequestOptions = {
		method: call.method,
		url: r.url,
		headers,
		body: hasBody ? pulledBody(call.body!, contentType ?? '', (done) => dog.touch(done ? 'wait' : 'send')) : undefined,
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		abortSignal: controller.signal,
	};
	let response: FullResponse;
	try {
		response = (await r.sender.helpers.httpRequestWithAuthentication.call(r.sender, CREDENTIAL, options, r.additional)) as FullResponse;
	} catch (error) {
		dog.stop();
		cancelSignal?.removeEventListener?.('abort', onCancel);
		return { answered: false, error, code: networkCode(error), timedOut: dog.fired };
	}
	const status = response.statusCode;
	const headersOut = lowerHeaders(response.headers);
	const body = watchBody(response.body, dog, () => cancelSignal?.removeEventListener?.('abort', onCancel), {
		what: r.what,
		status,
		headers: headersOut,
		settings,
		node: r.node,
		itemIndex: call.itemIndex,
		cancelled: () => cancelSignal?.aborted === true,
		budget: r.budget,
		streamed: call.stream === true,
	});
	return { answered: true, status, headers: headersOut, transId: headersOut['x-trans-id'] ?? '', body };
}

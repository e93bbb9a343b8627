/**
 * Transport of the object storage: builds the path-style URL, sends through the credential
 * (which signs), turns XML error bodies into NodeApiErrors that say how to fix them, corrects
 * the clock once on RequestTimeTooSkewed and retries what the service reports as transient.
 */
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { encodeQuery, storageSettings, type StorageSettings } from './auth';
import { objectPath } from './signer';
import { backoffMs } from '../backoff';
import { runState } from '../run';
import { parseXml, text } from './xml';

export const CREDENTIAL = 'vendorObjectStorageApi';

export type StorageContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface StorageCall {
	method: IHttpRequestMethods;
	bucket?: string;
	key?: string;
	/** Query in the order given; an undefined or '' value is sent as a bare name (`?uploads`). */
	query?: Array<[string, string | number | undefined]>;
	headers?: Record<string, string>;
	body?: Buffer;
	/** Hand back the response body as a stream instead of a Buffer. */
	stream?: boolean;
	/** Statuses other than 2xx that are answers, not failures (304 for conditional GETs). */
	accept?: number[];
	/** Attempts for transient failures (503 SlowDown, 500, connection errors). Default 3. */
	attempts?: number;
	itemIndex?: number;
	/**
	 * Send even when the execution has been cancelled: clean-up requests (aborting a multipart
	 * upload) must still reach the service after n8n has aborted everything else.
	 */
	survivesCancel?: boolean;
	/**
	 * Whether sending it again after a failure without a clear answer is harmless. Default: every
	 * method but POST. Complete is (a repeat completes the same upload or finds it gone);
	 * Initiate is not (each one the service performs starts another upload).
	 */
	idempotent?: boolean;
	/** Credential fields that replace the stored ones for this request (signing variants). */
	credentialOverrides?: ICredentialDataDecryptedObject;
}

export interface StorageResponse {
	statusCode: number;
	headers: Record<string, string>;
	/** Buffer, or a readable stream when `stream` was asked for. */
	body: Buffer | NodeJS.ReadableStream;
	transId: string;
	/** With `stream`: the error to show for the error reading the stream ended with. */
	explain?: (error: unknown) => NodeApiError;
	/** With `stream`: once it has been read to the end, an error when the body was short. */
	verify?: () => NodeApiError | undefined;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[]>;
	body: unknown;
}

/** Clock corrections learned from RequestTimeTooSkewed answers, per endpoint. */
const clockOffsets = new Map<string, number>();

const HINTS: Record<string, string> = {
	SignatureDoesNotMatch:
		'Check the access secret in the credential, and under Advanced Protocol Settings the scheme word and header prefix the service expects.',
	InvalidAccessKeyId: 'Check the access key in the credential.',
	RequestTimeTooSkewed:
		"This machine's clock is more than 15 minutes away from the service's. Correct the clock (for example enable NTP) and try again.",
	AccessDenied: 'The access key may not use this bucket or object; check its owner and ACL.',
	NoSuchBucket: 'Check the bucket name, or create the bucket first.',
	NoSuchKey: 'Check the object key; keys are case-sensitive and include any folder prefix.',
	NoSuchUpload: 'The multipart upload does not exist any more (it was completed or aborted); start a new one.',
	BucketAlreadyExists: 'Bucket names are unique across the service; choose another name.',
	BucketNotEmpty: 'Delete the objects and abort the multipart uploads in the bucket first.',
	InvalidDigest: 'The Content-MD5 header was malformed.',
	BadDigest: 'The data changed on the way: the MD5 of what arrived differs from Content-MD5. Try again.',
	InvalidPart: 'A listed part was not uploaded or its ETag differs; list the parts and complete with those.',
	InvalidPartOrder: 'List the parts in ascending part-number order.',
	InvalidBucketName:
		'The service refused the bucket name. S3-compatible services usually want 3-63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit.',
	KeyTooLongError: 'The service refused the key as too long; S3-compatible services accept up to 1024 bytes of UTF-8.',
	EntityTooSmall: 'The service wants larger parts: raise the Part Size (S3 services want at least 5 MiB for every part but the last).',
	EntityTooLarge: 'The service refused the size; for large files lower the Part Size or the Multipart Threshold so the file goes in parts.',
	InvalidArgument: 'The service refused a value of the request; its message says which.',
	AuthorizationQueryParametersError: 'The service refused the presigned URL, for example its expiry; make one with a shorter Expires In.',
	MissingContentLength: 'The request had no Content-Length.',
	SlowDown: 'The service is busy; try again later or lower the concurrency.',
	InternalError: 'The service had an internal error; try again.',
	PreconditionFailed: 'The object does not meet the condition (If-Match or If-Unmodified-Since).',
};

/** The service's time as far as this process knows it (corrected after a RequestTimeTooSkewed). */
export function serviceNow(endpoint: string): number {
	return Date.now() + (clockOffsets.get(endpoint) ?? 0);
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

export function settingsOf(credentials: ICredentialDataDecryptedObject, node: INode, itemIndex = 0): StorageSettings {
	const s = storageSettings(credentials);
	let url: URL;
	try {
		url = new URL(s.endpoint);
	} catch {
		throw new NodeOperationError(node, `The credential's Endpoint "${s.endpoint}" is not a URL`, {
			itemIndex,
			description: 'Use the base URL of the object storage, for example https://storage.vendor.example',
		});
	}
	if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) {
		throw new NodeOperationError(node, `The credential's Endpoint must be http(s)://host[:port] without a path`, {
			itemIndex,
			description: `Buckets are addressed as /bucket/key on the endpoint's host; remove "${url.pathname}".`,
		});
	}
	return s;
}

export async function getSettings(ctx: StorageContext, itemIndex = 0): Promise<StorageSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return settingsOf(credentials, ctx.getNode(), itemIndex);
}

function lowerHeaders(headers: Record<string, string | string[]>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : String(v);
	return out;
}

async function readAll(body: unknown): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	if (body === undefined || body === null) return Buffer.alloc(0);
	if (typeof body === 'string') return Buffer.from(body);
	if (typeof (body as NodeJS.ReadableStream)[Symbol.asyncIterator] === 'function') {
		const chunks: Buffer[] = [];
		for await (const c of body as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
		return Buffer.concat(chunks);
	}
	return Buffer.from(JSON.stringify(body));
}

export interface StorageErrorInfo {
	code: string;
	message: string;
	transId: string;
	statusCode: number;
}

function errorInfo(status: number, headers: Record<string, string>, body: Buffer): StorageErrorInfo {
	const transId = headers['x-trans-id'] ?? '';
	let code = '';
	let message = '';
	const textBody = body.toString('utf8');
	if (textBody.trim().startsWith('<')) {
		try {
			const err = parseXml(textBody).Error;
			code = text(err, 'Code');
			message = text(err, 'Message');
		} catch {
			// not XML after all: fall back to the status line below
		}
	}
	if (!code) code = status === 412 ? 'PreconditionFailed' : `HTTP${status}`;
	if (!message) message = textBody.slice(0, 200) || `The service answered HTTP ${status}`;
	return { code, message, transId: transId || '', statusCode: status };
}

export function storageApiError(node: INode, info: StorageErrorInfo, itemIndex?: number): NodeApiError {
	const hint = HINTS[info.code] ?? 'See the message from the service.';
	const trans = info.transId ? ` (X-Trans-Id ${info.transId})` : '';
	return storageFailure(node, `${info.code}: ${info.message}`, `${hint}${trans}`, itemIndex, {
		httpCode: String(info.statusCode),
		cause: { code: info.code, message: info.message, transId: info.transId } as JsonObject,
	});
}

/**
 * Worth sending again: the service's own transient failures, a body that arrived damaged
 * (BadDigest) and S3's RequestTimeout for a body that came too slowly. Bodies are Buffers, so a
 * retry sends exactly the same bytes.
 */
function isTransient(info: StorageErrorInfo): boolean {
	return info.statusCode >= 500 || ['SlowDown', 'InternalError', 'BadDigest', 'RequestTimeout'].includes(info.code);
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_SOCKET',
]);

function networkCode(error: unknown): string | undefined {
	let e = error as { code?: string; cause?: unknown; context?: IDataObject } | undefined;
	for (let depth = 0; e && depth < 5; depth++) {
		if (e.code && NETWORK_CODES.has(e.code)) return e.code;
		e = e.cause as typeof e;
	}
	return undefined;
}

/** How a StorageCall is named in messages: "Get Object my-bucket/a.txt". */
export function describeCall(call: StorageCall, settings: Pick<StorageSettings, 'uploadIdParam' | 'partNumberParam'>): string {
	const names = new Map((call.query ?? []).map(([k, v]) => [k, v]));
	const has = (...keys: string[]) => keys.some((k) => names.has(k));
	let op: string;
	if (!call.bucket) op = 'List Buckets';
	else if (call.key === undefined || call.key === '') {
		if (has('acl')) op = call.method === 'GET' ? 'Get Bucket ACL' : 'Set Bucket ACL';
		else op = ({ GET: 'List Objects', PUT: 'Create Bucket', DELETE: 'Delete Bucket' } as Record<string, string>)[call.method] ?? call.method;
	} else if (call.method === 'POST') op = has('uploads') ? 'Initiate Multipart Upload' : 'Complete Multipart Upload';
	else if (has(settings.uploadIdParam, 'uploadId', 'upload_id')) {
		const part = names.get(settings.partNumberParam) ?? names.get('partNumber') ?? names.get('part_number');
		op = call.method === 'PUT' ? `Upload Part ${String(part ?? '')}`.trim() : call.method === 'GET' ? 'List Parts' : 'Abort Multipart Upload';
	} else op = ({ GET: 'Get Object', PUT: 'Put Object', DELETE: 'Delete Object' } as Record<string, string>)[call.method] ?? call.method;
	const where = call.bucket ? ` ${call.bucket}${call.key ? `/${call.key}` : ''}` : '';
	return `${op}${where}`;
}

/**
 * A NodeApiError whose message is exactly `message`. NodeApiError (and NodeOperationError)
 * replace a message that mentions ECONNRESET, ETIMEDOUT … or carries an HTTP status by n8n's
 * generic sentence; the node's own message says more (which request, what is safe to do).
 */
export function storageFailure(
	node: INode,
	message: string,
	description: string,
	itemIndex?: number,
	extra: { httpCode?: string; cause?: JsonObject } = {},
): NodeApiError {
	const error = new NodeApiError(node, extra.cause ?? ({ message } as JsonObject), {
		message,
		description,
		httpCode: extra.httpCode,
		itemIndex,
	});
	error.message = message;
	error.description = description;
	return error;
}

/** Errors of requests that may have been performed by the service although they failed. */
const ambiguous = new WeakSet<object>();

/**
 * Whether the request that failed with `error` may have been performed all the same: a
 * non-idempotent request (Initiate) that timed out, lost its connection or got a 5xx answer.
 */
export function mayHaveBeenPerformed(error: unknown): boolean {
	return typeof error === 'object' && error !== null && ambiguous.has(error);
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** Size of each piece of a request body handed to the HTTP client. */
const BODY_CHUNK = 256 * 1024;

/**
 * A request body the HTTP client pulls piece by piece, so that the transport sees the service
 * take it in: each pull is progress (the idle timeout while sending), the pull after the last
 * piece ends the sending. It is a Blob to the HTTP client (axios streams a Blob's `stream()`),
 * made of views of the Buffer: nothing is copied.
 */
function pulledBody(data: Buffer, type: string, onPull: (done: boolean) => void): object {
	return {
		[Symbol.toStringTag]: 'Blob',
		size: data.length,
		type,
		async *stream() {
			for (let offset = 0; offset < data.length; offset += BODY_CHUNK) {
				onPull(false);
				yield data.subarray(offset, Math.min(data.length, offset + BODY_CHUNK));
			}
			onPull(true);
		},
	};
}

type Phase = 'send' | 'wait' | 'body';

/**
 * The clock of one request: no byte moving while the body is sent ('send', idle timeout), no
 * answer once it is sent ('wait', response timeout), no byte of the answer's body while its
 * reader waits for one ('body', idle timeout). It checks a few times per limit (n8n's sleep,
 * cancelled by stop()), so it fires at most a quarter of the limit late.
 */
class Watchdog {
	fired?: { phase: Phase; ms: number };

	/** Whether the reader of the answer holds things up (its buffer is full): not the service's doing. */
	paused: () => boolean = () => false;

	private phase: Phase | 'done';

	private last = Date.now();

	private readonly stopper = new AbortController();

	constructor(
		initial: Phase,
		private readonly limits: { wait: number; idle: number },
		private readonly onFire: () => void,
	) {
		this.phase = initial;
		void this.run();
	}

	touch(phase?: Phase): void {
		this.last = Date.now();
		// Once the answer is there, pulls of a body the service no longer wants change nothing.
		if (phase && this.phase !== 'done' && (this.phase !== 'body' || phase === 'body')) this.phase = phase;
	}

	stop(): void {
		this.phase = 'done';
		this.stopper.abort();
	}

	private async run(): Promise<void> {
		const tick = Math.max(25, Math.min(this.limits.wait, this.limits.idle) / 4);
		try {
			for (;;) {
				await sleep(tick, this.stopper.signal);
				const phase = this.phase;
				if (phase === 'done') return;
				if (phase === 'body' && this.paused()) {
					this.last = Date.now();
					continue;
				}
				const ms = phase === 'wait' ? this.limits.wait : this.limits.idle;
				if (Date.now() - this.last >= ms) {
					this.fired = { phase, ms };
					this.phase = 'done';
					this.onFire();
					return;
				}
			}
		} catch {
			// stopped
		}
	}
}

/** The parts of a Node readable stream the transport uses (the HTTP client's response body). */
interface ResponseBody extends NodeJS.ReadableStream {
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	readableLength?: number;
	readableHighWaterMark?: number;
	destroyed?: boolean;
	destroy?(error?: Error): void;
}

function isStream(body: unknown): body is ResponseBody {
	return typeof body === 'object' && body !== null && typeof (body as ResponseBody).pipe === 'function' && typeof (body as ResponseBody).push === 'function';
}

/** How long requests keep being repeated while the service answers SlowDown. */
const BUSY_TOTAL_MS = 120000;

export async function storageRequest(ctx: StorageContext, call: StorageCall): Promise<StorageResponse> {
	const node = ctx.getNode();
	const stored = await ctx.getCredentials(CREDENTIAL);
	const credentials: ICredentialDataDecryptedObject = call.credentialOverrides ? { ...stored, ...call.credentialOverrides } : stored;
	const settings = settingsOf(credentials, node, call.itemIndex);
	const path = objectPath(call.bucket ?? '', call.key).replace(/^\/$/, '/') || '/';
	const query = (call.query ?? [])
		.map(([k, v]) => encodeQuery({ [k]: v === undefined ? '' : String(v) }))
		.join('&');
	const url = `${settings.endpoint}${call.bucket ? path : '/'}${query ? `?${query}` : ''}`;
	const idempotent = call.idempotent ?? call.method !== 'POST';
	const attempts = call.attempts ?? 3;
	const what = describeCall(call, settings);
	const additional = call.credentialOverrides
		? { credentialsDecrypted: { id: 'storage-request', name: 'storage-request', type: CREDENTIAL, data: credentials } }
		: undefined;
	const cancelSignal = call.survivesCancel ? undefined : (ctx as IExecuteFunctions).getExecutionCancelSignal?.();
	const sender = uncancellable(ctx);
	const earlier: string[] = [];
	let skewRetried = false;
	// one back-off for every request of the node run when the service says SlowDown
	const throttle = runState(ctx).throttle;
	let busySince = 0;

	/** The error after the last try of a request that failed without an answer. */
	const unanswered = (headline: string, detail: string, tried: number, cause?: JsonObject) => {
		const times = tried > 1 ? ` It was tried ${tried} times.` : '';
		const safe = idempotent
			? ' Running it again is safe.'
			: ' It was sent once and not repeated, because the service may have performed it before the answer was lost.';
		const error = storageFailure(node, headline, `${detail}${times}${safe}`, call.itemIndex, { cause });
		if (!idempotent) ambiguous.add(error);
		return error;
	};

	for (let attempt = 1; ; attempt++) {
		await throttle.ready();
		const sentAt = Date.now();
		const headers: Record<string, string> = { ...(call.headers ?? {}) };
		headers[`${settings.profile.headerPrefix}date`] = new Date(serviceNow(settings.endpoint)).toUTCString();
		const hasBody = call.body !== undefined && call.body.length > 0;
		if (call.body !== undefined) headers['Content-Length'] = String(call.body.length);
		let contentType = Object.entries(headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1];
		if (hasBody && contentType === undefined) {
			contentType = 'application/octet-stream';
			headers['Content-Type'] = contentType;
		}

		// The request is aborted when the execution is cancelled or the watchdog fires.
		const controller = new AbortController();
		const onCancel = () => controller.abort();
		if (cancelSignal?.aborted) controller.abort();
		cancelSignal?.addEventListener?.('abort', onCancel, { once: true });
		const dog = new Watchdog(hasBody ? 'send' : 'wait', { wait: settings.responseTimeoutMs, idle: settings.idleTimeoutMs }, () => controller.abort());
		const options: IHttpRequestOptions = {
			method: call.method,
			url,
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
			response = (await sender.helpers.httpRequestWithAuthentication.call(sender, CREDENTIAL, options, additional)) as FullResponse;
		} catch (error) {
			dog.stop();
			cancelSignal?.removeEventListener?.('abort', onCancel);
			const code = networkCode(error);
			if (dog.fired) {
				const t = dog.fired;
				const headline =
					t.phase === 'wait'
						? `${what} timed out: no answer within ${seconds(t.ms)}`
						: `${what} timed out: the service took in no data for ${seconds(t.ms)} while the request body was sent`;
				if (idempotent && attempt < attempts) {
					earlier.push(headline);
					await sleep(backoffMs(attempt));
					continue;
				}
				const setting = t.phase === 'wait' ? 'Response Timeout' : 'Idle Timeout';
				throw unanswered(
					headline,
					`The ${setting} is set in the credential under Advanced Protocol Settings (${seconds(t.ms)} now). Check that the Endpoint (${settings.endpoint}) is the object storage and that it is up.`,
					attempt,
				);
			}
			if (cancelSignal?.aborted) {
				throw storageFailure(node, `${what} was cancelled`, 'The execution was stopped while the request was under way.', call.itemIndex);
			}
			if (code && (idempotent || code === 'ECONNREFUSED') && attempt < attempts) {
				earlier.push(code);
				await sleep(backoffMs(attempt));
				continue;
			}
			if (code) {
				throw unanswered(
					`Could not reach the object storage for ${what} (${code})`,
					`Check the credential's Endpoint (${settings.endpoint}) and the network.`,
					attempt,
					{ message: (error as Error).message, code } as JsonObject,
				);
			}
			throw storageFailure(
				node,
				`The request ${what} failed: ${(error as Error).message}`,
				`Check the credential's Endpoint (${settings.endpoint}) and the network.`,
				call.itemIndex,
			);
		}
		const status = response.statusCode;
		const headersOut = lowerHeaders(response.headers);
		const transId = headersOut['x-trans-id'] ?? '';
		const body = watchBody(response.body, dog, () => cancelSignal?.removeEventListener?.('abort', onCancel), {
			what,
			status,
			headers: headersOut,
			settings,
			node,
			itemIndex: call.itemIndex,
			cancelled: () => cancelSignal?.aborted === true,
		});
		if ((status >= 200 && status < 300) || call.accept?.includes(status)) {
			throttle.ok(sentAt);
			if (call.stream) return { statusCode: status, headers: headersOut, body: body.stream, transId, explain: body.explain, verify: body.verify };
			return { statusCode: status, headers: headersOut, body: await body.read(), transId };
		}
		const info = errorInfo(status, headersOut, await body.read());
		if (info.code === 'RequestTimeTooSkewed' && !skewRetried && headersOut.date) {
			const serverTime = Date.parse(headersOut.date);
			if (!Number.isNaN(serverTime)) {
				clockOffsets.set(settings.endpoint, serverTime - Date.now());
				skewRetried = true;
				attempt--;
				continue;
			}
		}
		// SlowDown: the service did not take the request; every request of the run backs off and
		// this one is sent again, for up to two minutes of busy answers
		if (info.code === 'SlowDown') {
			busySince ||= Date.now();
			const pause = throttle.slowDown(sentAt);
			if (Date.now() - busySince + pause < BUSY_TOTAL_MS) {
				if (earlier[earlier.length - 1] !== info.code) earlier.push(info.code);
				attempt--;
				continue;
			}
		}
		// A non-idempotent request is repeated only when the service says it did not perform it.
		const retry = idempotent ? isTransient(info) : info.code === 'SlowDown';
		if (retry && attempt < attempts) {
			earlier.push(info.code);
			await sleep(backoffMs(attempt));
			continue;
		}
		const error = storageApiError(node, info, call.itemIndex);
		if (earlier.length) error.description = `${error.description} It was tried ${attempt} times (${[...earlier, info.code].join(', ')}).`;
		if (!idempotent && info.statusCode >= 500 && info.code !== 'SlowDown') {
			ambiguous.add(error);
			error.description = `${error.description} ${what} was sent once and not repeated, because the service may have performed it before failing.`;
		}
		throw error;
	}
}

interface BodyContext {
	what: string;
	status: number;
	headers: Record<string, string>;
	settings: StorageSettings;
	node: INode;
	itemIndex?: number;
	cancelled: () => boolean;
}

/**
 * The answer's body, watched: bytes are counted as the HTTP client hands them on (its push), the
 * watchdog measures pauses while the reader waits, and every way the body can fail (stalled,
 * connection lost, shorter than its Content-Length, cancelled) becomes an error that names the
 * request and how much arrived. `read()` collects it; a caller that takes the stream uses
 * `explain(error)` for the error its reading ended with and `verify()` once it has read it all.
 */
function watchBody(raw: unknown, dog: Watchdog, done: () => void, c: BodyContext) {
	const stream = isStream(raw) ? raw : undefined;
	let received = 0;
	let ended = false;
	let finished = false;
	const finish = () => {
		if (finished) return;
		finished = true;
		dog.stop();
		done();
	};
	// Content-Length counts the bytes on the wire. A body cut short is an error of Node's HTTP
	// parser (seen here as "broke off"). n8n's client inflates gzip, deflate and br bodies and
	// then drops Content-Encoding (gzip and deflate check their own length), so the count is
	// compared with Content-Length only while Content-Encoding is still there: the bytes are
	// those of the wire.
	const length = c.headers['content-length'];
	const announced = c.status >= 200 && c.status < 300 && c.status !== 204 && length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
	const enforce = announced !== undefined && c.headers['content-encoding'] !== undefined;
	const of = () => (announced !== undefined ? ` of ${announced}` : '');

	const fail = (headline: string, extra = '') =>
		storageFailure(c.node, headline, `The answer is incomplete and was not used.${extra} Running it again is safe.`, c.itemIndex);
	const explain = (error: unknown): NodeApiError => {
		finish();
		if (error instanceof NodeApiError) return error;
		if (dog.fired) {
			return fail(
				`${c.what} timed out: no data for ${seconds(dog.fired.ms)} after ${received}${of()} bytes of the answer`,
				` The Idle Timeout is set in the credential under Advanced Protocol Settings (${seconds(dog.fired.ms)} now).`,
			);
		}
		if (c.cancelled()) return storageFailure(c.node, `${c.what} was cancelled`, 'The execution was stopped while the answer was read.', c.itemIndex);
		const code = networkCode(error) ?? (error as Error)?.message ?? 'connection lost';
		return fail(`${c.what} broke off after ${received}${of()} bytes of the answer (${code})`);
	};
	const verify = (): NodeApiError | undefined => {
		finish();
		if (enforce && ended && received !== announced) return fail(`${c.what} broke off: the answer ended after ${received}${of()} bytes`);
		return undefined;
	};

	if (!stream) {
		// Not a stream (a test double or a future client): the whole body is already here.
		finish();
		const buffer = raw === undefined || raw === null ? Buffer.alloc(0) : Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
		return { stream: raw as NodeJS.ReadableStream, read: async () => buffer, explain, verify };
	}
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk === null) ended = true;
		else if (chunk !== undefined) {
			received += (chunk as { length?: number }).length ?? 0;
			dog.touch();
		}
		return push(chunk, encoding);
	};
	dog.touch('body');
	dog.paused = () => (stream.readableLength ?? 0) >= (stream.readableHighWaterMark ?? Infinity);
	stream.once('end', () => {
		ended = true;
		finish();
	});
	stream.once('close', finish);
	// The reader attaches its own listener; this one only keeps an error that comes before it from
	// being thrown as an uncaught exception.
	stream.on('error', finish);
	const read = async (): Promise<Buffer> => {
		const chunks: Buffer[] = [];
		try {
			for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
		} catch (error) {
			throw explain(error);
		}
		ended = true;
		const short = verify();
		if (short) throw short;
		return Buffer.concat(chunks);
	};
	return { stream: stream as NodeJS.ReadableStream, read, explain, verify };
}

/** Parses an XML response body. */
export async function xmlBody(response: StorageResponse) {
	return parseXml((await readAll(response.body)).toString('utf8'));
}

export { readAll };

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
}

export interface StorageResponse {
	statusCode: number;
	headers: Record<string, string>;
	/** Buffer, or a readable stream when `stream` was asked for. */
	body: Buffer | NodeJS.ReadableStream;
	transId: string;
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
	InvalidBucketName: 'Use 3-63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit.',
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
	const error = new NodeApiError(node, { code: info.code, message: info.message, transId: info.transId } as JsonObject, {
		message: `${info.code}: ${info.message}`,
		description: `${hint}${trans}`,
		httpCode: String(info.statusCode),
		itemIndex,
	});
	return error;
}

/**
 * Worth sending again: the service's own transient failures, a body that arrived damaged
 * (BadDigest) and S3's RequestTimeout for a body that came too slowly. Bodies are Buffers, so a
 * retry sends exactly the same bytes.
 */
function isTransient(info: StorageErrorInfo): boolean {
	return info.statusCode >= 500 || ['SlowDown', 'InternalError', 'BadDigest', 'RequestTimeout'].includes(info.code);
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

function networkCode(error: unknown): string | undefined {
	let e = error as { code?: string; cause?: unknown; context?: IDataObject } | undefined;
	for (let depth = 0; e && depth < 5; depth++) {
		if (e.code && NETWORK_CODES.has(e.code)) return e.code;
		e = e.cause as typeof e;
	}
	return undefined;
}

/** Backoff before attempt n (1-based): 200 ms, 400 ms, 800 ms … with jitter. */
export function backoffMs(attempt: number): number {
	return Math.round(200 * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
}

export async function storageRequest(ctx: StorageContext, call: StorageCall): Promise<StorageResponse> {
	const settings = await getSettings(ctx, call.itemIndex);
	const node = ctx.getNode();
	const path = objectPath(call.bucket ?? '', call.key).replace(/^\/$/, '/') || '/';
	const query = (call.query ?? [])
		.map(([k, v]) => encodeQuery({ [k]: v === undefined ? '' : String(v) }))
		.join('&');
	const url = `${settings.endpoint}${call.bucket ? path : '/'}${query ? `?${query}` : ''}`;
	const idempotent = call.method !== 'POST';
	const attempts = call.attempts ?? 3;
	let skewRetried = false;

	for (let attempt = 1; ; attempt++) {
		const headers: Record<string, string> = { ...(call.headers ?? {}) };
		headers[`${settings.profile.headerPrefix}date`] = new Date(serviceNow(settings.endpoint)).toUTCString();
		if (call.body !== undefined) headers['Content-Length'] = String(call.body.length);
		const options: IHttpRequestOptions = {
			method: call.method,
			url,
			headers,
			body: call.body && call.body.length ? call.body : undefined,
			encoding: call.stream ? 'stream' : 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		};
		let response: FullResponse;
		const sender = call.survivesCancel ? uncancellable(ctx) : ctx;
		try {
			response = (await sender.helpers.httpRequestWithAuthentication.call(sender, CREDENTIAL, options)) as FullResponse;
		} catch (error) {
			const code = networkCode(error);
			if (code && (idempotent || code === 'ECONNREFUSED') && attempt < attempts) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw new NodeApiError(node, { message: (error as Error).message } as JsonObject, {
				message: code
					? `Could not reach the object storage (${code})`
					: `The request to the object storage failed: ${(error as Error).message}`,
				description: `Check the credential's Endpoint (${settings.endpoint}) and the network.`,
				itemIndex: call.itemIndex,
			});
		}
		const status = response.statusCode;
		const headersOut = lowerHeaders(response.headers);
		const transId = headersOut['x-trans-id'] ?? '';
		if ((status >= 200 && status < 300) || call.accept?.includes(status)) {
			return { statusCode: status, headers: headersOut, body: response.body as Buffer, transId };
		}
		const info = errorInfo(status, headersOut, await readAll(response.body));
		if (info.code === 'RequestTimeTooSkewed' && !skewRetried && headersOut.date) {
			const serverTime = Date.parse(headersOut.date);
			if (!Number.isNaN(serverTime)) {
				clockOffsets.set(settings.endpoint, serverTime - Date.now());
				skewRetried = true;
				attempt--;
				continue;
			}
		}
		if (isTransient(info) && attempt < attempts) {
			await sleep(backoffMs(attempt));
			continue;
		}
		throw storageApiError(node, info, call.itemIndex);
	}
}

/** Parses an XML response body. */
export async function xmlBody(response: StorageResponse) {
	return parseXml((await readAll(response.body)).toString('utf8'));
}

export { readAll };

/**
 * One request to the management interface and what came back: a response, a transport failure
 * in one word (`timeout`, a network code) with whether the request may have reached the
 * service, or an answer that was not read because it broke a limit of this file (larger than
 * MAX_ANSWER_BYTES, nested deeper than MAX_JSON_DEPTH); and how an answer reads (the envelope,
 * an HTML page, broken JSON, a busy service). An answer's bytes become text as JSON's framing
 * allows (../charset.ts, readings R46: a byte order mark, a charset, white space; compression is
 * undone by n8n's HTTP client). The decisions (repeat, renew, fail) are transport.ts's.
 *
 * Every request has one deadline for the whole exchange, the answer's last byte included (an
 * idle timeout alone lets an answer that drips one byte every few seconds run for ever). It is
 * kept without timers of our own (n8n Cloud's lint forbids them): n8n's abortable `sleep` ends
 * the request through its abort signal and by closing the answer's body.
 */
import { sleep, type ICredentialDataDecryptedObject, type IExecuteFunctions, type IHttpRequestOptions, type ILoadOptionsFunctions, type IPollFunctions } from 'n8n-workflow';

import { jsonText } from '../charset';
import { API_CREDENTIAL, asDecrypted } from './auth';
import { codeOf, type Envelope } from './envelope';

/** The contexts that call the management interface: a node run, a list in the editor, a trigger's poll. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/**
 * The largest answer read (16 MiB). The largest page the nodes ask for is 1000 records (the
 * triggers); the largest documented record (a host with its disks and networks) is about 2 KB,
 * so a legitimate page stays near 2 MB. Anything past eight times that is not an answer to the
 * request but a fault, and reading it could take the n8n process down (a 2 GiB answer is a
 * string V8 cannot make; a 200 MB page costs gigabytes once parsed).
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The deepest nesting of an answer's JSON that is parsed (64 levels). The documented answers
 * nest at most 5 levels (envelope, payload, record, object, list); n8n copies and stores output
 * with recursive code, which an answer nested 100,000 deep makes throw later, outside the node.
 */
export const MAX_JSON_DEPTH = 64;

export interface FullResponse {
	statusCode: number;
	headers: Record<string, string>;
	/** The answer as parsed JSON, or its text when it is not JSON. */
	body: unknown;
	/** Why the answer's bytes are not its text: compressed in a way n8n's HTTP client did not undo. */
	undecoded?: string;
}

/** What a send ended with: a response, a transport failure, or an answer refused unread. */
export type Sent =
	| { response: FullResponse }
	| { failed: 'timeout' | string; reachedServer: boolean; cancelled?: boolean; received?: number }
	| { refused: 'size'; status: number; bytes: number; announced?: number }
	| { refused: 'depth'; status: number; bytes: number; announced?: undefined };

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
	if (/socket hang up|aborted/i.test(text)) return 'ECONNRESET';
	return text.replace(/\s+/g, ' ').slice(0, 120);
}

/**
 * The same context without its execution-cancel signal: n8n's request helper puts that signal in
 * place of the request's own, which would drop the deadline. The request's own signal follows
 * the cancel signal instead. Methods stay bound to the context.
 */
function withOwnSignal<T extends object>(ctx: T): T {
	return new Proxy(ctx, {
		has: (target, prop) => prop !== 'getExecutionCancelSignal' && Reflect.has(target, prop),
		get: (target, prop) => {
			if (prop === 'getExecutionCancelSignal') return undefined;
			const value = Reflect.get(target, prop, target) as unknown;
			return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
}

/** The parts of a Node readable stream read here (the HTTP client's answer body). */
interface BodyStream {
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
	pipe: unknown;
}

const isStream = (body: unknown): body is BodyStream =>
	typeof body === 'object' && body !== null && typeof (body as BodyStream).pipe === 'function' && typeof (body as BodyStream).on === 'function';

/** Reads a body up to `max` bytes: its bytes, or `over` when it is larger (the rest is not read). */
async function readCapped(stream: BodyStream, max: number): Promise<{ data: Buffer; bytes: number } | { over: true; bytes: number }> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		let settled = false;
		const settle = (f: () => void) => {
			if (!settled) {
				settled = true;
				f();
			}
		};
		stream.on('data', (chunk: unknown) => {
			const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			bytes += c.length;
			if (bytes > max) {
				settle(() => resolve({ over: true, bytes }));
				stream.destroy();
				return;
			}
			chunks.push(c);
		});
		stream.on('end', () => settle(() => resolve({ data: Buffer.concat(chunks), bytes })));
		// not `instanceof Error`: an error of Node's own streams may come from another realm (jest's)
		const asError = (error: unknown): object => (typeof error === 'object' && error !== null ? error : new Error(String(error)));
		stream.on('error', (error: unknown) => settle(() => reject(Object.assign(asError(error), { received: bytes }))));
		stream.on('close', () => settle(() => reject(Object.assign(new Error('aborted'), { received: bytes }))));
	});
}

/** How deep the JSON text nests, counted up to `limit + 1` (strings skipped). */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
	let depth = 0;
	let max = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 92) i++; // backslash: skip the escaped character
			else if (c === 34) inString = false;
			continue;
		}
		if (c === 34) inString = true;
		else if (c === 123 || c === 91) {
			depth++;
			if (depth > max) {
				max = depth;
				if (max > limit) return max;
			}
		} else if (c === 125 || c === 93) depth--;
	}
	return max;
}

/** The answer's text as JSON when it is JSON, else the text as it came. */
function parsed(text: string): unknown {
	if (!/^[ \t\r\n]*[[{]/.test(text)) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** A compressed answer the HTTP client could not decompress (a zlib error), in words; undefined for any other error. */
function compressionFault(error: unknown): string | undefined {
	const e = error as { code?: unknown; message?: unknown } | undefined;
	if (typeof e?.code !== 'string' || !/^Z_[A-Z_]+$/.test(e.code)) return undefined;
	return `compressed, but not decompressible (${String(e.message ?? e.code).slice(0, 80)})`;
}

function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
	return (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
}

/**
 * Sends one request and reads its answer within `options.timeout` ms in all (the deadline), at
 * most MAX_ANSWER_BYTES of it, parsed when it nests at most MAX_JSON_DEPTH levels.
 */
export async function send(ctx: ApiContext, options: IHttpRequestOptions, credentials?: ICredentialDataDecryptedObject): Promise<Sent> {
	const deadlineMs = options.timeout ?? 30000;
	const cancel = cancelSignalOf(ctx);
	if (cancel?.aborted) return { failed: 'canceled', reachedServer: false, cancelled: true };
	const controller = new AbortController();
	const stopClock = new AbortController();
	let body: BodyStream | undefined;
	let timedOut = false;
	const onCancel = () => {
		controller.abort();
		body?.destroy();
	};
	cancel?.addEventListener('abort', onCancel, { once: true });
	void (async () => {
		try {
			await sleep(deadlineMs, stopClock.signal);
		} catch {
			return; // the exchange ended first
		}
		timedOut = true;
		controller.abort();
		body?.destroy();
	})();
	const request: IHttpRequestOptions = { ...options, encoding: 'stream', abortSignal: controller.signal };
	const sender = withOwnSignal(ctx);
	const failure = (error: unknown): Sent => {
		const received = (error as { received?: number })?.received;
		if (cancel?.aborted) return { failed: 'canceled', reachedServer: true, cancelled: true };
		if (timedOut) return { failed: 'timeout', reachedServer: true, received };
		const word = failureWord(error);
		return { failed: word, reachedServer: body !== undefined || !NOT_REACHED.has(word), received };
	};
	try {
		let response: FullResponse;
		try {
			response = (
				credentials
					? await sender.helpers.httpRequestWithAuthentication.call(sender, API_CREDENTIAL, request, { credentialsDecrypted: asDecrypted(credentials) })
					: await sender.helpers.httpRequest(request)
			) as FullResponse;
		} catch (error) {
			return failure(error);
		}
		const status = Number(response.statusCode);
		if (!isStream(response.body)) return { response }; // already read (a client that does not stream)
		body = response.body;
		const length = Number(response.headers?.['content-length']);
		if (Number.isFinite(length) && length > MAX_ANSWER_BYTES) {
			body.destroy();
			return { refused: 'size', status, bytes: 0, announced: length };
		}
		let read: Awaited<ReturnType<typeof readCapped>>;
		try {
			read = await readCapped(body, MAX_ANSWER_BYTES);
		} catch (error) {
			const damaged = compressionFault(error);
			if (damaged && !timedOut && !cancel?.aborted) return { response: { ...response, body: '', undecoded: damaged } };
			return failure(error);
		}
		if ('over' in read) return { refused: 'size', status, bytes: read.bytes };
		const text = jsonText(read.data, response.headers?.['content-type']);
		if (jsonDepth(text) > MAX_JSON_DEPTH) return { refused: 'depth', status, bytes: read.bytes };
		const answer = parsed(text);
		// n8n's HTTP client undoes gzip, deflate and br and then drops Content-Encoding (readings R46): one
		// still there names a coding it did not undo, if the bytes are not JSON (`utf-8` there is a mistake)
		const coding = String(response.headers?.['content-encoding'] ?? '').trim();
		if (typeof answer === 'string' && coding && !/^identity$/i.test(coding)) {
			return { response: { ...response, body: answer, undecoded: `compressed as "${coding.slice(0, 40)}", which n8n's HTTP client did not decompress` } };
		}
		return { response: { ...response, body: answer } };
	} finally {
		stopClock.abort();
		cancel?.removeEventListener('abort', onCancel);
	}
}

/** Whether a failure answer says the service is too busy (it did not take the request). */
export function isBusyAnswer(message: string): boolean {
	return /too (?:frequent|many requests|busy)|frequently|rate.?limit|throttl/i.test(message);
}

/**
 * The JSON of an answer: an object with a `code` that is a number or a numeric string, or
 * undefined for an HTML page, broken or empty JSON, or a `code` that is no number at all (`true`
 * is not success, docs/vendor/management.md#envelope).
 */
export function envelopeOf(body: unknown): Envelope | undefined {
	let value = body;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const envelope = value as Envelope;
	if (envelope.code === undefined || Number.isNaN(codeOf(envelope))) return undefined;
	return envelope;
}

/**
 * What an answer that is not the envelope was, in words a user can act on: an HTML page or an
 * empty answer where JSON was expected, broken JSON, text that is not JSON (its first words), a
 * compressed answer that could not be read.
 */
export function describeBody(response: Pick<FullResponse, 'body' | 'undecoded'>): string {
	const { body } = response;
	if (response.undecoded) return `an answer ${response.undecoded}`;
	if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'code' in body) {
		return `an answer whose code ${JSON.stringify((body as { code: unknown }).code)?.slice(0, 40)} is not a number`;
	}
	if (typeof body !== 'string') return 'JSON without the envelope ({"code": ..., "message": ...}) where the envelope was expected';
	if (/^\s*</.test(body)) {
		const title = /<title[^>]*>([^<]*)</i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim().slice(0, 80);
		return `an HTML page${title ? ` ("${title}")` : ''} where JSON was expected`;
	}
	const text = body.trim();
	if (!text) return 'an empty answer where JSON was expected';
	if (/^[[{]/.test(text)) return 'broken JSON';
	return `text that is not JSON ("${text.replace(/\s+/g, ' ').slice(0, 60)}${text.length > 60 ? '…' : ''}") where JSON was expected`;
}

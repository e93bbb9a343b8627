/**
 * One request to the management interface and what came back: a response, or a transport
 * failure in one word (`timeout`, a network code) with whether the request may have reached the
 * service; and how an answer reads (the envelope, an HTML page, broken JSON, a busy service).
 * The decisions (repeat, renew, fail) are transport.ts's.
 */
import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { API_CREDENTIAL, asDecrypted } from './auth';
import type { Envelope } from './envelope';

/** The contexts that call the management interface: a node run, a list in the editor, a trigger's poll. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface FullResponse {
	statusCode: number;
	headers: Record<string, string>;
	body: unknown;
}

/** What a send ended with: a response, or a transport failure. */
export type Sent = { response: FullResponse } | { failed: 'timeout' | string; reachedServer: boolean; cancelled?: boolean };

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

export async function send(ctx: ApiContext, options: IHttpRequestOptions, credentials?: ICredentialDataDecryptedObject): Promise<Sent> {
	try {
		if (!credentials) return { response: (await ctx.helpers.httpRequest(options)) as FullResponse };
		return {
			response: (await ctx.helpers.httpRequestWithAuthentication.call(ctx, API_CREDENTIAL, options, {
				credentialsDecrypted: asDecrypted(credentials),
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
	return (value as Envelope).code === undefined ? undefined : (value as Envelope);
}

/** What an answer that is not the envelope was, in words. */
export function describeBody(body: unknown): string {
	if (typeof body !== 'string') return 'an answer without the JSON envelope';
	if (/^\s*</.test(body)) return 'an HTML page';
	return body.trim() ? 'broken JSON' : 'an empty answer';
}

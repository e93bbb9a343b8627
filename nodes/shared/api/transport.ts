/**
 * Transport of the JSON management interface (seeds 001 and 002): POST <API URL>/API/<path>
 * with a JSON body, the token added by the credential, the envelope checked (`code` 1 is
 * success, anything else a NodeApiError naming the endpoint and showing `message`), an expired
 * or revoked token renewed once, and transient failures of reads retried with backoff.
 */
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { API_CREDENTIAL, apiBaseUrl, authorize } from './auth';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface Envelope extends IDataObject {
	code: number | string;
	message?: string;
}

export interface ApiCallOptions {
	itemIndex?: number;
	/** A read may be repeated after a transient failure; a write is not repeated blindly. */
	read?: boolean;
	/** Attempts for transient failures of reads (default 4). */
	attempts?: number;
	/** Endpoints that take no token (profile/register). */
	noToken?: boolean;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string>;
	body: unknown;
}

/**
 * Tokens renewed by this process after the service refused the stored one. n8n renews a
 * credential's token only on HTTP 401; this service answers 200 with code -1, so renewal is
 * ours: the fresh token is kept here, keyed by account, and used while the stored token is the
 * one that was refused.
 */
const renewed = new Map<string, { refused: string; token: string }>();

function accountKey(credentials: ICredentialDataDecryptedObject): string {
	return `${apiBaseUrl(credentials)}\u0000${String(credentials.username ?? '')}`;
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

function networkCode(error: unknown): string | undefined {
	let e = error as { code?: string; cause?: unknown } | undefined;
	for (let depth = 0; e && depth < 6; depth++) {
		if (e.code && NETWORK_CODES.has(e.code)) return e.code;
		e = e.cause as typeof e;
	}
	const text = String((error as Error)?.message ?? '');
	if (/socket hang up|ECONNRESET/i.test(text)) return 'ECONNRESET';
	if (/timeout/i.test(text)) return 'ETIMEDOUT';
	return undefined;
}

export function backoffMs(attempt: number): number {
	return Math.round(250 * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
}

/** What a send ended with: a response, a failed log-in, or a transport failure. */
type Sent =
	| { response: FullResponse }
	| { login: string }
	| { transient: string; reachedServer: boolean };

async function send(
	ctx: ApiContext,
	options: IHttpRequestOptions,
	noToken: boolean,
	credentials: ICredentialDataDecryptedObject,
): Promise<Sent> {
	let failure: unknown;
	try {
		if (noToken) return { response: (await ctx.helpers.httpRequest(options)) as FullResponse };
		// the credentials read for this call are handed over, so n8n does not read them again
		const extra = { credentialsDecrypted: { id: '', name: '', type: API_CREDENTIAL, data: credentials } as ICredentialsDecrypted };
		return {
			response: (await ctx.helpers.httpRequestWithAuthentication.call(ctx, API_CREDENTIAL, options, extra)) as FullResponse,
		};
	} catch (error) {
		failure = error;
	}
	const message = (failure as Error)?.message ?? String(failure);
	// the credential's preAuthentication refused the log-in (n8n wraps what it throws)
	const login = [message, String((failure as { cause?: Error })?.cause?.message ?? '')].find((m) => /^(Log-in as|Could not reach the API to log in|The API at)/.test(m));
	if (login) return { login };
	const code = networkCode(failure);
	if (code) return { transient: code, reachedServer: code !== 'ECONNREFUSED' };
	return { transient: message, reachedServer: true };
}

/**
 * Calls one endpoint and returns the whole envelope. Throws NodeApiError for a failure
 * envelope, HTTP errors and unreachable hosts; never includes the token or password.
 */
export async function apiRequest(
	ctx: ApiContext,
	path: string,
	body: IDataObject = {},
	options: ApiCallOptions = {},
): Promise<Envelope> {
	const node = ctx.getNode();
	const credentials = await ctx.getCredentials(API_CREDENTIAL);
	const base = apiBaseUrl(credentials);
	if (!/^https?:\/\//.test(base)) {
		throw new NodeOperationError(node, `The credential's API URL "${base}" is not an http(s) URL`, {
			itemIndex: options.itemIndex,
			description: 'Open the Vendor API credential and enter the base address, for example https://api.vendor.example',
		});
	}
	const key = accountKey(credentials);
	const attempts = options.read ? (options.attempts ?? 4) : 1;
	let renewedOnce = false;

	for (let attempt = 1; ; attempt++) {
		const cached = renewed.get(key);
		const effective =
			cached && cached.refused === String(credentials.accessToken ?? '')
				? { ...credentials, accessToken: cached.token }
				: credentials;
		const request: IHttpRequestOptions = {
			method: 'POST',
			url: `${base}/API/${path}`,
			headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
			body: { ...body },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 60000,
		};
		const sent = await send(ctx, request, options.noToken === true, effective);
		if ('login' in sent) {
			throw new NodeOperationError(node, sent.login, {
				itemIndex: options.itemIndex,
				description: 'Open the Vendor API credential and correct the username, password or password encoding.',
			});
		}
		if ('transient' in sent) {
			// a write whose request may have reached the service is not repeated
			const mayRepeat = options.read || !sent.reachedServer;
			if (mayRepeat && attempt < Math.max(attempts, sent.reachedServer ? 1 : 2)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw new NodeApiError(node, { message: sent.transient } as JsonObject, {
				message: `Could not reach the API for ${path} (${sent.transient})`,
				description:
					sent.reachedServer && !options.read
						? `The connection failed while the request was under way, so the change may or may not have been made; check before repeating it. API URL: ${base}`
						: `Check the credential's API URL (${base}) and the network.`,
				itemIndex: options.itemIndex,
			});
		}
		const response = sent.response;

		const status = response.statusCode;
		if (status >= 500 || status === 429) {
			if (options.read && attempt < attempts) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw new NodeApiError(node, { status } as JsonObject, {
				message: `The API answered HTTP ${status} for ${path}`,
				description: options.read
					? `The service kept failing after ${attempt} attempts; try again later.`
					: 'The service failed while handling a change; check whether it was made before repeating it.',
				httpCode: String(status),
				itemIndex: options.itemIndex,
			});
		}
		if (status === 404) {
			throw new NodeApiError(node, { status } as JsonObject, {
				message: `The API has no endpoint ${path} (HTTP 404)`,
				description: `Check the credential's API URL (${base}); calls go to <API URL>/API/<group>/<operation>.`,
				httpCode: '404',
				itemIndex: options.itemIndex,
			});
		}
		const envelope = response.body as Envelope;
		if (typeof envelope !== 'object' || envelope === null || envelope.code === undefined) {
			throw new NodeApiError(node, { status } as JsonObject, {
				message: `The API answered ${path} without a JSON envelope (HTTP ${status})`,
				description: `Check the credential's API URL (${base}).`,
				httpCode: String(status),
				itemIndex: options.itemIndex,
			});
		}
		const code = Number(envelope.code);
		if (code === -1 && !options.noToken && !renewedOnce) {
			// expired or revoked token: log in again and repeat the request once
			renewedOnce = true;
			const login = await authorize((o) => ctx.helpers.httpRequest(o), credentials);
			if (!login.ok) {
				throw new NodeOperationError(node, login.message, {
					itemIndex: options.itemIndex,
					description: 'Open the Vendor API credential and correct the username, password or password encoding.',
				});
			}
			renewed.set(key, { refused: String(credentials.accessToken ?? ''), token: login.token });
			attempt--;
			continue;
		}
		if (code !== 1) {
			const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : 'no message';
			throw new NodeApiError(node, { code, message } as JsonObject, {
				message: `${path}: ${message}`,
				description:
					code === -1
						? 'The service refused the token even after logging in again; check that the account is enabled.'
						: `The service answered code ${code} for ${path}. ${/permission/i.test(message) ? 'The sub-account needs this permission in its group.' : 'Check the values sent.'}`,
				itemIndex: options.itemIndex,
			});
		}
		return envelope;
	}
}

/** The payload of an envelope: `data`, or `result` where a list answers under that key. */
export function payload(envelope: Envelope): unknown {
	if (envelope.data !== undefined) return envelope.data;
	if (envelope.result !== undefined) return envelope.result;
	return undefined;
}

export interface PageOptions extends ApiCallOptions {
	/** Stop after this many records (Return All off). */
	limit?: number;
	/** Page size asked for (default 100). */
	pageSize?: number;
	/** Pages fetched at once after the first (default 6, as browsers allow per host). */
	concurrency?: number;
}

function rowsOf(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	if (Array.isArray(p)) return p as IDataObject[];
	if (p === undefined || p === null || p === '') return [];
	return [p as IDataObject];
}

/**
 * Reads a paginated list: page 1 first, which tells `totalpage`; then, for Return All, the
 * remaining pages with bounded concurrency, kept in page order. With a limit, pages are read
 * one after the other until enough records arrived.
 */
export async function apiRequestAllItems(
	ctx: ApiContext,
	path: string,
	body: IDataObject = {},
	options: PageOptions = {},
): Promise<IDataObject[]> {
	const read = { ...options, read: true };
	if (options.limit !== undefined) {
		const pageSize = Math.min(options.pageSize ?? 100, Math.max(1, options.limit));
		const out: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			const rows = rowsOf(envelope);
			out.push(...rows);
			const totalPages = Number(envelope.totalpage ?? 1);
			if (out.length >= options.limit || rows.length === 0 || page >= totalPages) break;
		}
		return out.slice(0, options.limit);
	}
	const pageSize = options.pageSize ?? 100;
	const first = await apiRequest(ctx, path, { ...body, page: 1, limit: pageSize }, read);
	const totalPages = Number(first.totalpage ?? 1);
	const pages: IDataObject[][] = [rowsOf(first)];
	const remaining: number[] = [];
	for (let p = 2; p <= totalPages; p++) remaining.push(p);
	const concurrency = Math.max(1, options.concurrency ?? 6);
	let next = 0;
	const worker = async () => {
		while (next < remaining.length) {
			const page = remaining[next++];
			const envelope = await apiRequest(ctx, path, { ...body, page, limit: pageSize }, read);
			pages[page - 1] = rowsOf(envelope);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, remaining.length) }, worker));
	return pages.flat();
}

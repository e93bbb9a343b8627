/**
 * Token exchange of the management interface (seed 001 section 5): `OAuth/authorize` with the
 * username and the (optionally encoded) password gives `access_token`; every other call sends
 * it as `token` in the JSON body.
 */
import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

export const API_CREDENTIAL = 'vendorApi';

export function apiBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.apiUrl ?? '').trim().replace(/\/+$/, '');
}

/** The password as `OAuth/authorize` expects it (DECISIONS: none, MD5 hex or base64). */
export function encodePassword(password: string, encoding: unknown): string {
	if (encoding === 'md5') return createHash('md5').update(password, 'utf8').digest('hex');
	if (encoding === 'base64') return Buffer.from(password, 'utf8').toString('base64');
	return password;
}

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

export type LoginResult = { ok: true; token: string } | { ok: false; message: string };

/**
 * Logs in. A refused login gives a message that says the username or password is wrong
 * (never the password itself); callers turn it into the error type of their context.
 */
export async function authorize(httpRequest: HttpRequest, credentials: ICredentialDataDecryptedObject): Promise<LoginResult> {
	const base = apiBaseUrl(credentials);
	const username = String(credentials.username ?? '');
	let response: IDataObject | undefined;
	let failure = '';
	try {
		response = (await httpRequest({
			method: 'POST',
			url: `${base}/API/OAuth/authorize`,
			headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
			body: {
				username,
				password: encodePassword(String(credentials.password ?? ''), credentials.loginEncoding),
			},
			json: true,
		})) as IDataObject;
	} catch (error) {
		failure = (error as Error).message;
	}
	if (failure) return { ok: false, message: `Could not reach the API to log in (${failure}). Check the API URL "${base}".` };
	if (typeof response !== 'object' || response === null) {
		return { ok: false, message: `The API at "${base}" did not answer the log-in with JSON. Check the API URL.` };
	}
	if (Number(response.code) !== 1 || typeof response.access_token !== 'string' || !response.access_token) {
		const said = typeof response.message === 'string' ? response.message : '';
		return {
			ok: false,
			message: `Log-in as "${username}" was refused${said ? `: ${said}` : ''}. Check the username and password (and the password encoding).`,
		};
	}
	return { ok: true, token: response.access_token };
}

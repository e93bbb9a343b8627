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

export class LoginError extends Error {
	constructor(
		message: string,
		readonly serviceMessage: string,
		readonly code?: unknown,
	) {
		super(message);
	}
}

/**
 * Logs in and returns the new token. A refused login throws a LoginError whose message says
 * the username or password is wrong (never the password itself).
 */
export async function authorize(httpRequest: HttpRequest, credentials: ICredentialDataDecryptedObject): Promise<string> {
	const base = apiBaseUrl(credentials);
	const username = String(credentials.username ?? '');
	let response: IDataObject;
	try {
		response = (await httpRequest({
			method: 'POST',
			url: `${base}/API/OAuth/authorize`,
			headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
			body: {
				username,
				password: encodePassword(String(credentials.password ?? ''), credentials.passwordEncoding),
			},
			json: true,
		})) as IDataObject;
	} catch (error) {
		throw new LoginError(
			`Could not reach the API to log in (${(error as Error).message}). Check the API URL "${base}".`,
			'',
		);
	}
	if (typeof response !== 'object' || response === null) {
		throw new LoginError(`The API at "${base}" did not answer the log-in with JSON. Check the API URL.`, '');
	}
	if (Number(response.code) !== 1 || typeof response.access_token !== 'string' || !response.access_token) {
		const said = typeof response.message === 'string' ? response.message : '';
		throw new LoginError(
			`Log-in as "${username}" was refused${said ? `: ${said}` : ''}. Check the username and password (and the password encoding).`,
			said,
			response.code,
		);
	}
	return response.access_token;
}

/**
 * Secrets of a credential kept out of everything the node shows: a service may echo the
 * password, a token or the access secret in a message ("password Echoed-Pass-456 is incorrect"),
 * or a record may carry one. Both transports pass the text of the service through `redact` on
 * their error paths, and the nodes pass their output through `redactRecords`, so a secret is
 * replaced by `(hidden)` wherever it appears, in any of the forms it can take on the way back
 * (as typed, URL-encoded, JSON-escaped, and the encodings the log-in sends).
 */
import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

export const HIDDEN = '(hidden)';

/**
 * Shorter secrets are not searched for: replacing every "ab" in a message would make it
 * unreadable and hide nothing (a password that short is found by trying anyway).
 */
export const MIN_SECRET_LENGTH = 4;

/** The forms one secret can take in text that comes back. */
function formsOf(secret: string): string[] {
	const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
	return forms.filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/**
 * Every secret of a credential of this package, in every form: the management password (as
 * typed, as MD5 hex and as base64, the encodings the log-in may send), its token (the stored
 * value and the token in it), and the object-storage access secret. Longest first, so that a
 * secret inside another is replaced as part of the longer one.
 */
export function credentialSecrets(credentials: ICredentialDataDecryptedObject | undefined, extra: Array<string | undefined> = []): string[] {
	const secrets = new Set<string>();
	const add = (value: unknown) => {
		if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
		for (const form of formsOf(value)) secrets.add(form);
	};
	if (credentials) {
		const password = credentials.password;
		if (typeof password === 'string' && password) {
			add(password);
			// the forms the log-in sends it in (Password Encoding, api/auth.ts encodePassword)
			add(createHash('md5').update(password, 'utf8').digest('hex'));
			add(Buffer.from(password, 'utf8').toString('base64'));
		}
		// an access secret equal to the access key (s3rver's S3RVER/S3RVER) is no secret: the key goes
		// out in clear in every request and presigned URL, and hiding it would break those URLs
		if (credentials.accessSecret !== credentials.accessKey) add(credentials.accessSecret);
		const stored = credentials.accessToken;
		if (typeof stored === 'string' && stored) {
			add(stored);
			// vc1:<fingerprint>:<token> (api/auth.ts): the token itself is what a service echoes
			add(stored.split(':').slice(2).join(':'));
		}
	}
	for (const value of extra) add(value);
	return [...secrets].sort((a, b) => b.length - a.length);
}

/** Two lists of secrets as one, longest first. */
export function unionSecrets(a: string[], b: string[]): string[] {
	if (!b.length || b.every((x) => a.includes(x))) return a;
	return [...new Set([...a, ...b])].sort((x, y) => y.length - x.length);
}

/** The text with every secret replaced by `(hidden)`. */
export function redact(text: string, secrets: string[]): string {
	let out = text;
	for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(HIDDEN);
	return out;
}

/** A value with every string in it redacted; the same object when nothing had to change. */
function redactValue(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) {
		let changed = false;
		const out = value.map((v) => {
			const r = redactValue(v, secrets);
			if (r !== v) changed = true;
			return r;
		});
		return changed ? out : value;
	}
	if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
		let out: IDataObject | undefined;
		for (const [k, v] of Object.entries(value as IDataObject)) {
			const r = redactValue(v, secrets);
			const key = redact(k, secrets);
			if (r !== v || key !== k) {
				out ??= { ...(value as IDataObject) };
				if (key !== k) delete out[k];
				out[key] = r as IDataObject[string];
			}
		}
		return out ?? value;
	}
	return value;
}

/** Output records with every secret in their keys and values replaced. */
export function redactRecords<T extends IDataObject>(records: T[], secrets: string[]): T[] {
	if (!secrets.length) return records;
	return records.map((r) => redactValue(r, secrets) as T);
}

/**
 * An error with every secret replaced, in place (the same error): its message and description,
 * the messages n8n keeps from the answer, the answer itself, its context and its cause.
 */
export function redactError<E>(error: E, secrets: string[], depth = 0): E {
	if (!secrets.length || typeof error !== 'object' || error === null || depth > 4) return error;
	const e = error as Record<string, unknown>;
	for (const key of ['message', 'description', 'stack']) {
		if (typeof e[key] === 'string') e[key] = redact(e[key] as string, secrets);
	}
	if (Array.isArray(e.messages)) e.messages = e.messages.map((m) => (typeof m === 'string' ? redact(m, secrets) : m));
	for (const key of ['context', 'errorResponse']) if (e[key] && typeof e[key] === 'object') e[key] = redactValue(e[key], secrets);
	if (e.cause instanceof Error) redactError(e.cause, secrets, depth + 1);
	else if (e.cause && typeof e.cause === 'object') e.cause = redactValue(e.cause, secrets);
	return error;
}

/**
 * The state of one compatibility check: the findings so far, what it wrote (to remove at the
 * end), the multipart signing variants it tries, and requests in the bucket being checked.
 */
import { createHash, randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { StorageSettings } from '../../../shared/storage/auth';
import type { StorageCall } from '../../../shared/storage/call';
import { settingsOf } from '../../../shared/storage/settings';
import { storageRequest, xmlBody } from '../../../shared/storage/transport';
import type { XmlNode } from '../../../shared/storage/xml';
import type { UploadTarget } from '../multipart';

export interface Finding extends IDataObject {
	check: string;
	tried: string;
	observed: string;
	reading: string;
}

export interface CompatOptions {
	bucket: string;
	prefix: string;
	firstPartBytes: number;
	scratchBucket: boolean;
	itemIndex: number;
}

/** Credential fields of one way to spell and sign multipart requests. */
export interface Variant {
	id: string;
	label: string;
	spelling: 'camel' | 'snake';
	signUnderscore: boolean;
	decoded: boolean;
}

export const VARIANTS: Variant[] = [
	{ id: 'camel', label: 'uploadId/partNumber, values signed as sent', spelling: 'camel', signUnderscore: false, decoded: false },
	{ id: 'camelDecoded', label: 'uploadId/partNumber, values signed decoded', spelling: 'camel', signUnderscore: false, decoded: true },
	{ id: 'snake', label: 'upload_id/part_number, not signed', spelling: 'snake', signUnderscore: false, decoded: false },
	{ id: 'snakeSigned', label: 'upload_id/part_number signed, values as sent', spelling: 'snake', signUnderscore: true, decoded: false },
	{ id: 'snakeSignedDecoded', label: 'upload_id/part_number signed, values decoded', spelling: 'snake', signUnderscore: true, decoded: true },
];

/** The service's error code of a storage error (`context.serviceCode`; a message that starts with one, "SignatureDoesNotMatch: …"). */
export const codeOf = (error: unknown): string | undefined => {
	// the service's code, kept on the error (storage/errors.ts); its first line is in words
	const kept = (error as { context?: { serviceCode?: unknown } } | undefined)?.context?.serviceCode;
	if (typeof kept === 'string' && kept) return kept;
	return /^([A-Za-z][A-Za-z0-9]*): /.exec(String((error as Error)?.message ?? ''))?.[1];
};
export const messageOf = (error: unknown) => String((error as Error)?.message ?? error);
export const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** `n8n-compat-<8 hex>/`. */
export function scratchPrefix(): string {
	return `n8n-compat-${randomBytes(4).toString('hex')}/`;
}

/** A key name that only round-trips when keys are encoded and signed as the node does. */
export const TRICKY_NAME = 'tricky/ü 日本 a+b=c:d%25e?f#g~h.txt';

/** One run of the check: its findings, what it made, and requests in the bucket being checked. */
export class Check {
	readonly findings: Finding[] = [];

	/** Keys written (or possibly written) under the prefix, to delete at the end. */
	readonly keys = new Set<string>();

	/** Uploads started and not known to be finished, with the variant that may abort them. */
	readonly uploads = new Map<string, { key: string; variant?: Variant }>();

	scratchBucket?: string;

	/** The Bucket Path the bucket-level requests of the check use: the credential's, or the one found to work. */
	bucketPath: 'slash' | 'noSlash';

	readonly settings: StorageSettings;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly o: CompatOptions,
		readonly stored: ICredentialDataDecryptedObject,
	) {
		this.settings = settingsOf(stored, ctx.getNode(), o.itemIndex);
		this.bucketPath = this.settings.bucketPathSlash ? 'slash' : 'noSlash';
	}

	/** Checks whose answer is a problem or unclear, for the summary. */
	readonly problems: string[] = [];

	add(finding: Finding): Finding {
		this.findings.push(finding);
		return finding;
	}

	/** A finding that is a problem (a failure, a refusal, no clear answer). */
	problem(finding: Finding): Finding {
		this.problems.push(finding.check);
		return this.add(finding);
	}

	/** The stored credential's effective values, with the check's Bucket Path and `extra`. */
	effective(extra: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
		const s = this.settings;
		return {
			advanced: true,
			schemeWord: s.profile.scheme,
			headerPrefix: s.profile.headerPrefix,
			presignKeyParam: s.presignKeyParam,
			responseTimeout: s.responseTimeoutMs / 1000,
			completeTimeout: s.completeTimeoutMs / 1000,
			idleTimeout: s.idleTimeoutMs / 1000,
			bucketPath: this.bucketPath,
			multipartQueryNames: s.uploadIdParam === 'upload_id' ? 'snake' : 'camel',
			signUnderscoreSubResources: (s.profile.extraSubResources ?? []).includes('upload_id'),
			subResourceValues: s.profile.decodeSubResourceValues ? 'decoded' : 'asSent',
			...extra,
		};
	}

	/** The stored credential's effective values, with one multipart variant. */
	overrides(v: Variant): ICredentialDataDecryptedObject {
		return this.effective({
			multipartQueryNames: v.spelling,
			signUnderscoreSubResources: v.signUnderscore,
			subResourceValues: v.decoded ? 'decoded' : 'asSent',
		});
	}

	target(key: string, v: Variant): UploadTarget {
		const credentialOverrides = this.overrides(v);
		return {
			bucket: this.o.bucket,
			key,
			itemIndex: this.o.itemIndex,
			settings: settingsOf({ ...this.stored, ...credentialOverrides }, this.ctx.getNode(), this.o.itemIndex),
			overrides: { credentialOverrides },
		};
	}

	async request(call: Omit<StorageCall, 'itemIndex'>) {
		return await storageRequest(this.ctx, { credentialOverrides: this.effective(), ...call, itemIndex: this.o.itemIndex });
	}

	async put(key: string, body: Buffer, headers: Record<string, string> = {}) {
		this.keys.add(key);
		return await this.request({ method: 'PUT', bucket: this.o.bucket, key, body, headers: { 'Content-Type': 'application/octet-stream', ...headers } });
	}

	/** Get Object, read whole: the objects of the check are at most the multipart one (part 1 and 1 KiB). */
	async get(key: string, headers: Record<string, string> = {}, accept: number[] = []) {
		return await this.request({ method: 'GET', bucket: this.o.bucket, key, headers, accept, maxAnswerBytes: this.o.firstPartBytes + 1024 * 1024 });
	}

	async list(query: Array<[string, string | number | undefined]>) {
		const res = await this.request({ method: 'GET', bucket: this.o.bucket, query });
		return (await xmlBody(res)).ListBucketResult as XmlNode | undefined;
	}
}

/**
 * Failures of object-storage requests as the user sees them: the service's `<Error>` body read
 * into code and message, a sentence per code on how to fix it (HINTS), NodeApiErrors whose
 * message n8n keeps, which failures are worth sending again, and which failed requests may have
 * been performed all the same.
 */
import { NodeApiError, type IDataObject, type INode, type JsonObject } from 'n8n-workflow';

import { xmlText } from '../charset';
import { parseXml, text } from './xml';

/** What to do about each error code of the service, shown under the message. */
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
		'S3-compatible services usually want 3-63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit.',
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

export interface StorageErrorInfo {
	code: string;
	message: string;
	transId: string;
	statusCode: number;
}

/** The code and message of an error answer: its `<Error>` body, else the HTTP status. */
export function errorInfo(status: number, headers: Record<string, string>, body: Buffer): StorageErrorInfo {
	const transId = headers['x-trans-id'] ?? '';
	let code = '';
	let message = '';
	let textBody: string;
	try {
		textBody = xmlText(body, headers['content-type']);
	} catch {
		textBody = body.toString('utf8'); // an encoding the node cannot read: the status line below
	}
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

/** What a failed request was about: its bucket and key (messages name them) and "Get Object b/k". */
export interface StorageTarget {
	bucket?: string;
	key?: string;
	what?: string;
}

/**
 * The first line of a service error in words: what happened to which bucket or object. The
 * service's code, its own message and the X-Trans-Id are in the description (where someone
 * helping the user looks for them), and on `context` (`serviceCode`, `transId`).
 */
function saidPlainly(info: StorageErrorInfo, at: StorageTarget): string {
	const bucket = at.bucket ? ` "${at.bucket}"` : '';
	const object = at.key ? ` "${at.key}"` : '';
	const inBucket = at.bucket ? ` in the bucket "${at.bucket}"` : '';
	switch (info.code) {
		case 'NoSuchBucket':
			return `The bucket${bucket} does not exist`;
		case 'NoSuchKey':
			return `The object${object} does not exist${inBucket}`;
		case 'NoSuchUpload':
			return `The multipart upload of${object || ' the object'} does not exist any more`;
		case 'BucketAlreadyExists':
			return `The bucket name${bucket} is taken`;
		case 'BucketNotEmpty':
			return `The bucket${bucket} is not empty`;
		case 'AccessDenied':
			return `The access key may not do this${at.what ? ` (${at.what})` : ''}`;
		case 'SignatureDoesNotMatch':
			return 'The service refused the signature of the request: the access secret or the signing settings do not match';
		case 'InvalidAccessKeyId':
			return 'The service does not know the access key of the credential';
		case 'RequestTimeTooSkewed':
			return "This machine's clock is more than 15 minutes away from the service's";
		case 'InvalidBucketName':
			return `The service refused the bucket name${bucket}`;
		case 'PreconditionFailed':
			return `The object${object} does not meet the condition of the request`;
		case 'SlowDown':
			return 'The service is too busy';
		case 'InternalError':
			return 'The service had an internal error';
	}
	return `The service refused ${at.what ?? 'the request'}: ${info.message}`;
}

export function storageApiError(node: INode, info: StorageErrorInfo, itemIndex?: number, at: StorageTarget = {}): NodeApiError {
	const hint = HINTS[info.code] ?? 'See the message from the service.';
	const message = info.message.trim().replace(/\.$/, '');
	const said = `Service answer: ${info.code}, "${message}"${info.transId ? `, X-Trans-Id ${info.transId}` : ''}.`;
	const error = storageFailure(node, saidPlainly(info, at), `${hint} ${said}`, itemIndex, {
		httpCode: String(info.statusCode),
		cause: { code: info.code, message: info.message, transId: info.transId } as JsonObject,
	});
	error.context.serviceCode = info.code;
	if (info.transId) error.context.transId = info.transId;
	return error;
}

/**
 * Worth sending again: the service's own transient failures, a body that arrived damaged
 * (BadDigest) and S3's RequestTimeout for a body that came too slowly. Bodies are Buffers, or a
 * stored file opened again for each try with its MD5 taken first, so a retry sends the same bytes.
 */
export function isTransient(info: StorageErrorInfo): boolean {
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

/** The network error code (ECONNRESET, ECONNREFUSED …) in an error or its causes. */
export function networkCode(error: unknown): string | undefined {
	let e = error as { code?: string; cause?: unknown; context?: IDataObject } | undefined;
	for (let depth = 0; e && depth < 5; depth++) {
		if (e.code && NETWORK_CODES.has(e.code)) return e.code;
		e = e.cause as typeof e;
	}
	return undefined;
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

/** Marks `error` as the failure of a request the service may have performed (see mayHaveBeenPerformed). */
export function markMayHaveBeenPerformed(error: object): void {
	ambiguous.add(error);
}

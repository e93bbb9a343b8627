/**
 * What one object-storage request is (`StorageCall`), what comes back (`StorageResponse`), and
 * how a request is named in messages ("Get Object my-bucket/a.txt").
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	NodeApiError,
} from 'n8n-workflow';

import type { StorageSettings } from './auth';

/** What a request is sent through: an action node's run, a list search, or a trigger's poll. */
export type StorageContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface StorageCall {
	method: IHttpRequestMethods;
	bucket?: string;
	key?: string;
	/** Query in the order given; an undefined or '' value is sent as a bare name (`?uploads`). */
	query?: Array<[string, string | number | undefined]>;
	headers?: Record<string, string>;
	/** In memory (sent in views), or read from where it is kept, opened again for every try. */
	body?: Buffer | ReopenableBody;
	/** Hand back the response body as a stream instead of a Buffer. */
	stream?: boolean;
	/**
	 * Largest answer body read into memory (without `stream`), in bytes; reading stops past it
	 * with an error naming the request and the size. Default DEFAULT_MAX_ANSWER_BYTES (body.ts);
	 * listings pass what the page they ask for can hold.
	 */
	maxAnswerBytes?: number;
	/**
	 * The answer may take long to come (Complete Multipart Upload joins the parts first): its
	 * wait is the credential's Complete Timeout instead of the Response Timeout.
	 */
	longRunning?: boolean;
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

/**
 * A request body read from where it is kept (a file in n8n's binary store) instead of memory:
 * each try of the request opens it again and streams it, so a retry sends the whole body again
 * and memory does not grow with its size.
 */
export interface ReopenableBody {
	/** Its bytes: sent as Content-Length; a try whose source yields another count fails. */
	readonly length: number;
	open(): Promise<AsyncIterable<unknown>>;
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

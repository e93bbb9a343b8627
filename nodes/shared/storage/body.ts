/**
 * The bodies of a request, watched by its Watchdog: the request body handed to the HTTP client
 * in 256 KiB views (each pull is progress), and the answer's body counted as it arrives, with
 * every way it can fail (stalled, connection lost, short, cancelled) turned into an error that
 * names the request and how much arrived.
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import type { StorageSettings } from './auth';
import { networkCode, storageFailure } from './errors';
import { seconds, type Watchdog } from './watchdog';

/** Size of each piece of a request body handed to the HTTP client. */
const BODY_CHUNK = 256 * 1024;

/**
 * A request body the HTTP client pulls piece by piece, so that the transport sees the service
 * take it in: each pull is progress (the idle timeout while sending), the pull after the last
 * piece ends the sending. It is a Blob to the HTTP client (axios streams a Blob's `stream()`),
 * made of views of the Buffer: nothing is copied.
 */
export function pulledBody(data: Buffer, type: string, onPull: (done: boolean) => void): object {
	return {
		[Symbol.toStringTag]: 'Blob',
		size: data.length,
		type,
		async *stream() {
			for (let offset = 0; offset < data.length; offset += BODY_CHUNK) {
				onPull(false);
				yield data.subarray(offset, Math.min(data.length, offset + BODY_CHUNK));
			}
			onPull(true);
		},
	};
}


/** The parts of a Node readable stream the transport uses (the HTTP client's response body). */
interface ResponseBody extends NodeJS.ReadableStream {
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	readableLength?: number;
	readableHighWaterMark?: number;
	destroyed?: boolean;
	destroy?(error?: Error): void;
}

function isStream(body: unknown): body is ResponseBody {
	return typeof body === 'object' && body !== null && typeof (body as ResponseBody).pipe === 'function' && typeof (body as ResponseBody).push === 'function';
}

export interface BodyContext {
	what: string;
	status: number;
	headers: Record<string, string>;
	settings: StorageSettings;
	node: INode;
	itemIndex?: number;
	cancelled: () => boolean;
}

/**
 * The answer's body, watched: bytes are counted as the HTTP client hands them on (its push), the
 * watchdog measures pauses while the reader waits, and every way the body can fail (stalled,
 * connection lost, shorter than its Content-Length, cancelled) becomes an error that names the
 * request and how much arrived. `read()` collects it; a caller that takes the stream uses
 * `explain(error)` for the error its reading ended with and `verify()` once it has read it all.
 */
export function watchBody(raw: unknown, dog: Watchdog, done: () => void, c: BodyContext) {
	const stream = isStream(raw) ? raw : undefined;
	let received = 0;
	let ended = false;
	let finished = false;
	const finish = () => {
		if (finished) return;
		finished = true;
		dog.stop();
		done();
	};
	// Content-Length counts the bytes on the wire. A body cut short is an error of Node's HTTP
	// parser (seen here as "broke off"). n8n's client inflates gzip, deflate and br bodies and
	// then drops Content-Encoding (gzip and deflate check their own length), so the count is
	// compared with Content-Length only while Content-Encoding is still there: the bytes are
	// those of the wire.
	const length = c.headers['content-length'];
	const announced = c.status >= 200 && c.status < 300 && c.status !== 204 && length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
	const enforce = announced !== undefined && c.headers['content-encoding'] !== undefined;
	const of = () => (announced !== undefined ? ` of ${announced}` : '');

	const fail = (headline: string, extra = '') =>
		storageFailure(c.node, headline, `The answer is incomplete and was not used.${extra} Running it again is safe.`, c.itemIndex);
	const explain = (error: unknown): NodeApiError => {
		finish();
		if (error instanceof NodeApiError) return error;
		if (dog.fired) {
			return fail(
				`${c.what} timed out: no data for ${seconds(dog.fired.ms)} after ${received}${of()} bytes of the answer`,
				` The Idle Timeout is set in the credential under Advanced Protocol Settings (${seconds(dog.fired.ms)} now).`,
			);
		}
		if (c.cancelled()) return storageFailure(c.node, `${c.what} was cancelled`, 'The execution was stopped while the answer was read.', c.itemIndex);
		const code = networkCode(error) ?? (error as Error)?.message ?? 'connection lost';
		return fail(`${c.what} broke off after ${received}${of()} bytes of the answer (${code})`);
	};
	const verify = (): NodeApiError | undefined => {
		finish();
		if (enforce && ended && received !== announced) return fail(`${c.what} broke off: the answer ended after ${received}${of()} bytes`);
		return undefined;
	};

	if (!stream) {
		// Not a stream (a test double or a future client): the whole body is already here.
		finish();
		const buffer = raw === undefined || raw === null ? Buffer.alloc(0) : Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
		return { stream: raw as NodeJS.ReadableStream, read: async () => buffer, explain, verify };
	}
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk === null) ended = true;
		else if (chunk !== undefined) {
			received += (chunk as { length?: number }).length ?? 0;
			dog.touch();
		}
		return push(chunk, encoding);
	};
	dog.touch('body');
	dog.paused = () => (stream.readableLength ?? 0) >= (stream.readableHighWaterMark ?? Infinity);
	stream.once('end', () => {
		ended = true;
		finish();
	});
	stream.once('close', finish);
	// The reader attaches its own listener; this one only keeps an error that comes before it from
	// being thrown as an uncaught exception.
	stream.on('error', finish);
	const read = async (): Promise<Buffer> => {
		const chunks: Buffer[] = [];
		try {
			for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
		} catch (error) {
			throw explain(error);
		}
		ended = true;
		const short = verify();
		if (short) throw short;
		return Buffer.concat(chunks);
	};
	return { stream: stream as NodeJS.ReadableStream, read, explain, verify };
}

/** The whole body of an answer (a Buffer, a string, a stream), as one Buffer. */
export async function readAll(body: unknown): Promise<Buffer> {
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

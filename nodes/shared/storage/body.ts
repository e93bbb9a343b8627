/**
 * The bodies of a request, watched by its Watchdog: the request body handed to the HTTP client
 * in 256 KiB views (each pull is progress), and the answer's body counted as it arrives, with
 * every way it can fail (stalled, connection lost, short, cancelled) turned into an error that
 * names the request and how much arrived.
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import type { StorageSettings } from './auth';
import type { ReopenableBody } from './call';
import { networkCode, storageFailure } from './errors';
import { seconds, type Watchdog } from './watchdog';

/** What the deadline of a request counts: its start, time paused by the service being busy, bytes moved. */
export interface Budget {
	start: number;
	/** Time spent waiting on the run's shared back-off after SlowDown: not the request's own. */
	pausedMs: number;
	/** Bytes of request bodies sent and of answers announced or received, over all tries. */
	moved: number;
}

/**
 * Largest answer read into memory when the caller names no other size: 16 MiB. The answers read
 * whole are XML documents (lists, ACLs, results) and error bodies; a listing page passes what a
 * page of its size can hold (listing.ts), and downloads are streamed, not read whole.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** How much of an error answer is read: the code and message are at its start. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** `8 MiB`, `512 KiB`, `300 bytes`: a size for messages. */
export function size(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
	if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
	return `${bytes} bytes`;
}

/** Size of each piece of a request body handed to the HTTP client. */
const BODY_CHUNK = 256 * 1024;

/**
 * A request body the HTTP client pulls piece by piece, so that the transport sees the service
 * take it in: each pull is progress (the idle timeout while sending), the pull after the last
 * piece ends the sending. It is a Blob to the HTTP client (axios streams a Blob's `stream()`):
 * a Buffer goes as views of it, nothing copied; a ReopenableBody is opened here, once per try,
 * and must yield exactly its `length` bytes (else the try fails: the service never sees a body
 * other than the one announced).
 */
export function pulledBody(data: Buffer | ReopenableBody, type: string, onPull: (done: boolean) => void): object {
	return {
		[Symbol.toStringTag]: 'Blob',
		size: data.length,
		type,
		async *stream() {
			if (Buffer.isBuffer(data)) {
				for (let offset = 0; offset < data.length; offset += BODY_CHUNK) {
					onPull(false);
					yield data.subarray(offset, Math.min(data.length, offset + BODY_CHUNK));
				}
				onPull(true);
				return;
			}
			const source = await data.open();
			let sent = 0;
			try {
				for await (const piece of source) {
					const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
					sent += chunk.length;
					if (sent > data.length) break;
					onPull(false);
					yield chunk;
				}
			} finally {
				(source as { destroy?: () => void }).destroy?.();
			}
			if (sent !== data.length) {
				throw new Error(`the body to send changed: ${sent > data.length ? 'more' : 'fewer'} than its ${data.length} bytes were read`);
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

/** Whether the answer's body is a stream still to be read (the HTTP client's), not a body already whole. */
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
	/** The request's deadline budget: the bytes of the answer are added to what it has moved. */
	budget?: Budget;
	/** The caller takes the body as a stream (a download): its announced length counts at once. */
	streamed?: boolean;
}

/** What is known of one answer's body while it is read (watchBody's functions share it). */
interface Watched {
	c: BodyContext;
	dog: Watchdog;
	/** Called once when the reading ends, however it ends. */
	done: () => void;
	/** Bytes of the body that arrived so far. */
	received: number;
	ended: boolean;
	finished: boolean;
	/** Bytes of the answer already added to the request's budget. */
	credited: number;
	/** Content-Length of a successful answer with a body; undefined when there is none. */
	announced: number | undefined;
	/** Whether the bytes that arrived are held to `announced` (they are those of the wire). */
	enforce: boolean;
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
	const w: Watched = { c, dog, done, received: 0, ended: false, finished: false, credited: 0, ...announcedLength(c) };
	// The deadline grows with the bytes the answer moves: a download by its announced length at
	// once, anything else (and a download without a length) as the bytes arrive.
	if (c.streamed && w.announced !== undefined) credit(w, w.announced);
	const explain = (error: unknown): NodeApiError => explainFailure(w, error);
	const verify = (): NodeApiError | undefined => verifyLength(w);

	if (!stream) {
		// Not a stream (a test double or a future client): the whole body is already here.
		finish(w);
		const buffer = raw === undefined || raw === null ? Buffer.alloc(0) : Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
		return { stream: raw as NodeJS.ReadableStream, read: async () => buffer, explain, verify };
	}
	countArrivals(w, stream);
	const read = async (limit = DEFAULT_MAX_ANSWER_BYTES, truncate = false): Promise<Buffer> => await readWhole(w, stream, limit, truncate);
	return { stream: stream as NodeJS.ReadableStream, read, explain, verify };
}

/**
 * The length the answer announces, and whether the bytes are held to it. Content-Length counts
 * the bytes on the wire. A body cut short is an error of Node's HTTP parser (seen here as "broke
 * off"). n8n's client inflates gzip, deflate and br bodies and then drops Content-Encoding (gzip
 * and deflate check their own length), so the count is compared with Content-Length only while
 * Content-Encoding is still there: the bytes are those of the wire.
 */
function announcedLength(c: BodyContext): { announced: number | undefined; enforce: boolean } {
	const length = c.headers['content-length'];
	const announced = c.status >= 200 && c.status < 300 && c.status !== 204 && length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
	return { announced, enforce: announced !== undefined && c.headers['content-encoding'] !== undefined };
}

/** Ends the watching once: the watchdog stops and the caller's `done` runs. */
function finish(w: Watched): void {
	if (w.finished) return;
	w.finished = true;
	w.dog.stop();
	w.done();
}

/** Adds the bytes of the answer beyond those already counted to the request's budget. */
function credit(w: Watched, total: number): void {
	if (w.c.budget && total > w.credited) {
		w.c.budget.moved += total - w.credited;
		w.credited = total;
	}
}

/** ` of 1234` after a byte count when the answer announced its length. */
const ofAnnounced = (w: Watched) => (w.announced !== undefined ? ` of ${w.announced}` : '');

/** The error of an answer that did not arrive whole. */
function incomplete(w: Watched, headline: string, extra = ''): NodeApiError {
	return storageFailure(w.c.node, headline, `The answer is incomplete and was not used.${extra} Running it again is safe.`, w.c.itemIndex);
}

/** The error the reading of the body ended with, told as what happened: deadline, idle, cancelled, or broken off. */
function explainFailure(w: Watched, error: unknown): NodeApiError {
	const { c, dog } = w;
	finish(w);
	if (error instanceof NodeApiError) return error;
	if (dog.fired?.phase === 'deadline') {
		return incomplete(
			w,
			`${c.what} timed out: the answer was not finished within the request's deadline of ${seconds(dog.fired.ms)} (${w.received}${ofAnnounced(w)} bytes arrived)`,
			` The deadline is the Response Timeout of each try (set in the credential under Advanced Protocol Settings) plus 1 s for every 32 KiB the request moves.`,
		);
	}
	if (dog.fired) {
		return incomplete(
			w,
			`${c.what} timed out: no data for ${seconds(dog.fired.ms)} after ${w.received}${ofAnnounced(w)} bytes of the answer`,
			` The Idle Timeout is set in the credential under Advanced Protocol Settings (${seconds(dog.fired.ms)} now).`,
		);
	}
	if (c.cancelled()) return storageFailure(c.node, `${c.what} was canceled`, 'The execution was stopped while the answer was read.', c.itemIndex);
	const code = networkCode(error) ?? (error as Error)?.message ?? 'connection lost';
	return incomplete(w, `${c.what} broke off after ${w.received}${ofAnnounced(w)} bytes of the answer (${code})`);
}

/** Once the body was read to its end: the error of a body shorter than its Content-Length, if it was. */
function verifyLength(w: Watched): NodeApiError | undefined {
	finish(w);
	if (w.enforce && w.ended && w.received !== w.announced) return incomplete(w, `${w.c.what} broke off: the answer ended after ${w.received}${ofAnnounced(w)} bytes`);
	return undefined;
}

/** Bytes of throwaway young heap allocated per byte of a streamed answer (paceYoungHeap). */
const YOUNG_BYTES_PER_BYTE = 4;
/**
 * Elements of one throwaway array: 8,190 slots of 8 bytes, just under 64 KiB with its header, so
 * it is made in the young generation's own space (an array above V8's regular object size goes
 * to a large-object space, and arrays of that kind brought no young collections in the bench).
 */
const PACER_ELEMENTS = 8190;
const PACER_BYTES = 65536;
/** The first Node.js whose V8 (13.6) starts young collections for external memory only at 128 MB. */
const FIRST_NODE_TO_PACE = 24;

/** What n8n's `navigator` global says (Node.js 21 and later; none on Node 20). */
declare const navigator: { userAgent?: unknown } | undefined;

/**
 * The major version of the Node.js running n8n, from `navigator.userAgent` ("Node.js/24"), or
 * undefined: Node 20 has no `navigator` (and a community node may not read `process`).
 */
export function nodeMajor(): number | undefined {
	const agent = typeof navigator === 'object' && navigator !== null ? navigator.userAgent : undefined;
	const match = typeof agent === 'string' ? /^Node\.js\/(\d+)/.exec(agent) : null;
	return match ? Number(match[1]) : undefined;
}

/**
 * Whether downloads pace the young generation (paceYoungHeap), decided once from the runtime:
 * on for Node 24 and later, off before. V8 starts a young collection once buffers allocated since
 * the last one reach twice its default semi-space size, and a mark-compact once external memory
 * has grown 64 MB: on Node 20, 22 and 23 (V8 11.3-12.9) the first comes at 32 MB, so the pieces
 * of a download are freed by young collections and pacing would only cost CPU (13-25 % more user
 * CPU per GiB, npm run bench -- pacing); on Node 24 (V8 13.6) it comes at 128 MB, after the
 * mark-compact, and without pacing a 1 GiB download made 22-38 mark-compacts in an n8n-sized heap
 * (Node 26, V8 14.6: 44-45). `on` may be set by the pacing benchmark and test (test/bench/pacing.bench.js)
 * to measure both ways on the same runtime.
 */
export const youngHeapPacing = { on: (nodeMajor() ?? 0) >= FIRST_NODE_TO_PACE };

/**
 * The pacing's state, one for the process (all downloads share it): `owed`, the young bytes due
 * for the bytes received so far and not yet allocated, carried from one piece and one download to
 * the next (small answers pace too, none rounds up to a whole array); `last`, the last throwaway
 * array, held so that V8 cannot leave it unallocated.
 */
const pacer: { owed: number; last?: unknown[] } = { owed: 0 };

/**
 * Lets V8 free a download's pieces in young collections instead of collections of n8n's whole
 * heap. Node's HTTP client hands on every piece of the answer in new memory outside V8's heap (64
 * KiB read from the socket, then copied out by the HTTP parser: 2 bytes per byte received), and
 * V8 frees it only when a collection finds it unused. V8 starts a mark-compact of the whole heap
 * every time that memory has grown 64 MB above its lowest point since the last one, and a young
 * collection (which frees it too, and lowers that point) once buffers allocated since the last
 * young collection reach twice its default semi-space size: 32 MB up to Node 23, before the
 * mark-compact; 128 MB from Node 24, after it. There streaming allocates almost nothing in the
 * young generation, so in n8n 2.40.7 (about 175 MB of live heap) a 1 GiB download made 22-29
 * mark-compacts and took 15-18 s of the n8n process's CPU. Throwaway arrays of
 * YOUNG_BYTES_PER_BYTE times the bytes received (young, and unused as soon as the next is made)
 * fill the young generation as the bytes arrive; its collections cost little (they copy only what
 * is still in use) and free the pieces already written, and the mark-compacts stop
 * (docs/developers/performance-pacing.md has the figures per runtime).
 */
function paceYoungHeap(length: number): void {
	pacer.owed += length * YOUNG_BYTES_PER_BYTE;
	while (pacer.owed >= PACER_BYTES) {
		pacer.last = new Array<unknown>(PACER_ELEMENTS);
		pacer.owed -= PACER_BYTES;
	}
}

/** Counts the bytes the HTTP client pushes into the stream (each is progress for the watchdog) and ends the watching with the stream. */
function countArrivals(w: Watched, stream: ResponseBody): void {
	const { dog } = w;
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk === null) w.ended = true;
		else if (chunk !== undefined) {
			const length = (chunk as { length?: number }).length ?? 0;
			w.received += length;
			credit(w, w.received);
			if (w.c.streamed && youngHeapPacing.on) paceYoungHeap(length);
			dog.touch();
		}
		return push(chunk, encoding);
	};
	dog.touch('body');
	dog.paused = () => (stream.readableLength ?? 0) >= (stream.readableHighWaterMark ?? Infinity);
	stream.once('end', () => {
		w.ended = true;
		finish(w);
	});
	stream.once('close', () => finish(w));
	// The reader attaches its own listener; this one only keeps an error that comes before it from
	// being thrown as an uncaught exception.
	stream.on('error', () => finish(w));
}

/** Stops reading an answer past `limit` bytes (the connection is closed): the error that says so. */
function tooLarge(w: Watched, stream: ResponseBody, limit: number): NodeApiError {
	finish(w);
	stream.destroy?.();
	const told = w.announced !== undefined ? `${w.announced} bytes announced` : `more than ${limit} bytes arrived`;
	return storageFailure(
		w.c.node,
		`${w.c.what} answered more than ${size(limit)} (${told}): the node stops reading an answer past that size`,
		'An answer of this request is never that large when it comes from the object storage; nothing of it was used. Check that the Endpoint is the object storage (not a proxy or a web page), or ask for smaller pages (Page Size).',
		w.c.itemIndex,
	);
}

/**
 * The whole body, at most `limit` bytes: past it the reading stops (the connection is closed)
 * and it fails naming the request and the size, or, with `truncate`, resolves the first
 * `limit` bytes (an error answer, of which only the start is read).
 */
async function readWhole(w: Watched, stream: ResponseBody, limit: number, truncate: boolean): Promise<Buffer> {
	if (!truncate && w.announced !== undefined && w.announced > limit) throw tooLarge(w, stream, limit);
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			const buffer = Buffer.from(chunk);
			if (total + buffer.length > limit) {
				if (!truncate) throw tooLarge(w, stream, limit);
				chunks.push(buffer.subarray(0, limit - total));
				finish(w);
				stream.destroy?.();
				return Buffer.concat(chunks);
			}
			total += buffer.length;
			chunks.push(buffer);
		}
	} catch (error) {
		throw explainFailure(w, error);
	}
	w.ended = true;
	const short = verifyLength(w);
	if (short) throw short;
	return Buffer.concat(chunks);
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

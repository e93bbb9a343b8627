/**
 * Deleting many objects: the documentation has no multi-object delete
 * (docs/vendor/object-storage.md#not-in-the-documents), so each object is one Delete object,
 * "Concurrent Requests" of them at a time for the whole node run (Delete Many and Folder Delete
 * of several items share the same slots). Each key gets its outcome; a failure that concerns every
 * key (the bucket does not exist, the credential is refused) stops the deletions instead of being
 * repeated for each of them, and the keys not sent then get an outcome saying so.
 *
 * What an outcome can say. A Delete object answered 204 says the key is not in the bucket now,
 * not that it was there before: S3 answers 204 for a key that never existed, and the documents
 * give no other answer (docs/vendor/readings.md#r74). So `existed` is left out (unknown) after a
 * 204, and is false when the service answers NoSuchKey, which some services do for a missing
 * key: the key is not there either way, which is what was asked for.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { concurrencyOf, Limiter } from '../../shared/run';
import { storageRequest } from '../../shared/storage/transport';
import { codeOf } from './compat/check';

/** Error codes that say the same about every key of the bucket. */
const WHOLE_RUN = new Set(['NoSuchBucket', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'RequestTimeTooSkewed']);

export interface DeleteOutcome {
	bucket: string;
	key: string;
	/** Whether the key is gone: its Delete object succeeded (or the service said there is no such key). Not whether it was there. */
	gone: boolean;
	/** False when the service answered NoSuchKey; absent when it cannot say (a 204). */
	existed?: boolean;
	error?: string;
	code?: string;
	/** The deletions stopped before this key's request was sent. */
	notSent?: boolean;
}

export interface DeleteRun {
	/** One per object asked for, in order. */
	outcomes: DeleteOutcome[];
	/** The failure that stopped the deletions (it concerns every key), when one did. */
	stopped?: unknown;
}

/** The run's slots for deletions, made on first use (kept on the node run's context). */
const slots = new WeakMap<object, Limiter>();

function limiterOf(ctx: IExecuteFunctions): Limiter {
	let limiter = slots.get(ctx);
	if (!limiter) {
		limiter = new Limiter(concurrencyOf(ctx));
		slots.set(ctx, limiter);
	}
	return limiter;
}

/**
 * Deletes each object, at most "Concurrent Requests" at once in the node run; resolves one
 * outcome per entry, in order, also when a failure that concerns every key stopped the
 * deletions (`stopped`): those already under way finish, no new one starts, and the keys not
 * sent are marked `notSent`.
 */
export async function deleteObjects(ctx: IExecuteFunctions, itemIndex: number, objects: Array<{ bucket: string; key: string }>): Promise<DeleteRun> {
	const limiter = limiterOf(ctx);
	const outcomes: Array<DeleteOutcome | undefined> = new Array(objects.length);
	let stop: unknown;
	let next = 0;
	const remove = async (n: number) => {
		const o = objects[n];
		try {
			await storageRequest(ctx, { method: 'DELETE', bucket: o.bucket, key: o.key, itemIndex });
			outcomes[n] = { bucket: o.bucket, key: o.key, gone: true };
		} catch (error) {
			const code = codeOf(error);
			if (code === 'NoSuchKey') {
				outcomes[n] = { bucket: o.bucket, key: o.key, gone: true, existed: false };
				return;
			}
			if (code && WHOLE_RUN.has(code)) stop ??= error;
			outcomes[n] = { bucket: o.bucket, key: o.key, gone: false, error: (error as Error).message, ...(code ? { code } : {}) };
		}
	};
	// as many workers as there are slots, each taking the next key (a list of any length holds no promise per key)
	const worker = async () => {
		while (stop === undefined && next < objects.length) {
			const n = next++;
			await limiter.run(async () => (stop === undefined ? await remove(n) : undefined));
		}
	};
	await Promise.all(Array.from({ length: Math.min(limiter.size, objects.length) }, worker));
	const stopCode = stop === undefined ? undefined : codeOf(stop);
	const why = stop === undefined ? '' : `Not sent: the deletions stopped, as this error applies to every key${stopCode ? ` (${stopCode})` : ''}: ${(stop as Error).message}`;
	const all = objects.map((o, n) => outcomes[n] ?? { bucket: o.bucket, key: o.key, gone: false, notSent: true, error: why });
	return stop === undefined ? { outcomes: all } : { outcomes: all, stopped: stop };
}

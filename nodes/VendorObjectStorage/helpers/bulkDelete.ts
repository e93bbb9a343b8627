/**
 * Deleting many objects: the documentation has no multi-object delete
 * (docs/vendor/object-storage.md#not-in-the-documents), so each object is one Delete object,
 * "Concurrent Requests" of them at a time for the whole node run (Delete Many and Folder Delete
 * of several items share the same slots). Each key gets its outcome; a failure that concerns every
 * key (the bucket does not exist, the credential is refused) stops the run instead of being
 * repeated for each of them.
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
	deleted: boolean;
	error?: string;
	code?: string;
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
 * outcome per entry, in order. Throws the first failure that concerns every key; deletions
 * already under way finish, no new one starts.
 */
export async function deleteObjects(ctx: IExecuteFunctions, itemIndex: number, objects: Array<{ bucket: string; key: string }>): Promise<DeleteOutcome[]> {
	const limiter = limiterOf(ctx);
	const outcomes: DeleteOutcome[] = new Array(objects.length);
	let stop: unknown;
	let next = 0;
	const remove = async (n: number) => {
		const o = objects[n];
		try {
			await storageRequest(ctx, { method: 'DELETE', bucket: o.bucket, key: o.key, itemIndex });
			outcomes[n] = { bucket: o.bucket, key: o.key, deleted: true };
		} catch (error) {
			const code = codeOf(error);
			if (code && WHOLE_RUN.has(code)) stop ??= error;
			outcomes[n] = { bucket: o.bucket, key: o.key, deleted: false, error: (error as Error).message, ...(code ? { code } : {}) };
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
	if (stop !== undefined) throw stop;
	return outcomes;
}

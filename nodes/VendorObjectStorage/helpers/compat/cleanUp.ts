/**
 * The end of every check, also when a step failed: aborts the uploads it started (trying each
 * signing variant), deletes what it wrote and the scratch bucket, then lists the prefix for
 * anything left.
 */
import { storageRequest } from '../../../shared/storage/transport';
import { children, text } from '../../../shared/storage/xml';
import { codeOf, messageOf, VARIANTS, type Check } from './check';

/** Removes everything the check made; the finding says what is left, if anything, and how to remove it. */
export async function cleanUp(c: Check): Promise<void> {
	const problems: string[] = [];
	let aborted = 0;
	for (const [uploadId, u] of c.uploads) {
		const order = u.variant ? [u.variant, ...VARIANTS.filter((v) => v !== u.variant)] : VARIANTS;
		let done = false;
		for (const v of order) {
			try {
				const t = c.target(u.key, v);
				await storageRequest(c.ctx, {
					method: 'DELETE',
					bucket: c.o.bucket,
					key: u.key,
					query: [[t.settings.uploadIdParam, uploadId]],
					accept: [404],
					survivesCancel: true,
					itemIndex: c.o.itemIndex,
					...t.overrides,
				});
				done = true;
				aborted++;
				break;
			} catch (error) {
				if (codeOf(error) !== 'SignatureDoesNotMatch') {
					problems.push(`upload ${uploadId} of ${u.key}: ${messageOf(error)}`);
					done = true;
					break;
				}
			}
		}
		if (!done) problems.push(`upload ${uploadId} of ${u.key}: every signing was refused`);
	}
	let deleted = 0;
	for (const key of c.keys) {
		try {
			await c.request({ method: 'DELETE', bucket: c.o.bucket, key, accept: [404], survivesCancel: true });
			deleted++;
		} catch (error) {
			problems.push(`${key}: ${messageOf(error)}`);
		}
	}
	if (c.scratchBucket) {
		try {
			await c.request({ method: 'DELETE', bucket: c.scratchBucket, accept: [404], survivesCancel: true });
		} catch (error) {
			problems.push(`bucket ${c.scratchBucket}: ${messageOf(error)}`);
		}
	}
	let left: string[] = [];
	try {
		// only what the check wrote: a prefix the user gave may hold objects of their own
		left = children(await c.list([['prefix', c.o.prefix]]), 'Contents')
			.map((e) => text(e, 'Key'))
			.filter((k) => c.keys.has(k));
	} catch (error) {
		problems.push(`listing ${c.o.prefix}: ${messageOf(error)}`);
	}
	const tried = `Delete Object of the ${c.keys.size} keys written, Abort Multipart Upload of ${c.uploads.size} unfinished uploads${c.scratchBucket ? `, Delete Bucket ${c.scratchBucket}` : ''}, then List Objects of "${c.o.prefix}" for any of them`;
	const clean = !problems.length && !left.length;
	(clean ? c.add : c.problem).call(c, {
		check: 'cleanup',
		tried,
		observed: `${deleted} objects deleted, ${aborted} uploads aborted; ${left.length ? `left: ${JSON.stringify(left)}` : 'none of them left under the prefix'}${problems.length ? `; problems: ${problems.join('; ')}` : ''}`,
		reading: clean ? 'Everything the check made is gone' : 'Something is left',
		...(clean
			? {}
			: { setting: 'Remove what is left with Object > Delete (keys) and Multipart Upload > Abort (upload IDs) in this bucket' }),
	});
}

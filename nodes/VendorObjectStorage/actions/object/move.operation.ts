import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { storageFailure } from '../../../shared/storage/errors';
import { storageRequest } from '../../../shared/storage/transport';
import { asNodeError, perItem } from '../../helpers/common';
import type { CopyResult, ObjectRef } from '../../helpers/copy';
import { agreement, describeVersion, listedVersion, readWhole } from '../../helpers/evidence';
import { notice } from '../../helpers/fields';
import { settle } from '../../helpers/objectInfo';
import { TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';
import { COPY_USES, copyOutput, copyProperties, runCopy, TOOL_COPY_NEEDS } from './copy.operation';

export const operation: StorageOperation = {
	endpoint: 'Get object',
	uses: [...COPY_USES, 'Delete object'],
	resource: 'object',
	operation: 'move',
	name: 'Move',
	action: 'Move or rename a file',
	description: 'Move or rename a file: copy it, check the copy, then delete the original; the bytes pass through n8n',
	toolText: `${TOOL_COPY_NEEDS}. Returns the destination's bucket, key, size and ETag with sourceDeleted: true and what was compared (verification). The original is deleted only after the copy is proven identical to it. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice(
				"The vendor's object storage has no copy or rename of its own: the node downloads the object, uploads it to the new place, checks the copy and deletes the original only when the copy is proven identical to the version it read and the original is still that version. An original whose ETag is not the MD5 of its bytes is read a second time for that (the whole object once more).",
			),
			name: 'moveNotice',
		},
		...copyProperties,
	],
	execute,
};

/** Why the source is not deleted: what the copy holds and what to do. */
function kept(ctx: IExecuteFunctions, source: ObjectRef, target: ObjectRef, result: CopyResult, message: string, why: string, i: number) {
	return storageFailure(
		ctx.getNode(),
		message,
		`${why} The copy at ${target.bucket}/${target.key} holds the version that was read (${describeVersion(result.source)}) and was checked: ${result.verification} The source ${source.bucket}/${source.key} was not deleted.`,
		i,
	);
}

/**
 * A fresh look at the source just before its deletion: it must still be the version copied. Its
 * listing entry (when the listing gave one at the start) must show the same size, ETag and
 * LastModified; without one, its answer to a GET of its first byte the same ETag and
 * Last-Modified. When the copy could not check the bytes read against the source (an ETag that is
 * no hash of them), the source is read again whole and must give the MD5 of the copy. Resolves
 * what was looked at, in words.
 */
async function freshLook(ctx: IExecuteFunctions, source: ObjectRef, target: ObjectRef, result: CopyResult, i: number): Promise<string> {
	const v = result.source;
	const changed = (seen: string) =>
		kept(ctx, source, target, result, `${source.bucket}/${source.key} changed while it was moved, so it was not deleted`, `Just before the delete it showed ${seen}. The original now holds other content; decide which to keep, and delete the other.`, i);
	const said: string[] = [];
	if (result.sourceListed) {
		const now = await listedVersion(ctx, i, source.bucket, source.key);
		if (!now.version) {
			throw kept(ctx, source, target, result, `${source.bucket}/${source.key} is no longer listed, so it was not deleted`, `Just before the delete: ${now.unavailable}. It may have been deleted by someone else.`, i);
		}
		const n = now.version;
		const sameEtag = (n.etag ?? '').toLowerCase() === (v.etag ?? '').toLowerCase();
		const sameTime = n.seconds === v.seconds || (Number.isNaN(n.seconds) && Number.isNaN(v.seconds));
		if (n.size !== v.size || !sameEtag || !sameTime) throw changed(describeVersion(n));
		said.push('listed again with the same size, ETag and LastModified');
	} else {
		const res = await storageRequest(ctx, { method: 'GET', bucket: source.bucket, key: source.key, headers: { Range: 'bytes=0-0' }, stream: true, accept: [416], itemIndex: i });
		await settle(res);
		const tie = agreement(v, res.headers);
		if (tie === 'other') throw changed(describeVersion({ etag: res.headers.etag, lastModified: res.headers['last-modified'] }));
		if (tie === 'same') said.push('answered with the same ETag and Last-Modified');
	}
	if (result.sourceVerified === 'sameVersion' || result.sourceVerified === 'none') {
		const again = await readWhole(ctx, i, source.bucket, source.key);
		if (agreement(v, again.headers) === 'other') throw changed(describeVersion({ etag: again.headers.etag, lastModified: again.headers['last-modified'] }));
		if (again.md5 !== result.md5 || again.size !== result.size) {
			throw kept(
				ctx,
				source,
				target,
				result,
				`${source.bucket}/${source.key} differs from its copy, so it was not deleted`,
				`Read again whole just before the delete, it has ${again.size} bytes with the MD5 ${again.md5}; the copy has ${result.size} bytes with ${result.md5}: bytes were changed on the way, or the source was written again with the same ETag.`,
				i,
			);
		}
		said.push('read again whole with the MD5 of the copy');
	}
	if (said.length === 0) {
		throw kept(ctx, source, target, result, `${source.bucket}/${source.key} could not be told to be the version copied, so it was not deleted`, 'The service listed nothing and answered without ETag and Last-Modified.', i);
	}
	return `Just before the delete the source was ${said.join(' and ')}.`;
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const run = await runCopy(this, i, 'The destination is the source itself: moving an object onto itself would delete it');
		const { source, target, result } = run;
		// the documentation has no conditional delete: a fresh look just before it
		const looked = await freshLook(this, source, target, result, i);
		try {
			await storageRequest(this, { method: 'DELETE', bucket: source.bucket, key: source.key, itemIndex: i });
		} catch (error) {
			const e = asNodeError(this, error, i);
			e.message = `The copy is at ${target.bucket}/${target.key}, but ${source.bucket}/${source.key} could not be deleted: ${e.message}`;
			e.description = [
				e.description,
				`The copy at ${target.bucket}/${target.key} is complete and checked (${result.verification}) The source ${source.bucket}/${source.key} stayed as it was: delete it with Object > Delete once the service answers again, or run the Move again.`,
			]
				.filter(Boolean)
				.join(' ');
			throw e;
		}
		const json = copyOutput(run);
		json.verification = `${String(json.verification)} ${looked}`;
		return { ...json, sourceDeleted: true, durationMs: Date.now() - run.started };
	});
}

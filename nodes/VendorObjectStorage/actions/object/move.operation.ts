import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { storageFailure } from '../../../shared/storage/errors';
import { storageRequest } from '../../../shared/storage/transport';
import { asNodeError, perItem } from '../../helpers/common';
import { codeOf } from '../../helpers/compat/check';
import { notice } from '../../helpers/fields';
import { objectInfo } from '../../helpers/objectInfo';
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
	toolText: `${TOOL_COPY_NEEDS}. Returns the destination's bucket, key, size and ETag with sourceDeleted: true. The original is deleted only after the copy is checked. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice(
				"The vendor's object storage has no copy or rename of its own: the node downloads the object, uploads it to the new place, checks the copy against the source's MD5/ETag and only then deletes the original. The bytes pass through n8n.",
			),
			name: 'moveNotice',
		},
		...copyProperties,
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const run = await runCopy(this, i, 'The destination is the source itself: moving an object onto itself would delete it');
		const { source, target, result } = run;
		// Delete the original only if it is still the version that was copied (the documentation has
		// no conditional delete: a one-byte GET with If-Match looks just before).
		if (result.sourceEtag !== undefined) {
			try {
				await objectInfo(this, i, source.bucket, source.key, { 'If-Match': `"${result.sourceEtag}"` });
			} catch (error) {
				if (codeOf(error) !== 'PreconditionFailed' && codeOf(error) !== 'NoSuchKey') throw asNodeError(this, error, i);
				const gone = codeOf(error) === 'NoSuchKey';
				throw storageFailure(
					this.getNode(),
					gone
						? `${source.bucket}/${source.key} was deleted by someone else while it was moved`
						: `${source.bucket}/${source.key} changed while it was moved, so it was not deleted`,
					`The copy at ${target.bucket}/${target.key} holds the version that was read (ETag ${result.sourceEtag}) and was checked.${gone ? '' : ' The original now holds newer content; decide which to keep, and delete the other.'}`,
					i,
				);
			}
		}
		await storageRequest(this, { method: 'DELETE', bucket: source.bucket, key: source.key, itemIndex: i });
		return { ...copyOutput(run), sourceDeleted: true, durationMs: Date.now() - run.started };
	});
}

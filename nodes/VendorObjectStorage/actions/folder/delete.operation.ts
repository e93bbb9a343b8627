import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { deleteObjects } from '../../helpers/bulkDelete';
import { asNodeError, getBucket, perItem } from '../../helpers/common';
import { bucketField, notice } from '../../helpers/fields';
import { folderPrefix, keysUnder } from '../../helpers/folders';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';
import { folderField } from './create.operation';

export const operation: StorageOperation = {
	endpoint: 'Delete object',
	uses: ['List objects', 'Delete object'],
	resource: 'folder',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete a folder',
	description: 'Delete a folder and everything in it: the files are counted first, then deleted Concurrent Requests at a time',
	toolText: `Needs: ${TOOL_BUCKET}; Folder: its path, e.g. inbox/2026/; Safety Limit: the most objects it may delete (it refuses a larger folder and deletes nothing). Returns {count, deleted, failed, notSent, deletedKeys, notDeleted: [{key, error}], stopped?}. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice(
				'Everything under the folder is deleted for good (the vendor\'s documentation describes no versions to restore it from). Keys that only share the text ("photos-old/" for "photos") are not in the folder and are kept.',
			),
			name: 'folderDeleteNotice',
		},
		bucketField,
		{ ...folderField, description: 'Path of the folder to delete with everything in it' },
		{
			displayName: 'Safety Limit',
			name: 'safetyLimit',
			type: 'number',
			default: 1000,
			typeOptions: { minValue: 1 },
			description: 'The most objects this may delete: a folder holding more is refused before anything is deleted. Raise it to delete a larger folder.',
		},
	],
	execute,
};

/**
 * Lists every key under the folder's prefix (refusing a listing that strays outside it,
 * helpers/folders.ts), refuses above the Safety Limit, then deletes each key with the node run's
 * Concurrent Requests (helpers/bulkDelete.ts). One output item per folder: the count of distinct
 * keys, every key deleted (`deletedKeys`) and every one not (`notDeleted`, with why). A failure
 * that concerns every key (the bucket is gone, the credential refused) stops the deletions: when
 * nothing was deleted it fails the item; otherwise the item says `stopped` and lists the keys
 * not sent among those not deleted.
 */
async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const folder = folderPrefix(node, i, this.getNodeParameter('folder', i, ''));
		const limit = check.positiveInt(node, i, 'Safety Limit', this.getNodeParameter('safetyLimit', i, 1000), 1, Number.MAX_SAFE_INTEGER);
		const started = Date.now();
		const { keys, count } = await keysUnder(this, i, bucket, folder, limit);
		if (count > limit) {
			throw check.inputError(
				node,
				i,
				`The folder "${folder}" holds ${count} objects, more than the Safety Limit of ${limit}`,
				`Nothing was deleted. Raise "Safety Limit" to at least ${count} to delete them all.`,
			);
		}
		const { outcomes, stopped } = await deleteObjects(
			this,
			i,
			keys.map((key) => ({ bucket, key })),
		);
		// the keys were listed: those gone now were deleted
		const deletedKeys = outcomes.filter((o) => o.gone).map((o) => o.key);
		if (stopped !== undefined && deletedKeys.length === 0) {
			const error = asNodeError(this, stopped, i);
			error.description = [error.description, `Nothing in "${folder}" was deleted.`].filter(Boolean).join(' ');
			throw error;
		}
		const notDeleted = outcomes.filter((o) => !o.gone);
		const json: IDataObject = {
			bucket,
			folder,
			count,
			deleted: deletedKeys.length,
			failed: notDeleted.filter((o) => !o.notSent).length,
			notSent: notDeleted.filter((o) => o.notSent).length,
			deletedKeys,
			notDeleted: notDeleted.map((f) => ({ key: f.key, error: f.error ?? '', ...(f.code ? { code: f.code } : {}), ...(f.notSent ? { notSent: true } : {}) })),
		};
		if (stopped !== undefined) json.stopped = (stopped as Error).message;
		json.durationMs = Date.now() - started;
		return json;
	});
}

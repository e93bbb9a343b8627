import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../../../shared/run';
import { deleteObjects, type DeleteOutcome } from '../../helpers/bulkDelete';
import { getBucket } from '../../helpers/common';
import { bucketField, notice } from '../../helpers/fields';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Delete object',
	resource: 'object',
	operation: 'deleteMany',
	name: 'Delete Many',
	action: 'Delete many files',
	description: 'Delete many files at once, keys from the input items or a list; one output item per key with its outcome',
	toolText: `Needs: ${TOOL_BUCKET}; Keys: the object keys, one per line. Returns one object per key: {key, deleted: true} or {key, deleted: false, error}. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice("The objects are deleted for good (the vendor's documentation describes no versions to restore them from). Each key is one request, Concurrent Requests at a time."),
			name: 'deleteManyNotice',
		},
		bucketField,
		{
			displayName: 'Keys From',
			name: 'keysFrom',
			type: 'options',
			default: 'list',
			options: [
				{ name: 'A List', value: 'list', description: 'Keys typed or mapped into one field, one per line (or an expression giving an array)' },
				{ name: 'Input Items', value: 'items', description: 'One key per input item, e.g. the key of each item List Objects gave' },
			],
		},
		{
			displayName: 'Keys',
			name: 'keys',
			type: 'string',
			default: '',
			required: true,
			typeOptions: { rows: 4 },
			placeholder: 'e.g. inbox/a.pdf\ninbox/b.pdf',
			description: 'The keys to delete, one per line; an expression may give an array of keys',
			displayOptions: { show: { keysFrom: ['list'] } },
		},
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '={{ $json.key }}',
			required: true,
			placeholder: 'e.g. {{ $json.key }}',
			description: 'The key of each input item',
			displayOptions: { show: { keysFrom: ['items'] } },
		},
	],
	execute,
};

/** The keys an item gives: an array, or text with one key per line (empty lines skipped). */
function keysOf(raw: unknown): unknown[] {
	if (Array.isArray(raw)) return raw;
	return String(raw ?? '')
		.split(/\r?\n/)
		.filter((k) => k.trim() !== '');
}

interface Entry {
	item: number;
	bucket: string;
	key?: string;
	/** Refused before any request: why. */
	refused?: string;
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const entries: Entry[] = [];
	// Every key is read and checked first; a key refused by the checks gets its own failed item.
	for (let i = 0; i < items.length; i++) {
		const bucket = getBucket(this, i);
		const fromItems = this.getNodeParameter('keysFrom', i, 'list') === 'items';
		const raw = fromItems ? [this.getNodeParameter('key', i, '')] : keysOf(this.getNodeParameter('keys', i, ''));
		if (!fromItems && raw.length === 0) throw check.inputError(node, i, 'The "Keys" field is empty', 'Enter the keys to delete, one per line, e.g. inbox/a.pdf.');
		for (const k of raw) {
			try {
				entries.push({ item: i, bucket, key: check.objectKey(node, i, k, fromItems ? 'Key' : 'Keys') });
			} catch (error) {
				entries.push({ item: i, bucket, key: typeof k === 'string' ? k : undefined, refused: (error as Error).message });
			}
		}
	}
	const toDelete = entries.filter((e) => !e.refused) as Array<Required<Pick<Entry, 'bucket' | 'key'>> & Entry>;
	let outcomes: DeleteOutcome[];
	try {
		outcomes = await deleteObjects(this, 0, toDelete);
	} catch (error) {
		throw asNodeError(this, error, 0);
	}
	const byEntry = new Map<Entry, DeleteOutcome>(toDelete.map((e, n) => [e, outcomes[n]]));
	return entries.map((e) => {
		const outcome = byEntry.get(e);
		const json: IDataObject = outcome ? { ...outcome } : { bucket: e.bucket, key: e.key ?? '', deleted: false, error: e.refused };
		return { json, pairedItem: { item: e.item } };
	});
}

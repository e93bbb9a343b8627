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
	toolText: `Needs: ${TOOL_BUCKET}; Keys: the object keys, one per line. Returns one object per key: {key, gone: true} (the key is not in the bucket now; the service does not say whether it was there before) or {key, gone: false, error}. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice(
				"The objects are deleted for good (the vendor's documentation describes no versions to restore them from). Each key is one request, Concurrent Requests at a time. Each key's item says gone: true when the key is not in the bucket now: the service answers the same whether it was there or not.",
			),
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
			description: 'The keys to delete, one per line; an expression may give an array of keys (text)',
			displayOptions: { show: { keysFrom: ['list'] } },
		},
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '={{ $json.key }}',
			required: true,
			placeholder: 'e.g. {{ $json.key }}',
			description: 'The key of each input item (text); an array gives several keys',
			displayOptions: { show: { keysFrom: ['items'] } },
		},
	],
	execute,
};

/** What a value is, in words, for a message that refuses it. */
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value} (${String(value)})`;
}

/**
 * The keys an item gives: text with one key per line (empty lines skipped) in the List mode,
 * one key in the Input Items mode, or an array of keys in either. Anything else (an object, a
 * number, true/false, null: an expression that picked the wrong field) is a key refused for that
 * item, never turned into text such as "[object Object]".
 */
function keysOf(raw: unknown, fromItems: boolean): Array<{ key: unknown; refused?: string }> {
	const field = fromItems ? 'Key' : 'Keys';
	const how = fromItems ? 'map the text of the key, e.g. {{ $json.key }}' : 'give the keys as text, one per line, or an expression giving a list of texts';
	const refuse = (value: unknown, where: string) => ({ key: value, refused: `The "${field}" ${where}is ${kindOf(value)}, not text: ${how}` });
	if (Array.isArray(raw)) return raw.map((k, n) => (typeof k === 'string' ? { key: k } : refuse(k, `list's entry ${n + 1} `)));
	if (raw === undefined) return fromItems ? [{ key: '' }] : [];
	if (typeof raw !== 'string') return [refuse(raw, '')];
	if (fromItems) return [{ key: raw }];
	return raw
		.split(/\r?\n/)
		.filter((k) => k.trim() !== '')
		.map((key) => ({ key }));
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
		const raw = keysOf(fromItems ? this.getNodeParameter('key', i, '') : this.getNodeParameter('keys', i, ''), fromItems);
		if (!fromItems && raw.length === 0) throw check.inputError(node, i, 'The "Keys" field is empty', 'Enter the keys to delete, one per line, e.g. inbox/a.pdf.');
		for (const { key: k, refused } of raw) {
			const where = `Item ${i}: `;
			if (refused) {
				entries.push({ item: i, bucket, refused: where + refused });
				continue;
			}
			try {
				entries.push({ item: i, bucket, key: check.objectKey(node, i, k, fromItems ? 'Key' : 'Keys') });
			} catch (error) {
				entries.push({ item: i, bucket, key: typeof k === 'string' ? k : undefined, refused: where + (error as Error).message });
			}
		}
	}
	const toDelete = entries.filter((e) => !e.refused) as Array<Required<Pick<Entry, 'bucket' | 'key'>> & Entry>;
	const { outcomes, stopped } = await deleteObjects(this, 0, toDelete);
	if (stopped !== undefined && !outcomes.some((o) => o.gone)) {
		const error = asNodeError(this, stopped, 0);
		error.description = [error.description, 'Nothing was deleted.'].filter(Boolean).join(' ');
		throw error;
	}
	// stopped after some deletions: every key's item says what happened to it (the keys not sent included)
	const byEntry = new Map<Entry, DeleteOutcome>(toDelete.map((e, n) => [e, outcomes[n]]));
	return entries.map((e) => {
		const outcome = byEntry.get(e);
		const json: IDataObject = outcome ? { ...outcome } : { bucket: e.bucket, key: e.key ?? '', gone: false, error: e.refused };
		return { json, pairedItem: { item: e.item } };
	});
}

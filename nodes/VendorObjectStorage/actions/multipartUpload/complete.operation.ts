import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { StorageSettings } from '../../../shared/storage/auth';
import { getSettings } from '../../../shared/storage/settings';
import { asNodeError, errorItem, getBucket, getKey, perItem, unquote } from '../../helpers/common';
import { bucketField, keyField, uploadIdField } from '../../helpers/fields';
import { completeUpload, listNumbers, listParts, partsMissingError, type PartRef } from '../../helpers/multipart';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY, TOOL_UPLOAD_ID } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Complete multipart upload',
	resource: 'multipartUpload',
	operation: 'complete',
	name: 'Complete',
	action: 'Complete a multipart upload',
	description: 'Join the parts into the file, with parts from the input items or from the service',
	serial: 'each completion must follow the parts uploaded before it',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; ${TOOL_UPLOAD_ID}. Returns the key and ETag of the joined object.`,
	properties: [
		bucketField,
		keyField,
		uploadIdField,
		{
			displayName: 'Parts',
			name: 'partsSource',
			type: 'options',
			options: [
				{
					name: 'From Input Items',
					value: 'input',
					description: 'Each input item is one part with its part number and ETag, as Upload Part outputs them',
				},
				{
					name: 'Every Uploaded Part',
					value: 'list',
					description: 'List the parts the service holds for the upload and complete with all of them',
				},
			],
			default: 'input',
			description: 'Which parts make up the object',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: { partsSource: ['input'] } },
			options: [
				{
					displayName: 'ETag Field',
					name: 'etagField',
					type: 'string',
					default: 'etag',
					description: "Field of each input item that holds the ETag of its part; an item without one takes the part's ETag from List Parts",
				},
				{
					displayName: 'Part Number Field',
					name: 'partNumberField',
					type: 'string',
					default: 'partNumber',
					description: 'Field of each input item that holds its part number',
				},
			],
		},
	],
	execute,
};

interface Group {
	bucket: string;
	key: string;
	uploadId: string;
	settings: StorageSettings;
	items: number[];
	parts: Map<number, string>;
	/** Input items of this upload that carry no usable part: "item 3 (its error)". */
	unreadable: string[];
}

function field(json: IDataObject, name: string): unknown {
	if (json[name] !== undefined) return json[name];
	const lower = name.toLowerCase();
	const hit = Object.keys(json).find((k) => k.toLowerCase() === lower);
	return hit === undefined ? undefined : json[hit];
}

const sameEtag = (a: string, b: string) => unquote(a.trim()).toLowerCase() === unquote(b.trim()).toLowerCase();

async function complete(ctx: IExecuteFunctions, g: Group, itemIndex: number, parts: PartRef[]): Promise<IDataObject> {
	const started = Date.now();
	const result = await completeUpload(ctx, { bucket: g.bucket, key: g.key, itemIndex, settings: g.settings }, g.uploadId, parts);
	// CompleteMultipartUploadResult's own fields (those it held), then the request's.
	return {
		bucket: result.bucket ?? g.bucket,
		key: result.key ?? g.key,
		uploadId: g.uploadId,
		...(result.etag !== undefined ? { etag: result.etag } : {}),
		...(result.location !== undefined ? { location: result.location } : {}),
		partCount: parts.length,
		durationMs: Date.now() - started,
	};
}

/**
 * The parts of an upload given by the input items, checked against what the service holds
 * (List Parts) before anything is completed: a part the service holds that no item gives, or
 * an item's ETag that differs from the service's, stops the Complete; an item without an ETag
 * (Upload Part outputs none when the service sent none) takes the service's.
 */
async function checkedParts(ctx: IExecuteFunctions, g: Group, itemIndex: number): Promise<PartRef[]> {
	const target = { bucket: g.bucket, key: g.key, itemIndex, settings: g.settings };
	const listed = new Map((await listParts(ctx, target, g.uploadId)).map((p) => [p.partNumber, p.etag]));
	const given = [...g.parts.keys()];
	const notGiven = [...listed.keys()].filter((n) => !g.parts.has(n)).sort((a, b) => a - b);
	const notHeld = given.filter((n) => !listed.has(n)).sort((a, b) => a - b);
	const fix = 'Give every part of the upload as an input item (as Upload Part outputs it), or choose Every Uploaded Part.';
	if (notGiven.length) {
		throw partsMissingError(
			ctx,
			target,
			g.uploadId,
			`Part${notGiven.length > 1 ? 's' : ''} ${listNumbers(notGiven)} of "${g.key}" ${notGiven.length > 1 ? 'are' : 'is'} missing from the input`,
			`The service holds ${notGiven.length > 1 ? 'them' : 'it'} (List Parts shows ${notGiven.length > 1 ? 'them' : 'it'}), but no input item gives ${notGiven.length > 1 ? 'them' : 'it'}. ${fix}`,
		);
	}
	if (notHeld.length) {
		throw partsMissingError(
			ctx,
			target,
			g.uploadId,
			`Part${notHeld.length > 1 ? 's' : ''} ${listNumbers(notHeld)} of "${g.key}" ${notHeld.length > 1 ? 'are' : 'is'} not held by the service`,
			`The input gives ${notHeld.length > 1 ? 'them' : 'it'}, but List Parts does not show ${notHeld.length > 1 ? 'them' : 'it'}: ${notHeld.length > 1 ? 'their' : 'its'} upload failed or went to another upload.`,
		);
	}
	const changed = given.filter((n) => g.parts.get(n) && !sameEtag(g.parts.get(n)!, listed.get(n)!)).sort((a, b) => a - b);
	if (changed.length) {
		const n = changed[0];
		throw partsMissingError(
			ctx,
			target,
			g.uploadId,
			`Part ${n} of "${g.key}" in the input is not the part the service holds`,
			`Its ETag in the input is ${unquote(g.parts.get(n)!)}, the service's is ${unquote(listed.get(n)!)}: the part was uploaded again since.${changed.length > 1 ? ` So were parts ${listNumbers(changed.slice(1))}.` : ''} Use the output of the latest Upload Part.`,
		);
	}
	return given.map((partNumber) => ({ partNumber, etag: g.parts.get(partNumber) || listed.get(partNumber)! }));
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const source = String(this.getNodeParameter('partsSource', 0, 'input'));
	const node = this.getNode();
	const target = async (i: number) => ({
		bucket: getBucket(this, i),
		key: getKey(this, i),
		uploadId: check.uploadId(node, i, this.getNodeParameter('uploadId', i, '')),
		settings: await getSettings(this, i),
	});

	if (source === 'list') {
		return await perItem(this, items, async (i) => {
			const t = await target(i);
			const listed = await listParts(this, { ...t, itemIndex: i }, t.uploadId);
			if (!listed.length) {
				throw check.inputError(node, i, `The upload ${t.uploadId} has no parts`, 'Upload at least one part before completing.');
			}
			return await complete(this, { ...t, items: [i], parts: new Map(), unreadable: [] }, i, listed);
		});
	}

	// Parts from the input: the items of one upload (same bucket, key and upload ID) make one
	// object. An item that gives no part (an error item of an earlier node, a missing number)
	// stops the Complete of its upload, and of every upload when it cannot tell which upload it
	// belongs to: completing without it could make an object with a part missing.
	const out: INodeExecutionData[] = [];
	const groups = new Map<string, Group>();
	const unattributed: string[] = [];
	for (let i = 0; i < items.length; i++) {
		let group: Group | undefined;
		try {
			const json = items[i].json ?? {};
			const t = await target(i);
			const id = JSON.stringify([t.bucket, t.key, t.uploadId]);
			group = groups.get(id) ?? { ...t, items: [], parts: new Map<number, string>(), unreadable: [] };
			groups.set(id, group);
			group.items.push(i);
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			const numberField = String(options.partNumberField || 'partNumber');
			const etagField = String(options.etagField || 'etag');
			if (json.error !== undefined && field(json, numberField) === undefined) {
				throw check.inputError(
					node,
					i,
					`Input item ${i + 1} is the error of an earlier node, not a part: ${String(json.error).slice(0, 200)}`,
					'Its part was not uploaded. Upload it again, then complete with every part.',
				);
			}
			const rawNumber = field(json, numberField);
			const partNumber = Number(rawNumber);
			if (rawNumber === undefined || rawNumber === '' || !Number.isSafeInteger(partNumber) || partNumber < 1) {
				throw check.inputError(
					node,
					i,
					`The input item's "${numberField}" must be a whole part number from 1, not "${String(rawNumber)}"`,
					'Each input item must carry the number of its part, as Upload Part outputs it, or choose Every Uploaded Part.',
				);
			}
			// Upload Part outputs the service's ETag as etag only when the service sent one; without
			// it the part's ETag is taken from List Parts (readings R25), never guessed.
			const etag = unquote(String(field(json, etagField) ?? '').trim());
			const seen = group.parts.get(partNumber);
			if (seen !== undefined && seen !== etag) {
				throw check.inputError(node, i, `Part ${partNumber} appears twice with different ETags`, 'Give each part number once, with the ETag of its latest upload.');
			}
			group.parts.set(partNumber, etag);
		} catch (error) {
			const message = (error as Error).message ?? String(error);
			if (group) group.unreadable.push(`item ${i + 1} (${message})`);
			else unattributed.push(`item ${i + 1} (${message})`);
			if (!this.continueOnFail()) throw asNodeError(this, error, i);
			out.push(errorItem(this, error, i));
		}
	}
	for (const g of groups.values()) {
		const pairedItem = g.items.map((item) => ({ item }));
		try {
			const unreadable = [...g.unreadable, ...unattributed];
			if (unreadable.length) {
				throw partsMissingError(
					this,
					{ bucket: g.bucket, key: g.key, itemIndex: g.items[0], settings: g.settings },
					g.uploadId,
					`The upload of "${g.key}" was not completed: ${unreadable.length} input item${unreadable.length > 1 ? 's give' : ' gives'} no part`,
					`${unreadable.slice(0, 5).join('; ')}${unreadable.length > 5 ? '; …' : ''}. Completing without ${unreadable.length > 1 ? 'them' : 'it'} could make an object with a part missing.`,
				);
			}
			const parts = await checkedParts(this, g, g.items[0]);
			out.push({ json: await complete(this, g, g.items[0], parts), pairedItem });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, g.items[0]);
			out.push(errorItem(this, error, g.items[0], pairedItem));
		}
	}
	return out;
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { StorageSettings } from '../../../shared/storage/auth';
import { getSettings } from '../../../shared/storage/settings';
import { asNodeError, getBucket, getKey, perItem, unquote } from '../../helpers/common';
import { bucketField, keyField, uploadIdField } from '../../helpers/fields';
import { completeUpload, listParts, type PartRef } from '../../helpers/multipart';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY, TOOL_UPLOAD_ID } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Complete multipart upload',
	resource: 'multipartUpload',
	operation: 'complete',
	name: 'Complete',
	action: 'Complete multipart upload',
	description: 'Join the parts into the object, with parts from the input items or from the service',
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
					description: 'Field of each input item that holds the ETag of its part; with etag, an item without it may give md5 instead',
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
}

/** A Continue On Fail item: the error's message and description. */
function errorJson(error: unknown): IDataObject {
	const e = error as { message?: string; description?: string | null };
	const json: IDataObject = { error: e.message ?? String(error) };
	if (e.description) json.description = e.description;
	return json;
}

function field(json: IDataObject, name: string): unknown {
	if (json[name] !== undefined) return json[name];
	const lower = name.toLowerCase();
	const hit = Object.keys(json).find((k) => k.toLowerCase() === lower);
	return hit === undefined ? undefined : json[hit];
}

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
			return await complete(this, { ...t, items: [i], parts: new Map() }, i, listed);
		});
	}

	// Parts from the input: the items of one upload (same bucket, key and upload ID) make one object.
	const out: INodeExecutionData[] = [];
	const groups = new Map<string, Group>();
	for (let i = 0; i < items.length; i++) {
		try {
			const t = await target(i);
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			const numberField = String(options.partNumberField || 'partNumber');
			const etagField = String(options.etagField || 'etag');
			const json = items[i].json ?? {};
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
			// Upload Part outputs the service's ETag as etag and, when the service sent none, only md5
			// (S3's part ETag is the part's MD5).
			const given = field(json, etagField) ?? (etagField === 'etag' ? field(json, 'md5') : undefined);
			const etag = unquote(String(given ?? '').trim());
			if (!etag) {
				throw check.inputError(node, i, `The input item has no "${etagField}"`, 'Each input item must carry the ETag of its part, as Upload Part outputs it, or choose Every Uploaded Part.');
			}
			const id = JSON.stringify([t.bucket, t.key, t.uploadId]);
			const group = groups.get(id) ?? { ...t, items: [], parts: new Map<number, string>() };
			groups.set(id, group);
			const seen = group.parts.get(partNumber);
			if (seen !== undefined && seen !== etag) {
				throw check.inputError(node, i, `Part ${partNumber} appears twice with different ETags`, 'Give each part number once, with the ETag of its latest upload.');
			}
			group.parts.set(partNumber, etag);
			group.items.push(i);
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, i);
			out.push({ json: errorJson(error), pairedItem: { item: i } });
		}
	}
	for (const g of groups.values()) {
		const pairedItem = g.items.map((item) => ({ item }));
		try {
			const parts = [...g.parts].map(([partNumber, etag]) => ({ partNumber, etag }));
			out.push({ json: await complete(this, g, g.items[0], parts), pairedItem });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, g.items[0]);
			out.push({ json: errorJson(error), pairedItem });
		}
	}
	return out;
}

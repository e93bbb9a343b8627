import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readAll } from '../../../shared/storage/body';
import { storageFailure } from '../../../shared/storage/errors';
import { getSettings } from '../../../shared/storage/settings';
import { storageRequest } from '../../../shared/storage/transport';
import { getBucket, getExistingKey, perItem, unquote } from '../../helpers/common';
import { bucketField, existingKeyField } from '../../helpers/fields';
import { metadataOf, storedHeaderFields } from '../../helpers/objectInfo';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Get object',
	resource: 'object',
	operation: 'download',
	name: 'Download',
	action: 'Download object',
	description: 'Download an object into a binary field, whole or a byte range, optionally on a condition',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}. Returns the bucket, key and size; the content goes to a binary field, which an AI model cannot read: use Get Presigned URL to hand out a link instead.`,
	properties: [
		bucketField,
		existingKeyField,
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			placeholder: 'e.g. data',
			hint: 'The name of the output binary field to put the file in',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. report.csv',
					description: 'Name of the output file, one line; defaults to the last segment of the key',
				},
				{
					displayName: 'If Match',
					name: 'ifMatch',
					type: 'string',
					default: '',
					placeholder: 'e.g. 9b2cf535f27731c974343645a3985328',
					description: 'Download only when the object still has this ETag; otherwise the node fails (412)',
				},
				{
					displayName: 'If Modified Since',
					name: 'ifModifiedSince',
					type: 'dateTime',
					default: '',
					description: 'Download only when the object changed after this time; otherwise the item says notModified (304)',
				},
				{
					displayName: 'If None Match',
					name: 'ifNoneMatch',
					type: 'string',
					default: '',
					placeholder: 'e.g. 9b2cf535f27731c974343645a3985328',
					description: 'Download only when the ETag differs from this one; otherwise the item says notModified (304)',
				},
				{
					displayName: 'If Unmodified Since',
					name: 'ifUnmodifiedSince',
					type: 'dateTime',
					default: '',
					description: 'Download only when the object has not changed since this time; otherwise the node fails (412)',
				},
				{
					displayName: 'Range',
					name: 'range',
					type: 'string',
					default: '',
					placeholder: 'e.g. bytes=0-99',
					description: 'Only these bytes: first-last position, both included; bytes=-100 gives the last 100',
				},
			],
		},
	],
	execute,
};

type BinaryInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

function etagCondition(raw: unknown): string {
	return String(raw)
		.split(',')
		.map((t) => t.trim())
		.filter(Boolean)
		.map((t) => (t === '*' || t.startsWith('"') || t.startsWith('W/') ? t : `"${t}"`))
		.join(', ');
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getExistingKey(this, i);
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data')).trim();
		if (!property) throw check.inputError(node, i, 'The "Put Output File in Field" field is empty', 'Name the binary field, e.g. data.');
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const headers: Record<string, string> = {};
		if (options.range) headers.Range = check.range(node, i, options.range);
		if (options.ifModifiedSince) headers['If-Modified-Since'] = check.httpDate(node, i, 'If Modified Since', options.ifModifiedSince);
		if (options.ifUnmodifiedSince) headers['If-Unmodified-Since'] = check.httpDate(node, i, 'If Unmodified Since', options.ifUnmodifiedSince);
		if (options.ifMatch) headers['If-Match'] = etagCondition(check.headerValue(node, i, 'If Match', options.ifMatch));
		if (options.ifNoneMatch) headers['If-None-Match'] = etagCondition(check.headerValue(node, i, 'If None Match', options.ifNoneMatch));
		const fileName = options.fileName
			? check.fileName(node, i, 'File Name', options.fileName)
			: // derived from the key: control characters would break whatever later uses the name
				[...(key.split('/').filter(Boolean).pop() || key)].map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' ? '_' : ch)).join('');
		const settings = await getSettings(this, i);

		const started = Date.now();
		const res = await storageRequest(this, { method: 'GET', bucket, key, headers, stream: true, accept: [304], itemIndex: i });
		const h = res.headers;
		if (res.statusCode === 304) {
			await readAll(res.body);
			const json: IDataObject = { bucket, key, notModified: true };
			if (h.etag !== undefined) json.etag = unquote(h.etag);
			if (h['last-modified'] !== undefined) json.lastModified = h['last-modified'];
			return json;
		}

		let binary;
		try {
			binary = await this.helpers.prepareBinaryData(res.body as unknown as BinaryInput, fileName, h['content-type'] || undefined);
		} catch (error) {
			// The transport says what happened (stalled, connection lost, cancelled), naming the
			// request and how much arrived.
			throw res.explain ? res.explain(error) : storageFailure(node, `The download of Get Object ${bucket}/${key} broke off: ${(error as Error).message}`, 'Running it again is safe.', i);
		}
		const short = res.verify?.();
		if (short) throw short;
		// n8n's HTTP client inflates a body stored with Content-Encoding gzip or deflate (and drops that
		// header), so the stored size is what n8n holds, which may differ from Content-Length.
		const stored = (binary as { bytes?: number }).bytes;
		const expected = h['content-length'] === undefined ? undefined : Number(h['content-length']);

		const json: IDataObject = { bucket, key, size: stored ?? expected };
		if (h.etag !== undefined) json.etag = unquote(h.etag);
		if (h['content-type'] !== undefined) json.contentType = h['content-type'];
		if (h['last-modified'] !== undefined) json.lastModified = h['last-modified'];
		json.metadata = metadataOf(h, settings);
		json.durationMs = Date.now() - started;
		if (res.statusCode === 206) {
			if (h['content-range'] !== undefined) json.contentRange = h['content-range'];
			const total = /\/(\d+)$/.exec(String(h['content-range'] ?? ''));
			if (total) json.objectSize = Number(total[1]);
		}
		return { json: { ...json, ...storedHeaderFields(h) }, binary: { [property]: binary } };
	});
}

import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { concurrencyOf } from '../../../shared/run';
import { getBucket, getKey, objectHeaders, perItem } from '../../helpers/common';
import { bucketField, keyField, objectHeaderFields } from '../../helpers/fields';
import { putObject, putStored, type UploadResult } from '../../helpers/put';
import { RequestSlots } from '../../helpers/slots';
import { BufferParts, MiB, partSizeFor, STREAM_CHUNK, StreamParts, uploadFromSource } from '../../helpers/transfer';
import * as check from '../../helpers/validate';
import { TOOL_BUCKET, TOOL_CONFIRM, TOOL_KEY } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Put object',
	resource: 'object',
	operation: 'upload',
	name: 'Upload',
	action: 'Upload a file',
	description: 'Upload a file or text; files above the Multipart Threshold stream in parallel parts',
	concurrency:
		'How many requests are in flight at once, whole files and the parts of large files together: up to this many files upload at the same time, and a file above the Multipart Threshold sends up to this many parts at once. Memory for the bodies is at most this many buffers, whatever the mix: one part (Part Size) each for files sent in parts, at most 4 MiB each for files streamed in one request. Output keeps the input order.',
	toolText: `Needs: ${TOOL_BUCKET}; ${TOOL_KEY}; the content (text, or a binary field of the input). Returns the key, size and ETag of the stored object. Replaces an object with the same key. ${TOOL_CONFIRM}`,
	properties: [
		bucketField,
		keyField,
		{
			displayName: 'Binary File',
			name: 'binaryData',
			type: 'boolean',
			default: true,
			description: 'Whether the data to upload comes from a binary field of the input item; otherwise it is the text below',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			placeholder: 'e.g. data',
			hint: 'The name of the input binary field holding the file to upload',
			displayOptions: { show: { binaryData: [true] } },
		},
		{
			displayName: 'File Content',
			name: 'fileContent',
			type: 'string',
			default: '',
			typeOptions: { rows: 4 },
			placeholder: 'e.g. Hello world',
			description: 'The text to store, sent as UTF-8',
			displayOptions: { show: { binaryData: [false] } },
		},
		objectHeaderFields,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Multipart Threshold (MiB)',
					name: 'multipartThreshold',
					type: 'number',
					default: 1024,
					typeOptions: { minValue: 0 },
					description:
						"Files up to this size are sent in one request; larger ones in parallel parts (Part Size; as many at once as Concurrent Requests allows). A file in n8n's binary store is streamed either way, never held in memory; for one request it is read twice, first for its MD5.",
					hint: 'One request: the ETag is the MD5 of the file, a failed try resends the whole file. Parts: a failed try resends only its part',
				},
				{
					displayName: 'Part Size (MiB)',
					name: 'partSize',
					type: 'number',
					default: 8,
					typeOptions: { minValue: 0.001, numberPrecision: 3 },
					description: 'Size of each part of a multipart upload; raised on its own when a file would need more than 10000 parts',
					hint: 'S3 services refuse parts under 5 MiB (except the last) and over 5120 MiB; the vendor documents no limit',
				},
			],
		},
	],
	execute,
};

/** Size of a stored binary: `bytes` when n8n recorded it, else the store's metadata. */
async function binarySize(ctx: IExecuteFunctions, binary: IBinaryData): Promise<number | undefined> {
	const bytes = (binary as IBinaryData & { bytes?: number }).bytes;
	if (typeof bytes === 'number') return bytes;
	if (!binary.id) return undefined;
	try {
		const meta = await ctx.helpers.getBinaryMetadata(binary.id);
		return typeof meta.fileSize === 'number' ? meta.fileSize : undefined;
	} catch {
		return undefined;
	}
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	// Items run Concurrent Requests at a time (perItem), and every request of every item, parts
	// included, holds one of as many slots while in flight: that is the whole run's bound.
	const concurrency = concurrencyOf(this);
	const slots = new RequestSlots(concurrency);
	return await perItem(this, items, async (i) => {
		const node = this.getNode();
		const bucket = getBucket(this, i);
		const key = getKey(this, i);
		const fromBinary = this.getNodeParameter('binaryData', i, true) as boolean;
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const threshold = check.positiveNumber(node, i, 'Multipart Threshold (MiB)', options.multipartThreshold ?? 1024, 0, 1024 * 1024) * MiB;
		const wantedPart = check.positiveNumber(node, i, 'Part Size (MiB)', options.partSize ?? 8, 0.001, Number.MAX_SAFE_INTEGER / MiB) * MiB;

		let binary: IBinaryData | undefined;
		let text: Buffer | undefined;
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data'));
		if (fromBinary) {
			binary = check.inputFile(this, i, property, true);
		} else {
			text = Buffer.from(String(this.getNodeParameter('fileContent', i, '')), 'utf8');
		}
		const settings = await getSettings(this, i);
		const fallbackType = binary ? binary.mimeType : 'text/plain; charset=utf-8';
		const { headers, contentType } = objectHeaders(this, i, settings, fallbackType, binary ? property : undefined);

		const started = Date.now();
		const target = { bucket, key, itemIndex: i, settings, headers };
		let result: UploadResult;
		if (binary?.id) {
			// In n8n's binary store: streamed, never the whole file in memory. Up to the threshold
			// one PUT (its MD5 read first, the file opened again for each try); above it, or of
			// unknown size, parallel parts, each read into the buffer of the slot it is sent in.
			const id = binary.id;
			const size = await binarySize(this, binary);
			if (size !== undefined && size <= threshold) {
				result = await putStored(this, target, async () => await this.helpers.getBinaryStream(id, STREAM_CHUNK), slots);
			} else {
				const partSize = partSizeFor(wantedPart, size);
				const stream = await this.helpers.getBinaryStream(id, STREAM_CHUNK);
				result = await uploadFromSource(this, { ...target, partSize, concurrency, slots }, new StreamParts(stream, partSize), size);
			}
		} else {
			const data = text ?? (await this.helpers.getBinaryDataBuffer(i, property));
			if (data.length > threshold) {
				const partSize = partSizeFor(wantedPart, data.length);
				result = await uploadFromSource(this, { ...target, partSize, concurrency, slots }, new BufferParts(data, partSize), data.length);
			} else {
				result = await slots.run(async () => await putObject(this, target, data));
			}
		}
		// etag: as the service gave it (PUT's header, Complete's element), only when it did; md5: of
		// the bytes of a single PUT, computed here.
		const json: IDataObject = {
			bucket,
			key,
			size: result.size,
			...(result.etag !== undefined ? { etag: result.etag } : {}),
			...(result.md5 !== undefined ? { md5: result.md5 } : {}),
			partCount: result.partCount,
			multipart: result.multipart,
			contentType,
			durationMs: Date.now() - started,
		};
		if (result.multipart) {
			json.partSize = result.partSize;
			json.uploadId = result.uploadId;
		}
		return json;
	});
}

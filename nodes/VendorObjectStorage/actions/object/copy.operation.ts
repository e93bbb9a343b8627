import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getSettings } from '../../../shared/storage/settings';
import { getBucket, getExistingKey, objectHeaders, perItem } from '../../helpers/common';
import { copyObject, type CopyResult, type ObjectRef } from '../../helpers/copy';
import { bucketField, existingKeyField, notice, objectHeaderFields } from '../../helpers/fields';
import { MiB } from '../../helpers/transfer';
import * as check from '../../helpers/validate';
import { TOOL_CONFIRM } from '../../tool';
import type { StorageOperation } from '../types';

/** The endpoints a copy sends: it lists and reads the source and writes the copy (helpers/copy.ts). */
export const COPY_USES = ['List objects', 'Get object', 'Put object', 'Initiate multipart upload', 'Upload part', 'Complete multipart upload', 'Abort multipart upload'];

export const TOOL_COPY_NEEDS =
	'Needs: Source Bucket and Source Key (the object to copy); Destination Bucket and Destination Key (where the copy goes; the same bucket is fine)';

/** What each replaceable header of the copy does; without it the source's value is kept. */
const REPLACES: Record<string, string> = {
	acl: "Canned access control of the copy. Without it the copy gets the service's default (private): the source's ACL is not read.",
	cacheControl: "Cache-Control of the copy; leave out to keep the source's",
	contentDisposition: "Content-Disposition of the copy (its download file name); leave out to keep the source's",
	contentEncoding: "Content-Encoding of the copy; leave out to keep the source's",
	contentType: "Media type of the copy; leave out to keep the source's",
	expires: "Expires header of the copy, sent exactly as typed (the vendor documents it as milliseconds); leave out to keep the source's",
	metadata: "User metadata of the copy: replaces all of the source's metadata. Leave out to keep the source's.",
};
const replaceOptions = (objectHeaderFields.options as INodeProperties[]).map((o): INodeProperties => ({ ...o, description: REPLACES[o.name] ?? o.description }));

/** Copy's and Move's parameters. */
export const copyProperties: INodeProperties[] = [
	{ ...bucketField, displayName: 'Source Bucket' },
	{ ...existingKeyField, displayName: 'Source Key' },
	{ ...bucketField, name: 'destinationBucket', displayName: 'Destination Bucket', description: 'May be the source bucket' },
	{
		displayName: 'Destination Key',
		name: 'destinationKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. processed/2026-05-01/report.pdf',
		description: 'Key of the copy, including any folder prefix; an object already there is replaced',
		hint: 'S3 services accept keys of up to 1024 bytes of UTF-8',
	},
	{
		...objectHeaderFields,
		displayName: 'Replace Headers',
		placeholder: 'Add Header to Replace',
		description: "The copy keeps the source's Content-Type, Cache-Control, Content-Disposition, Expires and metadata; what is set here replaces them",
		options: replaceOptions,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Part Size (MiB)',
				name: 'partSize',
				type: 'number',
				default: 8,
				typeOptions: { minValue: 0.001, numberPrecision: 3 },
				description: 'Objects larger than this are copied as a multipart upload in parts of this size; raised on its own when an object would need more than 10000 parts',
				hint: 'S3 services refuse parts under 5 MiB (except the last); the vendor documents no limit',
			},
			{
				displayName: 'Parts in Parallel',
				name: 'partConcurrency',
				type: 'number',
				default: 4,
				typeOptions: { minValue: 1, maxValue: 32 },
				description: 'How many parts of one large object are read and written at the same time; memory use is about (this number + 1) × part size per item running',
			},
		],
	},
];

export interface CopyRun {
	source: ObjectRef;
	target: ObjectRef;
	result: CopyResult;
	started: number;
}

/** Reads the item's Copy (or Move) parameters, checked, and copies. */
export async function runCopy(ctx: IExecuteFunctions, i: number, refuseSame: string | undefined): Promise<CopyRun> {
	const node = ctx.getNode();
	const source = { bucket: getBucket(ctx, i), key: getExistingKey(ctx, i) };
	const target = {
		bucket: check.bucketName(node, i, ctx.getNodeParameter('destinationBucket', i, '', { extractValue: true }), 'Destination Bucket'),
		key: check.objectKey(node, i, ctx.getNodeParameter('destinationKey', i, ''), 'Destination Key'),
	};
	if (refuseSame && source.bucket === target.bucket && source.key === target.key) throw check.inputError(node, i, refuseSame, 'Choose another Destination Key or Destination Bucket.');
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const partSize = Math.max(1, Math.round(check.positiveNumber(node, i, 'Part Size (MiB)', options.partSize ?? 8, 0.001, Number.MAX_SAFE_INTEGER / MiB) * MiB));
	const concurrency = check.positiveInt(node, i, 'Parts in Parallel', options.partConcurrency ?? 4, 1, 32);
	const settings = await getSettings(ctx, i);
	const fields = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const { headers } = objectHeaders(ctx, i, settings, '');
	if (!fields.contentType) delete headers['Content-Type'];
	const rows = ((fields.metadata as IDataObject | undefined)?.values ?? []) as unknown[];
	const started = Date.now();
	const result = await copyObject(ctx, source, target, { itemIndex: i, settings, replace: headers, replaceMetadata: rows.length > 0, partSize, concurrency });
	return { source, target, result, started };
}

/** The output of a copy: where from (the version copied), where to, and what was compared. */
export function copyOutput(run: CopyRun): IDataObject {
	const { source, target, result } = run;
	const json: IDataObject = {
		sourceBucket: source.bucket,
		sourceKey: source.key,
		bucket: target.bucket,
		key: target.key,
		size: result.size,
		md5: result.md5,
	};
	if (result.etag !== undefined) json.etag = result.etag;
	if (result.contentType !== undefined) json.contentType = result.contentType;
	json.multipart = result.multipart;
	json.partCount = result.partCount;
	if (result.source.etag !== undefined) json.sourceEtag = result.source.etag;
	if (result.source.lastModified !== undefined) json.sourceLastModified = result.source.lastModified;
	json.sourceVerified = result.sourceVerified;
	json.copyVerified = result.copyVerified;
	json.verification = result.verification;
	return json;
}

export const operation: StorageOperation = {
	endpoint: 'Get object',
	uses: COPY_USES,
	resource: 'object',
	operation: 'copy',
	name: 'Copy',
	action: 'Copy a file',
	description: 'Copy a file within a bucket or to another bucket, any size; the bytes pass through n8n, checked (some reads twice)',
	toolText: `${TOOL_COPY_NEEDS}. Returns the destination's bucket, key, size and ETag, and what was compared (sourceVerified, copyVerified, verification). Replaces an object already at the destination. ${TOOL_CONFIRM}`,
	properties: [
		{
			...notice(
				"The vendor's object storage has no copy of its own: the node downloads the object and uploads it again, so the bytes pass through n8n (large objects in parallel parts, memory independent of their size). Headers and metadata are kept unless replaced below. The bytes are checked against the source's ETag where it is their MD5; otherwise a source whose ETag looks like one is read twice, and a copy whose ETag proves nothing is read back: each check of that kind reads the whole object once more.",
			),
			name: 'copyNotice',
		},
		...copyProperties,
	],
	execute,
};

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const run = await runCopy(this, i, undefined);
		return { ...copyOutput(run), durationMs: Date.now() - run.started };
	});
}

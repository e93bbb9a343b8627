/**
 * What a model is told about each object-storage operation used as a tool (see
 * ../shared/tool.ts): the operation's own description from area.ts, then what it needs and what
 * it returns. One entry per operation of area.ts (test/unit/tool-text.test.js checks that).
 */
import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptions, type ToolText } from '../shared/tool';
import { objectStorageArea } from './area';

const BUCKET = 'Bucket: the bucket name';
const KEY = 'Key: the object key (its path in the bucket, e.g. reports/2026/q1.csv)';
const UPLOAD = 'Upload ID: as Initiate returned it';
const CONFIRM = 'Changes things for real: ask the user to confirm first.';

/** Needs and returns per `<resource>.<operation>`. */
export const STORAGE_TOOL_TEXT: Record<string, string> = {
	'bucket.checkCompatibility': `Needs: ${BUCKET} (a scratch bucket may be made and removed). Returns one object per finding and a summary with the settings to use.`,
	'bucket.create': `Needs: Bucket Name (lower-case letters, digits, dots and hyphens); ACL: private, public-read or public-read-write. Returns {created: true} with the bucket's name and ACL.`,
	'bucket.delete': `Needs: ${BUCKET}; it must be empty. Returns {deleted: true} with the bucket's name. ${CONFIRM}`,
	'bucket.getAcl': `Needs: ${BUCKET}. Returns the bucket's owner and its grants.`,
	'bucket.setAcl': `Needs: ${BUCKET}; ACL: private, public-read or public-read-write. Returns the bucket's name and the ACL set. ${CONFIRM}`,
	'bucket.listObjects': `Needs: ${BUCKET}; optionally a Prefix (a folder such as reports/) and a Delimiter (/ lists one folder level). Returns one object per object (key, size, lastModified, etag) or folder (prefix), up to Limit.`,
	'object.upload': `Needs: ${BUCKET}; ${KEY}; the content (text, or a binary field of the input). Returns the key, size and ETag of the stored object. Replaces an object with the same key. ${CONFIRM}`,
	'object.download': `Needs: ${BUCKET}; ${KEY}. Returns the bucket, key and size; the content goes to a binary field, which an AI model cannot read: use Get Presigned URL to hand out a link instead.`,
	'object.delete': `Needs: ${BUCKET}; ${KEY}. Returns {deleted: true} with the bucket and key. ${CONFIRM}`,
	'object.getPresignedUrl': `Needs: ${BUCKET}; ${KEY}; Expires In (Seconds). Returns the URL, its method and when it expires (expiresAt); anyone with the URL can download (or, with the PUT method, upload) the object until then.`,
	'multipartUpload.initiate': `Needs: ${BUCKET}; ${KEY}. Returns the upload ID (uploadId) the other multipart operations take.`,
	'multipartUpload.uploadPart': `Needs: ${BUCKET}; ${KEY}; ${UPLOAD}; Part Number (1-10000); the part's content in a binary field of the input. Returns the bucket, key, upload ID, part number and the part's ETag.`,
	'multipartUpload.listParts': `Needs: ${BUCKET}; ${KEY}; ${UPLOAD}. Returns one object per uploaded part (part number, size, ETag).`,
	'multipartUpload.complete': `Needs: ${BUCKET}; ${KEY}; ${UPLOAD}. Returns the key and ETag of the joined object.`,
	'multipartUpload.abort': `Needs: ${BUCKET}; ${KEY}; ${UPLOAD}. Returns {aborted: true} with the upload ID; the parts are discarded. ${CONFIRM}`,
};

export function storageToolTexts(): ToolText[] {
	return objectStorageArea.operations.map((op) => ({
		resource: op.resource,
		operation: op.operation,
		text: `${op.description.replace(/\.?$/, '.')} ${STORAGE_TOOL_TEXT[`${op.resource}.${op.operation}`] ?? ''}`.trim(),
	}));
}

/** The node's properties with the per-operation tool descriptions (tool variant only) first. */
export function withStorageToolDescriptions(properties: INodeProperties[]): INodeProperties[] {
	return [...toolDescriptions(storageToolTexts()), ...properties];
}

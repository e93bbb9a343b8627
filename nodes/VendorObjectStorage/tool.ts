/**
 * What a model is told about an object-storage operation used as a tool (see ../shared/tool.ts):
 * the operation's description, then its `toolText`, what it needs and what it returns. The
 * phrases several operations' texts share are here.
 */
import type { ToolText } from '../shared/tool';
import type { StorageOperation } from './actions/types';

export const TOOL_BUCKET = 'Bucket: the bucket name';
export const TOOL_KEY = 'Key: the object key (its path in the bucket, e.g. reports/2026/q1.csv)';
export const TOOL_UPLOAD_ID = 'Upload ID: as Initiate returned it';
/** Ends the text of every operation that changes or deletes things. */
export const TOOL_CONFIRM = 'Changes things for real: ask the user to confirm first.';

export function storageToolText(op: StorageOperation): ToolText {
	return {
		resource: op.resource,
		operation: op.operation,
		text: `${op.description.replace(/\.?$/, '.')} ${op.toolText}`.trim(),
	};
}

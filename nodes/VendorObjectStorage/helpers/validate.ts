/**
 * Checks on what the user typed, run before any request is sent. Each failure is a
 * NodeOperationError that names the field, says what is wrong and how to fix it.
 */
import { NodeOperationError, type IBinaryData, type IExecuteFunctions, type INode } from 'n8n-workflow';

export const MAX_PART_NUMBER = 10000;
/** Longest validity of a presigned URL on S3 (7 days): a hint only, the vendor documents no limit. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function inputError(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex, description });
}

/**
 * The file of an input item to upload, or an error in words (n8n's own ends in "[item 0]"): which
 * files the item has, and what to set or put before the node.
 */
export function inputFile(ctx: IExecuteFunctions, itemIndex: number, property: string, orText = false): IBinaryData {
	try {
		return ctx.helpers.assertBinaryData(itemIndex, property);
	} catch {
		const names = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
		if (names.length) {
			throw inputError(
				ctx.getNode(),
				itemIndex,
				`The input item has no file named "${property}"`,
				`Its files are named ${names.map((n) => `"${n}"`).join(', ')}: set "Input Binary Field" to one of them.`,
			);
		}
		throw inputError(
			ctx.getNode(),
			itemIndex,
			'The input item holds no file to upload',
			`Put a node that gives a file before this one (Read/Write Files from Disk, HTTP Request with Response Format "File", Convert to File)${orText ? ', or switch "Binary File" off to upload the text of "File Content"' : ''}. "Input Binary Field" names the file to take (now "${property}").`,
		);
	}
}

/**
 * A bucket name: not empty, not "." or ".." (URL paths resolve those away) and valid Unicode.
 * The vendor documents no naming rule; the service's own error (InvalidBucketName) is shown when it
 * refuses a name, with the usual S3 rule as a hint.
 */
export function bucketName(node: INode, itemIndex: number, raw: unknown, field = 'Bucket'): string {
	const name = String(raw ?? '').trim();
	if (!name) throw inputError(node, itemIndex, `The "${field}" field is empty`, 'Choose a bucket from the list or type its name, e.g. my-bucket.');
	if (name === '.' || name === '..') {
		throw inputError(node, itemIndex, `The "${field}" field holds "${name}", which a URL path cannot carry as a name`, 'Type the name of the bucket, e.g. my-bucket.');
	}
	if (!isWellFormed(name)) {
		throw inputError(node, itemIndex, `The "${field}" field is not valid Unicode`, 'The name holds a broken character (a lone surrogate); retype it.');
	}
	return name;
}

function isWellFormed(text: string): boolean {
	try {
		encodeURIComponent(text);
		return true;
	} catch {
		return false;
	}
}

/**
 * A non-empty key whose `/`-separated segments are not `.` or `..` (URL paths resolve those
 * away) and that is valid Unicode. Length and characters are the service's to refuse (the vendor
 * documents no limit); the Key field's hint gives S3's 1024 bytes.
 */
export function objectKey(node: INode, itemIndex: number, raw: unknown, field = 'Key'): string {
	const key = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
	if (key === '') {
		throw inputError(node, itemIndex, `The "${field}" field is empty`, 'Enter the object key, e.g. reports/2026/summary.csv.');
	}
	const bad = key.split('/').find((s) => s === '.' || s === '..');
	if (bad !== undefined) {
		throw inputError(
			node,
			itemIndex,
			`The "${field}" field has a "${bad}" segment: "${key}"`,
			'Keys are sent as URL paths, where "." and ".." segments would be resolved away. Rename the segment, e.g. "dot" instead of ".".',
		);
	}
	if (!isWellFormed(key)) {
		throw inputError(node, itemIndex, `The "${field}" field is not valid Unicode`, 'The key holds a broken character (a lone surrogate); retype it.');
	}
	return key;
}

/** A header value: at most one line; surrounding white space removed. */
export function headerValue(node: INode, itemIndex: number, field: string, raw: unknown): string {
	const value = String(raw ?? '');
	if (/[\r\n]/.test(value)) {
		throw inputError(node, itemIndex, `The "${field}" field holds a line break`, 'Header values must fit on one line; remove the line breaks.');
	}
	if ([...value].some((c) => (c.charCodeAt(0) < 0x20 && c !== '\t') || c === '\u007f')) {
		throw inputError(node, itemIndex, `The "${field}" field holds a control character`, 'Remove the control characters from the value.');
	}
	if (/[\u0080-\uffff]/.test(value)) {
		throw inputError(
			node,
			itemIndex,
			`The "${field}" field holds characters outside ASCII`,
			'HTTP headers carry ASCII only; encode other characters first, e.g. with encodeURIComponent() in an expression.',
		);
	}
	return value.trim();
}

/** A file name: one line without control characters (other Unicode is fine); trimmed. */
export function fileName(node: INode, itemIndex: number, field: string, raw: unknown): string {
	const value = String(raw ?? '').trim();
	if (/[\r\n]/.test(value)) {
		throw inputError(node, itemIndex, `The "${field}" field holds a line break`, 'A file name must fit on one line; remove the line breaks.');
	}
	if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f')) {
		throw inputError(node, itemIndex, `The "${field}" field holds a control character`, 'Remove tabs and other control characters from the file name.');
	}
	return value;
}

/**
 * The MIME type an upstream node gave a binary, about to be sent as Content-Type: checked like
 * the Content Type field, and the error says where the value came from.
 */
export function binaryMimeType(node: INode, itemIndex: number, property: string, raw: unknown): string {
	const value = String(raw ?? '');
	const where = `The MIME type of the input binary field "${property}"`;
	const fix = 'It comes from the node before this one and is sent as Content-Type. Correct it there, or set Content Type under Additional Fields.';
	if (/[\r\n]/.test(value)) throw inputError(node, itemIndex, `${where} holds a line break: ${JSON.stringify(value)}`, fix);
	if ([...value].some((c) => (c.charCodeAt(0) < 0x20 && c !== '\t') || c === '\u007f')) {
		throw inputError(node, itemIndex, `${where} holds a control character: ${JSON.stringify(value)}`, fix);
	}
	if (/[\u0080-\uffff]/.test(value)) throw inputError(node, itemIndex, `${where} holds characters outside ASCII: ${JSON.stringify(value)}`, fix);
	return value.trim();
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** User metadata rows → `{ lower-case name: value }`, checked. */
export function metadata(node: INode, itemIndex: number, rows: Array<{ name?: unknown; value?: unknown }>): Record<string, string> {
	const out: Record<string, string> = {};
	rows.forEach((row, n) => {
		const name = String(row.name ?? '').trim();
		const label = `Metadata row ${n + 1}`;
		if (!name) throw inputError(node, itemIndex, `${label} has an empty name`, 'Give every metadata row a name, e.g. author, or remove the row.');
		if (/[\u0080-\uffff]/.test(name)) {
			throw inputError(node, itemIndex, `${label} has a name outside ASCII: "${name}"`, 'Metadata names are header names: use ASCII letters, digits and hyphens, e.g. reviewed-by.');
		}
		if (!TOKEN.test(name)) {
			throw inputError(node, itemIndex, `${label} has a name that cannot be a header name: "${name}"`, 'Use letters, digits and hyphens only, e.g. reviewed-by; no spaces, colons or brackets.');
		}
		const lower = name.toLowerCase();
		if (lower in out) throw inputError(node, itemIndex, `${label} repeats the name "${name}"`, 'Metadata names are case-insensitive; give each one once.');
		out[lower] = headerValue(node, itemIndex, `${label} (${name}) value`, row.value);
	});
	return out;
}

/** A part number: a whole number from 1 (the vendor documents no upper limit; S3's is 10000). */
export function partNumber(node: INode, itemIndex: number, raw: unknown, field = 'Part Number'): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	if (raw === '' || raw === undefined || raw === null || !Number.isSafeInteger(n) || n < 1) {
		throw inputError(node, itemIndex, `The "${field}" field must be a whole number from 1, not "${String(raw)}"`, 'Parts are numbered 1, 2, 3 …');
	}
	return n;
}

export function expirySeconds(node: INode, itemIndex: number, raw: unknown): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	if (!Number.isInteger(n) || n <= 0) {
		throw inputError(node, itemIndex, `The "Expires In" field must be a positive whole number of seconds, not "${String(raw)}"`, 'Enter how long the URL stays valid, e.g. 3600 for one hour.');
	}
	return n;
}

export function uploadId(node: INode, itemIndex: number, raw: unknown): string {
	const id = String(raw ?? '').trim();
	if (!id) throw inputError(node, itemIndex, 'The "Upload ID" field is empty', 'Use the upload ID that Initiate returned, e.g. {{ $json.uploadId }}.');
	return id;
}

/** `bytes=a-b`, `a-b`, `a-` or `-n` → the Range header value. */
export function range(node: INode, itemIndex: number, raw: unknown): string {
	const text = String(raw ?? '').trim();
	const m = /^(?:bytes=)?(\d*)-(\d*)$/.exec(text);
	if (!m || (m[1] === '' && m[2] === '') || (m[1] !== '' && m[2] !== '' && Number(m[2]) < Number(m[1]))) {
		throw inputError(node, itemIndex, `The "Range" field is not a byte range: "${text}"`, 'Use first-last byte positions, e.g. bytes=0-99 for the first 100 bytes, or bytes=-100 for the last 100.');
	}
	return `bytes=${m[1]}-${m[2]}`;
}

/** A date for If-Modified-Since / If-Unmodified-Since → HTTP date. */
export function httpDate(node: INode, itemIndex: number, field: string, raw: unknown): string {
	const d = raw instanceof Date ? raw : new Date(String(raw ?? ''));
	if (Number.isNaN(d.getTime())) {
		throw inputError(node, itemIndex, `The "${field}" field is not a date: "${String(raw)}"`, 'Pick a date or enter one such as 2026-11-22T10:00:00Z.');
	}
	return d.toUTCString();
}

export function positiveInt(node: INode, itemIndex: number, field: string, raw: unknown, min: number, max: number): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	if (!Number.isInteger(n) || n < min || n > max) {
		throw inputError(node, itemIndex, `The "${field}" field must be a whole number from ${min} to ${max}, not "${String(raw)}"`, `Enter a number between ${min} and ${max}.`);
	}
	return n;
}

export function positiveNumber(node: INode, itemIndex: number, field: string, raw: unknown, min: number, max: number): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	if (!Number.isFinite(n) || n < min || n > max) {
		throw inputError(node, itemIndex, `The "${field}" field must be a number from ${min} to ${max}, not "${String(raw)}"`, `Enter a number between ${min} and ${max}.`);
	}
	return n;
}

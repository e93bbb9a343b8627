/**
 * Parameters several operations show: the bucket locator, the key (typed, or picked "From
 * List"), the upload ID, notices, and the object headers of Upload and Initiate. Reading them
 * back, checked, is common.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

export const CANNED_ACLS = [
	{ name: 'Private', value: 'private', description: 'Owner has full rights; nobody else has any' },
	{ name: 'Public Read', value: 'public-read', description: 'Owner has full rights; anyone may read' },
	{ name: 'Public Read Write', value: 'public-read-write', description: 'Owner has full rights; anyone may read and write' },
	{ name: 'Authenticated Read', value: 'authenticated-read', description: 'Owner has full rights; any signed-in user may read' },
];

export const bucketField: INodeProperties = {
	displayName: 'Bucket',
	name: 'bucket',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchBuckets', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. my-bucket',
		},
	],
};

export const keyField: INodeProperties = {
	displayName: 'Key',
	name: 'key',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. reports/2026/summary.csv',
	description: 'Name of the object, including any folder prefix; case-sensitive',
	hint: 'S3 services accept keys of up to 1024 bytes of UTF-8',
};

/**
 * The key of an object that exists (Download, Delete, Get Presigned URL): "From List" lists the
 * bucket one folder at a time (type a folder such as photos/ in the search to open it), or "By
 * Key" takes any key (also one that does not exist yet, e.g. for a presigned upload).
 */
export const existingKeyField: INodeProperties = {
	displayName: 'Key',
	name: 'key',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The object, including its folder prefix; keys are case-sensitive',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Choose an object, or type a folder such as photos/ to open it',
			typeOptions: { searchListMethod: 'searchObjects', searchable: true },
		},
		{
			displayName: 'By Key',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. reports/2026/summary.csv',
			hint: 'S3 services accept keys of up to 1024 bytes of UTF-8',
		},
	],
};

export const uploadIdField: INodeProperties = {
	displayName: 'Upload ID',
	name: 'uploadId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.uploadId }}',
	description: 'The ID that Initiate returned',
};

export function notice(text: string): INodeProperties {
	return { displayName: text, name: 'notice', type: 'notice', default: '' };
}

/** Object headers shared by Upload and Initiate (the "same headers as Put object"). */
export const objectHeaderFields: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{
			displayName: 'ACL',
			name: 'acl',
			type: 'options',
			options: CANNED_ACLS,
			default: 'private',
			description: 'Canned access control of the object',
		},
		{
			displayName: 'Cache Control',
			name: 'cacheControl',
			type: 'string',
			default: '',
			placeholder: 'e.g. max-age=3600',
			description: 'Cache-Control header returned when the object is downloaded',
		},
		{
			displayName: 'Content Disposition',
			name: 'contentDisposition',
			type: 'string',
			default: '',
			placeholder: 'e.g. attachment; filename="report.pdf"',
			description: 'Content-Disposition header returned on download; sets the download file name',
		},
		{
			displayName: 'Content Encoding',
			name: 'contentEncoding',
			type: 'string',
			default: '',
			placeholder: 'e.g. gzip',
			description: 'Content-Encoding header returned on download',
		},
		{
			displayName: 'Content Type',
			name: 'contentType',
			type: 'string',
			default: '',
			placeholder: 'e.g. text/csv',
			description: "Media type of the object. Upload defaults to the binary file's MIME type, or text/plain for text; Initiate sends none unless set.",
		},
		{
			displayName: 'Expires',
			name: 'expires',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1800000',
			description:
				'Expires header returned on download, sent exactly as typed. The vendor documents it as milliseconds; an HTTP date (Thu, 01 Dec 2026 16:00:00 GMT) is what web clients read.',
		},
		{
			displayName: 'Metadata',
			name: 'metadata',
			type: 'fixedCollection',
			placeholder: 'Add Metadata',
			default: {},
			typeOptions: { multipleValues: true },
			description: 'User metadata, returned as headers when the object is downloaded',
			options: [
				{
					name: 'values',
					displayName: 'Metadata',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'e.g. reviewed-by',
							description: 'Header-name characters only: letters, digits and hyphens',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							placeholder: 'e.g. jane',
							description: 'One line of ASCII text',
						},
					],
				},
			],
		},
	],
};

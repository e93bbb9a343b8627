/**
 * The object-storage area: the 13 object-storage rows of endpoints.tsv, each named by its
 * `endpoint` column, plus the presigned URL, which signs a Get object (or Put object) request
 * locally for someone else to send, and the compatibility check, which sends many of them. The node's Resource
 * and Operation dropdowns are built from this list, and the coverage test reads it.
 */

export interface StorageResourceDecl {
	value: string;
	name: string;
	description: string;
}

export interface StorageOperationDecl {
	/** The `endpoint` column of endpoints.tsv, verbatim. */
	endpoint: string;
	/** Signs locally and sends no request (the presigned URL: a signed Get object or Put object for someone else to send). */
	local?: boolean;
	/** Every endpoint a composite operation sends (the compatibility check), for the README. */
	uses?: string[];
	resource: string;
	operation: string;
	/** Title Case, without the resource. */
	name: string;
	/** Sentence case, with the resource, no articles. */
	action: string;
	/** One sentence for the dropdown and for AI agents choosing a tool. */
	description: string;
}

export interface StorageArea {
	node: string;
	/** The resource a new node shows. Stated, never taken from the order of `resources`. */
	defaultResource: string;
	/** The operation a new node shows, per resource. Stated, never taken from the order of `operations`. */
	defaultOperations: Record<string, string>;
	resources: StorageResourceDecl[];
	operations: StorageOperationDecl[];
}

export const objectStorageArea: StorageArea = {
	node: 'vendorObjectStorage',
	defaultResource: 'object',
	defaultOperations: {
		bucket: 'checkCompatibility',
		object: 'upload',
		multipartUpload: 'initiate',
	},
	resources: [
		{ value: 'bucket', name: 'Bucket', description: 'Buckets, their access control and the objects in them' },
		{ value: 'object', name: 'Object', description: 'Files stored in a bucket' },
		{ value: 'multipartUpload', name: 'Multipart Upload', description: 'Uploads of one object in numbered parts' },
	],
	operations: [
		{
			endpoint: 'Put object',
			uses: ['Put object', 'Get object', 'List objects', 'Get bucket ACL', 'Initiate multipart upload', 'List parts', 'Upload part', 'Complete multipart upload', 'Abort multipart upload', 'Delete object'],
			resource: 'bucket',
			operation: 'checkCompatibility',
			name: 'Check Compatibility',
			action: 'Check service compatibility in bucket',
			description: 'Probe which readings of the documentation the service follows, under a scratch prefix it removes; outputs the settings to use',
		},
		{
			endpoint: 'Create bucket',
			resource: 'bucket',
			operation: 'create',
			name: 'Create',
			action: 'Create bucket',
			description: 'Create a bucket with a canned ACL',
		},
		{
			endpoint: 'Delete bucket',
			resource: 'bucket',
			operation: 'delete',
			name: 'Delete',
			action: 'Delete bucket',
			description: 'Delete an empty bucket',
		},
		{
			endpoint: 'Get bucket ACL',
			resource: 'bucket',
			operation: 'getAcl',
			name: 'Get ACL',
			action: 'Get bucket ACL',
			description: 'Get the owner and the grants of a bucket',
		},
		{
			endpoint: 'Set bucket ACL',
			resource: 'bucket',
			operation: 'setAcl',
			name: 'Set ACL',
			action: 'Set bucket ACL',
			description: 'Replace the access control of a bucket with a canned ACL',
		},
		{
			endpoint: 'List objects',
			resource: 'bucket',
			operation: 'listObjects',
			name: 'List Objects',
			action: 'List objects in bucket',
			description: 'List the objects and folders of a bucket, optionally under a prefix',
		},
		{
			endpoint: 'Put object',
			resource: 'object',
			operation: 'upload',
			name: 'Upload',
			action: 'Upload object',
			description: 'Upload a file or text; large files stream in parallel parts',
		},
		{
			endpoint: 'Get object',
			resource: 'object',
			operation: 'download',
			name: 'Download',
			action: 'Download object',
			description: 'Download an object into a binary field, whole or a byte range, optionally on a condition',
		},
		{
			endpoint: 'Delete object',
			resource: 'object',
			operation: 'delete',
			name: 'Delete',
			action: 'Delete object',
			description: 'Delete an object',
		},
		{
			endpoint: 'Get object',
			local: true,
			resource: 'object',
			operation: 'getPresignedUrl',
			name: 'Get Presigned URL',
			action: 'Get presigned URL',
			description: 'Make a time-limited URL that downloads or uploads an object without credentials',
		},
		{
			endpoint: 'Initiate multipart upload',
			resource: 'multipartUpload',
			operation: 'initiate',
			name: 'Initiate',
			action: 'Initiate multipart upload',
			description: 'Start a multipart upload and get its upload ID',
		},
		{
			endpoint: 'Upload part',
			resource: 'multipartUpload',
			operation: 'uploadPart',
			name: 'Upload Part',
			action: 'Upload part',
			description: 'Upload one numbered part of a multipart upload from a binary field',
		},
		{
			endpoint: 'List parts',
			resource: 'multipartUpload',
			operation: 'listParts',
			name: 'List Parts',
			action: 'List parts of multipart upload',
			description: 'List the parts uploaded so far',
		},
		{
			endpoint: 'Complete multipart upload',
			resource: 'multipartUpload',
			operation: 'complete',
			name: 'Complete',
			action: 'Complete multipart upload',
			description: 'Join the parts into the object, with parts from the input items or from the service',
		},
		{
			endpoint: 'Abort multipart upload',
			resource: 'multipartUpload',
			operation: 'abort',
			name: 'Abort',
			action: 'Abort multipart upload',
			description: 'Cancel a multipart upload and discard its parts',
		},
	],
};

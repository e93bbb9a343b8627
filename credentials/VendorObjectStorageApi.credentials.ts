import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { DEFAULT_COMPLETE_TIMEOUT_S, DEFAULT_IDLE_TIMEOUT_S, DEFAULT_RESPONSE_TIMEOUT_S, signStorageRequest } from '../nodes/shared/storage/auth';

/**
 * Access key and secret of the object storage. Every request is signed here (HMAC-SHA1,
 * docs/vendor/object-storage.md#signing), so the HTTP Request node can use this credential as well.
 */
export class VendorObjectStorageApi implements ICredentialType {
	name = 'vendorObjectStorageApi';

	displayName = 'Vendor Object Storage API';

	icon: Icon = { light: 'file:../icons/vendor.svg', dark: 'file:../icons/vendor.dark.svg' };

	documentationUrl = 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/credentials.md#vendor-object-storage-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://storage.vendor.example',
			description: 'Base URL of the object storage, without a path. Buckets are addressed as /bucket/key.',
		},
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Access Secret',
			name: 'accessSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Advanced Protocol Settings',
			name: 'advanced',
			type: 'boolean',
			default: false,
			description:
				'Whether to change the words and signing readings used on the wire, or the timeouts. Keep the defaults for the vendor; use AWS, x-amz- and AWSAccessKeyId for other S3 servers that accept signature version 2.',
		},
		{
			displayName: 'Scheme Word',
			name: 'schemeWord',
			type: 'string',
			default: 'VENDOR',
			displayOptions: { show: { advanced: [true] } },
			description: 'First word of the Authorization header: "VENDOR key:signature"',
		},
		{
			displayName: 'Header Prefix',
			name: 'headerPrefix',
			type: 'string',
			default: 'x-vendor-',
			displayOptions: { show: { advanced: [true] } },
			description: 'Prefix of the signed date, ACL and metadata headers',
		},
		{
			displayName: 'Presigned URL Key Parameter',
			name: 'presignKeyParam',
			type: 'string',
			default: 'VENDORAccessKeyId',
			displayOptions: { show: { advanced: [true] } },
			description: 'Query parameter that carries the access key in presigned URLs',
		},
		{
			displayName: 'Bucket Path',
			name: 'bucketPath',
			type: 'options',
			default: 'slash',
			displayOptions: { show: { advanced: [true] } },
			options: [
				{
					name: '/bucket/ (Signing Rules of the Documentation)',
					value: 'slash',
					description: 'Send and sign bucket requests at /bucket/ (default): works with services that sign the path as sent and with those that sign it as the documentation writes it',
				},
				{ name: '/bucket', value: 'noSlash', description: 'Send and sign bucket requests at /bucket, for a service that refuses /bucket/' },
			],
			description:
				'Path of Create and Delete Bucket, Get and Set ACL and List Objects. Bucket > Verify Compatibility tells which one the service accepts.',
		},
		{
			displayName: 'Multipart Query Names',
			name: 'multipartQueryNames',
			type: 'options',
			default: 'camel',
			displayOptions: { show: { advanced: [true] } },
			options: [
				{ name: 'uploadId and partNumber', value: 'camel', description: 'The spelling of the signing rules (default)' },
				{ name: 'upload_id and part_number', value: 'snake', description: 'The spelling of the path samples' },
			],
			description: 'How multipart requests name the upload ID and the part number in the query',
		},
		{
			displayName: 'Sign Underscore Names',
			name: 'signUnderscoreSubResources',
			type: 'boolean',
			default: false,
			displayOptions: { show: { advanced: [true], multipartQueryNames: ['snake'] } },
			description:
				'Whether the underscore names count as signed sub-resources. The documented list names only uploadId and partNumber; turn on if the service answers SignatureDoesNotMatch to multipart requests.',
		},
		{
			displayName: 'Sub-Resource Values in the Signature',
			name: 'subResourceValues',
			type: 'options',
			default: 'asSent',
			displayOptions: { show: { advanced: [true] } },
			options: [
				{ name: 'As Sent (Percent-Encoded)', value: 'asSent', description: 'Sign the upload ID exactly as it appears in the URL (default)' },
				{ name: 'Decoded', value: 'decoded', description: 'Sign the upload ID with its percent-escapes decoded' },
			],
			description:
				'How upload IDs holding +, / or = are written into the signature; the documentation does not say. Bucket > Verify Compatibility tells which one the service uses.',
		},
		{
			displayName: 'Response Timeout (Seconds)',
			name: 'responseTimeout',
			type: 'number',
			default: DEFAULT_RESPONSE_TIMEOUT_S,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { advanced: [true] } },
			description:
				'Longest wait for the first byte of an answer once a request and its data are sent (default 30). Three tries of a request end within three times this, plus time for the data it moves.',
		},
		{
			displayName: 'Complete Timeout (Seconds)',
			name: 'completeTimeout',
			type: 'number',
			default: DEFAULT_COMPLETE_TIMEOUT_S,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { advanced: [true] } },
			description:
				'Longest wait for the answer of Complete Multipart Upload (default 300): completing an upload of many GiB can take minutes on some services',
		},
		{
			displayName: 'Idle Timeout (Seconds)',
			name: 'idleTimeout',
			type: 'number',
			default: DEFAULT_IDLE_TIMEOUT_S,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { advanced: [true] } },
			description:
				'Longest time no data moves while a file is uploaded or downloaded. Transfers of any size are fine as long as data keeps moving.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return signStorageRequest(credentials, requestOptions);
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.endpoint.replace(/\\/+$/, "")}}',
			url: '/',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The service refused the signature: check the access key, the access secret and, under Advanced Protocol Settings, the scheme word',
				},
			},
		],
	};
}

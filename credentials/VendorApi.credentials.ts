import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { authorize, loginFailure, noteLoginHere, storedToken, usableToken } from '../nodes/shared/api/auth';

/**
 * Username and password of the management interface. The password is exchanged for a token
 * (OAuth/authorize) that n8n keeps in a hidden field; the token goes into every JSON body as
 * `token`, so the HTTP Request node can call any endpoint with this credential.
 */
export class VendorApi implements ICredentialType {
	name = 'vendorApi';

	displayName = 'Vendor API';

	icon: Icon = { light: 'file:../icons/vendor.svg', dark: 'file:../icons/vendor.dark.svg' };

	documentationUrl = 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/credentials.md#vendor-api';

	properties: INodeProperties[] = [
		{
			displayName: 'API URL',
			name: 'apiUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.vendor.example',
			description: 'Base address of the management interface; calls go to <API URL>/API/<group>/<operation>',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			description: 'Account or sub-account name',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Password Encoding',
			name: 'loginEncoding',
			type: 'options',
			default: 'none',
			options: [
				{ name: 'None', value: 'none', description: 'Send the password as typed' },
				{ name: 'MD5 Hex', value: 'md5', description: 'Send the MD5 digest of the password in hex' },
				{ name: 'Base64', value: 'base64', description: 'Send the password base64-encoded' },
			],
			description: 'How the log-in sends the password; ask the vendor if unsure',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			default: 30,
			typeOptions: { minValue: 1 },
			description:
				'How long one request may take. A read is tried at most 4 times within 3 times this, a change waits at most twice this and is not repeated.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const login = await authorize((options) => this.helpers.httpRequest(options), credentials);
		if (!login.ok) throw loginFailure(login);
		// a token in the credential that this process did not obtain tells the nodes that others log in too
		noteLoginHere(login.token);
		// kept with a fingerprint of these credentials (an edited credential never reuses it) and
		// the time it is renewed before it runs out, from the answer's expires (docs/vendor/readings.md#r32)
		return { accessToken: storedToken(credentials, login.token, login.expiry.renewAt) };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		// the log-in itself carries no token
		if (/\/API\/OAuth\/authorize\/?$/.test(String(requestOptions.url ?? ''))) return requestOptions;
		const body = requestOptions.body;
		// a token obtained with other credentials (edited since) is never sent
		const token = usableToken(credentials) ?? '';
		if (typeof body === 'string' && body.trim().startsWith('{')) {
			requestOptions.body = JSON.stringify({ ...(JSON.parse(body) as IDataObject), token });
		} else if (body === undefined || body === null || (typeof body === 'object' && !Buffer.isBuffer(body))) {
			requestOptions.body = { ...((body as IDataObject) ?? {}), token };
		}
		return requestOptions;
	}

	/**
	 * The test logs in with the username and password as they are now in the form (a stored
	 * token proves nothing about them). The encoding expression matches encodePassword().
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.apiUrl.replace(/\\/+$/, "")}}',
			url: '/API/OAuth/authorize',
			method: 'POST',
			headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
			body: {
				username: '={{$credentials.username}}',
				password:
					'={{ $credentials.loginEncoding === "md5" ? $credentials.password.hash("md5") : $credentials.loginEncoding === "base64" ? $credentials.password.base64Encode() : $credentials.password }}',
			},
			json: true,
		},
		rules: [
			{
				// only an accepted log-in carries access_token
				type: 'responseSuccessBody',
				properties: {
					key: 'access_token',
					value: undefined,
					message: 'The service refused the log-in: check the username, the password and the Password Encoding',
				},
			},
		],
	};
}

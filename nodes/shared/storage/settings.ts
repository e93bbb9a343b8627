/**
 * The credential a request is sent with and the settings read from it (`StorageSettings`, see
 * auth.ts), with the Endpoint checked before anything is sent.
 */
import { NodeOperationError, type ICredentialDataDecryptedObject, type INode } from 'n8n-workflow';

import { storageSettings, type StorageSettings } from './auth';
import type { StorageContext } from './call';

export const CREDENTIAL = 'vendorObjectStorageApi';

export function settingsOf(credentials: ICredentialDataDecryptedObject, node: INode, itemIndex = 0): StorageSettings {
	const s = storageSettings(credentials);
	let url: URL;
	try {
		url = new URL(s.endpoint);
	} catch {
		throw new NodeOperationError(node, `The credential's Endpoint "${s.endpoint}" is not a URL`, {
			itemIndex,
			description: 'Use the base URL of the object storage, for example https://storage.vendor.example',
		});
	}
	if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) {
		throw new NodeOperationError(node, `The credential's Endpoint must be http(s)://host[:port] without a path`, {
			itemIndex,
			description: `Buckets are addressed as /bucket/key on the endpoint's host; remove "${url.pathname}".`,
		});
	}
	return s;
}

export async function getSettings(ctx: StorageContext, itemIndex = 0): Promise<StorageSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return settingsOf(credentials, ctx.getNode(), itemIndex);
}

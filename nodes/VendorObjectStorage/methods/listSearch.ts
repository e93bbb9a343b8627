import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, text } from '../../shared/storage/xml';

/** Buckets "From list": GET / (ListAllMyBuckets), filtered by the typed text. */
export async function searchBuckets(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const res = await storageRequest(this, { method: 'GET' });
	const doc = (await xmlBody(res)).ListAllMyBucketsResult;
	const buckets = children(doc && typeof doc === 'object' && !Array.isArray(doc) ? doc.Buckets : undefined, 'Bucket').map((b) => text(b, 'Name'));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: buckets
			.filter((name) => name && (!needle || name.includes(needle)))
			.sort()
			.map((name) => ({ name, value: name })),
	};
}

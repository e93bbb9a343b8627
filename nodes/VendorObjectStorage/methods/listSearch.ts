import { NodeOperationError, type ILoadOptionsFunctions, type INodeListSearchResult } from 'n8n-workflow';

import { listBuckets } from '../helpers/buckets';
import { listPage } from '../helpers/listing';

/** Buckets "From list": GET / (ListAllMyBuckets, docs/vendor/readings.md#r17), filtered by the typed text. */
export async function searchBuckets(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const buckets = (await listBuckets(this)).map((b) => b.name);
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: buckets
			.filter((name) => name && (!needle || name.includes(needle)))
			.sort()
			.map((name) => ({ name, value: name })),
	};
}

const PAGE = 200;

/**
 * Objects "From list", one folder at a time: the search text up to its last "/" is the folder
 * listed (empty: the top of the bucket), the rest narrows the names in it (ignoring case).
 * Folders come first, named "photos/ (folder)"; typing one opens it. Pages of 200 entries
 * follow each other as the list is scrolled.
 */
export async function searchObjects(this: ILoadOptionsFunctions, filter?: string, token?: string): Promise<INodeListSearchResult> {
	let bucket: unknown;
	try {
		bucket = this.getCurrentNodeParameter('bucket', { extractValue: true });
	} catch {
		bucket = undefined;
	}
	if (typeof bucket !== 'string' || !bucket.trim()) {
		throw new NodeOperationError(this.getNode(), 'Choose the bucket first', { description: 'The objects listed are those of the bucket in "Bucket".' });
	}
	const typed = filter ?? '';
	const slash = typed.lastIndexOf('/');
	const prefix = slash >= 0 ? typed.slice(0, slash + 1) : '';
	const needle = typed.slice(slash + 1).toLowerCase();
	const page = await listPage(this, 0, bucket.trim(), { prefix, delimiter: '/', marker: token || undefined, maxKeys: PAGE });
	const results = page.entries
		.filter((e) => !needle || e.name.slice(prefix.length).toLowerCase().includes(needle))
		.filter((e) => e.name !== prefix)
		.map((e) => (e.item.type === 'folder' ? { name: `${e.name} (folder)`, value: e.name } : { name: e.name, value: e.name }))
		.sort((a, b) => Number(b.name.endsWith(' (folder)')) - Number(a.name.endsWith(' (folder)')));
	const last = page.entries.length ? page.entries[page.entries.length - 1].name : '';
	return { results, paginationToken: page.truncated && (last || page.nextMarker) ? last || page.nextMarker : undefined };
}

/**
 * Folders in the S3 sense: a bucket has only keys, and a folder is a prefix ending in "/"
 * (docs/vendor/object-storage.md#listing): "photos/" holds every key that starts with
 * "photos/", and the folders of a level are the common prefixes of a listing with the
 * delimiter "/". Creating a folder writes an empty object whose key ends in "/", which makes it
 * show in listings before anything is put in it.
 *
 * A folder name always ends in "/" here, so "photos" never takes in "photos-old/" or
 * "photos.txt", which share its text but are not in it.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { storageFailure } from '../../shared/storage/errors';
import { walkListing } from './listing';
import * as check from './validate';

/**
 * A folder as typed ("photos", "photos/", "reports/2026") → its prefix, ending in one "/".
 * Refused: an empty name (the whole bucket), a name that is only slashes, and "." or ".."
 * segments (see validate.objectKey).
 */
export function folderPrefix(node: INode, itemIndex: number, raw: unknown, field = 'Folder'): string {
	const typed = String(raw ?? '').trim();
	const name = typed.replace(/\/+$/, '');
	if (!name) {
		throw check.inputError(
			node,
			itemIndex,
			typed ? `The "${field}" field holds only "/"` : `The "${field}" field is empty`,
			'Enter the folder\'s path, e.g. photos/ or reports/2026/. A folder is never the whole bucket.',
		);
	}
	return check.objectKey(node, itemIndex, `${name}/`, field);
}

/** A parent folder that may be empty (the top of the bucket). */
export function parentPrefix(node: INode, itemIndex: number, raw: unknown, field: string): string {
	const typed = String(raw ?? '').trim();
	return typed.replace(/\/+$/, '') ? folderPrefix(node, itemIndex, typed, field) : '';
}

export interface FolderCount {
	/** Every key under the prefix, when there are at most `keep`. */
	keys: string[];
	/** How many distinct keys there are under the prefix. */
	count: number;
}

/**
 * Counts the keys under `prefix` (the folder's own key included), each once, keeping them while
 * there are at most `keep`. The listing gives each entry once (walkListing drops what a service
 * lists again); a common prefix is never a key (a service may send CommonPrefixes even without a
 * delimiter), so it is neither counted nor kept. A listing that holds a key outside the prefix
 * (a service that ignored the prefix) is refused: nothing outside a folder may ever be acted on.
 */
export async function keysUnder(ctx: IExecuteFunctions, itemIndex: number, bucket: string, prefix: string, keep: number): Promise<FolderCount> {
	const keys: string[] = [];
	let count = 0;
	for await (const page of walkListing(ctx, itemIndex, bucket, { prefix })) {
		for (const entry of page.entries) {
			if (entry.item.type !== 'object') continue;
			const key = entry.name;
			if (!key.startsWith(prefix)) {
				throw storageFailure(
					ctx.getNode(),
					`The listing of "${prefix}" in ${bucket} holds "${key}", which is not in that folder`,
					`The service did not apply the prefix, so the node cannot tell what is in the folder. Nothing was deleted (X-Trans-Id ${page.transId}).`,
					itemIndex,
				);
			}
			count++;
			if (count <= keep) keys.push(key);
		}
	}
	return { keys: count <= keep ? keys : [], count };
}

import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { runTriggerPoll } from '../shared/poll/poll';
import { bucketField } from '../VendorObjectStorage/helpers/fields';
import { searchBuckets } from '../VendorObjectStorage/methods/listSearch';
import { objectTrigger } from './objectPoll';

/**
 * New and changed objects in a bucket (the poll: objectPoll.ts; the summary: summary.ts).
 *
 * What the service offers. No events and no "list what changed since": only List Objects, in
 * lexicographic order of the keys, 1,000 entries per request, paged by marker, each entry with
 * its LastModified and ETag (docs/vendor/object-storage.md#listing). A new key can sort anywhere,
 * so every poll lists the watched prefix completely: one request per 1,000 objects, nothing
 * else (no request per object, unless Download File is on). Without subfolders the listing is
 * delimited by "/" and the service skips each subfolder as one entry.
 *
 * Why not a LastModified watermark alone. A listing is not a snapshot: an object written while
 * it runs, under a key the listing has already passed, is not in it, yet its LastModified may be
 * below the highest one the listing saw, so a watermark taken from the listing skips it for
 * good. A watermark from the service's clock at the poll's start (the Date header of the first
 * answer) minus a margin does not, but then the objects inside the margin must be remembered to
 * be emitted once, LastModified may be earlier than the moment an object becomes visible (a
 * service may stamp the start of a long upload: docs/vendor/readings.md#r70), and "changed"
 * cannot be told from "new" without knowing whether the key existed, which a state of 64 KiB
 * cannot know for 100,000 keys by keeping them.
 *
 * What the state holds (ObjectState, about 64,000 characters at most whatever the bucket size):
 * - a difference summary of the last listing (summary.ts: 1,800 cells of 18 bytes): subtracted
 *   from the summary of the next listing, it gives back the objects (key id and ETag id) that
 *   only one of the two listings holds, up to about 1,400 of them;
 * - the recent list: every object of the last listing modified at or after `w`, which is the
 *   service's time when that listing began (`t`, the Date header of its first answer) minus 10
 *   minutes, at most 1,024 of them (12 bytes each); when more objects are that recent, `w`
 *   moves up to the latest second that keeps them under the bound;
 * - the age classes of the last listing (summary.ts AgeClasses: per class of LastModified, 10
 *   minutes before `w`, then doubling, the count and a 64-bit hash of its objects; 544 characters)
 *   and its key blocks (blocks.ts: at most 128 runs of consecutive keys, each with its last key's
 *   id, count and hash; 3,416 characters).
 *
 * One poll. List; an object modified at or after the previous `w` that is not in the recent list
 * is new or changed, and an object of the recent list no longer listed is gone: exact, whatever
 * their number (a burst of uploads). Both are taken out of the difference of the summaries; what
 * is left (objects older than the window that appeared, changed or were removed: late uploads,
 * overwritten or deleted old files) is read back from it. A key that left the listing with one
 * ETag and is there with another is "changed"; otherwise "new". When more than about 1,400
 * such older differences happen between two polls (a mass deletion of old files, thousands of
 * late uploads), the summary cannot be read back completely (docs/vendor/readings.md#r70): the
 * objects found through the window and read back are still emitted exactly once, marked
 * "newOrChanged" where their key cannot be placed, and so is, at least once and with
 * `repeatPossible: true`, every other object that may be among those not read back: older than
 * the window, of an age class and in a run of keys whose count or hash changed, and with all three
 * of its cells of the difference still filled. Nothing new or changed is left out; some objects that did not change
 * may come again (test/bench/objectTrigger.bench.js measures how many); the poll logs a warning.
 * A key a service lists twice in one listing (readings R74) is one object.
 *
 * Objects written while a poll runs: if the listing reaches their key after the write, this poll
 * sees them and its state holds them; if it had passed the key, the next poll sees them, and since
 * their LastModified is not before `t` they are in its window. Either way once. Failures and
 * restarts: the state is written only after the whole poll succeeded (shared/poll/poll.ts), and a
 * poll always compares with the last successful listing, so what a failed poll would have seen
 * comes with the next one. The same content written again (same ETag) is no change; a deleted
 * object emits nothing; keys ending in "/" are folder markers, not files.
 */
export class VendorObjectStorageTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Object Storage Trigger',
		// n8n's node panel lists a trigger under the action node whose internal name is the trigger's
		// without "Trigger" (n8n-nodes-vendor-cloud.vendorObjectStorage): one "Vendor Object Storage"
		// entry with this trigger's events under Triggers and the operations under Actions
		name: 'vendorObjectStorageTrigger',
		icon: { light: 'file:../../icons/objectStorageTrigger.svg', dark: 'file:../../icons/objectStorageTrigger.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		subtitle: '={{($parameter["event"] === "newOrChanged" ? "New or changed in " : "New in ") + ($parameter["bucket"].cachedResultName || $parameter["bucket"].value || $parameter["bucket"]) + "/" + ($parameter["prefix"] || "")}}',
		// n8n shows this text for the merged "Vendor Object Storage" entry of the node panel, so it names both roles
		description: 'Object storage: start a workflow when a file is added to or changed in a bucket, or manage buckets, objects, ACLs and uploads',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/triggers.md#vendor-object-storage-trigger',
		defaults: { name: 'Vendor Object Storage Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorObjectStorageApi', required: true }],
		properties: [
			{
				// "Trigger On": the node panel offers each option as its own trigger action
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				default: 'new',
				options: [
					{
						name: 'New Object',
						value: 'new',
						action: 'When a file is added',
						description: 'An object under a key that was not listed at the previous poll',
					},
					{
						name: 'New or Changed Object',
						value: 'newOrChanged',
						action: 'When a file is added or changed',
						description: 'Also an object written again with other content (another ETag)',
					},
				],
				description: 'Which objects start the workflow',
			},
			bucketField,
			{
				displayName: 'Folder',
				name: 'prefix',
				type: 'string',
				default: '',
				placeholder: 'e.g. inbox/',
				description: 'Only objects whose key starts with this, such as a folder ending in "/"; empty watches the whole bucket. Case-sensitive.',
			},
			{
				displayName: 'Include Subfolders',
				name: 'includeSubfolders',
				type: 'boolean',
				default: true,
				description: 'Whether objects in folders below the folder count too; off, the service skips each subfolder as a whole',
			},
			{
				displayName: 'Download File',
				name: 'download',
				type: 'boolean',
				default: false,
				description: 'Whether to download each new or changed object into a binary field (exactly the version listed)',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				placeholder: 'e.g. data',
				hint: 'The name of the output binary field to put the file in',
				displayOptions: { show: { download: [true] } },
			},
		],
	};

	methods = { listSearch: { searchBuckets } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runTriggerPoll(this, objectTrigger(this));
	}
}

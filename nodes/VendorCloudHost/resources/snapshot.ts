import { InputError } from '../../shared/errors';
import type { OperationDecl } from '../../shared/api/declarations';
import { locator, nameStr, required, str } from '../../shared/api/fields';
import { field, first, time, type SimplifySpec } from '../../shared/api/simplify';
import { afterRestoreWaitUntilRunning, waitUntilRunningExtras } from '../hostWait';
import { restoredHostSimple } from './host';

const hostScope = () => ({
	...locator('iid', 'host', 'Host', 'Narrows the snapshot list below to this host (not sent)'),
	required: false,
	topLevel: true,
	notSent: true,
});
const snapshot = (description: string) => locator('id', 'snapshot', 'Snapshot', description);

/** Simplified snapshots, as listed. */
export const SNAPSHOT_SIMPLE: SimplifySpec = {
	id: field('id'),
	snapshotId: field('snapshot_id'),
	name: field('name'),
	host: field('instance.name'),
	hostId: field('instance.id'),
	hostInstanceId: field('instance.instance_id'),
	// no documented meaning for snapshot status values (docs/vendor/readings.md#r5): shown as they came
	status: field('status'),
	note: field('note'),
	updated: time('updatetime'),
	created: time('createtime'),
};

/**
 * What Create, Update and Delete answer, simplified like a listed snapshot: the host as
 * `instance_id`, a `name`, and Create also `snaphsot_name` (spelled so, docs/vendor/readings.md#r4).
 * The documents do not say whose `name` an answer gives (the host's or the snapshot's) nor what
 * `snaphsot_name` is, so both are given as they came, under their own names (`name`, `snaphsotName`).
 */
export const SNAPSHOT_ACTION_SIMPLE: SimplifySpec = {
	...SNAPSHOT_SIMPLE,
	snaphsotName: field('snaphsot_name'),
	hostInstanceId: first('instance.instance_id', 'instance_id'),
};

export const snapshotOperations: OperationDecl[] = [
	{
		endpoint: 'instance/snapshotList',
		path: 'instance/snapshotList',
		resource: 'snapshot',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many snapshots',
		description: 'List host snapshots, optionally of one host',
		list: { paged: true },
		readOnly: true,
		fields: [{ ...locator('iid', 'host', 'Host', 'Only snapshots of this host; leave empty for the snapshots of all hosts'), required: false, topLevel: true }],
		simplify: SNAPSHOT_SIMPLE,
	},
	{
		endpoint: 'instance/snapshotAdd',
		path: 'instance/snapshotAdd',
		resource: 'snapshot',
		operation: 'create',
		name: 'Create',
		action: 'Create a snapshot',
		description: 'Take a snapshot of a host that it can later be rolled back to',
		simplify: SNAPSHOT_ACTION_SIMPLE,
		fields: [
			locator('iid', 'host', 'Host', 'The host to snapshot'),
			required(nameStr('name', 'Name', 'Name of the snapshot', { placeholder: 'e.g. before-upgrade' })),
			str('note', 'Note', 'Remark shown with the snapshot'),
		],
	},
	{
		endpoint: 'instance/snapshotUpdate',
		path: 'instance/snapshotUpdate',
		resource: 'snapshot',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a snapshot',
		description: 'Change the note of a snapshot',
		simplify: SNAPSHOT_ACTION_SIMPLE,
		fields: [hostScope(), snapshot('The snapshot to change'), str('note', 'Note', 'New remark; leave empty to clear it')],
		prepare: (body) => {
			if (body.note === undefined) throw new InputError('Nothing to change', 'Add Note under "Update Fields".');
			return body;
		},
	},
	{
		endpoint: 'instance/snapshotDelete',
		path: 'instance/snapshotDelete',
		resource: 'snapshot',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a snapshot',
		description: 'Delete a snapshot of a host',
		simplify: SNAPSHOT_ACTION_SIMPLE,
		notice: "The snapshot is deleted: the vendor's documentation names no recycle bin for snapshots (it does for hosts, cloud disks and backups)",
		deletes: true,
		fields: [hostScope(), snapshot('The snapshot to delete')],
	},
	{
		endpoint: 'instance/snapshotRollback',
		path: 'instance/snapshotRollback',
		resource: 'snapshot',
		operation: 'rollback',
		name: 'Roll Back',
		action: 'Roll back a host to a snapshot',
		description: 'Return a host to the state saved in one of its snapshots',
		notice: "Rolling back returns the host to the snapshot; everything changed since it was taken is lost",
		fields: [hostScope(), snapshot('The snapshot to roll back to')],
		simplify: restoredHostSimple('snapshot'),
		extras: waitUntilRunningExtras('the host is'),
		after: afterRestoreWaitUntilRunning('instance/snapshotList'),
	},
];

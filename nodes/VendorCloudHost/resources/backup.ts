import { recordsWithMessage } from '../../shared/api/output';
import type { OperationDecl } from '../../shared/api/declarations';
import { choice, locator, nameStr, required, str } from '../../shared/api/fields';
import { BACKUP_STATUS, BACKUP_TYPES, CODES } from '../../shared/api/codes';
import { code, field, first, number, time, type SimplifySpec } from '../../shared/api/simplify';
import { InputError } from '../../shared/errors';
import { afterWaitForBackup, waitForCompletionExtras } from '../backupWait';
import { afterRestoreWaitUntilRunning, waitUntilRunningExtras } from '../hostWait';
import { restoredHostSimple } from './host';

/** Simplified backup records (backupList has 11 fields, one a host object). */
export const BACKUP_SIMPLE: SimplifySpec = {
	id: field('id'),
	backupId: field('backup_id'),
	name: field('name'),
	host: field('instance.name'),
	hostId: field('instance.id'),
	hostInstanceId: field('instance.instance_id'),
	type: code('backup_type', CODES.backupType),
	value: number('value'),
	status: code('status', CODES.backupStatus),
	progress: number('progress'),
	note: field('note'),
	created: time('createtime'),
};

/**
 * Backup > Create, simplified like a listed backup: with Wait for Completion the output is the
 * backup as listed, with `wait`; without it, the service's answer: `instance_id`, `name`,
 * `backup_id`, `snaphsot_name` (spelled so, docs/vendor/readings.md#r4) and `note`. Update and
 * Delete answer `instance_id`, `backup_id`, `name` (and Delete a message). The documents do not
 * say whose `name` an answer gives (the host's or the backup's) nor what `snaphsot_name` is, so
 * both are given as they came, under their own names (`name`, `snaphsotName`).
 */
export const BACKUP_ACTION_SIMPLE: SimplifySpec = {
	...BACKUP_SIMPLE,
	snaphsotName: field('snaphsot_name'),
	hostInstanceId: first('instance.instance_id', 'instance_id'),
	wait: field('wait'),
	message: field('message'),
};

const hostScope = () => ({
	...locator('iid', 'host', 'Host', 'Narrows the backup list below to this host (not sent)'),
	required: false,
	topLevel: true,
	notSent: true,
});
const backup = (description: string) => locator('id', 'backup', 'Backup', description);

export const backupOperations: OperationDecl[] = [
	{
		endpoint: 'instance/backupList',
		path: 'instance/backupList',
		resource: 'backup',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many backups',
		description: 'List host backups with their status and progress, optionally of one host or in one state',
		list: { paged: true },
		readOnly: true,
		simplify: BACKUP_SIMPLE,
		fields: [
			{ ...locator('iid', 'host', 'Host', 'Only backups of this host; leave empty for the backups of all hosts'), required: false, topLevel: true },
			choice('status', 'Status', BACKUP_STATUS, 'Only backups in this state', { default: 0 }),
		],
	},
	{
		endpoint: 'instance/backupAdd',
		path: 'instance/backupAdd',
		resource: 'backup',
		operation: 'create',
		name: 'Create',
		action: 'Create a backup',
		description: "Start a backup of a host's system disk, or of its system and data disks",
		fields: [
			locator('iid', 'host', 'Host', 'The host to back up'),
			required(nameStr('name', 'Name', 'Name of the backup', { placeholder: 'e.g. before-upgrade' })),
			required(choice('backup_type', 'Backup Type', BACKUP_TYPES, 'What the backup holds', { default: 1 })),
			str('note', 'Note', 'Remark shown with the backup'),
		],
		simplify: BACKUP_ACTION_SIMPLE,
		extras: waitForCompletionExtras(),
		after: afterWaitForBackup,
	},
	{
		endpoint: 'instance/backupUpdate',
		path: 'instance/backupUpdate',
		resource: 'backup',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a backup',
		description: 'Change the note of a backup',
		simplify: BACKUP_ACTION_SIMPLE,
		fields: [hostScope(), backup('The backup to change'), str('note', 'Note', 'New remark; leave empty to clear it')],
		prepare: (body) => {
			if (body.note === undefined) throw new InputError('Nothing to change', 'Add Note under "Update Fields".');
			return body;
		},
	},
	{
		endpoint: 'instance/backupDelete',
		path: 'instance/backupDelete',
		resource: 'backup',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a backup',
		description: 'Move a backup to the recycle bin',
		notice: 'The backup goes to the recycle bin; the service keeps it for 2 hours, then it is gone',
		deletes: true,
		simplify: BACKUP_ACTION_SIMPLE,
		fields: [hostScope(), backup('The backup to delete')],
		output: recordsWithMessage,
	},
	{
		endpoint: 'instance/backupRestore',
		path: 'instance/backupRestore',
		resource: 'backup',
		operation: 'restore',
		name: 'Restore',
		action: 'Restore a backup',
		description: 'Restore a host from one of its backups',
		notice: "Restoring returns the host's backed-up disks to the backup; everything changed on them since is lost",
		fields: [hostScope(), backup('The backup to restore')],
		simplify: restoredHostSimple('backup'),
		extras: waitUntilRunningExtras('the restored host is'),
		after: afterRestoreWaitUntilRunning('instance/backupList'),
	},
];

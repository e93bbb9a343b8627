/**
 * Waiting for a backup to complete (the "Wait for Completion" option of Backup > Create): the
 * host's backups (instance/backupList) are read with the pauses of hostWait.ts until the backup
 * is completed, ends otherwise (failed, in arrears, recycle bin: BACKUP_STATES in
 * ../shared/api/codes/states.ts), or the timeout passes. The record says what the wait saw (`wait`).
 */
import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { BACKUP_IN_ARREARS, backupState, codeKey } from '../shared/api/codes';
import type { OperationContext } from '../shared/api/declarations';
import { apiRequestAllItems } from '../shared/api/paging';
import { waitUntil } from '../shared/wait';
import { WAIT_PAUSE, timeoutOf, waitTimeoutProperty } from './hostWait';

/** "Wait for Completion" and its timeout, for backups. */
export function waitForCompletionExtras(): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: false,
			description: 'Whether to wait until the backup is completed; the output is then the backup record as listed, with "wait": the statuses seen',
		},
		waitTimeoutProperty('waitForCompletion'),
	];
}

/**
 * The `after` of Backup > Create: with Wait for Completion on, the backup record as listed once it
 * is completed, with "wait": the statuses seen. Fails when it ends otherwise or the timeout passes.
 */
export async function afterWaitForBackup(records: IDataObject[], ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	if (!ctx.param<boolean>('waitForCompletion', false)) return records;
	const node = ctx.fn.getNode();
	const created = records[0] ?? {};
	const matches = (b: IDataObject) =>
		(created.backup_id !== undefined && String(b.backup_id) === String(created.backup_id)) ||
		(created.backup_id === undefined && created.id !== undefined && String(b.id) === String(created.id));
	const deadline = Date.now() + timeoutOf(ctx);
	const observed: string[] = [];
	let reads = 0;
	let last: { backup: IDataObject; name: string } | undefined;
	const look = async (): Promise<IDataObject[] | undefined> => {
		const backups = await apiRequestAllItems(ctx.fn, 'instance/backupList', { iid: body.iid }, { itemIndex: ctx.itemIndex });
		const backup = backups.find(matches);
		if (!backup) {
			throw new NodeOperationError(node, `Backup ${String(created.backup_id ?? created.id ?? '')} was not found while waiting for it`, {
				itemIndex: ctx.itemIndex,
				description: 'Check the backups of the host with Backup > Get Many.',
			});
		}
		const state = backupState(backup.status);
		const name = state?.name ?? `Status ${codeKey(backup.status) ?? 'missing'}`;
		last = { backup, name };
		reads++;
		if (observed[observed.length - 1] !== name) observed.push(name);
		if (state?.final && !state.failure) {
			return [{ ...backup, wait: { for: 'completed', observed, reads, proven: true, note: `The backup was listed as ${observed.join(', then ')}.` } }];
		}
		if (state?.final) {
			const arrears = codeKey(backup.status) === BACKUP_IN_ARREARS;
			throw new NodeOperationError(node, `Backup "${String(backup.name)}" is ${state.meaning} instead of completed`, {
				itemIndex: ctx.itemIndex,
				description: arrears
					? 'Recharge the account (Vendor Account & Billing > Balance), then check the backup with Backup > Get Many or create a new one.'
					: 'Check the backup and the host, then create a new backup.',
			});
		}
		return undefined;
	};
	const timedOut = () =>
		new NodeOperationError(node, `Timed out waiting for backup "${String(last!.backup.name)}" (${last!.name.toLowerCase()}, progress ${String(last!.backup.progress ?? '?')}%)`, {
			itemIndex: ctx.itemIndex,
			description: 'The backup was started. Raise "Timeout (Seconds)", or check it later with Backup > Get Many.',
		});
	return await waitUntil({ deadline, pause: WAIT_PAUSE, look, timedOut });
}

/**
 * Waiting for hosts and backups (the "Wait Until Running" and "Wait for Completion" options).
 * The service has no events (seed 001 section 6), so the node polls the list endpoints with a
 * growing pause (0.2 s doubling up to 5 s) until the object reaches its goal, a final bad state,
 * or the timeout. Pauses use `sleep` from n8n-workflow.
 */
import { NodeOperationError, sleep, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { OperationContext } from '../shared/api/declarations';
import { HOST_STATUS_NAMES } from '../shared/api/enums';
import { apiRequest, apiRequestAllItems, payload } from '../shared/api/transport';

const RUNNING = 1;
/** Host states that will not turn into "running" by themselves: abnormal, recycle bin. */
const HOST_FINAL_BAD = new Set([3, 9]);
const BACKUP_COMPLETED = 1;
const BACKUP_STATUS_NAMES: Record<string, string> = { '0': 'in progress', '1': 'completed', '2': 'failed', '3': 'in arrears', '4': 'in the recycle bin' };

const FIRST_PAUSE_MS = 200;
const MAX_PAUSE_MS = 5000;
const DEFAULT_TIMEOUT_S = 300;

/** "Wait Until Running" and its timeout, for operations that leave hosts starting. */
export function waitUntilRunningExtras(subject: string): INodeProperties[] {
	return [
		{
			displayName: 'Wait Until Running',
			name: 'waitUntilRunning',
			type: 'boolean',
			default: false,
			description: `Whether to wait until ${subject} running; the output is then the host records as listed`,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			default: DEFAULT_TIMEOUT_S,
			typeOptions: { minValue: 1 },
			description: 'How long to wait before the node fails',
			displayOptions: { show: { waitUntilRunning: [true] } },
		},
	];
}

/** "Wait for Completion" and its timeout, for backups. */
export function waitForCompletionExtras(): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: false,
			description: 'Whether to wait until the backup is completed; the output is then the backup record as listed',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			default: DEFAULT_TIMEOUT_S,
			typeOptions: { minValue: 1 },
			description: 'How long to wait before the node fails',
			displayOptions: { show: { waitForCompletion: [true] } },
		},
	];
}

const idList = (v: unknown): number[] =>
	String(v ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter((s) => /^\d+$/.test(s))
		.map(Number);

function timeoutOf(ctx: OperationContext): number {
	const s = Number(ctx.param('waitTimeout', DEFAULT_TIMEOUT_S));
	return (Number.isFinite(s) && s > 0 ? s : DEFAULT_TIMEOUT_S) * 1000;
}

const statusName = (host: IDataObject) => HOST_STATUS_NAMES[String(host.status)]?.toLowerCase() ?? `in status ${String(host.status)}`;
const hostLabel = (host: IDataObject | undefined, id: number) => (host?.name ? `"${String(host.name)}" (${id})` : String(id));

/**
 * Numeric ids of the hosts an answer names. The seed's answers carry `instance_id` (several
 * comma-joined); where the answer has no numeric `id`, the ids are found by listing the hosts.
 */
export async function hostIdsOf(ctx: OperationContext, records: IDataObject[], known?: unknown): Promise<number[]> {
	const fromKnown = idList(known);
	if (fromKnown.length) return fromKnown;
	const fromRecords = records.flatMap((r) => idList(r.id));
	if (fromRecords.length) return fromRecords;
	const wanted = records.flatMap((r) =>
		String(r.instance_id ?? '')
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean),
	);
	if (!wanted.length) return [];
	const hosts = await apiRequestAllItems(ctx.fn, 'instance/list', {}, { itemIndex: ctx.itemIndex });
	return wanted.map((instanceId) => {
		const host = hosts.find((h) => String(h.instance_id) === instanceId || String(h.instanceid) === instanceId);
		if (!host) {
			throw new NodeOperationError(ctx.fn.getNode(), `Host ${instanceId} was not found while waiting for it to run`, {
				itemIndex: ctx.itemIndex,
				description: 'The operation was sent; check the host with Host > Get Many.',
			});
		}
		return Number(host.id);
	});
}

async function readHost(ctx: OperationContext, id: number): Promise<IDataObject | undefined> {
	const envelope = await apiRequest(ctx.fn, 'instance/list', { id, page: 1, limit: 1 }, { itemIndex: ctx.itemIndex, read: true });
	const rows = payload(envelope);
	return Array.isArray(rows) ? (rows as IDataObject[]).find((r) => Number(r.id) === id) : undefined;
}

/**
 * Polls instance/list (filter id) until every host is running (status 1). Fails when a host
 * becomes abnormal (3) or goes to the recycle bin (9), disappears, or the timeout passes.
 * Returns the host records in the order of `ids`.
 */
export async function waitForHostsRunning(ctx: OperationContext, ids: number[]): Promise<IDataObject[]> {
	const node = ctx.fn.getNode();
	const deadline = Date.now() + timeoutOf(ctx);
	const latest = new Map<number, IDataObject>();
	let pending = [...new Set(ids)];
	let pause = FIRST_PAUSE_MS;
	for (;;) {
		for (const id of pending) {
			const host = await readHost(ctx, id);
			if (!host) {
				throw new NodeOperationError(node, `Host ${id} disappeared while waiting for it to run`, {
					itemIndex: ctx.itemIndex,
					description: 'Check the host with Host > Get Many.',
				});
			}
			latest.set(id, host);
			if (HOST_FINAL_BAD.has(Number(host.status))) {
				throw new NodeOperationError(node, `Host ${hostLabel(host, id)} is ${statusName(host)} instead of running`, {
					itemIndex: ctx.itemIndex,
					description: host.suspend_note ? `The service says: ${String(host.suspend_note)}` : 'Check the host in the vendor console.',
				});
			}
		}
		pending = pending.filter((id) => Number(latest.get(id)!.status) !== RUNNING);
		if (!pending.length) return ids.map((id) => latest.get(id)!);
		if (Date.now() + pause > deadline) {
			const states = pending.map((id) => `${hostLabel(latest.get(id), id)} is ${statusName(latest.get(id)!)}`).join(', ');
			throw new NodeOperationError(node, `Timed out waiting for hosts to run: ${states}`, {
				itemIndex: ctx.itemIndex,
				description: 'The operation itself was accepted. Raise "Timeout (Seconds)", or check the hosts later with Host > Get Many.',
			});
		}
		await sleep(pause);
		pause = Math.min(pause * 2, MAX_PAUSE_MS);
	}
}

/** The `after` hook of operations with "Wait Until Running". */
export function afterWaitUntilRunning(idsFromBody?: (body: IDataObject) => unknown) {
	return async (records: IDataObject[], ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> => {
		if (!ctx.param<boolean>('waitUntilRunning', false)) return records;
		const ids = await hostIdsOf(ctx, records, idsFromBody ? idsFromBody(body) : undefined);
		return await waitForHostsRunning(ctx, ids);
	};
}

/**
 * Polls instance/backupList (filter iid) until the backup is completed (status 1); fails when it
 * ends otherwise (failed, in arrears, recycle bin) or the timeout passes.
 */
export async function afterWaitForBackup(records: IDataObject[], ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	if (!ctx.param<boolean>('waitForCompletion', false)) return records;
	const node = ctx.fn.getNode();
	const created = records[0] ?? {};
	const matches = (b: IDataObject) =>
		(created.backup_id !== undefined && String(b.backup_id) === String(created.backup_id)) ||
		(created.backup_id === undefined && created.id !== undefined && String(b.id) === String(created.id));
	const deadline = Date.now() + timeoutOf(ctx);
	let pause = FIRST_PAUSE_MS;
	for (;;) {
		const backups = await apiRequestAllItems(ctx.fn, 'instance/backupList', { iid: body.iid }, { itemIndex: ctx.itemIndex });
		const backup = backups.find(matches);
		if (!backup) {
			throw new NodeOperationError(node, `Backup ${String(created.backup_id ?? created.id ?? '')} was not found while waiting for it`, {
				itemIndex: ctx.itemIndex,
				description: 'Check the backups of the host with Backup > Get Many.',
			});
		}
		const status = Number(backup.status);
		if (status === BACKUP_COMPLETED) return [backup];
		if (status !== 0) {
			throw new NodeOperationError(node, `Backup "${String(backup.name)}" is ${BACKUP_STATUS_NAMES[String(status)] ?? `in status ${status}`} instead of completed`, {
				itemIndex: ctx.itemIndex,
				description: 'Check the backup and the host, then create a new backup.',
			});
		}
		if (Date.now() + pause > deadline) {
			throw new NodeOperationError(node, `Timed out waiting for backup "${String(backup.name)}" (progress ${String(backup.progress ?? '?')}%)`, {
				itemIndex: ctx.itemIndex,
				description: 'The backup was started. Raise "Timeout (Seconds)", or check it later with Backup > Get Many.',
			});
		}
		await sleep(pause);
		pause = Math.min(pause * 2, MAX_PAUSE_MS);
	}
}

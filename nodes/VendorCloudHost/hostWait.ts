/**
 * Waiting for hosts to run (the "Wait Until Running" option of Create, Start, Reboot, Reinstall,
 * Restore and Roll Back). The service has no events, so the node reads the hosts (instance/list)
 * with a growing pause (0.2 s doubling up to 5 s, ../shared/wait.ts) until every host runs, one
 * reaches a final bad state, or the timeout passes. backupWait.ts waits for backups the same way.
 *
 * A wait says in each output record what it saw (`wait`), and claims no more than that:
 *  - `before`: the host's status read just before the request was sent (Start, Reboot, Reinstall;
 *    null where it was not read), `observed`: the statuses read afterwards, in order (repeats
 *    collapsed), `reads`: how many reads that took;
 *  - `proven`: whether those statuses show the operation took effect, and `note` in words.
 *    The documentation gives no status for a host that is rebooting (only `start` has a result status), so
 *    a reboot of a running host that is listed as running at once proves nothing: `proven` is
 *    false and the note says so. A reinstall (restore, roll back) is proven by a reinstalling (or
 *    other not-running) status seen before running; a start and a create by running itself.
 * Status values are read as numbers or strings alike (`codeKey`).
 */
import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { AfterCall, BeforeSend, OperationContext } from '../shared/api/declarations';
import { HOST_RUNNING, HOST_WAIT_FAILURES, codeKey, hostStatusName, hostStatusPhrase } from '../shared/api/codes';
import { listRows } from '../shared/api/envelope';
import { apiRequestAllItems } from '../shared/api/paging';
import { apiRequest } from '../shared/api/transport';
import { growingPause, waitUntil } from '../shared/wait';

/** Pauses between looks: 0.2 s, doubling up to 5 s. */
export const WAIT_PAUSE = growingPause(200, 5000);
const DEFAULT_TIMEOUT_S = 300;

/** "Timeout (Seconds)" of a wait, shown while its switch (`waitUntilRunning`, `waitForCompletion`) is on. */
export function waitTimeoutProperty(switchName: string): INodeProperties {
	return {
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		default: DEFAULT_TIMEOUT_S,
		typeOptions: { minValue: 1 },
		description: 'How long to wait before the node fails',
		displayOptions: { show: { [switchName]: [true] } },
	};
}

/** "Wait Until Running" and its timeout, for operations that leave hosts starting. */
export function waitUntilRunningExtras(subject: string): INodeProperties[] {
	return [
		{
			displayName: 'Wait Until Running',
			name: 'waitUntilRunning',
			type: 'boolean',
			default: false,
			description: `Whether to wait until ${subject} running; the output is then the host records as listed, each with "wait": the statuses seen and whether they prove the operation took effect`,
		},
		waitTimeoutProperty('waitUntilRunning'),
	];
}

export const idList = (v: unknown): number[] =>
	(Array.isArray(v) ? v.map(String) : String(v ?? '').split(','))
		.map((s) => s.trim())
		.filter((s) => /^\d+$/.test(s))
		.map(Number);

/** The wait's "Timeout (Seconds)" in ms. */
export function timeoutOf(ctx: OperationContext): number {
	const s = Number(ctx.param('waitTimeout', DEFAULT_TIMEOUT_S));
	return (Number.isFinite(s) && s > 0 ? s : DEFAULT_TIMEOUT_S) * 1000;
}

const hostLabel = (host: IDataObject | undefined, id: number) => (host?.name ? `"${String(host.name)}" (${id})` : String(id));

/* ---------------------------------------------------------------- what a wait saw */

/** What the wait is for, from the operation that started it. */
type WaitKind = 'create' | 'start' | 'reboot' | 'reinstall' | 'other';

function waitKind(ctx: OperationContext): WaitKind {
	const resource = String(ctx.param('resource', ''));
	const operation = String(ctx.param('operation', ''));
	if (resource === 'host' && (operation === 'create' || operation === 'start' || operation === 'reboot')) return operation;
	if ((resource === 'host' && operation === 'reinstall') || (resource === 'backup' && operation === 'restore') || (resource === 'snapshot' && operation === 'rollback')) {
		return 'reinstall';
	}
	return 'other';
}

const ACTION: Record<WaitKind, string> = {
	create: 'the creation',
	start: 'the start',
	reboot: 'the reboot',
	reinstall: 'the request',
	other: 'the request',
};

/** Statuses read before the request, per operation context (set by `readStatusesBefore`). */
const statusesBefore = new WeakMap<OperationContext, Map<number, string | null>>();

interface Watch {
	/** Status key read before the request: null when that read found no status, undefined when not read. */
	before: string | null | undefined;
	/** Status keys read after the request, in order, repeats collapsed. */
	observed: string[];
	reads: number;
}

function see(watch: Watch, status: unknown): void {
	const key = codeKey(status) ?? '';
	watch.reads++;
	if (watch.observed[watch.observed.length - 1] !== key) watch.observed.push(key);
}

const names = (keys: string[]) => keys.map((k) => hostStatusName(k) ?? 'No Status');

/** The `wait` field of a host that was seen running: what was seen and what it proves. */
export function hostWaitReport(kind: WaitKind, watch: Watch): IDataObject {
	const before = watch.before === undefined || watch.before === null ? null : watch.before;
	const beforeName = before === null ? null : hostStatusName(before);
	const seen = names(watch.observed);
	const notRunningFirst = watch.observed.some((k) => k !== HOST_RUNNING); // a status other than running, then running
	const seenText = seen.join(', then ');
	let proven: boolean;
	let note: string;
	switch (kind) {
		case 'create':
			proven = true;
			note = `The new host was listed as ${seenText}.`;
			break;
		case 'start':
			proven = true;
			note =
				before === null
					? `Listed as ${seenText} after the start.`
					: before === HOST_RUNNING
						? `It was already Running before the start, and is Running.`
						: `It was ${beforeName} before the start and was listed as ${seenText} after it.`;
			break;
		case 'reboot':
			proven = (before !== null && before !== HOST_RUNNING) || notRunningFirst;
			note = proven
				? `It was ${beforeName ?? 'not read'} before the reboot and was listed as ${seenText} after it.`
				: `The reboot was sent. The host was ${beforeName ?? 'not read'} before it and was listed as Running right after it; the service shows no restart in progress, so this cannot confirm that the restart has finished. If the host still does not answer in a few minutes, check it with Host > Get Many or reboot it again.`;
			break;
		case 'reinstall':
			proven = notRunningFirst;
			note = proven
				? `It was listed as ${seenText} after the request.`
				: 'It was listed as Running at the first read after the request, and no Reinstalling status was seen, so this does not show that the reinstall has finished (or started).';
			break;
		default:
			proven = notRunningFirst || (before !== null && before !== HOST_RUNNING);
			note = `It was listed as ${seenText} after ${ACTION[kind]}.`;
	}
	return { for: 'running', operation: kind, before: beforeName, observed: seen, reads: watch.reads, proven, note };
}

/**
 * Numeric ids of the hosts an answer names. The documented answers carry `instance_id` (several
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
	return listRows(envelope).find((r) => Number(r.id) === id);
}

/**
 * Polls instance/list (filter id) until every host is running (status 1). Fails when a host
 * becomes abnormal (3), is being deleted (7) or goes to the recycle bin (9), disappears, or the
 * timeout passes. Returns the host records in the order of `ids`, each with its `wait` report.
 */
export async function waitForHostsRunning(
	ctx: OperationContext,
	ids: number[],
	kind: WaitKind = 'other',
	before: Map<number, string | null> = new Map(),
): Promise<IDataObject[]> {
	const node = ctx.fn.getNode();
	const deadline = Date.now() + timeoutOf(ctx);
	const latest = new Map<number, IDataObject>();
	const watches = new Map<number, Watch>(ids.map((id) => [id, { before: before.get(id), observed: [], reads: 0 }]));
	let pending = [...new Set(ids)];
	const look = async (): Promise<IDataObject[] | undefined> => {
		for (const id of pending) {
			const host = await readHost(ctx, id);
			if (!host) {
				throw new NodeOperationError(node, `Host ${id} disappeared while waiting for it to run`, {
					itemIndex: ctx.itemIndex,
					description: 'Check the host with Host > Get Many.',
				});
			}
			latest.set(id, host);
			const watch = watches.get(id)!;
			see(watch, host.status);
			const key = codeKey(host.status);
			if (key !== undefined && HOST_WAIT_FAILURES[key]) {
				const said = host.suspend_note ? `The service says: ${String(host.suspend_note)}. ` : '';
				throw new NodeOperationError(node, `Host ${hostLabel(host, id)} is ${hostStatusPhrase(host.status)} instead of running`, {
					itemIndex: ctx.itemIndex,
					description: `${said}Statuses seen: ${names(watch.observed).join(', ')}. Check the host in the vendor console or with Host > Get Many.`,
				});
			}
		}
		pending = pending.filter((id) => codeKey(latest.get(id)!.status) !== HOST_RUNNING);
		return pending.length ? undefined : ids.map((id) => ({ ...latest.get(id)!, wait: hostWaitReport(kind, watches.get(id)!) }));
	};
	const timedOut = () => {
		const states = pending.map((id) => `${hostLabel(latest.get(id), id)} is ${hostStatusPhrase(latest.get(id)!.status)}`).join(', ');
		return new NodeOperationError(node, `Timed out waiting for hosts to run: ${states}`, {
			itemIndex: ctx.itemIndex,
			description: 'The operation itself was accepted. Raise "Timeout (Seconds)", or check the hosts later with Host > Get Many.',
		});
	};
	return await waitUntil({ deadline, pause: WAIT_PAUSE, look, timedOut });
}

/** The hosts a request names (its `id` field: one ID or several, comma-joined). */
export const hostsInRequest = (body: IDataObject): unknown => body.id;

/**
 * The `beforeSend` of operations with "Wait Until Running" whose request names the hosts: their
 * statuses just before the request is sent, so the wait's report can compare before and after.
 */
export function readStatusesBefore(idsFromBody: (body: IDataObject) => unknown): BeforeSend {
	return async (body, ctx) => {
		if (!ctx.param<boolean>('waitUntilRunning', false)) return;
		const seen = new Map<number, string | null>();
		statusesBefore.set(ctx, seen);
		for (const id of idList(idsFromBody(body))) {
			try {
				const host = await readHost(ctx, id);
				if (host) seen.set(id, codeKey(host.status) ?? null);
			} catch {
				// only the report is poorer for it (before: null); the operation itself goes ahead
			}
		}
	};
}

/**
 * The `after` of operations with "Wait Until Running": the hosts named by `idsFromBody` (the
 * request), else by the answer, are watched until they run.
 */
export function afterWaitUntilRunning(idsFromBody?: (body: IDataObject) => unknown): AfterCall {
	return async (records, ctx, body) => {
		if (!ctx.param<boolean>('waitUntilRunning', false)) return records;
		const ids = await hostIdsOf(ctx, records, idsFromBody ? idsFromBody(body) : undefined);
		return await waitForHostsRunning(ctx, ids, waitKind(ctx), statusesBefore.get(ctx));
	};
}

/**
 * The `after` of Restore and Roll Back with Wait Until Running. Their documented answers name the
 * host only as `instance_id`; the request's `id` is the backup's or snapshot's, and an `id` in the
 * answer may be that too (docs/vendor/readings.md#r67). So the wait is on the host the answer
 * names as the instance, else on the host of the backup or snapshot as listed (`instance.id`),
 * never on an `id` that may be the backup's or snapshot's.
 */
export function afterRestoreWaitUntilRunning(list: 'instance/backupList' | 'instance/snapshotList'): AfterCall {
	return async (records, ctx, body) => {
		if (!ctx.param<boolean>('waitUntilRunning', false)) return records;
		const named = records.filter((r) => String(r.instance_id ?? '').trim() !== '').map((r) => ({ instance_id: r.instance_id }));
		let ids = named.length ? await hostIdsOf(ctx, named) : [];
		if (!ids.length) {
			const rows = await apiRequestAllItems(ctx.fn, list, {}, { itemIndex: ctx.itemIndex });
			const row = rows.find((r) => String(r.id) === String(body.id));
			const instance = row && typeof row.instance === 'object' && row.instance !== null ? (row.instance as IDataObject) : undefined;
			ids = idList(instance?.id ?? row?.iid);
		}
		if (!ids.length) {
			throw new NodeOperationError(ctx.fn.getNode(), `The host of ${list === 'instance/backupList' ? 'backup' : 'snapshot'} ${String(body.id)} was not found, so the node cannot wait for it to run`, {
				itemIndex: ctx.itemIndex,
				description: 'The operation was sent; check the host with Host > Get Many.',
			});
		}
		return await waitForHostsRunning(ctx, ids, waitKind(ctx), statusesBefore.get(ctx));
	};
}

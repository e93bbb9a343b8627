import {
	NodeApiError,
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { BACKUP_STATUS } from '../shared/api/enums';
import { apiRequest, payload } from '../shared/api/transport';
import {
	READ,
	carryMissing,
	idOf,
	lowestNeeded,
	maxId,
	nowIso,
	readList,
	runTriggerPoll,
	type Pending,
	type TriggerPoll,
} from '../shared/poll/poll';

/**
 * Tasks that reach a final state: CDN cache refresh and prefetch tasks (listed by
 * cdn/refreshList, which says only "refreshing" or "completed"; cdn/refreshStatus and
 * cdn/preloadStatus tell success from failure) and host backups (instance/backupList:
 * 1 completed, 2 failed).
 *
 * State per kind: the highest id seen (`hi`) and the ids seen unfinished (`pending`). A task is
 * new when its id is above `hi`; it is emitted when it is listed final while new or pending.
 * A backup seen running again after it finished (a re-run) becomes pending again.
 *
 * Refresh and prefetch tasks share one id space (one list, and cdn/refreshDelete takes the ids
 * of both), so when both kinds are watched through one listing, `hi` of each is the highest id
 * of that listing: a kind with no task yet does not make every poll read the whole list.
 */
type Kind = 'refresh' | 'prefetch' | 'backup';
type Final = 'succeeded' | 'failed';

interface Track extends IDataObject {
	hi: number;
	pending: Pending;
}

interface TaskState extends IDataObject {
	v: 1;
	kinds: Partial<Record<Kind, Track>>;
}

const CDN_KINDS: Kind[] = ['refresh', 'prefetch'];
const STATUS_PATH = { refresh: 'cdn/refreshStatus', prefetch: 'cdn/preloadStatus' } as const;
const IN_PROGRESS_BACKUP = new Set(['0', '3']); // in progress, in arrears
const FINAL_BACKUP: Record<string, Final> = { '1': 'succeeded', '2': 'failed' };
const BACKUP_NAMES: Record<string, string> = Object.fromEntries(BACKUP_STATUS.map((o) => [String(o.value), o.name]));
/** Ids per status query. */
const STATUS_BATCH = 100;

const isPrefetch = (row: IDataObject) => String(row.preload ?? '0') === '1';
const kindOfTask = (row: IDataObject): Kind => (isPrefetch(row) ? 'prefetch' : 'refresh');

export class VendorTaskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Task Trigger',
		name: 'vendorTaskTrigger',
		icon: { light: 'file:../../icons/taskTrigger.svg', dark: 'file:../../icons/taskTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"When " + ($parameter["kinds"] || []).join(", ") + " tasks finish"}}',
		description: 'Starts the workflow when a CDN refresh or prefetch task, or a host backup, finishes',
		defaults: { name: 'Vendor Task Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: [
			{
				displayName: 'Task Kinds',
				name: 'kinds',
				type: 'multiOptions',
				required: true,
				default: ['refresh', 'prefetch', 'backup'],
				options: [
					{ name: 'CDN Prefetch', value: 'prefetch', description: 'Cache prefetch (preload) tasks' },
					{ name: 'CDN Refresh', value: 'refresh', description: 'Cache refresh (purge) tasks' },
					{ name: 'Host Backup', value: 'backup', description: 'Backups of cloud hosts' },
				],
				description: 'Which tasks to watch',
			},
			{
				displayName: 'Final State',
				name: 'finalState',
				type: 'options',
				default: 'both',
				options: [
					{ name: 'Succeeded or Failed', value: 'both' },
					{ name: 'Succeeded', value: 'succeeded', description: 'CDN result "success"; backup status completed' },
					{ name: 'Failed', value: 'failed', description: 'CDN result "failed"; backup status failed' },
				],
				description: 'Which outcome starts the workflow',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runTriggerPoll(this, taskTrigger(this));
	}
}

/** The poll of this trigger, for the current parameters. */
function taskTrigger(ctx: IPollFunctions): TriggerPoll<TaskState> {
	const kinds = new Set(ctx.getNodeParameter('kinds', []) as Kind[]);
	const wanted = ctx.getNodeParameter('finalState', 'both') as 'both' | Final;
	const stateWanted = (s: Final) => wanted === 'both' || wanted === s;
	const cdnKinds = CDN_KINDS.filter((k) => kinds.has(k));

	/** The status-query answers of one CDN kind: id → success | failed | processing. */
	const queryStatus = async (kind: Kind, ids: string[]): Promise<Record<string, string>> => {
		const out: Record<string, string> = {};
		for (let i = 0; i < ids.length; i += STATUS_BATCH) {
			const path = STATUS_PATH[kind as 'refresh' | 'prefetch'];
			const envelope = await apiRequest(ctx, path, { id: ids.slice(i, i + STATUS_BATCH).join(',') }, READ);
			const p = payload(envelope);
			const map = (Array.isArray(p) ? p[0] : p) as IDataObject | undefined;
			if (!map || typeof map !== 'object') {
				throw new NodeApiError(ctx.getNode(), envelope as JsonObject, {
					message: `${path} answered without task states`,
					description: 'The next poll asks again.',
				});
			}
			for (const [id, state] of Object.entries(map)) out[String(id)] = String(state);
		}
		return out;
	};

	const cdnItem = (kind: Kind, row: IDataObject, result: string, seenAt: string): IDataObject => ({
		kind,
		state: result === 'success' ? 'succeeded' : 'failed',
		result,
		...row,
		seenAt,
	});
	const backupItem = (row: IDataObject, seenAt: string): IDataObject => ({
		kind: 'backup',
		state: FINAL_BACKUP[String(row.status)],
		statusName: BACKUP_NAMES[String(row.status)] ?? null,
		...row,
		seenAt,
	});

	const trigger: TriggerPoll<TaskState> = {
		hasBaseline: (stored) => stored !== undefined && stored.v === 1 && [...kinds].every((k) => !!stored.kinds?.[k]),

		async poll(stored) {
			const previous = stored?.v === 1 ? (stored.kinds ?? {}) : {};
			const next: TaskState = { v: 1, kinds: {} };
			const events: IDataObject[] = [];
			const seenAt = nowIso();

			if (cdnKinds.length) {
				// one listing for both CDN kinds, read down to the oldest task still needed
				const tracked = cdnKinds.map((k) => previous[k]);
				const stopBelow = tracked.every((t) => t !== undefined)
					? Math.min(...tracked.map((t) => lowestNeeded(t!.hi, t!.pending)))
					: undefined;
				const body: IDataObject = cdnKinds.length === 1 ? { preload: cdnKinds[0] === 'prefetch' ? 1 : 0 } : {};
				const rows = await readList(ctx, 'cdn/refreshList', body, { stopBelow });
				for (const kind of cdnKinds) {
					const mine = rows.filter((r) => kindOfTask(r) === kind);
					const track = previous[kind];
					if (!track) {
						const pending: Pending = {};
						for (const r of mine) if (String(r.status) !== '1') pending[String(idOf(r))] = 0;
						next.kinds[kind] = { hi: maxId(rows), pending };
						continue;
					}
					const pending: Pending = {};
					const completed: IDataObject[] = [];
					for (const r of mine) {
						const id = String(idOf(r));
						if (!(idOf(r) > track.hi || id in track.pending)) continue;
						if (String(r.status) === '1') completed.push(r);
						else pending[id] = 0;
					}
					const results = completed.length ? await queryStatus(kind, completed.map((r) => String(idOf(r)))) : {};
					for (const r of completed.sort((a, b) => idOf(a) - idOf(b))) {
						const id = String(idOf(r));
						const result = results[id];
						if (result === 'success' || result === 'failed') {
							if (stateWanted(result === 'success' ? 'succeeded' : 'failed')) events.push(cdnItem(kind, r, result, seenAt));
						} else {
							pending[id] = 0; // still processing by the status query, or not answered
						}
					}
					carryMissing(track.pending, new Set(mine.map((r) => String(idOf(r)))), pending);
					next.kinds[kind] = { hi: maxId(rows, track.hi), pending };
				}
			}

			if (kinds.has('backup')) {
				const rows = await readList(ctx, 'instance/backupList', {});
				const track = previous.backup;
				const pending: Pending = {};
				if (!track) {
					for (const r of rows) if (IN_PROGRESS_BACKUP.has(String(r.status))) pending[String(idOf(r))] = 0;
					next.kinds.backup = { hi: maxId(rows), pending };
				} else {
					for (const r of rows.sort((a, b) => idOf(a) - idOf(b))) {
						const id = String(idOf(r));
						const status = String(r.status);
						const watched = idOf(r) > track.hi || id in track.pending;
						if (IN_PROGRESS_BACKUP.has(status)) pending[id] = 0; // new, still running, or running again
						else if (watched && FINAL_BACKUP[status]) {
							if (stateWanted(FINAL_BACKUP[status])) events.push(backupItem(r, seenAt));
						}
					}
					carryMissing(track.pending, new Set(rows.map((r) => String(idOf(r)))), pending);
					next.kinds.backup = { hi: maxId(rows, track.hi), pending };
				}
			}

			if (!trigger.hasBaseline(stored)) {
				// a kind without a baseline only records one; kinds that had one report as usual
				return { state: next, events: events.filter((e) => !!previous[e.kind as Kind]) };
			}
			return { state: next, events };
		},

		async sample() {
			const candidates: Array<{ at: string; id: number; item: IDataObject }> = [];
			const seenAt = nowIso();
			if (cdnKinds.length) {
				const body: IDataObject = cdnKinds.length === 1 ? { preload: cdnKinds[0] === 'prefetch' ? 1 : 0 } : {};
				const envelope = await apiRequest(ctx, 'cdn/refreshList', { ...body, page: 1, limit: 100 }, READ);
				const rows = (payload(envelope) as IDataObject[] | undefined) ?? [];
				for (const kind of cdnKinds) {
					const done = rows
						.filter((r) => kindOfTask(r) === kind && String(r.status) === '1')
						.sort((a, b) => idOf(b) - idOf(a))
						.slice(0, 20);
					if (!done.length) continue;
					const results = await queryStatus(kind, done.map((r) => String(idOf(r))));
					const hit = done.find((r) => {
						const result = results[String(idOf(r))];
						return (result === 'success' || result === 'failed') && stateWanted(result === 'success' ? 'succeeded' : 'failed');
					});
					if (hit) candidates.push({ at: String(hit.created ?? ''), id: idOf(hit), item: cdnItem(kind, hit, results[String(idOf(hit))], seenAt) });
				}
			}
			if (kinds.has('backup')) {
				const envelope = await apiRequest(ctx, 'instance/backupList', { page: 1, limit: 100 }, READ);
				const rows = ((payload(envelope) as IDataObject[] | undefined) ?? [])
					.filter((r) => FINAL_BACKUP[String(r.status)] && stateWanted(FINAL_BACKUP[String(r.status)]))
					.sort((a, b) => idOf(b) - idOf(a));
				if (rows.length) candidates.push({ at: String(rows[0].createtime ?? ''), id: idOf(rows[0]), item: backupItem(rows[0], seenAt) });
			}
			candidates.sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id);
			return candidates.length ? [candidates[0].item] : [];
		},
	};
	return trigger;
}

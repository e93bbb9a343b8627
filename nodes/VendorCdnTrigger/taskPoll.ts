/**
 * The poll of the Vendor Task Trigger: tasks that reach a final state. CDN cache refresh and
 * prefetch tasks are listed by cdn/refreshList, which says only "refreshing" or "completed";
 * cdn/refreshStatus and cdn/preloadStatus tell success from failure, and are asked about every
 * task not yet seen final (a failed task may stay listed at 0, readings R59). Host backups
 * (instance/backupList) are read through BACKUP_STATES (shared/api/codes/states.ts), the table
 * the backup wait reads too: 1 completed is a success; 2 failed, 3 in arrears and 4 recycle bin
 * are failures; 0 and values the documentation does not list are still in progress.
 *
 * State per kind: the highest id seen (`hi`) and the ids seen unfinished (`pending`). A task is
 * new when its id is above `hi`; it is emitted when it is listed final while new or pending.
 * A backup seen running again after it finished (a re-run) becomes pending again.
 *
 * Refresh and prefetch tasks share one id space (one list, and cdn/refreshDelete takes the ids
 * of both), so when both kinds are watched through one listing, `hi` of each is the highest id
 * of that listing: a kind with no task yet does not make every poll read the whole list.
 */
import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { backupState, codeKey } from '../shared/api/codes';
import { firstRecord, listRows } from '../shared/api/envelope';
import { apiRequest } from '../shared/api/transport';
import { READ, carryMissing, idOf, lowestNeeded, maxId, nowIso, readList, type Pending, type TriggerPoll } from '../shared/poll/poll';

export type Kind = 'refresh' | 'prefetch' | 'backup';
export type Final = 'succeeded' | 'failed';

interface Track extends IDataObject {
	hi: number;
	pending: Pending;
}
/** What a trigger keeps of host backups between polls: the highest id seen and the ids seen unfinished. */
export type BackupTrack = Track;

export interface TaskState extends IDataObject {
	v: 1;
	kinds: Partial<Record<Kind, Track>>;
}

const CDN_KINDS: Kind[] = ['refresh', 'prefetch'];
const STATUS_PATH = { refresh: 'cdn/refreshStatus', prefetch: 'cdn/preloadStatus' } as const;
const KIND_NAMES: Record<Kind, string> = { refresh: 'CDN refresh task', prefetch: 'CDN prefetch task', backup: 'host backup' };
/** The fields of each kind's records as documented, for a sample when there is no record at all. */
const DOCUMENTED_FIELDS: Record<Kind, string[]> = {
	refresh: ['id', 'type', 'status', 'urls', 'preload', 'preloadtype', 'is_api', 'created', 'objectnum'],
	prefetch: ['id', 'type', 'status', 'urls', 'preload', 'preloadtype', 'is_api', 'created', 'objectnum'],
	backup: ['id', 'backup_id', 'instance', 'name', 'backup_type', 'value', 'status', 'progress', 'note', 'createtime', 'createtime_ago'],
};
/** Ids per status query. */
const STATUS_BATCH = 100;

/** The outcome of a backup status when it is final; undefined while in progress (or unknown). */
const backupOutcome = (status: unknown): Final | undefined => {
	const state = backupState(status);
	if (!state?.final) return undefined;
	return state.failure ? 'failed' : 'succeeded';
};
const isPrefetch = (row: IDataObject) => codeKey(row.preload) === '1';
const kindOfTask = (row: IDataObject): Kind => (isPrefetch(row) ? 'prefetch' : 'refresh');
/** The listing filter of the CDN kinds watched: one kind's tasks only, or both. */
const cdnFilter = (cdnKinds: Kind[]): IDataObject => (cdnKinds.length === 1 ? { preload: cdnKinds[0] === 'prefetch' ? 1 : 0 } : {});

/** What the trigger watches, from its parameters. */
interface Watch {
	kinds: Set<Kind>;
	wanted: 'both' | Final;
	cdnKinds: Kind[];
	stateWanted: (s: Final) => boolean;
}

/** The status-query answers of one CDN kind: id → success | failed | processing. */
async function queryStatus(ctx: IPollFunctions, kind: Kind, ids: string[]): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (let i = 0; i < ids.length; i += STATUS_BATCH) {
		const path = STATUS_PATH[kind as 'refresh' | 'prefetch'];
		const envelope = await apiRequest(ctx, path, { id: ids.slice(i, i + STATUS_BATCH).join(',') }, READ);
		const map = firstRecord(envelope);
		if (!map || typeof map !== 'object') {
			throw new NodeApiError(ctx.getNode(), envelope as JsonObject, {
				message: `${path} answered without task states`,
				description: 'The next poll asks again.',
			});
		}
		for (const [id, state] of Object.entries(map)) out[String(id)] = String(state);
	}
	return out;
}

const cdnItem = (kind: Kind, row: IDataObject, result: string, seenAt: string): IDataObject => ({
	kind,
	state: result === 'success' ? 'succeeded' : 'failed',
	result,
	...row,
	seenAt,
});
const backupItem = (row: IDataObject, seenAt: string): IDataObject => ({
	kind: 'backup',
	state: backupOutcome(row.status) ?? null,
	statusName: backupState(row.status)?.name ?? null,
	...row,
	seenAt,
});

/** The CDN kinds of one poll: one listing read down to the oldest task still needed, final tasks told apart by their status query. */
async function pollCdnTasks(ctx: IPollFunctions, w: Watch, previous: TaskState['kinds'], next: TaskState, events: IDataObject[], seenAt: string): Promise<void> {
	const tracked = w.cdnKinds.map((k) => previous[k]);
	const stopBelow = tracked.every((t) => t !== undefined) ? Math.min(...tracked.map((t) => lowestNeeded(t!.hi, t!.pending))) : undefined;
	const rows = await readList(ctx, 'cdn/refreshList', cdnFilter(w.cdnKinds), { stopBelow });
	for (const kind of w.cdnKinds) {
		const mine = rows.filter((r) => kindOfTask(r) === kind);
		const track = previous[kind];
		if (!track) {
			const pending: Pending = {};
			for (const r of mine) if (codeKey(r.status) !== '1') pending[String(idOf(r))] = 0;
			next.kinds[kind] = { hi: maxId(rows), pending };
			continue;
		}
		const pending: Pending = {};
		// every task not yet seen final, whatever its listed status: a failed task may stay listed
		// at 0 (refreshing) while its status query says failed (docs/vendor/readings.md#r59)
		const watched: IDataObject[] = [];
		for (const r of mine) {
			const id = String(idOf(r));
			if (idOf(r) > track.hi || id in track.pending) watched.push(r);
		}
		const results = watched.length ? await queryStatus(ctx, kind, watched.map((r) => String(idOf(r)))) : {};
		for (const r of watched.sort((a, b) => idOf(a) - idOf(b))) {
			const id = String(idOf(r));
			const result = results[id];
			if (result === 'success' || result === 'failed') {
				if (w.stateWanted(result === 'success' ? 'succeeded' : 'failed')) events.push(cdnItem(kind, r, result, seenAt));
			} else {
				pending[id] = 0; // still processing by the status query, or not answered
			}
		}
		carryMissing(track.pending, new Set(mine.map((r) => String(idOf(r)))), pending);
		next.kinds[kind] = { hi: maxId(rows, track.hi), pending };
	}
}

/**
 * One poll of host backups (instance/backupList, the whole list), shared by the Task Trigger's
 * backup kind and the Cloud Host Trigger's "Backup Finished" event: the next state of the track and
 * the backups that finished since `track` (none when there is no track yet: the first poll only
 * records one). A backup is emitted once, when it is listed final while new (id above `hi`) or pending.
 */
export async function pollBackupTrack(
	ctx: IPollFunctions,
	track: BackupTrack | undefined,
	wanted: (outcome: Final) => boolean,
	seenAt: string,
): Promise<{ track: BackupTrack; events: IDataObject[] }> {
	const rows = await readList(ctx, 'instance/backupList', {});
	const pending: Pending = {};
	const events: IDataObject[] = [];
	if (!track) {
		for (const r of rows) if (!backupOutcome(r.status)) pending[String(idOf(r))] = 0;
		return { track: { hi: maxId(rows), pending }, events };
	}
	for (const r of rows.sort((a, b) => idOf(a) - idOf(b))) {
		const id = String(idOf(r));
		const outcome = backupOutcome(r.status);
		const watched = idOf(r) > track.hi || id in track.pending;
		if (!outcome) pending[id] = 0; // new, still running, or running again
		else if (watched && wanted(outcome)) events.push(backupItem(r, seenAt));
	}
	carryMissing(track.pending, new Set(rows.map((r) => String(idOf(r)))), pending);
	return { track: { hi: maxId(rows, track.hi), pending }, events };
}

/** The backups of one poll of the Task Trigger. */
async function pollBackups(ctx: IPollFunctions, w: Watch, previous: TaskState['kinds'], next: TaskState, events: IDataObject[], seenAt: string): Promise<void> {
	const r = await pollBackupTrack(ctx, previous.backup, w.stateWanted, seenAt);
	next.kinds.backup = r.track;
	events.push(...r.events);
}

type Candidate = { at: string; id: number; item: IDataObject };
type Other = { at: string; id: number; kind: Kind; row: IDataObject };

const newest = <T extends { at: string; id: number }>(list: T[]) => list.sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id)[0];

/** The backup status of each outcome (BACKUP_STATES: 1 completed, 2 failed), for a sample shaped as a backup that finished so. */
const BACKUP_SAMPLE_STATUS: Record<Final, string> = { succeeded: '1', failed: '2' };

/**
 * The sample when no task of the chosen kinds reached a chosen final state: real data (the newest
 * task of a chosen kind, else the documented fields, empty), shaped as the event the trigger's
 * settings would emit (a chosen kind, finished with a chosen outcome: "succeeded" when both are
 * chosen) and marked as a sample first thing in the item (`sample`, `sampleNote`), so that a
 * workflow can tell it from an event and no test run reads as a real one.
 */
function sampleWithoutEvent(w: Watch, others: Other[], seenAt: string): IDataObject[] {
	const chosen = [...w.kinds].filter((k): k is Kind => k in KIND_NAMES);
	const outcome: Final = w.wanted === 'both' ? 'succeeded' : w.wanted;
	const what = `${chosen.map((k) => KIND_NAMES[k]).join(' or ')} that ${w.wanted === 'both' ? 'succeeded or failed' : w.wanted}`;
	const shape = 'A real event is a task that reached a final state: its fields as the service lists them, with "kind", "state" (succeeded or failed), "result" for CDN tasks or "statusName" for backups, and "seenAt".';
	const finished = (kind: Kind, row: IDataObject): IDataObject =>
		kind === 'backup'
			? backupItem({ ...row, status: BACKUP_SAMPLE_STATUS[outcome] }, seenAt)
			: cdnItem(kind, { ...row, status: '1' }, outcome === 'succeeded' ? 'success' : 'failed', seenAt);
	const other = newest(others);
	if (other) {
		const status = codeKey(other.row.status);
		const described =
			other.kind === 'backup'
				? `backup ${String(other.row.id)}, listed now as ${backupState(other.row.status)?.name ?? `status ${status}`}`
				: `${KIND_NAMES[other.kind]} ${String(other.row.id)}, listed now as ${status === '1' ? 'completed' : 'still running'}`;
		return [
			{
				sample: true,
				sampleNote: `Sample, not an event: no ${what} has been found. This is ${described}, shown as if it had ${outcome}. ${shape}`,
				...finished(other.kind, other.row),
			},
		];
	}
	const kind = chosen[0] ?? 'refresh';
	const empty = Object.fromEntries(DOCUMENTED_FIELDS[kind].map((f) => [f, null]));
	return [
		{
			sample: true,
			sampleNote: `Sample, not an event: the account has no ${chosen.map((k) => KIND_NAMES[k]).join(' or ')} yet, so the fields are empty; "state" shows the outcome the trigger waits for (${outcome}). ${shape}`,
			...finished(kind, empty),
		},
	];
}

/** "Fetch Test Event": the newest task of the chosen kinds that reached a chosen final state, else a sample. */
async function sampleTasks(ctx: IPollFunctions, w: Watch): Promise<IDataObject[]> {
	// the newest task of the chosen kinds that reached a chosen final state: a real event
	const candidates: Candidate[] = [];
	// the newest task of the chosen kinds in any state: the real data a sample is made of
	const others: Other[] = [];
	const seenAt = nowIso();
	if (w.cdnKinds.length) {
		const envelope = await apiRequest(ctx, 'cdn/refreshList', { ...cdnFilter(w.cdnKinds), page: 1, limit: 100 }, READ);
		const rows = listRows(envelope);
		for (const kind of w.cdnKinds) {
			const mine = rows.filter((r) => kindOfTask(r) === kind).sort((a, b) => idOf(b) - idOf(a));
			if (mine.length) others.push({ at: String(mine[0].created ?? ''), id: idOf(mine[0]), kind, row: mine[0] });
			// the poll's rule (readings R59): the status query decides, whatever the listed status (a
			// failed task may stay listed at 0), so the newest tasks are asked about in any listed state
			const done = mine.slice(0, 20);
			if (!done.length) continue;
			const results = await queryStatus(ctx, kind, done.map((r) => String(idOf(r))));
			const hit = done.find((r) => {
				const result = results[String(idOf(r))];
				return (result === 'success' || result === 'failed') && w.stateWanted(result === 'success' ? 'succeeded' : 'failed');
			});
			if (hit) candidates.push({ at: String(hit.created ?? ''), id: idOf(hit), item: cdnItem(kind, hit, results[String(idOf(hit))], seenAt) });
		}
	}
	if (w.kinds.has('backup')) {
		const envelope = await apiRequest(ctx, 'instance/backupList', { page: 1, limit: 100 }, READ);
		const rows = listRows(envelope).sort((a, b) => idOf(b) - idOf(a));
		if (rows.length) others.push({ at: String(rows[0].createtime ?? ''), id: idOf(rows[0]), kind: 'backup', row: rows[0] });
		const done = rows.filter((r) => {
			const outcome = backupOutcome(r.status);
			return outcome !== undefined && w.stateWanted(outcome);
		});
		if (done.length) candidates.push({ at: String(done[0].createtime ?? ''), id: idOf(done[0]), item: backupItem(done[0], seenAt) });
	}
	if (candidates.length) return [newest(candidates).item];
	// nothing of that kind has happened: a sample, marked as one, that claims no outcome
	return sampleWithoutEvent(w, others, seenAt);
}

/** "Fetch Test Event" for host backups only: the newest backup that finished with a wanted outcome, else a marked sample (as the Task Trigger's backup kind). */
export async function sampleBackups(ctx: IPollFunctions, wanted: 'both' | Final): Promise<IDataObject[]> {
	return await sampleTasks(ctx, { kinds: new Set<Kind>(['backup']), wanted, cdnKinds: [], stateWanted: (s) => wanted === 'both' || wanted === s });
}

/** The poll of the Task Trigger, for the current parameters. */
export function taskTrigger(ctx: IPollFunctions): TriggerPoll<TaskState> {
	const kinds = new Set(ctx.getNodeParameter('kinds', []) as Kind[]);
	const wanted = ctx.getNodeParameter('finalState', 'both') as 'both' | Final;
	const w: Watch = { kinds, wanted, cdnKinds: CDN_KINDS.filter((k) => kinds.has(k)), stateWanted: (s) => wanted === 'both' || wanted === s };

	const trigger: TriggerPoll<TaskState> = {
		hasBaseline: (stored) => stored !== undefined && stored.v === 1 && [...kinds].every((k) => !!stored.kinds?.[k]),

		async poll(stored) {
			const previous = stored?.v === 1 ? (stored.kinds ?? {}) : {};
			const next: TaskState = { v: 1, kinds: {} };
			const events: IDataObject[] = [];
			const seenAt = nowIso();
			if (w.cdnKinds.length) await pollCdnTasks(ctx, w, previous, next, events, seenAt);
			if (kinds.has('backup')) await pollBackups(ctx, w, previous, next, events, seenAt);
			if (!trigger.hasBaseline(stored)) {
				// a kind without a baseline only records one; kinds that had one report as usual
				return { state: next, events: events.filter((e) => !!previous[e.kind as Kind]) };
			}
			return { state: next, events };
		},

		sample: async () => await sampleTasks(ctx, w),
	};
	return trigger;
}

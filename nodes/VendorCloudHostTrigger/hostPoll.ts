/**
 * The poll of the Vendor Cloud Host Trigger: host status changes, appearances and disappearances,
 * found by comparing each full listing of instance/list with the previous one. State: id →
 * [status, data center] of every host; a host leaves it when it leaves the listing. A listing
 * that empties at once is believed only when the next poll confirms it (`emptyOnce`).
 *
 * "Backup Finished" watches host backups with the poll the Task Trigger's backup kind uses
 * (pollBackupTrack in ../VendorCdnTrigger/taskPoll.ts): its own track (`backup`) in this state,
 * the same items, each once; host changes and backups each have their own baseline.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { codeKey, hostStatusName } from '../shared/api/codes';
import { nowIso, readList, type PollResult, type TriggerPoll } from '../shared/poll/poll';
import { pollBackupTrack, sampleBackups, type BackupTrack, type Final } from '../VendorCdnTrigger/taskPoll';

type HostEvent = 'statusChanged' | 'appeared' | 'disappeared';
type WatchedEvent = HostEvent | 'backupFinished';

interface HostState extends IDataObject {
	v: 1;
	hosts?: Record<string, [number | string, number | string]>;
	/** The listing came back empty once while hosts were known: believed only when the next poll confirms it. */
	emptyOnce?: boolean;
	/** Host backups, when "Backup Finished" is watched: the highest id seen and the ids seen unfinished. */
	backup?: BackupTrack;
}

/** The trigger's parameters, read once per poll. */
interface Settings {
	/** The host events watched (without "Backup Finished"). */
	events: Set<HostEvent>;
	/** Whether "Backup Finished" is watched. */
	backups: boolean;
	/** Which finished backups are wanted. */
	backupWanted: 'both' | Final;
	/** The statuses chosen, as codes, in the order chosen; all when empty. */
	chosenStatuses: string[];
	statuses: Set<string>;
	/** The data centers chosen, as codes; all when empty. */
	dataCentres: Set<string>;
}

const statusName = hostStatusName;

/** A status or data center id as kept in the state: a number when it is one (`"1"` and `1` alike). */
const asNumberIfNumeric = (v: unknown): number | string => {
	const s = codeKey(v) ?? '';
	return /^-?\d+$/.test(s) ? Number(s) : s;
};
/** Whether two status values are the same status, whichever form each came in. */
const sameStatus = (a: unknown, b: unknown) => (codeKey(a) ?? '') === (codeKey(b) ?? '');

/** The trigger's parameters. */
function settingsOf(ctx: IPollFunctions): Settings {
	const chosen = new Set(ctx.getNodeParameter('events', []) as WatchedEvent[]);
	const events = new Set([...chosen].filter((e): e is HostEvent => e !== 'backupFinished'));
	const backups = chosen.has('backupFinished');
	const backupWanted = backups ? (ctx.getNodeParameter('backupOutcome', 'both') as 'both' | Final) : 'both';
	const chosenStatuses = (ctx.getNodeParameter('statuses', []) as Array<number | string>).map((s) => codeKey(s) ?? '');
	const dataCentres = new Set((ctx.getNodeParameter('dataCentres', []) as Array<number | string>).map((s) => codeKey(s) ?? ''));
	return { events, backups, backupWanted, chosenStatuses, statuses: new Set(chosenStatuses), dataCentres };
}

/** Whether a host in this data center is watched. */
const inDataCentre = (s: Settings, nodeid: unknown) => s.dataCentres.size === 0 || s.dataCentres.has(codeKey(nodeid) ?? '');
/** Whether this (new) status is watched. */
const statusWanted = (s: Settings, status: unknown) => s.statuses.size === 0 || s.statuses.has(codeKey(status) ?? '');

/** The item of a host event: the host's id, names and statuses before and after, and its record (none when it disappeared). */
function hostItem(event: HostEvent, id: string, previous: unknown, row: IDataObject | undefined, nodeid: unknown, seenAt: string): IDataObject {
	return {
		event,
		hostId: id,
		name: row ? row.name : null,
		instanceId: row ? row.instance_id : null,
		previousStatus: codeKey(previous) ?? null,
		previousStatusName: statusName(previous),
		status: row ? (codeKey(row.status) ?? '') : null,
		statusName: row ? statusName(row.status) : null,
		nodeid: codeKey(nodeid) ?? '',
		nodename: row ? row.nodename : null,
		seenAt,
		host: row ?? null,
	};
}

/** An event item without a host (for a sample when no host is listed). */
const emptyItem = (kind: HostEvent, seenAt: string): IDataObject => ({ ...hostItem(kind, '', null, undefined, '', seenAt), hostId: null, nodeid: null });

/** Whether the stored state has a baseline of the hosts. */
function hostBaseline(stored: HostState | undefined): boolean {
	return stored !== undefined && stored.v === 1 && typeof stored.hosts === 'object';
}

/** The host changes of one poll (status, appearance, disappearance). */
async function pollHosts(ctx: IPollFunctions, s: Settings, stored: HostState | undefined): Promise<PollResult<HostState>> {
	const rows = (await readList(ctx, 'instance/list', {})).sort((a, b) => Number(a.id) - Number(b.id));
	const seenAt = nowIso();
	const hosts: HostState['hosts'] = {};
	for (const row of rows) hosts[String(row.id)] = [asNumberIfNumeric(row.status), asNumberIfNumeric(row.nodeid)];
	const state: HostState = { v: 1, hosts };
	if (!hostBaseline(stored)) return { state, events: [] };

	const before = stored!.hosts!;
	// a listing that empties at once is a hiccup of the service until the next poll says the
	// same: believing it would emit a false "disappeared" for every host, then a false
	// "appeared" for each when the hosts are listed again
	if (rows.length === 0 && Object.keys(before).length > 0 && !stored!.emptyOnce) {
		ctx.logger.warn(`"${ctx.getNode().name}": instance/list came back empty while ${Object.keys(before).length} hosts were listed before; the next poll confirms it before any host is reported gone`);
		return { state: { v: 1, hosts: before, emptyOnce: true }, events: [] };
	}
	const out: IDataObject[] = [];
	for (const row of rows) {
		const id = String(row.id);
		const previous = before[id];
		if (!inDataCentre(s, row.nodeid)) continue;
		if (previous === undefined) {
			if (s.events.has('appeared') && statusWanted(s, row.status)) out.push(hostItem('appeared', id, null, row, row.nodeid, seenAt));
		} else if (!sameStatus(previous[0], row.status)) {
			if (s.events.has('statusChanged') && statusWanted(s, row.status)) out.push(hostItem('statusChanged', id, previous[0], row, row.nodeid, seenAt));
		}
	}
	if (s.events.has('disappeared')) {
		for (const [id, [status, nodeid]] of Object.entries(before)) {
			if (!(id in hosts) && inDataCentre(s, nodeid)) out.push(hostItem('disappeared', id, status, undefined, nodeid, seenAt));
		}
	}
	return { state, events: out };
}

/** One poll: the host changes, and the finished backups on their own track when they are watched. */
async function pollHostsAndBackups(ctx: IPollFunctions, s: Settings, stored: HostState | undefined): Promise<PollResult<HostState>> {
	const hostsPoll = await pollHosts(ctx, s, stored);
	if (!s.backups) return hostsPoll;
	// a backup track of its own: none yet records one and emits no backup (pollBackupTrack)
	const previous = stored?.v === 1 ? stored.backup : undefined;
	const b = await pollBackupTrack(ctx, previous, (o) => s.backupWanted === 'both' || s.backupWanted === o, nowIso());
	return {
		state: { ...hostsPoll.state, backup: b.track },
		events: [...hostsPoll.events, ...b.events.map((e) => ({ event: 'backupFinished', ...e }))],
	};
}

/** "Fetch Test Event" with host events chosen: the newest host that appeared, else a marked sample of the chosen kind. */
async function sampleHosts(ctx: IPollFunctions, s: Settings): Promise<IDataObject[]> {
	const body: IDataObject = s.dataCentres.size === 1 ? { nodeid: Number([...s.dataCentres][0]) } : {};
	const listed = (await readList(ctx, 'instance/list', body)).filter((r) => inDataCentre(s, r.nodeid)).sort((a, b) => Number(b.id) - Number(a.id));
	const wanted = listed.filter((r) => statusWanted(s, r.status));
	const seenAt = nowIso();
	// a real event: each listed host appeared once; the newest one of the chosen filters
	if (s.events.has('appeared') && wanted.length) return [hostItem('appeared', String(wanted[0].id), null, wanted[0], wanted[0].nodeid, seenAt)];

	const kind: HostEvent = s.events.has('statusChanged') ? 'statusChanged' : s.events.has('appeared') ? 'appeared' : 'disappeared';
	return [hostSample(s, kind, wanted[0] ?? listed[0], seenAt)];
}

/**
 * "Fetch Test Event" for a change it has not seen: a real host, shaped as the event the trigger's
 * settings would emit (the chosen kind, a new status the trigger watches), and marked as a sample
 * first thing in the item (`sample`, `sampleNote`) so a workflow can tell it from an event.
 */
function hostSample(s: Settings, kind: HostEvent, host: IDataObject | undefined, seenAt: string): IDataObject {
	const now = host ? codeKey(host.status) : undefined;
	// the new status: the host's own when the trigger watches it (or watches every status), else the first one it watches
	const target = now !== undefined && statusWanted(s, now) ? now : (s.chosenStatuses[0] ?? now);
	const targetName = target === undefined ? undefined : statusName(target);
	const label = host ? `host "${String(host.name ?? host.id)}" (${String(host.id)}), listed now as ${statusName(host.status) ?? 'no status'}` : undefined;
	const shown = host ? { ...host, status: target } : undefined;
	let event: IDataObject;
	let note: string;
	if (kind === 'disappeared') {
		event = host ? hostItem('disappeared', String(host.id), host.status, undefined, host.nodeid, seenAt) : emptyItem(kind, seenAt);
		note = `no host has disappeared while the trigger was active (it finds disappearances by comparing each poll with the one before). ${
			label ? `This is ${label} and still there, shown as if it had gone.` : 'No host is listed, so the fields are empty.'
		} A real event has "status" and "host" empty and the last status seen in "previousStatus".`;
	} else if (kind === 'statusChanged') {
		const previous = now !== undefined && now !== target ? host!.status : null;
		event = shown ? hostItem('statusChanged', String(host!.id), previous, shown, host!.nodeid, seenAt) : { ...emptyItem(kind, seenAt), status: target ?? null, statusName: targetName ?? null };
		note = `no host has ${targetName ? `turned ${targetName}` : 'changed status'} while the trigger was active (it finds changes by comparing each poll with the one before). ${
			label ? `This is ${label}, shown as if it had ${targetName ? `turned ${targetName}` : 'just changed to that status'}.` : 'No host is listed, so the fields are empty.'
		} A real event carries the status before ("previousStatus", "previousStatusName") and after ("status", "statusName"); "host" is the host as listed.`;
	} else {
		event = shown ? hostItem('appeared', String(host!.id), null, shown, host!.nodeid, seenAt) : { ...emptyItem(kind, seenAt), status: target ?? null, statusName: targetName ?? null };
		note = `no host ${targetName ? `with the status ${targetName} ` : ''}is listed${s.dataCentres.size ? ' in the chosen data centers' : ''}. ${
			label ? `This is ${label}, shown as if it had appeared ${targetName ?? ''}.`.replace(' .', '.') : 'No host is listed, so the fields are empty.'
		} A real event carries the new host's status and its record in "host".`;
	}
	return { sample: true, sampleNote: `Sample, not an event: ${note}`, ...event };
}

/** "Fetch Test Event": with only backups chosen, a finished backup (or a marked sample of one) as the Task Trigger shows it; else the hosts' sample. */
async function sampleEvent(ctx: IPollFunctions, s: Settings): Promise<IDataObject[]> {
	if (s.backups && s.events.size === 0) {
		// the sample marking stays first in the item, where a person looking at the output sees it
		return (await sampleBackups(ctx, s.backupWanted)).map((e) => (e.sample ? { sample: e.sample, sampleNote: e.sampleNote, event: 'backupFinished', ...e } : { event: 'backupFinished', ...e }));
	}
	return await sampleHosts(ctx, s);
}

/** The poll of this trigger, for the current parameters. */
export function hostTrigger(ctx: IPollFunctions): TriggerPoll<HostState> {
	const s = settingsOf(ctx);
	return {
		hasBaseline: (stored) => hostBaseline(stored) && (!s.backups || typeof stored?.backup === 'object'),
		poll: async (stored) => await pollHostsAndBackups(ctx, s, stored),
		sample: async () => await sampleEvent(ctx, s),
	};
}

import {
	NodeConnectionTypes,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { HOST_STATUS, codeKey, hostStatusName } from '../shared/api/codes';
import { listRows } from '../shared/api/envelope';
import { apiRequest } from '../shared/api/transport';
import { optionsSubtitle } from '../shared/subtitle';
import { nowIso, readList, runTriggerPoll, type TriggerPoll } from '../shared/poll/poll';
import { pollBackupTrack, sampleBackups, type BackupTrack, type Final } from '../VendorCdnTrigger/taskPoll';

/**
 * Host status changes, appearances and disappearances, found by comparing each full listing of
 * instance/list with the previous one. State: id → [status, data centre] of every host; a host
 * leaves it when it leaves the listing. A listing that empties at once is believed only when the
 * next poll confirms it (`emptyOnce`).
 *
 * "Backup Finished" watches host backups with the poll the Task Trigger's backup kind uses
 * (pollBackupTrack in ../VendorCdnTrigger/taskPoll.ts): its own track (`backup`) in this state,
 * the same items, each once; host changes and backups each have their own baseline.
 */
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

const statusName = hostStatusName;

/** A status or data centre id as kept in the state: a number when it is one (`"1"` and `1` alike). */
const asNumberIfNumeric = (v: unknown): number | string => {
	const s = codeKey(v) ?? '';
	return /^-?\d+$/.test(s) ? Number(s) : s;
};
/** Whether two status values are the same status, whichever form each came in. */
const sameStatus = (a: unknown, b: unknown) => (codeKey(a) ?? '') === (codeKey(b) ?? '');

/** The events as options; `action` is what n8n's node panel lists under the Triggers of "Vendor Cloud Host". */
const HOST_EVENTS = [
	{ name: 'Backup Finished', value: 'backupFinished', action: 'When a Cloud Host backup finishes', description: 'A backup of a host completed or failed' },
	{ name: 'Host Appeared', value: 'appeared', action: 'When a host appears', description: 'A host is listed that was not listed before' },
	{ name: 'Host Disappeared', value: 'disappeared', action: 'When a host disappears', description: 'A host is no longer listed' },
	{ name: 'Status Changed', value: 'statusChanged', action: 'When a host changes status', description: "A host's status differs from the previous poll" },
];

export class VendorCloudHostTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Cloud Host Trigger',
		name: 'vendorCloudHostTrigger',
		icon: { light: 'file:../../icons/hostTrigger.svg', dark: 'file:../../icons/hostTrigger.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		subtitle: optionsSubtitle('events', HOST_EVENTS, 'On '),
		// n8n shows this text for the merged "Vendor Cloud Host" entry of the node panel (one entry for the
		// action node and this trigger, by their internal names), so it names both roles
		description: 'Cloud hosts: start a workflow when one changes status, appears or disappears, or a backup finishes, or create, power and reinstall hosts',
		defaults: { name: 'Vendor Cloud Host Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['statusChanged', 'appeared', 'disappeared'],
				options: HOST_EVENTS,
				description: 'Which changes start the workflow',
			},
			{
				displayName: 'Backup Outcome',
				name: 'backupOutcome',
				type: 'options',
				default: 'both',
				displayOptions: { show: { events: ['backupFinished'] } },
				options: [
					{ name: 'Succeeded or Failed', value: 'both' },
					{ name: 'Succeeded', value: 'succeeded', description: 'The backup completed' },
					{ name: 'Failed', value: 'failed', description: 'The backup failed, the account was in arrears, or it was deleted before it was seen completed' },
				],
				description: 'Which finished backups start the workflow',
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				default: [],
				options: HOST_STATUS.map((o) => ({ name: o.name, value: o.value })),
				description: 'Only changes and appearances whose new status is one of these; all when empty. Disappearances are not filtered by status.',
			},
			{
				displayName: 'Data Centre Names or IDs',
				name: 'dataCentres',
				type: 'multiOptions',
				default: [],
				typeOptions: { loadOptionsMethod: 'getDataCentres' },
				description:
					'Only hosts in these data centres; all when empty. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	};

	methods = {
		loadOptions: {
			async getDataCentres(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const envelope = await apiRequest(this, 'instance/nodeList', {}, { read: true });
				return listRows(envelope)
					.map((r) => ({ name: String(r.areaname ?? r.id), value: String(r.id) }))
					.sort((a, b) => a.name.localeCompare(b.name));
			},
		},
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runTriggerPoll(this, hostTrigger(this));
	}
}

/** The poll of this trigger, for the current parameters. */
function hostTrigger(ctx: IPollFunctions): TriggerPoll<HostState> {
	const chosen = new Set(ctx.getNodeParameter('events', []) as WatchedEvent[]);
	const events = new Set([...chosen].filter((e): e is HostEvent => e !== 'backupFinished'));
	const backups = chosen.has('backupFinished');
	const backupWanted = backups ? (ctx.getNodeParameter('backupOutcome', 'both') as 'both' | Final) : 'both';
	const chosenStatuses = (ctx.getNodeParameter('statuses', []) as Array<number | string>).map((s) => codeKey(s) ?? '');
	const statuses = new Set(chosenStatuses);
	const dataCentres = new Set((ctx.getNodeParameter('dataCentres', []) as Array<number | string>).map((s) => codeKey(s) ?? ''));
	const inDataCentre = (nodeid: unknown) => dataCentres.size === 0 || dataCentres.has(codeKey(nodeid) ?? '');
	const statusWanted = (status: unknown) => statuses.size === 0 || statuses.has(codeKey(status) ?? '');

	const item = (event: HostEvent, id: string, previous: unknown, row: IDataObject | undefined, nodeid: unknown, seenAt: string): IDataObject => ({
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
	});

	const trigger: TriggerPoll<HostState> = {
		hasBaseline: (stored) => hostBaseline(stored) && (!backups || typeof stored?.backup === 'object'),

		async poll(stored) {
			const hostsPoll = await pollHosts(stored);
			if (!backups) return hostsPoll;
			// a backup track of its own: none yet records one and emits no backup (pollBackupTrack)
			const previous = stored?.v === 1 ? stored.backup : undefined;
			const b = await pollBackupTrack(ctx, previous, (o) => backupWanted === 'both' || backupWanted === o, nowIso());
			return {
				state: { ...hostsPoll.state, backup: b.track },
				events: [...hostsPoll.events, ...b.events.map((e) => ({ event: 'backupFinished', ...e }))],
			};
		},

		async sample() {
			// only backups chosen: a finished backup, or a marked sample of one, as the Task Trigger shows it
			// (the sample marking stays first in the item, where a person looking at the output sees it)
			if (backups && events.size === 0) {
				return (await sampleBackups(ctx, backupWanted)).map((e) => (e.sample ? { sample: e.sample, sampleNote: e.sampleNote, event: 'backupFinished', ...e } : { event: 'backupFinished', ...e }));
			}
			return await sampleHosts();
		},
	};

	function hostBaseline(stored: HostState | undefined): boolean {
		return stored !== undefined && stored.v === 1 && typeof stored.hosts === 'object';
	}

	/** The host changes of one poll (status, appearance, disappearance). */
	async function pollHosts(stored: HostState | undefined): Promise<{ state: HostState; events: IDataObject[] }> {
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
			if (!inDataCentre(row.nodeid)) continue;
			if (previous === undefined) {
				if (events.has('appeared') && statusWanted(row.status)) out.push(item('appeared', id, null, row, row.nodeid, seenAt));
			} else if (!sameStatus(previous[0], row.status)) {
				if (events.has('statusChanged') && statusWanted(row.status)) out.push(item('statusChanged', id, previous[0], row, row.nodeid, seenAt));
			}
		}
		if (events.has('disappeared')) {
			for (const [id, [status, nodeid]] of Object.entries(before)) {
				if (!(id in hosts) && inDataCentre(nodeid)) out.push(item('disappeared', id, status, undefined, nodeid, seenAt));
			}
		}
		return { state, events: out };
	}

	async function sampleHosts(): Promise<IDataObject[]> {
		const body: IDataObject = dataCentres.size === 1 ? { nodeid: Number([...dataCentres][0]) } : {};
		const listed = (await readList(ctx, 'instance/list', body)).filter((r) => inDataCentre(r.nodeid)).sort((a, b) => Number(b.id) - Number(a.id));
		const wanted = listed.filter((r) => statusWanted(r.status));
		const seenAt = nowIso();
		// a real event: each listed host appeared once; the newest one of the chosen filters
		if (events.has('appeared') && wanted.length) return [item('appeared', String(wanted[0].id), null, wanted[0], wanted[0].nodeid, seenAt)];

		const kind: HostEvent = events.has('statusChanged') ? 'statusChanged' : events.has('appeared') ? 'appeared' : 'disappeared';
		return [hostSample(kind, wanted[0] ?? listed[0], seenAt)];
	}

	/**
	 * "Fetch Test Event" for a change it has not seen: a real host, shaped as the event the trigger's
	 * settings would emit (the chosen kind, a new status the trigger watches), and marked as a sample
	 * first thing in the item (`sample`, `sampleNote`) so a workflow can tell it from an event.
	 */
	function hostSample(kind: HostEvent, host: IDataObject | undefined, seenAt: string): IDataObject {
		const now = host ? codeKey(host.status) : undefined;
		// the new status: the host's own when the trigger watches it (or watches every status), else the first one it watches
		const target = now !== undefined && statusWanted(now) ? now : (chosenStatuses[0] ?? now);
		const targetName = target === undefined ? undefined : statusName(target);
		const label = host ? `host "${String(host.name ?? host.id)}" (${String(host.id)}), listed now as ${statusName(host.status) ?? 'no status'}` : undefined;
		const shown = host ? { ...host, status: target } : undefined;
		let event: IDataObject;
		let note: string;
		if (kind === 'disappeared') {
			event = host ? item('disappeared', String(host.id), host.status, undefined, host.nodeid, seenAt) : emptyItem(kind, seenAt);
			note = `no host has disappeared while the trigger was active (it finds disappearances by comparing each poll with the one before). ${
				label ? `This is ${label} and still there, shown as if it had gone.` : 'No host is listed, so the fields are empty.'
			} A real event has "status" and "host" empty and the last status seen in "previousStatus".`;
		} else if (kind === 'statusChanged') {
			const previous = now !== undefined && now !== target ? host!.status : null;
			event = shown ? item('statusChanged', String(host!.id), previous, shown, host!.nodeid, seenAt) : { ...emptyItem(kind, seenAt), status: target ?? null, statusName: targetName ?? null };
			note = `no host has ${targetName ? `turned ${targetName}` : 'changed status'} while the trigger was active (it finds changes by comparing each poll with the one before). ${
				label ? `This is ${label}, shown as if it had ${targetName ? `turned ${targetName}` : 'just changed to that status'}.` : 'No host is listed, so the fields are empty.'
			} A real event carries the status before ("previousStatus", "previousStatusName") and after ("status", "statusName"); "host" is the host as listed.`;
		} else {
			event = shown ? item('appeared', String(host!.id), null, shown, host!.nodeid, seenAt) : { ...emptyItem(kind, seenAt), status: target ?? null, statusName: targetName ?? null };
			note = `no host ${targetName ? `with the status ${targetName} ` : ''}is listed${dataCentres.size ? ' in the chosen data centres' : ''}. ${
				label ? `This is ${label}, shown as if it had appeared ${targetName ?? ''}.`.replace(' .', '.') : 'No host is listed, so the fields are empty.'
			} A real event carries the new host's status and its record in "host".`;
		}
		return { sample: true, sampleNote: `Sample, not an event: ${note}`, ...event };
	}

	const emptyItem = (kind: HostEvent, seenAt: string): IDataObject => ({ ...item(kind, '', null, undefined, '', seenAt), hostId: null, nodeid: null });

	return trigger;
}

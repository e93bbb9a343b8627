import {
	NodeConnectionTypes,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { HOST_STATUS } from '../shared/api/codes';
import { listRows } from '../shared/api/envelope';
import { hasCredential, reopenToList } from '../shared/api/methods';
import { apiRequest } from '../shared/api/transport';
import { optionsSubtitle } from '../shared/subtitle';
import { runTriggerPoll } from '../shared/poll/poll';
import { hostTrigger } from './hostPoll';

/** The events as options; `action` is what n8n's node panel lists under the Triggers of "Vendor Cloud Host". */
const HOST_EVENTS = [
	{ name: 'Backup Finished', value: 'backupFinished', action: 'When a Cloud Host backup finishes', description: 'A backup of a host completed or failed' },
	{ name: 'Host Appeared', value: 'appeared', action: 'When a host appears', description: 'A host is listed that was not listed before' },
	{ name: 'Host Disappeared', value: 'disappeared', action: 'When a host disappears', description: 'A host is no longer listed' },
	{ name: 'Status Changed', value: 'statusChanged', action: 'When a host changes status', description: "A host's status differs from the previous poll" },
];

/** Starts a workflow when a host changes status, appears or disappears, or a host backup finishes (the poll: hostPoll.ts). */
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
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/triggers.md#vendor-cloud-host-trigger',
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
				displayName: 'Data Center Names or IDs',
				name: 'dataCentres',
				type: 'multiOptions',
				default: [],
				typeOptions: { loadOptionsMethod: 'getDataCentres' },
				description:
					'Only hosts in these data centers; all when empty. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	};

	methods = {
		loadOptions: {
			async getDataCentres(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				// a node just added has no credential yet: what to do, not an error (methods.ts)
				if (!hasCredential(this)) return reopenToList('data centers');
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

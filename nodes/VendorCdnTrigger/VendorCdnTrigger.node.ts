import { NodeConnectionTypes, type INodeExecutionData, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';

import { runTriggerPoll } from '../shared/poll/poll';
import { optionsSubtitle } from '../shared/subtitle';
import { taskTrigger } from './taskPoll';

/** The task kinds as options; `action` is what n8n's node panel lists under the Triggers of "Vendor CDN". */
const TASK_KINDS = [
	{ name: 'CDN Prefetch', value: 'prefetch', action: 'When a CDN prefetch task finishes', description: 'Cache prefetch (preload) tasks' },
	{ name: 'CDN Refresh', value: 'refresh', action: 'When a CDN refresh task finishes', description: 'Cache refresh (purge) tasks' },
	{ name: 'Host Backup', value: 'backup', action: 'When a Cloud Host backup finishes', description: 'Backups of cloud hosts' },
];

/** Starts a workflow when a CDN cache refresh or prefetch, or a host backup, finishes (the poll: taskPoll.ts). */
export class VendorCdnTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Task Trigger',
		// n8n's node panel lists a trigger under the action node whose internal name is the trigger's
		// without "Trigger" (n8n-nodes-vendor-cloud.vendorCdn): one "Vendor CDN" entry with this trigger's
		// task kinds under Triggers, where most of them belong (host backups are named there too)
		name: 'vendorCdnTrigger',
		icon: { light: 'file:../../icons/taskTrigger.svg', dark: 'file:../../icons/taskTrigger.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		subtitle: optionsSubtitle('kinds', TASK_KINDS, 'When ', ' finish'),
		// n8n shows this text for the merged "Vendor CDN" entry of the node panel, so it names both roles
		description: 'CDN: start a workflow when a cache refresh or prefetch, or a Cloud Host backup, finishes, or manage CDN channels and caches',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/triggers.md#vendor-task-trigger',
		defaults: { name: 'Vendor Task Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: [
			{
				// "Trigger On": the node panel offers each option as its own trigger action
				displayName: 'Trigger On',
				name: 'kinds',
				type: 'multiOptions',
				required: true,
				default: ['refresh', 'prefetch', 'backup'],
				options: TASK_KINDS,
				description: 'Which tasks to watch',
			},
			{
				displayName: 'Final State',
				name: 'finalState',
				type: 'options',
				default: 'both',
				options: [
					{ name: 'Succeeded or Failed', value: 'both' },
					{ name: 'Succeeded', value: 'succeeded', description: 'CDN result "success"; backup completed' },
					{ name: 'Failed', value: 'failed', description: 'CDN result "failed"; backup failed, in arrears, or deleted before it was seen completed' },
				],
				description: 'Which outcome starts the workflow',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runTriggerPoll(this, taskTrigger(this));
	}
}

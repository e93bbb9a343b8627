import { NodeConnectionTypes, type INodeExecutionData, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';

import { runTriggerPoll } from '../shared/poll/poll';
import { balanceTrigger } from './balancePoll';

/** Starts a workflow when the balance falls below a threshold, and optionally for each new consumption record (the poll: balancePoll.ts). */
export class VendorAccountBillingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Balance Trigger',
		// n8n's node panel lists a trigger under the action node whose internal name is the trigger's
		// without "Trigger" (n8n-nodes-vendor-cloud.vendorAccountBilling): one "Vendor Account & Billing"
		// entry with this trigger under Triggers, instead of an empty Triggers list there
		name: 'vendorAccountBillingTrigger',
		icon: { light: 'file:../../icons/balanceTrigger.svg', dark: 'file:../../icons/balanceTrigger.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		subtitle: '={{$parameter["thresholdSource"] === "account" ? "Below the account alarm value" : "Below " + $parameter["threshold"]}}',
		// n8n shows this text for the merged "Vendor Account & Billing" entry of the node panel, so it names both roles
		description: 'Account and billing: start a workflow when the balance falls below a threshold, or manage the account and its billing',
		// the editor's Docs link, opened as it is (a codex URL gets ?utm_… appended, which would swallow the #heading)
		documentationUrl: 'https://github.com/vendor-cloud/n8n-nodes-vendor-cloud/blob/main/docs/triggers.md#vendor-balance-trigger',
		defaults: { name: 'Vendor Balance Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorApi', required: true }],
		properties: [
			{
				// "Trigger On": n8n's node panel lists each option, by its `action`, under the Triggers of
				// "Vendor Account & Billing" (with no such parameter it showed "On new Vendor Balance event")
				displayName: 'Trigger On',
				name: 'thresholdSource',
				type: 'options',
				default: 'fixed',
				options: [
					{ name: 'Balance Below a Fixed Value', value: 'fixed', action: 'When the balance falls below a set amount', description: 'The threshold entered below' },
					{
						name: "Balance Below the Account's Alarm Value",
						value: 'account',
						action: "When the balance falls below the account's alarm value",
						description: 'The balance alarm value set on the account (profile/balanceAlarm), read at every poll',
					},
				],
				description: 'Which balance level starts the workflow: a fixed amount, or the alarm value set on the account',
			},
			{
				displayName: 'Threshold',
				name: 'threshold',
				type: 'number',
				default: 100,
				typeOptions: { numberPrecision: 2 },
				displayOptions: { show: { thresholdSource: ['fixed'] } },
				description: 'The workflow starts once when the balance falls below this amount, and again only after it rose to it or above',
			},
			{
				displayName: 'Also Emit Consumption Records',
				name: 'consumption',
				type: 'boolean',
				default: false,
				description: 'Whether to also start the workflow for each new consumption record (payment list, type consumption)',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runTriggerPoll(this, balanceTrigger(this));
	}
}

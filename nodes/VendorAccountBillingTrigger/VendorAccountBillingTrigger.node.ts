import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { firstRecord, listRows, payload } from '../shared/api/envelope';
import { apiRequest } from '../shared/api/transport';
import { READ, idOf, maxId, nowIso, readList, runTriggerPoll, type TriggerPoll } from '../shared/poll/poll';

/**
 * The balance falling below a threshold, once per crossing, and optionally every new
 * consumption record. The balance is a level, so a crossing is a change between two polls:
 * below now and not below at the previous successful poll. State: whether the balance was
 * below, and the highest consumption record id seen.
 */
interface BalanceState extends IDataObject {
	v: 1;
	below: boolean;
	/** Highest id of the consumption records seen; absent while they are not watched. */
	payHi?: number;
}

/** payList `type` 1: consumption. */
const CONSUMPTION = 1;
/** The fields of a payment record (docs/vendor/account-billing-cdn.md#billing), for a sample when there is no consumption record yet. */
const PAYMENT_FIELDS = ['id', 'uid', 'name', 'code', 'type_zh', 'paytype_zh', 'price', 'status', 'created', 'created_ago'];

/** An amount as the service sends it (`"12.50"` or `12.5`); NaN when it is missing or not a number. */
const amount = (value: unknown): number => {
	if (typeof value === 'number') return value;
	if (typeof value !== 'string' || value.trim() === '') return Number.NaN;
	return Number(value.trim());
};

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

/** The poll of this trigger, for the current parameters. */
function balanceTrigger(ctx: IPollFunctions): TriggerPoll<BalanceState> {
	const source = ctx.getNodeParameter('thresholdSource', 'fixed') as 'fixed' | 'account';
	const consumption = ctx.getNodeParameter('consumption', false) as boolean;

	/** The balance and threshold now: one request (profile/balance, or profile/detail with the alarm value). */
	const read = async (): Promise<{ balance: number; threshold: number }> => {
		if (source === 'account') {
			const envelope = await apiRequest(ctx, 'profile/detail', {}, READ);
			const bal = ((payload(envelope) as IDataObject | undefined)?.balance ?? {}) as IDataObject;
			const balance = amount(bal.price);
			const threshold = amount(bal.alarm_value);
			if (Number.isNaN(balance) || Number.isNaN(threshold)) {
				throw new NodeApiError(ctx.getNode(), envelope as JsonObject, {
					message: 'profile/detail answered without the balance and its alarm value',
					description: 'Check that the credential belongs to a main account, or use a fixed threshold.',
				});
			}
			return { balance, threshold };
		}
		const threshold = Number(ctx.getNodeParameter('threshold', 0));
		if (Number.isNaN(threshold)) {
			throw new NodeOperationError(ctx.getNode(), 'The threshold must be a number', { description: 'Enter an amount such as 100.' });
		}
		const envelope = await apiRequest(ctx, 'profile/balance', {}, READ);
		const balance = amount(firstRecord(envelope)?.price);
		if (Number.isNaN(balance)) {
			throw new NodeApiError(ctx.getNode(), envelope as JsonObject, {
				message: 'profile/balance answered without a balance',
				description: 'The next poll asks again.',
			});
		}
		return { balance, threshold };
	};

	const crossing = (balance: number, threshold: number, seenAt: string): IDataObject => ({
		event: 'belowThreshold',
		balance,
		threshold,
		seenAt,
	});
	const record = (row: IDataObject, balance: number, threshold: number, seenAt: string): IDataObject => ({
		event: 'consumption',
		...row,
		balance,
		threshold,
		seenAt,
	});

	const trigger: TriggerPoll<BalanceState> = {
		hasBaseline: (stored) =>
			stored !== undefined && stored.v === 1 && typeof stored.below === 'boolean' && (!consumption || typeof stored.payHi === 'number'),

		async poll(stored) {
			const { balance, threshold } = await read();
			const seenAt = nowIso();
			const below = balance < threshold;
			const known = stored?.v === 1 && typeof stored.below === 'boolean' ? stored : undefined;
			const state: BalanceState = { v: 1, below };
			const events: IDataObject[] = [];

			if (consumption) {
				const payHi = typeof known?.payHi === 'number' ? known.payHi : undefined;
				// newest first: read down to the last record seen (the first page for a baseline)
				const rows = await readList(ctx, 'profile/payList', { type: CONSUMPTION }, { stopBelow: payHi === undefined ? Infinity : payHi + 1 });
				state.payHi = maxId(rows, payHi ?? 0);
				if (payHi !== undefined) {
					for (const row of rows.filter((r) => idOf(r) > payHi).sort((a, b) => idOf(a) - idOf(b))) {
						events.push(record(row, balance, threshold, seenAt));
					}
				}
			}
			if (known && below && !known.below) events.push(crossing(balance, threshold, seenAt));
			return { state, events };
		},

		async sample() {
			// real events: the newest consumption record, and the balance if it is below the threshold now
			const { balance, threshold } = await read();
			const seenAt = nowIso();
			const real: IDataObject[] = [];
			let newestRecord: IDataObject | undefined;
			if (consumption) {
				const envelope = await apiRequest(ctx, 'profile/payList', { type: CONSUMPTION, page: 1, limit: 100 }, READ);
				newestRecord = listRows(envelope).sort((a, b) => idOf(b) - idOf(a))[0];
				if (newestRecord) real.push(record(newestRecord, balance, threshold, seenAt));
			}
			if (balance < threshold) real.push(crossing(balance, threshold, seenAt));
			if (real.length) return real;

			// nothing of that kind has happened: samples from the real balance, marked as such
			const shown = (n: number) => n.toFixed(2);
			const out: IDataObject[] = [
				{
					// marked first thing in the item, so that a workflow can tell a sample from an event
					sample: true,
					sampleNote: `Sample, not an event: the balance (${shown(balance)}) is not below the threshold (${shown(threshold)}), so it has not fallen below it. A real event has these fields when the balance falls below the threshold between two polls; "balance" is then below "threshold".`,
					...crossing(balance, threshold, seenAt),
				},
			];
			if (consumption) {
				out.push({
					sample: true,
					sampleNote: 'Sample, not an event: the account has no consumption record yet, so the record fields are empty. A real event is a new consumption record with its fields as the service lists them, plus the balance and threshold.',
					event: 'consumption',
					...Object.fromEntries(PAYMENT_FIELDS.map((f) => [f, null])),
					balance,
					threshold,
					seenAt,
				});
			}
			return out;
		},
	};
	return trigger;
}

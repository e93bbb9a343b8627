/**
 * The poll of the Vendor Balance Trigger: the balance falling below a threshold, once per
 * crossing, and optionally every new consumption record. The balance is a level, so a crossing is
 * a change between two polls: below now and not below at the previous successful poll. State:
 * whether the balance was below, and the highest consumption record id seen.
 */
import { NodeApiError, NodeOperationError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { firstRecord, listRows, payload } from '../shared/api/envelope';
import { apiRequest } from '../shared/api/transport';
import { READ, idOf, maxId, nowIso, readList, type PollResult, type TriggerPoll } from '../shared/poll/poll';

interface BalanceState extends IDataObject {
	v: 1;
	below: boolean;
	/** Highest id of the consumption records seen; absent while they are not watched. */
	payHi?: number;
}

/** The trigger's parameters, read once per poll (the fixed threshold is read with the balance, where an error in it fails the poll). */
interface Settings {
	source: 'fixed' | 'account';
	/** Whether consumption records are emitted too. */
	consumption: boolean;
}

/** The balance and the threshold it is compared with, as one poll read them. */
interface Level {
	balance: number;
	threshold: number;
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

/** The trigger's parameters. */
function settingsOf(ctx: IPollFunctions): Settings {
	const source = ctx.getNodeParameter('thresholdSource', 'fixed') as 'fixed' | 'account';
	const consumption = ctx.getNodeParameter('consumption', false) as boolean;
	return { source, consumption };
}

/** The balance and threshold now: one request (profile/balance, or profile/detail with the alarm value). */
async function readLevel(ctx: IPollFunctions, s: Settings): Promise<Level> {
	if (s.source === 'account') {
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
}

/** The item of a crossing: the balance fell below the threshold. */
const crossingItem = (level: Level, seenAt: string): IDataObject => ({
	event: 'belowThreshold',
	balance: level.balance,
	threshold: level.threshold,
	seenAt,
});

/** The item of a consumption record: the record with the balance and threshold of the poll. */
const recordItem = (row: IDataObject, level: Level, seenAt: string): IDataObject => ({
	event: 'consumption',
	...row,
	balance: level.balance,
	threshold: level.threshold,
	seenAt,
});

/** One poll: a crossing since the previous poll, and the consumption records newer than the last one seen. */
async function pollBalance(ctx: IPollFunctions, s: Settings, stored: BalanceState | undefined): Promise<PollResult<BalanceState>> {
	const level = await readLevel(ctx, s);
	const seenAt = nowIso();
	const below = level.balance < level.threshold;
	const known = stored?.v === 1 && typeof stored.below === 'boolean' ? stored : undefined;
	const state: BalanceState = { v: 1, below };
	const events: IDataObject[] = [];

	if (s.consumption) {
		const payHi = typeof known?.payHi === 'number' ? known.payHi : undefined;
		// newest first: read down to the last record seen (the first page for a baseline)
		const rows = await readList(ctx, 'profile/payList', { type: CONSUMPTION }, { stopBelow: payHi === undefined ? Infinity : payHi + 1 });
		state.payHi = maxId(rows, payHi ?? 0);
		if (payHi !== undefined) {
			for (const row of rows.filter((r) => idOf(r) > payHi).sort((a, b) => idOf(a) - idOf(b))) {
				events.push(recordItem(row, level, seenAt));
			}
		}
	}
	if (known && below && !known.below) events.push(crossingItem(level, seenAt));
	return { state, events };
}

/** "Fetch Test Event": the newest consumption record and the balance if it is below the threshold now, else marked samples. */
async function sampleBalance(ctx: IPollFunctions, s: Settings): Promise<IDataObject[]> {
	const level = await readLevel(ctx, s);
	const seenAt = nowIso();
	const real: IDataObject[] = [];
	if (s.consumption) {
		const envelope = await apiRequest(ctx, 'profile/payList', { type: CONSUMPTION, page: 1, limit: 100 }, READ);
		const newestRecord = listRows(envelope).sort((a, b) => idOf(b) - idOf(a))[0];
		if (newestRecord) real.push(recordItem(newestRecord, level, seenAt));
	}
	if (level.balance < level.threshold) real.push(crossingItem(level, seenAt));
	return real.length ? real : samplesWithoutEvent(s, level, seenAt);
}

/** Nothing of the watched kinds has happened: samples from the real balance, each marked as a sample first thing in the item. */
function samplesWithoutEvent(s: Settings, level: Level, seenAt: string): IDataObject[] {
	const shown = (n: number) => n.toFixed(2);
	const out: IDataObject[] = [
		{
			// marked first thing in the item, so that a workflow can tell a sample from an event
			sample: true,
			sampleNote: `Sample, not an event: the balance (${shown(level.balance)}) is not below the threshold (${shown(level.threshold)}), so it has not fallen below it. A real event has these fields when the balance falls below the threshold between two polls; "balance" is then below "threshold".`,
			...crossingItem(level, seenAt),
		},
	];
	if (s.consumption) {
		out.push({
			sample: true,
			sampleNote: 'Sample, not an event: the account has no consumption record yet, so the record fields are empty. A real event is a new consumption record with its fields as the service lists them, plus the balance and threshold.',
			event: 'consumption',
			...Object.fromEntries(PAYMENT_FIELDS.map((f) => [f, null])),
			balance: level.balance,
			threshold: level.threshold,
			seenAt,
		});
	}
	return out;
}

/** The poll of this trigger, for the current parameters. */
export function balanceTrigger(ctx: IPollFunctions): TriggerPoll<BalanceState> {
	const s = settingsOf(ctx);
	return {
		hasBaseline: (stored) =>
			stored !== undefined && stored.v === 1 && typeof stored.below === 'boolean' && (!s.consumption || typeof stored.payHi === 'number'),
		poll: async (stored) => await pollBalance(ctx, s, stored),
		sample: async () => await sampleBalance(ctx, s),
	};
}

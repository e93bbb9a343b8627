/** Hosts beyond their fields: the checks of a new host, the line of a host record, monitoring points as items, and Host > Find in Text. */
import type { IDataObject } from 'n8n-workflow';

import { lineCode } from '../shared/api/codes';
import type { OperationContext } from '../shared/api/declarations';
import { payload, type Envelope } from '../shared/api/envelope';
import { LOCATORS } from '../shared/api/locators';
import { findNamedIn } from '../shared/api/resolve';
import { InputError } from '../shared/errors';

/** networkid 1 is the inner network; every other line is public and needs a bandwidth. */
const INNER_NETWORK = 1;

/** Host > Create: a public line needs a bandwidth above 0, the inner network none; a coupon amount of 0 is not sent. */
export function checkNewHost(body: IDataObject): IDataObject {
	const out = { ...body };
	if (Number(out.networkid) === INNER_NETWORK) {
		delete out.networkvalue;
	} else if (!(Number(out.networkvalue) > 0)) {
		throw new InputError(
			'The "Bandwidth" field is required for a public line',
			'Give a bandwidth above 0, or choose the Inner Network line for a host without public bandwidth.',
		);
	}
	if (!out.couponprice) delete out.couponprice;
	return out;
}

/**
 * The line code of a host (`network` {id, line}), from `line` only (a code or a line name the nodes
 * know); undefined when `line` is a word they do not know. `network.id` is never read as a line:
 * it may be the id of a networkResourceList row (docs/vendor/readings.md#r61, #r68).
 */
export function hostLineCode(r: IDataObject): number | undefined {
	const network = r.network && typeof r.network === 'object' && !Array.isArray(r.network) ? (r.network as IDataObject) : {};
	return lineCode(network.line);
}

/**
 * instance/monitor answers { cpu: [[timestamp ms, value], ...] }. Each point becomes one item
 * { metric, timestamp, time, value }: `metric` is the series name (`cpu`), `timestamp` the
 * milliseconds as sent, `time` the same instant as ISO 8601, `value` as sent.
 */
export function monitoringPoints(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	if (!p || typeof p !== 'object' || Array.isArray(p)) return [];
	const out: IDataObject[] = [];
	for (const [metric, series] of Object.entries(p as IDataObject)) {
		if (!Array.isArray(series)) continue;
		for (const point of series) {
			if (!Array.isArray(point) || point.length < 2) continue;
			const timestamp = Number(point[0]);
			out.push({
				metric,
				timestamp,
				time: Number.isFinite(timestamp) ? new Date(timestamp).toISOString() : null,
				value: point[1] as IDataObject[string],
			});
		}
	}
	return out;
}

/** Host > Find in Text: the hosts the text names, from one listing per run (resolve.ts). */
export async function findInText(ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	const found = await findNamedIn(ctx.fn, LOCATORS.host, String(body.text ?? ''), ctx.itemIndex);
	const one = found.named.length === 1 ? found.named[0] : undefined;
	const names = (rows: IDataObject[]) => rows.map((r) => String(r.name ?? r.id));
	return [
		{
			found: one !== undefined,
			message: found.message,
			...(one ?? {}),
			named: names(found.named),
			...(one ? {} : { hosts: names(found.all) }),
		},
	];
}


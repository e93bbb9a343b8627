/**
 * Channels beyond their fields: origins written the service's way (`{ "<host>": "<port>" }`,
 * with a weight `"<port>,<weight>"`) and read back as "host:port" entries, the checks that
 * need several fields of a channel at once, and "Get" through a list endpoint.
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { AfterCall } from '../shared/api/declarations';
import { InputError } from '../shared/errors';
import { isIpv4, isIpv6 } from '../shared/validation';

/** Origins `{ "<ip>": "<port>" }` (with a weight: "<port>,<weight>") as "ip:port" entries. */
export function originList(v: unknown): string[] | undefined {
	if (!v || typeof v !== 'object') return undefined;
	const entries = Array.isArray(v) ? (v as unknown[]).flatMap((o) => (o && typeof o === 'object' ? Object.entries(o as IDataObject) : [])) : Object.entries(v as IDataObject);
	return entries.map(([host, port]) => `${host}:${String(port).split(',')[0]}`);
}

/** `{ "<host>": "<port>" }` or, with a weight, `"<port>,<weight>"`. */
export function originObject(rows: IDataObject[], label: string): IDataObject {
	const out: IDataObject = {};
	rows.forEach((r, n) => {
		const host = String(r.ip).trim();
		if (host in out) throw new InputError(`"${label} ${n + 1}: Address" repeats ${host}`, 'Give each origin address once.');
		const weight = Number(r.weight ?? 0);
		out[host] = weight > 0 ? `${String(r.port)},${weight}` : String(r.port);
	});
	return out;
}

const isIp = (h: string) => isIpv4(h) || isIpv6(h);

/**
 * Checks that need several fields: origin addresses against Origin Type, weights against
 * Origin Policy. On update, a setting the request leaves out is the channel's, which the node
 * does not know, so only what the request itself says is checked.
 */
export function checkOrigins(body: IDataObject, adding: boolean): IDataObject {
	const origintype = (body.origintype as string | undefined) ?? (adding ? 'ip' : undefined);
	const weighted = body.origin_sty === undefined ? undefined : body.origin_sty === 'wgt';
	const ip = body.ip as IDataObject | undefined;
	if (ip) {
		Object.entries(ip).forEach(([host, value], n) => {
			const label = `Origins ${n + 1}`;
			if (origintype === 'ip' && !isIp(host)) {
				throw new InputError(`Invalid "${label}: Address": "${host}" is not an IP address`, 'Origin Type is IP: give IP addresses, or set Origin Type to Domain.');
			}
			const hasWeight = String(value).includes(',');
			if (weighted === true && !hasWeight) {
				throw new InputError(`"${label}: Weight" is required when Origin Policy is Weighted`, 'Give every origin a weight from 1 to 100.');
			}
			if (weighted === false && hasWeight) {
				throw new InputError(`"${label}: Weight" is only used when Origin Policy is Weighted`, 'Set the weight to 0, or choose the Weighted origin policy.');
			}
		});
	}
	if (typeof body.deny_ip === 'string') {
		body.deny_ip = body.deny_ip
			.split(/\r?\n|,/)
			.map((x) => x.trim())
			.filter(Boolean)
			.join('\n');
	}
	return body;
}

/**
 * The `after` of a "Get" made through a list endpoint with one id: the one record, or an error
 * naming `what` when the answer is empty (there is no such record).
 */
export function foundOne(what: string): AfterCall {
	return async (records, ctx, body) => {
		if (records.length === 0) {
			throw new NodeOperationError(ctx.fn.getNode(), `${what} ${String(body.id)} was not found`, {
				itemIndex: ctx.itemIndex,
				description: `Check the ID; choose the ${what.toLowerCase()} from the list to be sure it exists.`,
			});
		}
		return records.slice(0, 1);
	};
}

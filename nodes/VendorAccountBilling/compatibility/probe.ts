/**
 * What the compatibility check reads with: log-ins through the credential's own helper and
 * reads with a token of its own, each answer seen as it came (no renewal, no retry) and kept for
 * the findings, and the words that say how a value came.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { authorize } from '../../shared/api/auth';

/** One item of the check's output: what was tried, what the service did, which reading that is. */
export interface Finding extends IDataObject {
	check: string;
	tried: string;
	observed: string;
	reading: string;
}

/** One read as it came. */
export interface Answer {
	ok: boolean;
	status?: number;
	body?: IDataObject;
	problem?: string;
}

export type Http = (options: IHttpRequestOptions) => Promise<unknown>;

/** The password encodings a log-in is tried with. */
export const ENCODINGS = ['none', 'md5', 'base64'];

/** Envelope fields the documentation names (code, message, payload, paging, log-in). */
export const ENVELOPE_KEYS = new Set(['code', 'message', 'data', 'result', 'created', 'limit', 'page', 'total', 'totalpage', 'access_token', 'expires']);

/** Record fields the documentation lists, per answer read here. */
export const DOCUMENTED_FIELDS: Record<string, string[]> = {
	'profile/detail': ['uid', 'name', 'mail', 'status', 'profile', 'balance', 'couponprice', 'subaccounts'],
	'profile/balance': ['price'],
	'profile/groupList': ['id', 'uid', 'name', 'note', 'created', 'username', 'created_ago'],
	'instance/nodeList': ['id', 'areaname', 'status'],
	'instance/networkResourceList': ['id', 'linetype', 'node', 'status'],
	'dns/planList': [
		'id', 'group', 'name', 'price', 'auth', 'strategy', 'enable_strategy', 'strategy_num', 'strategy_template_num', 'record_num',
		'monitor_num', 'monitor_retry', 'monitor_interval', 'monitor_notice', 'createtime', 'createtime_ago',
	],
};

/** Keys whose value the documentation describes as an object (so `[]` there is an empty object written PHP style). */
export const OBJECT_KEYS = new Set(['profile', 'balance', 'node', 'group', 'auth', 'ip', 'originback', 'cpu', 'mem', 'image', 'network', 'firewall', 'net', 'instance', 'plan']);

/** How a value came: `1 (a number)`, `"1" (a string)`. */
export function shown(v: unknown): string {
	if (v === undefined) return 'absent';
	if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}" (a string)`;
	if (typeof v === 'number') return `${v} (a number)`;
	if (Array.isArray(v)) return v.length ? 'an array' : '[] (an empty array)';
	if (v === null) return 'null';
	return typeof v === 'object' ? (Object.keys(v).length ? 'an object' : '{} (an empty object)') : `${String(v)} (${typeof v})`;
}

export const numericString = (v: unknown) => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim());
export const isObject = (v: unknown): v is IDataObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where an answer's payload is (`data`, `result` or none) and what it holds. */
export function payloadOf(body: IDataObject | undefined): { key: string; value: unknown } {
	if (!body) return { key: 'none', value: undefined };
	if (body.data !== undefined) return { key: 'data', value: body.data };
	if (body.result !== undefined) return { key: 'result', value: body.result };
	return { key: 'none', value: undefined };
}

/** The objects of an answer's payload when it is a list (none otherwise). */
export const payloadObjects = (body: IDataObject | undefined): IDataObject[] => {
	const p = payloadOf(body).value;
	return Array.isArray(p) ? (p.filter(isObject) as IDataObject[]) : [];
};

/** The connection of one check: its log-ins and reads, with every read answer kept (`answers`). */
export class Probe {
	readonly answers: Array<{ path: string; body: IDataObject }> = [];

	constructor(
		private readonly http: Http,
		readonly base: string,
	) {}

	/** One log-in through the credential's own helper; the raw answer is kept for its shape only. */
	async logIn(creds: ICredentialDataDecryptedObject) {
		let raw: unknown;
		const result = await authorize(async (o) => {
			raw = await this.http(o);
			return raw;
		}, creds);
		// authorize() asks for the full response: the envelope is its body (a string when not JSON)
		const response = raw as unknown;
		const full = isObject(response) && 'statusCode' in response;
		const date = full && isObject(response.headers) ? response.headers.date : undefined;
		let body = full ? (response as IDataObject).body : response;
		if (typeof body === 'string') {
			try {
				body = JSON.parse(body) as unknown;
			} catch {
				body = undefined;
			}
		}
		return { result, raw: isObject(body) ? body : undefined, date };
	}

	/** One read with a given token, the answer as it came (no renewal, no retry). */
	async read(path: string, token: string, body: IDataObject = {}): Promise<Answer> {
		try {
			const response = (await this.http({
				method: 'POST',
				url: `${this.base}/API/${path}`,
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
				body: { ...body, token },
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: 30000,
			})) as { statusCode: number; body: unknown };
			if (!isObject(response.body)) return { ok: false, status: response.statusCode, problem: `HTTP ${response.statusCode} without a JSON envelope` };
			const envelope = response.body;
			this.answers.push({ path, body: envelope });
			if (Number(envelope.code) !== 1) {
				return { ok: false, status: response.statusCode, body: envelope, problem: `code ${shown(envelope.code)}: ${String(envelope.message ?? 'no message')}` };
			}
			return { ok: true, status: response.statusCode, body: envelope };
		} catch (error) {
			return { ok: false, problem: (error as Error).message };
		}
	}
}

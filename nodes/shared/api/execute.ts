/**
 * The execute loop of a node built from declarations: for every input item (at most
 * "Concurrent Requests" at once, run.ts), find its operation, build and check the body
 * (input.ts), call the endpoint or read the list, shape the records (output.ts), and add what a
 * tool run needs (tool-run.ts). Output keeps the input order with pairedItem; Continue On Fail
 * puts an error item in a failed item's place.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { InputError, inUserWords } from '../errors';
import { noteOnce } from '../notes';
import { credentialSecrets, redactError, redactRecords } from '../redact';
import { runItems, runState } from '../run';
import { forModel, isToolRun } from '../tool';
import type { ApiArea, FieldDecl, OperationContext, OperationDecl } from './declarations';
import { buildBody } from './input';
import { nounOf } from './naming';
import { answerRecords, defaultRecords, simplified } from './output';
import { forToolRun, type ListShown } from './tool-run';
import { API_CREDENTIAL } from './auth';
import { apiRequestAllItems } from './paging';
import { apiRequest } from './transport';
import { decimalOf, readBoolean, readWholeNumber } from './values';
import { areaAt } from './versions';

/**
 * An extra parameter of the operation (Wait for Completion, its Timeout...): a switch or a number
 * from an expression is read as the user meant it or refused naming it (values.ts), never taken
 * for something else ("false" is not true).
 */
function extraParameter(fn: IExecuteFunctions, op: OperationDecl, i: number, name: string, fallback: unknown): unknown {
	const raw = fn.getNodeParameter(name, i, fallback as never) as unknown;
	const property = op.extras?.find((p) => p.name === name);
	if (!property || raw === undefined || raw === null) return raw;
	if (property.type === 'boolean') return readBoolean(raw, property.displayName);
	if (property.type === 'number') {
		const n = decimalOf(raw);
		const min = property.typeOptions?.minValue;
		if (n === undefined || (min !== undefined && n < min)) {
			throw new InputError(
				`The "${property.displayName}" field must be a number${min !== undefined ? ` from ${min}` : ''}, not "${String(raw)}"`,
				`Enter a number written with digits${property.description ? `: ${property.description}` : ''}.`,
			);
		}
		return n;
	}
	return raw;
}

function operationContext(fn: IExecuteFunctions, op: OperationDecl, i: number): OperationContext {
	return {
		fn,
		itemIndex: i,
		param: <T>(name: string, fallback?: T) => extraParameter(fn, op, i, name, fallback) as T,
	};
}

/** Return All and Limit of item `i`: the number of records wanted, undefined for all of them. */
function wanted(fn: IExecuteFunctions, i: number): number | undefined {
	if (readBoolean(fn.getNodeParameter('returnAll', i, false), 'Return All')) return undefined;
	return readWholeNumber(fn.getNodeParameter('limit', i, 50), 'Limit', 1, 'Enter how many records to return at most, such as 50, or switch Return All on');
}

/** Told in the output when a list changed while it was read page by page (paging.ts). */
const LIST_CHANGED = 'listChangedWhileRead';

/** The records of a list operation: every page, or up to Limit (told in `list`). */
async function readList(fn: IExecuteFunctions, op: OperationDecl, i: number, body: IDataObject, list: ListShown): Promise<IDataObject[]> {
	const limit = wanted(fn, i);
	list.limit = limit;
	const keep = op.list!.keep?.(fn, i);
	if (keep) {
		// filtered here: read until Limit records were kept (every page for Return All)
		const rows = await apiRequestAllItems(fn, op.path, body, {
			itemIndex: i,
			pageSize: op.list!.pageSize,
			enough: limit === undefined ? undefined : (read) => read.filter(keep).length >= limit,
			onChanged: () => (list.changed = true),
		});
		const kept = rows.filter(keep);
		if (limit === undefined || kept.length < limit) list.total = kept.length;
		return limit === undefined ? kept : kept.slice(0, limit);
	}
	if (op.list!.paged) {
		return await apiRequestAllItems(fn, op.path, body, {
			itemIndex: i,
			limit,
			pageSize: op.list!.pageSize,
			onTotal: (total) => (list.total = total),
			onChanged: () => (list.changed = true),
		});
	}
	const envelope = await apiRequest(fn, op.path, body, { itemIndex: i, read: true });
	const records = op.output ? op.output(envelope) : defaultRecords(envelope);
	list.total = records.length;
	return limit !== undefined ? records.slice(0, limit) : records;
}

/** One item of one operation: its output records. `noun` names the resource in a tool run's list note. */
export async function runOperation(fn: IExecuteFunctions, op: OperationDecl, i: number, noun = op.resource): Promise<IDataObject[]> {
	const ctx = operationContext(fn, op, i);
	let body = await buildBody(fn, op, i);
	if (op.prepare) body = await op.prepare(body, ctx);
	if (op.beforeSend) await op.beforeSend(body, ctx);
	let records: IDataObject[];
	const list: ListShown = { noun };
	if (op.run) {
		records = await op.run(ctx, body);
	} else if (op.list) {
		records = await readList(fn, op, i, body, list);
	} else {
		const envelope = await apiRequest(fn, op.path, body, { itemIndex: i, read: op.readOnly === true, noToken: op.noToken });
		records = answerRecords(op, envelope, body);
	}
	if (op.after) records = await op.after(records, ctx, body);
	records = simplified(fn, op, i, records, body);
	if (list.changed) {
		// read twice and it moved both times: what was read is given, and said to be so
		records = records.map((r) => ({ ...r, [LIST_CHANGED]: true }));
		noteOnce(
			fn,
			`The list changed while it was read page by page, twice: records added or removed meanwhile may be missing or shown once more; the items carry "${LIST_CHANGED}": true. Run the node again for a steady list.`,
			'warning',
		);
	}
	// what holds for the whole run (the currency of amounts...): said once, above the output
	if (records.length) for (const note of op.notes ?? []) noteOnce(fn, note);
	if (isToolRun(fn)) records = await forToolRun(fn, op, i, records, body, list);
	return records;
}

/** The secrets of the run's Vendor API credential (read once per run), to keep them out of output and errors. */
async function runSecrets(fn: IExecuteFunctions): Promise<string[]> {
	try {
		const state = runState(fn);
		if (!state.credentials.has(API_CREDENTIAL)) state.credentials.set(API_CREDENTIAL, fn.getCredentials(API_CREDENTIAL));
		return credentialSecrets(await state.credentials.get(API_CREDENTIAL)!);
	} catch {
		return [];
	}
}

/** The operation of item `i` in the declarations of the workflow's node version. */
function operationOf(fn: IExecuteFunctions, area: ApiArea, i: number): OperationDecl {
	const resource = fn.getNodeParameter('resource', i) as string;
	const operation = fn.getNodeParameter('operation', i) as string;
	const op = area.operations.find((o) => o.resource === resource && o.operation === operation);
	if (!op) {
		throw new NodeOperationError(fn.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex: i });
	}
	return op;
}

/** The fields of an operation by wire name, as the user sees them (for the service's words about them). */
function fieldLabels(op: OperationDecl): Record<string, string> {
	const labels: Record<string, string> = {};
	const visit = (fields: FieldDecl[]) => {
		for (const f of fields) {
			if (!f.notSent && !(f.wire in labels)) labels[f.wire] = f.displayName;
			if (f.rows) visit(f.rows.fields);
		}
	};
	visit(op.fields ?? []);
	return labels;
}

/**
 * Items that ask an operation with `onceForSameRequest` for the same thing: the first item of
 * each group of two or more, with the items it answers for. Worked out before the items run
 * (reading parameters only), so the first item of a group is always the one that runs.
 */
async function sameRequests(fn: IExecuteFunctions, area: ApiArea, count: number): Promise<Map<number, number[]>> {
	const groups = new Map<string, number[]>();
	for (let i = 0; i < count; i++) {
		try {
			const op = operationOf(fn, area, i);
			if (!op.onceForSameRequest) continue;
			const key = JSON.stringify([op.resource, op.operation, await buildBody(fn, op, i)]);
			groups.set(key, [...(groups.get(key) ?? []), i]);
		} catch {
			// its own run says what is wrong
		}
	}
	return new Map([...groups.values()].filter((g) => g.length > 1).map((g) => [g[0], g]));
}

/** `execute` of a node built from an area's declarations. */
export async function executeArea(fn: IExecuteFunctions, allVersions: ApiArea): Promise<INodeExecutionData[][]> {
	// the declarations of the version the workflow was saved with
	const area = areaAt(allVersions, fn.getNode().typeVersion);
	const items = fn.getInputData();
	let serial = false;
	try {
		serial = items.length > 1 && operationOf(fn, area, 0).oneItemAtATime !== undefined;
	} catch {
		// reported per item below
	}
	const tool = isToolRun(fn);
	const once = items.length > 1 ? await sameRequests(fn, area, items.length) : new Map<number, number[]>();
	const answered = new Set([...once.values()].flatMap((g) => g.slice(1)));
	const out = await runItems(
		fn,
		items.length,
		async (i) => {
			// asked the same as an earlier item: that item's answer is this one's too
			if (answered.has(i)) return [];
			let op: OperationDecl | undefined;
			try {
				op = operationOf(fn, area, i);
				const noun = nounOf(area.resources.find((r) => r.value === op!.resource)?.name ?? op.resource);
				// a service may echo a secret in a record (or a record may hold one): never in the output
				const records = redactRecords(await runOperation(fn, op, i, noun), await runSecrets(fn));
				return records.map((json) => ({ json }));
			} catch (error) {
				const e = redactError(
					error instanceof InputError
						? new NodeOperationError(fn.getNode(), error.message, { itemIndex: i, description: error.description })
						: op
							? inUserWords(error, `"${op.action}"`, fieldLabels(op))
							: error,
					await runSecrets(fn),
				);
				// a model reads the message only (AI Agent): the advice goes into it
				throw tool ? forModel(e) : e;
			}
		},
		{ serial },
	);
	for (const item of out) {
		const group = once.get((item.pairedItem as { item: number } | undefined)?.item ?? -1);
		if (!group) continue;
		item.pairedItem = group.map((n) => ({ item: n }));
		const op = operationOf(fn, area, group[0]);
		noteOnce(fn, op.onceForSameRequest!.said(group.length));
	}
	return [out];
}

/**
 * The execute loop of a node built from declarations: for every input item (at most
 * "Concurrent Requests" at once, run.ts), find its operation, build and check the body
 * (input.ts), call the endpoint or read the list, shape the records (output.ts), and add what a
 * tool run needs (tool-run.ts). Output keeps the input order with pairedItem; Continue On Fail
 * puts an error item in a failed item's place.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { InputError } from '../errors';
import { noteOnce } from '../notes';
import { credentialSecrets, redactError, redactRecords } from '../redact';
import { runItems, runState } from '../run';
import { forModel, isToolRun } from '../tool';
import type { ApiArea, OperationContext, OperationDecl } from './declarations';
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
			`The list ${op.path} changed while it was read page by page, twice: records added or removed meanwhile may be missing or shown once more; the items carry "${LIST_CHANGED}": true. Run the node again for a steady list.`,
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
	const out = await runItems(
		fn,
		items.length,
		async (i) => {
			try {
				const op = operationOf(fn, area, i);
				const noun = nounOf(area.resources.find((r) => r.value === op.resource)?.name ?? op.resource);
				// a service may echo a secret in a record (or a record may hold one): never in the output
				const records = redactRecords(await runOperation(fn, op, i, noun), await runSecrets(fn));
				return records.map((json) => ({ json }));
			} catch (error) {
				const e = redactError(
					error instanceof InputError ? new NodeOperationError(fn.getNode(), error.message, { itemIndex: i, description: error.description }) : error,
					await runSecrets(fn),
				);
				// a model reads the message only (AI Agent): the advice goes into it
				throw tool ? forModel(e) : e;
			}
		},
		{ serial },
	);
	return [out];
}

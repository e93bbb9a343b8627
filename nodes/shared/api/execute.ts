/**
 * The execute loop of a node built from declarations: for every input item (at most
 * "Concurrent Requests" at once, run.ts), find its operation, build and check the body
 * (input.ts), call the endpoint or read the list, shape the records (output.ts), and add what a
 * tool run needs (tool-run.ts). Output keeps the input order with pairedItem; Continue On Fail
 * puts an error item in a failed item's place.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { InputError } from '../errors';
import { runItems } from '../run';
import { forModel, isToolRun } from '../tool';
import type { ApiArea, OperationContext, OperationDecl } from './declarations';
import { buildBody } from './input';
import { nounOf } from './naming';
import { answerRecords, defaultRecords, simplified } from './output';
import { forToolRun, type ListShown } from './tool-run';
import { apiRequestAllItems } from './paging';
import { apiRequest } from './transport';
import { areaAt } from './versions';

function operationContext(fn: IExecuteFunctions, i: number): OperationContext {
	return {
		fn,
		itemIndex: i,
		param: <T>(name: string, fallback?: T) => fn.getNodeParameter(name, i, fallback as never) as T,
	};
}

/** The records of a list operation: every page, or up to Limit (told in `list`). */
async function readList(fn: IExecuteFunctions, op: OperationDecl, i: number, body: IDataObject, list: ListShown): Promise<IDataObject[]> {
	const returnAll = fn.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll ? undefined : (fn.getNodeParameter('limit', i, 50) as number);
	list.limit = limit;
	if (op.list!.paged) {
		return await apiRequestAllItems(fn, op.path, body, { itemIndex: i, limit, pageSize: op.list!.pageSize, onTotal: (total) => (list.total = total) });
	}
	const envelope = await apiRequest(fn, op.path, body, { itemIndex: i, read: true });
	const records = op.output ? op.output(envelope) : defaultRecords(envelope);
	list.total = records.length;
	return limit !== undefined ? records.slice(0, limit) : records;
}

/** One item of one operation: its output records. `noun` names the resource in a tool run's list note. */
export async function runOperation(fn: IExecuteFunctions, op: OperationDecl, i: number, noun = op.resource): Promise<IDataObject[]> {
	const ctx = operationContext(fn, i);
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
	if (isToolRun(fn)) records = await forToolRun(fn, op, i, records, body, list);
	return records;
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
				const records = await runOperation(fn, op, i, noun);
				return records.map((json) => ({ json }));
			} catch (error) {
				const e = error instanceof InputError ? new NodeOperationError(fn.getNode(), error.message, { itemIndex: i, description: error.description }) : error;
				// a model reads the message only (AI Agent): the advice goes into it
				throw tool ? forModel(e) : e;
			}
		},
		{ serial },
	);
	return [out];
}

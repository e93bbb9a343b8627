/**
 * What a tool run (the node used by an AI Agent or an MCP client, see ../tool.ts) adds to the
 * records: the object a change acted on, by ID and name, and after a list that was cut, a last
 * item saying how many there are and how to see the rest.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listNote } from '../tool';
import type { FieldDecl, OperationDecl } from './declarations';
import { itemParameter } from './input';
import { locatorOf } from './locators';
import { camel, isTopLevel, pluralKey } from './naming';
import { nameOf, rowsWithIds } from './resolve';

/** What the list of a run showed: the Limit, the size the service stated, and the noun for the note. */
export interface ListShown {
	limit?: number;
	total?: number;
	noun: string;
	/** The list changed while it was read page by page, also when read again (paging.ts). */
	changed?: boolean;
}

/** Parameters of the tool node as written (expressions unresolved): which ones the model sets. */
function rawParameters(fn: IExecuteFunctions): IDataObject {
	try {
		return (fn.getNode().parameters ?? {}) as IDataObject;
	} catch {
		return {};
	}
}

/** The IDs a request sent in a field: a number, a comma string or an array. */
function sentIds(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	return (Array.isArray(value) ? value : String(value).split(',')).map((x) => String(x).trim()).filter(Boolean);
}

/** The declared target of a change that takes names (a host, disk, domain...), as tool-text.ts describes it. */
export function actedOnField(op: OperationDecl): FieldDecl | undefined {
	if (op.list || /^(create|add|register)/i.test(op.operation)) return undefined;
	return (op.fields ?? []).find((f) => isTopLevel(f) && !f.notSent && (f.kind === 'locator' || f.kind === 'locators') && !!f.locator && !!locatorOf(f.locator).resolve);
}

/** The records with the ID and name of what the change acted on (a record about another object is left as it is). */
async function namingTarget(fn: IExecuteFunctions, op: OperationDecl, i: number, records: IDataObject[], body: IDataObject): Promise<IDataObject[]> {
	const target = actedOnField(op);
	if (!target || op.readOnly || body[target.wire] === undefined) return records;
	const loc = locatorOf(target.locator!);
	let rows: IDataObject[] = [];
	try {
		rows = await rowsWithIds(fn, loc, sentIds(body[target.wire]), i, itemParameter(fn, i));
	} catch {
		rows = []; // naming is a help; the change was made
	}
	const named = rows.map((r) => ({ id: r[loc.idField ?? 'id'] as string, name: nameOf(loc, r) }));
	// a record about another object (a task, a console ticket with its own id) is left as it is
	if (named.length === 1) return records.map((r) => (r.id === undefined || String(r.id) === String(named[0].id) ? { ...r, id: named[0].id, name: r.name ?? named[0].name } : r));
	if (named.length > 1) return records.map((r) => ({ ...r, [camel(`${pluralKey(target.locator!)}`)]: named }));
	return records;
}

/**
 * What a model needs on top of the records (tool runs only): the object a change acted on, by ID
 * and name, and, after a list that was cut, how many there are and how to see the rest.
 */
export async function forToolRun(fn: IExecuteFunctions, op: OperationDecl, i: number, records: IDataObject[], body: IDataObject, list: ListShown): Promise<IDataObject[]> {
	const out = await namingTarget(fn, op, i, records, body);
	if (op.list && list.limit !== undefined && records.length >= list.limit && (list.total === undefined || list.total > records.length)) {
		return [...out, listNote({ shown: records.length, total: list.total, noun: list.noun, limit: list.limit, parameters: rawParameters(fn) })];
	}
	return out;
}

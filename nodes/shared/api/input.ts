/**
 * The request body of one item: every field of the operation read from the node's parameters,
 * checked (required fields, the kind's own checks, the field's validators), names looked up
 * where a resource may be named (resolve.ts), and converted to its wire form (field-kinds.ts).
 * Nothing is sent when a field is wrong: the InputError names it and says how to fix it.
 */
import type { IDataObject, IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

import { InputError } from '../errors';
import { isToolRun } from '../tool';
import type { FieldDecl, OperationDecl } from './declarations';
import { FIELD_KINDS, convert } from './field-kinds';
import { locatorOf } from './locators';
import { collectionOf, isTopLevel, paramName } from './naming';
import { isId, resolveReference } from './resolve';
import { isEmpty, splitEntries } from './values';

/** Reads another parameter of the item by name (undefined when it has none). */
export function itemParameter(fn: IExecuteFunctions, itemIndex: number) {
	return (name: string) => {
		try {
			return fn.getNodeParameter(name, itemIndex, undefined, { extractValue: true });
		} catch {
			return undefined;
		}
	};
}

/** Whether a top-level field is shown, by the other parameters its `show` names. */
function visible(fn: IExecuteFunctions, field: FieldDecl, i: number): boolean {
	for (const [name, values] of Object.entries(field.show ?? {})) {
		const current = fn.getNodeParameter(name, i, undefined) as NodeParameterValueType;
		if (!values.some((v) => String(v) === String(current))) return false;
	}
	return true;
}

/**
 * A locator's input as the resource's ID(s): names, instance IDs, IP addresses and the like are
 * looked up (resolve.ts); IDs pass as they are.
 */
async function resolved(fn: IExecuteFunctions, field: FieldDecl, raw: unknown, i: number): Promise<unknown> {
	const loc = locatorOf(field.locator!);
	if (!loc.resolve) return raw;
	const current = itemParameter(fn, i);
	const options = { verifyIds: isToolRun(fn) };
	if (FIELD_KINDS[field.kind].lookUp === 'one') {
		const id = typeof raw === 'object' && raw !== null ? (raw as IDataObject).value : raw;
		if (!options.verifyIds && modeOf(fn, field, i) === 'id' && !isId(loc, String(id ?? '').trim())) {
			// "By ID" takes an ID: "abc", "1.5" or "-1" there is a mistake, not a name to look up (a tool run
			// takes names in any mode, as its description says)
			const what = loc.idName ? loc.idName.toLowerCase() : 'ID';
			const noun = loc.label.toLowerCase();
			throw new InputError(
				`The "${field.displayName}" field is set to By ${loc.idName ?? 'ID'}, and "${String(id)}" is not a ${noun} ${what}`,
				`Enter the ${noun}'s ${loc.idName ? what : 'numeric ID (a whole number such as 12)'}, choose it From List, or switch the field to By Name to look it up by ${loc.resolve.what}.`,
			);
		}
		return await resolveReference(fn, loc, String(id ?? ''), field.displayName, i, current, options);
	}
	const entries = Array.isArray(raw) ? raw.map((x) => String(x).trim()).filter(Boolean) : splitEntries(raw);
	const ids: string[] = [];
	for (const entry of entries) ids.push(await resolveReference(fn, loc, entry, field.displayName, i, current, options));
	return ids;
}

/** The mode of a top-level resource locator as set ("list", "name", "id"); undefined inside a collection. */
function modeOf(fn: IExecuteFunctions, field: FieldDecl, i: number): string | undefined {
	if (!isTopLevel(field)) return undefined;
	try {
		const mode = fn.getNodeParameter(`${paramName(field)}.mode`, i, undefined) as unknown;
		return typeof mode === 'string' ? mode : undefined;
	} catch {
		return undefined;
	}
}

/** The entered value of a field: top-level (when shown) or from the optional collection; `skip` when absent. */
function enteredValue(fn: IExecuteFunctions, field: FieldDecl, i: number, optional: IDataObject): { raw?: unknown; skip?: true } {
	if (isTopLevel(field)) {
		if (field.show && !visible(fn, field, i)) return { skip: true };
		const read = FIELD_KINDS[field.kind].read;
		return { raw: read ? read(fn, field, i) : fn.getNodeParameter(paramName(field), i, undefined) };
	}
	if (!(paramName(field) in optional)) return { skip: true };
	return { raw: optional[paramName(field)] };
}

/** Reads, checks and converts the fields of an operation into the request body. */
export async function buildBody(fn: IExecuteFunctions, op: OperationDecl, i: number): Promise<IDataObject> {
	const body: IDataObject = { ...(op.constant ?? {}) };
	const fields = op.fields ?? [];
	const context = { timeZone: fn.getTimezone() };
	const collection = collectionOf(op);
	const optional = fields.some((f) => !isTopLevel(f)) ? (fn.getNodeParameter(collection.name, i, {}) as IDataObject) : {};
	for (const field of fields) {
		const kind = FIELD_KINDS[field.kind];
		const entered = enteredValue(fn, field, i, optional);
		if (entered.skip) continue;
		let raw = entered.raw;
		if (kind.unset ? kind.unset(raw, !isTopLevel(field)) : isEmpty(raw)) {
			if (field.required) {
				throw new InputError(
					`The "${field.displayName}" field is required`,
					field.description ? `${field.displayName}: ${field.description}.` : `Fill in "${field.displayName}".`,
				);
			}
			if (!isTopLevel(field) && kind.sentEmptyWhenCleared) body[field.wire] = '';
			continue;
		}
		if (kind.lookUp && field.locator) raw = await resolved(fn, field, raw, i);
		const value = convert(field, raw, field.displayName, context) as IDataObject[string];
		if (!field.notSent) body[field.wire] = value;
	}
	return body;
}

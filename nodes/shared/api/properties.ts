/**
 * The parameters of a node built from an area's declarations, in the order the editor shows
 * them: Resource, one Operation dropdown per resource, then per operation its notice, its
 * top-level fields, Return All and Limit for lists, the optional collection (Filters,
 * Additional Fields or Update Fields), Simplify, the operation's extra parameters and Options
 * (Concurrent Requests). Each field's parameter comes from its kind (field-kinds.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { operationProperties as operationDropdowns, resourceProperty, returnAllAndLimit } from '../dropdowns';
import { concurrencyOption } from '../run';
import type { ApiArea, FieldDecl, OperationDecl } from './declarations';
import { fieldProperty } from './field-kinds';
import { collectionOf, isTopLevel, pascal, sortByDisplayName } from './naming';
import { simplifiedNames } from './simplify';

/** Names that say a field holds an identifier: `id`, `ids`, `record_id`, `bid`, `gid`, `nodeid`... */
const ID_WIRE = /(^|_)ids?$|^[a-z]+id$/;

/**
 * Declaration rules that keep a new declaration from going wrong: an identifier is never an
 * `int` (an untouched number field would send 0 and filter everything out), it is `id()` or a
 * locator.
 */
export function checkDeclaration(op: OperationDecl): void {
	const visit = (fields: FieldDecl[]) => {
		for (const f of fields) {
			if (f.kind === 'int' && (ID_WIRE.test(f.wire) || /\bIDs?$/.test(f.displayName))) {
				throw new Error(`${op.path} ${op.operation}: "${f.displayName}" (${f.wire}) is an identifier; declare it with id() or locator(), not int()`);
			}
			if (f.rows) visit(f.rows.fields);
		}
	};
	visit(op.fields ?? []);
}

/** Resource, and one Operation dropdown per resource; the defaults are the area's stated ones. */
function dropdowns(area: ApiArea): INodeProperties[] {
	return [resourceProperty(area.node, area.resources, area.defaultResource), ...operationDropdowns(area.node, area.resources, area.operations, area.defaultOperations)];
}

/** The parameters of one operation, shown only for it. */
function operationProperties(op: OperationDecl): INodeProperties[] {
	const show = { resource: [op.resource], operation: [op.operation] };
	const fields = op.fields ?? [];
	const props: INodeProperties[] = [];
	if (op.notice) {
		props.push({ displayName: op.notice, name: `notice${pascal(op.resource)}${pascal(op.operation)}`, type: 'notice', default: '', displayOptions: { show } });
	}
	for (const field of fields.filter(isTopLevel)) {
		const p = fieldProperty(field, false);
		p.displayOptions = { show: { ...show, ...(field.show ?? {}) } };
		props.push(p);
	}
	if (op.list) props.push(...returnAllAndLimit(show));
	const optional = fields.filter((f) => !isTopLevel(f));
	if (optional.length) {
		const c = collectionOf(op);
		props.push({
			displayName: c.displayName,
			name: c.name,
			type: 'collection',
			placeholder: c.placeholder,
			default: {},
			displayOptions: { show },
			options: sortByDisplayName(optional.map((f) => fieldProperty(f, true))),
		});
	}
	if (op.simplify) {
		props.push({
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint: `Words for codes, times as dates, amounts as numbers: ${simplifiedNames(op.simplify).join(', ')}`,
			displayOptions: { show },
		});
	}
	for (const extra of op.extras ?? []) {
		props.push({ ...extra, displayOptions: { show: { ...show, ...(extra.displayOptions?.show ?? {}) } } });
	}
	props.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [concurrencyOption(op.oneItemAtATime?.reason)],
	});
	return props;
}

/** All properties of a node built from an area's declarations (one node version). */
export function buildProperties(area: ApiArea): INodeProperties[] {
	area.operations.forEach(checkDeclaration);
	return [...dropdowns(area), ...area.operations.flatMap(operationProperties)];
}

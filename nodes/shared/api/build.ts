/**
 * Turns an area's declarations into an n8n node: properties (Resource and Operation dropdowns,
 * fields, Return All/Limit, Simplify, notices), methods (list searches and option loaders for
 * "From list" locators and multi-selects) and the execute loop (validate, build the body,
 * call, shape the output, pairedItem, continueOnFail).
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeProperties,
	type INodePropertyOptions,
	type NodeParameterValueType,
} from 'n8n-workflow';

import { concurrencyOption, runItems } from '../run';
import { forModel, isToolRun, listNote } from '../tool';
import { InputError } from '../errors';
import { check } from '../validation';
import type { ApiArea, FieldDecl, LocatorDecl, OperationContext, OperationDecl } from './declarations';
import { LOCATORS } from './locators';
import { nameOf, resolveReference, rowsWithIds } from './resolve';
import { simplifiedNames, simplifyRecord } from './simplify';
import { listRows, payload, type Envelope } from './envelope';
import { apiRequest, apiRequestAllItems } from './transport';
import { areaAt } from './versions';

/* ------------------------------------------------------------------ naming */

export function camel(wire: string): string {
	return wire.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

export const paramName = (f: FieldDecl) => f.param ?? camel(f.wire);

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (key: string) => (/[^aeiou]y$/.test(key) ? `${key.slice(0, -1)}ies` : `${key}s`);
export const searchMethod = (key: string) => `search${pascal(plural(key))}`;
export const optionsMethod = (key: string) => `get${pascal(key)}Options`;

export function locatorOf(key: string): LocatorDecl {
	const loc = LOCATORS[key];
	if (!loc) throw new Error(`unknown locator "${key}"`);
	return loc;
}

/** The optional collection of an operation: filters for lists, update fields for updates. */
export function collectionOf(op: OperationDecl): { name: string; displayName: string; placeholder: string } {
	const name = op.optionalIn ?? (op.list ? 'filters' : 'additionalFields');
	return COLLECTIONS[name];
}

const COLLECTIONS = {
	filters: { name: 'filters', displayName: 'Filters', placeholder: 'Add Filter' },
	updateFields: { name: 'updateFields', displayName: 'Update Fields', placeholder: 'Add Field' },
	additionalFields: { name: 'additionalFields', displayName: 'Additional Fields', placeholder: 'Add Field' },
} as const;

export const isTop = (f: FieldDecl) => f.required === true || f.top === true;

/* ------------------------------------------------------------ properties */

function sortOptions<T extends { name: string }>(options: T[]): T[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

/** Collection entries are sorted by display name, as n8n's lint rules expect. */
function sortByDisplayName(props: INodeProperties[]): INodeProperties[] {
	return [...props].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

const EXPRESSIONS_DOCS = 'https://docs.n8n.io/code/expressions/';

/** n8n's standard wording for options loaded from the service. */
function dynamicOptions(base: INodeProperties, multi: boolean, entity: string, own?: string) {
	const suffix = multi ? 'Names or IDs' : 'Name or ID';
	base.displayName = base.displayName.endsWith(suffix) ? base.displayName : `${entity} ${suffix}`;
	const standard = multi
		? `Choose from the list, or specify IDs using an <a href="${EXPRESSIONS_DOCS}">expression</a>`
		: `Choose from the list, or specify an ID using an <a href="${EXPRESSIONS_DOCS}">expression</a>`;
	base.description = own ? `${own.replace(/\.$/, '')}. ${standard}.` : standard;
}

export function fieldProperty(field: FieldDecl, inCollection: boolean): INodeProperties {
	const base: INodeProperties = {
		displayName: field.displayName,
		name: paramName(field),
		type: 'string',
		default: '',
	};
	if (field.description) base.description = field.description;
	if (field.placeholder) base.placeholder = field.placeholder;
	if (field.hint) base.hint = field.hint;
	if (field.required && !inCollection) base.required = true;

	switch (field.kind) {
		case 'string':
			base.default = field.default ?? '';
			break;
		case 'text':
			base.default = field.default ?? '';
			base.typeOptions = { rows: 4 };
			break;
		case 'secret':
			base.default = '';
			base.typeOptions = field.multiline ? { password: true, rows: 4 } : { password: true };
			break;
		case 'int':
			base.type = 'number';
			base.default = field.default ?? 0;
			base.typeOptions = { numberPrecision: 0 };
			break;
		case 'id':
			base.default = '';
			base.placeholder = field.placeholder ?? 'e.g. 12';
			break;
		case 'decimal':
			base.type = 'number';
			base.default = field.default ?? 0;
			base.typeOptions = { numberPrecision: 2 };
			break;
		case 'boolean':
			base.type = 'boolean';
			base.default = field.default ?? false;
			break;
		case 'options':
			base.type = 'options';
			if (field.optionsFrom) {
				base.typeOptions = { loadOptionsMethod: optionsMethod(field.optionsFrom) };
				base.default = field.default ?? '';
				dynamicOptions(base, false, field.displayName, field.description);
			} else {
				base.options = sortOptions(field.options ?? []);
				// stated in the declaration: saved workflows omit a default, so it must not follow the options' order
				if (field.default === undefined) throw new Error(`"${field.displayName}" (${field.wire}): a choice needs a stated default`);
				base.default = field.default;
			}
			break;
		case 'multiOptions':
			base.type = 'multiOptions';
			base.default = (field.default as string[]) ?? [];
			if (field.optionsFrom) {
				base.typeOptions = { loadOptionsMethod: optionsMethod(field.optionsFrom) };
				dynamicOptions(base, true, locatorOf(field.optionsFrom).label, field.description);
			} else base.options = sortOptions(field.options ?? []);
			break;
		case 'date':
		case 'unixTime':
			base.type = 'dateTime';
			base.default = '';
			break;
		case 'list':
			base.default = field.default ?? '';
			base.typeOptions = { rows: 3 };
			break;
		case 'json':
			base.type = 'json';
			base.default = field.default ?? '{}';
			break;
		case 'locator': {
			const loc = locatorOf(field.locator!);
			if (inCollection) {
				base.type = 'options';
				base.typeOptions = { loadOptionsMethod: optionsMethod(loc.key) };
				base.default = '';
				dynamicOptions(base, false, field.displayName, field.description);
				break;
			}
			Object.assign(base, {
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				modes: [
					{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: searchMethod(loc.key), searchable: true },
					},
					...(loc.resolve
						? [
								{
									displayName: 'By Name',
									name: 'name',
									type: 'string' as const,
									placeholder: `e.g. ${loc.resolve.example ?? 'web-1'}`,
									hint: `Looked up when the node runs: ${loc.resolve.what} of exactly one ${loc.label.toLowerCase()}`,
								},
							]
						: []),
					{
					displayName: `By ${loc.idName ?? 'ID'}`,
					name: 'id',
					type: 'string',
					placeholder: loc.idPlaceholder ?? 'e.g. 12',
					// checked when the node runs (convert), where a name is looked up instead of refused;
					// no editor regex: n8n runs those in a VM with a 250 ms limit on every execution
					},
				],
			});
			break;
		}
		case 'locators': {
			const loc = locatorOf(field.locator!);
			base.type = 'multiOptions';
			base.default = [];
			base.typeOptions = { loadOptionsMethod: optionsMethod(loc.key) };
			dynamicOptions(base, true, loc.label, field.description);
			break;
		}
		case 'rows': {
			base.type = 'fixedCollection';
			base.default = {};
			base.typeOptions = { multipleValues: true };
			base.placeholder = `Add ${field.rows!.itemName}`;
			base.options = [
				{
					name: 'rows',
					displayName: field.rows!.itemName,
					values: sortByDisplayName(
						field.rows!.fields.map((f) => {
							const sub = fieldProperty(f, true);
							// shown by the other fields of the same row (n8n reads sibling values there)
							if (f.show) sub.displayOptions = { show: f.show };
							return sub;
						}),
					),
				},
			];
			break;
		}
	}
	return base;
}

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

/** All properties of a node built from an area's declarations (one node version). */
export function buildProperties(area: ApiArea): INodeProperties[] {
	area.operations.forEach(checkDeclaration);
	const defaultResource = area.defaultResource;
	if (!area.resources.some((r) => r.value === defaultResource)) throw new Error(`${area.node}: defaultResource "${defaultResource}" is not one of its resources`);
	const props: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: sortOptions(area.resources.map((r) => ({ name: r.name, value: r.value, description: r.description }))),
			default: defaultResource,
		},
	];
	for (const resource of area.resources) {
		const ops = area.operations.filter((o) => o.resource === resource.value);
		const defaultOperation = area.defaultOperations[resource.value];
		if (!ops.some((o) => o.operation === defaultOperation)) {
			throw new Error(`${area.node}: defaultOperations["${resource.value}"] ("${defaultOperation}") is not one of the resource's operations`);
		}
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: sortOptions(ops.map((o) => ({ name: o.name, value: o.operation, action: o.action, description: o.description }))),
			default: defaultOperation,
		});
	}
	for (const op of area.operations) {
		const show = { resource: [op.resource], operation: [op.operation] };
		const fields = op.fields ?? [];
		if (op.notice) {
			props.push({
				displayName: op.notice,
				name: `notice${pascal(op.resource)}${pascal(op.operation)}`,
				type: 'notice',
				default: '',
				displayOptions: { show },
			});
		}
		for (const field of fields.filter(isTop)) {
			const p = fieldProperty(field, false);
			p.displayOptions = { show: { ...show, ...(field.show ?? {}) } };
			props.push(p);
		}
		if (op.list) {
			props.push(
				{
					displayName: 'Return All',
					name: 'returnAll',
					type: 'boolean',
					default: false,
					description: 'Whether to return all results or only up to a given limit',
					displayOptions: { show },
				},
				{
					displayName: 'Limit',
					name: 'limit',
					type: 'number',
					default: 50,
					typeOptions: { minValue: 1 },
					description: 'Max number of results to return',
					displayOptions: { show: { ...show, returnAll: [false] } },
				},
			);
		}
		const optional = fields.filter((f) => !isTop(f));
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
			options: [concurrencyOption(op.serial)],
		});
	}
	return props;
}

/* --------------------------------------------------------------- methods */

function usedLocators(area: ApiArea): LocatorDecl[] {
	const keys = new Set<string>();
	const visit = (fields: FieldDecl[]) => {
		for (const f of fields) {
			if (f.locator) keys.add(f.locator);
			if (f.optionsFrom) keys.add(f.optionsFrom);
			if (f.rows) visit(f.rows.fields);
		}
	};
	for (const op of area.operations) visit(op.fields ?? []);
	return [...keys].map(locatorOf);
}

function currentParam(ctx: ILoadOptionsFunctions) {
	return (name: string) => {
		try {
			return ctx.getCurrentNodeParameter(name, { extractValue: true });
		} catch {
			return undefined;
		}
	};
}

async function locatorPage(ctx: ILoadOptionsFunctions, loc: LocatorDecl, page: number, filter?: string) {
	const body: IDataObject = { ...(loc.body ? loc.body(currentParam(ctx)) : {}) };
	if (loc.paged) Object.assign(body, { page, limit: 100 });
	if (filter && loc.filterParam) body[loc.filterParam] = filter;
	const envelope = await apiRequest(ctx, loc.path, body, { read: true });
	let rows = loc.rows ? loc.rows(envelope) : listRows(envelope);
	if (filter && !loc.filterParam) {
		const needle = filter.toLowerCase();
		rows = rows.filter((r) => loc.name(r).toLowerCase().includes(needle) || locatorValue(loc, r) === filter);
	}
	const totalPages = loc.paged ? Number(envelope.totalpage ?? 1) : 1;
	return { rows, more: page < totalPages };
}

/** The value a locator record stands for: `loc.value(row)`, or its id field as a string. */
export function locatorValue(loc: LocatorDecl, row: IDataObject): string | undefined {
	if (loc.value) return loc.value(row);
	const v = row[loc.idField ?? 'id'];
	return v === undefined || v === null ? undefined : String(v);
}

function optionsOf(loc: LocatorDecl, rows: IDataObject[]): Array<{ name: string; value: string }> {
	const out: Array<{ name: string; value: string }> = [];
	for (const r of rows) {
		const value = locatorValue(loc, r);
		if (value !== undefined && value !== '') out.push({ name: loc.name(r), value });
	}
	return out;
}

export function buildMethods(area: ApiArea) {
	const listSearch: Record<string, (this: ILoadOptionsFunctions, filter?: string, token?: string) => Promise<INodeListSearchResult>> = {};
	const loadOptions: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> = {};
	for (const loc of usedLocators(area)) {
		listSearch[searchMethod(loc.key)] = async function (this: ILoadOptionsFunctions, filter?: string, token?: string) {
			const page = token ? Number(token) : 1;
			const { rows, more } = await locatorPage(this, loc, page, filter);
			return { results: optionsOf(loc, rows), paginationToken: more ? String(page + 1) : undefined };
		};
		loadOptions[optionsMethod(loc.key)] = async function (this: ILoadOptionsFunctions) {
			const out: INodePropertyOptions[] = [];
			const seen = new Set<string>();
			for (let page = 1; page <= 50; page++) {
				const { rows, more } = await locatorPage(this, loc, page);
				for (const o of optionsOf(loc, rows)) if (!seen.has(o.value) && seen.add(o.value)) out.push(o);
				if (!more) break;
			}
			return out;
		};
	}
	return { listSearch, loadOptions };
}

/* ------------------------------------------------------- reading values */

function isEmpty(v: unknown): boolean {
	return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function toInt(field: FieldDecl, raw: unknown): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isInteger(n)) {
		throw new InputError(
			`The "${field.displayName}" field must be a whole number, not "${String(raw)}"`,
			`Enter a whole number${field.description ? `: ${field.description}` : ''}.`,
		);
	}
	return n;
}

function toNumber(field: FieldDecl, raw: unknown): number {
	const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (Number.isNaN(n)) {
		throw new InputError(`The "${field.displayName}" field must be a number, not "${String(raw)}"`, 'Enter a number such as 12.5.');
	}
	return n;
}

function splitEntries(raw: unknown, linesOnly = false): string[] {
	if (Array.isArray(raw)) return raw.map((x) => String(x).trim()).filter(Boolean);
	return String(raw ?? '')
		.split(linesOnly ? /\r?\n/ : /\r?\n|,/)
		.map((s) => s.trim())
		.filter(Boolean);
}

function pad(n: number): string {
	return String(n).padStart(2, '0');
}

function toDate(field: FieldDecl, raw: unknown): Date {
	const d = raw instanceof Date ? raw : new Date(String(raw));
	if (Number.isNaN(d.getTime())) {
		throw new InputError(`The "${field.displayName}" field is not a date: "${String(raw)}"`, 'Pick a date or enter one such as 2026-11-22.');
	}
	return d;
}

function sendAs(field: FieldDecl, value: unknown, fallback: NonNullable<FieldDecl['send']>): unknown {
	const form = field.send ?? fallback;
	const list = Array.isArray(value) ? value : [value];
	switch (form) {
		case 'string':
			return Array.isArray(value) ? value.join(',') : String(value);
		case 'number':
			return Array.isArray(value) ? value.map(Number) : Number(value);
		case 'comma':
			return list.map(String).join(',');
		case 'array':
			return list;
		case 'intArray':
			return list.map((x) => {
				const n = Number(x);
				if (!Number.isInteger(n)) throw new InputError(`The "${field.displayName}" field must hold numeric IDs, not "${String(x)}"`, 'Choose from the list or give numeric IDs.');
				return n;
			});
	}
	return value;
}

function runValidators(field: FieldDecl, value: unknown, label = field.displayName) {
	for (const v of field.validate ?? []) {
		const problem = check(v, value);
		if (problem) {
			throw new InputError(`Invalid "${label}": ${problem}`, field.description ? `${field.displayName}: ${field.description}.` : `Correct the "${label}" field.`);
		}
	}
}

/** Converts one entered value to its wire form, checking it on the way. */
export function convert(field: FieldDecl, raw: unknown, label = field.displayName): unknown {
	switch (field.kind) {
		case 'int': {
			const n = toInt(field, raw);
			runValidators(field, n, label);
			return sendAs(field, n, 'number');
		}
		case 'id': {
			const text = String(raw).trim();
			if (!/^\d+$/.test(text)) {
				throw new InputError(`The "${label}" field must be a numeric ID, not "${String(raw)}"`, 'Enter the ID as a whole number such as 12, or remove the field.');
			}
			return sendAs(field, Number(text), 'number');
		}
		case 'decimal': {
			const n = toNumber(field, raw);
			runValidators(field, n, label);
			return sendAs(field, n, 'number');
		}
		case 'boolean':
			return raw === true || raw === 'true' || raw === 1 || raw === '1' ? 1 : 0;
		case 'options': {
			if (field.options && !field.optionsFrom) {
				const hit = field.options.find((o) => String(o.value) === String(raw));
				if (!hit && field.open) {
					runValidators(field, raw, label);
					return sendAs(field, String(raw).trim(), 'string');
				}
				if (!hit) {
					throw new InputError(
						`The "${label}" field has "${String(raw)}", which is not one of its choices`,
						`Use one of: ${field.options.map((o) => `${o.value} (${o.name})`).join(', ')}.`,
					);
				}
				return sendAs(field, hit.value, typeof hit.value === 'number' ? 'number' : 'string');
			}
			runValidators(field, raw, label);
			return sendAs(field, /^\d+$/.test(String(raw)) ? Number(raw) : raw, 'string');
		}
		case 'multiOptions': {
			const values = Array.isArray(raw) ? raw : splitEntries(raw);
			if (field.options && !field.optionsFrom) {
				for (const v of values) {
					if (!field.options.some((o) => String(o.value) === String(v))) {
						throw new InputError(
							`The "${label}" field has "${String(v)}", which is not one of its choices`,
							`Use any of: ${field.options.map((o) => String(o.value)).join(', ')}.`,
						);
					}
				}
			}
			runValidators(field, values, label);
			return sendAs(field, values, 'array');
		}
		case 'locator': {
			const id = typeof raw === 'object' && raw !== null ? (raw as IDataObject).value : raw;
			const pattern = new RegExp(locatorOf(field.locator!).idPattern ?? '^[0-9]+$');
			if (!pattern.test(String(id).trim())) {
				const loc = locatorOf(field.locator!);
				const what = loc.idName ? loc.idName.toLowerCase() : 'ID';
				throw new InputError(`The "${label}" field must be a ${loc.label.toLowerCase()} ${what}, not "${String(id)}"`, `Choose it from the list or enter its ${loc.idPlaceholder ? `${what} (${loc.idPlaceholder})` : `numeric ${what}`}.`);
			}
			return sendAs(field, String(id).trim(), /^\d+$/.test(String(id).trim()) ? 'number' : 'string');
		}
		case 'locators': {
			const ids = Array.isArray(raw) ? raw : splitEntries(raw);
			const loc = locatorOf(field.locator!);
			const pattern = new RegExp(loc.idPattern ?? '^[0-9]+$');
			const bad = ids.find((id) => !pattern.test(String(id).trim()));
			if (bad !== undefined) {
				throw new InputError(
					`The "${label}" field must hold ${loc.label.toLowerCase()} IDs, not "${String(bad)}"`,
					loc.resolve ? `Choose from the list, or give IDs or ${loc.resolve.what}, separated by commas.` : 'Choose from the list or give IDs separated by commas.',
				);
			}
			return sendAs(field, ids, 'intArray');
		}
		case 'list': {
			const entries = splitEntries(raw, field.lines === true);
			runValidators(field, entries, label);
			return sendAs(field, entries, 'comma');
		}
		case 'date': {
			const d = toDate(field, raw);
			return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
		}
		case 'unixTime':
			return Math.floor(toDate(field, raw).getTime() / 1000);
		case 'json': {
			let v = raw;
			let invalid = false;
			if (typeof raw === 'string') {
				try {
					v = JSON.parse(raw);
				} catch {
					invalid = true;
				}
			}
			if (invalid) throw new InputError(`The "${label}" field is not valid JSON`, 'Enter a JSON object such as {"key": "value"}.');
			runValidators(field, v, label);
			return v;
		}
		case 'rows': {
			const rows = ((raw as IDataObject)?.rows as IDataObject[] | undefined) ?? [];
			if (field.rows!.min && rows.length < field.rows!.min) {
				throw new InputError(`Add at least ${field.rows!.min} ${field.rows!.itemName.toLowerCase()} to "${label}"`, `Use "Add ${field.rows!.itemName}".`);
			}
			const converted = rows.map((row, n) => {
				const out: IDataObject = {};
				for (const sub of field.rows!.fields) {
					if (sub.show && !Object.entries(sub.show).every(([name, values]) => values.some((x) => String(x) === String(row[name])))) continue;
					const v = row[paramName(sub)];
					const subLabel = `${label} ${n + 1}: ${sub.displayName}`;
					if (isEmpty(v)) {
						if (sub.required) throw new InputError(`"${subLabel}" is required`, `Fill in ${sub.displayName} in every ${field.rows!.itemName.toLowerCase()}.`);
						continue;
					}
					out[sub.wire] = convert(sub, v, subLabel) as IDataObject[string];
				}
				return out;
			});
			return field.rows!.serialize(converted);
		}
		default: {
			const s = String(raw);
			runValidators(field, s, label);
			return sendAs(field, s, 'string');
		}
	}
}

/**
 * A locator's input as the resource's ID(s): names, instance IDs, IP addresses and the like are
 * looked up (resolve.ts); IDs pass as they are.
 */
async function resolved(fn: IExecuteFunctions, field: FieldDecl, raw: unknown, i: number): Promise<unknown> {
	const loc = locatorOf(field.locator!);
	if (!loc.resolve) return raw;
	const current = (name: string) => {
		try {
			return fn.getNodeParameter(name, i, undefined, { extractValue: true });
		} catch {
			return undefined;
		}
	};
	const options = { verifyIds: isToolRun(fn) };
	if (field.kind === 'locator') {
		const id = typeof raw === 'object' && raw !== null ? (raw as IDataObject).value : raw;
		return await resolveReference(fn, loc, String(id ?? ''), field.displayName, i, current, options);
	}
	const entries = Array.isArray(raw) ? raw.map((x) => String(x).trim()).filter(Boolean) : splitEntries(raw);
	const ids: string[] = [];
	for (const entry of entries) ids.push(await resolveReference(fn, loc, entry, field.displayName, i, current, options));
	return ids;
}

/** Reads, checks and converts the fields of an operation into the request body. */
export async function buildBody(fn: IExecuteFunctions, op: OperationDecl, i: number): Promise<IDataObject> {
	const body: IDataObject = { ...(op.constant ?? {}) };
	const fields = op.fields ?? [];
	const collection = collectionOf(op);
	const optional = fields.some((f) => !isTop(f)) ? (fn.getNodeParameter(collection.name, i, {}) as IDataObject) : {};
	for (const field of fields) {
		let raw: unknown;
		if (isTop(field)) {
			if (field.show && !visible(fn, field, i)) continue;
			raw =
				field.kind === 'locator'
					? fn.getNodeParameter(paramName(field), i, undefined, { extractValue: true })
					: fn.getNodeParameter(paramName(field), i, field.kind === 'rows' ? {} : undefined);
		} else {
			if (!(paramName(field) in optional)) continue;
			raw = optional[paramName(field)];
		}
		// an id filter stored by an older version as its number default 0 names no record: not set
		if (field.kind === 'id' && !isTop(field) && (raw === 0 || raw === '0')) raw = undefined;
		if (isEmpty(raw) || (field.kind === 'rows' && isEmpty((raw as IDataObject)?.rows))) {
			if (field.required) {
				throw new InputError(
					`The "${field.displayName}" field is required`,
					field.description ? `${field.displayName}: ${field.description}.` : `Fill in "${field.displayName}".`,
				);
			}
			if (!isTop(field) && (field.kind === 'string' || field.kind === 'text')) body[field.wire] = '';
			continue;
		}
		if ((field.kind === 'locator' || field.kind === 'locators') && field.locator) raw = await resolved(fn, field, raw, i);
		const value = convert(field, raw) as IDataObject[string];
		if (!field.local) body[field.wire] = value;
	}
	return body;
}

function visible(fn: IExecuteFunctions, field: FieldDecl, i: number): boolean {
	for (const [name, values] of Object.entries(field.show ?? {})) {
		const current = fn.getNodeParameter(name, i, undefined) as NodeParameterValueType;
		if (!values.some((v) => String(v) === String(current))) return false;
	}
	return true;
}

/* ---------------------------------------------------------------- output */

/**
 * Envelope fields that are not part of an item: the code, the payload, and `created` (the
 * response time, which next to the identifiers would read as the record's creation time).
 */
const NOT_IN_ITEM = new Set(['code', 'data', 'result', 'created']);
const SECRET_KEY = /token|password|secret/i;

/**
 * The item of an answer without data (a password change, a record note, an empty `[]`): the
 * identifiers the request named (so the next node knows what was acted on) and what the
 * service said: its `message` and any top-level field beyond the envelope's. Nothing is
 * invented; an answer with no message gives just the identifiers.
 */
export function noDataRecord(envelope: Envelope, request: IDataObject = {}): IDataObject {
	const out: IDataObject = { ...request };
	for (const [key, value] of Object.entries(envelope)) {
		if (!NOT_IN_ITEM.has(key) && !SECRET_KEY.test(key)) out[key] = value;
	}
	return out;
}

export function defaultRecords(envelope: Envelope, request: IDataObject = {}): IDataObject[] {
	const p = payload(envelope);
	if (p === undefined || p === null || p === '') return [noDataRecord(envelope, request)];
	if (Array.isArray(p)) return p.map((x) => (typeof x === 'object' && x !== null ? (x as IDataObject) : { value: x as string }));
	if (typeof p === 'object') return [p as IDataObject];
	return [{ data: p as string }];
}

/** The identifiers a request named (locators and ID fields), as sent; never secrets. */
export function requestIdentifiers(op: OperationDecl, body: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const f of op.fields ?? []) {
		if ((f.kind === 'locator' || f.kind === 'locators' || f.kind === 'id') && !f.local && body[f.wire] !== undefined) out[f.wire] = body[f.wire];
	}
	return out;
}


/* --------------------------------------------------------------- execute */

/* ------------------------------------------------------------- tool runs */

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

/**
 * What a model needs on top of the records (tool runs only): the object a change acted on, by ID
 * and name, and, after a list that was cut, how many there are and how to see the rest.
 */
async function forToolRun(
	fn: IExecuteFunctions,
	op: OperationDecl,
	i: number,
	records: IDataObject[],
	body: IDataObject,
	list: { limit?: number; total?: number; noun: string },
): Promise<IDataObject[]> {
	let out = records;
	const target = actedOnField(op);
	if (target && !op.read && body[target.wire] !== undefined) {
		const loc = locatorOf(target.locator!);
		const current = (name: string) => {
			try {
				return fn.getNodeParameter(name, i, undefined, { extractValue: true });
			} catch {
				return undefined;
			}
		};
		let rows: IDataObject[] = [];
		try {
			rows = await rowsWithIds(fn, loc, sentIds(body[target.wire]), i, current);
		} catch {
			rows = []; // naming is a help; the change was made
		}
		const named = rows.map((r) => ({ id: r[loc.idField ?? 'id'] as string, name: nameOf(loc, r) }));
		// a record about another object (a task, a console ticket with its own id) is left as it is
		if (named.length === 1) out = out.map((r) => (r.id === undefined || String(r.id) === String(named[0].id) ? { ...r, id: named[0].id, name: r.name ?? named[0].name } : r));
		else if (named.length > 1) out = out.map((r) => ({ ...r, [camel(`${plural(target.locator!)}`)]: named }));
	}
	if (op.list && list.limit !== undefined && records.length >= list.limit && (list.total === undefined || list.total > records.length)) {
		out = [...out, listNote({ shown: records.length, total: list.total, noun: list.noun, limit: list.limit, parameters: rawParameters(fn) })];
	}
	return out;
}

/** The declared target of a change that takes names (a host, disk, domain...), as tool-text.ts describes it. */
export function actedOnField(op: OperationDecl): FieldDecl | undefined {
	if (op.list || /^(create|add|register)/i.test(op.operation)) return undefined;
	return (op.fields ?? []).find((f) => isTop(f) && !f.local && (f.kind === 'locator' || f.kind === 'locators') && !!f.locator && !!locatorOf(f.locator).resolve);
}

export async function runOperation(fn: IExecuteFunctions, op: OperationDecl, i: number, noun = op.resource): Promise<IDataObject[]> {
	const ctx: OperationContext = {
		fn,
		itemIndex: i,
		param: <T>(name: string, fallback?: T) => fn.getNodeParameter(name, i, fallback as never) as T,
	};
	let body = await buildBody(fn, op, i);
	if (op.prepare) body = await op.prepare(body, ctx);
	if (op.after?.before) await op.after.before(body, ctx);
	let records: IDataObject[];
	const list: { limit?: number; total?: number; noun: string } = { noun };
	if (op.run) {
		records = await op.run(ctx, body);
	} else if (op.list) {
		const returnAll = fn.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? undefined : (fn.getNodeParameter('limit', i, 50) as number);
		list.limit = limit;
		if (op.list.paged) {
			records = await apiRequestAllItems(fn, op.path, body, { itemIndex: i, limit, pageSize: op.list.pageSize, onTotal: (total) => (list.total = total) });
		} else {
			const envelope = await apiRequest(fn, op.path, body, { itemIndex: i, read: true });
			records = op.output ? op.output(envelope) : defaultRecords(envelope);
			list.total = records.length;
			if (limit !== undefined) records = records.slice(0, limit);
		}
	} else {
		const envelope = await apiRequest(fn, op.path, body, {
			itemIndex: i,
			read: op.read === true,
			noToken: op.noToken,
		});
		const identifiers = requestIdentifiers(op, body);
		records = op.output ? op.output(envelope) : defaultRecords(envelope, identifiers);
		if (records.length === 0 && !op.output) {
			// a change answered with no records (`[]`, an empty array) still gives one item; a read gives
			// what came (no record: no item), except that `[]` for a one-object answer is that object, empty
			if (!op.read) records = [noDataRecord(envelope, identifiers)];
			else if (op.object) records = [{}];
		}
		if (op.deletes) records = records.map((r) => ({ deleted: true, ...r }));
	}
	if (op.after) records = await op.after(records, ctx, body);
	if (op.simplify && (fn.getNodeParameter('simplify', i, true) as boolean)) {
		const context = { body, timeZone: fn.getTimezone() };
		records = records.map((r) => simplifyRecord(r, op.simplify!, context));
	}
	if (isToolRun(fn)) records = await forToolRun(fn, op, i, records, body, list);
	return records;
}

export async function executeArea(fn: IExecuteFunctions, allVersions: ApiArea): Promise<INodeExecutionData[][]> {
	// the declarations of the version the workflow was saved with
	const area = areaAt(allVersions, fn.getNode().typeVersion);
	const items = fn.getInputData();
	const find = (i: number) => {
		const resource = fn.getNodeParameter('resource', i) as string;
		const operation = fn.getNodeParameter('operation', i) as string;
		const op = area.operations.find((o) => o.resource === resource && o.operation === operation);
		if (!op) {
			throw new NodeOperationError(fn.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex: i });
		}
		return op;
	};
	let serial = false;
	try {
		serial = items.length > 1 && find(0).serial !== undefined;
	} catch {
		// reported per item below
	}
	const tool = isToolRun(fn);
	const out = await runItems(
		fn,
		items.length,
		async (i) => {
			try {
				const op = find(i);
				const noun = (area.resources.find((r) => r.value === op.resource)?.name ?? op.resource).split(' ').map((w) => (/^[A-Z][a-z]/.test(w) ? w.toLowerCase() : w)).join(' ');
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


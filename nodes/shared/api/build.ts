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

import { check } from '../validation';
import type { ApiArea, FieldDecl, LocatorDecl, OperationContext, OperationDecl } from './declarations';
import { LOCATORS } from './locators';
import { apiRequest, apiRequestAllItems, payload, type Envelope } from './transport';

/* ------------------------------------------------------------------ naming */

export function camel(wire: string): string {
	return wire.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

export const paramName = (f: FieldDecl) => f.param ?? camel(f.wire);

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (key: string) => (/[^aeiou]y$/.test(key) ? `${key.slice(0, -1)}ies` : `${key}s`);
export const searchMethod = (key: string) => `search${pascal(plural(key))}`;
export const optionsMethod = (key: string) => `get${pascal(key)}Options`;

function locatorOf(key: string): LocatorDecl {
	const loc = LOCATORS[key];
	if (!loc) throw new Error(`unknown locator "${key}"`);
	return loc;
}

/** The optional collection of an operation: filters for lists, update fields for updates. */
export function collectionOf(op: OperationDecl): { name: string; displayName: string; placeholder: string } {
	if (op.list) return { name: 'filters', displayName: 'Filters', placeholder: 'Add Filter' };
	if (/^update/i.test(op.operation)) return { name: 'updateFields', displayName: 'Update Fields', placeholder: 'Add Field' };
	return { name: 'additionalFields', displayName: 'Additional Fields', placeholder: 'Add Field' };
}

const isTop = (f: FieldDecl) => f.required === true || f.top === true;

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

function fieldProperty(field: FieldDecl, inCollection: boolean): INodeProperties {
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
				base.default = field.default ?? (field.options?.[0]?.value ?? '');
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
					{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'e.g. 12',
					validation: [
						{
							type: 'regex',
							properties: { regex: loc.idPattern ?? '^[0-9]+$', errorMessage: `Not a valid ${loc.label.toLowerCase()} ID` },
						},
					],
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
					values: sortByDisplayName(field.rows!.fields.map((f) => fieldProperty(f, true))),
				},
			];
			break;
		}
	}
	return base;
}

/** All properties of a node built from an area's declarations. */
export function buildProperties(area: ApiArea): INodeProperties[] {
	const firstResource = area.resources[0].value;
	const props: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: sortOptions(area.resources.map((r) => ({ name: r.name, value: r.value, description: r.description }))),
			default: firstResource,
		},
	];
	for (const resource of area.resources) {
		const ops = area.operations.filter((o) => o.resource === resource.value);
		const firstOperation = ops[0].operation;
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: sortOptions(ops.map((o) => ({ name: o.name, value: o.operation, action: o.action, description: o.description }))),
			default: firstOperation,
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
				hint: `Simplified records keep: ${op.simplify.join(', ')}`,
				displayOptions: { show },
			});
		}
		for (const extra of op.extras ?? []) {
			props.push({ ...extra, displayOptions: { show: { ...show, ...(extra.displayOptions?.show ?? {}) } } });
		}
	}
	return props;
}

/* --------------------------------------------------------------- methods */

function rowsOf(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	return Array.isArray(p) ? (p as IDataObject[]) : [];
}

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
	let rows = loc.rows ? loc.rows(envelope) : rowsOf(envelope);
	if (filter && !loc.filterParam) {
		const needle = filter.toLowerCase();
		rows = rows.filter((r) => loc.name(r).toLowerCase().includes(needle) || String(r[loc.idField ?? 'id']) === filter);
	}
	const totalPages = loc.paged ? Number(envelope.totalpage ?? 1) : 1;
	return { rows, more: page < totalPages };
}

export function buildMethods(area: ApiArea) {
	const listSearch: Record<string, (this: ILoadOptionsFunctions, filter?: string, token?: string) => Promise<INodeListSearchResult>> = {};
	const loadOptions: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> = {};
	for (const loc of usedLocators(area)) {
		const id = loc.idField ?? 'id';
		listSearch[searchMethod(loc.key)] = async function (this: ILoadOptionsFunctions, filter?: string, token?: string) {
			const page = token ? Number(token) : 1;
			const { rows, more } = await locatorPage(this, loc, page, filter);
			return {
				results: rows.map((r) => ({ name: loc.name(r), value: String(r[id]) })),
				paginationToken: more ? String(page + 1) : undefined,
			};
		};
		loadOptions[optionsMethod(loc.key)] = async function (this: ILoadOptionsFunctions) {
			const out: INodePropertyOptions[] = [];
			for (let page = 1; page <= 50; page++) {
				const { rows, more } = await locatorPage(this, loc, page);
				out.push(...rows.map((r) => ({ name: loc.name(r), value: String(r[id]) })));
				if (!more) break;
			}
			return out;
		};
	}
	return { listSearch, loadOptions };
}

/* ------------------------------------------------------- reading values */

class InputError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

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
				throw new InputError(`The "${label}" field must be a ${locatorOf(field.locator!).label.toLowerCase()} ID, not "${String(id)}"`, 'Choose it from the list or enter its numeric ID.');
			}
			return sendAs(field, String(id).trim(), /^\d+$/.test(String(id).trim()) ? 'number' : 'string');
		}
		case 'locators': {
			const ids = Array.isArray(raw) ? raw : splitEntries(raw);
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

/** Reads, checks and converts the fields of an operation into the request body. */
export function buildBody(fn: IExecuteFunctions, op: OperationDecl, i: number): IDataObject {
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

export function defaultRecords(envelope: Envelope): IDataObject[] {
	const p = payload(envelope);
	if (p === undefined || p === null || p === '') {
		return [{ success: true, ...(envelope.message ? { message: envelope.message } : {}) }];
	}
	if (Array.isArray(p)) return p.map((x) => (typeof x === 'object' && x !== null ? (x as IDataObject) : { value: x as string }));
	if (typeof p === 'object') return [p as IDataObject];
	return [{ data: p as string }];
}

function simplify(records: IDataObject[], keys: string[]): IDataObject[] {
	return records.map((r) => Object.fromEntries(keys.filter((k) => k in r).map((k) => [k, r[k]])));
}

/* --------------------------------------------------------------- execute */

export async function runOperation(fn: IExecuteFunctions, op: OperationDecl, i: number): Promise<IDataObject[]> {
	const ctx: OperationContext = {
		fn,
		itemIndex: i,
		param: <T>(name: string, fallback?: T) => fn.getNodeParameter(name, i, fallback as never) as T,
	};
	let body = buildBody(fn, op, i);
	if (op.prepare) body = await op.prepare(body, ctx);
	if (op.after?.before) await op.after.before(body, ctx);
	let records: IDataObject[];
	if (op.list) {
		const returnAll = fn.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? undefined : (fn.getNodeParameter('limit', i, 50) as number);
		if (op.list.paged) {
			records = await apiRequestAllItems(fn, op.path, body, { itemIndex: i, limit, pageSize: op.list.pageSize });
		} else {
			const envelope = await apiRequest(fn, op.path, body, { itemIndex: i, read: true });
			records = op.output ? op.output(envelope) : defaultRecords(envelope);
			if (limit !== undefined) records = records.slice(0, limit);
		}
	} else {
		const envelope = await apiRequest(fn, op.path, body, {
			itemIndex: i,
			read: op.read === true,
			noToken: op.noToken,
		});
		records = op.output ? op.output(envelope) : defaultRecords(envelope);
		if (op.deletes) records = records.map((r) => ({ deleted: true, ...r }));
	}
	if (op.after) records = await op.after(records, ctx, body);
	if (op.simplify && (fn.getNodeParameter('simplify', i, true) as boolean)) records = simplify(records, op.simplify);
	return records;
}

export async function executeArea(fn: IExecuteFunctions, area: ApiArea): Promise<INodeExecutionData[][]> {
	const items = fn.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const resource = fn.getNodeParameter('resource', i) as string;
			const operation = fn.getNodeParameter('operation', i) as string;
			const op = area.operations.find((o) => o.resource === resource && o.operation === operation);
			if (!op) {
				throw new NodeOperationError(fn.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex: i });
			}
			const records = await runOperation(fn, op, i);
			for (const json of records) out.push({ json, pairedItem: { item: i } });
		} catch (error) {
			const wrapped =
				error instanceof InputError
					? new NodeOperationError(fn.getNode(), error.message, { itemIndex: i, description: error.description })
					: error;
			if (fn.continueOnFail()) {
				out.push({ json: { error: (wrapped as Error).message }, pairedItem: { item: i } });
				continue;
			}
			if (wrapped instanceof NodeOperationError || (wrapped as { context?: IDataObject }).context) {
				const ctx = (wrapped as { context?: IDataObject }).context;
				if (ctx && ctx.itemIndex === undefined) ctx.itemIndex = i;
			}
			throw wrapped;
		}
	}
	return [out];
}

export { InputError };

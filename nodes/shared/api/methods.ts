/**
 * The node's load-options methods, one pair per locator its declarations use: a list search
 * for the "From List" mode of a resource locator (`searchHosts`, paged, filtered by what the
 * user types) and an option loader for multi-selects and collection dropdowns
 * (`getHostOptions`, every page up to 50).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import type { ApiArea, FieldDecl, LocatorDecl } from './declarations';
import { listRows } from './envelope';
import { locatorOf } from './locators';
import { nounOf, optionsMethod, pluralNoun, searchMethod } from './naming';
import { API_CREDENTIAL } from './auth';
import { apiRequest } from './transport';

/** Every locator an area's fields name (as `locator` or `optionsFrom`). */
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

/** Reads another parameter of the node being edited (undefined when it has none). */
function currentParam(ctx: ILoadOptionsFunctions) {
	return (name: string) => {
		try {
			return ctx.getCurrentNodeParameter(name, { extractValue: true });
		} catch {
			return undefined;
		}
	};
}

/** The value a locator record stands for: `loc.value(row)`, or its id field as a string. */
export function locatorValue(loc: LocatorDecl, row: IDataObject): string | undefined {
	if (loc.value) return loc.value(row);
	const v = row[loc.idField ?? 'id'];
	return v === undefined || v === null ? undefined : String(v);
}

/** One page of a locator's list, filtered by the service (`filterParam`) or here by name and value. */
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

function optionsOf(loc: LocatorDecl, rows: IDataObject[]): Array<{ name: string; value: string }> {
	const out: Array<{ name: string; value: string }> = [];
	for (const r of rows) {
		const value = locatorValue(loc, r);
		if (value !== undefined && value !== '') out.push({ name: loc.name(r), value });
	}
	return out;
}

/**
 * Whether the node being edited has its Vendor API credential yet. n8n 2.40.7's editor asks for a
 * dropdown's options as soon as a node is added, before it has put the (pre-selected) credential
 * on the node, and while that request runs it skips the reload the credential would start
 * (ParameterInput: a load is not started while one is loading). An error there stayed on the
 * field as "Error fetching options from Vendor …" although the node then had its credential.
 * Without a credential a dropdown gets one entry that says what to do instead
 * (`reopenToList`; its empty value is never sent), and a list search nothing.
 */
export function hasCredential(ctx: ILoadOptionsFunctions): boolean {
	const credentials = ctx.getNode().credentials ?? {};
	return Boolean(credentials[API_CREDENTIAL]?.id ?? credentials[API_CREDENTIAL]?.name);
}

/** The one entry of a dropdown asked for before the node had a credential. */
export const reopenToList = (what: string): INodePropertyOptions[] => [
	{ name: `Close and reopen the node to list the ${what} (it had no credential yet)`, value: '' },
];

/** `methods` of a node built from an area's declarations. */
export function buildMethods(area: ApiArea) {
	const listSearch: Record<string, (this: ILoadOptionsFunctions, filter?: string, token?: string) => Promise<INodeListSearchResult>> = {};
	const loadOptions: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> = {};
	for (const loc of usedLocators(area)) {
		listSearch[searchMethod(loc.key)] = async function (this: ILoadOptionsFunctions, filter?: string, token?: string) {
			if (!hasCredential(this)) return { results: [] };
			const page = token ? Number(token) : 1;
			const { rows, more } = await locatorPage(this, loc, page, filter);
			return { results: optionsOf(loc, rows), paginationToken: more ? String(page + 1) : undefined };
		};
		loadOptions[optionsMethod(loc.key)] = async function (this: ILoadOptionsFunctions) {
			if (!hasCredential(this)) return reopenToList(pluralNoun(nounOf(loc.label)));
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

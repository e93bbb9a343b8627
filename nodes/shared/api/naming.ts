/**
 * Names, order and wording the engine gives what it derives from declarations: parameter names
 * from wire names, the names of the load-options methods, the optional collection of an
 * operation, and n8n's conventions for option order and for options loaded from the service.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { FieldDecl, OperationDecl } from './declarations';

/** `record_id` → `recordId`. */
export function camel(wire: string): string {
	return wire.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The n8n parameter name of a field: its `param`, or the camel-cased wire name. */
export const paramName = (f: FieldDecl) => f.param ?? camel(f.wire);

export const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `host` → `hosts`, `strategy` → `strategies`: a key in the plural (method names, record keys). */
export const pluralKey = (key: string) => (/[^aeiou]y$/.test(key) ? `${key.slice(0, -1)}ies` : `${key}s`);

/** The listSearch method of a locator: `searchHosts`. */
export const searchMethod = (key: string) => `search${pascal(pluralKey(key))}`;

/** The loadOptions method of a locator: `getHostOptions`. */
export const optionsMethod = (key: string) => `get${pascal(key)}Options`;

const COLLECTIONS = {
	filters: { name: 'filters', displayName: 'Filters', placeholder: 'Add Filter' },
	updateFields: { name: 'updateFields', displayName: 'Update Fields', placeholder: 'Add Field' },
	additionalFields: { name: 'additionalFields', displayName: 'Additional Fields', placeholder: 'Add Field' },
} as const;

/** The optional collection of an operation: filters for lists, update fields for updates. */
export function collectionOf(op: OperationDecl): { name: string; displayName: string; placeholder: string } {
	const name = op.optionalIn ?? (op.list ? 'filters' : 'additionalFields');
	return COLLECTIONS[name];
}

/** Whether a field is a top-level parameter (required, or optional but shown outside the collection). */
export const isTopLevel = (f: FieldDecl) => f.required === true || f.topLevel === true;

/** Options sorted by name, as n8n's lint rules expect. */
export function sortOptions<T extends { name: string }>(options: T[]): T[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

/** Collection entries sorted by display name, as n8n's lint rules expect. */
export function sortByDisplayName(props: INodeProperties[]): INodeProperties[] {
	return [...props].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

const EXPRESSIONS_DOCS = 'https://docs.n8n.io/code/expressions/';

/** n8n's standard wording for options loaded from the service. */
export function dynamicOptions(base: INodeProperties, multi: boolean, entity: string, own?: string) {
	const suffix = multi ? 'Names or IDs' : 'Name or ID';
	base.displayName = base.displayName.endsWith(suffix) ? base.displayName : `${entity} ${suffix}`;
	const standard = multi
		? `Choose from the list, or specify IDs using an <a href="${EXPRESSIONS_DOCS}">expression</a>`
		: `Choose from the list, or specify an ID using an <a href="${EXPRESSIONS_DOCS}">expression</a>`;
	base.description = own ? `${own.replace(/\.$/, '')}. ${standard}.` : standard;
}

/** "CPU Package" -> "CPU package", "Host Disk" -> "host disk": a label inside a sentence. */
export const nounOf = (label: string) => label.split(' ').map((w) => (/^[A-Z][a-z]/.test(w) ? w.toLowerCase() : w)).join(' ');

/** "host" → "hosts", "strategy" → "strategies", "address" → "addresses": a noun in the plural, for sentences. */
export const pluralNoun = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`);

/** The start of a sentence inside another: without its full stop, its first letter small ("Only hosts" → "only hosts"). */
export const clause = (s: string) => {
	const t = s.trim().replace(/\.$/, '');
	return /^[A-Z][a-z]/.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t;
};

/**
 * The parameters every action node starts with, in n8n's standard form: the Resource dropdown,
 * one Operation dropdown per resource, and the Return All + Limit pair of list operations.
 *
 * Defaults are stated, never taken from the order of a list: a saved workflow holds only the
 * parameters that differ from their defaults, so a default that moved would silently change what
 * it runs (schema/README.md).
 *
 * The order of the options is the order of n8n's node panel too: it lists a node's actions
 * Resource option by Resource option, each resource's Operation options as they come. n8n's lint
 * (node-param-options-type-unsorted-items) wants a list of five options or more sorted by name;
 * a shorter list is in the order people use it: resources as the node declares them, operations
 * Get Many, Get, Create or Add, Update, Delete, then the others by name, a diagnostic (Verify
 * Compatibility) last.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export interface ResourceChoice {
	value: string;
	/** Title Case. */
	name: string;
	description?: string;
}

export interface OperationChoice {
	resource: string;
	/** The value saved in workflows. */
	operation: string;
	/** Title Case, without the resource. */
	name: string;
	/** Sentence case, with the resource and the article English needs ("Create a record", "Get many records"): what the panel lists and the editor names a new node or tool. */
	action: string;
	description: string;
}

/** The fewest options n8n's lint wants sorted by name (eslint-plugin-n8n-nodes-base MIN_ITEMS_TO_ALPHABETIZE). */
export const SORTED_FROM = 5;

function byName<T extends { name: string }>(options: T[]): T[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

/** Where an operation goes in a short list: what people do most first. */
const USAGE_RANK: Record<string, number> = { getAll: 0, get: 1, create: 2, add: 2, update: 3, delete: 4, checkCompatibility: 6 };
const usageRank = (operation: string) => USAGE_RANK[operation] ?? 5;

/** The Resource options: sorted by name from five on, else as declared. */
export function orderResources<T extends { name: string }>(resources: T[]): T[] {
	return resources.length >= SORTED_FROM ? byName(resources) : [...resources];
}

/** One resource's Operation options: sorted by name from five on, else by use. */
export function orderOperations<T extends { name: string; operation: string }>(operations: T[]): T[] {
	if (operations.length >= SORTED_FROM) return byName(operations);
	return [...operations].sort((a, b) => usageRank(a.operation) - usageRank(b.operation) || a.name.localeCompare(b.name));
}

/** The Resource dropdown. `node` names the node in the error a missing default gives at load time. */
export function resourceProperty(node: string, resources: ResourceChoice[], defaultResource: string): INodeProperties {
	if (!resources.some((r) => r.value === defaultResource)) throw new Error(`${node}: defaultResource "${defaultResource}" is not one of its resources`);
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: orderResources(resources).map((r) => ({ name: r.name, value: r.value, description: r.description })),
		default: defaultResource,
	};
}

/** One Operation dropdown per resource, shown for that resource, with the resource's stated default. */
export function operationProperties(
	node: string,
	resources: ResourceChoice[],
	operations: OperationChoice[],
	defaultOperations: Record<string, string>,
): INodeProperties[] {
	return resources.map((resource) => {
		const ops = operations.filter((o) => o.resource === resource.value);
		const defaultOperation = defaultOperations[resource.value];
		if (!ops.some((o) => o.operation === defaultOperation)) {
			throw new Error(`${node}: defaultOperations["${resource.value}"] ("${defaultOperation}") is not one of the resource's operations`);
		}
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: orderOperations(ops).map((o) => ({ name: o.name, value: o.operation, action: o.action, description: o.description })),
			default: defaultOperation,
		};
	});
}

/**
 * Return All and Limit (default 50), in n8n's standard wording. `show` is the display condition
 * of the operation; without it the pair carries none of its own (the caller adds the operation's,
 * e.g. with n8n's updateDisplayOptions). Limit shows only while Return All is off.
 */
export function returnAllAndLimit(show?: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			...(show ? { displayOptions: { show } } : {}),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: { show: { ...(show ?? {}), returnAll: [false] } },
		},
	];
}

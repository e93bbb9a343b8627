/**
 * The parameters every action node starts with, in n8n's standard form: the Resource dropdown,
 * one Operation dropdown per resource, and the Return All + Limit pair of list operations.
 *
 * Defaults are stated, never taken from the order of a list: a saved workflow holds only the
 * parameters that differ from their defaults, so a default that moved would silently change what
 * it runs (schema/README.md). Options are sorted by name, as n8n's lint rules expect.
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
	/** Sentence case, with the resource, no articles: what the editor names a new node or tool. */
	action: string;
	description: string;
}

function byName<T extends { name: string }>(options: T[]): T[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

/** The Resource dropdown. `node` names the node in the error a missing default gives at load time. */
export function resourceProperty(node: string, resources: ResourceChoice[], defaultResource: string): INodeProperties {
	if (!resources.some((r) => r.value === defaultResource)) throw new Error(`${node}: defaultResource "${defaultResource}" is not one of its resources`);
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: byName(resources.map((r) => ({ name: r.name, value: r.value, description: r.description }))),
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
			options: byName(ops.map((o) => ({ name: o.name, value: o.operation, action: o.action, description: o.description }))),
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

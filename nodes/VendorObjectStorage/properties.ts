/**
 * The node's parameters, all read from area.ts: the tool descriptions (shown only when the node
 * is a tool), the Resource and Operation dropdowns (shared builders), then each operation's own
 * parameters under its resource and operation, with "Concurrent Requests" in its Options.
 */
import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { operationProperties, resourceProperty } from '../shared/dropdowns';
import { concurrencyOption } from '../shared/run';
import { toolDescriptions } from '../shared/tool';
import type { StorageArea, StorageOperation } from './actions/types';
import { storageToolText } from './tool';

/** One operation's parameters, shown for its resource and operation; Options gets "Concurrent Requests" (made when missing). */
function operationParameters(op: StorageOperation): INodeProperties[] {
	const own = updateDisplayOptions({ show: { resource: [op.resource], operation: [op.operation] } }, op.properties);
	const concurrency = concurrencyOption(op.serial, op.concurrency);
	const options = own.find((p) => p.name === 'options' && p.type === 'collection');
	if (options) {
		const sorted = [...(options.options ?? []), concurrency].sort((a, b) => (a as INodeProperties).displayName.localeCompare((b as INodeProperties).displayName));
		return [...own.filter((p) => p !== options), { ...options, options: sorted }];
	}
	return [
		...own,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: { resource: [op.resource], operation: [op.operation] } },
			options: [concurrency],
		},
	];
}

export function storageProperties(area: StorageArea): INodeProperties[] {
	return [
		...toolDescriptions(area.operations.map(storageToolText)),
		resourceProperty(area.node, area.resources, area.defaultResource),
		...operationProperties(area.node, area.resources, area.operations, area.defaultOperations),
		...area.operations.flatMap(operationParameters),
	];
}

import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { concurrencyOption } from '../shared/run';
import { operationSubtitle } from '../shared/subtitle';
import { SERIAL, operations, router } from './actions/router';
import { objectStorageArea } from './area';
import { searchBuckets, searchObjects } from './methods/listSearch';
import { withStorageToolDescriptions } from './tool';

/** Resource and Operation dropdowns, from the area's list (the one source of truth), then each operation's fields. */
function properties(): INodeProperties[] {
	const defaultResource = objectStorageArea.defaultResource;
	const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
	const props: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: byName(objectStorageArea.resources.map((r) => ({ name: r.name, value: r.value, description: r.description }))),
			default: defaultResource,
		},
	];
	for (const resource of objectStorageArea.resources) {
		const ops = objectStorageArea.operations.filter((o) => o.resource === resource.value);
		const defaultOperation = objectStorageArea.defaultOperations[resource.value];
		const operation: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: byName(ops.map((o) => ({ name: o.name, value: o.operation, action: o.action, description: o.description }))),
			default: defaultOperation,
		};
		props.push(operation);
	}
	for (const op of objectStorageArea.operations) {
		const own = operations[op.resource]?.[op.operation]?.description ?? [];
		const concurrency = concurrencyOption(SERIAL[`${op.resource}.${op.operation}`]);
		// "Concurrent Requests" goes into the operation's Options collection (made when it has none)
		const options = own.find((p) => p.name === 'options' && p.type === 'collection');
		if (options) {
			props.push(...own.filter((p) => p !== options), { ...options, options: [...(options.options ?? []), concurrency].sort((a, b) => (a as INodeProperties).displayName.localeCompare((b as INodeProperties).displayName)) });
		} else {
			props.push(...own, {
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				displayOptions: { show: { resource: [op.resource], operation: [op.operation] } },
				options: [concurrency],
			});
		}
	}
	return props;
}

export class VendorObjectStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Object Storage',
		name: 'vendorObjectStorage',
		icon: { light: 'file:../../icons/objectStorage.svg', dark: 'file:../../icons/objectStorage.dark.svg' },
		group: ['transform'],
		version: [1],
		defaultVersion: 1,
		subtitle: operationSubtitle(objectStorageArea),
		description: 'Store, fetch and share files in vendor object storage buckets; large files stream in parallel parts',
		defaults: { name: 'Vendor Object Storage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vendorObjectStorageApi', required: true }],
		properties: withStorageToolDescriptions(properties()),
	};

	methods = { listSearch: { searchBuckets, searchObjects } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

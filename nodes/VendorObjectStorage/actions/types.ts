/**
 * What one object-storage operation is. Each `actions/<resource>/<operation>.operation.ts`
 * exports one `operation: StorageOperation` holding everything about it: the endpoints.tsv row
 * it implements, its names in the dropdown, why it runs its items one at a time (if it does),
 * what an AI model is told about it, its parameters and its execute. area.ts lists them; the
 * node's dropdowns, parameters, tool descriptions and router, the README tables and the coverage
 * test all read that list.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationChoice, ResourceChoice } from '../../shared/dropdowns';

/** Runs the operation over all input items; one output item per result, with pairedItem. */
export type OperationExecute = (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

export interface StorageOperation extends OperationChoice {
	/** The `endpoint` column of the endpoints.tsv row it implements, verbatim. */
	endpoint: string;
	/** Every endpoint a composite operation sends (the compatibility check, Copy, Folder Delete …), for the README. */
	uses?: string[];
	/**
	 * A request the vendor's documentation does not include, which the operation sends instead of
	 * a documented row (`endpoint` then describes it): the reading that allows it, e.g. `R17` for
	 * the bucket list (docs/vendor/readings.md).
	 */
	undocumented?: string;
	/** Signs locally and sends no request (the presigned URL: a signed Get object or Put object for someone else to send). */
	local?: boolean;
	/**
	 * Why its items run one after another whatever "Concurrent Requests" says (shown in that
	 * option's description); without it, items run in parallel.
	 */
	serial?: string;
	/** What "Concurrent Requests" does here, when it bounds more than the items in flight (Upload: its parts too). */
	concurrency?: string;
	/** What an AI model is told after the description: what it needs and what it returns (see tool.ts). */
	toolText: string;
	/**
	 * Its parameters, without conditions on resource and operation (the node adds those). An
	 * Options collection, if any, also gets "Concurrent Requests"; without one the node adds it.
	 */
	properties: INodeProperties[];
	execute: OperationExecute;
}

export interface StorageArea {
	node: string;
	/** The resource a new node shows. Stated, never taken from the order of `resources`. */
	defaultResource: string;
	/** The operation a new node shows, per resource. Stated, never taken from the order of `operations`. */
	defaultOperations: Record<string, string>;
	resources: ResourceChoice[];
	operations: StorageOperation[];
}

/** Runs the operation chosen in the node: its module's `execute`, one item at a time when it declares `serial`. */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { runState } from '../../shared/run';
import { forModel, isToolRun } from '../../shared/tool';
import { objectStorageArea } from '../area';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = objectStorageArea.operations.find((o) => o.resource === resource && o.operation === operation);
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
			description: 'Choose an operation from the list.',
		});
	}
	if (op.serial) runState(this).serial = op.serial;
	try {
		return [await op.execute.call(this, items)];
	} catch (error) {
		// a model (tool runs) reads the message only: the advice goes into it
		throw isToolRun(this) ? forModel(error) : error;
	}
}

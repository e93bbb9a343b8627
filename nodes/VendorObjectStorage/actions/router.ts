/** Dispatches to `actions/<resource>/<operation>.operation.ts`. */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { runState } from '../../shared/run';
import { forModel, isToolRun } from '../../shared/tool';
import type { OperationExecute } from '../helpers/common';
import * as bucketCheckCompatibility from './bucket/checkCompatibility.operation';
import * as bucketCreate from './bucket/create.operation';
import * as bucketDelete from './bucket/delete.operation';
import * as bucketGetAcl from './bucket/getAcl.operation';
import * as bucketListObjects from './bucket/listObjects.operation';
import * as bucketSetAcl from './bucket/setAcl.operation';
import * as multipartAbort from './multipartUpload/abort.operation';
import * as multipartComplete from './multipartUpload/complete.operation';
import * as multipartInitiate from './multipartUpload/initiate.operation';
import * as multipartListParts from './multipartUpload/listParts.operation';
import * as multipartUploadPart from './multipartUpload/uploadPart.operation';
import * as objectDelete from './object/delete.operation';
import * as objectDownload from './object/download.operation';
import * as objectGetPresignedUrl from './object/getPresignedUrl.operation';
import * as objectUpload from './object/upload.operation';

interface OperationModule {
	description: import('n8n-workflow').INodeProperties[];
	execute: OperationExecute;
}

export const operations: Record<string, Record<string, OperationModule>> = {
	bucket: {
		checkCompatibility: bucketCheckCompatibility,
		create: bucketCreate,
		delete: bucketDelete,
		getAcl: bucketGetAcl,
		setAcl: bucketSetAcl,
		listObjects: bucketListObjects,
	},
	object: {
		upload: objectUpload,
		download: objectDownload,
		delete: objectDelete,
		getPresignedUrl: objectGetPresignedUrl,
	},
	multipartUpload: {
		initiate: multipartInitiate,
		uploadPart: multipartUploadPart,
		listParts: multipartListParts,
		complete: multipartComplete,
		abort: multipartAbort,
	},
};

/** Operations whose items run one after another whatever "Concurrent Requests" says, and why. */
export const SERIAL: Record<string, string> = {
	'object.upload': 'each upload sends its own parts in parallel (see Parts in Parallel)',
	'multipartUpload.complete': 'each completion must follow the parts uploaded before it',
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operations[resource]?.[operation];
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
			description: 'Choose an operation from the list.',
		});
	}
	const serial = SERIAL[`${resource}.${operation}`];
	if (serial) runState(this).serial = serial;
	try {
		return [await op.execute.call(this, items)];
	} catch (error) {
		// a model (tool runs) reads the message only: the advice goes into it
		throw isToolRun(this) ? forModel(error) : error;
	}
}

/** Runs the operation chosen in the node: its module's `execute`, one item at a time when it declares `serial`. */
import { NodeOperationError, type ICredentialDataDecryptedObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { credentialSecrets, redactError, redactRecords } from '../../shared/redact';
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
		const out = await op.execute.call(this, items);
		// a service may echo the access secret in a message (an error item) or a record: never shown
		const secrets = await storageSecrets(this);
		if (!secrets.length) return [out];
		const json = redactRecords(out.map((item) => item.json), secrets);
		return [out.map((item, i) => (item.json === json[i] ? item : { ...item, json: json[i] }))];
	} catch (error) {
		redactError(error, await storageSecrets(this));
		// a model (tool runs) reads the message only: the advice goes into it
		throw isToolRun(this) ? forModel(error) : error;
	}
}

/** The access secret of the node's storage credential, in every form it can come back in (shared/redact.ts). */
async function storageSecrets(fn: IExecuteFunctions): Promise<string[]> {
	try {
		return credentialSecrets(await fn.getCredentials<ICredentialDataDecryptedObject>('vendorObjectStorageApi'));
	} catch {
		return [];
	}
}

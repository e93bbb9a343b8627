/**
 * Cloud Disk > Detach. The vendor's documentation lists the unbind operation without a path of
 * its own: its only example sends it to the path of cloudDiskBind (without the host), and "a
 * distinct path of it: not shown" (docs/vendor/readings.md#r60). The node asks `instance/unbind`
 * first, the operation's name as every other row's name is its path; a service that has no such
 * endpoint answers HTTP 404, which changed nothing, and the disk is then detached the way the
 * example does it: `instance/cloudDiskBind` with the disk and no host. The path that worked is
 * kept for the rest of the node run, so a run of many items asks the missing path once.
 * Account > Check Compatibility tells which path a service takes (check `unbindPath`).
 */
import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../shared/api/declarations';
import { defaultRecords, noDataRecord } from '../shared/api/output';
import { apiRequest } from '../shared/api/transport';

/** The unbind operation's own path, and the path of the documentation's example (R60). */
export const UNBIND_PATH = 'instance/unbind';
export const EXAMPLE_PATH = 'instance/cloudDiskBind';

/**
 * Per node run: which path detaches a disk, found by the first item that asks (the others wait
 * for its answer, so a run of many items meets a missing path once); undefined when the first
 * item failed otherwise (then each item asks for itself).
 */
const pathOfRun = new WeakMap<IExecuteFunctions, Promise<string | undefined>>();

/** Whether an error is the service's "no such endpoint" (HTTP 404): nothing was done. */
export function noSuchEndpoint(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}

/** One detach: `instance/unbind`, or the example's path after a 404 there; `found` is told the path that answered. */
async function detachOnce(ctx: OperationContext, request: IDataObject, known: string | undefined, found: (path: string | undefined) => void) {
	const path = known ?? UNBIND_PATH;
	let failure: unknown;
	try {
		const envelope = await apiRequest(ctx.fn, path, request, { itemIndex: ctx.itemIndex });
		found(path);
		return envelope;
	} catch (error) {
		failure = error;
	}
	// apiRequest's own NodeApiError, passed on as it is
	if (path !== UNBIND_PATH || !noSuchEndpoint(failure)) {
		found(known);
		throw failure;
	}
	// no instance/unbind here: the documentation's example path (readings R60)
	found(EXAMPLE_PATH);
	return await apiRequest(ctx.fn, EXAMPLE_PATH, request, { itemIndex: ctx.itemIndex });
}

export async function detachDisk(ctx: OperationContext, body: IDataObject): Promise<IDataObject[]> {
	const fn = ctx.fn;
	const request = { id: body.id };
	const decided = pathOfRun.get(fn);
	let envelope;
	if (decided) envelope = await detachOnce(ctx, request, await decided, () => undefined);
	else {
		let tell: (path: string | undefined) => void = () => undefined;
		pathOfRun.set(fn, new Promise((resolve) => (tell = resolve)));
		envelope = await detachOnce(ctx, request, undefined, (path) => {
			if (path === undefined) pathOfRun.delete(fn);
			tell(path);
		});
	}
	const records = defaultRecords(envelope, request);
	return records.length ? records : [noDataRecord(envelope, request)];
}

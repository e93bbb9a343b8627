/**
 * The bucket list: `GET /` (S3's ListAllMyBuckets), which the vendor's documentation does not
 * include (docs/vendor/readings.md#r17). Bucket > Get Many and every Bucket "From List" use it. A
 * service that does not answer it (an error such as 404, 405 or 501, or an answer that is not a
 * bucket list) gets a message that says so and how to go on: type the bucket's name.
 */
import type { ILoadOptionsFunctions, IExecuteFunctions } from 'n8n-workflow';

import { storageFailure } from '../../shared/storage/errors';
import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { XmlEncodingError } from '../../shared/charset';
import { children, text, XmlDoctypeError, type XmlNode } from '../../shared/storage/xml';
import { asNodeError } from './common';
import { codeOf } from './compat/check';

export interface BucketEntry {
	name: string;
	creationDate?: string;
}

/** Codes and statuses of a service that has no bucket list (or does not let this key use it). */
const NO_LIST_CODES = new Set(['NotImplemented', 'MethodNotAllowed', 'InvalidRequest', 'NoSuchBucket', 'InvalidBucketName', 'AccessDenied']);
const NO_LIST_STATUS = new Set(['400', '403', '404', '405', '501']);

const HOW_TO_GO_ON =
	'Listing buckets (GET /) is not part of the vendor\'s documented interface, and this service does not answer it. Type the bucket\'s name instead ("By Name" in a Bucket field).';

/** Every bucket of the credential's account, in the service's order. */
export async function listBuckets(ctx: IExecuteFunctions | ILoadOptionsFunctions, itemIndex = 0): Promise<BucketEntry[]> {
	const node = ctx.getNode();
	const notAList = (transId: string) =>
		storageFailure(node, 'The service does not list buckets: its answer to GET / is not a bucket list', `${HOW_TO_GO_ON}${transId ? ` (X-Trans-Id ${transId})` : ''}`, itemIndex);
	let res;
	try {
		res = await storageRequest(ctx, { method: 'GET', itemIndex });
	} catch (error) {
		const e = error as Error & { httpCode?: string | null };
		const code = codeOf(error);
		if ((code && NO_LIST_CODES.has(code)) || (e.httpCode && NO_LIST_STATUS.has(String(e.httpCode)))) {
			throw storageFailure(node, `The service does not list buckets: ${e.message}`, HOW_TO_GO_ON, itemIndex);
		}
		// asNodeError reads only the node from its context, which a list search has too
		throw asNodeError(ctx as IExecuteFunctions, error, itemIndex);
	}
	let doc: XmlNode | undefined;
	try {
		doc = (await xmlBody(res)).ListAllMyBucketsResult as XmlNode | undefined;
	} catch (error) {
		// XML the node refuses to read (readings R29) says why; anything else is not a bucket list
		if (error instanceof XmlDoctypeError || error instanceof XmlEncodingError) throw storageFailure(node, error.message, error.description, itemIndex);
		throw notAList(res.transId);
	}
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw notAList(res.transId);
	return children(doc.Buckets, 'Bucket').map((b) => {
		const entry: BucketEntry = { name: text(b, 'Name') };
		if (b.CreationDate !== undefined) entry.creationDate = text(b, 'CreationDate');
		return entry;
	});
}

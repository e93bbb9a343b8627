/**
 * Bucket > Check Compatibility: probes which reading a service follows where the vendor's
 * object-storage documentation can be read two ways (the emulator plays the second reading of
 * each as a dialect), and which credential settings suit it. Everything happens in the bucket
 * the user names, under a scratch prefix: small objects, two-part multipart uploads (one per
 * query spelling), a presigned GET, conditional GETs, a listing read as text (XML booleans and
 * escapes), List Objects at /{bucket}/ and /{bucket}, a ranged GET (how a range is answered);
 * all of it is removed afterwards, also
 * when a step fails (uploads it started are aborted). Optionally a scratch bucket, created
 * public-read and deleted, tells whether Get Bucket ACL lists grants other than the owner's
 * FULL_CONTROL.
 *
 * Each check yields one finding { check, tried, observed, reading, setting? }; the last item
 * is the summary with the credential settings to use.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL } from '../../../shared/storage/settings';
import { bucketAcl } from './acl';
import { Check, type CompatOptions, type Finding } from './check';
import { cleanUp } from './cleanUp';
import { multipart } from './multipart';
import { commonPrefixes, conditionalGet, marker, presignedGet, rangeAnswer, signing, trickyKey } from './objects';
import { summary } from './summary';
import { bucketPath, xmlForms } from './xml';

export { scratchPrefix, type CompatOptions, type Finding } from './check';

export async function checkCompatibility(ctx: IExecuteFunctions, o: CompatOptions): Promise<Finding[]> {
	const stored = await ctx.getCredentials(CREDENTIAL, o.itemIndex);
	const c = new Check(ctx, o, stored);
	const readings: IDataObject = {};
	try {
		await signing(c);
		await bucketPath(c, readings);
		await trickyKey(c);
		await xmlForms(c, readings);
		await commonPrefixes(c, readings);
		await marker(c, readings);
		await bucketAcl(c, readings);
		const camel = await multipart(c, 'camel', readings);
		await multipart(c, 'snake', readings, camel?.decoded);
		await presignedGet(c, readings);
		await conditionalGet(c, readings);
		await rangeAnswer(c, readings);
	} finally {
		await cleanUp(c);
	}
	c.findings.push(summary(c, readings));
	return c.findings;
}

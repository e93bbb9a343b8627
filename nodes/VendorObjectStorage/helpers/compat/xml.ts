/**
 * Checks of how the service writes what the node reads and sends at the level of the protocol:
 * the path of bucket-level requests in the signature (readings R10), how its XML writes
 * booleans (R26) and escapes text (R27).
 */
import type { IDataObject } from 'n8n-workflow';

import { xmlText } from '../../../shared/charset';
import { children, parseXml, text, xmlBoolean } from '../../../shared/storage/xml';
import { codeOf, messageOf, type Check } from './check';

const PATHS = { slash: '/bucket/', noSlash: '/bucket' } as const;

/**
 * List Objects (one key under the scratch prefix) sent and signed at `/{bucket}/` and at
 * `/{bucket}`: which the service accepts. The rest of the check uses the one that works.
 */
export async function bucketPath(c: Check, readings: IDataObject): Promise<void> {
	const tried = `List Objects of ${c.o.bucket} (max-keys 1, prefix "${c.o.prefix}") sent and signed at /${c.o.bucket}/, then at /${c.o.bucket}`;
	const outcome: Record<'slash' | 'noSlash', string> = { slash: '', noSlash: '' };
	for (const form of ['slash', 'noSlash'] as const) {
		try {
			await c.request({ method: 'GET', bucket: c.o.bucket, query: [['max-keys', 1], ['prefix', c.o.prefix]], credentialOverrides: c.effective({ bucketPath: form }) });
			outcome[form] = 'accepted';
		} catch (error) {
			outcome[form] = codeOf(error) ?? messageOf(error);
		}
	}
	const observed = `${PATHS.slash}: ${outcome.slash}; ${PATHS.noSlash}: ${outcome.noSlash}`;
	const slash = outcome.slash === 'accepted';
	const noSlash = outcome.noSlash === 'accepted';
	if (slash && noSlash) {
		readings.bucketPath = 'asSent';
		c.add({ check: 'bucketPath', tried, observed, reading: 'The service signs the path as it was sent: either Bucket Path works', setting: 'Bucket Path: either (/bucket/ by default)' });
		return;
	}
	if (slash || noSlash) {
		const form = slash ? 'slash' : 'noSlash';
		readings.bucketPath = form === 'slash' ? 'slashOnly' : 'noSlashOnly';
		c.bucketPath = form;
		c.add({
			check: 'bucketPath',
			tried,
			observed,
			reading:
				form === 'slash'
					? 'The service signs the bucket path as /{bucket}/, as the documentation\'s signing rules write it'
					: 'The service signs the bucket path as /{bucket} (as AWS does for path-style requests) and refuses /{bucket}/',
			setting: `Bucket Path: ${PATHS[form]}`,
		});
		return;
	}
	readings.bucketPath = 'refused';
	c.problem({ check: 'bucketPath', tried, observed, reading: 'The service refused List Objects in both forms: bucket requests will fail', setting: 'See the errors: the access key may not list this bucket' });
}

/** The form the escapes of `'` and `"` take in an XML text. */
function escapeForm(xml: string): 'numeric' | 'predefined' | 'none' {
	if (/&#(?:39|34|x27|x22);/i.test(xml)) return 'numeric';
	if (/&(?:apos|quot);/.test(xml)) return 'predefined';
	return 'none';
}

/**
 * A listing of two objects, one of them with ' and " in its key, one at a time: how IsTruncated
 * is written (true, True, 1) and how the key and the ETag's quotes are escaped (&apos;/&quot;, or
 * &#39;/&#34; as Go-based servers write them), and that the node reads both back unchanged.
 */
export async function xmlForms(c: Check, readings: IDataObject): Promise<void> {
	const p = `${c.o.prefix}x/`;
	const odd = `${p}it's "quoted".txt`;
	const tried = `List Objects with prefix "${p}" and max-keys 1 over ${p}a.txt and ${odd}, its XML read as text`;
	try {
		await c.put(`${p}a.txt`, Buffer.from('a'));
		await c.put(odd, Buffer.from('b'));
		const first = await c.request({ method: 'GET', bucket: c.o.bucket, query: [['max-keys', 1], ['prefix', p]] });
		const xml1 = xmlText(first.body as Buffer, first.headers['content-type']);
		const truncatedRaw = /<IsTruncated>([^<]*)<\/IsTruncated>/.exec(xml1)?.[1] ?? '';
		const flag = xmlBoolean(truncatedRaw);
		const all = await c.request({ method: 'GET', bucket: c.o.bucket, query: [['prefix', p]] });
		const xml2 = xmlText(all.body as Buffer, all.headers['content-type']);
		const keys = children(parseXml(xml2).ListBucketResult, 'Contents').map((e) => text(e, 'Key'));
		const form = escapeForm(xml2);
		const booleans = truncatedRaw === 'true' ? 'lowercase' : /^true$/i.test(truncatedRaw) ? 'capitalized' : truncatedRaw === '1' ? 'numeric' : 'other';
		readings.xmlBooleans = booleans;
		readings.xmlEscapes = form;
		const ok = flag === true && keys.includes(odd);
		(ok ? c.add : c.problem).call(c, {
			check: 'xml',
			tried,
			observed: `IsTruncated written "${truncatedRaw}" on a page of 1 of 2; ' and " written ${form === 'numeric' ? 'as &#39; and &#34;' : form === 'predefined' ? 'as &apos; and &quot;' : 'unescaped'}; keys read back: ${JSON.stringify(keys)}`,
			reading: ok
				? `XML booleans written ${booleans === 'lowercase' ? 'true/false (S3)' : booleans === 'capitalized' ? 'True/False' : '1/0 (the other form of an XML boolean)'}, text escaped ${form === 'numeric' ? 'with numeric references (as Go-based servers write it)' : 'with the predefined entities'}: the node reads both`
				: flag !== true
					? 'A truncated listing does not say so in a form the node reads: paging would stop early, so the node fails such a listing'
					: 'A key with \' and " does not come back unchanged',
			setting: ok ? 'None: the node reads every form' : 'None helps: report it to the vendor',
		});
	} catch (error) {
		c.problem({ check: 'xml', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

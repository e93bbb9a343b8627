/**
 * Bucket > Check Compatibility: probes which readings of the object-storage documentation (seed
 * 000) a service follows, where DECISIONS.md lists two ("Readings the seeds leave open"), and
 * which credential settings suit it. Everything happens in the bucket the user names, under a
 * scratch prefix: small objects, two-part multipart uploads (one per query spelling), a presigned
 * GET, conditional GETs; all of it is removed afterwards, also when a step fails (uploads it
 * started are aborted). Optionally a scratch bucket, created public-read and deleted, tells
 * whether Get Bucket ACL lists grants other than the owner's FULL_CONTROL.
 *
 * Each check yields one finding { check, tried, observed, reading, setting? }; the last item
 * is the summary with the credential settings to use.
 */
import { createHash, randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { type StorageSettings } from '../../shared/storage/auth';
import { presignedUrl } from '../../shared/storage/signer';
import type { StorageCall } from '../../shared/storage/call';
import { serviceNow } from '../../shared/storage/clock';
import { CREDENTIAL, settingsOf } from '../../shared/storage/settings';
import { storageRequest, xmlBody } from '../../shared/storage/transport';
import { children, parseXml, text, type XmlNode, type XmlValue } from '../../shared/storage/xml';
import { asNodeError } from './common';
import { completeUpload, initiateUpload, listPartsPage, sendPart, type UploadTarget } from './multipart';
import { compareKeys } from './listing';

export interface Finding extends IDataObject {
	check: string;
	tried: string;
	observed: string;
	reading: string;
}

export interface CompatOptions {
	bucket: string;
	prefix: string;
	firstPartBytes: number;
	scratchBucket: boolean;
	itemIndex: number;
}

/** Credential fields of one way to spell and sign multipart requests. */
interface Variant {
	id: string;
	label: string;
	spelling: 'camel' | 'snake';
	signUnderscore: boolean;
	decoded: boolean;
}

const VARIANTS: Variant[] = [
	{ id: 'camel', label: 'uploadId/partNumber, values signed as sent', spelling: 'camel', signUnderscore: false, decoded: false },
	{ id: 'camelDecoded', label: 'uploadId/partNumber, values signed decoded', spelling: 'camel', signUnderscore: false, decoded: true },
	{ id: 'snake', label: 'upload_id/part_number, not signed', spelling: 'snake', signUnderscore: false, decoded: false },
	{ id: 'snakeSigned', label: 'upload_id/part_number signed, values as sent', spelling: 'snake', signUnderscore: true, decoded: false },
	{ id: 'snakeSignedDecoded', label: 'upload_id/part_number signed, values decoded', spelling: 'snake', signUnderscore: true, decoded: true },
];

const codeOf = (error: unknown) => /^([A-Za-z][A-Za-z0-9]*): /.exec(String((error as Error)?.message ?? ''))?.[1];
const messageOf = (error: unknown) => String((error as Error)?.message ?? error);
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** `n8n-compat-<8 hex>/`. */
export function scratchPrefix(): string {
	return `n8n-compat-${randomBytes(4).toString('hex')}/`;
}

class Check {
	readonly findings: Finding[] = [];

	/** Keys written (or possibly written) under the prefix, to delete at the end. */
	readonly keys = new Set<string>();

	/** Uploads started and not known to be finished, with the variant that may abort them. */
	readonly uploads = new Map<string, { key: string; variant?: Variant }>();

	scratchBucket?: string;

	readonly settings: StorageSettings;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly o: CompatOptions,
		readonly stored: ICredentialDataDecryptedObject,
	) {
		this.settings = settingsOf(stored, ctx.getNode(), o.itemIndex);
	}

	/** Checks whose answer is a problem or unclear, for the summary. */
	readonly problems: string[] = [];

	add(finding: Finding): Finding {
		this.findings.push(finding);
		return finding;
	}

	/** A finding that is a problem (a failure, a refusal, no clear answer). */
	problem(finding: Finding): Finding {
		this.problems.push(finding.check);
		return this.add(finding);
	}

	/** The stored credential's effective values, with one multipart variant. */
	overrides(v: Variant): ICredentialDataDecryptedObject {
		const s = this.settings;
		return {
			advanced: true,
			schemeWord: s.profile.scheme,
			headerPrefix: s.profile.headerPrefix,
			presignKeyParam: s.presignKeyParam,
			responseTimeout: s.responseTimeoutMs / 1000,
			idleTimeout: s.idleTimeoutMs / 1000,
			multipartQueryNames: v.spelling,
			signUnderscoreSubResources: v.signUnderscore,
			subResourceValues: v.decoded ? 'decoded' : 'asSent',
		};
	}

	target(key: string, v: Variant): UploadTarget {
		const credentialOverrides = this.overrides(v);
		return {
			bucket: this.o.bucket,
			key,
			itemIndex: this.o.itemIndex,
			settings: settingsOf({ ...this.stored, ...credentialOverrides }, this.ctx.getNode(), this.o.itemIndex),
			overrides: { credentialOverrides },
		};
	}

	async request(call: Omit<StorageCall, 'itemIndex'>) {
		return await storageRequest(this.ctx, { ...call, itemIndex: this.o.itemIndex });
	}

	async put(key: string, body: Buffer, headers: Record<string, string> = {}) {
		this.keys.add(key);
		return await this.request({ method: 'PUT', bucket: this.o.bucket, key, body, headers: { 'Content-Type': 'application/octet-stream', ...headers } });
	}

	async get(key: string, headers: Record<string, string> = {}, accept: number[] = []) {
		return await this.request({ method: 'GET', bucket: this.o.bucket, key, headers, accept });
	}

	async list(query: Array<[string, string | number | undefined]>) {
		const res = await this.request({ method: 'GET', bucket: this.o.bucket, query });
		return (await xmlBody(res)).ListBucketResult as XmlNode | undefined;
	}
}

/* ------------------------------------------------------------ the checks */

async function signing(c: Check): Promise<void> {
	const key = `${c.o.prefix}probe.txt`;
	const s = c.settings;
	const tried = `Put Object ${c.o.bucket}/${key}, signed with "${s.profile.scheme} <access key>:<signature>" and the ${s.profile.headerPrefix}date header`;
	try {
		const res = await c.put(key, Buffer.from('n8n compatibility check\n'));
		c.add({
			check: 'signing',
			tried,
			observed: `HTTP ${res.statusCode}${res.headers.etag ? `, ETag ${res.headers.etag}` : ''}`,
			reading: 'The service accepts the signature, scheme word and header prefix of the credential',
		});
	} catch (error) {
		c.problem({ check: 'signing', tried, observed: messageOf(error), reading: 'The service refused the first write; the other checks need it', setting: 'See the error: access key and secret, and the Scheme Word and Header Prefix under Advanced Protocol Settings' });
		throw asNodeError(c.ctx, error, c.o.itemIndex);
	}
}

export const TRICKY_NAME = 'tricky/ü 日本 a+b=c:d%25e?f#g~h.txt';

async function trickyKey(c: Check): Promise<void> {
	const key = `${c.o.prefix}${TRICKY_NAME}`;
	const body = Buffer.from(`content of ${TRICKY_NAME}`);
	const tried = `Put Object, Get Object and List Objects of the key "${key}" (Unicode, space, + = : % ? # ~), sent percent-encoded per path segment`;
	try {
		await c.put(key, body, { 'Content-Type': 'text/plain' });
		const got = (await c.get(key)).body as Buffer;
		const listed = children(await c.list([['prefix', `${c.o.prefix}tricky/`]]), 'Contents').map((e) => text(e, 'Key'));
		const same = got.equals(body);
		const inList = listed.includes(key);
		(same && inList ? c.add : c.problem).call(c, {
			check: 'trickyKey',
			tried,
			observed: `Get Object gave ${same ? 'the same bytes' : `other bytes (${got.length} instead of ${body.length})`}; the listing ${inList ? 'holds the key unchanged' : `holds ${JSON.stringify(listed)}`}`,
			reading: same && inList ? 'Keys round-trip: encoded per RFC 3986, signed as sent (the ruling)' : 'Keys do not round-trip: the service decodes or signs keys differently',
		});
	} catch (error) {
		c.problem({ check: 'trickyKey', tried, observed: messageOf(error), reading: 'Keys with these characters do not work with this service' });
	}
}

/** The form of the first CommonPrefixes element: 'prefixElement' (S3) or 'plainString' (the seed's). */
function prefixForm(doc: XmlNode | undefined): { form?: 'prefixElement' | 'plainString'; value?: string } {
	const raw = doc?.CommonPrefixes as XmlValue | undefined;
	const first = Array.isArray(raw) ? raw[0] : raw;
	if (typeof first === 'string') return { form: 'plainString', value: first };
	if (first && typeof first === 'object' && !Array.isArray(first)) {
		if (first.Prefix !== undefined) return { form: 'prefixElement', value: text(first, 'Prefix') };
		if (typeof first['#text'] === 'string') return { form: 'plainString', value: first['#text'] };
	}
	return {};
}

async function commonPrefixes(c: Check, readings: IDataObject): Promise<void> {
	const p = c.o.prefix;
	const tried = `List Objects with prefix "${p}" and delimiter "/" over ${p}dir/a.txt, ${p}dir/b.txt and ${p}probe.txt`;
	try {
		await c.put(`${p}dir/a.txt`, Buffer.from('a'));
		await c.put(`${p}dir/b.txt`, Buffer.from('b'));
		const { form, value } = prefixForm(await c.list([['delimiter', '/'], ['prefix', p]]));
		readings.commonPrefixes = form ?? 'none';
		(form ? c.add : c.problem).call(c, {
			check: 'commonPrefixes',
			tried,
			observed: form === 'prefixElement' ? `<CommonPrefixes><Prefix>${value}</Prefix></CommonPrefixes>` : form === 'plainString' ? `<CommonPrefixes>${value}</CommonPrefixes>` : 'no CommonPrefixes element',
			reading:
				form === 'prefixElement'
					? "S3's form: each common prefix in a Prefix element"
					: form === 'plainString'
						? 'The documentation\'s "repeated string": each common prefix as the element\'s text'
						: 'The service groups no keys by the delimiter',
			setting: form ? 'None: the node reads both forms' : 'None; folders will not appear in List Objects',
		});
	} catch (error) {
		c.problem({ check: 'commonPrefixes', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

async function marker(c: Check, readings: IDataObject): Promise<void> {
	const p = `${c.o.prefix}m/`;
	const tried = `List Objects with prefix "${p}", marker "${p}1.txt" and max-keys 2 over ${p}1.txt, ${p}2.txt and ${p}3.txt`;
	try {
		for (const n of [1, 2, 3]) await c.put(`${p}${n}.txt`, Buffer.from(String(n)));
		const doc = await c.list([['marker', `${p}1.txt`], ['max-keys', 2], ['prefix', p]]);
		const keys = children(doc, 'Contents').map((e) => text(e, 'Key')).sort(compareKeys);
		const first = keys[0];
		const reading = first === `${p}1.txt` ? 'startsAt' : first === `${p}2.txt` ? 'startsAfter' : 'other';
		readings.marker = reading;
		(reading === 'other' ? c.problem : c.add).call(c, {
			check: 'marker',
			tried,
			observed: `Keys ${JSON.stringify(keys)}${text(doc, 'NextMarker') ? `, NextMarker ${text(doc, 'NextMarker')}` : ''}`,
			reading:
				reading === 'startsAt'
					? 'The listing starts AT the marker key (the documentation\'s wording)'
					: reading === 'startsAfter'
						? 'The listing starts after the marker key (S3)'
						: 'Neither reading: the listing did not start at or right after the marker',
			setting: reading === 'other' ? 'None helps: List Objects paging may skip or repeat keys' : 'None: the node drops a first key equal to the marker, so both readings page correctly',
		});
	} catch (error) {
		c.problem({ check: 'marker', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

interface AclView {
	grants: string[];
	othersListed: boolean;
}

async function readAcl(c: Check, bucket: string): Promise<AclView> {
	const res = await c.request({ method: 'GET', bucket, query: [['acl', undefined]] });
	const policy = (await xmlBody(res)).AccessControlPolicy as XmlNode | undefined;
	const ownerId = text(policy?.Owner, 'ID');
	const grants = children(policy?.AccessControlList, 'Grant').map((g) => {
		const grantee = g.Grantee as XmlNode | undefined;
		const who = text(grantee, 'URI') || text(grantee, 'ID') || text(grantee, 'EmailAddress') || '?';
		return `${who === ownerId ? 'owner' : who} ${text(g, 'Permission')}`;
	});
	return { grants, othersListed: grants.some((g) => g !== 'owner FULL_CONTROL') };
}

async function bucketAcl(c: Check, readings: IDataObject): Promise<void> {
	let tried = `Get Bucket ACL of ${c.o.bucket}`;
	try {
		const own = await readAcl(c, c.o.bucket);
		if (own.othersListed) {
			readings.bucketAcl = 'allGrants';
			c.add({
				check: 'bucketAcl',
				tried,
				observed: `Grants: ${own.grants.join('; ')}`,
				reading: 'Grants other than the owner\'s FULL_CONTROL are listed (S3), unlike the documentation\'s "only FULL_CONTROL appears"',
				setting: 'None: Get ACL outputs the grants as listed and derives a canned ACL from them',
			});
			return;
		}
		if (!c.o.scratchBucket) {
			readings.bucketAcl = 'undetermined';
			c.add({
				check: 'bucketAcl',
				tried,
				observed: `Grants: ${own.grants.join('; ') || 'none'}`,
				reading:
					'Only the owner\'s FULL_CONTROL: the bucket is private, or the service lists only FULL_CONTROL grants (the documentation\'s wording). To tell, run the check on a public-read bucket or turn on Probe ACL in a Scratch Bucket.',
				setting: 'None: Get ACL derives a canned ACL only from grants that prove it',
			});
			return;
		}
		const scratch = `n8n-compat-${randomBytes(6).toString('hex')}`;
		tried = `${tried}, then Create Bucket ${scratch} with ACL public-read, Get Bucket ACL of it, Delete Bucket`;
		c.scratchBucket = scratch;
		await c.request({ method: 'PUT', bucket: scratch, headers: { [`${c.settings.profile.headerPrefix}acl`]: 'public-read' } });
		const probe = await readAcl(c, scratch);
		readings.bucketAcl = probe.othersListed ? 'allGrants' : 'fullControlOnly';
		c.add({
			check: 'bucketAcl',
			tried,
			observed: `Grants of ${c.o.bucket}: ${own.grants.join('; ') || 'none'}; of the public-read ${scratch}: ${probe.grants.join('; ') || 'none'}`,
			reading: probe.othersListed
				? 'Grants other than the owner\'s FULL_CONTROL are listed (S3)'
				: 'Only FULL_CONTROL grants are listed, even for a public-read bucket (the documentation\'s wording): the grants cannot show whether a bucket is public',
			setting: 'None: Get ACL derives a canned ACL only from grants that prove it',
		});
	} catch (error) {
		readings.bucketAcl = 'undetermined';
		c.problem({ check: 'bucketAcl', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

/**
 * One two-part multipart upload in a query spelling: Initiate, then List Parts signed each way
 * the spelling allows until the service accepts one, then the parts, Complete and a check of
 * the object. Resolves the variant that works (undefined when none did).
 */
async function multipart(c: Check, spelling: 'camel' | 'snake', readings: IDataObject, preferDecoded?: boolean): Promise<Variant | undefined> {
	const key = `${c.o.prefix}multipart-${spelling}.bin`;
	const names = spelling === 'camel' ? 'uploadId/partNumber' : 'upload_id/part_number';
	let candidates = VARIANTS.filter((v) => v.spelling === spelling);
	if (preferDecoded !== undefined) candidates = [...candidates].sort((a, b) => Number(a.decoded !== preferDecoded) - Number(b.decoded !== preferDecoded));
	if (spelling === 'snake') candidates.sort((a, b) => Number(a.signUnderscore) - Number(b.signUnderscore));
	const check = `multipart-${names}`;
	const tried: string[] = [`Initiate Multipart Upload of ${key}`];
	const observed: string[] = [];
	let uploadId: string | undefined;
	try {
		uploadId = await initiateUpload(c.ctx, c.target(key, candidates[0]), { 'Content-Type': 'application/octet-stream' });
		c.uploads.set(uploadId, { key });
		const tricky = encodeURIComponent(uploadId) !== uploadId;
		observed.push(`upload ID ${JSON.stringify(uploadId)}${tricky ? ' (percent-encoding changes it)' : ''}`);
		let chosen: Variant | undefined;
		const refused: string[] = [];
		for (const v of candidates) {
			tried.push(`List Parts with ${v.label}`);
			try {
				await listPartsPage(c.ctx, c.target(key, v), uploadId, 0, 0);
				chosen = v;
				break;
			} catch (error) {
				if (codeOf(error) !== 'SignatureDoesNotMatch') throw asNodeError(c.ctx, error, c.o.itemIndex);
				refused.push(v.label);
			}
		}
		if (refused.length) observed.push(`SignatureDoesNotMatch with ${refused.join(' and ')}`);
		if (!chosen) {
			readings[spelling] = 'refused';
			c.problem({ check, tried: tried.join('; '), observed: observed.join('; '), reading: `The service accepts no signing of ${names} that the credential offers` });
			return undefined;
		}
		c.uploads.set(uploadId, { key, variant: chosen });
		observed.push(`accepted with ${chosen.label}`);
		const t = c.target(key, chosen);
		const first = Buffer.alloc(c.o.firstPartBytes, 'n8n compatibility check, part 1. ');
		const second = Buffer.alloc(1024, 'part 2. ');
		tried.push(`Upload Part 1 (${first.length} bytes) and 2 (${second.length} bytes), Complete, Get Object`);
		const p1 = await sendPart(c.ctx, t, uploadId, 1, first);
		const p2 = await sendPart(c.ctx, t, uploadId, 2, second);
		c.keys.add(key);
		await completeUpload(c.ctx, t, uploadId, [
			{ partNumber: 1, etag: p1.etag ?? p1.md5 },
			{ partNumber: 2, etag: p2.etag ?? p2.md5 },
		]);
		c.uploads.delete(uploadId);
		const got = (await c.get(key)).body as Buffer;
		const whole = md5(Buffer.concat([first, second]));
		observed.push(`the object has ${got.length} bytes, ${md5(got) === whole ? 'the parts joined in order' : 'NOT the parts joined in order'}`);
		readings[spelling] = chosen.id;
		// Whether values are signed decoded shows only where an upload ID changes when encoded
		// and is signed at all.
		if (tricky && (chosen.spelling === 'camel' || chosen.signUnderscore) && readings.subResourceValues === undefined) {
			readings.subResourceValues = chosen.decoded ? 'decoded' : 'asSent';
		}
		(md5(got) === whole ? c.add : c.problem).call(c, {
			check,
			tried: tried.join('; '),
			observed: observed.join('; '),
			reading:
				`${names} work` +
				(spelling === 'snake' ? (chosen.signUnderscore ? ', signed as sub-resources (not in the documentation\'s list)' : ', not signed (the documentation\'s list)') : ', signed as sub-resources') +
				(chosen.spelling === 'camel' || chosen.signUnderscore
					? tricky
						? chosen.decoded
							? '; upload IDs are signed percent-decoded'
							: '; upload IDs are signed as sent'
						: '; upload IDs need no percent-encoding here, so decoded or as sent cannot be told apart'
					: ''),
			setting:
				`Multipart Query Names: ${spelling === 'camel' ? 'uploadId and partNumber' : 'upload_id and part_number'}` +
				(spelling === 'snake' ? `; Sign Underscore Names: ${chosen.signUnderscore ? 'on' : 'off'}` : '') +
				(tricky && (chosen.spelling === 'camel' || chosen.signUnderscore) ? `; Sub-Resource Values in the Signature: ${chosen.decoded ? 'Decoded' : 'As Sent'}` : ''),
		});
		return chosen;
	} catch (error) {
		readings[spelling] ??= 'failed';
		observed.push(messageOf(error));
		c.problem({ check, tried: tried.join('; '), observed: observed.join('; '), reading: `${names} failed for another reason than the signature` });
		return undefined;
	}
}

async function presignedGet(c: Check, readings: IDataObject): Promise<void> {
	const key = `${c.o.prefix}${TRICKY_NAME}`;
	const s = c.settings;
	const tried = `A presigned GET URL (${s.presignKeyParam}, Expires, Signature) for ${key}, fetched without credentials`;
	try {
		const url = presignedUrl({
			endpoint: s.endpoint,
			method: 'GET',
			bucket: c.o.bucket,
			key,
			accessKey: s.accessKey,
			secret: s.accessSecret,
			expires: Math.floor(serviceNow(s.endpoint) / 1000) + 300,
			profile: s.profile,
			keyParam: s.presignKeyParam,
		});
		const res = (await c.ctx.helpers.httpRequest({
			url,
			method: 'GET',
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: s.responseTimeoutMs,
		})) as { statusCode: number; body: unknown };
		const body = Buffer.isBuffer(res.body) ? res.body : Buffer.from(String(res.body ?? ''));
		const same = res.statusCode === 200 && body.equals(Buffer.from(`content of ${TRICKY_NAME}`));
		let code = '';
		if (res.statusCode !== 200) {
			try {
				code = text(parseXml(body.toString('utf8')).Error, 'Code');
			} catch {
				// not an S3 error document
			}
		}
		readings.presignedGet = same ? 'works' : 'refused';
		(same ? c.add : c.problem).call(c, {
			check: 'presignedGet',
			tried,
			observed: `HTTP ${res.statusCode}${code ? ` ${code}` : ''}${same ? ', the object\'s bytes' : ''}`,
			reading: same ? 'Presigned URLs work' : 'The service refuses presigned URLs signed this way',
			...(same ? {} : { setting: 'Check Presigned URL Key Parameter under Advanced Protocol Settings (VENDORAccessKeyId by default)' }),
		});
	} catch (error) {
		c.problem({ check: 'presignedGet', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

async function conditionalGet(c: Check, readings: IDataObject): Promise<void> {
	const key = `${c.o.prefix}probe.txt`;
	const tried = `Get Object ${key} with If-None-Match set to its own ETag, then with If-Match set to another ETag`;
	try {
		const plain = await c.get(key);
		const etag = plain.headers.etag;
		if (!etag) {
			c.problem({ check: 'conditionalGet', tried, observed: 'Get Object sent no ETag header', reading: 'Conditions on the ETag cannot be used with this service' });
			return;
		}
		const same = await c.get(key, { 'If-None-Match': etag }, [304]);
		let other = 'no 412';
		try {
			const res = await c.get(key, { 'If-Match': '"00000000000000000000000000000000"' }, [412]);
			other = `HTTP ${res.statusCode}`;
		} catch (error) {
			other = messageOf(error);
		}
		const ok = same.statusCode === 304 && other === 'HTTP 412';
		readings.conditionalGet = ok ? 'asDocumented' : 'differs';
		(ok ? c.add : c.problem).call(c, {
			check: 'conditionalGet',
			tried,
			observed: `If-None-Match: HTTP ${same.statusCode}; If-Match: ${other}`,
			reading: ok ? 'Conditions work as documented: 304 when the ETag matches If-None-Match, 412 when it differs from If-Match' : 'Conditions do not work as documented',
		});
	} catch (error) {
		c.problem({ check: 'conditionalGet', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

/** Removes everything the check made; the finding says what is left, if anything, and how to remove it. */
async function cleanUp(c: Check): Promise<void> {
	const problems: string[] = [];
	let aborted = 0;
	for (const [uploadId, u] of c.uploads) {
		const order = u.variant ? [u.variant, ...VARIANTS.filter((v) => v !== u.variant)] : VARIANTS;
		let done = false;
		for (const v of order) {
			try {
				const t = c.target(u.key, v);
				await storageRequest(c.ctx, {
					method: 'DELETE',
					bucket: c.o.bucket,
					key: u.key,
					query: [[t.settings.uploadIdParam, uploadId]],
					accept: [404],
					survivesCancel: true,
					itemIndex: c.o.itemIndex,
					...t.overrides,
				});
				done = true;
				aborted++;
				break;
			} catch (error) {
				if (codeOf(error) !== 'SignatureDoesNotMatch') {
					problems.push(`upload ${uploadId} of ${u.key}: ${messageOf(error)}`);
					done = true;
					break;
				}
			}
		}
		if (!done) problems.push(`upload ${uploadId} of ${u.key}: every signing was refused`);
	}
	let deleted = 0;
	for (const key of c.keys) {
		try {
			await c.request({ method: 'DELETE', bucket: c.o.bucket, key, accept: [404], survivesCancel: true });
			deleted++;
		} catch (error) {
			problems.push(`${key}: ${messageOf(error)}`);
		}
	}
	if (c.scratchBucket) {
		try {
			await c.request({ method: 'DELETE', bucket: c.scratchBucket, accept: [404], survivesCancel: true });
		} catch (error) {
			problems.push(`bucket ${c.scratchBucket}: ${messageOf(error)}`);
		}
	}
	let left: string[] = [];
	try {
		// only what the check wrote: a prefix the user gave may hold objects of their own
		left = children(await c.list([['prefix', c.o.prefix]]), 'Contents')
			.map((e) => text(e, 'Key'))
			.filter((k) => c.keys.has(k));
	} catch (error) {
		problems.push(`listing ${c.o.prefix}: ${messageOf(error)}`);
	}
	const tried = `Delete Object of the ${c.keys.size} keys written, Abort Multipart Upload of ${c.uploads.size} unfinished uploads${c.scratchBucket ? `, Delete Bucket ${c.scratchBucket}` : ''}, then List Objects of "${c.o.prefix}" for any of them`;
	const clean = !problems.length && !left.length;
	(clean ? c.add : c.problem).call(c, {
		check: 'cleanup',
		tried,
		observed: `${deleted} objects deleted, ${aborted} uploads aborted; ${left.length ? `left: ${JSON.stringify(left)}` : 'none of them left under the prefix'}${problems.length ? `; problems: ${problems.join('; ')}` : ''}`,
		reading: clean ? 'Everything the check made is gone' : 'Something is left',
		...(clean
			? {}
			: { setting: 'Remove what is left with Object > Delete (keys) and Multipart Upload > Abort (upload IDs) in this bucket' }),
	});
}

/* ------------------------------------------------------------ the run */

export async function checkCompatibility(ctx: IExecuteFunctions, o: CompatOptions): Promise<Finding[]> {
	const stored = await ctx.getCredentials(CREDENTIAL, o.itemIndex);
	const c = new Check(ctx, o, stored);
	const readings: IDataObject = {};
	try {
		await signing(c);
		await trickyKey(c);
		await commonPrefixes(c, readings);
		await marker(c, readings);
		await bucketAcl(c, readings);
		const camel = await multipart(c, 'camel', readings);
		await multipart(c, 'snake', readings, camel?.decoded);
		await presignedGet(c, readings);
		await conditionalGet(c, readings);
	} finally {
		await cleanUp(c);
	}
	c.findings.push(summary(c, readings));
	return c.findings;
}

function summary(c: Check, readings: IDataObject): Finding {
	const camel = VARIANTS.find((v) => v.id === readings.camel);
	const snake = VARIANTS.find((v) => v.id === readings.snake);
	const now = {
		multipartQueryNames: c.settings.uploadIdParam === 'upload_id' ? 'snake' : 'camel',
		signUnderscoreSubResources: (c.settings.profile.extraSubResources ?? []).includes('upload_id'),
		subResourceValues: c.settings.profile.decodeSubResourceValues ? 'decoded' : 'asSent',
	};
	// The spelling the credential has, if it works; else the seed's signing spelling; else the other.
	const keep = now.multipartQueryNames === 'snake' ? (snake ?? camel) : (camel ?? snake);
	const settings: IDataObject = {
		multipartQueryNames: keep?.spelling ?? now.multipartQueryNames,
		signUnderscoreSubResources: keep ? keep.spelling === 'snake' && keep.signUnderscore : now.signUnderscoreSubResources,
		subResourceValues: typeof readings.subResourceValues === 'string' ? readings.subResourceValues : now.subResourceValues,
	};
	const labels: Record<string, (v: unknown) => string> = {
		multipartQueryNames: (v) => `Multipart Query Names: ${v === 'snake' ? 'upload_id and part_number' : 'uploadId and partNumber'}`,
		signUnderscoreSubResources: (v) => `Sign Underscore Names: ${v ? 'on' : 'off'}`,
		subResourceValues: (v) => `Sub-Resource Values in the Signature: ${v === 'decoded' ? 'Decoded' : 'As Sent (Percent-Encoded)'}`,
	};
	const changes = Object.keys(labels)
		.filter((k) => settings[k] !== now[k as keyof typeof now] && !(k === 'signUnderscoreSubResources' && settings.multipartQueryNames !== 'snake'))
		.map((k) => labels[k](settings[k]));
	settings.advanced = c.stored.advanced === true || changes.length > 0;
	const notes: string[] = [];
	if (!keep) notes.push('No multipart spelling worked: uploads above the multipart threshold and the Multipart Upload operations will fail');
	if (readings.subResourceValues === undefined) notes.push('Upload IDs needed no percent-encoding, so whether they are signed decoded or as sent was not told; the setting stays');
	return {
		check: 'summary',
		tried: `${c.findings.length} checks under "${c.o.prefix}" in ${c.o.bucket}`,
		observed: c.problems.length ? `Checks with problems: ${c.problems.join(', ')}` : 'Every check gave a clear answer',
		reading: changes.length
			? `Under Advanced Protocol Settings of the credential set ${changes.join('; ')}`
			: "Keep the credential's multipart and signing settings as they are",
		setting: changes.length ? changes.join('; ') : 'None',
		settings,
		readings,
		...(notes.length ? { notes } : {}),
	};
}

/**
 * Multipart uploads in each query spelling (uploadId/partNumber, upload_id/part_number) and each
 * way of signing them the credential offers, until the service accepts one.
 */
import type { IDataObject } from 'n8n-workflow';

import { asNodeError } from '../common';
import { multipartEtagOf } from '../evidence';
import { completeUpload, initiateUpload, listPartsPage, sendPart } from '../multipart';
import { codeOf, md5, messageOf, VARIANTS, type Check, type Variant } from './check';

/**
 * One two-part multipart upload in a query spelling: Initiate, then List Parts signed each way
 * the spelling allows until the service accepts one, then the parts, Complete and a check of
 * the object. Resolves the variant that works (undefined when none did).
 */
export async function multipart(c: Check, spelling: 'camel' | 'snake', readings: IDataObject, preferDecoded?: boolean): Promise<Variant | undefined> {
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
		// without an ETag header the ETags come from List Parts (completeUpload), never from the MD5
		const done = await completeUpload(c.ctx, t, uploadId, [
			{ partNumber: 1, etag: p1.etag ?? '' },
			{ partNumber: 2, etag: p2.etag ?? '' },
		]);
		// the form of a multipart object's ETag ("not the MD5 of the content", form not given: readings R74)
		const made = multipartEtagOf([p1.md5, p2.md5]);
		const etag = (done.etag ?? '').toLowerCase();
		readings.multipartEtag ??= etag === made.s3 ? 's3Form' : etag === made.plain ? 'plainHex' : etag ? 'other' : 'none';
		observed.push(`Complete gave the ETag ${done.etag ? `"${done.etag}"` : '(none)'}${etag === made.s3 ? " (S3's form: the MD5 of the parts' MD5s, -2)" : etag === made.plain ? " (32 hex digits: the MD5 of the parts' MD5s without S3's -2)" : ''}`);
		const etagHeader = p1.etag !== undefined && p2.etag !== undefined;
		readings.partEtag ??= etagHeader ? 'header' : 'listPartsOnly';
		observed.push(etagHeader ? 'Upload Part answered with an ETag header' : 'Upload Part answered without an ETag header; Complete took the ETags List Parts gives');
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
					: '') +
				(etagHeader ? '' : '; Upload Part sends no ETag header (as the documentation shows it): the node takes the parts\' ETags from List Parts'),
			setting:
				`Multipart Query Names: ${spelling === 'camel' ? 'uploadId and partNumber' : 'upload_id and part_number'}` +
				(spelling === 'snake' ? `; Sign Underscore Names: ${chosen.signUnderscore ? 'on' : 'off'}` : '') +
				(tricky && (chosen.spelling === 'camel' || chosen.signUnderscore) ? `; Sub-Resource Values in the Signature: ${chosen.decoded ? 'Decoded' : 'As Sent'}` : ''),
		});
		return chosen;
	} catch (error) {
		readings[spelling] ??= 'failed';
		// a diagnostic: the service's code beside its words
		observed.push(codeOf(error) ? `${codeOf(error)}: ${messageOf(error)}` : messageOf(error));
		c.problem({ check, tried: tried.join('; '), observed: observed.join('; '), reading: `${names} failed for another reason than the signature` });
		return undefined;
	}
}

/** The last finding: the credential settings to use, from what the checks found. */
import type { IDataObject } from 'n8n-workflow';

import { VARIANTS, type Check, type Finding } from './check';

export function summary(c: Check, readings: IDataObject): Finding {
	const camel = VARIANTS.find((v) => v.id === readings.camel);
	const snake = VARIANTS.find((v) => v.id === readings.snake);
	const now = {
		bucketPath: c.settings.bucketPathSlash ? 'slash' : 'noSlash',
		multipartQueryNames: c.settings.uploadIdParam === 'upload_id' ? 'snake' : 'camel',
		signUnderscoreSubResources: (c.settings.profile.extraSubResources ?? []).includes('upload_id'),
		subResourceValues: c.settings.profile.decodeSubResourceValues ? 'decoded' : 'asSent',
	};
	// The spelling the credential has, if it works; else the documented spelling (uploadId/partNumber); else the other.
	const keep = now.multipartQueryNames === 'snake' ? (snake ?? camel) : (camel ?? snake);
	const settings: IDataObject = {
		bucketPath: c.bucketPath,
		multipartQueryNames: keep?.spelling ?? now.multipartQueryNames,
		signUnderscoreSubResources: keep ? keep.spelling === 'snake' && keep.signUnderscore : now.signUnderscoreSubResources,
		subResourceValues: typeof readings.subResourceValues === 'string' ? readings.subResourceValues : now.subResourceValues,
	};
	const labels: Record<string, (v: unknown) => string> = {
		bucketPath: (v) => `Bucket Path: ${v === 'noSlash' ? '/bucket' : '/bucket/'}`,
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
			: "Keep the credential's bucket path, multipart and signing settings as they are",
		setting: changes.length ? changes.join('; ') : 'None',
		settings,
		readings,
		...(notes.length ? { notes } : {}),
	};
}

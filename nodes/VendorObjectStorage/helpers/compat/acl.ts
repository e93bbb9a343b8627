/**
 * Whether Get Bucket ACL lists grants other than the owner's FULL_CONTROL (S3 does; the vendor
 * documents only FULL_CONTROL): read from the bucket checked, or, when that is private and the
 * user allows it, from a scratch bucket created public-read.
 */
import { randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { xmlBody } from '../../../shared/storage/transport';
import { children, text, type XmlNode } from '../../../shared/storage/xml';
import { messageOf, type Check } from './check';

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

export async function bucketAcl(c: Check, readings: IDataObject): Promise<void> {
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

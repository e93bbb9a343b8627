import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { storageRequest, xmlBody } from '../../../shared/storage/transport';
import { children, text, type XmlNode } from '../../../shared/storage/xml';
import { bucketField, getBucket, nonEmpty, owner, perItem } from '../../helpers/common';

const properties: INodeProperties[] = [bucketField];

export const description = updateDisplayOptions({ show: { resource: ['bucket'], operation: ['getAcl'] } }, properties);

const ALL_USERS = /\/global\/AllUsers$/;
const AUTHENTICATED_USERS = /\/global\/AuthenticatedUsers$/;

/** The canned ACL the grants amount to, or 'custom' when they match none. */
export function cannedAclOf(grants: IDataObject[], ownerId: string): string {
	const set = new Set(
		grants.map((g) => {
			const grantee = g.grantee as IDataObject;
			const who = ALL_USERS.test(String(grantee.uri ?? ''))
				? 'all'
				: AUTHENTICATED_USERS.test(String(grantee.uri ?? ''))
					? 'authenticated'
					: grantee.id === ownerId
						? 'owner'
						: 'other';
			return `${who}:${String(g.permission)}`;
		}),
	);
	const only = (...wanted: string[]) => set.size === wanted.length && wanted.every((w) => set.has(w));
	if (only('owner:FULL_CONTROL')) return 'private';
	if (only('owner:FULL_CONTROL', 'all:READ')) return 'public-read';
	if (only('owner:FULL_CONTROL', 'all:READ', 'all:WRITE')) return 'public-read-write';
	if (only('owner:FULL_CONTROL', 'authenticated:READ')) return 'authenticated-read';
	return 'custom';
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const res = await storageRequest(this, { method: 'GET', bucket, query: [['acl', undefined]], itemIndex: i });
		const policy = (await xmlBody(res)).AccessControlPolicy;
		const list = (policy as XmlNode | undefined)?.AccessControlList;
		const grants = children(list, 'Grant').map((g) => {
			const grantee = (g.Grantee ?? {}) as XmlNode;
			return {
				grantee: nonEmpty({
					type: typeof grantee === 'object' ? String((grantee as XmlNode)['@xsi:type'] ?? '') : '',
					id: text(grantee, 'ID'),
					displayName: text(grantee, 'DisplayName'),
					uri: text(grantee, 'URI'),
				}),
				permission: text(g, 'Permission'),
			};
		});
		const own = owner((policy as XmlNode | undefined)?.Owner);
		return {
			bucket,
			owner: own,
			grants,
			cannedAcl: cannedAclOf(grants, String(own.id)),
			lastModified: res.headers['last-modified'] ?? '',
		};
	});
}

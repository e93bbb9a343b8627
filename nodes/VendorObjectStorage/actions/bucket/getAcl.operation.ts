import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { storageRequest, xmlBody } from '../../../shared/storage/transport';
import { children, text, type XmlNode, type XmlValue } from '../../../shared/storage/xml';
import { getBucket, perItem } from '../../helpers/common';
import { bucketField, notice } from '../../helpers/fields';
import { TOOL_BUCKET } from '../../tool';
import type { StorageOperation } from '../types';

export const operation: StorageOperation = {
	endpoint: 'Get bucket ACL',
	resource: 'bucket',
	operation: 'getAcl',
	name: 'Get ACL',
	action: 'Get the ACL of a bucket',
	description: 'Get the owner and the grants of a bucket',
	toolText: `Needs: ${TOOL_BUCKET}. Returns the bucket's owner and its grants.`,
	properties: [
		{
			...notice(
				'The grants are output as the service lists them. The vendor documents that only FULL_CONTROL grants appear, so cannedAclDerived is set only when the grants prove a canned ACL.',
			),
			name: 'getAclNotice',
		},
		bucketField,
	],
	execute,
};

const ALL_USERS = /\/global\/AllUsers$/;
const AUTHENTICATED_USERS = /\/global\/AuthenticatedUsers$/;

/**
 * The canned ACL that the grants prove, or undefined. Only grants to others prove anything: the
 * vendor documents that the only permission that appears is FULL_CONTROL, so a bucket that
 * lists just the owner's FULL_CONTROL may be private or public on such a service.
 */
export function cannedAclFromGrants(grants: IDataObject[], ownerId: string): string | undefined {
	const set = new Set(
		grants.map((g) => {
			const grantee = (g.grantee ?? {}) as IDataObject;
			const who = ALL_USERS.test(String(grantee.uri ?? ''))
				? 'all'
				: AUTHENTICATED_USERS.test(String(grantee.uri ?? ''))
					? 'authenticated'
					: grantee.id !== undefined && grantee.id === ownerId
						? 'owner'
						: 'other';
			return `${who}:${String(g.permission)}`;
		}),
	);
	const only = (...wanted: string[]) => set.size === wanted.length && wanted.every((w) => set.has(w));
	if (only('owner:FULL_CONTROL', 'all:READ')) return 'public-read';
	if (only('owner:FULL_CONTROL', 'all:READ', 'all:WRITE')) return 'public-read-write';
	if (only('owner:FULL_CONTROL', 'authenticated:READ')) return 'authenticated-read';
	return undefined;
}

/** `ID` → `id`, `URI` → `uri`, `DisplayName` → `displayName`. */
function fieldName(element: string): string {
	if (/^[A-Z]+$/.test(element)) return element.toLowerCase();
	return element.charAt(0).toLowerCase() + element.slice(1);
}

/** The child elements of an XML element as fields, exactly as the service wrote them. */
function fields(node: XmlValue | undefined): IDataObject {
	const out: IDataObject = {};
	if (!node || typeof node !== 'object' || Array.isArray(node)) return out;
	for (const [name, value] of Object.entries(node)) {
		if (name.startsWith('@') || name === '#text') continue;
		out[fieldName(name)] = typeof value === 'string' ? value : text(node, name);
	}
	return out;
}

async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await perItem(this, items, async (i) => {
		const bucket = getBucket(this, i);
		const res = await storageRequest(this, { method: 'GET', bucket, query: [['acl', undefined]], itemIndex: i });
		const policy = (await xmlBody(res)).AccessControlPolicy as XmlNode | undefined;
		const grants = children(policy?.AccessControlList, 'Grant').map((g) => {
			const grantee = g.Grantee as XmlValue | undefined;
			const type = grantee && typeof grantee === 'object' && !Array.isArray(grantee) ? grantee['@xsi:type'] : undefined;
			const grant: IDataObject = { grantee: { ...(typeof type === 'string' ? { type } : {}), ...fields(grantee) } };
			if (g.Permission !== undefined) grant.permission = text(g, 'Permission');
			return grant;
		});
		const owner = fields(policy?.Owner);
		const json: IDataObject = { bucket, owner, grants };
		const derived = cannedAclFromGrants(grants, String(owner.id ?? ''));
		if (derived) json.cannedAclDerived = derived;
		if (res.headers['last-modified']) json.lastModified = res.headers['last-modified'];
		return json;
	});
}

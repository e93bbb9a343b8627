import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../../shared/errors';
import type { FieldDecl } from '../../shared/api/declarations';
import { locator } from '../../shared/api/fields';

/** The data center of a new disk, network or firewall (instance/nodeList). */
export const dataCentre = (description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator('nodeid', 'dataCentre', 'Data Center', description, extra);

/** A cloud host; the parameter is always `iid`, whatever the wire name. */
export const host = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'host', 'Host', description, { param: 'iid', ...extra });

/** A firewall; the parameter is always `fid`, so the rule list can depend on it. */
export const firewall = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'firewall', 'Firewall', description, { param: 'fid', ...extra });

/** A private network; the parameter is always `networkId`. */
export const network = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'network', 'Private Network', description, { param: 'networkId', ...extra });

/** Checks that a comma-joined id list (from a multi-select or an expression) holds numeric ids only. */
export function requireIdList(body: IDataObject, wire: string, label: string): IDataObject {
	const value = String(body[wire] ?? '');
	if (!/^\d+(,\d+)*$/.test(value)) {
		throw new InputError(`The "${label}" field must hold numeric IDs, not "${value}"`, 'Choose from the list, or give IDs separated by commas such as 12,15.');
	}
	return body;
}

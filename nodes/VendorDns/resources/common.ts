import type { FieldDecl, OptionDecl } from '../../shared/api/declarations';
import { choice, locator } from '../../shared/api/fields';

/** A domain; the parameter is always `did`, so record and strategy lists can depend on it. */
export const domain = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'domain', 'Domain', description, { param: 'did', ...extra });

/** A DNS plan; the parameter is always `pid`. */
export const plan = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'dnsPlan', 'Plan', description, { param: 'pid', ...extra });

/** A downtime monitor; the parameter is always `mid`, so the monitor-record list can depend on it. */
export const monitor = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'monitor', 'Monitor', description, { param: 'mid', ...extra });

/** A strategy template; the parameter is always `tid`, so the template-record list can depend on it. */
export const template = (wire: string, description: string, extra: Partial<FieldDecl> = {}): FieldDecl =>
	locator(wire, 'template', 'Strategy Template', description, { param: 'tid', ...extra });

/** A required status toggle of a Set Status operation. */
export const newStatus = (options: OptionDecl[], description: string): FieldDecl =>
	({ ...choice('status', 'Status', options, description, { default: 1 }), required: true });

/** Constructors that keep endpoint declarations short and uniform. */
import type { FieldDecl, OptionDecl, Validator } from './declarations';

type Extra = Partial<FieldDecl>;

export const str = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'string',
	description,
	...extra,
});

/**
 * The name of something (a host, a group, a username, a host record): one line of text, so a
 * line break, which only an expression can bring, is refused naming the field (readings R3).
 */
export const nameStr = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	...str(wire, displayName, description, extra),
	validate: [{ kind: 'oneLine' }, ...(extra.validate ?? [])],
});

/** A number of things (alerts, hosts, bytes, minutes, a size): a whole number from 0 (readings R3); `what` names it: "a number of alerts". */
export const count = (wire: string, displayName: string, what: string, description?: string, extra: Extra = {}): FieldDecl => ({
	...int(wire, displayName, description, extra),
	validate: [{ kind: 'count', what }, ...(extra.validate ?? [])],
});

export const text = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'text',
	description,
	...extra,
});

export const secret = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'secret',
	description,
	...extra,
});

export const int = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'int',
	description,
	...extra,
});

/**
 * An identifier typed by hand, e.g. the "Recharge ID" filter. Empty by default and then not
 * sent (an int field would start at 0 and filter everything out); a whole number when given.
 * build.ts refuses an `int` field whose name says it is an identifier, so every one uses this.
 */
export const id = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'id',
	description,
	placeholder: 'e.g. 12',
	...extra,
});

export const decimal = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'decimal',
	description,
	...extra,
});

export const choice = (wire: string, displayName: string, options: OptionDecl[], description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'options',
	options,
	description,
	...extra,
});

export const choices = (wire: string, displayName: string, options: OptionDecl[], description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'multiOptions',
	options,
	description,
	...extra,
});

export const locator = (wire: string, key: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'locator',
	locator: key,
	description,
	required: true,
	...extra,
});

export const locators = (wire: string, key: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'locators',
	locator: key,
	description,
	required: true,
	...extra,
});

export const date = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'date',
	description,
	...extra,
});

export const list = (wire: string, displayName: string, description?: string, extra: Extra = {}): FieldDecl => ({
	wire,
	displayName,
	kind: 'list',
	description,
	...extra,
});

export const required = (f: FieldDecl): FieldDecl => ({ ...f, required: true });
/** An optional field shown as a top-level parameter instead of inside the optional collection. */
export const topLevel = (f: FieldDecl): FieldDecl => ({ ...f, topLevel: true });
export const checked = (f: FieldDecl, ...validate: Validator[]): FieldDecl => ({ ...f, validate: [...(f.validate ?? []), ...validate] });

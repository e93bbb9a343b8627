/**
 * One entry per field kind (`FieldDecl.kind`): how the kind is shown as an n8n parameter, how an
 * entered value is read, checked and converted to its wire form, and how a tool description
 * says what it takes. The property builder (properties.ts), the body builder (input.ts) and the
 * tool texts (tool-text.ts) all read this table, so adding a kind is adding one entry here (and
 * its name to `FieldKind` in declarations.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../errors';
import { controlCharacterProblem } from '../validation';
import type { FieldDecl, FieldKind, LocatorDecl } from './declarations';
import { locatorOf } from './locators';
import { dynamicOptions, nounOf, optionsMethod, paramName, pluralNoun, searchMethod, sortByDisplayName, sortOptions } from './naming';
import { isEmpty, readBoolean, runValidators, sendAs, splitEntries, toInstant, toInt, toNumber, ymd } from './values';

export interface FieldKindEntry {
	/** Makes `base` (name, display name, description, placeholder, hint, required) the kind's parameter. */
	property(field: FieldDecl, base: INodeProperties, inCollection: boolean, subProperty: SubProperty): void;
	/** One entered value in its wire form, checked on the way (`label` names it in messages). */
	convert(field: FieldDecl, raw: unknown, label: string, subValue: SubValue, context: ConvertContext): unknown;
	/** Reads the top-level parameter (default: the value as entered). */
	read?(fn: IExecuteFunctions, field: FieldDecl, itemIndex: number): unknown;
	/** Whether a value counts as not given (default: absent, empty text or an empty list). */
	unset?(raw: unknown, inCollection: boolean): boolean;
	/** An optional value that was added to the collection and left empty is sent as `''` (it clears the service's text). */
	sentEmptyWhenCleared?: boolean;
	/** Names are looked up (resolve.ts) before the value is converted: one resource or several. */
	lookUp?: 'one' | 'many';
	/** The value names a record (an ID): the item of a change carries it, as sent. */
	identifies?: boolean;
	/** How a tool description says what the field takes; undefined for the plain "<name>: <description>". */
	toolText?(field: FieldDecl, name: string, own: string): string | undefined;
}

/** The parameter of a sub-field (rows). */
export type SubProperty = (field: FieldDecl, inCollection: boolean) => INodeProperties;
/** The wire value of a sub-field (rows). */
export type SubValue = (field: FieldDecl, raw: unknown, label: string, context: ConvertContext) => unknown;

/** What converting a value depends on besides the value: the workflow's time zone (dates are days there). */
export interface ConvertContext {
	timeZone: string;
}

/** How many choices, or optional fields, a tool text names before it says "...". */
export const MAX_OPTIONS = 12;

/** The value of a locator as entered: the mode's value, or the value itself. */
const locatorInput = (raw: unknown) => (typeof raw === 'object' && raw !== null ? (raw as IDataObject).value : raw);

/** A resource locator with "From List", "By Name" (when names are looked up) and "By ID" (or "By Code"). */
function resourceLocator(loc: LocatorDecl) {
	return {
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: searchMethod(loc.key), searchable: true },
			},
			...(loc.resolve
				? [
						{
							displayName: 'By Name',
							name: 'name',
							type: 'string' as const,
							placeholder: `e.g. ${loc.resolve.example ?? 'web-1'}`,
							hint: `Looked up when the node runs: ${loc.resolve.what} of exactly one ${loc.label.toLowerCase()}`,
						},
					]
				: []),
			{
				displayName: `By ${loc.idName ?? 'ID'}`,
				name: 'id',
				type: 'string',
				placeholder: loc.idPlaceholder ?? 'e.g. 12',
				// checked when the node runs (convert), where a name is looked up instead of refused;
				// no editor regex: n8n runs those in a VM with a 250 ms limit on every execution
			},
		],
	};
}

/** How a locator field is described to a model: the resource, in which words, or its IDs. */
function locatorToolText(field: FieldDecl, name: string, own: string): string {
	const loc = locatorOf(field.locator!);
	const what = nounOf(loc.label);
	const many = field.kind === 'locators';
	if (loc.resolve) {
		const example = loc.resolve.example ? `, e.g. "${loc.resolve.example}"` : '';
		return `${name}: ${many ? `one or more ${pluralNoun(what)}, separated by commas, each` : `the ${what}`} as ${loc.resolve.what}, or the numeric ID${example}${own ? ` (${own})` : ''}`;
	}
	if (loc.idName) return `${name}: ${own || `the ${what} ${loc.idName.toLowerCase()}`}`;
	return `${name}: the numeric ID${many ? 's' : ''} of the ${many ? pluralNoun(what) : what}${many ? ', separated by commas' : ''}, from the list of ${pluralNoun(what)}${own ? ` (${own})` : ''}`;
}

/** How a fixed choice is described to a model: its values with their words. */
function choicesToolText(field: FieldDecl, name: string, own: string): string | undefined {
	if (!field.options || field.optionsFrom) return undefined;
	const shown = field.options.slice(0, MAX_OPTIONS).map((o) => (String(o.value) === o.name ? o.name : `${String(o.value)} (${o.name})`));
	const more = field.options.length > MAX_OPTIONS ? ', ...' : '';
	return `${name}: ${field.kind === 'multiOptions' ? 'any of' : 'one of'} ${shown.join(', ')}${more}${own ? `; ${own}` : ''}`;
}

/** Refuses a control character in a text value (validation.ts); a secret's value is never repeated. */
function refuseControlCharacters(field: FieldDecl, text: string, label: string) {
	const problem = controlCharacterProblem(text);
	if (problem) throw new InputError(`Invalid "${label}": ${problem}`, `Remove the character from the value${field.kind === 'secret' ? '' : ' (it often comes from copied or mapped text)'}.`);
}

/** One line, several lines, a password: sent as text after the field's checks. */
const textKind = (property: FieldKindEntry['property']): FieldKindEntry => ({
	property,
	convert(field, raw, label) {
		const s = String(raw);
		refuseControlCharacters(field, s, label);
		runValidators(field, s, label);
		return sendAs(field, s, 'string');
	},
	sentEmptyWhenCleared: true,
});

const dateToolText = (_field: FieldDecl, name: string, own: string) => `${name}: a date such as 2026-11-22${own ? ` (${own})` : ''}`;

export const FIELD_KINDS: Record<FieldKind, FieldKindEntry> = {
	string: textKind((field, base) => {
		base.default = field.default ?? '';
	}),
	text: textKind((field, base) => {
		base.default = field.default ?? '';
		base.typeOptions = { rows: 4 };
	}),
	secret: {
		...textKind((field, base) => {
			base.default = '';
			base.typeOptions = field.multiline ? { password: true, rows: 4 } : { password: true };
		}),
		sentEmptyWhenCleared: false,
	},
	int: {
		property(field, base) {
			base.type = 'number';
			base.default = field.default ?? 0;
			base.typeOptions = { numberPrecision: 0 };
		},
		convert(field, raw, label) {
			const n = toInt(field, raw);
			runValidators(field, n, label);
			return sendAs(field, n, 'number');
		},
	},
	id: {
		property(field, base) {
			base.default = '';
			base.placeholder = field.placeholder ?? 'e.g. 12';
		},
		convert(field, raw, label) {
			const text = String(raw).trim();
			if (!/^\d+$/.test(text)) {
				throw new InputError(`The "${label}" field must be a numeric ID, not "${String(raw)}"`, 'Enter the ID as a whole number such as 12, or remove the field.');
			}
			return sendAs(field, Number(text), 'number');
		},
		// an id filter stored by an older version as its number default 0 names no record: not set
		unset: (raw, inCollection) => isEmpty(raw) || (inCollection && (raw === 0 || raw === '0')),
		identifies: true,
	},
	optionalInt: {
		property(field, base) {
			base.default = '';
			base.placeholder = field.placeholder ?? 'e.g. 1';
		},
		convert(field, raw, label) {
			const text = String(raw).trim();
			if (!/^-?\d+$/.test(text)) {
				throw new InputError(`The "${label}" field must be a whole number, not "${String(raw)}"`, 'Enter a whole number such as 1, or leave the field empty to send none.');
			}
			const n = Number(text);
			runValidators(field, n, label);
			return sendAs(field, n, 'number');
		},
	},
	decimal: {
		property(field, base) {
			base.type = 'number';
			base.default = field.default ?? 0;
			base.typeOptions = { numberPrecision: 2 };
		},
		convert(field, raw, label) {
			const n = toNumber(field, raw);
			runValidators(field, n, label);
			return sendAs(field, n, 'number');
		},
	},
	boolean: {
		property(field, base) {
			base.type = 'boolean';
			base.default = field.default ?? false;
		},
		// the switch as 1/0; an expression's "TRUE", "yes", "on" are true, anything that is no yes/no is refused
		convert: (_field, raw, label) => (readBoolean(raw, label) ? 1 : 0),
		toolText: (_field, name, own) => `${name}: true or false${own ? ` (${own})` : ''}`,
	},
	options: {
		property(field, base) {
			base.type = 'options';
			if (field.optionsFrom) {
				base.typeOptions = { loadOptionsMethod: optionsMethod(field.optionsFrom) };
				base.default = field.default ?? '';
				dynamicOptions(base, false, field.displayName, field.description);
			} else {
				base.options = sortOptions(field.options ?? []);
				// stated in the declaration: saved workflows omit a default, so it must not follow the options' order
				if (field.default === undefined) throw new Error(`"${field.displayName}" (${field.wire}): a choice needs a stated default`);
				base.default = field.default;
			}
		},
		convert(field, raw, label) {
			if (field.options && !field.optionsFrom) {
				const hit = field.options.find((o) => String(o.value) === String(raw));
				if (!hit && field.allowOtherValues) {
					runValidators(field, raw, label);
					return sendAs(field, String(raw).trim(), 'string');
				}
				if (!hit) {
					throw new InputError(
						`The "${label}" field has "${String(raw)}", which is not one of its choices`,
						`Use one of: ${field.options.map((o) => `${o.value} (${o.name})`).join(', ')}.`,
					);
				}
				return sendAs(field, hit.value, typeof hit.value === 'number' ? 'number' : 'string');
			}
			runValidators(field, raw, label);
			return sendAs(field, /^\d+$/.test(String(raw)) ? Number(raw) : raw, 'string');
		},
		toolText: choicesToolText,
	},
	multiOptions: {
		property(field, base) {
			base.type = 'multiOptions';
			base.default = (field.default as string[]) ?? [];
			if (field.optionsFrom) {
				base.typeOptions = { loadOptionsMethod: optionsMethod(field.optionsFrom) };
				dynamicOptions(base, true, locatorOf(field.optionsFrom).label, field.description);
			} else base.options = sortOptions(field.options ?? []);
		},
		convert(field, raw, label) {
			const values = Array.isArray(raw) ? raw : splitEntries(raw);
			if (field.options && !field.optionsFrom) {
				for (const v of values) {
					if (!field.options.some((o) => String(o.value) === String(v))) {
						throw new InputError(
							`The "${label}" field has "${String(v)}", which is not one of its choices`,
							`Use any of: ${field.options.map((o) => String(o.value)).join(', ')}.`,
						);
					}
				}
			}
			runValidators(field, values, label);
			return sendAs(field, values, 'array');
		},
		toolText: choicesToolText,
	},
	date: {
		property(_field, base) {
			base.type = 'dateTime';
			base.default = '';
		},
		convert: (field, raw, _label, _sub, context) => ymd(toInstant(field, raw, context.timeZone), context.timeZone),
		toolText: dateToolText,
	},
	unixTime: {
		property(_field, base) {
			base.type = 'dateTime';
			base.default = '';
		},
		convert: (field, raw, _label, _sub, context) => Math.floor(toInstant(field, raw, context.timeZone) / 1000),
		toolText: dateToolText,
	},
	list: {
		property(field, base) {
			base.default = field.default ?? '';
			base.typeOptions = { rows: 3 };
		},
		convert(field, raw, label) {
			const entries = splitEntries(raw, field.oneEntryPerLine === true);
			for (const entry of entries) refuseControlCharacters(field, entry, label);
			runValidators(field, entries, label);
			return sendAs(field, entries, 'comma');
		},
		toolText: (field, name, own) => `${name}: ${own || 'entries'}${field.oneEntryPerLine ? ', one per line' : ', separated by commas or new lines'}`,
	},
	json: {
		property(field, base) {
			base.type = 'json';
			base.default = field.default ?? '{}';
		},
		convert(field, raw, label) {
			let v = raw;
			let invalid = false;
			if (typeof raw === 'string') {
				try {
					v = JSON.parse(raw);
				} catch {
					invalid = true;
				}
			}
			if (invalid) throw new InputError(`The "${label}" field is not valid JSON`, 'Enter a JSON object such as {"key": "value"}.');
			runValidators(field, v, label);
			return v;
		},
	},
	locator: {
		property(field, base, inCollection) {
			const loc = locatorOf(field.locator!);
			if (inCollection) {
				base.type = 'options';
				base.typeOptions = { loadOptionsMethod: optionsMethod(loc.key) };
				base.default = '';
				dynamicOptions(base, false, field.displayName, field.description);
				return;
			}
			Object.assign(base, resourceLocator(loc));
		},
		convert(field, raw, label) {
			const id = locatorInput(raw);
			const pattern = new RegExp(locatorOf(field.locator!).idPattern ?? '^[0-9]+$');
			if (!pattern.test(String(id).trim())) {
				const loc = locatorOf(field.locator!);
				const what = loc.idName ? loc.idName.toLowerCase() : 'ID';
				throw new InputError(`The "${label}" field must be a ${loc.label.toLowerCase()} ${what}, not "${String(id)}"`, `Choose it from the list or enter its ${loc.idPlaceholder ? `${what} (${loc.idPlaceholder})` : `numeric ${what}`}.`);
			}
			return sendAs(field, String(id).trim(), /^\d+$/.test(String(id).trim()) ? 'number' : 'string');
		},
		read: (fn, field, i) => fn.getNodeParameter(paramName(field), i, undefined, { extractValue: true }),
		lookUp: 'one',
		identifies: true,
		toolText: locatorToolText,
	},
	locators: {
		property(field, base) {
			const loc = locatorOf(field.locator!);
			base.type = 'multiOptions';
			base.default = [];
			base.typeOptions = { loadOptionsMethod: optionsMethod(loc.key) };
			dynamicOptions(base, true, loc.label, field.description);
		},
		convert(field, raw, label) {
			// (an empty entry is the "reopen the node" line of a list asked for without a credential, methods.ts)
			const ids = (Array.isArray(raw) ? raw : splitEntries(raw)).filter((id) => String(id).trim() !== '');
			const loc = locatorOf(field.locator!);
			const pattern = new RegExp(loc.idPattern ?? '^[0-9]+$');
			const bad = ids.find((id) => !pattern.test(String(id).trim()));
			if (bad !== undefined) {
				throw new InputError(
					`The "${label}" field must hold ${loc.label.toLowerCase()} IDs, not "${String(bad)}"`,
					loc.resolve ? `Choose from the list, or give IDs or ${loc.resolve.what}, separated by commas.` : 'Choose from the list or give IDs separated by commas.',
				);
			}
			return sendAs(field, ids, 'intArray');
		},
		lookUp: 'many',
		identifies: true,
		toolText: locatorToolText,
	},
	rows: {
		property(field, base, _inCollection, subProperty) {
			base.type = 'fixedCollection';
			base.default = {};
			base.typeOptions = { multipleValues: true };
			base.placeholder = `Add ${field.rows!.itemName}`;
			base.options = [
				{
					name: 'rows',
					displayName: field.rows!.itemName,
					values: sortByDisplayName(
						field.rows!.fields.map((f) => {
							const sub = subProperty(f, true);
							// shown by the other fields of the same row (n8n reads sibling values there)
							if (f.show) sub.displayOptions = { show: f.show };
							return sub;
						}),
					),
				},
			];
		},
		convert(field, raw, label, subValue, context) {
			const rows = ((raw as IDataObject)?.rows as IDataObject[] | undefined) ?? [];
			const spec = field.rows!;
			if (spec.min && rows.length < spec.min) {
				throw new InputError(`Add at least ${spec.min} ${spec.itemName.toLowerCase()} to "${label}"`, `Use "Add ${spec.itemName}".`);
			}
			const converted = rows.map((row, n) => {
				const out: IDataObject = {};
				for (const sub of spec.fields) {
					if (sub.show && !Object.entries(sub.show).every(([name, values]) => values.some((x) => String(x) === String(row[name])))) continue;
					const v = row[paramName(sub)];
					const subLabel = `${label} ${n + 1}: ${sub.displayName}`;
					if (isEmpty(v)) {
						if (sub.required) throw new InputError(`"${subLabel}" is required`, `Fill in ${sub.displayName} in every ${spec.itemName.toLowerCase()}.`);
						continue;
					}
					out[sub.wire] = subValue(sub, v, subLabel, context) as IDataObject[string];
				}
				return out;
			});
			return spec.serialize(converted);
		},
		read: (fn, field, i) => fn.getNodeParameter(paramName(field), i, {}),
		unset: (raw) => isEmpty(raw) || isEmpty((raw as IDataObject)?.rows),
	},
};

/** The n8n parameter of a field (`inCollection`: a member of the optional collection). */
export function fieldProperty(field: FieldDecl, inCollection: boolean): INodeProperties {
	const base: INodeProperties = {
		displayName: field.displayName,
		name: paramName(field),
		type: 'string',
		default: '',
	};
	if (field.description) base.description = field.description;
	if (field.placeholder) base.placeholder = field.placeholder;
	if (field.hint) base.hint = field.hint;
	if (field.required && !inCollection) base.required = true;
	FIELD_KINDS[field.kind].property(field, base, inCollection, fieldProperty);
	return base;
}

/** Converts one entered value to its wire form, checking it on the way. */
export function convert(field: FieldDecl, raw: unknown, label: string, context: ConvertContext): unknown {
	return FIELD_KINDS[field.kind].convert(field, raw, label, convert, context);
}

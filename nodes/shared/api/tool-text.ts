/**
 * What a model is told about each management operation used as a tool (the tool variant's
 * "Tool Description", see ../tool.ts): what it does, what it needs (which identifier, in which
 * words) and what it returns, and that it changes things for real where it does. Written from
 * the same declarations as the node's parameters, so a field added to an operation is
 * described here too.
 */
import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptions, type ToolText } from '../tool';
import { actedOnField as actedOn, collectionOf, fieldProperty, isTop, locatorOf } from './build';
import type { ApiArea, FieldDecl, OperationDecl } from './declarations';
import { simplifiedNames } from './simplify';

const MAX_OPTIONS = 12;
/** Some model providers cut tool descriptions at 1,024 characters: longer texts drop the fields' own words. */
const MAX_TEXT = 1000;

/** "CPU Package" -> "CPU package", "Host Disk" -> "host disk". */
const nounOf = (label: string) => label.split(' ').map((w) => (/^[A-Z][a-z]/.test(w) ? w.toLowerCase() : w)).join(' ');

const sentence = (s: string) => {
	const t = s.trim().replace(/\s+/g, ' ');
	if (!t) return '';
	return /[.!?]$/.test(t) ? t : `${t}.`;
};
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);
const clause = (s: string) => lowerFirst(s.trim().replace(/\.$/, ''));
const plural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`);

/** The label of a field as the editor shows it (and as its "let the model define this" key reads). */
function label(field: FieldDecl): string {
	return fieldProperty(field, false).displayName;
}

/** How a field's value is written, in words a model can act on. */
function fieldText(field: FieldDecl, short = false): string {
	const name = label(field);
	const own = field.description && !short ? clause(field.description) : '';
	if ((field.kind === 'locator' || field.kind === 'locators') && field.locator) {
		const loc = locatorOf(field.locator);
		const what = nounOf(loc.label);
		const many = field.kind === 'locators';
		if (loc.resolve) {
			const example = loc.resolve.example ? `, e.g. "${loc.resolve.example}"` : '';
			return `${name}: ${many ? `one or more ${plural(what)}, separated by commas, each` : `the ${what}`} as ${loc.resolve.what}, or the numeric ID${example}${own ? ` (${own})` : ''}`;
		}
		if (loc.idName) return `${name}: ${own || `the ${what} ${loc.idName.toLowerCase()}`}`;
		return `${name}: the numeric ID${many ? 's' : ''} of the ${many ? plural(what) : what}${many ? ', separated by commas' : ''}, from the list of ${plural(what)}${own ? ` (${own})` : ''}`;
	}
	if ((field.kind === 'options' || field.kind === 'multiOptions') && field.options && !field.optionsFrom) {
		const shown = field.options.slice(0, MAX_OPTIONS).map((o) => (String(o.value) === o.name ? o.name : `${String(o.value)} (${o.name})`));
		const more = field.options.length > MAX_OPTIONS ? ', ...' : '';
		return `${name}: ${field.kind === 'multiOptions' ? 'any of' : 'one of'} ${shown.join(', ')}${more}${own ? `; ${own}` : ''}`;
	}
	if (field.kind === 'boolean') return `${name}: true or false${own ? ` (${own})` : ''}`;
	if (field.kind === 'date' || field.kind === 'unixTime') return `${name}: a date such as 2026-11-22${own ? ` (${own})` : ''}`;
	if (field.kind === 'list') return `${name}: ${own || 'entries'}${field.lines ? ', one per line' : ', separated by commas or new lines'}`;
	return own ? `${name}: ${own}` : name;
}

function resourceNoun(area: ApiArea, op: OperationDecl): string {
	const r = area.resources.find((x) => x.value === op.resource);
	return nounOf(r?.name ?? op.resource);
}

function returnsText(area: ApiArea, op: OperationDecl): string {
	if (op.returns) return sentence(`Returns ${op.returns}`);
	const noun = resourceNoun(area, op);
	// the simplified record's fields (a word and its code: `status`, `statusCode`)
	const names = op.simplify ? simplifiedNames(op.simplify) : [];
	const keys = names.length ? ` (${names.join(', ')})` : '';
	if (op.list) {
		return `Returns one object per ${noun}${keys}; when there are more than asked for, a last object {listNote} says how many there are and how to see the rest.`;
	}
	if (op.deletes) return `Returns {deleted: true} with the ID of what was deleted and the service's message.`;
	const target = actedOn(op);
	if (target && !op.read) {
		const what = nounOf(locatorOf(target.locator!).label);
		return `Returns the service's answer, with the ID and name of the ${target.kind === 'locators' ? plural(what) : what} acted on.`;
	}
	if (op.read) return keys ? `Returns one object${keys}.` : `Returns what the service answers.`;
	return /^(create|add)/i.test(op.operation) ? `Returns the new ${noun} as the service answers it.` : `Returns the service's answer.`;
}

/** The tool description of one operation. */
export function toolText(area: ApiArea, op: OperationDecl, short = false): string {
	const parts = [sentence(op.description)];
	const needs = (op.fields ?? []).filter((f) => isTop(f) && !f.local).map((f) => fieldText(f, short));
	if (needs.length) parts.push(`Needs: ${needs.join('; ')}.`);
	const optional = (op.fields ?? []).filter((f) => !isTop(f) && !f.local);
	if (optional.length) {
		const names = optional.map((f) => fieldProperty(f, true).displayName);
		const more = names.length > MAX_OPTIONS ? ` and ${names.length - MAX_OPTIONS} more` : '';
		parts.push(`${collectionOf(op).displayName} (optional): ${names.slice(0, MAX_OPTIONS).join(', ')}${more}.`);
	}
	parts.push(returnsText(area, op));
	if (op.notice) parts.push(`Changes things for real: ${clause(op.notice)}. Ask the user to confirm first.`);
	else if (op.deletes) parts.push('Changes things for real: it deletes. Ask the user to confirm first.');
	const text = parts.join(' ');
	return text.length > MAX_TEXT && !short ? toolText(area, op, true) : text;
}

/** The tool descriptions of an area, one per operation. */
export function toolTexts(area: ApiArea): ToolText[] {
	return area.operations.map((op) => ({ resource: op.resource, operation: op.operation, text: toolText(area, op) }));
}

/** A management node's properties with the per-operation tool descriptions (tool variant only) first. */
export function withToolDescriptions(area: ApiArea, properties: INodeProperties[]): INodeProperties[] {
	return [...toolDescriptions(toolTexts(area)), ...properties];
}

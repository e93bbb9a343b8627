/**
 * What a model is told about each management operation used as a tool (the tool variant's
 * "Tool Description", see ../tool.ts): what it does, what it needs (which identifier, in which
 * words) and what it returns, and that it changes things for real where it does. Written from
 * the same declarations as the node's parameters, so a field added to an operation is
 * described here too.
 */
import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptions, type ToolText } from '../tool';
import type { ApiArea, FieldDecl, OperationDecl } from './declarations';
import { FIELD_KINDS, MAX_OPTIONS, fieldProperty } from './field-kinds';
import { locatorOf } from './locators';
import { clause, collectionOf, isTopLevel, nounOf, pluralNoun } from './naming';
import { simplifiedNames } from './simplify';
import { actedOnField as actedOn } from './tool-run';

/** Some model providers cut tool descriptions at 1,024 characters: longer texts drop the fields' own words. */
const MAX_TEXT = 1000;

const sentence = (s: string) => {
	const t = s.trim().replace(/\s+/g, ' ');
	if (!t) return '';
	return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** How a field's value is written, in words a model can act on (the kind's `toolText`, else its name and description). */
function fieldText(field: FieldDecl, short = false): string {
	// the label as the editor shows it (and as its "let the model define this" key reads)
	const name = fieldProperty(field, false).displayName;
	const own = field.description && !short ? clause(field.description) : '';
	return FIELD_KINDS[field.kind].toolText?.(field, name, own) ?? (own ? `${name}: ${own}` : name);
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
	if (target && !op.readOnly) {
		const what = nounOf(locatorOf(target.locator!).label);
		return `Returns the service's answer, with the ID and name of the ${target.kind === 'locators' ? pluralNoun(what) : what} acted on.`;
	}
	if (op.readOnly) return keys ? `Returns one object${keys}.` : `Returns what the service answers.`;
	return /^(create|add)/i.test(op.operation) ? `Returns the new ${noun} as the service answers it.` : `Returns the service's answer.`;
}

/** The tool description of one operation. */
export function toolText(area: ApiArea, op: OperationDecl, short = false): string {
	const parts = [sentence(op.description)];
	const needs = (op.fields ?? []).filter((f) => isTopLevel(f) && !f.notSent).map((f) => fieldText(f, short));
	if (needs.length) parts.push(`Needs: ${needs.join('; ')}.`);
	const optional = (op.fields ?? []).filter((f) => !isTopLevel(f) && !f.notSent);
	if (optional.length) {
		const names = optional.map((f) => fieldProperty(f, true).displayName);
		const more = names.length > MAX_OPTIONS ? ` and ${names.length - MAX_OPTIONS} more` : '';
		parts.push(`${collectionOf(op).displayName} (optional): ${names.slice(0, MAX_OPTIONS).join(', ')}${more}.`);
	}
	parts.push(returnsText(area, op));
	for (const note of op.notes ?? []) parts.push(sentence(note));
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

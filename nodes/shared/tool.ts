/**
 * The nodes as tools of n8n's AI Agent and MCP Server Trigger (`<package>.<node>Tool`).
 *
 * What a model sees of a tool, as n8n 2.40 builds it (n8n-core create-node-as-tool.ts,
 * n8n-workflow getToolDescriptionForNode):
 * - its name: the tool node's name, non-alphanumerics as `_` ("Reboot hosts in Vendor Cloud
 *   Host" -> `Reboot_hosts_in_Vendor_Cloud_Host`); the editor names a new tool node
 *   "<action> in <node>", so `action` stays short;
 * - its description: the node's `toolDescription` parameter when it has one, else
 *   "<action> in <node>". n8n adds a "Tool Description" parameter to every tool variant
 *   unless the node's properties already hold one: ours do, one per operation, shown only in
 *   the tool variant and pre-filled with what the operation does, needs and returns
 *   (`toolDescriptions`); the user may edit it;
 * - its arguments: the `$fromAI()` placeholders in the parameters, each with the description
 *   written into the placeholder (the editor's "let the model define this" writes none);
 * - its result: the output items' json, all of them, as one JSON array (AI Agent and MCP);
 * - its errors: the AI Agent gets `{ error: <message> }` only (n8n-core workflow-execute.ts,
 *   tool nodes run as engine requests), MCP gets "<message>\n\nDetails: <description>". So in a
 *   tool run the message itself must say what to do (`forModel`).
 *
 * A node learns that it runs as a tool from its own type name (n8n's Chat node does the same:
 * isToolType): the tool variants' names end in "Tool".
 */
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

/** Whether the node runs as a tool of an AI Agent or MCP Server Trigger. */
export function isToolRun(ctx: { getNode(): INode }): boolean {
	try {
		return /Tool$/.test(ctx.getNode().type.split('.').pop() ?? '');
	} catch {
		return false;
	}
}

/**
 * One "Tool Description" parameter per operation, shown only in the tool variant (`@tool`, as
 * n8n's own Chat node does): what the model is told about the tool. n8n adds its own "Tool
 * Description" (default "<action> in <node>") only to variants that have none.
 */
export function toolDescriptions(entries: ToolText[]): INodeProperties[] {
	return entries.map((e) => {
		const property: INodeProperties = {
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string',
			default: '',
			typeOptions: { rows: 4 },
			description:
				'What the AI model is told about this tool: what it does, what it needs and what it returns. Written for the chosen operation; add your own rules (for example which hosts it may touch) or leave it as it is.',
			displayOptions: { show: { '@tool': [true], resource: [e.resource], operation: [e.operation] } },
		};
		property.default = e.text;
		return property;
	});
}

export interface ToolText {
	resource: string;
	operation: string;
	text: string;
}

/** The key of the `$fromAI('key', ...)` placeholder in a raw parameter value, if it has one. */
export function fromAiKey(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const m = /\$fromAI\s*\(\s*(['"`])([^'"`]+)\1/.exec(raw);
	return m ? m[2] : undefined;
}

/**
 * In a tool run the model reads the error's message only (AI Agent): the description's advice
 * goes into the message. MCP's "Details: <description>" is then not added again (n8n adds it only
 * when the message does not contain it).
 */
export function forModel<T>(error: T): T {
	const e = error as { message?: string; description?: string | null } | undefined;
	if (!e || typeof e.message !== 'string') return error;
	const description = typeof e.description === 'string' ? e.description.trim() : '';
	if (description && !e.message.includes(description)) {
		e.message = `${e.message.replace(/[.\s]+$/, '')}. ${description}`;
		e.description = description;
	}
	return error;
}

/**
 * The item a tool run adds after a list that was cut: how many were shown, how many exist, and
 * how to see the rest with the arguments the model has (or that the workflow fixes them).
 */
export function listNote(info: {
	shown: number;
	total?: number;
	noun: string;
	limit: number;
	/** Raw (unresolved) parameters of the tool node, to tell whether the model sets Limit / Return All. */
	parameters: IDataObject;
}): IDataObject {
	const { shown, total, noun, limit, parameters } = info;
	const plural = `${noun}s`.replace(/ys$/, 'ies').replace(/sss$/, 'sses');
	const count = total !== undefined ? `${shown} of ${total} ${plural}` : `the first ${shown} ${plural}; there may be more`;
	const limitKey = fromAiKey(parameters.limit);
	const allKey = fromAiKey(parameters.returnAll);
	const ways: string[] = [];
	if (allKey) ways.push(`set ${allKey} to true`);
	if (limitKey) ways.push(`raise ${limitKey}${total !== undefined ? ` to ${total}` : ''}`);
	const how = ways.length
		? `To see the rest, call again and ${ways.join(' or ')}, or narrow the list with a filter.`
		: `This tool's Limit is fixed at ${limit} in the workflow: narrow the list with a filter, or ask the user to raise Limit or turn on Return All.`;
	return { listNote: `Showing ${count} (Limit ${limit}). ${how}`, shown, ...(total !== undefined ? { total } : {}) };
}

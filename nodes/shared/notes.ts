/**
 * Notes about a run, not about each record: shown once above the node's output, where n8n shows
 * a node's execution hints (`addExecutionHints`, n8n 1.x and 2.x; a runtime without it shows
 * none and the run is not affected). A note is said once per run of the node, however many
 * items or pages gave records.
 */
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

/** The notes said in each run (one execute call: one context object). */
const said = new WeakMap<object, Set<string>>();

export function noteOnce(fn: IExecuteFunctions, message: string, type: NodeExecutionHint['type'] = 'info'): void {
	let messages = said.get(fn);
	if (!messages) said.set(fn, (messages = new Set()));
	if (messages.has(message)) return;
	messages.add(message);
	fn.addExecutionHints?.({ message, type, location: 'outputPane' });
}

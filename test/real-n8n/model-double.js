'use strict';
/**
 * A test double of an AI model only: an OpenAI-compatible server on 127.0.0.1 whose answers are
 * scripted by the test. n8n's OpenAI Chat Model node, the AI Agent, n8n's tool plumbing and the
 * package are the real ones; only the model's decisions are written down here.
 *
 * It answers both APIs the OpenAI Chat Model node may use: the Responses API (`POST
 * /v1/responses`, the node's default "Use Responses API" in 2.40) and Chat Completions (`POST
 * /v1/chat/completions`), each with and without `stream`, plus `GET /v1/models`.
 *
 *   const model = await startModelDouble((turn) => turn.toolResults.length ? { text: 'Done' } : { call: { name, arguments: {...} } });
 *   model.url            // http://127.0.0.1:<port>/v1, the openAiApi credential's Base URL
 *   model.requests       // [{ api, tools: [{ name, description, parameters }], messages, toolResults }]
 *
 * The script gets one "turn": { messages: [{ role, content }], tools, toolResults: [{ name,
 * output }], lastUser } and returns { text } (the model's answer) or { call: { name, arguments } }
 * (one tool call).
 */
const http = require('node:http');
const crypto = require('node:crypto');

const uid = (prefix) => `${prefix}_${crypto.randomBytes(8).toString('hex')}`;
const textOf = (content) =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((c) => (typeof c === 'string' ? c : (c.text ?? c.output_text ?? ''))).join('')
			: '';

/** The conversation of a Responses API request, in one shape. */
function fromResponses(body) {
	const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input || [];
	const messages = [];
	const toolResults = [];
	const calls = {};
	if (body.instructions) messages.push({ role: 'system', content: body.instructions });
	for (const item of input) {
		if (item.type === 'function_call') {
			calls[item.call_id] = item.name;
			messages.push({ role: 'assistant', call: { name: item.name, arguments: item.arguments } });
		} else if (item.type === 'function_call_output') {
			toolResults.push({ name: calls[item.call_id], output: textOf(item.output) });
			messages.push({ role: 'tool', name: calls[item.call_id], content: textOf(item.output) });
		} else if (item.role) messages.push({ role: item.role, content: textOf(item.content) });
	}
	const tools = (body.tools || []).filter((t) => t.type === 'function').map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
	return { messages, toolResults, tools };
}

/** The conversation of a Chat Completions request, in the same shape. */
function fromChat(body) {
	const messages = [];
	const toolResults = [];
	const calls = {};
	for (const m of body.messages || []) {
		for (const c of m.tool_calls || []) calls[c.id] = c.function.name;
		if (m.role === 'tool') {
			toolResults.push({ name: calls[m.tool_call_id], output: textOf(m.content) });
			messages.push({ role: 'tool', name: calls[m.tool_call_id], content: textOf(m.content) });
		} else messages.push({ role: m.role, content: textOf(m.content) });
	}
	const tools = (body.tools || []).map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
	return { messages, toolResults, tools };
}

const usage = { input_tokens: 10, output_tokens: 10, total_tokens: 20 };

function responsesAnswer(body, decision) {
	const output = decision.call
		? [{ type: 'function_call', id: uid('fc'), call_id: uid('call'), name: decision.call.name, arguments: JSON.stringify(decision.call.arguments || {}), status: 'completed' }]
		: [{ type: 'message', id: uid('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: decision.text, annotations: [] }] }];
	return { id: uid('resp'), object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model, status: 'completed', output, usage, parallel_tool_calls: false, tools: body.tools || [] };
}

function chatAnswer(body, decision) {
	const message = decision.call
		? { role: 'assistant', content: null, tool_calls: [{ id: uid('call'), type: 'function', function: { name: decision.call.name, arguments: JSON.stringify(decision.call.arguments || {}) } }] }
		: { role: 'assistant', content: decision.text };
	return {
		id: uid('chatcmpl'),
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [{ index: 0, message, finish_reason: decision.call ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

function sse(res, events) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
	res.end();
}

function streamResponses(res, answer) {
	const events = [];
	let seq = 0;
	const ev = (type, data) => events.push({ event: type, data: { type, sequence_number: seq++, ...data } });
	ev('response.created', { response: { ...answer, status: 'in_progress', output: [] } });
	answer.output.forEach((item, output_index) => {
		if (item.type === 'message') {
			ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
			ev('response.content_part.added', { output_index, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
			ev('response.output_text.delta', { output_index, item_id: item.id, content_index: 0, delta: item.content[0].text });
			ev('response.output_text.done', { output_index, item_id: item.id, content_index: 0, text: item.content[0].text });
			ev('response.content_part.done', { output_index, item_id: item.id, content_index: 0, part: item.content[0] });
		} else {
			ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
			ev('response.function_call_arguments.delta', { output_index, item_id: item.id, delta: item.arguments });
			ev('response.function_call_arguments.done', { output_index, item_id: item.id, arguments: item.arguments });
		}
		ev('response.output_item.done', { output_index, item });
	});
	ev('response.completed', { response: answer });
	sse(res, events);
}

function streamChat(res, answer) {
	const base = { id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model };
	const m = answer.choices[0].message;
	const delta = m.tool_calls ? { role: 'assistant', tool_calls: m.tool_calls.map((c, index) => ({ index, ...c })) } : { role: 'assistant', content: m.content };
	sse(res, [
		{ data: { ...base, choices: [{ index: 0, delta, finish_reason: null }] } },
		{ data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: answer.choices[0].finish_reason }] } },
		{ data: '[DONE]' },
	]);
}

async function startModelDouble(script) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (d) => (raw += d));
		req.on('end', async () => {
			try {
				const url = new URL(req.url, 'http://x');
				if (req.method === 'GET' && url.pathname.endsWith('/models')) {
					res.writeHead(200, { 'content-type': 'application/json' });
					return res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-test', object: 'model', owned_by: 'test' }] }));
				}
				const body = raw ? JSON.parse(raw) : {};
				const api = url.pathname.endsWith('/responses') ? 'responses' : url.pathname.endsWith('/chat/completions') ? 'chat' : undefined;
				if (req.method !== 'POST' || !api) {
					res.writeHead(404, { 'content-type': 'application/json' });
					return res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }));
				}
				const turn = api === 'responses' ? fromResponses(body) : fromChat(body);
				turn.lastUser = [...turn.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
				requests.push({ api, stream: body.stream === true, authorization: req.headers.authorization, ...turn });
				const decision = await script(turn);
				const answer = api === 'responses' ? responsesAnswer(body, decision) : chatAnswer(body, decision);
				if (body.stream) return api === 'responses' ? streamResponses(res, answer) : streamChat(res, answer);
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(answer));
			} catch (error) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: String(error && error.stack ? error.stack : error) } }));
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startModelDouble };

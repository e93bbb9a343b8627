'use strict';
/**
 * The package's nodes as AI tools in the real n8n 2.40.7 (issue 18), one n8n server for the file
 * (on the 1.x line, VENDOR_N8N_VERSION, the MCP part only: the AI Agent example asks for approval
 * in the chat with n8n's "Chat" human-review tool, which n8n 1.x does not have):
 *
 * - MCP: the example "Vendor: tools for your AI assistant (MCP)" (examples/mcp-vendor-tools.json)
 *   as shipped, published, called by the official MCP client (@modelcontextprotocol/sdk) over
 *   streamable HTTP and SSE with the Bearer token: the tools' names, descriptions and schemas, a
 *   reboot by name that reaches the emulator, a list that says it was cut, an unknown host as an
 *   `isError` result naming the hosts, a wrong token and a wrong Vendor password refused, and no
 *   secret in any text.
 * - AI Agent: the example "Vendor: restart a server from chat with an AI agent"
 *   (examples/chat-agent-server-restart.json) with its chat made public so the test can post to
 *   it, and an OpenAI-compatible model double (model-double.js: only the model's decisions are
 *   scripted; n8n's OpenAI Chat Model node talks to it with its default Responses API). "please
 *   restart web-1": the agent calls Reboot hosts, n8n's chat approval holds it (nothing reaches
 *   the emulator), the test clicks Reboot (a browser's User-Agent: n8n ignores approval links
 *   opened by bots), the reboot reaches the emulator and the model's answer carries the result.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const { createEmulator } = require('../../emulator');
const { startModelDouble } = require('./model-double');

const ROOT = path.resolve(__dirname, '..', '..');
const INSTALL_TIMEOUT = 25 * 60 * 1000;
const load = (file) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
const MCP = load('mcp-vendor-tools.json');
const AGENT = load('chat-agent-server-restart.json');

const BEARER = 'mcp-test-token-7c1f0e';
const OPENAI_KEY = 'sk-test-key-not-real-42';
const PASSWORD = 'demo-password';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
/** The AI Agent example needs n8n 2.x (its approval step is the @n8n/n8n-nodes-langchain.chatHitlTool node). */
const WITH_AGENT = n8n.major >= 2;
if (!WITH_AGENT) process.stderr.write(`[ai] n8n ${n8n.version}: the AI Agent example is left out (its "Approve in chat" node, chatHitlTool, exists from n8n 2.x on); the MCP example runs\n`);
const EXTRA_HOSTS = 120; // 123 hosts with the demo's three

let emu;
let model;
let home;
let tgz;
let server;
let hostCount;
const texts = []; // every text a client or the model received: no secret may appear in any

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let token;
async function api(p, body = {}) {
	const post = (pathname, b) => fetch(`${emu.url}/API/${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	if (!token) token = (await post('OAuth/authorize', { username: 'demo', password: PASSWORD })).access_token;
	const res = await post(p, { ...body, token });
	if (res.code !== 1) throw new Error(`${p}: ${res.message}`);
	return res;
}
const control = (method, p, body) =>
	fetch(`${emu.url}/__emulator${p}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : JSON.stringify(body || {}) }).then((r) => r.json());
const updates = async () => (await control('GET', '/stats')).management.requests['instance/update'] ?? 0;
const hostNamed = async (name) => (await api('instance/list', { page: 1, limit: 1000 })).data.find((h) => h.name === name);

/* ------------------------------------------------------------------ MCP */

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');

const mcpUrl = () => new URL(`${server.url}/mcp/${MCP.nodes.find((n) => n.type.endsWith('mcpTrigger')).parameters.path}`);

async function mcpClient(kind = 'http', bearer = BEARER) {
	const headers = { authorization: `Bearer ${bearer}` };
	const client = new Client({ name: 'vendor-ai-test', version: '1.0.0' });
	const transport =
		kind === 'http'
			? new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers } })
			: new SSEClientTransport(mcpUrl(), { requestInit: { headers }, eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init && init.headers), ...headers } }) } });
	await client.connect(transport);
	return client;
}

/** Calls a tool; returns { text, isError, ms }. */
async function call(client, name, args = {}) {
	const t0 = Date.now();
	const res = await client.callTool({ name, arguments: args });
	const text = res.content.map((c) => c.text).join('\n');
	texts.push(text);
	return { text, isError: res.isError === true, ms: Date.now() - t0 };
}

/* ------------------------------------------------------------- set-up */

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	emu = await createEmulator({ seed: 'demo', management: { timing: { taskDelayMs: 1000 } } });
	for (let i = 1; i <= EXTRA_HOSTS; i++) await control('POST', '/management/instance/hosts/add', { username: 'demo', name: `app-${i}`, status: i % 4 === 0 ? 2 : 1 });
	hostCount = Number((await api('instance/list', { page: 1, limit: 1 })).total);
	model = await startModelDouble(agentScript);
	tgz = n8n.packPackage(ROOT);
	home = await n8n.createN8nHome({ tgz });
	const ref = (type) => [...MCP.nodes, ...AGENT.nodes].map((n) => n.credentials && n.credentials[type]).find(Boolean);
	await n8n.importCredentials(home, [
		{ ...ref('vendorApi'), type: 'vendorApi', data: { apiUrl: emu.url, username: 'demo', password: PASSWORD } },
		{ ...ref('httpBearerAuth'), type: 'httpBearerAuth', data: { token: BEARER } },
		{ ...ref('openAiApi'), type: 'openAiApi', data: { apiKey: OPENAI_KEY, url: model.url } },
	]);
	// the agent example with its chat public, so that the test can post messages to it
	const agent = structuredClone(AGENT);
	const chat = agent.nodes.find((n) => n.type.endsWith('chatTrigger'));
	chat.parameters = { ...chat.parameters, public: true, mode: 'hostedChat' };
	// the agent workflows use chatHitlTool (the example) or sit beside it: 2.x only (WITH_AGENT)
	const list = (WITH_AGENT ? [MCP, agent, noModelAgent()] : [MCP]).map((wf) => ({ ...wf, active: false }));
	const file = path.join(home.userFolder, 'ai-workflows.json');
	fs.writeFileSync(file, JSON.stringify(list));
	const res = await n8n.runN8n(home, ['import:workflow', `--input=${file}`], { timeoutMs: 240000 });
	if (!new RegExp(`Successfully imported ${list.length} workflow`).test(res.stdout + res.stderr)) throw new Error(`import failed:\n${res.stdout}\n${res.stderr}`);
	server = await n8n.startN8n(home, {});
	await server.activateWorkflow(MCP.id);
	if (WITH_AGENT) {
		await server.activateWorkflow(AGENT.id);
		await server.activateWorkflow(NO_MODEL.id);
	}
	// a published workflow's webhooks may be registered a moment after the publish call returns
	const chatNode = AGENT.nodes.find((n) => n.type.endsWith('chatTrigger'));
	for (const url of [mcpUrl(), ...(WITH_AGENT ? [`${server.url}/webhook/${chatNode.webhookId}/chat`, `${server.url}/webhook/${NO_MODEL.webhookId}/chat`] : [])]) {
		for (const until = Date.now() + 60000; (await fetch(url).catch(() => ({ status: 0 }))).status === 404; await sleep(500)) {
			if (Date.now() > until) throw new Error(`${url} was not registered within 60 s`);
		}
	}
}, INSTALL_TIMEOUT);

afterAll(async () => {
	if (server) {
		if (process.env.AI_TEST_LOG) fs.writeFileSync(process.env.AI_TEST_LOG, server.logs());
		await server.stop();
	}
	if (model) await model.close();
	if (emu) await emu.close();
	if (home) home.cleanup();
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

/**
 * The agent example as a user has it before creating a model credential: its OpenAI Chat Model
 * refers to a credential this n8n does not have (chat public, so the test can post to it).
 */
const NO_MODEL = { id: 'aiTestNoModel01', webhookId: 'a1b2c3d4-0006-4000-8000-0000000000ff-chat' };
function noModelAgent() {
	const wf = structuredClone(AGENT);
	wf.id = NO_MODEL.id;
	wf.name = `${AGENT.name} (no model credential)`;
	const chat = wf.nodes.find((n) => n.type.endsWith('chatTrigger'));
	chat.parameters = { ...chat.parameters, public: true, mode: 'hostedChat' };
	chat.webhookId = NO_MODEL.webhookId;
	wf.nodes.find((n) => n.name === 'OpenAI Chat Model').credentials = { openAiApi: { id: 'openAiNotCreated', name: 'OpenAI account not created' } };
	return wf;
}

/* --------------------------------------------------------------- MCP */

describe('MCP Server Trigger: the example served by n8n, called with the MCP SDK', () => {
	let client;
	beforeAll(async () => {
		client = await mcpClient('http');
	});
	afterAll(async () => {
		if (client) await client.close();
	});

	test('the tools as an MCP client sees them: names, descriptions and argument schemas', async () => {
		const { tools } = await client.listTools();
		process.stderr.write(`[ai] MCP tools/list:\n${JSON.stringify(tools, null, 2)}\n`);
		texts.push(JSON.stringify(tools));
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		expect(Object.keys(byName).sort()).toEqual(['Get_balance', 'List_hosts', 'List_invoices', 'Purge_CDN_URLs', 'Reboot_hosts']);
		const reboot = byName.Reboot_hosts;
		expect(reboot.description).toMatch(/^Restart one or more hosts\. /);
		expect(reboot.description).toContain('a name, an instance ID or an IP address, or the numeric ID');
		expect(reboot.description).toContain('Returns the service\'s answer, with the ID and name of the hosts acted on.');
		expect(reboot.description).toMatch(/Changes things for real: .*Ask the user to confirm first\.$/);
		expect(reboot.inputSchema).toMatchObject({ type: 'object', required: ['hosts'], properties: { hosts: { type: 'string', description: expect.stringContaining('a name such as web-1') } } });
		expect(byName.List_hosts.description).toMatch(/^List cloud hosts .*Returns one object per host .*listNote/);
		expect(byName.List_hosts.inputSchema.properties.limit).toMatchObject({ type: 'number' });
		expect(byName.Purge_CDN_URLs.description).toMatch(/^Purge cached files or directories on the CDN/);
		expect(byName.Get_balance.description).toMatch(/^Get the prepaid balance of the account\./);
		expect(byName.List_invoices.description).toMatch(/^List the invoices applied for\. /);
		for (const t of tools) expect(t.description).not.toMatch(/ in Vendor /); // not n8n's "<action> in <node>"
	});

	test('List hosts: 50 of 123 hosts and a last item saying so; with a higher limit, all of them', async () => {
		const cut = await call(client, 'List_hosts', { limit: 50 });
		const items = JSON.parse(cut.text);
		expect(items).toHaveLength(51);
		expect(items[50]).toEqual({ listNote: `Showing 50 of ${hostCount} hosts (Limit 50). To see the rest, call again and raise limit to ${hostCount}, or narrow the list with a filter.`, shown: 50, total: hostCount });
		const all = await call(client, 'List_hosts', { limit: 500 });
		expect(JSON.parse(all.text)).toHaveLength(hostCount);
		process.stderr.write(`[ai] List_hosts, ${hostCount} hosts: limit 50 -> ${cut.text.length} characters (${cut.ms} ms); limit 500 -> ${all.text.length} characters (${all.ms} ms)\n`);
	});

	test('Reboot hosts by name reaches the emulator; the answer names the host', async () => {
		const web = await hostNamed('web-1');
		const before = await updates();
		const res = await call(client, 'Reboot_hosts', { hosts: 'web-1' });
		process.stderr.write(`[ai] Reboot_hosts web-1 (${res.ms} ms): ${res.text}\n`);
		expect(res.isError).toBe(false);
		expect((await updates()) - before).toBe(1);
		expect(JSON.parse(res.text)).toEqual([expect.objectContaining({ id: web.id, name: 'web-1' })]);
	});

	test('an unknown host comes back as an isError result naming the hosts; nothing is sent', async () => {
		const before = await updates();
		const res = await call(client, 'Reboot_hosts', { hosts: 'web-2' });
		process.stderr.write(`[ai] Reboot_hosts web-2 (${res.ms} ms): ${res.text}\n`);
		expect(res.isError).toBe(true);
		expect(res.text).toMatch(/No host is called "web-2" \(checked: a name, an instance ID or an IP address\); hosts: web-1 \(ID \d+\), /);
		expect(await updates()).toBe(before);
		const id = await call(client, 'Reboot_hosts', { hosts: '999999' });
		process.stderr.write(`[ai] Reboot_hosts 999999: ${id.text}\n`);
		expect(id.isError).toBe(true);
		expect(id.text).toMatch(/No host has the ID 999999; hosts: /);
		expect(await updates()).toBe(before);
	});

	test('Purge CDN URLs, Get balance, List invoices', async () => {
		const url = 'https://www.example.com/index.html';
		const purge = await call(client, 'Purge_CDN_URLs', { urls: url });
		expect(purge.isError).toBe(false);
		const [task] = JSON.parse(purge.text);
		expect(task).toMatchObject({ outcome: 'success' });
		expect((await api('cdn/refreshList', { page: 1, limit: 100 })).data.find((t) => t.id === task.id)).toMatchObject({ urls: [url] });
		const balance = await call(client, 'Get_balance');
		// simplified: the balance as a number (the service writes "1000.00")
		expect(JSON.parse(balance.text)[0].balance).toBe(Number((await api('profile/balance')).data[0].price));
		const invoices = await call(client, 'List_invoices', { limit: 50 });
		expect(JSON.parse(invoices.text).map((i) => i.id).sort()).toEqual((await api('profile/invoiceList', { page: 1, limit: 100 })).data.map((i) => i.id).sort());
	});

	test('over SSE too', async () => {
		const sse = await mcpClient('sse');
		try {
			expect((await sse.listTools()).tools).toHaveLength(5);
			const balance = await call(sse, 'Get_balance');
			expect(balance.isError).toBe(false);
		} finally {
			await sse.close();
		}
	});

	test('a wrong Bearer token is refused', async () => {
		await expect(mcpClient('http', 'wrong-token')).rejects.toThrow();
		const res = await fetch(mcpUrl(), {
			method: 'POST',
			headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
		});
		expect(res.status).toBe(403);
	});

	test('a wrong Vendor password: the tool answers isError saying what to fix, without the password', async () => {
		const cred = MCP.nodes.find((n) => n.credentials && n.credentials.vendorApi).credentials.vendorApi;
		const stored = (await server.rest('GET', `/credentials/${cred.id}?includeData=true`)).json.data;
		const wrong = 'Wrong-pass-9';
		await server.rest('PATCH', `/credentials/${cred.id}`, { name: stored.name, type: stored.type, data: { ...stored.data, password: wrong } });
		try {
			const res = await call(client, 'Get_balance');
			process.stderr.write(`[ai] Get_balance with a wrong password: ${res.text}\n`);
			expect(res.isError).toBe(true);
			expect(res.text).toContain('Log-in as "demo" was refused');
			expect(res.text).toContain('Check the username, password and password encoding in the credential "Vendor account" (type Vendor API)');
			expect(res.text).not.toContain(wrong);
		} finally {
			await server.rest('PATCH', `/credentials/${cred.id}`, { name: stored.name, type: stored.type, data: { ...stored.data, password: PASSWORD } });
		}
		expect((await call(client, 'Get_balance')).isError).toBe(false);
	});
});

/* ------------------------------------------------------------ AI Agent */

/** The scripted model: restart the host the user names, then report what the tool said. */
function agentScript(turn) {
	const reboot = turn.tools.find((t) => /^Reboot/.test(t.name));
	const result = turn.toolResults.find((r) => r.name === (reboot && reboot.name));
	if (result) return { text: `Rebooted as you asked. The service answered: ${result.output}` };
	const host = /restart (\S+)/i.exec(turn.lastUser);
	if (!reboot || !host) return { text: 'Which host?' };
	const args = { hosts: host[1] };
	// a tool behind n8n's approval takes its own arguments under toolParameters
	return { call: { name: reboot.name, arguments: reboot.parameters && reboot.parameters.properties && reboot.parameters.properties.toolParameters ? { toolParameters: args } : args } };
}

/** The raw run data of an execution (n8n's flatted form unpacked). */
async function runData(executionId) {
	return (await server.getExecution(executionId)).raw.data.resultData.runData;
}

async function waitForStatus(executionId, statuses, ms = 120000) {
	const until = Date.now() + ms;
	for (;;) {
		const list = await server.listExecutions({ workflowId: AGENT.id });
		const ex = list.find((e) => String(e.id) === String(executionId));
		if (ex && statuses.includes(ex.status)) return ex;
		if (Date.now() > until) throw new Error(`execution ${executionId} did not reach ${statuses} (now ${ex && ex.status})\n${server.logs().slice(-4000)}`);
		await sleep(300);
	}
}

(WITH_AGENT ? describe : describe.skip)('AI Agent with the Cloud Host tools: "please restart web-1" from the chat', () => {
	test('the reboot waits for the approval in the chat, then reaches the emulator; the answer carries the result', async () => {
		const chat = AGENT.nodes.find((n) => n.type.endsWith('chatTrigger'));
		const web = await hostNamed('web-1');
		const before = await updates();
		const started = await fetch(`${server.url}/webhook/${chat.webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: 'ai-test-session', chatInput: 'Hi, please restart web-1' }),
		}).then(async (r) => ({ status: r.status, ...JSON.parse((await r.text()) || '{}') }));
		expect(started).toMatchObject({ status: 200, executionStarted: true, executionId: expect.anything() });

		// the agent asked for the reboot: n8n holds it for approval, nothing reached the service
		await waitForStatus(started.executionId, ['waiting']);
		const tools = model.requests[0].tools;
		process.stderr.write(`[ai] tools the model received (${model.requests[0].api} API):\n${JSON.stringify(tools, null, 2)}\n`);
		texts.push(JSON.stringify(model.requests.map(({ authorization, ...seen }) => seen)));
		expect(model.requests[0].authorization).toBe(`Bearer ${OPENAI_KEY}`); // the credential's key reached the model (and nothing else)
		expect(tools.map((t) => t.name).sort()).toEqual(['Get_host', 'List_hosts', 'Reboot_hosts']);
		expect(tools.find((t) => t.name === 'Reboot_hosts').description).toMatch(/^Restart one or more hosts/);
		expect(tools.find((t) => t.name === 'Get_host').description).toMatch(/^Get one cloud host by its numeric ID/); // the example's own words
		expect(await updates()).toBe(before);
		const approval = (await runData(started.executionId))['Approve in chat'];
		const message = approval[approval.length - 1].data.ai_tool[0][0].sendMessage;
		process.stderr.write(`[ai] approval message in the chat: ${JSON.stringify(message)}\n`);
		expect(message.text).toBe('Reboot web-1 now? The host restarts at once; work running on it is interrupted.');
		const button = message.buttons.find((b) => b.text === 'Reboot');
		expect(button.link).toMatch(/^http/);

		// the user clicks Reboot (a browser: n8n ignores bots following approval links)
		const clicked = await fetch(button.link, { headers: { 'user-agent': BROWSER } });
		expect(clicked.status).toBeLessThan(400);
		for (const until = Date.now() + 180000; !model.requests.some((r) => r.toolResults.length); ) {
			if (Date.now() > until) throw new Error(`the model never got the tool's result\n${server.logs().slice(-3000)}`);
			await sleep(300);
		}
		const ended = await waitForStatus(started.executionId, ['success', 'waiting', 'error'], 180000);
		const afterRun = await server.getExecution(started.executionId);
		process.stderr.write(`[ai] after the approval: ${ended.status}, last node ${afterRun.lastNode}\n`);
		expect((await updates()) - before).toBe(1);
		// the agent's answer went to the chat through the Reply node (which then waits for the chat)
		expect(afterRun.lastNode).toBe('Reply');
		const replyRuns = afterRun.raw.data.resultData.runData.Reply;
		const sent = replyRuns[replyRuns.length - 1].data.main[0][0].sendMessage;

		// the model got the tool's answer and replied with it
		const last = model.requests[model.requests.length - 1];
		const result = last.toolResults.find((r) => r.name === 'Reboot_hosts');
		expect(result.output).toContain('"name":"web-1"');
		expect(result.output).toContain(`"id":"${web.id}"`);
		const reply = (await server.getExecution(started.executionId)).nodes['AI Agent'].items[0].output;
		process.stderr.write(`[ai] agent reply: ${reply}\n`);
		expect(reply).toContain('Rebooted as you asked.');
		expect(reply).toContain('web-1');
		expect(sent).toBe(reply);
	}, 300000);
});

(WITH_AGENT ? describe : describe.skip)('AI Agent without a chat model credential', () => {
	test('the chat answers with the sentence of the note on the canvas, not a raw error, and the run ends as failed with that sentence (never "executed successfully" beside the red model node)', async () => {
		// the sentence is the one the canvas note promises
		const note = AGENT.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote' && /chat model/i.test(n.parameters.content));
		expect(note).toBeDefined();
		expect(note.parameters.content).toMatch(/OpenAI API key/);
		expect(note.parameters.content).toMatch(/Anthropic, Google Gemini/);
		const sentence = note.parameters.content.match(/the chat answers: \*([^*]+)\*/)[1];
		const before = await updates();
		const started = await fetch(`${server.url}/webhook/${NO_MODEL.webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: 'ai-test-no-model', chatInput: 'Hi, please restart web-1' }),
		}).then(async (r) => ({ status: r.status, ...JSON.parse((await r.text()) || '{}') }));
		expect(started).toMatchObject({ status: 200, executionStarted: true, executionId: expect.anything() });
		// read by its id (GET /executions/:id) until it has ended, or has waited for the chat 15 s: n8n
		// shows this run as waiting for a moment while Reply answers the chat, then it goes on to No
		// Chat Model (on a loaded machine one read fell in that moment)
		let run;
		let waitingSince;
		for (const until = Date.now() + 240000; ; await sleep(1000)) {
			run = await server.getExecution(started.executionId).catch((error) => ({ status: `unreadable: ${error.message.slice(0, 200)}` }));
			if (['success', 'error', 'crashed', 'canceled'].includes(run.status)) break;
			waitingSince = run.status === 'waiting' ? (waitingSince ?? Date.now()) : undefined;
			if (waitingSince !== undefined && Date.now() - waitingSince >= 15000) break;
			if (Date.now() > until) throw new Error(`execution ${started.executionId} is ${run.status}\n${server.logs().slice(-3000)}`);
		}
		process.stderr.write(`[ai] without a model credential: execution ${run.status}, last node ${run.lastNode}, the agent passed on ${JSON.stringify(run.nodes['AI Agent'] && run.nodes['AI Agent'].items)}\n`);
		// the agent passes the model's failure on (its error setting), and Reply turns it into the sentence
		const replies = run.raw.data.resultData.runData.Reply;
		expect(replies).toBeDefined();
		const sent = replies[replies.length - 1].data.main[0][0].sendMessage;
		process.stderr.write(`[ai] without a model credential the chat answers: ${JSON.stringify(sent)}\n`);
		expect(sent).toBe(sentence);
		// the model failed, so the run does: No Chat Model ends it with the same sentence (issue 36,
		// point 4) once n8n goes on after Reply. n8n 2.40.7's Respond to Chat puts the run to wait
		// after sending, and its chat resumes it (chat/utils.js shouldResumeImmediately); over this
		// webhook call it may stay waiting at Reply, never "executed successfully"
		if (run.status === 'waiting') {
			expect(run.raw.data.resultData.lastNodeExecuted).toBe('Reply');
			expect(run.raw.data.resultData.error).toBeUndefined();
		} else {
			expect(run.status).toBe('error');
			expect(run.raw.data.resultData.error.message).toBe(sentence);
			expect(run.raw.data.resultData.lastNodeExecuted).toBe('No Chat Model');
		}
		expect(await updates()).toBe(before);
	}, 300000);
});

test('no secret in any text a client or the model received', () => {
	const all = texts.join('\n');
	expect(all.length).toBeGreaterThan(0);
	for (const secret of [PASSWORD, BEARER, OPENAI_KEY, 'Wrong-pass-9']) expect(all).not.toContain(secret);
	expect(all).not.toMatch(/"(access_)?token"\s*:/);
});

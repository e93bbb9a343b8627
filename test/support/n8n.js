'use strict';
/**
 * Runs the built package (dist/) through n8n's own execution code: n8n-core's WorkflowExecute
 * for action nodes, LoadOptionsContext for dropdowns and list searches, PollContext for
 * polling triggers. Requests go over real HTTP. Credentials are applied the way n8n's
 * CredentialsHelper applies them (authenticate function or generic properties,
 * preAuthentication into the expirable hidden field, persisted back to the store).
 *
 *   const n8n = require('../support/n8n');
 *   const { items, error } = await n8n.runNode('vendorCdn', { resource: 'channel', operation: 'getAll' },
 *                                              { credentials: { vendorApi: creds } });
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const PACKAGE = require(path.join(ROOT, 'package.json'));
const PREFIX = PACKAGE.name; // node types are "<package>.<name>", as n8n names community nodes

// n8n-core reads its folders and binary mode from the environment when first used.
// The binary store of a test file writes whole objects there: it is removed when the file ends
// (jest's afterAll; exit in a plain Node process), so a run does not pile up gigabytes.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-n8n-core-'));
const removeScratch = () => fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
// jest records a hook defined inside a running test as that test's failure: only at a file's top level
const inJestTest = typeof expect === 'function' && typeof expect.getState === 'function' && expect.getState().currentTestName !== undefined;
if (typeof afterAll === 'function' && !inJestTest) afterAll(removeScratch);
else process.once('exit', removeScratch); // a plain Node process, or required inside a test
process.env.N8N_USER_FOLDER = process.env.N8N_USER_FOLDER || scratch;
process.env.N8N_DEFAULT_BINARY_DATA_MODE = process.env.N8N_DEFAULT_BINARY_DATA_MODE || 'filesystem';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
process.env.N8N_ENCRYPTION_KEY = process.env.N8N_ENCRYPTION_KEY || 'vendor-cloud-tests-encryption-key';

const { Workflow, NodeHelpers, createDeferredPromise } = require('n8n-workflow');
const core = require('n8n-core');
// the Container n8n-core registers its services in (it may carry its own copy of @n8n/di)
const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }));

const { WorkflowExecute, ExecutionLifecycleHooks, LoadOptionsContext, PollContext, BinaryDataService } = core;

let binaryReady;
function ensureBinaryData() {
	binaryReady ??= Container.get(BinaryDataService).init();
	return binaryReady;
}

/* ---------- the package, loaded from dist/ the way n8n's loader does ---------- */

function loadClass(file) {
	const abs = path.join(ROOT, file);
	if (!fs.existsSync(abs)) throw new Error(`${file} is missing: run "npm run build" first`);
	const base = path.basename(file).split('.')[0];
	const mod = require(abs);
	const Cls = mod[base];
	if (typeof Cls !== 'function') throw new Error(`${file} must export a class named ${base}`);
	return new Cls();
}

let pkg;
function loadPackage() {
	if (pkg) return pkg;
	const nodes = {};
	const credentials = {};
	for (const file of PACKAGE.n8n.nodes) {
		const inst = loadClass(file);
		nodes[`${PREFIX}.${inst.description.name}`] = inst;
	}
	for (const file of PACKAGE.n8n.credentials) {
		const inst = loadClass(file);
		credentials[inst.name] = inst;
	}
	pkg = { nodes, credentials };
	return pkg;
}

/** The start node of test workflows: emits the given items (or one empty item). */
class StartItems {
	constructor() {
		this.description = {
			displayName: 'Start Items',
			name: 'startItems',
			group: ['trigger'],
			version: 1,
			defaults: { name: 'Start' },
			inputs: [],
			outputs: ['main'],
			properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
		};
	}
	async trigger() {
		const raw = this.getNodeParameter('items', '[{}]');
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw).map((json) => ({ json }));
		return {
			manualTriggerFunction: async () => {
				this.emit([items]);
			},
		};
	}
}

/** Passes its input through and lets a test inject binary items: { json, binary: { data: { path } } }. */
class BinaryFixture {
	constructor() {
		this.description = {
			displayName: 'Binary Fixture',
			name: 'binaryFixture',
			group: ['transform'],
			version: 1,
			defaults: { name: 'Fixture' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [{ displayName: 'Files', name: 'files', type: 'json', default: '[]' }],
		};
	}
	async execute() {
		const raw = this.getNodeParameter('files', 0);
		const files = typeof raw === 'string' ? JSON.parse(raw) : raw;
		const out = [];
		for (let i = 0; i < files.length; i++) {
			const f = files[i];
			const item = { json: f.json || {}, binary: {}, pairedItem: { item: 0 } };
			for (const [prop, spec] of Object.entries(f.binary || {})) {
				const data = spec.path
					? fs.createReadStream(spec.path)
					: Buffer.from(spec.text ?? spec.base64 ?? '', spec.base64 !== undefined ? 'base64' : 'utf8');
				item.binary[prop] = await this.helpers.prepareBinaryData(data, spec.fileName, spec.mimeType);
			}
			out.push(item);
		}
		return [out];
	}
}

/**
 * The tool variant of a node (`<type>Tool`), made as n8n 2.40 makes it when it runs one
 * (n8n's NodeTypes: a clone of the node whose description is named "<name>Tool"), so a test can
 * run a node the way an AI Agent's tool call runs it.
 */
function toolVariant(node) {
	const description = Object.create(node.description, { name: { value: `${node.description.name}Tool` } });
	return Object.create(node, { description: { value: description } });
}

function nodeTypes() {
	const { nodes } = loadPackage();
	const tools = {};
	for (const [type, node] of Object.entries(nodes)) if (node.description.usableAsTool) tools[`${type}Tool`] = toolVariant(node);
	const all = { 'test.startItems': new StartItems(), 'test.binaryFixture': new BinaryFixture(), ...nodes };
	return {
		getByName: (name) => all[name] ?? tools[name],
		getByNameAndVersion: (name) => all[name] ?? tools[name],
		getKnownTypes: () => ({}),
		all,
		/** The tool variants (`<type>Tool`), apart from `all`. */
		tools,
	};
}

/* ---------- credentials, applied as n8n's CredentialsHelper applies them ---------- */

class CredentialStore {
	constructor() {
		this.data = new Map(); // id -> { type, data }
		this.updates = [];
	}
	add(type, data, id = `${type}-${this.data.size + 1}`) {
		this.data.set(id, { type, data: { ...data } });
		return { id, name: `${type} test` };
	}
}

function credentialsHelper(store) {
	const { credentials } = loadPackage();
	const typeOf = (name) => {
		const t = credentials[name];
		if (!t) throw new Error(`unknown credential type ${name}`);
		return t;
	};
	return {
		async getDecrypted(_additionalData, nodeCredentials, type) {
			const entry = store.data.get(nodeCredentials.id);
			if (!entry) throw new Error(`credential ${nodeCredentials.id} not found`);
			// n8n fills in the defaults of properties the stored data lacks
			return NodeHelpers.getNodeParameters(typeOf(type).properties, { ...entry.data }, true, false, null, null) || {};
		},
		async authenticate(creds, type, requestOptions, workflow, node) {
			const t = typeOf(type);
			if (typeof t.authenticate === 'function') return await t.authenticate(creds, requestOptions);
			if (t.authenticate && t.authenticate.type === 'generic') {
				for (const [outer, inner] of Object.entries(t.authenticate.properties)) {
					requestOptions[outer] = requestOptions[outer] || {};
					for (const [k, v] of Object.entries(inner)) {
						const resolve = (value) =>
							typeof value === 'string' && value.startsWith('=')
								? String(workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: creds }, undefined, '') ?? '')
								: value;
						requestOptions[outer][resolve(k)] = resolve(v);
					}
				}
			}
			return requestOptions;
		},
		async preAuthentication(helpers, creds, type, node, credentialsExpired) {
			const t = typeOf(type);
			const expirable = t.properties.find((p) => p.type === 'hidden' && p.typeOptions && p.typeOptions.expirable === true);
			if (!expirable || typeof t.preAuthentication !== 'function') return undefined;
			if (creds[expirable.name] === '' || credentialsExpired) {
				// n8n narrows `this` to { helpers: { httpRequest } } for preAuthentication
				const output = await t.preAuthentication.call({ helpers: { httpRequest: helpers.helpers.httpRequest } }, creds);
				if (output[expirable.name] === undefined) return undefined;
				if (node.credentials) {
					const ref = node.credentials[type];
					const entry = store.data.get(ref.id);
					entry.data = { ...entry.data, ...output };
					store.updates.push({ id: ref.id, type, keys: Object.keys(output) });
					return Object.assign(creds, output);
				}
			}
			return undefined;
		},
		async updateCredentials(nodeCredentials, type, data) {
			const entry = store.data.get(nodeCredentials.id);
			entry.data = { ...data };
		},
		async updateCredentialsOauthTokenData() {},
		getParentTypes: () => [],
		isCredentialUsableByNode: () => true,
		getCredentialsProperties: (type) => typeOf(type).properties,
	};
}

/* ---------- running ---------- */

function additionalDataFor(store, workflowData, mode, hooks) {
	return {
		credentialsHelper: credentialsHelper(store),
		hooks,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('task runners are not used in these tests');
		},
		logAiEvent: () => {},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		currentNodeExecutionIndex: 0,
		userId: 'test-user',
		workflowId: workflowData.id,
	};
}

let counter = 0;

/** The version n8n gives a new node of this type: `defaultVersion`, else the newest of `version`. */
function newestVersion(types, type) {
	const d = types.getByName(type).description;
	return d.defaultVersion ?? (Array.isArray(d.version) ? Math.max(...d.version) : d.version ?? 1);
}

/**
 * Runs a workflow { nodes, connections } through WorkflowExecute. Node `credentials` entries
 * may name a credential type with inline data: { vendorApi: { data: {...} } }; they are put
 * in `store` (a CredentialStore, shared between runs to keep refreshed tokens).
 * Returns { run, runData, error, output(nodeName) }.
 */
async function runWorkflow(definition, { store = new CredentialStore(), mode = 'manual', staticData = {} } = {}) {
	await ensureBinaryData();
	const types = nodeTypes();
	const nodes = definition.nodes.map((n, i) => {
		const node = {
			id: n.id || `node-${i}`,
			name: n.name,
			type: n.type,
			typeVersion: n.typeVersion || newestVersion(types, n.type),
			position: n.position || [i * 200, 0],
			parameters: n.parameters || {},
		};
		if (n.credentials) {
			node.credentials = {};
			for (const [type, ref] of Object.entries(n.credentials)) {
				node.credentials[type] = ref.id ? ref : store.add(type, ref.data || ref);
			}
		}
		if (n.continueOnFail) node.onError = 'continueRegularOutput';
		if (n.onError) node.onError = n.onError; // e.g. 'continueErrorOutput': failed items go to a second output
		return node;
	});
	const id = `wf-${++counter}`;
	const workflowData = {
		id,
		name: definition.name || id,
		nodes,
		connections: definition.connections,
		active: false,
		settings: { executionOrder: 'v1', ...(definition.settings || {}) },
		staticData,
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id,
		name: workflowData.name,
		nodes,
		connections: definition.connections,
		active: false,
		nodeTypes: types,
		staticData,
		settings: workflowData.settings,
	});
	const hooks = new ExecutionLifecycleHooks(mode, `exec-${counter}`, workflowData);
	const additionalData = additionalDataFor(store, workflowData, mode, hooks);
	const start = nodes.find((n) => types.getByName(n.type).description.group.includes('trigger')) || nodes[0];
	const execution = new WorkflowExecute(additionalData, mode);
	const run = await execution.run({ workflow, startNode: workflow.getNode(start.name) });
	const runData = run.data.resultData.runData;
	return {
		run,
		runData,
		workflow,
		store,
		error: run.data.resultData.error,
		output(nodeName, outputIndex = 0) {
			const task = runData[nodeName] && runData[nodeName][runData[nodeName].length - 1];
			return (task && task.data && task.data.main && task.data.main[outputIndex]) || [];
		},
		nodeError(nodeName) {
			const task = runData[nodeName] && runData[nodeName][runData[nodeName].length - 1];
			return task && task.error;
		},
	};
}

/**
 * Runs one package node after a start node that emits `input` (JSON items) or, with
 * `binaryInput`, after a fixture node that emits binary items.
 * `node` is the short name ("vendorCdn"); returns { items, error, result }.
 */
async function runNode(node, parameters, options = {}) {
	// typeVersion: the node version the workflow was saved with (default: the newest, as a new node gets)
	const { credentials = {}, input = [{}], binaryInput, store, continueOnFail = false, onError, settings, typeVersion } = options;
	const nodes = [{ name: 'Start', type: 'test.startItems', parameters: { items: JSON.stringify(input) } }];
	const connections = { Start: { main: [[]] } };
	let previous = 'Start';
	if (binaryInput) {
		nodes.push({ name: 'Fixture', type: 'test.binaryFixture', parameters: { files: JSON.stringify(binaryInput) } });
		connections.Start.main[0].push({ node: 'Fixture', type: 'main', index: 0 });
		connections.Fixture = { main: [[]] };
		previous = 'Fixture';
	}
	nodes.push({ name: 'Node', type: `${PREFIX}.${node}`, typeVersion, parameters, credentials, continueOnFail, onError });
	connections[previous].main[0].push({ node: 'Node', type: 'main', index: 0 });
	// settings: the workflow's settings, e.g. { timezone: 'Asia/Shanghai' }
	const result = await runWorkflow({ nodes, connections, settings }, { store });
	const error = result.nodeError('Node') || result.error;
	if (!error) recordExercised(node, parameters);
	return { items: result.output('Node'), error, result };
}

/**
 * Every operation that ran without error is recorded, so a check after the test run can
 * prove that each operation in a dropdown was exercised against the emulator.
 */
const EXERCISED_DIR = process.env.VENDOR_EXERCISED_DIR || path.join(ROOT, 'test-results', 'exercised');
function recordExercised(node, parameters) {
	if (!parameters || !parameters.operation) return;
	fs.mkdirSync(EXERCISED_DIR, { recursive: true });
	const line = JSON.stringify({ node, resource: parameters.resource || '', operation: parameters.operation }) + '\n';
	fs.appendFileSync(path.join(EXERCISED_DIR, `${process.pid}.jsonl`), line);
}

function contextFor(nodeShortName, parameters, credentials, store = new CredentialStore()) {
	const types = nodeTypes();
	const type = `${PREFIX}.${nodeShortName}`;
	const node = { id: 'n1', name: 'Node', type, typeVersion: newestVersion(types, type), position: [0, 0], parameters: parameters || {} };
	node.credentials = {};
	for (const [t, data] of Object.entries(credentials || {})) node.credentials[t] = store.add(t, data);
	const workflow = new Workflow({
		id: 'wf-ctx',
		name: 'ctx',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: types,
		staticData: {},
	});
	const workflowData = { id: 'wf-ctx', name: 'ctx', nodes: [node], connections: {}, active: false, settings: {} };
	const hooks = new ExecutionLifecycleHooks('manual', 'exec-ctx', workflowData);
	const additionalData = additionalDataFor(store, workflowData, 'manual', hooks);
	// the editor sends the node's current parameters with every dropdown or list-search request;
	// LoadOptionsContext.getCurrentNodeParameter reads them from here (dependent lists need them)
	// (the parameters as given: the Workflow constructor replaces node.parameters with a copy that
	// drops every parameter not displayed for the node's resource and operation)
	additionalData.currentNodeParameters = parameters || {};
	return { types, node, workflow, store, additionalData, nodeType: types.getByName(type) };
}

/** Calls a node's listSearch method as the editor does for a "From list" resource locator. */
async function listSearch(nodeShortName, method, { parameters, credentials, filter, paginationToken } = {}) {
	const c = contextFor(nodeShortName, parameters, credentials);
	const ctx = new LoadOptionsContext(c.workflow, c.node, c.additionalData, 'parameters');
	return await c.nodeType.methods.listSearch[method].call(ctx, filter, paginationToken);
}

/** Calls a node's loadOptions method as the editor does for a dropdown or multi-select. */
async function loadOptions(nodeShortName, method, { parameters, credentials } = {}) {
	const c = contextFor(nodeShortName, parameters, credentials);
	const ctx = new LoadOptionsContext(c.workflow, c.node, c.additionalData, 'parameters');
	return await c.nodeType.methods.loadOptions[method].call(ctx);
}

/* ---------- polling triggers, as n8n 2.40 runs them ---------- */

const { AsyncLocalStorage } = require('node:async_hooks');
/**
 * The staged cursor of the poll running in the current async context ('staged' below). One for
 * all polls: every AsyncLocalStorage that ran stays on Node's list, which each new promise walks,
 * so one per poll made every promise slower with each poll (a 300-poll simulation spent a fifth
 * of its time there).
 */
const staging = new AsyncLocalStorage();

/** A logger that keeps what a node logs (PollContext's `this.logger`). */
function capturingLogger(into) {
	const log = (level) => (message, meta) => into.push({ level, message, meta });
	const logger = { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') };
	logger.scoped = () => logger;
	return logger;
}

const plain = (value) => JSON.parse(JSON.stringify(value ?? {}, (k, v) => (k === '__dataChanged' ? undefined : v)));

/**
 * Runs one poll of a polling trigger (`nodeShortName`, e.g. "vendorCloudHostTrigger") through
 * n8n-core 2.40's own code: a PollContext driven by PollTriggerExecutor (runPollInStagingScope,
 * runPollFunction, __emit / __emitError, commitStagedCursor), with the persistence of the n8n
 * 2.40 program wired in as its TriggerExecutionContextFactory does it:
 *
 *   cursor 'live' (n8n's default): the node reads and writes the workflow's static data in
 *     memory (here: `staticData`, changed in place, kept between calls by the caller); n8n writes
 *     it to the database after the activation poll and whenever a poll emits items
 *     (`persisted` then holds that copy, for crash-restart tests);
 *   cursor 'staged' (N8N_POLLER_DURABLE_CURSORS_ENABLED): each poll works on a deep copy of the
 *     node's static data, committed with the emitted items, or on its own after a poll that
 *     returned nothing, but not after the activation poll (testingTrigger) and never after an
 *     error.
 *
 * mode 'manual' is "Fetch Test Event": the poll runs in manual mode as WorkflowExecute runs it,
 * and errors are thrown. `activation: true` is the poll n8n runs while activating the workflow
 * (PollTriggerExecutor's testingTrigger): an error fails the activation and is thrown here.
 * Later polls hand errors to __emitError (n8n records a failed execution); they come back in
 * `emitErrors`. What the node logs comes back in `logs`.
 *
 * Returns { items (json), binaries (each item's binary fields, or undefined), staticData
 * (serialised copy), emitted, emitErrors, logs, persisted }.
 */
async function runPoll(nodeShortName, parameters, options = {}) {
	const { staticData = {}, mode = 'trigger', credentials = {}, store = new CredentialStore(), activation = false, cursor = 'live' } = options;
	await ensureBinaryData(); // a trigger may download files
	const types = nodeTypes();
	const type = `${PREFIX}.${nodeShortName}`;
	if (!types.getByName(type)) throw new Error(`unknown node ${type}`);
	const node = { id: 'poll-node', name: 'Trigger', type, typeVersion: newestVersion(types, type), position: [0, 0], parameters: parameters || {} };
	node.credentials = {};
	for (const [t, ref] of Object.entries(credentials)) node.credentials[t] = ref && ref.id ? ref : store.add(t, (ref && ref.data) || ref);
	const workflowData = { id: 'wf-poll', name: 'poll', nodes: [node], connections: {}, active: mode !== 'manual', settings: {}, staticData };
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: [node],
		connections: {},
		active: workflowData.active,
		nodeTypes: types,
		staticData,
		settings: {},
	});
	const hooks = new ExecutionLifecycleHooks(mode, `poll-${++counter}`, workflowData);
	const additionalData = additionalDataFor(store, workflowData, mode, hooks);
	const logs = [];
	const logger = capturingLogger(logs);
	const nodeType = types.getByName(type);

	if (mode === 'manual') {
		const context = new PollContext(workflow, node, additionalData, 'manual', 'manual');
		Object.defineProperty(context, 'logger', { value: logger });
		const data = await nodeType.poll.call(context);
		const out = (data && data[0]) || [];
		return { items: out.map((i) => i.json), binaries: out.map((i) => i.binary), staticData: plain(staticData), emitted: false, emitErrors: [], logs, persisted: undefined };
	}

	let emittedItems = null;
	const emitErrors = [];
	let persisted;
	const key = `node:${node.name}`;
	// 'staged': the committed cursor is the node's slice of `staticData`
	const committedSlice = () => {
		if (!staticData[key]) staticData[key] = {};
		return staticData[key];
	};
	const commit = (snapshot) => {
		const slice = committedSlice();
		for (const k of Object.keys(slice)) delete slice[k];
		Object.assign(slice, JSON.parse(JSON.stringify(snapshot)));
	};
	const takeStaged = () => {
		const staged = staging.getStore();
		if (!staged || JSON.stringify(staged.snapshot) === staged.seed) return null;
		staged.seed = JSON.stringify(staged.snapshot);
		return staged.snapshot;
	};
	const __runPoll =
		cursor === 'staged'
			? async (poll) => {
					const seed = JSON.stringify(plain(committedSlice()));
					return await staging.run({ snapshot: JSON.parse(seed), seed }, poll);
				}
			: async (poll) => await poll();
	const resolveNodeStaticData =
		cursor === 'staged' ? () => staging.getStore().snapshot : () => workflow.getStaticData('node', node);
	const __emit = (data) => {
		emittedItems = data;
		if (cursor === 'staged') {
			const staged = takeStaged();
			if (staged) commit(staged); // committed in one transaction with the execution row
		} else {
			persisted = plain(staticData); // WorkflowStaticDataService.saveStaticData on emit
		}
	};
	const __emitError = (error) => emitErrors.push(error);
	const __commitCursor = async () => {
		if (cursor !== 'staged') return;
		const staged = takeStaged();
		if (staged) commit(staged);
	};
	const pollFunctions = new PollContext(workflow, node, additionalData, 'trigger', 'activate', __emit, __emitError, __commitCursor, __runPoll, resolveNodeStaticData);
	Object.defineProperty(pollFunctions, 'logger', { value: logger });
	const executor = Container.get(core.PollTriggerExecutor);
	await executor.create(workflow, node, pollFunctions, () => true)(activation);
	if (activation && cursor === 'live') persisted = plain(staticData); // saved after activation
	const out = (emittedItems && emittedItems[0]) || [];
	return {
		items: out.map((i) => i.json),
		binaries: out.map((i) => i.binary),
		staticData: plain(staticData),
		emitted: emittedItems !== null,
		emitErrors,
		logs,
		persisted,
	};
}

module.exports = {
	recordExercised,
	PREFIX,
	ROOT,
	loadPackage,
	nodeTypes,
	CredentialStore,
	credentialsHelper,
	runWorkflow,
	runNode,
	listSearch,
	loadOptions,
	contextFor,
	ensureBinaryData,
	PollContext,
	LoadOptionsContext,
	ExecutionLifecycleHooks,
	additionalDataFor,
	createDeferredPromise,
	runPoll,
};

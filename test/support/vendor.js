'use strict';
/**
 * One vendor emulator plus ready credentials for node tests.
 *
 *   const { startVendor } = require('../../support/vendor');      // from test/nodes/<node>/
 *   let v;
 *   beforeAll(async () => { v = await startVendor(); });
 *   afterAll(() => v.close());
 *   const items = await v.ok('vendorCdn', { resource: 'channel', operation: 'getAll', returnAll: true });
 *   const error = await v.fails('vendorCdn', { ... });          // the node error (asserts there is one)
 *   await v.control('POST', '/management/tokens/revoke', {});   // emulator control routes
 *   v.state.management.state.cdn                                  // in-process emulator state
 *   startVendor({ dialects: ['numbersAsStrings'] })               // options go to createEmulator
 */
const n8n = require('./n8n');
const { localRequest } = require('./local-http');
const { createEmulator } = require('../../emulator');

async function startVendor(options = {}) {
	const emu = await createEmulator({
		seed: 'empty',
		...options,
		management: { timing: { taskDelayMs: 150, hostCreateMs: 150, hostReinstallMs: 150, backupMs: 150 }, ...(options.management || {}) },
	});
	const store = new n8n.CredentialStore();
	const apiRef = store.add('vendorApi', { apiUrl: emu.url, username: 'demo', password: 'demo-password' });
	const storageRef = store.add('vendorObjectStorageApi', {
		endpoint: emu.url,
		accessKey: 'VENDORTESTKEY',
		accessSecret: 'vendor-test-secret',
	});
	const credentialsFor = (node) => (node.startsWith('vendorObjectStorage') ? { vendorObjectStorageApi: storageRef } : { vendorApi: apiRef });

	const v = {
		emu,
		url: emu.url,
		store,
		state: emu,
		apiRef,
		storageRef,
		/** Runs a node; returns { items, error, result }. */
		async run(node, parameters, opts = {}) {
			return n8n.runNode(node, parameters, { credentials: opts.credentials || credentialsFor(node), store, ...opts });
		},
		/** Runs a node that must succeed; returns the output items' json. */
		async ok(node, parameters, opts = {}) {
			const { items, error } = await v.run(node, parameters, opts);
			if (error) throw new Error(`${node} ${parameters.resource}/${parameters.operation} failed: ${error.message}${error.description ? ` (${error.description})` : ''}`);
			return items.map((i) => i.json);
		},
		/** Runs a node that must fail; returns the error. */
		async fails(node, parameters, opts = {}) {
			const { error } = await v.run(node, parameters, opts);
			if (!error) throw new Error(`${node} ${parameters.resource}/${parameters.operation} should have failed`);
			return error;
		},
		async control(method, path, body) {
			const res = await localRequest(`${emu.url}/__emulator${path}`, method === 'GET' ? { method } : { method, json: body || {} });
			return res.json();
		},
		/** Calls the management API directly (as a client would), for setting up state. */
		async api(path, body = {}, username = 'demo', password = 'demo-password') {
			const post = (p, b) => localRequest(`${emu.url}/API/${p}`, { method: 'POST', json: b }).then((r) => r.json());
			v._tokens = v._tokens || {};
			// any dialect: `code` may be "1", and a log-in of the node may end this token (loginInvalidates)
			for (let attempt = 1; ; attempt++) {
				if (!v._tokens[username]) {
					const auth = await post('OAuth/authorize', { username, password });
					if (Number(auth.code) !== 1) throw new Error(`log-in failed: ${auth.message}`);
					v._tokens[username] = auth.access_token;
				}
				const answer = await post(path, { ...body, token: v._tokens[username] });
				if (Number(answer.code) !== -1 || attempt > 1) return answer;
				delete v._tokens[username];
			}
		},
		/** A resource locator value "By ID". */
		byId: (id) => ({ __rl: true, mode: 'id', value: String(id) }),
		async close() {
			await emu.close();
		},
	};
	return v;
}

/**
 * Parameters of DNS Record > Add for several records: the first is the form's fields (Type, Host
 * Record, Value, Line, TTL, MX Priority, Weight), the others go in Additional Fields > More Records.
 */
function dnsRecords(rows) {
	const [first = {}, ...more] = rows;
	const params = {};
	for (const k of ['recordtype', 'subdomain', 'value', 'recordline', 'ttl', 'mx']) if (first[k] !== undefined) params[k] = first[k];
	const additionalFields = {};
	if (first.weight !== undefined) additionalFields.weight = first.weight;
	if (more.length) additionalFields.records = { rows: more };
	return { ...params, additionalFields };
}

module.exports = { startVendor, dnsRecords, n8n };

'use strict';
/**
 * The example workflows as tests run them, shared by examples.test.js (one n8n process,
 * `n8n execute`) and queue.test.js (queue mode: started through the main's webhooks, run on the
 * workers): the test variants generated from each example's JSON, the samples their triggers are
 * replaced by, and the checks of each run against the emulator's own state.
 *
 * A variant replaces the example's trigger by a start node (a Manual Trigger for `n8n execute`,
 * a Webhook for queue mode) followed by a Set node that takes the trigger's name and outputs a
 * sample of what the trigger emits, so connections and expressions such as
 * $('When chat message received') keep working. Everything after the trigger is the example as
 * shipped. The checks use jest's expect (a global of the test environment).
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

const load = (file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
const exampleFiles = () => fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort();

/** The examples' credential references: { type: { id, name } } of every node. */
function credentialRefs(workflow) {
	const refs = {};
	for (const node of workflow.nodes) for (const [type, ref] of Object.entries(node.credentials || {})) refs[type] = ref;
	return refs;
}

const isTrigger = (type) => /trigger$/i.test(type.split('.').pop());

function newId() {
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(crypto.randomBytes(16), (b) => abc[b % abc.length]).join('');
}

/**
 * The example with its trigger replaced. start: 'manual' (a Manual Trigger, for `n8n execute`) or
 * 'webhook' (a production Webhook on POST /webhook/<webhookPath> that answers with the last node's
 * items once the run has finished). With samples, a Set node named as the trigger outputs them
 * after the start node; without, the start node itself takes the trigger's name (a Schedule
 * Trigger's output is not used by the examples).
 */
function testVariant(workflow, samples, { start = 'manual', webhookPath } = {}) {
	const wf = structuredClone(workflow);
	const trigger = wf.nodes.find((n) => isTrigger(n.type));
	if (!trigger) throw new Error(`${workflow.name} has no trigger`);
	wf.id = newId();
	wf.name = `${workflow.name} (test)`;
	const first =
		start === 'webhook'
			? {
					id: 'test-webhook',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: crypto.randomUUID(),
					parameters: { httpMethod: 'POST', path: webhookPath || wf.id, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
				}
			: { id: 'test-manual', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
	first.position = [trigger.position[0] - 220, trigger.position[1]];
	const keep = wf.nodes.filter((n) => n !== trigger);
	if (!samples) {
		first.name = trigger.name;
		wf.nodes = [first, ...keep];
		return wf;
	}
	const sample =
		samples.length === 1
			? { type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'raw', jsonOutput: JSON.stringify(samples[0], null, 2), options: {} } }
			: { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: `return ${JSON.stringify(samples.map((json) => ({ json })))};` } };
	Object.assign(sample, { id: trigger.id, name: trigger.name, position: trigger.position });
	wf.nodes = [first, sample, ...keep];
	wf.connections[first.name] = { main: [[{ node: trigger.name, type: 'main', index: 0 }]] };
	return wf;
}

const chat = (chatInput) => [{ sessionId: 'examples-test', action: 'sendMessage', chatInput }];
const PURGE_URLS = ['https://www.example.com/index.html', 'https://static.example.com/img/logo.png'];

/** The variants the example tests run, by key: [example file, samples]. */
const PLANNED = {
	report: ['balance-invoice-report.json'],
	restartBatch: ['chat-server-restart.json', chat('Hi! batch-1 stopped answering, could you restart it please?')],
	restartNone: ['chat-server-restart.json', chat('restart the server please')],
	restartRunning: ['chat-server-restart.json', chat('web-1 is slow, please restart it')],
	purgeTwo: ['chat-cache-purge.json', chat(`Please purge ${PURGE_URLS[0]} and ${PURGE_URLS[1]}.`)],
	purgeNone: ['chat-cache-purge.json', chat('purge the cache')],
	purgeOutside: ['chat-cache-purge.json', chat('please purge https://www.not-ours-example.org/page.html')],
	backup: ['nightly-dns-backup.json'],
	inbox: ['inbox-to-processed.json'],
};

/** The message the note on an example's canvas suggests typing into its chat ("write e.g. **"…"**"). */
function suggestedMessage(file) {
	const note = load(file).nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');
	const m = /e\.g\. \*\*"([^"]+)"\*\*/.exec(note ? note.parameters.content : '');
	if (!m) throw new Error(`the note of ${file} suggests no message`);
	return m[1];
}

/**
 * The first run of each example as a user makes it in the sandbox, against the demo data as
 * `npm start` seeds it: the chat examples with the message their note suggests, the scheduled
 * ones as they are. Key: [example file, samples].
 */
const FIRST_RUNS = {
	restart: ['chat-server-restart.json', chat(suggestedMessage('chat-server-restart.json'))],
	purge: ['chat-cache-purge.json', chat(suggestedMessage('chat-cache-purge.json'))],
	inbox: ['inbox-to-processed.json'],
};

/**
 * A sentence a user can act on: words that start with a capital letter and end with a full stop,
 * a question mark or a link; no JSON, no code of the service, no "undefined".
 */
function expectSentence(text) {
	expect(typeof text).toBe('string');
	expect(text).toMatch(/^[A-Z][^{}\[\]]*([.?]|: https?:\/\/\S+)$/s);
	expect(text).not.toMatch(/\bcode -?\d+\b|X-Trans-Id|undefined|null|\[object/i);
	return text;
}

/** The emulator as any client sees it: the management API (logged in as demo) and control routes. */
function emulatorClient(url) {
	let token;
	const post = (pathname, b) =>
		fetch(`${url}/API/${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
	return {
		url,
		async api(p, body = {}) {
			for (let attempt = 0; ; attempt++) {
				if (!token) token = (await post('OAuth/authorize', { username: 'demo', password: 'demo-password' })).access_token;
				const res = await post(p, { ...body, token });
				// the token of this client may have been revoked by a test: log in again once
				if (res.code === -1 && attempt === 0) {
					token = undefined;
					continue;
				}
				if (res.code !== 1) throw new Error(`${p}: ${res.message}`);
				return res;
			}
		},
		async control(method, p, body) {
			const res = await fetch(`${url}/__emulator${p}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: method === 'GET' ? undefined : JSON.stringify(body || {}),
			});
			return res.json();
		},
	};
}

/* ---------------- the checks, one per planned variant ---------------- */

/**
 * Weekly report: the Billing Report's one item, its figures those of the emulator (n8n runs in
 * UTC, GENERIC_TIMEZONE, and the emulator writes UTC times), and the e-mail made of it.
 */
async function checkReport(result, { api }) {
	expect(result.nodes['Billing Report'].items).toHaveLength(1);
	const [report] = result.nodes['Billing Report'].items;
	const balance = Number((await api('profile/balance')).data[0].price);
	const payments = (await api('profile/payList', { page: 1, limit: 1000 })).data;
	const invoices = (await api('profile/invoiceList', { page: 1, limit: 1000 })).data;
	const from = Date.parse(report.from);
	const to = Date.parse(report.to);
	const at = (s) => new Date(`${s.replace(' ', 'T')}Z`).getTime();
	const inPeriod = (r) => at(r.created) >= from && at(r.created) <= to;
	const sum = (rows) => Math.round(rows.reduce((t, r) => t + Number(r.price), 0) * 100) / 100;
	const spending = payments.filter(inPeriod).filter((p) => p.type_zh === 'Consumption');
	const refunds = payments.filter(inPeriod).filter((p) => p.type_zh === 'Refund');
	const money = (n) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

	expect(to - from).toBe(30 * 86400000);
	expect(report).toMatchObject({
		period: 'Last 30 Days',
		timeZone: 'UTC',
		balance,
		spent: sum(spending),
		payments: spending.length,
		refunded: sum(refunds),
		refunds: refunds.length,
		invoices: invoices.length,
		invoiceAmount: sum(invoices),
		newInvoices: invoices.filter(inPeriod).length,
		invoicesWithoutTracking: invoices.filter((i) => !i.expresscode).length,
		invoiceableAmount: Number((await api('profile/invoiceBalance')).data.invoiceprice),
	});
	// the demo history has spending inside and outside the 30 days
	expect(spending.length).toBeGreaterThan(0);
	expect(spending.length).toBeLessThan(payments.filter((p) => p.type_zh === 'Consumption').length);
	expect(Object.values(report.spentByService).reduce((a, b) => a + b, 0)).toBeCloseTo(report.spent, 2);
	expect(report.text).toContain(`Balance: ${money(balance)}.`);
	expect(report.text).toContain(`spent ${money(sum(spending))} in ${spending.length} payment`);
	expect(result.nodes['E-Mail Content'].items).toEqual([{ subject: 'Vendor billing report: Last 30 Days', text: report.text, html: report.html }]);
	expect(result.lastNode).toBe('E-Mail Content');
}

const hostNamed = async (api, name) => (await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === name);

/** Before the restart variant: batch-1, the demo's stopped host. Returns it. */
async function beforeRestartBatch({ api }) {
	const before = await hostNamed(api, 'batch-1');
	expect(before.status).toBe('2');
	return before;
}

/** A message naming a stopped host reboots it, waits until it runs and answers. */
async function checkRestartBatch(result, { api }, before) {
	expect(result.nodes['Find Host'].items).toEqual([expect.objectContaining({ found: true, name: 'batch-1', id: before.id, status: 'Paused', statusCode: '2' })]);
	const [rebooted] = result.nodes['Reboot and Wait'].items;
	// simplified, like a listed host: the status in words and its code, no API field names
	expect(rebooted).toMatchObject({ id: before.id, instanceId: before.instance_id, name: 'batch-1', status: 'Running', statusCode: '1' });
	expect(Object.keys(rebooted).filter((k) => /_|^(paytype|createtime)$/.test(k))).toEqual([]);
	// the wait says what it saw: stopped before the reboot, running after it, so the reboot is proven
	expect(rebooted.wait).toMatchObject({ operation: 'reboot', before: 'Paused', observed: ['Running'], proven: true });
	expect(result.nodes['Answer'].items).toEqual([{ output: `Done: batch-1 (${before.instance_id}) was rebooted and is running again.` }]);
	expect(result.nodes['Ask Which Host']).toBeUndefined();
	expect(result.nodes['Sent, Not Seen']).toBeUndefined();
	expect(result.lastNode).toBe('Answer');
	// the emulator agrees
	expect((await hostNamed(api, 'batch-1')).status).toBe('1');
}

/**
 * A message naming a running host: the service lists it as running right after the reboot, so the
 * restart cannot be confirmed; the chat says so in one plain sentence, with what the user can do.
 */
async function checkRestartRunning(result, { api }) {
	const web = (await api('instance/list', { page: 1, limit: 100 })).data.find((h) => h.name === 'web-1');
	const [rebooted] = result.nodes['Reboot and Wait'].items;
	expect(rebooted).toMatchObject({ id: web.id, name: 'web-1' });
	expect(rebooted.wait).toMatchObject({ operation: 'reboot', proven: false });
	expect(result.nodes['Answer']).toBeUndefined();
	const [{ output }] = result.nodes['Sent, Not Seen'].items;
	expect(output).toBe(
		`I sent the reboot to web-1 (${web.instance_id}), but the service shows no restart in progress, so I cannot confirm that it has finished: if web-1 still does not answer in a few minutes, ask me to restart it again.`,
	);
	// one sentence, no word of the project's own
	expect(output.match(/[.!?](\s|$)/g)).toHaveLength(1);
	expect(output).not.toMatch(/seed|dialect|emulator/i);
}

/** A message naming no host reboots nothing and asks which host. */
async function checkRestartNone(result, { api }) {
	const hosts = (await api('instance/list', { page: 1, limit: 100 })).data;
	expect(result.nodes['Reboot and Wait']).toBeUndefined();
	const [answer] = result.nodes['Ask Which Host'].items;
	expect(answer.output).toMatch(/^Which host should I restart\? No host is named in "restart the server please" \(looked for a name, an instance ID or an IP address\); hosts: .*\.$/);
	for (const h of hosts) expect(answer.output).toContain(h.name);
	expect(result.lastNode).toBe('Ask Which Host');
}

/**
 * The URLs of the message are refreshed on the CDN and the answer comes when the task succeeded.
 * waitedMs: how long the run took, which must cover the emulator's task delay (taskDelayMs).
 */
async function checkPurgeTwo(result, { api }, { waitedMs, taskDelayMs }) {
	const urls = PURGE_URLS;
	expect(PLANNED.purgeTwo[1][0].chatInput).toBe(`Please purge ${urls[0]} and ${urls[1]}.`);
	const [task] = result.nodes['Refresh and Wait'].items;
	expect(task.urls).toEqual(urls); // found in the message by the node (Find URLs in Text), the full stop left out
	expect(task.outcome).toBe('success'); // the wait's result; the task's own status stays as the service sent it
	expect(task.id).toMatch(/^\d+$/);
	expect(result.nodes['Answer'].items).toEqual([{ output: `Purged 2 URL(s) on the CDN (task ${task.id}).` }]);
	// the emulator holds the task with these URLs, finished, and reports it successful
	const status = await api('cdn/refreshStatus', { id: Number(task.id) });
	expect(JSON.stringify(status.data)).toContain(`"${task.id}":"success"`);
	const list = (await api('cdn/refreshList', { page: 1, limit: 100 })).data;
	expect(list.find((t) => t.id === task.id)).toMatchObject({ urls, status: '1' });
	// the emulator keeps a task processing for taskDelayMs: the workflow waited for it
	expect(waitedMs).toBeGreaterThan(taskDelayMs);
}

/** A message without URLs asks for them. */
function checkPurgeNone(result) {
	expect(result.nodes['Refresh and Wait']).toBeUndefined();
	expect(result.nodes['Ask for URLs'].items[0].output).toMatch(/^Send me the full URLs/);
}

/** Before the purge of a URL outside the channels: the number of tasks. */
async function beforePurgeOutside({ api }) {
	return (await api('cdn/refreshList', { page: 1, limit: 1000 })).data.length;
}

/** A URL outside the account's channels is not sent; the node's error output tells the chat why. */
async function checkPurgeOutside(result, { api }, tasksBefore) {
	expect(result.nodes['Succeeded?']).toBeUndefined();
	const [answer] = result.nodes['Purge Refused'].items;
	expect(answer.output).toMatch(
		/^I did not send the purge: URL 1 \(https:\/\/www\.not-ours-example\.org\/page\.html\) is outside every CDN channel of the account, so the CDN cannot purge it; channels: .*www\.example\.com.*\. Give URLs of your channels only/,
	);
	expect(result.lastNode).toBe('Purge Refused');
	expect((await api('cdn/refreshList', { page: 1, limit: 1000 })).data.length).toBe(tasksBefore);
}

/** `iso` as the alert says it in the workflow's time zone (UTC in the tests: GENERIC_TIMEZONE): "29 Nov 2026 at 04:31:39 (UTC)". */
function seenOn(iso) {
	const d = new Date(iso);
	const two = (n) => String(n).padStart(2, '0');
	const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
	return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()} at ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} (UTC)`;
}

/** The host alert: the trigger's event (host `web` turned abnormal with `note`, seen at `seenAt`) becomes one alert message, its time in the workflow's time zone. */
function checkAlert(result, { web, note, seenAt }) {
	expect(result.nodes['Alert Message'].items).toEqual([
		expect.objectContaining({
			severity: 'critical',
			sample: false,
			hostId: web.id,
			host: 'web-1',
			text: `Host web-1 (${web.instance_id}) in ${web.node_zh} is Abnormal (it was running): ${note}. Seen on ${seenOn(seenAt)}.`,
		}),
	]);
}

/** Files put into inbox/ before the inbox example runs: two at its top, one in a subfolder (left alone). */
const INBOX = { 'inbox/report.csv': 'a,b\n1,2\n', 'inbox/photo.txt': 'not really a photo', 'inbox/later/keep.txt': 'in a subfolder' };

async function beforeInbox({ control }) {
	await control('POST', '/storage/objects', { bucket: 'demo-bucket', objects: [{ key: 'inbox/', body: '' }, ...Object.entries(INBOX).map(([key, body]) => ({ key, body }))] });
}

/** Inbox to processed: the files of inbox/ moved to processed/<date>/, each with a link that downloads it. */
async function checkInbox(result, { control }) {
	const today = new Date().toISOString().slice(0, 10);
	const posted = result.nodes['Post Link'].items;
	expect(posted.map((p) => p.key).sort()).toEqual([`processed/${today}/photo.txt`, `processed/${today}/report.csv`]);
	const keys = (await control('GET', '/storage/objects?bucket=demo-bucket')).objects.map((o) => o.key);
	expect(keys).toEqual(expect.arrayContaining(['inbox/', 'inbox/later/keep.txt', `processed/${today}/photo.txt`, `processed/${today}/report.csv`]));
	expect(keys).not.toContain('inbox/report.csv');
	expect(keys).not.toContain('inbox/photo.txt');
	for (const p of posted) {
		const body = INBOX[`inbox/${p.file}`];
		expect(p).toMatchObject({ size: Buffer.byteLength(body), text: expect.stringContaining(p.link) });
		const res = await fetch(p.link);
		expect(res.status).toBe(200);
		expect(await res.text()).toBe(body);
	}
}

/** Nightly DNS backup: a date-stamped JSON file in the bucket and a presigned link that downloads it. */
async function checkBackup(result, { api, control }) {
	const today = new Date().toISOString().slice(0, 10);
	const key = `backups/dns/dns-backup-${today}.json`;
	const [summary] = result.nodes['Backup Summary'].items;
	expect(summary).toMatchObject({ bucket: 'demo-bucket', key, link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/demo-bucket\/backups\/dns\//) });
	expect(new Date(summary.linkExpiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86400000);

	// the object is in the bucket, with the size the upload reported
	const listing = await control('GET', `/storage/objects?bucket=demo-bucket`);
	const stored = listing.objects.find((o) => o.key === key);
	expect(stored).toBeDefined();
	expect(Number(stored.size)).toBe(summary.size);

	// the presigned link downloads it, and it holds every domain with all of its records
	const res = await fetch(summary.link);
	expect(res.status).toBe(200);
	const backup = JSON.parse(await res.text());
	expect(Buffer.byteLength(JSON.stringify(backup, null, 2))).toBeGreaterThan(0);
	const domains = (await api('dns/domainList', { page: 1, limit: 100 })).data;
	expect(backup.domains.map((d) => d.name).sort()).toEqual(domains.map((d) => d.name).sort());
	const demo = backup.domains.find((d) => d.name === 'example-demo.com');
	const records = (await api('dns/recordList', { did: Number(demo.id), page: 1, limit: 1000 })).data;
	expect(demo.records.map((r) => r.id).sort()).toEqual(records.map((r) => r.id).sort());
	expect(demo.records.map((r) => `${r.subdomain} ${r.recordtype} ${r.value}`)).toContain('@ MX mail.example-demo.com');
	expect(summary).toMatchObject({ domains: domains.length, records: backup.recordCount });
	// and it ends in a sentence
	expect(summary.text).toBe(`Backed up ${domains.length} domain(s) with ${backup.recordCount} DNS record(s) to demo-bucket/${key} (${summary.size} bytes). Download link, valid for 7 days: ${summary.link}`);
	// a link with a changed signature is refused: the link is what grants access
	const forged = summary.link.replace(/Signature=[^&]+/, 'Signature=AAAA');
	expect((await fetch(forged)).status).toBe(403);
}

module.exports = {
	EXAMPLES,
	load,
	exampleFiles,
	credentialRefs,
	isTrigger,
	testVariant,
	chat,
	PLANNED,
	FIRST_RUNS,
	suggestedMessage,
	expectSentence,
	seenOn,
	emulatorClient,
	hostNamed,
	checks: {
		report: checkReport,
		beforeRestartBatch,
		restartBatch: checkRestartBatch,
		restartNone: checkRestartNone,
		purgeTwo: checkPurgeTwo,
		purgeNone: checkPurgeNone,
		beforePurgeOutside,
		purgeOutside: checkPurgeOutside,
		restartRunning: checkRestartRunning,
		alert: checkAlert,
		backup: checkBackup,
		beforeInbox,
		inbox: checkInbox,
	},
};

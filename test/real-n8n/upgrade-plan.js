'use strict';
/**
 * What the recorder (scripts/record-upgrade-fixtures.js) saves as upgrade fixtures: one workflow
 * per node type of the package, with non-default values in every kind of parameter the node has
 * (options, multiOptions, collection, fixedCollection, resource locators in each mode they offer:
 * From List, By ID, By Name), and the example workflows. The recorder turns each into what n8n's
 * editor stores (only the parameters that differ from their defaults), saves it through real n8n
 * and records what it sends. The test never reads this file: it reads the saved fixtures.
 *
 * A workflow here: { file, name, type (node name without the package), typeVersion, nodes:
 * [{ name, parameters }], run }. Action workflows start at a Manual Trigger connected to every
 * node; n8n runs the nodes one after another, top to bottom. `run` says how the test runs it:
 *   { kind: 'execute' }                          `n8n execute-batch`
 *   { kind: 'trigger', before, change }          published; `before`: emulator control routes
 *                                                ({ route, body }) or API calls ({ api, body }) made
 *                                                before publishing; `change`: control routes made
 *                                                between two polls, so that the next poll emits
 *   { kind: 'mcp', mcp: { bearer, calls } }      published; tools called with the MCP client
 * and optionally `timing` (emulator timings), `variant` (the trigger of an example replaced by a
 * Manual Trigger and these samples, as examples.test.js does), `bodyFromRun` (nodes whose upload
 * body is made from the service's answers; their Content-MD5 is not compared).
 *
 * Demo data the values refer to (test/emulator, seed "demo"): hosts web-1 (1001), db-1 (1002),
 * batch-1 (1003, stopped); data centres North Zone 1 (1) ... ; group Operators (1); sub-account
 * demo_ops (10002); CDN channels www.example.com (1001) ... ; refresh tasks 1, 2 and prefetch 3;
 * firewall web-sg (101) with rule 1; network backend (201); cloud disk db-data (504, on db-1);
 * DNS domain example-demo.com (3001) with records 70001-70007; plans Free ... Enterprise (1-4);
 * bucket demo-bucket with hello.txt and data/sample.json; backup db-1-weekly (301).
 */

const rl = (mode, value, cachedResultName) => ({ __rl: true, mode, value: String(value), ...(cachedResultName ? { cachedResultName } : {}) });
const list = (value, name) => rl('list', value, name);
const byId = (value) => rl('id', value);
const byName = (value) => rl('name', value);

/** Poll every 30 s (two poll times a minute; n8n refuses anything shorter than a minute per entry). */
const POLL_EVERY_30_S = { item: [0, 30].map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })) };

const HOST_PASS = 'Upgrade-fixture-9';

/** Host > Create; `single`: one host billed by the hour (type and coupon left at their defaults). */
const hostCreate = (name, extra = {}, { single = false } = {}) => {
	const p = {
	resource: 'host',
	operation: 'create',
	name,
	nodeid: list(1, 'North Zone 1'),
	cpuid: byId(2),
	memid: list(3, '4 GB'),
	imageid: byName('Debian 12 64-bit'),
	networkid: list(5, 'BGP'),
	networkvalue: 5,
	type: 2,
	couponprice: 1.5,
	pass: HOST_PASS,
	num: 2,
	...extra,
	};
	if (single) for (const k of ['type', 'couponprice', 'num']) delete p[k];
	return p;
};

/** Trigger scenes: db-1-weekly (301) runs again (pending at the baseline), then ends with `status` (1 completed, 2 failed). */
const backupRunsAgainThenEnds = (status) => ({
	kind: 'trigger',
	timing: { backupMs: 3600000 },
	before: [{ route: 'POST /management/instance/backups/status', body: { id: 301, status: 0 } }],
	change: [{ route: 'POST /management/instance/backups/status', body: { id: 301, status } }],
});
/** An object lands in demo-bucket under `key` between two polls (written by the emulator, not by a node). */
const objectLands = (key) => ({
	kind: 'trigger',
	change: [{ route: 'POST /storage/objects', body: { bucket: 'demo-bucket', objects: [{ key, body: `upgrade fixture ${key}` }] } }],
});
/** The account's alarm value (set first) is read at every poll; the balance drops below it. */
const balanceDropsBelowAlarm = {
	kind: 'trigger',
	before: [{ api: 'profile/balanceAlarm', body: { alarm: 1, alarm_value: 100 } }],
	change: [{ route: 'POST /management/balance', body: { username: 'demo', price: 20 } }],
};
/** web-1 (1001) turns abnormal. */
const hostTurnsAbnormal = { kind: 'trigger', change: [{ route: 'POST /management/instance/hosts/status', body: { id: 1001, status: 3, suspend_note: 'disk errors' } }] };

const workflows = [
	{
		file: 'account-billing',
		name: 'Upgrade fixture: Account & Billing',
		type: 'vendorAccountBilling',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			{ name: 'Set Balance Alarm', parameters: { resource: 'balance', operation: 'setAlarm', additionalFields: { alarmValue: 250.5, alarmNum: 2 } } },
			{ name: 'Refunds', parameters: { resource: 'payment', operation: 'getAll', returnAll: true, simplify: false, filters: { type: 2 }, options: { concurrency: 2 } } },
			{ name: 'Report of the Last 7 Days', parameters: { resource: 'report', operation: 'get', period: 'last7Days', additionalFields: { currency: 'CNY' } } },
			{ name: 'Finance Log of 2025', parameters: { resource: 'log', operation: 'getAll', limit: 5, filters: { type: 'finance', start: '2025-01-01T00:00:00', end: '2025-06-30T23:59:59' } } },
			{ name: 'Rename Group by Name', parameters: { resource: 'group', operation: 'update', id: byName('Operators'), updateFields: { note: 'renamed by the upgrade fixture' } } },
			{ name: 'Add Permissions from List', parameters: { resource: 'groupPermission', operation: 'add', gid: list(1, 'Operators'), value: ['API/profile/balance', 'API/profile/payList'] } },
			{
				name: 'Sub-Account Permissions by ID',
				parameters: { resource: 'subAccount', operation: 'setPermissions', uid: byId(10002), perms: { rows: [{ type: 1, ids: '1001, 1002' }, { type: 5, ids: '3001' }] } },
			},
			{
				name: 'Create Sub-Account',
				parameters: {
					resource: 'subAccount',
					operation: 'create',
					username: 'upgradesub1',
					password: 'Upgrade-sub-pass1',
					additionalFields: { mail: 'upgradesub@example.com', status: 0, weekReport: '0', cdnconfig: { rows: [{ type: 'download', billtype: 'flow' }] } },
				},
			},
		],
	},
	{
		file: 'cdn',
		name: 'Upgrade fixture: CDN',
		type: 'vendorCdn',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			{
				name: 'Create Channel',
				parameters: {
					resource: 'channel',
					operation: 'create',
					name: 'upgrade.example.com',
					type: 'download',
					origins: { rows: [{ ip: '203.0.113.20', port: 8080, weight: 2 }, { ip: '203.0.113.21', port: 8081, weight: 1 }] },
					additionalFields: { note: 'made by the upgrade fixture', originSty: 'wgt', backupOrigins: { rows: [{ ip: '203.0.113.30', port: 8090 }] }, cacheIgnoreQuery: 'off' },
				},
			},
			{ name: 'Channel by Name', parameters: { resource: 'channel', operation: 'get', id: byName('www.example.com'), simplify: false } },
			{ name: 'Channel Log from List', parameters: { resource: 'channelLog', operation: 'getAll', id: list(1001, 'www.example.com'), returnAll: true, filters: { begintime: '2026-01-01', endtime: '2026-01-03' } } },
			{
				name: 'Breakdown of Yesterday',
				parameters: { resource: 'statistic', operation: 'getBreakdown', domainIds: ['1001', '1002'], viewtype: 'yesterday', additionalFields: { types: ['cache', 'code'], serviceTypes: ['cloud', 'static'] } },
			},
			{ name: 'Refresh Directory and Wait', parameters: { resource: 'cacheRefresh', operation: 'create', type: 'dir', urls: 'https://static.example.com/img/', waitForCompletion: true, waitTimeout: 60, pollInterval: 1 } },
			{ name: 'Repeat Refresh by ID', parameters: { resource: 'cacheRefresh', operation: 'repeat', id: byId(1) } },
			{ name: 'Prefetch Tasks of Two Channels', parameters: { resource: 'task', operation: 'getAll', returnAll: true, filters: { domainIds: ['1001', '1003'], preload: 1 } } },
		],
	},
	{
		file: 'cloud-host-v1',
		name: 'Upgrade fixture: Cloud Host, version 1',
		type: 'vendorCloudHost',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			// version 1 sends its 40 GB system disk although the workflow holds no disk size
			{ name: 'Create Two Hosts', parameters: hostCreate('upgrade-v1') },
			{ name: 'Create Host with 80 GB', parameters: hostCreate('upgrade-v1-big', { diskvalue: 80 }, { single: true }) },
			{ name: 'Reboot Two Hosts', parameters: { resource: 'host', operation: 'reboot', id: ['1001', '1003'], waitUntilRunning: true, waitTimeout: 60 } },
			{
				name: 'Resize db-1 by Name',
				parameters: { resource: 'host', operation: 'updateConfiguration', iid: byName('db-1'), diskresize: { rows: [{ disk: '504', size: 120 }] }, updateFields: { cpuid: '3' } },
			},
			{ name: 'Resize System Disk from List', parameters: { resource: 'hostDisk', operation: 'resize', iid: byId(1001), id: list(501, 'system disk'), value: 60 } },
			{ name: 'Running Hosts in North Zone 1', parameters: { resource: 'host', operation: 'getAll', returnAll: true, filters: { status: 1, nodeid: '1' } } },
			{ name: 'Note on Snapshot by Name', parameters: { resource: 'snapshot', operation: 'update', iid: list(1001, 'web-1'), id: byName('web-1-before-upgrade'), updateFields: { note: 'kept by the upgrade fixture' } } },
		],
	},
	{
		file: 'cloud-host-v1.1',
		name: 'Upgrade fixture: Cloud Host, version 1.1',
		type: 'vendorCloudHost',
		typeVersion: 1.1,
		run: { kind: 'execute' },
		nodes: [
			// version 1.1 sends no disk size unless one is set
			{ name: 'Create Two Hosts', parameters: hostCreate('upgrade-v11') },
			{ name: 'Create Host with 80 GB', parameters: hostCreate('upgrade-v11-big', { additionalFields: { diskvalue: 80, note: 'disk size set' } }, { single: true }) },
			{ name: 'Stop db-1', parameters: { resource: 'host', operation: 'stop', id: ['1002'] } },
			{ name: 'Start Hosts', parameters: { resource: 'host', operation: 'start', id: ['1003', '1002'] } },
		],
	},
	{
		file: 'disk-network-firewall',
		name: 'Upgrade fixture: Disk, Network & Firewall',
		type: 'vendorDiskNetworkFirewall',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			{ name: 'Create Disk by Data Centre Name', parameters: { resource: 'cloudDisk', operation: 'create', nodeid: byName('North Zone 1'), diskName: 'upgrade-disk', value: 20, additionalFields: { note: 'made by the upgrade fixture' } } },
			{ name: 'Detach db-data by Name', parameters: { resource: 'cloudDisk', operation: 'detach', diskId: byName('db-data') } },
			{ name: 'Attach db-data to web-1', parameters: { resource: 'cloudDisk', operation: 'attach', diskIds: ['504'], iid: list(1001, 'web-1') } },
			{ name: 'Disks in Use', parameters: { resource: 'cloudDisk', operation: 'getAll', returnAll: true, simplify: false, filters: { status: 1, nodeid: '1' } } },
			{
				name: 'Add Rule by Firewall Name',
				parameters: {
					resource: 'firewallRule',
					operation: 'add',
					fid: byName('web-sg'),
					direction: 'out',
					ruleAction: 'REJECT',
					protocol: 'udp',
					destport: '53',
					source: '10.0.0.0/8',
					status: 0,
					additionalFields: { note: 'no outside DNS' },
				},
			},
			{ name: 'Update Rule from List', parameters: { resource: 'firewallRule', operation: 'update', fid: byId(101), ruleId: list(1, 'in tcp 22'), updateFields: { destport: '2222', protocol: 'tcp', ruleAction: 'REJECT' } } },
			{ name: 'web-1 Leaves its Network', parameters: { resource: 'network', operation: 'leave', iid: byName('web-1') } },
			{ name: 'web-1 Joins Network by ID', parameters: { resource: 'network', operation: 'join', networkId: byId(201), iid: list(1001, 'web-1') } },
		],
	},
	{
		file: 'dns',
		name: 'Upgrade fixture: DNS',
		type: 'vendorDns',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			{
				name: 'Add Records by Domain Name',
				parameters: {
					resource: 'record',
					operation: 'add',
					did: byName('example-demo.com'),
					recordtype: 'TXT',
					subdomain: 'upgrade',
					value: 'v=upgrade1',
					ttl: 600,
					recordline: 'telecom',
					simplify: false,
					additionalFields: { records: { rows: [{ subdomain: 'mail2', recordtype: 'MX', value: 'mx2.example-demo.com', mx: 5, ttl: 300, recordline: 'default', weight: 1 }] } },
				},
			},
			{ name: 'MX Records from List', parameters: { resource: 'record', operation: 'getAll', did: list(3001, 'example-demo.com'), returnAll: true, filters: { recordtype: 'MX' } } },
			{ name: 'Star Domain by ID', parameters: { resource: 'domain', operation: 'star', did: byId(3001) } },
			{ name: 'Delete Two Records', parameters: { resource: 'record', operation: 'delete', did: byId(3001), recordIds: ['70006', '70007'] } },
			{ name: 'Create Template by Plan Name', parameters: { resource: 'template', operation: 'create', pid: byName('Personal'), name: 'upgrade-template', additionalFields: { status: 0, note: 'made by the upgrade fixture' } } },
		],
	},
	{
		file: 'object-storage',
		name: 'Upgrade fixture: Object Storage',
		type: 'vendorObjectStorage',
		typeVersion: 1,
		run: { kind: 'execute' },
		nodes: [
			{ name: 'Create Bucket', parameters: { resource: 'bucket', operation: 'create', bucketName: 'upgrade-bucket', acl: 'public-read' } },
			{
				name: 'Upload Text by Bucket Name',
				parameters: {
					resource: 'object',
					operation: 'upload',
					bucket: byName('demo-bucket'),
					key: 'upgrade/notes.txt',
					binaryData: false,
					fileContent: 'saved by the upgrade fixture\n',
					additionalFields: { contentType: 'text/plain', acl: 'authenticated-read', cacheControl: 'no-cache', metadata: { values: [{ name: 'source', value: 'upgrade' }] } },
				},
			},
			{ name: 'List Bucket from List', parameters: { resource: 'bucket', operation: 'listObjects', bucket: list('demo-bucket', 'demo-bucket'), returnAll: true } },
			{ name: 'Download from List', parameters: { resource: 'object', operation: 'download', bucket: byName('demo-bucket'), key: list('hello.txt', 'hello.txt'), binaryPropertyName: 'file' } },
			{
				name: 'Initiate Upload',
				parameters: {
					resource: 'multipartUpload',
					operation: 'initiate',
					bucket: byName('demo-bucket'),
					key: 'upgrade/big.bin',
					additionalFields: { contentType: 'application/octet-stream', metadata: { values: [{ name: 'part', value: 'one' }] } },
				},
			},
			{ name: 'Abort Upload', parameters: { resource: 'multipartUpload', operation: 'abort', bucket: byName('demo-bucket'), key: 'upgrade/big.bin', uploadId: "={{ $('Initiate Upload').first().json.uploadId }}" } },
			{ name: 'Delete Object by ID', parameters: { resource: 'object', operation: 'delete', bucket: list('demo-bucket', 'demo-bucket'), key: byId('data/sample.json') } },
		],
	},
	{
		file: 'trigger-account-billing',
		name: 'Upgrade fixture: Balance Trigger',
		type: 'vendorAccountBillingTrigger',
		typeVersion: 1,
		trigger: true,
		run: balanceDropsBelowAlarm,
		nodes: [{ name: 'Balance Below Alarm Value', parameters: { pollTimes: POLL_EVERY_30_S, thresholdSource: 'account', consumption: true } }],
	},
	{
		file: 'trigger-cdn',
		name: 'Upgrade fixture: CDN Task Trigger',
		type: 'vendorCdnTrigger',
		typeVersion: 1,
		trigger: true,
		run: backupRunsAgainThenEnds(1),
		nodes: [{ name: 'Backup Succeeded', parameters: { pollTimes: POLL_EVERY_30_S, kinds: ['backup'], finalState: 'succeeded' } }],
	},
	{
		file: 'trigger-cloud-host',
		name: 'Upgrade fixture: Cloud Host Trigger',
		type: 'vendorCloudHostTrigger',
		typeVersion: 1,
		trigger: true,
		run: hostTurnsAbnormal,
		nodes: [{ name: 'Host Abnormal in North Zone 1', parameters: { pollTimes: POLL_EVERY_30_S, events: ['statusChanged'], statuses: [3], dataCentres: ['1'] } }],
	},
	{
		file: 'trigger-cloud-host-backup',
		name: 'Upgrade fixture: Cloud Host Trigger, backup failed',
		type: 'vendorCloudHostTrigger',
		typeVersion: 1,
		trigger: true,
		run: backupRunsAgainThenEnds(2),
		nodes: [{ name: 'Backup Failed', parameters: { pollTimes: POLL_EVERY_30_S, events: ['backupFinished'], backupOutcome: 'failed' } }],
	},
	{
		file: 'trigger-object-storage',
		name: 'Upgrade fixture: Object Storage Trigger',
		type: 'vendorObjectStorageTrigger',
		typeVersion: 1,
		trigger: true,
		run: objectLands('inbox/upgrade-report.txt'),
		nodes: [
			{
				name: 'New or Changed in inbox/',
				parameters: { pollTimes: POLL_EVERY_30_S, bucket: list('demo-bucket', 'demo-bucket'), prefix: 'inbox/', includeSubfolders: false, event: 'newOrChanged', download: true, binaryPropertyName: 'file' },
			},
		],
	},
	{
		file: 'trigger-object-storage-by-name',
		name: 'Upgrade fixture: Object Storage Trigger, bucket by name',
		type: 'vendorObjectStorageTrigger',
		typeVersion: 1,
		trigger: true,
		run: objectLands('upgrade/new-object.txt'),
		nodes: [{ name: 'New Object', parameters: { pollTimes: POLL_EVERY_30_S, bucket: byName('demo-bucket') } }],
	},
	{
		file: 'trigger-old-name-balance',
		name: 'Upgrade fixture: vendorBalanceTrigger (the name before the rename)',
		type: 'vendorBalanceTrigger',
		typeVersion: 1,
		trigger: true,
		run: balanceDropsBelowAlarm,
		nodes: [{ name: 'Balance Below Alarm Value', parameters: { pollTimes: POLL_EVERY_30_S, thresholdSource: 'account' } }],
	},
	{
		file: 'trigger-old-name-task',
		name: 'Upgrade fixture: vendorTaskTrigger (the name before the rename)',
		type: 'vendorTaskTrigger',
		typeVersion: 1,
		trigger: true,
		run: backupRunsAgainThenEnds(2),
		nodes: [{ name: 'Task or Backup Failed', parameters: { pollTimes: POLL_EVERY_30_S, kinds: ['backup', 'refresh'], finalState: 'failed' } }],
	},
];

const chat = (chatInput) => [{ sessionId: 'upgrade-test', action: 'sendMessage', chatInput }];

/**
 * The example workflows (examples/<file>.json) and how each runs; `null`: saved as a fixture and
 * loaded, not run (the reason is given).
 */
const examples = {
	'balance-invoice-report': { kind: 'execute', variant: {} },
	'chat-server-restart': { kind: 'execute', variant: { samples: chat('Hi! batch-1 stopped answering, could you restart it please?') } },
	'chat-cache-purge': { kind: 'execute', variant: { samples: chat('Please purge https://www.example.com/index.html and https://static.example.com/img/logo.png.') } },
	'nightly-dns-backup': { kind: 'execute', variant: {}, bodyFromRun: ['Upload Backup'] },
	// the demo seed has no inbox/: the run lists it (one request) and ends there
	'inbox-to-processed': { kind: 'execute', variant: {} },
	'host-state-alert': hostTurnsAbnormal,
	'mcp-vendor-tools': {
		kind: 'mcp',
		mcp: {
			bearer: 'upgrade-test-bearer-1',
			calls: [
				{ tool: 'List_hosts', arguments: { limit: 2 } },
				{ tool: 'Reboot_hosts', arguments: { hosts: 'batch-1' } },
				{ tool: 'Purge_CDN_URLs', arguments: { urls: 'https://www.example.com/index.html' } },
				{ tool: 'Get_balance', arguments: {} },
				{ tool: 'List_invoices', arguments: { limit: 3 } },
			],
		},
	},
	// the AI agent's requests are what a model decides; ai.test.js runs it with a model double.
	// Here it is saved and loaded (its node types and versions are served), not run.
	'chat-agent-server-restart': { kind: 'load', reason: 'its requests depend on the model; test/real-n8n/ai.test.js runs it with a model double' },
};

module.exports = { workflows, examples, POLL_EVERY_30_S };

'use strict';
/**
 * Issue 25, section 3: output names and words that claim no more than the vendor's documents
 * say. Fields the documents list without a meaning keep their own names (`num` as `count`,
 * `username` as `username`, `*_num` as `…Num`), a prefetch task at status 0 is not called
 * "Refreshing", and descriptions do not state this emulator's behaviour as the vendor's. Every
 * test runs the built nodes through n8n-core against the emulator.
 */
const { startVendor, n8n } = require('../../support/vendor');

let v;
beforeAll(async () => {
	// tasks stay at status 0 for a minute, so the listing below sees them unfinished
	v = await startVendor({ seed: 'demo', management: { timing: { taskDelayMs: 60000, hostCreateMs: 150, hostReinstallMs: 150, backupMs: 150 } } });
});
afterAll(() => v.close());

const description = (node) => n8n.loadPackage().nodes[`${n8n.PREFIX}.${node}`].description;
const rows = async (path, body = {}) => {
	const answer = await v.api(path, { page: 1, limit: 1000, ...body });
	return answer.data ?? answer.result;
};

describe('names the documents give, no meaning added', () => {
	test.each([
		['firewall', 'instance/firewallList'],
		['network', 'instance/networkList'],
	])('%s: `num` is `count`, `username` is `username` (not hosts, not owner)', async (resource, path) => {
		const raw = await rows(path);
		const simple = await v.ok('vendorDiskNetworkFirewall', { resource, operation: 'getAll', returnAll: true });
		expect(simple.length).toBe(raw.length);
		for (const [i, r] of simple.entries()) {
			expect(r).not.toHaveProperty('hosts');
			expect(r).not.toHaveProperty('owner');
			expect(r.count).toBe(Number(raw[i].num));
			expect(r.username).toBe(raw[i].username);
		}
	});

	test('group: `username`, not owner', async () => {
		const [group] = await v.ok('vendorAccountBilling', { resource: 'group', operation: 'getAll', returnAll: true });
		expect(group).not.toHaveProperty('owner');
		expect(group.username).toBe('demo');
	});

	test('recharge: `name` as the record has it, not account', async () => {
		const raw = await rows('profile/rechargeList');
		const simple = await v.ok('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', returnAll: true });
		expect(simple.map((r) => r.name)).toEqual(raw.map((r) => r.name));
		expect(simple.every((r) => !('account' in r))).toBe(true);
	});

	test('certificate and traffic package: `username`, not owner or account', async () => {
		const certs = await v.ok('vendorCdn', { resource: 'certificate', operation: 'getAll', returnAll: true });
		expect(certs.length).toBeGreaterThan(0);
		for (const c of certs) expect(Object.keys(c)).toEqual(expect.arrayContaining(['username']));
		expect(certs.every((c) => !('owner' in c))).toBe(true);
		const packages = await v.ok('vendorCdn', { resource: 'trafficPackage', operation: 'getAll' });
		expect(packages.length).toBeGreaterThan(0);
		expect(packages.every((p) => !('account' in p) && typeof p.username === 'string')).toBe(true);
	});

	test('DNS plan: the *_num fields as …Num, not …Limit', async () => {
		const raw = await rows('dns/planList');
		const simple = await v.ok('vendorDns', { resource: 'plan', operation: 'getAll', returnAll: true });
		expect(simple.length).toBe(raw.length);
		for (const [i, p] of simple.entries()) {
			expect(Object.keys(p).filter((k) => k.endsWith('Limit'))).toEqual([]);
			expect(p).toMatchObject({
				strategyNum: Number(raw[i].strategy_num),
				strategyTemplateNum: Number(raw[i].strategy_template_num),
				recordNum: Number(raw[i].record_num),
				monitorNum: Number(raw[i].monitor_num),
			});
		}
	});
});

describe('CDN task status', () => {
	test('a prefetch task at status 0 is "Not Completed", a refresh task at 0 is "Refreshing"', async () => {
		await v.api('cdn/preload', { urls: 'https://www.example.com/claims-prefetch.js' });
		await v.api('cdn/refresh', { type: 'file', urls: 'https://www.example.com/claims-refresh.js' });
		const tasks = await v.ok('vendorCdn', { resource: 'task', operation: 'getAll', returnAll: true });
		const prefetch = tasks.find((t) => t.urls.includes('https://www.example.com/claims-prefetch.js'));
		const refresh = tasks.find((t) => t.urls.includes('https://www.example.com/claims-refresh.js'));
		expect(prefetch).toMatchObject({ kind: 'Prefetch', status: 'Not Completed', statusCode: '0' });
		expect(refresh).toMatchObject({ kind: 'Cache Refresh', status: 'Refreshing', statusCode: '0' });
	});
});

describe('descriptions say what the documents say, not what this emulator does', () => {
	const props = (node) => description(node).properties;
	const on = (p, resource, operation) => p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation);
	const opDescription = (node, resource, operation) =>
		props(node)
			.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.options.find((o) => o.value === operation).description;

	test('Host > Reboot does not promise that a stopped host comes back running', () => {
		expect(opDescription('vendorCloudHost', 'host', 'reboot')).not.toMatch(/stopped host comes back running/);
	});

	test('Host > Delete does not say the hosts are then gone with their system disks', () => {
		const notices = props('vendorCloudHost').filter((p) => p.type === 'notice' && on(p, 'host', 'delete'));
		expect(notices.length).toBeGreaterThan(0);
		for (const n of notices) expect(n.displayName).not.toMatch(/system disks/);
		expect(notices.map((n) => n.displayName).join(' ')).toMatch(/recycle bin/);
	});

	test('CDN statistics do not say empty Channels means all channels', () => {
		for (const operation of ['getBandwidth', 'getBreakdown']) {
			const channels = props('vendorCdn').find((p) => p.name === 'domainIds' && on(p, 'statistic', operation));
			expect(channels.description).not.toMatch(/all channels when empty/);
			expect(channels.description).toMatch(/not sent when empty/);
		}
	});
});

describe('Billing Report', () => {
	test('invoices without a tracking number are counted as just that, not as "not sent"', async () => {
		const [report] = await v.ok('vendorAccountBilling', { resource: 'report', operation: 'get', period: 'last30Days' });
		expect(report).not.toHaveProperty('invoicesNotSent');
		expect(report.invoicesWithoutTracking).toBe((await rows('profile/invoiceList')).filter((i) => !i.expresscode).length);
		expect(report.text).not.toMatch(/not sent/);
		expect(report.html).not.toMatch(/not sent/);
	});
});

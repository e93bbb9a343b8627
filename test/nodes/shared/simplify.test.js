'use strict';
/**
 * Output a person can read (issue 11, section 3), run through n8n-core against the emulator's
 * demo data: with Simplify (on by default) every node's records show words for the documented
 * codes (docs/vendor/readings.md#r5) next to the codes, times as ISO dates in the workflow's time
 * zone, amounts as numbers, and English names only (no `_zh`, no API field name); with Simplify
 * off the record is the service's, exactly as a direct call returns it.
 */
const { startVendor } = require('../../support/vendor');

let v;
beforeAll(async () => {
	v = await startVendor({ seed: 'demo' });
	// a channel closed (a status the documents give no word for: readings R5), a task, a firewall rule and a paused DNS record
	const channels = (await v.api('cdn/domainList', { page: 1, limit: 100 })).data;
	await v.api('cdn/domainClose', { domain_ids: [Number(channels.find((c) => c.name === 'static.example.com').id)] });
	await v.api('cdn/refresh', { type: 'dir', urls: 'https://www.example.com/assets/' });
	const fw = (await v.api('instance/firewallList', { page: 1, limit: 10 })).data[0];
	await v.api('instance/firewallRuleAdd', { fid: Number(fw.id), direction: 'out', action: 'REJECT', protocol: 'udp', destport: '53', status: 0 });
});
afterAll(() => v.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
/** English words that are also field names of the service (a simplified key may be one of them). */
const PLAIN_WORDS = new Set([
	'id', 'name', 'title', 'status', 'type', 'code', 'note', 'content', 'ip', 'ips', 'path', 'port', 'protocol', 'value', 'source',
	'destination', 'tag', 'weight', 'ttl', 'price', 'urls', 'month', 'city', 'province', 'country', 'continent', 'area', 'action',
	'direction', 'company', 'phone', 'group', 'image', 'found', 'message', 'total', 'host', 'records', 'hosts', 'memory', 'created',
	'platform', 'cname', 'progress', 'account', 'carrier', 'location', 'plan', 'owner', 'domain', 'size', 'month', 'username',
	// the documents' own words where they give no meaning (issue 35): kept as they came
	'locale', 'count', 'firewall',
]);

/** Runs an operation with and without Simplify and checks the rules every simplified record keeps. */
async function both(node, parameters, direct) {
	const simple = await v.ok(node, parameters);
	const raw = await v.ok(node, { ...parameters, simplify: false });
	expect(simple.length).toBe(raw.length);
	expect(simple.length).toBeGreaterThan(0);
	for (const [n, r] of simple.entries()) {
		for (const key of Object.keys(r)) {
			expect(key).toMatch(/^[a-z][A-Za-z]*$/); // English camelCase: no `type_zh`, no `node.areaname`
			// a service field name only where it is a plain English word (never `createtime`, `subdomain`, `paytype`)
			if (key in raw[n] && !PLAIN_WORDS.has(key)) throw new Error(`simplified ${parameters.resource}/${parameters.operation} keeps the API field "${key}"`);
		}
		for (const [key, value] of Object.entries(r)) {
			if (/^(created|updated|expires|time)$/.test(key) && value !== null) expect(value).toMatch(ISO);
			if (key.endsWith('Code')) expect(typeof value === 'string' || typeof value === 'number').toBe(true);
		}
	}
	// "… seconds ago" fields are written at each answer: two reads a second apart differ there
	const timeless = (rows) => JSON.parse(JSON.stringify(rows, (k, val) => (k.endsWith('_ago') ? undefined : val)));
	if (direct) expect(timeless(raw)).toEqual(timeless(await direct()));
	return { simple, raw };
}

const rows = async (path, body = {}) => {
	const answer = await v.api(path, { page: 1, limit: 1000, ...body });
	return answer.data ?? answer.result;
};

describe('Account & Billing', () => {
	test('payments: type and service in words (from the filter sent, or the display name), amounts as numbers', async () => {
		const { simple, raw } = await both('vendorAccountBilling', { resource: 'payment', operation: 'getAll', returnAll: true }, () => rows('profile/payList'));
		expect(raw[0]).toHaveProperty('type_zh');
		expect(new Set(simple.map((p) => p.type))).toEqual(new Set(['Consumption', 'Refund']));
		expect(simple.find((p) => p.name === 'Cloud DNS example.com')).toMatchObject({ type: 'Consumption', service: 'Cloud DNS', amount: 9.9, statusCode: '1' });
		// filtered by a code, the word is the documents' for that code
		const refunds = await v.ok('vendorAccountBilling', { resource: 'payment', operation: 'getAll', returnAll: true, filters: { type: 2 } });
		expect(refunds).toEqual([expect.objectContaining({ type: 'Refund', service: 'Cloud Disk', amount: 10 })]);
		// filtered by service 6 it is the package's word for code 6 (docs/vendor/readings.md#r54), and unfiltered the
		// demo's display name ("CDN traffic package") reads as the same word: one name per thing
		const traffic = await v.ok('vendorAccountBilling', { resource: 'payment', operation: 'getAll', returnAll: true, filters: { paytype: 6 } });
		expect(traffic[0].service).toBe('CDN Traffic Package');
		expect(simple.filter((p) => /traffic package/i.test(p.service)).map((p) => p.service)).toEqual(simple.filter((p) => /traffic package/i.test(p.service)).map(() => 'CDN Traffic Package'));
	});

	test('recharges, invoices, coupons and logs', async () => {
		const { simple: recharges } = await both('vendorAccountBilling', { resource: 'recharge', operation: 'getAll', returnAll: true }, () => rows('profile/rechargeList'));
		expect(recharges.map((r) => r.type).sort()).toEqual(['Alipay', 'Online Banking', 'System Recharge']);
		expect(typeof recharges[0].amount).toBe('number');

		const { simple: invoices } = await both('vendorAccountBilling', { resource: 'invoice', operation: 'getAll', returnAll: true }, () => rows('profile/invoiceList'));
		expect(invoices.find((i) => i.amount === 100)).toMatchObject({ holder: 'Enterprise', holderCode: '1', invoiceType: 'Ordinary VAT Invoice', invoiceTypeCode: '2', trackingNumber: 'EX100200300' });

		const { simple: coupons } = await both('vendorAccountBilling', { resource: 'coupon', operation: 'getAll', returnAll: true }, () => rows('profile/couponList'));
		expect(Object.fromEntries(coupons.map((c) => [c.code, `${c.status} ${c.statusCode}`]))).toMatchObject({
			WELCOME50: 'Unused 0',
			SPRING20: 'Activated 1',
			USED10: 'Used 2',
			VOID5: 'Void 3',
			OLD30: 'Expired 4',
		});
		expect(coupons.find((c) => c.code === 'SPRING20')).toMatchObject({ amount: 20, priceOver: 12.5 });

		const { simple: logs, raw: rawLogs } = await both('vendorAccountBilling', { resource: 'log', operation: 'getAll', returnAll: true });
		const words = { user: 'User', finance: 'Finance', instance: 'Cloud Host', webcdn: 'CDN', dns: 'DNS' };
		expect(logs.map((l) => l.type)).toEqual(rawLogs.map((l) => words[l.type]));
		expect(logs.map((l) => l.typeCode)).toEqual(rawLogs.map((l) => l.type));
		expect(new Set(logs.map((l) => l.type))).toContain('CDN');
	});

	test('account, balance, coupon balance and invoiceable amount as numbers', async () => {
		const [account] = await v.ok('vendorAccountBilling', { resource: 'account', operation: 'get' });
		expect(account).toMatchObject({ username: 'demo', email: 'demo@example.com', balance: expect.any(Number), couponBalance: 12.5, subAccounts: ['demo_ops'] });
		// the currency the service never names is said once per run, not in the record (docs/vendor/readings.md#r71)
		expect(await v.ok('vendorAccountBilling', { resource: 'balance', operation: 'get' })).toEqual([{ balance: account.balance }]);
		expect(await v.ok('vendorAccountBilling', { resource: 'coupon', operation: 'getBalance' })).toEqual([{ couponBalance: 12.5 }]);
		const [invoiceable] = await v.ok('vendorAccountBilling', { resource: 'invoice', operation: 'getBalance' });
		expect(invoiceable).toEqual({ invoiceableAmount: Number((await v.api('profile/invoiceBalance')).data.invoiceprice) });
	});

	test('sub-accounts: status in words', async () => {
		const { simple } = await both('vendorAccountBilling', { resource: 'subAccount', operation: 'getAll', returnAll: true }, () => rows('profile/subaccountList'));
		expect(simple[0]).toMatchObject({ username: 'demo_ops', status: 'Enabled', statusCode: '1', group: 'Operators' });
	});
});

describe('CDN', () => {
	test('channels: type and status in words; a status without a documented word shows the service\'s name', async () => {
		const { simple } = await both('vendorCdn', { resource: 'channel', operation: 'getAll', returnAll: true }, () => rows('cdn/domainList'));
		const byDomain = Object.fromEntries(simple.map((c) => [c.domain, c]));
		expect(byDomain['www.example.com']).toMatchObject({ type: 'Cloud', typeCode: 'cloud', status: 'Enabled', statusCode: '1', cacheType: expect.any(String) });
		expect(byDomain['static.example.com']).toMatchObject({ status: 'Closed', statusCode: '2' });
		expect(byDomain['live.example.com']).toMatchObject({ type: 'Live', typeCode: 'live' });
	});

	test('tasks: kind, type and state in words', async () => {
		const { simple } = await both('vendorCdn', { resource: 'task', operation: 'getAll', returnAll: true }, () => rows('cdn/refreshList'));
		const dir = simple.find((t) => t.urls.includes('https://www.example.com/assets/'));
		expect(dir).toMatchObject({ kind: 'Cache Refresh', kindCode: '0', type: 'Directory', typeCode: 'dir', urlCount: 1, viaApi: true });
		expect(['Refreshing', 'Completed']).toContain(dir.status);
	});

	test('statistics: Unix times as dates, figures as numbers', async () => {
		const www = (await rows('cdn/domainList')).find((c) => c.name === 'www.example.com');
		const [slot] = await v.ok('vendorCdn', { resource: 'statistic', operation: 'getBandwidth', domainIds: [www.id], viewtype: 'yesterday' });
		expect(slot).toMatchObject({ time: expect.stringMatching(ISO), requests: expect.any(Number), trafficBytes: expect.any(Number) });
	});
});

describe('Cloud Host', () => {
	test('hosts: status, line and billing in words, sizes as numbers', async () => {
		const { simple } = await both('vendorCloudHost', { resource: 'host', operation: 'getAll', returnAll: true }, () => rows('instance/list'));
		const byName = Object.fromEntries(simple.map((h) => [h.name, h]));
		expect(byName['web-1']).toMatchObject({ status: 'Running', statusCode: '1', line: 'BGP', lineCode: '5', billing: 'Monthly', billingCode: '2', dataCentre: 'North Zone 1', cpus: 2 });
		expect(byName['batch-1']).toMatchObject({ status: 'Paused', statusCode: '2' });
		expect(byName['db-1']).toMatchObject({ line: 'Inner Network', lineCode: '1' });
	});

	test('backups, lines and images', async () => {
		const { simple: backups } = await both('vendorCloudHost', { resource: 'backup', operation: 'getAll', returnAll: true }, () => rows('instance/backupList'));
		expect(backups[0]).toMatchObject({ status: expect.stringMatching(/^(In Progress|Completed|Failed|In Arrears|Recycle Bin)$/), type: expect.stringMatching(/^System/) });
		const { simple: lines } = await both('vendorCloudHost', { resource: 'line', operation: 'getAll', nodeid: v.byId(2) }, () => rows('instance/networkResourceList', { nodeid: 2 }));
		expect(lines.map((l) => l.line)).toEqual(['Inner Network', 'Mobile', 'BGP', 'Dual Line']);
		expect(lines[0]).toMatchObject({ lineCode: '1', dataCentre: 'East Zone 2' });
		await both('vendorCloudHost', { resource: 'image', operation: 'getAll' }, () => rows('instance/imageList'));
	});
});

describe('Disk, Network & Firewall', () => {
	test('cloud disks and firewall rules: statuses, directions and actions in words', async () => {
		const { simple: disks } = await both('vendorDiskNetworkFirewall', { resource: 'cloudDisk', operation: 'getAll', returnAll: true }, () => rows('instance/cloudDiskList'));
		expect(disks[0]).toMatchObject({ status: expect.stringMatching(/^(Bound|Usable|Recycle Bin)$/), sizeGb: expect.any(Number) });
		const { simple: rules } = await both('vendorDiskNetworkFirewall', { resource: 'firewallRule', operation: 'getAll', returnAll: true }, () => rows('instance/firewallRuleList'));
		expect(rules.find((r) => r.destinationPort === '53')).toMatchObject({ direction: 'Outbound', directionCode: 'out', action: 'Reject', actionCode: 'REJECT', status: 'Disabled', statusCode: '0' });
		await both('vendorDiskNetworkFirewall', { resource: 'firewall', operation: 'getAll', returnAll: true }, () => rows('instance/firewallList'));
		await both('vendorDiskNetworkFirewall', { resource: 'network', operation: 'getAll', returnAll: true }, () => rows('instance/networkList'));
	});
});

describe('DNS', () => {
	test('domains and records: statuses and lines in words, numbers as numbers', async () => {
		const { simple: domains } = await both('vendorDns', { resource: 'domain', operation: 'getAll', returnAll: true }, () => rows('dns/domainList'));
		expect(domains[0]).toMatchObject({ name: 'example-demo.com', status: 'Enabled', statusCode: '1', plan: 'Personal', recordNum: expect.any(Number) });
		const did = Number(domains[0].id);
		const { simple: records } = await both('vendorDns', { resource: 'record', operation: 'getAll', did: v.byId(did), returnAll: true }, () => rows('dns/recordList', { did }));
		const mx = records.find((r) => r.type === 'MX');
		expect(mx).toMatchObject({ hostRecord: '@', value: 'mail.example-demo.com', mxPriority: expect.any(Number), ttl: 600, line: 'default', status: 'Enabled' });
		expect(mx).not.toHaveProperty('lineCode'); // the line as it came (readings R69)
		await both('vendorDns', { resource: 'plan', operation: 'getAll', returnAll: true }, () => rows('dns/planList'));
	});
});

describe('times in the workflow\'s time zone', () => {
	test('the same display time of the service reads as an instant of the workflow\'s zone', async () => {
		const [raw] = await v.ok('vendorDns', { resource: 'domain', operation: 'getAll', returnAll: true, simplify: false });
		const [day, clock] = raw.createtime.split(' ');
		const [utc] = await v.run('vendorDns', { resource: 'domain', operation: 'getAll', returnAll: true }, { settings: { timezone: 'UTC' } }).then((r) => r.items.map((i) => i.json));
		const [beijing] = await v.run('vendorDns', { resource: 'domain', operation: 'getAll', returnAll: true }, { settings: { timezone: 'Asia/Shanghai' } }).then((r) => r.items.map((i) => i.json));
		expect(utc.created).toBe(`${day}T${clock}+00:00`);
		expect(beijing.created).toBe(`${day}T${clock}+08:00`);
	});
});

describe('the same words under every reading of the documents (numbers as numbers or strings, [] for {}, extra fields)', () => {
	test.each([['numbersAsNumbers'], ['numbersAsStrings'], ['emptyObjectsAsArrays'], ['extraFields']])('%s', async (dialect) => {
		const other = await startVendor({ seed: 'demo', dialects: [dialect] });
		try {
			const strip = (items) => items.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !/^(created|updated|expires|id|instanceId|code|dataCentreId|privateNetworkId|firewallId|ips|innerIp)$/.test(k))));
			for (const [node, params] of [
				['vendorCloudHost', { resource: 'host', operation: 'getAll', returnAll: true }],
				['vendorAccountBilling', { resource: 'coupon', operation: 'getAll', returnAll: true }],
				['vendorDns', { resource: 'domain', operation: 'getAll', returnAll: true }],
			]) {
				const mine = await other.ok(node, params);
				const base = await v.ok(node, params);
				expect(Object.keys(mine[0]).filter((k) => /_/.test(k))).toEqual([]);
				expect(strip(mine).map((r) => `${r.name ?? r.code ?? ''} ${r.status} ${r.statusCode}`)).toEqual(strip(base).map((r) => `${r.name ?? r.code ?? ''} ${r.status} ${String(r.statusCode)}`));
			}
		} finally {
			await other.close();
		}
	});
});

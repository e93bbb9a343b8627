'use strict';
/**
 * Vendor DNS node, run through n8n-core against the emulator: every operation of the node's
 * dropdowns with the emulator's state checked after each change, dependent dropdowns,
 * pagination, and record rows rejected before any request is sent.
 */
const { startVendor, dnsRecords, n8n } = require('../../support/vendor');

const NODE = 'vendorDns';
const PERSONAL = 2; // emulator catalogue: Free 1, Personal 2, Business 3, Enterprise 4
const BUSINESS = 3;
let v;

const run = (parameters) => v.ok(NODE, parameters);
const fail = (parameters) => v.fails(NODE, parameters);
const requests = async () => (await v.control('GET', '/management/requests')).count;
const creds = () => ({ vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } });
const balance = () => Number(v.emu.management.core.balanceOf(v.emu.management.core.accountByName('demo').uid).price);
const records = async (did, extra = {}) => (await v.api('dns/recordList', { did, limit: 1000, ...extra })).data;

/** Calls a dropdown method as the editor does, with the node's current parameters. */
async function dropdown(kind, method, parameters = {}, filter) {
	const c = n8n.contextFor(NODE, parameters, creds());
	c.additionalData.currentNodeParameters = parameters;
	const ctx = new n8n.LoadOptionsContext(c.workflow, c.node, c.additionalData, 'parameters');
	return await c.nodeType.methods[kind][method].call(ctx, filter);
}

async function rejectedBeforeSending(parameters) {
	const before = await requests();
	const error = await fail(parameters);
	expect(await requests()).toBe(before);
	return error;
}

/** The body of the latest successful change sent to `path`, as the emulator's operation log keeps it. */
const lastSent = (path) => JSON.parse([...v.emu.management.state.logs].reverse().find((l) => l.op === path).content);

const row = (subdomain, recordtype, value, extra = {}) => ({ subdomain, recordtype, recordline: 'default', value, mx: 10, ttl: 300, weight: 1, ...extra });

beforeAll(async () => {
	v = await startVendor();
});

afterAll(async () => {
	if (v) await v.close();
});

describe('plans and domains', () => {
	test('plans: simplified list and filter', async () => {
		const plans = await run({ resource: 'plan', operation: 'getAll', returnAll: true });
		expect(plans.map((p) => p.name)).toEqual(['Free', 'Personal', 'Business', 'Enterprise']);
		expect(plans[0]).not.toHaveProperty('createtime_ago');
		expect(plans[1]).toMatchObject({ id: '2', price: 29, strategies: true, monitorNum: 5 });
		const withStrategies = await run({ resource: 'plan', operation: 'getAll', returnAll: true, simplify: false, filters: { enableStrategy: 1 } });
		expect(withStrategies.map((p) => p.id)).toEqual(['2', '3', '4']);
		expect(withStrategies[0]).toHaveProperty('monitor_retry');
		const dropdownPlans = await dropdown('listSearch', 'searchDnsPlans', { resource: 'domain', operation: 'add' });
		expect(dropdownPlans.results.map((r) => r.name)).toEqual(['Free (0.00)', 'Personal (29.00)', 'Business (199.00)', 'Enterprise (499.00)']);
	});

	test('domain: add, star, unstar, status, note, upgrade, list filters, delete', async () => {
		const paid = balance();
		const [added] = await run({ resource: 'domain', operation: 'add', domain: 'side-project.com', pid: v.byId(PERSONAL), additionalFields: { period: 2, note: 'hobby' } });
		expect(added).toMatchObject({ name: 'side-project.com', plan: { id: '2', name: 'Personal' } });
		expect(balance()).toBeCloseTo(paid - 58, 2);
		const did = v.byId(added.id);

		const [starred] = await run({ resource: 'domain', operation: 'star', did });
		expect(starred).toEqual({ id: added.id, name: 'side-project.com', mark: '1' });
		const marked = await run({ resource: 'domain', operation: 'getAll', returnAll: true, filters: { mark: 1 } });
		expect(marked.map((d) => d.id)).toEqual([added.id]);
		expect(marked[0]).toMatchObject({ plan: 'Personal', status: 'Enabled', statusCode: '1', starred: true, note: 'hobby' });
		expect(marked[0]).not.toHaveProperty('createtime_ago');
		const [unstarred] = await run({ resource: 'domain', operation: 'unstar', did });
		expect(unstarred.mark).toBe('0');

		const [paused] = await run({ resource: 'domain', operation: 'setStatus', did, status: 2 });
		expect(paused).toEqual({ id: added.id, name: 'side-project.com', status: '2' });
		const pausedList = await run({ resource: 'domain', operation: 'getAll', simplify: false, returnAll: true, filters: { status: 2 } });
		expect(pausedList.map((d) => d.id)).toEqual([added.id]);
		await run({ resource: 'domain', operation: 'setStatus', did, status: 1 });

		const [noted] = await run({ resource: 'domain', operation: 'updateNote', did, note: 'moved to new owner' });
		expect(noted.note).toBe('moved to new owner');
		const [cleared] = await run({ resource: 'domain', operation: 'updateNote', did });
		expect(cleared.note).toBe('');

		const [upgraded] = await run({ resource: 'domain', operation: 'upgrade', did, pid: v.byId(BUSINESS), additionalFields: { period: 1 } });
		expect(upgraded).toEqual({ id: added.id, name: 'side-project.com', plan: { id: '3', name: 'Business' } });
		const [listed] = await run({ resource: 'domain', operation: 'getAll', simplify: false, returnAll: false, limit: 1, filters: { id: Number(added.id) } });
		expect(listed).toMatchObject({ plan_id: '3', plan_name: 'Business' });

		const [deleted] = await run({ resource: 'domain', operation: 'delete', did });
		expect(deleted).toEqual({ deleted: true, id: added.id, name: 'side-project.com' });
		expect((await v.api('dns/domainList', { id: Number(added.id) })).data).toEqual([]);
	});

	test('a bad domain name is rejected before sending', async () => {
		const error = await rejectedBeforeSending({ resource: 'domain', operation: 'add', domain: 'not a domain', pid: v.byId(PERSONAL) });
		expect(error.message).toMatch(/Domain Name/);
	});
});

describe('a domain end to end', () => {
	let domain;
	let www;
	let mx;
	let mail;
	let monitor;
	let template;
	let strategy;

	test('domain add → three records in ONE Add call', async () => {
		[domain] = await run({ resource: 'domain', operation: 'add', domain: 'shop-example.com', pid: v.byId(PERSONAL), additionalFields: { period: 1 } });
		const before = await requests();
		const added = await run({
			resource: 'record',
			operation: 'add', simplify: false,
			did: v.byId(domain.id),
			...dnsRecords([
					row('www', 'A', '203.0.113.10', { ttl: 600 }),
					row('@', 'MX', 'mail.shop-example.com', { mx: 5 }),
					row('mail', 'AAAA', '2001:db8::25', { recordline: 'telecom', weight: 3 }),
				]),
		});
		expect(await requests()).toBe(before + 1);
		expect(lastSent('dns/recordAdd')).toEqual({
			did: Number(domain.id),
			records: 'www;A;default;203.0.113.10;;600;1#@;MX;default;mail.shop-example.com;5;300;1#mail;AAAA;telecom;2001:db8::25;;300;3',
		});
		expect(added).toHaveLength(3);
		[www, mx, mail] = added;
		expect(www).toMatchObject({ subdomain: 'www', recordtype: 'A', value: '203.0.113.10', ttl: '600', status: '1' });
		expect(mx).toMatchObject({ subdomain: '@', recordtype: 'MX', value: 'mail.shop-example.com', mx: '5', ttl: '300' });
		expect(mail).toMatchObject({ subdomain: 'mail', recordtype: 'AAAA', recordline: 'telecom', value: '2001:db8::25', weight: '3' });
		const stored = await records(domain.id);
		expect(stored.map((r) => `${r.subdomain} ${r.recordtype} ${r.value}`)).toEqual([
			'www A 203.0.113.10',
			'@ MX mail.shop-example.com',
			'mail AAAA 2001:db8::25',
		]);
	});

	test('records: list with filters, pause one, update, note; dropdown depends on the domain', async () => {
		const did = v.byId(domain.id);
		const onlyA = await run({ resource: 'record', operation: 'getAll', did, returnAll: true, filters: { recordtype: 'A' } });
		expect(onlyA.map((r) => r.id)).toEqual([www.id]);
		expect(onlyA[0]).toMatchObject({ hostRecord: 'www', type: 'A', value: '203.0.113.10', ttl: 600, status: 'Enabled', statusCode: '1', line: 'default' });
		expect(onlyA[0]).not.toHaveProperty('lineCode'); // the line as it came: the documents name no lines (readings R69)
		expect(onlyA[0]).not.toHaveProperty('createtime_ago');
		const bySub = await run({ resource: 'record', operation: 'getAll', did, returnAll: true, simplify: false, filters: { subdomain: 'mail' } });
		expect(bySub.map((r) => r.id)).toEqual([mail.id]);
		expect(bySub[0].domainname).toBe('shop-example.com');

		const [paused] = await run({ resource: 'record', operation: 'setStatus', did, recordId: v.byId(mail.id), status: 0 });
		expect(paused).toEqual({ id: mail.id, subdomain: 'mail', status: '0' });
		const pausedList = await run({ resource: 'record', operation: 'getAll', simplify: false, did, returnAll: true, filters: { status: 0 } });
		expect(pausedList.map((r) => r.id)).toEqual([mail.id]);

		const [updated] = await run({ resource: 'record', operation: 'update', simplify: false, did, recordId: v.byId(mx.id), updateFields: { mx: 20, ttl: 3600 } });
		expect(updated).toMatchObject({ id: mx.id, recordtype: 'MX', mx: '20', ttl: '3600', value: 'mail.shop-example.com' });
		const [retyped] = await run({
			resource: 'record',
			operation: 'update',
			did,
			recordId: v.byId(mail.id),
			simplify: false,
			updateFields: { recordtype: 'A', value: '203.0.113.25', recordline: 'default' },
		});
		expect(retyped).toMatchObject({ recordtype: 'A', value: '203.0.113.25', recordline: 'default', status: '0', locale: 'Default' });
		// a value with ; is fine on Update (it is its own field there)
		const [txt] = await run({ resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords([row('_dkim', 'TXT', 'v=DKIM1 placeholder')]) });
		const [dkim] = await run({ resource: 'record', operation: 'update', simplify: false, did, recordId: v.byId(txt.id), updateFields: { value: 'v=DKIM1; k=rsa; p=MIGf' } });
		expect(dkim.value).toBe('v=DKIM1; k=rsa; p=MIGf');

		const [noted] = await run({ resource: 'record', operation: 'updateNote', did, recordId: v.byId(www.id), note: 'storefront' });
		// an answer without data: the identifiers of the request and the service's message (issue 10: no invented "success")
		expect(noted).toEqual({ did: Number(domain.id), record_id: Number(www.id), message: 'success' });
		expect((await records(domain.id, { subdomain: 'www' }))[0].note).toBe('storefront');

		const params = { resource: 'record', operation: 'update', simplify: false, did, recordId: { __rl: true, mode: 'list', value: '' } };
		const search = await dropdown('listSearch', 'searchRecords', params);
		expect(search.results.map((r) => r.value)).toEqual([www.id, mx.id, mail.id, txt.id]);
		const filtered = await dropdown('listSearch', 'searchRecords', params, 'mail.shop');
		expect(filtered.results.map((r) => r.value)).toEqual([mx.id]);
	});

	test('monitor and monitor records', async () => {
		const did = v.byId(domain.id);
		[monitor] = await run({
			resource: 'monitor',
			operation: 'add',
			did,
			subdomain: 'www',
			additionalFields: { retry: 5, interval: 10, port: 443, path: '/health', notify: 'mail', less: true, otherEmail: 'a@example.com,b@example.com' },
		});
		// simplified: English names, numbers, words for the status, flags as booleans
		expect(monitor).toMatchObject({ domainId: domain.id, hostRecord: 'www', retries: 5, intervalMinutes: 10, port: 443, path: '/health', recordNum: 1, status: 'Enabled', notifyOncePerHour: true });
		expect(monitor).not.toHaveProperty('other_email');
		const mid = v.byId(monitor.id);

		const [full] = await run({ resource: 'monitor', operation: 'getAll', returnAll: true, simplify: false, filters: { did: domain.id } });
		expect(full).toMatchObject({ id: monitor.id, domain_name: 'shop-example.com', notify: 'mail', less: '1', other_email: 'a@example.com,b@example.com' });

		const [changed] = await run({ resource: 'monitor', operation: 'update', simplify: false, mid, updateFields: { retry: 3, path: '/ping', switch: true } });
		expect(changed).toMatchObject({ id: monitor.id, retry: '3', path: '/ping', port: '443' });
		expect((await v.api('dns/monitorList', { id: Number(monitor.id) })).data[0].switch).toBe('1');

		const mrs = await run({ resource: 'monitorRecord', operation: 'getAll', simplify: false, mid, returnAll: true });
		expect(mrs).toHaveLength(1);
		expect(mrs[0]).toMatchObject({ subdomain: 'www', ip: '203.0.113.10', status: '1' });
		const options = await dropdown('loadOptions', 'getMonitorRecordOptions', { resource: 'monitorRecord', operation: 'setStatus', mid });
		expect(options).toEqual([{ name: `www 203.0.113.10 (#${mrs[0].id})`, value: mrs[0].id }]);

		const [mrPaused] = await run({ resource: 'monitorRecord', operation: 'setStatus', mid, monitorRecordId: v.byId(mrs[0].id), status: 0 });
		expect(mrPaused).toEqual({ id: mrs[0].id, mid: monitor.id, status: '0' });

		const [monPaused] = await run({ resource: 'monitor', operation: 'setStatus', mid, monitorRecordIds: [mrs[0].id], status: 0 });
		expect(monPaused).toEqual({ id: monitor.id, status: '0' });
		const [monOn] = await run({ resource: 'monitor', operation: 'setStatus', mid, monitorRecordIds: [mrs[0].id], status: 1 });
		expect(monOn.status).toBe('1');
		expect((await v.api('dns/monitorRecordList', { mid: Number(monitor.id) })).data[0].status).toBe('1');
	});

	test('strategy template and template records', async () => {
		[template] = await run({ resource: 'template', operation: 'create', pid: v.byId(PERSONAL), name: 'carriers', additionalFields: { status: 1, note: 'v1' } });
		expect(template).toMatchObject({ name: 'carriers', pid: '2', note: 'v1' });
		const tid = v.byId(template.id);
		const [renamed] = await run({ resource: 'template', operation: 'update', tid, updateFields: { name: 'carriers-cn', note: 'v2' } });
		expect(renamed).toMatchObject({ id: template.id, name: 'carriers-cn', note: 'v2', status: '1' });
		const [closed] = await run({ resource: 'template', operation: 'setStatus', tid, status: 0 });
		expect(closed).toEqual({ id: template.id, name: 'carriers-cn', status: '0' });
		await run({ resource: 'template', operation: 'setStatus', tid, status: 1 });

		const [addedRec] = await run({ resource: 'templateRecord', operation: 'add', tid, ip: '203.0.113.50', additionalFields: { country: 'CN', isp: 'telecom', weight: 2 } });
		expect(addedRec).toEqual({ tid: Number(template.id), message: 'success' });
		await run({ resource: 'templateRecord', operation: 'add', tid, ip: '2001:db8::50', additionalFields: { country: 'CN', isp: 'unicom' } });
		const recs = await run({ resource: 'templateRecord', operation: 'getAll', tid, returnAll: true });
		expect(recs.map((r) => `${r.carrier} ${r.ip} ${r.weight}`)).toEqual(['telecom 203.0.113.50 2', 'unicom 2001:db8::50 1']);
		expect(recs[0]).not.toHaveProperty('ip_location');

		const params = { resource: 'templateRecord', operation: 'update', tid, templateRecordId: { __rl: true, mode: 'list', value: '' } };
		const search = await dropdown('listSearch', 'searchTemplateRecords', params);
		expect(search.results.map((r) => r.value)).toEqual(recs.map((r) => r.id));

		await run({ resource: 'templateRecord', operation: 'update', tid, templateRecordId: v.byId(recs[0].id), updateFields: { ip: '203.0.113.51', city: 'Shanghai' } });
		await run({ resource: 'templateRecord', operation: 'setStatus', tid, templateRecordId: v.byId(recs[0].id), status: 0 });
		const [deleted] = await run({ resource: 'templateRecord', operation: 'delete', tid, templateRecordId: v.byId(recs[1].id) });
		expect(deleted).toEqual({ deleted: true, data: recs[1].id });
		const left = (await v.api('dns/tempStyList', { tid: Number(template.id) })).data;
		expect(left).toHaveLength(1);
		expect(left[0]).toMatchObject({ ip: '203.0.113.51', city: 'Shanghai', status: '0' });

		const listed = await run({ resource: 'template', operation: 'getAll', simplify: false, returnAll: true, filters: { gid: 1 } });
		expect(listed.map((t) => t.id)).toEqual([template.id]);
		expect(listed[0]).toMatchObject({ count: '1', planname: 'Personal' });
	});

	test('resolution strategies', async () => {
		const did = v.byId(domain.id);
		const tid = v.byId(template.id);
		const [added] = await run({ resource: 'strategy', operation: 'add', did, subdomain: 'www', sty: 'auto', tid, status: 1, additionalFields: { maxip: 2 } });
		expect(added).toEqual({ did: Number(domain.id), tid: Number(template.id), message: 'success' });
		await run({ resource: 'strategy', operation: 'add', did, subdomain: 'mail', sty: 'null', tid, status: 0, additionalFields: { maxip: 1 } });
		const list = await run({ resource: 'strategy', operation: 'getAll', simplify: false, did, returnAll: true });
		expect(list.map((y) => `${y.subdomain} ${y.sty} ${y.maxip} ${y.status}`)).toEqual(['mail null 1 0', 'www auto 2 1']);
		[, strategy] = list;
		const other = list[0];
		expect(strategy).toMatchObject({ temp_id: template.id, temp_name: 'carriers-cn', domain_name: 'shop-example.com' });

		const options = await dropdown('loadOptions', 'getStrategyOptions', { resource: 'strategy', operation: 'update', did });
		expect(options.map((o) => o.value)).toEqual([other.id, strategy.id]);

		await run({ resource: 'strategy', operation: 'update', did, strategyId: v.byId(strategy.id), updateFields: { maxip: 3, sty: 'null' } });
		await run({ resource: 'strategy', operation: 'setStatus', did, strategyId: v.byId(strategy.id), status: 0 });
		const [after] = (await v.api('dns/styList', { id: Number(strategy.id) })).data;
		expect(after).toMatchObject({ maxip: '3', sty: 'null', status: '0' });
		await run({ resource: 'strategy', operation: 'setStatus', did, strategyId: v.byId(strategy.id), status: 1 });

		const [deleted] = await run({ resource: 'strategy', operation: 'delete', did, strategyId: v.byId(other.id) });
		expect(deleted).toEqual({ deleted: true, did: Number(domain.id), id: Number(other.id), message: 'success' });
		expect((await v.api('dns/styList', { did: Number(domain.id) })).data.map((y) => y.id)).toEqual([strategy.id]);
	});

	test('record delete (several ids) and monitor delete', async () => {
		const did = v.byId(domain.id);
		const [extra1, extra2] = await run({
			resource: 'record',
			operation: 'add', simplify: false,
			did,
			...dnsRecords([row('tmp1', 'CNAME', 'www.shop-example.com'), row('tmp2', 'NS', 'ns1.example.net')]),
		});
		const deleted = await run({ resource: 'record', operation: 'delete', did, recordIds: [extra1.id, extra2.id] });
		expect(deleted).toEqual([
			{ deleted: true, id: extra1.id, subdomain: 'tmp1' },
			{ deleted: true, id: extra2.id, subdomain: 'tmp2' },
		]);
		expect((await records(domain.id)).map((r) => r.id)).not.toEqual(expect.arrayContaining([extra1.id]));

		// a second monitor (on @ after adding an A record there) is deleted on its own
		await v.api('dns/recordAdd', { did: Number(domain.id), records: '@;A;default;203.0.113.1' });
		const [apex] = await run({ resource: 'monitor', operation: 'add', simplify: false, did, subdomain: '@' });
		const [gone] = await run({ resource: 'monitor', operation: 'delete', mid: v.byId(apex.id) });
		expect(gone).toEqual({ deleted: true, id: apex.id, host: 'shop-example.com' });
		expect((await v.api('dns/monitorList', { did: Number(domain.id) })).data.map((m) => m.id)).toEqual([monitor.id]);
	});

	test('deleting the domain takes its records, monitor and strategy; the template can go afterwards', async () => {
		const used = await fail({ resource: 'template', operation: 'delete', tid: v.byId(template.id) });
		expect(used.message).toMatch(/used by 1 strategy/);
		expect(used.description).toMatch(/dns\/tempDelete with code 0/);

		await run({ resource: 'domain', operation: 'delete', did: v.byId(domain.id) });
		expect((await v.api('dns/monitorList', {})).data).toEqual([]);
		expect((await v.api('dns/styList', {})).data).toEqual([]);
		expect((await v.api('dns/monitorRecordList', {})).data).toEqual([]);
		expect((await v.api('dns/recordList', { did: Number(domain.id) })).code).toBe(0);

		const [deleted] = await run({ resource: 'template', operation: 'delete', tid: v.byId(template.id) });
		expect(deleted).toEqual({ deleted: true, name: 'carriers-cn' });
		expect((await v.api('dns/tempList', {})).data).toEqual([]);
	});
});

describe('record rows are checked before sending', () => {
	let did;
	beforeAll(async () => {
		const [d] = await run({ resource: 'domain', operation: 'add', domain: 'checks-example.com', pid: v.byId(1) });
		did = v.byId(d.id);
	});
	const add = (rows) => rejectedBeforeSending({ resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords(rows) });
	/** Limits the documents do not state are the service's (docs/vendor/readings.md#r3): the request goes out and its own error is shown. */
	const refusedByService = async (rows) => {
		const before = await requests();
		const error = await fail({ resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords(rows) });
		expect(await requests()).toBe(before + 1);
		expect(error.description).toMatch(/dns\/recordAdd with code/);
		return error;
	};

	test('an unknown type reaches the service (types are named by example, readings R6), whose error names it', async () => {
		const error = await refusedByService([row('www', 'A', '203.0.113.10'), row('x', 'XYZ', 'whatever')]);
		expect(error.message).toMatch(/XYZ/);
	});

	test('an invalid IPv4 for an A record names the row and the field', async () => {
		const error = await add([row('www', 'A', '203.0.113.300')]);
		expect(error.message).toMatch(/Invalid "Value"/);
		expect(error.message).toMatch(/203\.0\.113\.300.*IPv4/);
	});

	test('other value, TTL, MX and weight checks', async () => {
		expect((await add([row('v6', 'AAAA', '203.0.113.1')])).message).toMatch(/Invalid "Value".*IPv6/);
		expect((await add([row('www', 'A', '203.0.113.1'), row('alias', 'CNAME', 'not a host')])).message).toMatch(/More Records 1: Value.*host name/);
		expect((await add([row('bad;host', 'A', '203.0.113.1')])).message).toMatch(/Invalid "Host Record".*";" or "#"/);
		// TTL, MX and weight ranges and host record forms are not in the documents (readings R3): the service decides
		expect((await refusedByService([row('www', 'A', '203.0.113.1', { ttl: 0 })])).message).toMatch(/ttl/);
		expect((await refusedByService([row('www', 'A', '203.0.113.1', { ttl: 86401 })])).message).toMatch(/ttl/);
		expect((await refusedByService([row('@', 'MX', 'mx.example.com', { mx: 101 })])).message).toMatch(/mx/);
		expect((await refusedByService([row('www', 'A', '203.0.113.1', { weight: 0 })])).message).toMatch(/weight/);
		expect((await refusedByService([row('bad host', 'A', '203.0.113.1')])).message).toMatch(/subdomain/);
		const update = await rejectedBeforeSending({ resource: 'record', operation: 'update', simplify: false, did, recordId: v.byId(1), updateFields: { recordtype: 'A', value: 'example.com' } });
		expect(update.message).toMatch(/Value/);
		const del = await rejectedBeforeSending({ resource: 'record', operation: 'delete', did, recordIds: 'x,1' });
		expect(del.message).toMatch(/Records/);
	});

	test('SRV, CAA and TXT rows pass and the entries reach the service as sent', async () => {
		const added = await run({
			resource: 'record',
			operation: 'add', simplify: false,
			did,
			...dnsRecords([
					row('_sip._tcp', 'SRV', '10 5 5060 sip.checks-example.com'),
					row('@', 'CAA', '0 issue "letsencrypt.org"'),
					row('@', 'TXT', 'v=spf1 mx -all'),
					{ subdomain: 'min', recordtype: 'A', value: '198.51.100.7' },
				]),
		});
		expect(added.map((r) => r.recordtype)).toEqual(['SRV', 'CAA', 'TXT', 'A']);
		expect(lastSent('dns/recordAdd').records.split('#')).toEqual([
			'_sip._tcp;SRV;default;10 5 5060 sip.checks-example.com;;300;1',
			'@;CAA;default;0 issue "letsencrypt.org";;300;1',
			'@;TXT;default;v=spf1 mx -all;;300;1',
			// a row's line and weight left unset stay empty: the service chooses (readings R69)
			'min;A;;198.51.100.7;;;',
		]);
		expect(added[3]).toMatchObject({ recordline: 'default', ttl: '300', weight: '1', mx: '0' });
	});
});

describe('lists', () => {
	test('Return All reads every page (3+), Limit stops early', async () => {
		const [d] = await run({ resource: 'domain', operation: 'add', domain: 'big-example.com', pid: v.byId(BUSINESS) });
		const entries = Array.from({ length: 250 }, (_, i) => `h${i};A;default;198.51.100.${(i % 250) + 1}`);
		const r = await v.api('dns/recordAdd', { did: Number(d.id), records: entries.join('#') });
		expect(r.code).toBe(1);

		let before = await requests();
		const all = await run({ resource: 'record', operation: 'getAll', simplify: false, did: v.byId(d.id), returnAll: true });
		expect(await requests()).toBe(before + 3);
		expect(all).toHaveLength(250);
		expect(all.map((x) => x.subdomain)).toEqual(entries.map((e) => e.split(';')[0]));

		before = await requests();
		const seven = await run({ resource: 'record', operation: 'getAll', simplify: false, did: v.byId(d.id), returnAll: false, limit: 7 });
		expect(seven.map((x) => x.subdomain)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
		expect(await requests()).toBe(before + 1);

		const domains = await dropdown('listSearch', 'searchDomains', { resource: 'record', operation: 'getAll', simplify: false });
		expect(domains.results.map((x) => x.name)).toEqual(expect.arrayContaining(['big-example.com', 'checks-example.com']));
	});
});

'use strict';
/**
 * Vendor DNS under readings the vendor's documentation leaves open, through n8n-core against the
 * emulator. Readings R69: the documentation names no record lines and no default line or weight,
 * so Record > Add sends what the user set and leaves the rest of an entry empty (the service
 * chooses); dialect dnsLinesOwn plays a service whose lines are its own words.
 */
const { startVendor, dnsRecords } = require('../../support/vendor');

const NODE = 'vendorDns';
let v;
let did;

beforeAll(async () => {
	v = await startVendor();
	const [d] = await v.ok(NODE, { resource: 'domain', operation: 'add', domain: 'lines-example.com', pid: v.byId(1) });
	did = v.byId(d.id);
});
afterAll(() => v.close());
afterEach(() => v.control('POST', '/dialects', { set: [] }));

/** The body of the latest successful change sent to `path`, as the emulator's operation log keeps it. */
const lastSent = (path) => JSON.parse([...v.emu.management.state.logs].reverse().find((l) => l.op === path).content);
const add = (first, more = []) => v.ok(NODE, { resource: 'record', operation: 'add', simplify: false, did, ...dnsRecords([first, ...more]) });

describe('values the vendor\'s documentation gives no default for are sent only when set', () => {
	test('domain Add and Upgrade without Period, template Create without Status, strategy Add without Max IPs', async () => {
		const [d] = await v.ok(NODE, { resource: 'domain', operation: 'add', domain: 'unset-example.com', pid: v.byId(1) });
		expect(lastSent('dns/domainAdd')).toEqual({ domain: 'unset-example.com', pid: 1 });
		await v.ok(NODE, { resource: 'domain', operation: 'upgrade', did: v.byId(d.id), pid: v.byId(3) });
		expect(lastSent('dns/domainUpgrade')).toEqual({ id: Number(d.id), pid: 3 });
		const [t] = await v.ok(NODE, { resource: 'template', operation: 'create', pid: v.byId(3), name: 'unset' });
		expect(lastSent('dns/tempAdd')).toEqual({ pid: 3, name: 'unset' });
		await v.ok(NODE, { resource: 'strategy', operation: 'add', did: v.byId(d.id), subdomain: 'www', sty: 'auto', tid: v.byId(t.id), status: 1 });
		expect(lastSent('dns/styAdd')).toEqual({ did: Number(d.id), subdomain: 'www', sty: 'auto', tid: Number(t.id), status: 1 });
		// set ones are sent as set
		await v.ok(NODE, { resource: 'domain', operation: 'add', domain: 'set-example.com', pid: v.byId(1), additionalFields: { period: 2 } });
		expect(lastSent('dns/domainAdd')).toEqual({ domain: 'set-example.com', pid: 1, period: 2 });
	});
});

describe('readings R69: Record > Add sends no line, TTL, MX priority or weight the user did not set', () => {
	test('default: an unset line, TTL and weight leave their places empty; set ones are sent as set', async () => {
		const [plain] = await add({ subdomain: 'plain', recordtype: 'A', value: '203.0.113.10' });
		expect(lastSent('dns/recordAdd').records).toBe('plain;A;;203.0.113.10;;;');
		expect(plain).toMatchObject({ subdomain: 'plain', value: '203.0.113.10' });
		await add({ subdomain: 'set', recordtype: 'A', value: '203.0.113.11', recordline: 'telecom', ttl: 600, weight: 5 });
		expect(lastSent('dns/recordAdd').records).toBe('set;A;telecom;203.0.113.11;;600;5');
	});

	test('MX: an unset priority leaves its place empty (the documentation gives recordAdd no default); a typed one is sent', async () => {
		await add({ subdomain: 'mx-plain', recordtype: 'MX', value: 'mail.lines-example.com' });
		expect(lastSent('dns/recordAdd').records).toBe('mx-plain;MX;;mail.lines-example.com;;;');
		await add({ subdomain: 'mx-set', recordtype: 'MX', value: 'mail.lines-example.com', mx: 20 });
		expect(lastSent('dns/recordAdd').records).toBe('mx-set;MX;;mail.lines-example.com;20;;');
	});

	test('the TTL and MX Priority of Record > Add start empty: no value the user did not see is sent', () => {
		const { n8n } = require('../../support/vendor');
		const props = n8n.loadPackage().nodes[`${n8n.PREFIX}.${NODE}`].description.properties;
		const ofAdd = (name) => props.find((p) => p.name === name && p.displayOptions?.show?.operation?.includes('add') && p.displayOptions?.show?.resource?.includes('record'));
		expect(ofAdd('ttl')).toMatchObject({ type: 'string', default: '' });
		expect(ofAdd('mx')).toMatchObject({ type: 'string', default: '' });
	});

	test('More Records: a row without a TTL or weight leaves their places empty (n8n fills a row with its defaults: theirs are empty); typed ones are sent', async () => {
		await add({ subdomain: 'first', recordtype: 'A', value: '203.0.113.20' }, [
			{ subdomain: 'row-plain', recordtype: 'A', value: '203.0.113.21' },
			{ subdomain: 'row-set', recordtype: 'A', value: '203.0.113.22', ttl: 900, weight: 7 },
		]);
		expect(lastSent('dns/recordAdd').records).toBe('first;A;;203.0.113.20;;;#row-plain;A;;203.0.113.21;;;#row-set;A;;203.0.113.22;;900;7');
	});

	test('More Records: a weight that is not a whole number is refused naming the row, before sending', async () => {
		const sent = async () => (await v.control('GET', '/stats')).management.requests['dns/recordAdd'] ?? 0;
		const before = await sent();
		const error = await v.fails(NODE, { resource: 'record', operation: 'add', did, ...dnsRecords([{ subdomain: 'a', recordtype: 'A', value: '203.0.113.23' }, { subdomain: 'b', recordtype: 'A', value: '203.0.113.24', weight: 'heavy' }]) });
		expect(error.message).toBe('The "More Records 1: Weight" field must be a whole number, not "heavy"');
		expect(await sent()).toBe(before);
	});

	test('the Line field says the documentation lists no lines, so the service\'s own are typed as an expression', () => {
		const { n8n } = require('../../support/vendor');
		const props = n8n.loadPackage().nodes[`${n8n.PREFIX}.${NODE}`].description.properties;
		const line = props.find((p) => p.name === 'recordline' && p.displayOptions?.show?.operation?.includes('add'));
		expect(line.description).toMatch(/names no lines and no request that lists them/);
	});

	test("dnsLinesOwn: with no line set the service chooses its own default line; its own words are sent as typed", async () => {
		await v.control('POST', '/dialects', { set: ['dnsLinesOwn'] });
		const [own] = await add({ subdomain: 'own', recordtype: 'A', value: '203.0.113.12' }, [
			{ subdomain: 'own-ct', recordtype: 'A', value: '203.0.113.13', recordline: '电信', mx: 10, ttl: 300, weight: 1 },
		]);
		expect(own).toMatchObject({ subdomain: 'own', recordline: '默认' });
		const rows = (await v.api('dns/recordList', { did: Number(did.value), subdomain: 'own-ct' })).data;
		expect(rows[0]).toMatchObject({ recordline: '电信' });
	});
});

describe('a value with ";" or "#" (a DKIM TXT value) is added under a host record nobody asks for, then moved and set with dns/recordUpdate', () => {
	const stats = async () => (await v.control('GET', '/stats')).management.requests;
	const sentSince = async (seen, path) => (await v.control('GET', '/requests')).requests.slice(seen).filter((r) => r.path === path).map((r) => r.body);
	const seenNow = async () => (await v.control('GET', '/requests')).requests.length;

	test('one Add: the records get their whole values; the stand-in value never stands under the real host record', async () => {
		const before = await stats();
		const seen = await seenNow();
		const dkim = 'v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC#x';
		const added = await add({ subdomain: 'mail._domainkey', recordtype: 'TXT', value: dkim, ttl: 600 }, [{ subdomain: 'www', recordtype: 'A', value: '203.0.113.20', mx: 10, ttl: 300, weight: 1 }]);
		expect(added.map((r) => r.value)).toEqual([dkim, '203.0.113.20']);
		expect(added[0]).toMatchObject({ subdomain: 'mail._domainkey', ttl: '600' });
		const after = await stats();
		expect(after['dns/recordAdd'] - (before['dns/recordAdd'] ?? 0)).toBe(1);
		expect(after['dns/recordUpdate'] - (before['dns/recordUpdate'] ?? 0)).toBe(1);
		// the add: the TXT record under a host record of its own, with the stand-in value
		const [entry] = (await sentSince(seen, 'dns/recordAdd'))[0].records.split('#');
		expect(entry).toMatch(/^_n8n-pending-[a-z0-9]+;TXT;;n8n-value-pending;;600;$/);
		// the update: the whole record, as the user gave it and the service added it (line and weight as added)
		const [update] = await sentSince(seen, 'dns/recordUpdate');
		expect(update).toEqual({ token: '(secret)', did: Number(did.value), record_id: Number(added[0].id), subdomain: 'mail._domainkey', recordtype: 'TXT', recordline: 'default', value: dkim, ttl: 600, weight: 1 });
		const stored = (await v.api('dns/recordList', { did: Number(did.value), subdomain: 'mail._domainkey' })).data;
		expect(stored.map((r) => [r.value, r.ttl])).toEqual([[dkim, '600']]);
		const pending = (await v.api('dns/recordList', { did: Number(did.value) })).data.filter((r) => r.subdomain.startsWith('_n8n-pending-'));
		expect(pending).toEqual([]);
	});

	test('a TTL left empty is sent back in the update as the service chose it, so an update\'s default (300) cannot reset it', async () => {
		const seen = await seenNow();
		const [added] = await add({ subdomain: 'spf-keep', recordtype: 'TXT', value: 'v=spf1 a; -all', recordline: 'telecom', weight: 3 });
		const [update] = await sentSince(seen, 'dns/recordUpdate');
		const chosen = (await v.api('dns/recordList', { did: Number(did.value), subdomain: 'spf-keep' })).data[0];
		expect(update).toMatchObject({ subdomain: 'spf-keep', recordtype: 'TXT', recordline: 'telecom', value: 'v=spf1 a; -all', weight: 3, ttl: Number(chosen.ttl) });
		expect(added).toMatchObject({ subdomain: 'spf-keep', value: 'v=spf1 a; -all' });
	});

	test('the update fails: the records of the call are deleted again (the pending one too) and the error says what the two steps rely on', async () => {
		await v.control('POST', '/faults', { inject: [{ op: 'dns/recordUpdate', kind: 'envelope', code: 0, message: 'recordtype must be one of A, AAAA, CNAME', times: 1 }] });
		try {
			const error = await v.fails(NODE, { resource: 'record', operation: 'add', did, ...dnsRecords([{ subdomain: 'spf', recordtype: 'TXT', value: 'v=spf1 a; -all' }]) });
			expect(error.message).toMatch(/^The "Value" \(it holds ";" or "#"\) could not be set after the records were added: .*recordtype must be one of A, AAAA, CNAME/);
			expect(error.description).toMatch(/relies on the service updating a record of this type \(its documentation lists A, AAAA and CNAME for an update\).*then they were deleted again/);
			const all = (await v.api('dns/recordList', { did: Number(did.value) })).data;
			expect(all.filter((r) => r.subdomain === 'spf' || r.subdomain.startsWith('_n8n-pending-'))).toEqual([]);
		} finally {
			await v.control('POST', '/faults', { inject: [] });
		}
	});
});

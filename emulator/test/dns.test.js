'use strict';
/**
 * The emulator's `dns` group (docs/vendor/hosts-network-dns.md): plans, domains, records,
 * downtime monitors, strategy templates and resolution strategies, spoken to over HTTP as a
 * client does.
 */
const { DEMO, useEmulator, demoBalance } = require('./helpers');

const vendor = useEmulator(
	{ seed: 'demo', management: { timing: { hostCreateMs: 200, hostReinstallMs: 200, backupMs: 200 } } },
	{ group: 'dns', login: DEMO },
);
const { post, api, ok, fail: fails, control } = vendor;
const demo = () => vendor.emu.management.core.accountByName('demo');
const balance = () => demoBalance(vendor.emu);
const count = async (did, extra = {}) => Number((await ok('recordList', { did, limit: 1, ...extra })).total);

let seq = 0;
/** A fresh domain on `pid` (default Business, which allows every feature the tests use but isp_city). */
async function newDomain(pid = 3) {
	seq += 1;
	const r = await ok('domainAdd', { domain: `t${seq}-zone.example.org`, pid, period: 1 });
	return r.data;
}

beforeAll(async () => {
	await control('/balance', { username: 'demo', price: 100000 });
});

describe('plans and domains', () => {
	test('planList: nested group and auth, serialized lists, filters', async () => {
		const all = await ok('planList');
		expect(all.total).toBe('4');
		const personal = all.data.find((p) => p.name === 'Personal');
		expect(personal.group).toEqual({
			id: '1',
			mid: '1',
			name: expect.any(String),
			status: '1',
			note: expect.any(String),
			created: expect.any(String),
			syncdb: '1',
		});
		expect(personal.auth).toMatchObject({ name: 'example-demo.com', pid: personal.id, username: 'demo', is_auth: '1' });
		expect(Object.keys(personal.auth).sort()).toEqual(
			['authid', 'createtime', 'endtime', 'gid', 'id', 'is_auth', 'mark', 'name', 'note', 'pid', 'recordnum', 'status', 'sub_uid', 'type', 'uid', 'updatetime', 'username'].sort(),
		);
		expect(personal.strategy).toBe('a:2:{i:0;s:4:"auto";i:1;s:4:"null";}');
		expect(personal.monitor_retry).toMatch(/^a:\d+:\{/);
		expect(personal.price).toBe('29.00');
		const free = all.data.find((p) => p.name === 'Free');
		expect(free.auth).toBeNull();
		expect(free.enable_strategy).toBe('0');
		expect((await ok('planList', { enable_strategy: 0 })).data.map((p) => p.name)).toEqual(['Free']);
		expect((await ok('planList', { id: 4 })).data.map((p) => p.name)).toEqual(['Enterprise']);
		const paged = await ok('planList', { limit: 1, page: 3 });
		expect(paged).toMatchObject({ totalpage: '4', page: '3', limit: '1' });
		expect(paged.data[0].name).toBe('Business');
		await fails('planList', { enable_strategy: 5 }, /enable_strategy/);
	});

	test('domainAdd validates and charges the plan price × period (paytype 7)', async () => {
		await fails('domainAdd', { domain: 'not a domain', pid: 1 }, /domain: .*not a valid domain/);
		await fails('domainAdd', { domain: 'nodot', pid: 1 }, /domain/);
		await fails('domainAdd', { domain: 'example-demo.com', pid: 1 }, /already hosted/);
		await fails('domainAdd', { domain: 'fresh.example.net', pid: 9 }, /pid: plan 9/);
		await fails('domainAdd', { domain: 'fresh.example.net', pid: 2, period: 11 }, /period must be at most 10/);
		await fails('domainAdd', { domain: 'fresh.example.net', pid: 2, period: 0 }, /period must be at least 1/);
		await fails('domainAdd', { pid: 2 }, /domain is required/);

		const before = balance();
		const r = await ok('domainAdd', { domain: 'Fresh.Example.NET.', pid: 2, period: 3, note: 'new' });
		expect(r.data).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'fresh.example.net', plan: { id: '2', name: 'Personal' } });
		expect(balance()).toBeCloseTo(before - 87, 2);
		expect(vendor.emu.management.state.payments.at(-1)).toMatchObject({ paytype: 7, bid: Number(r.data.id), price: '87.00' });
		const listed = (await ok('domainList', { id: r.data.id })).data[0];
		expect(listed).toMatchObject({ name: 'fresh.example.net', plan_id: '2', plan_name: 'Personal', plan_price: '29.00', status: '1', mark: '0', recordnum: '0', note: 'new' });
		expect(Number(listed.endtime.slice(0, 4)) - Number(listed.createtime.slice(0, 4))).toBe(3);

		await control('/balance', { username: 'demo', price: 1 });
		await fails('domainAdd', { domain: 'poor.example.net', pid: 3 }, /insufficient balance/);
		expect((await ok('domainList', { limit: 100 })).data.some((d) => d.name === 'poor.example.net')).toBe(false);
		expect((await ok('domainAdd', { domain: 'free.example.net', pid: 1 })).data.plan.name).toBe('Free');
		await control('/balance', { username: 'demo', price: 100000 });
	});

	test('domainStatus, domainMark, domainNote and the list filters', async () => {
		const d = await newDomain();
		expect((await ok('domainStatus', { id: d.id, status: 2 })).data).toEqual({ id: d.id, name: d.name, status: '2' });
		expect((await ok('domainList', { status: 2 })).data.map((x) => x.id)).toEqual([d.id]);
		await fails('domainStatus', { id: d.id, status: 3 }, /status must be one of 1, 2/);
		await ok('domainStatus', { id: d.id, status: 1 });
		expect((await ok('domainMark', { id: d.id, mark: 1 })).data).toEqual({ id: d.id, name: d.name, mark: '1' });
		expect((await ok('domainList', { mark: 1 })).data.map((x) => x.id)).toEqual([d.id]);
		expect((await ok('domainMark', { id: d.id })).data.mark).toBe('0');
		expect((await ok('domainNote', { id: d.id, note: 'memo' })).data).toEqual({ id: d.id, name: d.name, note: 'memo' });
		await control('/dns/domains/status', { id: d.id, status: 3 });
		expect((await ok('domainList', { status: 3 })).data.map((x) => x.id)).toEqual([d.id]);
		await fails('domainList', { status: 4 }, /status must be one of 1, 2, 3/);
		await fails('domainMark', { id: 'x', mark: 1 }, /id must be an integer/);
		await fails('domainNote', { id: 999999, note: 'x' }, /domain 999999 does not exist/);
	});

	test('domainUpgrade charges and extends; a plan too small for the records is refused', async () => {
		const d = await newDomain(3);
		const before = balance();
		const listed = (await ok('domainList', { id: d.id })).data[0];
		const up = await ok('domainUpgrade', { id: d.id, pid: 3, period: 2 });
		expect(up.data).toEqual({ id: d.id, name: d.name, plan: { id: '3', name: 'Business' } });
		expect(balance()).toBeCloseTo(before - 398, 2);
		const after = (await ok('domainList', { id: d.id })).data[0];
		expect(Number(after.endtime.slice(0, 4)) - Number(listed.endtime.slice(0, 4))).toBe(2);

		const records = Array.from({ length: 21 }, (_, i) => `h${i};A;default;192.0.2.${i + 1}`).join('#');
		await ok('recordAdd', { did: d.id, records });
		await fails('domainUpgrade', { id: d.id, pid: 1, period: 1 }, /pid: plan Free allows 20 records/);
		const up4 = await ok('domainUpgrade', { id: d.id, pid: 4, period: 1 });
		expect(up4.data.plan).toEqual({ id: '4', name: 'Enterprise' });
		expect((await ok('domainList', { id: d.id })).data[0]).toMatchObject({ plan_id: '4', recordnum: '21', group_id: '3' });
	});

	test('domainDelete removes the domain with its records, monitors and strategies', async () => {
		const d = await newDomain(3);
		await ok('recordAdd', { did: d.id, records: 'www;A;default;192.0.2.10' });
		const mon = await ok('monitorAdd', { did: d.id, subdomain: 'www' });
		const tid = (await ok('tempAdd', { pid: 3, name: 'for-delete' })).data.id;
		await ok('styAdd', { did: d.id, subdomain: 'www', sty: 'auto', tid });
		expect((await ok('styList', { did: d.id })).total).toBe('1');
		const del = await ok('domainDelete', { id: d.id });
		expect(del.data).toEqual({ id: d.id, name: d.name });
		await fails('recordList', { did: d.id }, /did: domain .* does not exist/);
		expect((await ok('monitorList', { id: mon.data.id })).data).toEqual([]);
		expect((await ok('monitorRecordList', { mid: undefined })).data.some((m) => m.did === d.id)).toBe(false);
		expect((await ok('styList')).data.some((y) => y.domain_id === d.id)).toBe(false);
		const st = vendor.emu.management.state.dns;
		expect(Object.values(st.records).some((r) => String(r.did) === d.id)).toBe(false);
		await fails('domainDelete', { id: d.id }, /does not exist/);
		// the template is free again
		expect((await ok('tempDelete', { id: tid })).data).toEqual({ name: 'for-delete' });
	});
});

describe('records', () => {
	test('the demo domain has records', async () => {
		const demoDomain = (await ok('domainList')).data.find((x) => x.name === 'example-demo.com');
		expect(demoDomain).toBeDefined();
		const list = await ok('recordList', { did: demoDomain.id });
		expect(Number(list.total)).toBeGreaterThanOrEqual(3);
		expect(list.data[0]).toMatchObject({ domainname: 'example-demo.com', locale: expect.any(String), real_locale: expect.any(String) });
		expect(Object.keys(list.data[0]).sort()).toEqual(
			['createtime', 'createtime_ago', 'domainname', 'id', 'locale', 'mx', 'note', 'real_locale', 'recordline', 'recordtype', 'status', 'subdomain', 'ttl', 'value', 'weight'].sort(),
		);
	});

	test('recordAdd of several entries; paging over 3+ pages; filters', async () => {
		const d = await newDomain();
		const r = await ok('recordAdd', {
			did: d.id,
			records: [
				'@;A;default;192.0.2.1;;600;1',
				'www;CNAME;default;example.org;;300;1',
				'v6;AAAA;telecom;2001:DB8::1;;120;10',
				'@;MX;default;mail.example.org;5;3600;1',
				'@;TXT;default;v=spf1 -all',
				'sub;NS;default;ns1.example.net.',
				'_sip._tcp;SRV;default;10 5 5060 sip.example.org',
				'@;CAA;default;0 issue "letsencrypt.org"',
				'dkim._domainkey;TXT;default;v=DKIM1; k=rsa; p=MIGf;;300;1',
			].join('#'),
		});
		expect(r.data).toHaveLength(9);
		expect(r.data[0]).toEqual({ id: expect.stringMatching(/^\d+$/), subdomain: '@', status: '1', recordtype: 'A', recordline: 'default', value: '192.0.2.1', mx: '0', ttl: '600', weight: '1', locale: expect.any(String) });
		expect(r.data[2]).toMatchObject({ recordtype: 'AAAA', value: '2001:db8::1', recordline: 'telecom', ttl: '120', weight: '10' });
		expect(r.data[3]).toMatchObject({ recordtype: 'MX', mx: '5' });
		expect(r.data[4]).toMatchObject({ recordtype: 'TXT', ttl: '300', weight: '1' });
		expect(r.data[8].value).toBe('v=DKIM1; k=rsa; p=MIGf');

		const pages = [];
		for (let page = 1; page <= 3; page++) {
			const p = await ok('recordList', { did: d.id, limit: 4, page });
			expect(p).toMatchObject({ total: '9', totalpage: '3', page: String(page), limit: '4' });
			pages.push(...p.data.map((x) => x.id));
		}
		expect(pages).toEqual(r.data.map((x) => x.id));
		expect((await ok('recordList', { did: d.id, recordtype: 'txt' })).total).toBe('2');
		expect((await ok('recordList', { did: d.id, subdomain: '@' })).total).toBe('4');
		expect((await ok('recordList', { did: d.id, subdomain: 'www' })).data[0].recordtype).toBe('CNAME');
		expect((await ok('recordList', { did: d.id, status: 0 })).total).toBe('0');
		await fails('recordList', { did: d.id, status: 3 }, /status must be one of 0, 1/);
		await fails('recordList', {}, /did is required/);
		expect((await ok('domainList', { id: d.id })).data[0].recordnum).toBe('9');
	});

	test('a bad entry fails naming the entry and field, and stores nothing', async () => {
		const d = await newDomain();
		await ok('recordAdd', { did: d.id, records: 'keep;A;default;192.0.2.200' });
		const cases = [
			['ok;A;default;192.0.2.1#bad;A;default;999.1.1.1', /records entry 2 .*value must be an IPv4/],
			['bad;AAAA;default;192.0.2.1', /entry 1 .*value must be an IPv6/],
			['bad;CNAME;default;not a host', /entry 1 .*value must be a host name/],
			['bad;MX;default;mail.example.org;0', /entry 1 .*mx must be between 1 and 100/],
			['bad;MX;default;-bad-.example', /entry 1 .*value must be a host name/],
			['bad;NS;default;ns1', /entry 1 .*value must be a host name/],
			['bad;PTR;default;x.example.org', /entry 1 .*recordtype must be one of A, AAAA, CNAME, MX, TXT, NS, SRV, CAA/],
			['bad;A;moon;192.0.2.1', /entry 1 .*recordline must be one of/],
			['bad;A;default;192.0.2.1;;0', /entry 1 .*ttl must be between 1 and 86400/],
			['bad;A;default;192.0.2.1;;86401', /ttl must be between 1 and 86400/],
			['bad;A;default;192.0.2.1;;300;101', /entry 1 .*weight must be between 1 and 100/],
			['bad;A;default;192.0.2.1;;abc', /entry 1 .*ttl must be an integer/],
			['bad..sub;A;default;192.0.2.1', /entry 1 .*subdomain/],
			['a;A;default;192.0.2.1#b;A;default;192.0.2.2#c;A', /entry 3 .*subdomain;recordtype;recordline;value/],
			['keep;A;default;192.0.2.200', /entry 1 .*already exists/],
			['keep;CNAME;default;example.org', /entry 1 .*CNAME record cannot share/],
			['x;A;default;192.0.2.9#x;A;default;192.0.2.9', /entry 2 .*already exists/],
			['bad;SRV;default;10 5 sip.example.org', /entry 1 .*SRV/],
			['bad;CAA;default;0 issue letsencrypt.org', /entry 1 .*CAA/],
		];
		for (const [records, pattern] of cases) {
			const r = await fails('recordAdd', { did: d.id, records }, pattern);
			expect(r.message).toMatch(/nothing was added/);
		}
		expect(await count(d.id)).toBe(1);
		await fails('recordAdd', { did: d.id }, /records is required/);
		await fails('recordAdd', { did: d.id, records: ['a;A;default;1.2.3.4'] }, /records must be a string/);
	});

	test('the plan record limit applies to the whole batch', async () => {
		const d = await newDomain(1); // Free: 20 records
		const batch = (n, from) => Array.from({ length: n }, (_, i) => `r${from + i};A;default;198.51.100.${from + i + 1}`).join('#');
		await ok('recordAdd', { did: d.id, records: batch(18, 0) });
		await fails('recordAdd', { did: d.id, records: batch(3, 18) }, /plan Free allows 20 records/);
		expect(await count(d.id)).toBe(18);
	});

	test('recordUpdate, recordStatus, recordNote, recordDelete', async () => {
		const d = await newDomain();
		const [a, b, c] = (await ok('recordAdd', { did: d.id, records: 'a;A;default;192.0.2.1#b;A;default;192.0.2.2#c;TXT;default;hello' })).data;
		const up = await ok('recordUpdate', { did: d.id, record_id: a.id, value: '192.0.2.11', ttl: 60 });
		expect(up.data).toHaveLength(1);
		expect(up.data[0]).toMatchObject({ id: a.id, subdomain: 'a', recordtype: 'A', value: '192.0.2.11', ttl: '60' });
		const mx = await ok('recordUpdate', { did: d.id, record_id: a.id, recordtype: 'MX', value: 'mx.example.org' });
		expect(mx.data[0]).toMatchObject({ recordtype: 'MX', mx: '10', value: 'mx.example.org', ttl: '60' });
		await fails('recordUpdate', { did: d.id, record_id: b.id, value: 'nope' }, /value must be an IPv4/);
		await fails('recordUpdate', { did: d.id, record_id: b.id, ttl: 0 }, /ttl must be between 1 and 86400/);
		await fails('recordUpdate', { did: d.id, record_id: 1 }, /record_id: record 1 does not exist/);

		const st = await ok('recordStatus', { did: d.id, record_id: `${b.id},${c.id}`, status: 0 });
		expect(st.data).toEqual([
			{ id: b.id, subdomain: 'b', status: '0' },
			{ id: c.id, subdomain: 'c', status: '0' },
		]);
		expect((await ok('recordList', { did: d.id, status: 0 })).total).toBe('2');
		await fails('recordStatus', { did: d.id, record_id: b.id, status: 2 }, /status must be one of 0, 1/);

		const note = await ok('recordNote', { did: d.id, record_id: b.id, note: 'primary' });
		expect(note.data).toBeUndefined();
		expect((await ok('recordList', { did: d.id, subdomain: 'b' })).data[0].note).toBe('primary');

		const del = await ok('recordDelete', { did: d.id, record_id: `${a.id},${b.id}` });
		expect(del.data).toEqual([
			{ id: a.id, subdomain: 'a' },
			{ id: b.id, subdomain: 'b' },
		]);
		expect(await count(d.id)).toBe(1);
		await fails('recordDelete', { did: d.id, record_id: `${c.id},${a.id}` }, /does not exist/);
		expect(await count(d.id)).toBe(1);
		await fails('recordDelete', { did: d.id, record_id: [c.id] }, /record_id must be an id or ids separated by commas/);
	});
});

describe('downtime monitors', () => {
	test('add, list, update, status, records and delete', async () => {
		const d = await newDomain(3);
		await ok('recordAdd', { did: d.id, records: 'web;A;default;192.0.2.1#web;A;telecom;192.0.2.2#web;TXT;default;x' });
		await fails('monitorAdd', { did: d.id, subdomain: 'nothing' }, /no A or AAAA record/);
		await fails('monitorAdd', { did: d.id, subdomain: 'web', retry: 7 }, /retry must be one of 1, 3, 5, 10/);
		await fails('monitorAdd', { did: d.id, subdomain: 'web', notify: 'ops@example.org' }, /notify must be a notification method of plan Business: mail, sms \(addresses go in other_email and other_phone\)/);
		await fails('monitorAdd', { did: d.id, subdomain: 'web', notify: 'wechat' }, /notify must be a notification method/);
		await fails('monitorAdd', { did: d.id, subdomain: 'web', other_email: 'a@b.org,bad' }, /other_email/);
		await fails('monitorAdd', { did: d.id, subdomain: 'web', port: 70000 }, /port must be at most 65535/);
		const add = await ok('monitorAdd', { did: d.id, subdomain: 'web', port: 443, path: '/health', notify: 'mail', other_phone: '+4912345678' });
		expect(add.data).toMatchObject({
			did: d.id,
			subdomain: 'web',
			retry: '10',
			check_interval: '10',
			host: `web.${d.name}`,
			path: '/health',
			port: '443',
			protocol: 'https',
			switch: '0',
			less: '0',
			enable_delay: '0',
			status: '1',
			recordnum: '2',
			notify: 'mail',
			other_phone: '+4912345678',
		});
		expect(add.data).toHaveProperty('updatetime');
		const mid = add.data.id;
		await fails('monitorAdd', { did: d.id, subdomain: 'web' }, /already monitored/);

		const listed = (await ok('monitorList', { did: d.id })).data;
		expect(listed).toHaveLength(1);
		expect(listed[0]).toMatchObject({ id: mid, domain_name: d.name, domain_id: d.id, recordnum: '2' });
		expect((await ok('monitorList', { id: mid })).total).toBe('1');

		// records follow the domain's A records
		await ok('recordAdd', { did: d.id, records: 'web;A;unicom;192.0.2.3' });
		let recs = await ok('monitorRecordList', { mid });
		expect(recs.limit).toBe('1000');
		expect(recs.data.map((x) => x.ip)).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3']);
		expect(recs.data[0]).toMatchObject({ subdomain: 'web', did: d.id, retry: '10', check_interval: '10', path: '/health', host: `web.${d.name}`, status: '1' });
		expect((await ok('monitorRecordList', { id: recs.data[1].id })).data.map((x) => x.ip)).toEqual(['192.0.2.2']);

		const up = await ok('monitorUpdate', { monitor_id: mid, retry: 3, interval: 5, switch: 1 });
		expect(up.data).toMatchObject({ id: mid, retry: '3', check_interval: '5', switch: '1', port: '443' });
		await fails('monitorUpdate', { monitor_id: mid, interval: 2 }, /interval must be one of/);

		const rs = await ok('monitorRecordStatus', { id: recs.data[0].id, mid, status: 0 });
		expect(rs.data).toEqual({ id: recs.data[0].id, mid, status: '0' });
		await fails('monitorRecordStatus', { id: 999999, mid, status: 0 }, /does not belong/);

		const ms = await ok('monitorStatus', { monitor_id: mid, record_id: `${recs.data[1].id},${recs.data[2].id}`, status: 0 });
		expect(ms.data).toEqual({ id: mid, status: '0' });
		recs = await ok('monitorRecordList', { mid });
		expect(recs.data.map((x) => x.status)).toEqual(['0', '0', '0']);
		await ok('monitorStatus', { monitor_id: mid, status: 1 });
		expect((await ok('monitorRecordList', { mid })).data.map((x) => x.status)).toEqual(['1', '1', '1']);
		expect((await ok('monitorList', { id: mid })).data[0].status).toBe('1');

		const one = (await ok('recordList', { did: d.id, subdomain: 'web', recordtype: 'A' })).data[0];
		await ok('recordDelete', { did: d.id, record_id: one.id });
		expect((await ok('monitorRecordList', { mid })).total).toBe('2');

		const del = await ok('monitorDelete', { monitor_id: mid });
		expect(del.data).toEqual({ id: mid, host: `web.${d.name}` });
		expect((await ok('monitorRecordList', { mid: undefined })).data.some((x) => x.did === d.id)).toBe(false);
		await fails('monitorDelete', { monitor_id: mid }, /does not exist/);
	});

	test('the Free plan has no monitors', async () => {
		const d = await newDomain(1);
		await ok('recordAdd', { did: d.id, records: '@;A;default;192.0.2.1' });
		await fails('monitorAdd', { did: d.id, subdomain: '@' }, /allows 0 downtime monitors/);
	});
});

describe('strategy templates and strategies', () => {
	test('templates and template records', async () => {
		await fails('tempAdd', { pid: 1, name: 'free' }, /pid: plan Free does not include/);
		await fails('tempAdd', { pid: 3 }, /name is required/);
		const t = await ok('tempAdd', { pid: 3, name: 'eu', note: 'europe', status: 1 });
		expect(t.data).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'eu', pid: '3', note: 'europe' });
		const tid = t.data.id;
		const listed = (await ok('tempList', { id: tid })).data[0];
		expect(listed).toMatchObject({ name: 'eu', count: '0', status: '1', pid: '3', planname: 'Business', note: 'europe' });
		expect((await ok('tempList', { gid: 2 })).data.map((x) => x.id)).toContain(tid);
		expect((await ok('tempList', { gid: 1 })).data.map((x) => x.id)).not.toContain(tid);

		const upd = await ok('tempUpdate', { id: tid, name: 'europe', status: 0 });
		expect(upd.data).toEqual({ id: tid, name: 'europe', status: '0', pid: '3', note: 'europe' });
		expect((await ok('tempStatus', { id: tid, status: 1 })).data).toEqual({ id: tid, name: 'europe', status: '1' });
		await fails('tempStatus', { id: tid, status: 9 }, /status must be one of 0, 1/);

		const add = await ok('tempStyAdd', { tid, continent: 'Europe', country: 'DE', isp: 'Telekom', province: 'Hesse', city: 'Frankfurt', ip: '192.0.2.80' });
		expect(add.data).toBeUndefined();
		await ok('tempStyAdd', { tid, country: 'FR', ip: '2001:db8::80', weight: 5, status: 0 });
		await fails('tempStyAdd', { tid, ip: 'nowhere' }, /ip must be an IPv4 or IPv6 address/);
		await fails('tempStyAdd', { tid }, /ip is required/);
		await fails('tempStyAdd', { tid, ip: '192.0.2.1', weight: 0 }, /weight must be at least 1/);
		const recs = await ok('tempStyList', { tid });
		expect(recs.total).toBe('2');
		expect(recs.data[0]).toMatchObject({ tid, continent: 'Europe', country: 'DE', isp: 'Telekom', city: 'Frankfurt', ip: '192.0.2.80', weight: '1', status: '1', ip_location: 'DE Hesse Frankfurt Telekom' });
		expect(recs.data[1]).toMatchObject({ weight: '5', status: '0' });
		expect((await ok('tempList', { id: tid })).data[0].count).toBe('2');

		const rid = recs.data[0].id;
		expect((await ok('tempStyUpdate', { id: rid, tid, weight: 9, city: 'Berlin' })).data).toBeUndefined();
		expect((await ok('tempStyList', { tid })).data[0]).toMatchObject({ weight: '9', city: 'Berlin', ip: '192.0.2.80' });
		expect((await ok('tempStyStatus', { id: rid, tid, status: 0 })).data).toBeUndefined();
		expect((await ok('tempStyList', { tid })).data[0].status).toBe('0');
		await fails('tempStyStatus', { id: rid, tid: 1, status: 0 }, /does not exist in template 1/);

		const del = await ok('tempStyDelete', { id: rid, tid });
		expect(typeof del.data).toBe('string');
		expect((await ok('tempStyList', { tid })).total).toBe('1');
		await fails('tempStyDelete', { id: rid, tid }, /does not exist/);

		expect((await ok('tempDelete', { id: tid })).data).toEqual({ name: 'europe' });
		expect((await ok('tempList', { id: tid })).data).toEqual([]);
		expect(Object.values(vendor.emu.management.state.dns.tempStys).some((x) => String(x.tid) === tid)).toBe(false);
	});

	test('strategies: add, list, update, status, delete, and their checks', async () => {
		const d = await newDomain(3);
		const tid = (await ok('tempAdd', { pid: 3, name: 'sty-tpl' })).data.id;
		await ok('tempStyAdd', { tid, ip: '192.0.2.1' });
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'geo', tid }, /sty must be one of auto, isp_region, isp_province, isp_city, null/);
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'isp_city', tid }, /sty: plan Business allows/);
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'auto', tid: 999999 }, /tid: strategy template 999999/);
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'auto' }, /tid is required/);
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'auto', tid, maxip: 0 }, /maxip must be at least 1/);
		const free = await newDomain(1);
		await fails('styAdd', { did: free.id, subdomain: 'www', sty: 'auto', tid }, /did: plan Free .* does not include/);

		const add = await ok('styAdd', { did: d.id, subdomain: 'www', sty: 'isp_region', maxip: 2, tid });
		expect(add.data).toBeUndefined();
		await fails('styAdd', { did: d.id, subdomain: 'www', sty: 'auto', tid }, /already has strategy/);
		const list = await ok('styList', { did: d.id });
		expect(list.data).toHaveLength(1);
		const y = list.data[0];
		expect(y).toMatchObject({ domain_id: d.id, domain_name: d.name, subdomain: 'www', sty: 'isp_region', sty_en: expect.any(String), maxip: '2', sty_count: '1', temp_id: tid, temp_name: 'sty-tpl', status: '1' });
		expect((await ok('styList', { id: y.id })).total).toBe('1');

		expect((await ok('styUpdate', { id: y.id, did: d.id, sty: 'null', maxip: 3 })).data).toBeUndefined();
		expect((await ok('styList', { id: y.id })).data[0]).toMatchObject({ sty: 'null', maxip: '3', subdomain: 'www' });
		await fails('styUpdate', { id: y.id, did: d.id, sty: 'isp_city' }, /sty: plan Business allows/);
		expect((await ok('styStatus', { id: y.id, did: d.id, status: 0 })).data).toBeUndefined();
		expect((await ok('styList', { id: y.id })).data[0].status).toBe('0');
		await fails('styStatus', { id: y.id, did: free.id, status: 1 }, /does not exist in domain/);

		await fails('tempDelete', { id: tid }, /is used by 1 strategy/);
		expect((await ok('styDelete', { id: y.id, did: d.id })).data).toBeUndefined();
		expect((await ok('styList', { did: d.id })).total).toBe('0');
		await fails('styDelete', { id: y.id, did: d.id }, /does not exist/);
		await ok('tempDelete', { id: tid });
	});
});

describe('access', () => {
	test('a sub-account sees only the domains it was given; other accounts see none', async () => {
		const core = vendor.emu.management.core;
		const mine = await newDomain(2);
		const sub = core.createAccount({ username: 'dns_sub', password: 'Sub-pass-1', parent: demo().uid, gid: 88 });
		sub.perms = { 6: [Number(mine.id)] };
		const st = vendor.emu.management.state;
		st.account = st.account || {};
		st.account.groupRoles = st.account.groupRoles || [];
		for (const op of ['domainList', 'recordList']) st.account.groupRoles.push({ id: 9800 + op.length, gid: 88, value: `API/dns/${op}` });
		const subToken = (await post('/API/OAuth/authorize', { username: 'dns_sub', password: 'Sub-pass-1' })).access_token;
		expect((await ok('domainList', {}, subToken)).data.map((x) => x.id)).toEqual([mine.id]);
		const demoDomain = (await ok('domainList')).data.find((x) => x.name === 'example-demo.com');
		const denied = await api('recordList', { did: demoDomain.id }, subToken);
		expect(denied.code).toBe(0);
		expect(denied.message).toMatch(/permission denied/);

		core.createAccount({ username: 'dns_other', password: 'Other-pass-1', balance: 0 });
		const other = (await post('/API/OAuth/authorize', { username: 'dns_other', password: 'Other-pass-1' })).access_token;
		expect((await ok('domainList', {}, other)).total).toBe('0');
		const r = await api('recordList', { did: demoDomain.id }, other);
		expect(r.code).toBe(0);
		expect((await ok('planList', {}, other)).data.every((p) => p.auth === null)).toBe(true);
	});

	test('a bad token is answered with code -1', async () => {
		expect((await api('domainList', {}, 'bad-token')).code).toBe(-1);
	});
});

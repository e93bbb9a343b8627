'use strict';
/**
 * The emulator's dialects (emulator/dialects.js): for each one, what the default does and
 * what the dialect does instead, over plain HTTP. This file: the registry (control route,
 * createEmulator option, CLI flag) and the management dialects; the storage dialects are in
 * dialects.storage.test.js, the helpers both use in dialects-helpers.js.
 */
const { createEmulator } = require('..');
const { spawnEmulator } = require('../spawn');
const { useDemoEmulator, control, dialects, api, login } = require('./dialects-helpers');

const emu = useDemoEmulator();

describe('the registry', () => {
	test('GET lists the enabled and available dialects, POST replaces the set, unknown names are refused, reset keeps them', async () => {
		const { json } = await control('GET', '/dialects');
		expect(json.enabled).toEqual([]);
		expect(json.available.map((d) => d.name)).toEqual([
			'commonPrefixesPlain',
			'markerInclusive',
			'aclOwnerOnly',
			'underscoreSigned',
			'subresourceDecoded',
			'trickyUploadIds',
			'bucketPathSlash',
			'booleansCapitalized',
			'booleansNumeric',
			'numericReferences',
			'partEtagMissing',
			'rangeAs200',
			'rangeIgnored',
			'ifMatchIgnored',
			'multipartEtagPlain',
			'listingRepeats',
			'numbersAsStrings',
			'numbersAsNumbers',
			'emptyObjectsAsArrays',
			'lineIdsDiffer',
			'loginInvalidates',
			'tokenLifetime60',
			'failedTasksListedRunning',
			'tokenRefusedOtherCode',
			'tokenRefusedChinese',
			'expiresTimestamp',
			'objectIdInAnswers',
			'hostLineWords',
			'dnsLinesOwn',
			'byteOrderMark',
			'charsetLatin1',
			'jsonContentTypes',
			'whitespaceAround',
			'compressedAnswers',
			'unbindOnBindPath',
			'extraFields',
		]);
		for (const d of json.available) {
			expect(['storage', 'management', 'both']).toContain(d.area);
			expect(d.description.length).toBeGreaterThan(20);
		}
		await dialects(['markerInclusive', 'numbersAsStrings']);
		await dialects(['numbersAsStrings']); // replaces, does not add
		const bad = await control('POST', '/dialects', { set: ['numbersAsStrings', 'noSuchDialect'] });
		expect(bad.status).toBe(400);
		expect(bad.json.error).toMatch(/unknown dialect noSuchDialect; available: commonPrefixesPlain/);
		expect((await control('GET', '/dialects')).json.enabled).toEqual(['numbersAsStrings']);
		await control('POST', '/reset');
		expect((await control('GET', '/dialects')).json.enabled).toEqual(['numbersAsStrings']);
	});

	test('createEmulator({ dialects }) takes an array or a comma-separated string', async () => {
		const a = await createEmulator({ dialects: 'aclOwnerOnly,tokenLifetime60' });
		const b = await createEmulator({ dialects: ['extraFields'] });
		try {
			expect(a.dialects.toJSON().enabled).toEqual(['aclOwnerOnly', 'tokenLifetime60']);
			expect(b.dialects.toJSON().enabled).toEqual(['extraFields']);
		} finally {
			await a.close();
			await b.close();
		}
		await expect(createEmulator({ dialects: ['nope'] })).rejects.toThrow(/unknown dialect nope/);
	});

	test('the CLI takes --dialect a,b', async () => {
		const cli = await spawnEmulator(['--dialect', 'markerInclusive,extraFields']);
		try {
			expect((await cli.control('GET', '/dialects')).enabled).toEqual(['markerInclusive', 'extraFields']);
		} finally {
			await cli.close();
		}
	});
});

describe('management dialects', () => {
	test('numbersAsStrings: every number is a string, the envelope too', async () => {
		const plain = await login();
		expect(plain.code).toBe(1);
		expect(plain.expires).toBe(7200);
		await dialects(['numbersAsStrings']);
		const auth = await login();
		expect(auth.code).toBe('1');
		expect(auth.expires).toBe('7200');
		const refused = await api('OAuth/authorize', { username: 'demo', password: 'wrong' });
		expect(refused.code).toBe('0');
		const bad = await api('profile/detail', { token: 'nope' });
		expect(bad.code).toBe('-1');
		const list = await api('cdn/domainList', { token: auth.access_token });
		expect(list.code).toBe('1');
		const numbers = [];
		const walk = (v) => (typeof v === 'number' ? numbers.push(v) : v && typeof v === 'object' && Object.values(v).forEach(walk));
		walk(list);
		expect(numbers).toEqual([]);
		// the default has numbers in the same answer (at least the code)
		await dialects([]);
		const numbersBefore = [];
		const walk2 = (v) => (typeof v === 'number' ? numbersBefore.push(v) : v && typeof v === 'object' && Object.values(v).forEach(walk2));
		walk2(await api('cdn/domainList', { token: auth.access_token }));
		expect(numbersBefore.length).toBeGreaterThan(0);
	});

	test('numbersAsNumbers: every numeric string is a number, code stays a number', async () => {
		const { access_token: token } = await login();
		const before = await api('profile/detail', { token });
		expect(before.data.uid).toBe('10001');
		expect(before.data.balance.price).toBe('1000.00');
		await dialects(['numbersAsNumbers']);
		const detail = await api('profile/detail', { token });
		expect(detail.code).toBe(1);
		expect(detail.data.uid).toBe(10001);
		expect(detail.data.status).toBe(1);
		expect(detail.data.balance.price).toBe(1000);
		expect(detail.data.couponprice).toBe(12.5);
		expect(detail.data.profile.phone).toBe('+1 555 0100'); // not numeric: unchanged
		const list = await api('instance/list', { token, limit: 2 });
		expect(list).toMatchObject({ limit: 2, page: 1 });
		expect(typeof list.total).toBe('number');
		expect(typeof list.data[0].id).toBe('number');
		expect(typeof list.data[0].instance_id).toBe('string');
		const auth = await login();
		expect(typeof auth.access_token).toBe('string');
	});

	test('emptyObjectsAsArrays: {} is written [] anywhere', async () => {
		const { access_token: token } = await login();
		const before = await api('cdn/domainList', { token });
		const empty = before.data.filter((d) => d.originback && !Array.isArray(d.originback) && !Object.keys(d.originback).length);
		expect(empty.length).toBeGreaterThan(0);
		await dialects(['emptyObjectsAsArrays']);
		const after = await api('cdn/domainList', { token });
		const byId = new Map(after.data.map((d) => [d.id, d]));
		for (const d of empty) expect(byId.get(d.id).originback).toEqual([]);
		// non-empty objects stay objects
		const withIp = after.data.find((d) => d.ip && Object.keys(d.ip).length);
		expect(Array.isArray(withIp.ip)).toBe(false);
	});

	test('lineIdsDiffer: row ids are not line codes; linetype is the code instance/create takes', async () => {
		const { access_token: token } = await login();
		const rows = async () => (await api('instance/networkResourceList', { token, nodeid: 1 })).result;
		const plain = await rows();
		expect(plain.map((r) => [r.id, r.linetype])).toEqual([
			['1', '1'],
			['2', '2'],
			['3', '3'],
			['5', '5'],
		]);
		await dialects(['lineIdsDiffer']);
		const differ = await rows();
		expect(differ.map((r) => r.linetype)).toEqual(['1', '2', '3', '5']);
		expect(differ.map((r) => r.id)).toEqual(['101', '102', '103', '104']);
		for (const r of differ) expect(Object.keys(r).sort()).toEqual(['id', 'linetype', 'node', 'status']);
		// the rows of data centre 2 carry on the numbering; the same row keeps its id
		const all = (await api('instance/networkResourceList', { token })).result;
		expect(all.slice(0, 4).map((r) => r.id)).toEqual(['101', '102', '103', '104']);
		expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
		const order = { name: 'line-check', nodeid: 1, type: 1, cpuid: 1, memid: 2, imageid: 2, networkvalue: 2, pass: 'Str0ng-pass!' };
		const byRowId = await api('instance/create', { token, ...order, networkid: 102 });
		expect(byRowId.code).toBe(0);
		expect(byRowId.message).toMatch(/networkid: 102 is not a line code in data centre 1; the line codes offered there are 1, 2, 3, 5/);
		const byCode = await api('instance/create', { token, ...order, networkid: Number(differ[1].linetype) });
		expect(byCode.code).toBe(1);
	});

	test('loginInvalidates: a new log-in revokes the earlier tokens of that account only', async () => {
		const first = (await login()).access_token;
		await login();
		expect((await api('profile/detail', { token: first })).code).toBe(1); // default: still valid
		await dialects(['loginInvalidates']);
		const old = (await login()).access_token;
		const ops = (await login('demo_ops', 'ops-password')).access_token;
		const current = (await login()).access_token;
		const revoked = await api('profile/detail', { token: old });
		expect(revoked.code).toBe(-1);
		expect(revoked.message).toMatch(/token is invalid/);
		expect((await api('profile/detail', { token: first })).code).toBe(-1);
		expect((await api('profile/detail', { token: current })).code).toBe(1);
		expect((await api('profile/detail', { token: ops })).code).toBe(1); // another account's token stays
		// a refused log-in revokes nothing
		expect((await api('OAuth/authorize', { username: 'demo', password: 'wrong' })).code).toBe(0);
		expect((await api('profile/detail', { token: current })).code).toBe(1);
	});

	test('failedTasksListedRunning: a failed CDN task stays listed at 0; the default lists it completed (1); the status query says failed in both', async () => {
		const { access_token: token } = await login();
		const channel = (await api('cdn/domainList', { token, page: 1, limit: 100 })).data[0].name;
		const good = (await api('cdn/refresh', { token, type: 'file', urls: `https://${channel}/ok.js` })).data.id;
		const bad = (await api('cdn/refresh', { token, type: 'file', urls: 'https://not-a-channel.example.net/x.js' })).data.id;
		await control('POST', '/management/cdn/tasks/settle', {});
		const listed = async () => Object.fromEntries((await api('cdn/refreshList', { token, page: 1, limit: 100 })).data.map((t) => [t.id, t.status]));
		const status = (await api('cdn/refreshStatus', { token, id: `${good},${bad}` })).data[0];
		expect(status).toEqual({ [good]: 'success', [bad]: 'failed' });
		expect(await listed()).toMatchObject({ [good]: '1', [bad]: '1' });
		await dialects(['failedTasksListedRunning']);
		expect(await listed()).toMatchObject({ [good]: '1', [bad]: '0' });
		expect((await api('cdn/refreshStatus', { token, id: `${good},${bad}` })).data[0]).toEqual(status);
	});

	test('tokenLifetime60: expires says 60 and the token dies after 60 s of emulator time', async () => {
		const plain = await login();
		expect(plain.expires).toBe(7200);
		await dialects(['tokenLifetime60']);
		const short = await login();
		expect(short.expires).toBe(60);
		await control('POST', '/clock/advance', { ms: 59000 });
		expect((await api('profile/detail', { token: short.access_token })).code).toBe(1);
		await control('POST', '/clock/advance', { ms: 2000 });
		expect((await api('profile/detail', { token: short.access_token })).code).toBe(-1);
		expect((await api('profile/detail', { token: plain.access_token })).code).toBe(1); // issued before: 7200 s
	});

	test('tokenRefusedOtherCode and tokenRefusedChinese: a refused token in other words and codes; the default -1; every refusal counted', async () => {
		const before = (await control('GET', '/stats')).json.management.tokenRefusals;
		const plain = await api('profile/detail', { token: 'made-up' });
		expect(plain).toMatchObject({ code: -1, message: 'token is invalid or has expired, please authorize again' });
		await dialects(['tokenRefusedOtherCode']);
		expect(await api('profile/detail', { token: 'made-up' })).toMatchObject({ code: 0, message: 'access token expired, please log in again' });
		await dialects(['tokenRefusedChinese']);
		const { access_token: token } = await login();
		expect((await api('profile/detail', { token })).code).toBe(1);
		await control('POST', '/management/tokens/revoke', { username: 'demo' });
		const zh = await api('profile/detail', { token });
		expect(zh).toMatchObject({ code: 401, message: '登录已失效，请重新登录' });
		expect(zh.message).not.toMatch(/token|令牌/i);
		expect((await control('GET', '/stats')).json.management.tokenRefusals - before).toBe(3);
		// a refusal that is not about the token keeps its own words
		expect(await api('profile/mailUpdate', { token: (await login()).access_token, mail: 'not-an-address' })).toMatchObject({ code: 0 });
	});

	test('expiresTimestamp: expires is the Unix time the token ends (emulator clock); the loginExpires switch answers any value', async () => {
		await control('POST', '/faults', { tokenLifetimeS: 300 });
		try {
			await dialects(['expiresTimestamp']);
			const before = Math.floor(emu().clock.now() / 1000);
			const r = await login();
			expect(r.expires).toBeGreaterThanOrEqual(before + 299);
			expect(r.expires).toBeLessThanOrEqual(before + 301);
			await dialects([]);
			expect((await login()).expires).toBe(300);
			await control('POST', '/faults', { loginExpires: 'soon' });
			const odd = await login();
			expect(odd.expires).toBe('soon');
			expect((await api('profile/detail', { token: odd.access_token })).code).toBe(1); // the token lives as long as ever
		} finally {
			await control('POST', '/faults', { tokenLifetimeS: 7200, loginExpires: null });
		}
	});

	test('objectIdInAnswers: restore and roll back answer the id of the backup or snapshot, not of the host', async () => {
		const { access_token: token } = await login();
		const backups = (await api('instance/backupList', { token, status: 1 })).data;
		const backup = backups.find((b) => b.id !== b.instance.id);
		expect(backup).toBeDefined();
		const plain = await api('instance/backupRestore', { token, id: Number(backup.id) });
		expect(plain.code).toBe(1);
		expect(Object.keys(plain.data).sort()).toEqual(['backup_id', 'instance_id']);
		await control('POST', '/clock/advance', { ms: 600000 });
		await dialects(['objectIdInAnswers']);
		const restored = await api('instance/backupRestore', { token, id: Number(backup.id) });
		expect(restored.data).toMatchObject({ id: backup.id, instance_id: backup.instance.instance_id });
		await control('POST', '/clock/advance', { ms: 600000 });
		const snapshot = (await api('instance/snapshotList', { token })).data[0];
		const rolled = await api('instance/snapshotRollback', { token, id: Number(snapshot.id) });
		expect(rolled.data).toMatchObject({ id: snapshot.id, instance_id: snapshot.instance.instance_id });
		await control('POST', '/clock/advance', { ms: 600000 });
	});

	test("hostLineWords and lineIdsDiffer: a host's network is its line's row, named in the service's language", async () => {
		const { access_token: token } = await login();
		const hosts = async () => (await api('instance/list', { token })).data.map((h) => h.network);
		const plain = await hosts();
		expect(plain).toContainEqual({ id: '5', line: 'BGP' });
		await dialects(['lineIdsDiffer']);
		for (const n of await hosts()) expect(Number(n.id)).toBeGreaterThan(100);
		await dialects(['hostLineWords']);
		// the row of the line, as networkResourceList lists it (ids 101... as with lineIdsDiffer)
		const words = await hosts();
		expect(words.find((n) => n.line === '多线BGP').id).not.toBe('5');
		for (const n of words) expect(Number(n.id)).toBeGreaterThan(100);
		await dialects(['lineIdsDiffer', 'hostLineWords']);
		const both = await hosts();
		expect(both.find((n) => n.line === '多线BGP').id).not.toBe('5');
	});

	test("dnsLinesOwn: record lines are the service's own values; empty is the default line; the English words are refused", async () => {
		const { access_token: token } = await login();
		const did = Number((await api('dns/domainList', { token })).data[0].id);
		await dialects(['dnsLinesOwn']);
		const listed = (await api('dns/recordList', { token, did })).data;
		for (const r of listed) expect(['默认', '电信', '联通', '移动', '教育网', '境外', '搜索引擎']).toContain(r.recordline);
		const refused = await api('dns/recordAdd', { token, did, records: 'own-1;A;default;198.51.100.7;;600;' });
		expect(refused.code).toBe(0);
		expect(refused.message).toMatch(/recordline must be one of 默认, 电信/);
		const added = await api('dns/recordAdd', { token, did, records: 'own-1;A;;198.51.100.7;;600;#own-2;A;电信;198.51.100.8;;600;' });
		expect(added.code).toBe(1);
		expect(added.data.map((r) => r.recordline)).toEqual(['默认', '电信']);
		const updated = await api('dns/recordUpdate', { token, did, record_id: Number(added.data[1].id), ttl: 900 });
		expect(updated.data[0]).toMatchObject({ recordline: '电信', ttl: '900' });
		await dialects([]);
		expect((await api('dns/recordList', { token, did, subdomain: 'own-1' })).data[0].recordline).toBe('default');
	});

	test('unbindOnBindPath: instance/unbind is no endpoint (HTTP 404); cloudDiskBind without iid unbinds, as the documents\' example (readings R60)', async () => {
		const { access_token: token } = await login();
		const host = (await api('instance/list', { token })).data.find((h) => h.status === '1');
		const disk = (await api('instance/cloudDiskAdd', { token, nodeid: Number(host.nodeid), disk_name: 'unbind-dialect', value: 10 })).data;
		expect((await api('instance/cloudDiskBind', { token, id: String(disk.id), iid: Number(host.id) })).code).toBe(1);
		await dialects(['unbindOnBindPath']);
		const res = await fetch(`${emu().url}/API/instance/unbind`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, id: Number(disk.id) }) });
		expect(res.status).toBe(404);
		expect(await res.text()).toMatch(/no such endpoint/);
		const unbound = await api('instance/cloudDiskBind', { token, id: String(disk.id) });
		expect(unbound).toMatchObject({ code: 1, data: { disk_id: disk.disk_id ?? expect.any(String) } });
		expect((await api('instance/cloudDiskList', { token, status: 1 })).data.map((d) => d.id)).toContain(String(disk.id));
		await dialects([]);
		expect((await api('instance/cloudDiskBind', { token, id: String(disk.id), iid: Number(host.id) })).code).toBe(1);
		expect((await api('instance/unbind', { token, id: Number(disk.id) })).code).toBe(1);
	});

	test('extraFields: the envelope and every record carry fields the documents do not list (readings R38); maps get none', async () => {
		const { access_token: token } = await login();
		const before = await api('profile/detail', { token });
		expect(JSON.stringify(before)).not.toMatch(/x_extra|_links/);
		await dialects(['extraFields']);
		const auth = await login();
		expect(auth).toMatchObject({ code: 1, x_extra: expect.any(String), _links: expect.any(Object) });
		const detail = await api('profile/detail', { token });
		expect(detail.x_extra).toEqual(expect.any(String));
		expect(detail.data.x_extra).toEqual(expect.any(String));
		expect(detail.data.profile.x_extra).toEqual(expect.any(String));
		expect(detail.data.balance.x_extra).toEqual(expect.any(String));
		for (const s of detail.data.subaccounts) expect(s.x_extra).toEqual(expect.any(String));
		const lines = await api('instance/networkResourceList', { token, nodeid: 1 });
		for (const r of lines.result) {
			expect(r.x_extra).toEqual(expect.any(String));
			expect(r.node.x_extra).toEqual(expect.any(String));
		}
		const channels = await api('cdn/domainList', { token });
		const withIp = channels.data.find((d) => d.ip && Object.keys(d.ip).length);
		expect(Object.keys(withIp.ip).every((k) => /^[\d.:a-f]+$/i.test(k))).toBe(true); // a map keyed by IP gets no field
		const failure = await api('profile/detail', { token: 'nope' });
		expect(failure).toMatchObject({ code: -1, x_extra: expect.any(String) });
	});
});

'use strict';
/**
 * The account, sub-account, group and billing operations of the emulator's management
 * interface (docs/vendor/account-billing-cdn.md), called over HTTP the way a client does.
 */
const { DEMO, useEmulator } = require('./helpers');

// Every call names its token (none: not logged in), so the client keeps no token of its own.
const vendor = useEmulator({ seed: 'demo', management: { timing: { taskDelayMs: 200 } } });
const { api, ok, login, control } = vendor;
/** The shared fail with this file's argument order: the token before the pattern. */
const fail = (path, body, token, pattern) => vendor.fail(path, body, pattern, token);

let token;

beforeAll(async () => {
	token = await login(...DEMO);
	expect(typeof token).toBe('string');
});

describe('profile', () => {
	test('detail has the account shape with balance, coupon balance and sub-accounts', async () => {
		const { data } = await ok('profile/detail', {}, token);
		expect(data).toMatchObject({ uid: expect.stringMatching(/^\d+$/), name: 'demo', status: '1' });
		for (const f of [
			'picture',
			'contactname',
			'phone',
			'tel',
			'fax',
			'card',
			'address',
			'company',
			'website',
			'qq',
			'other_mail',
			'other_phone',
			'daily_report',
			'month_report',
			'week_report',
		]) {
			expect(typeof data.profile[f]).toBe('string');
		}
		expect(Object.keys(data.balance).sort()).toEqual(['alarm', 'alarm_num', 'alarm_value', 'price', 'send_num', 'status']);
		expect(data.balance.price).toBe('1000.00');
		expect(data.couponprice).toBe('12.50');
		expect(data.subaccounts).toEqual([
			expect.objectContaining({
				name: 'demo_ops',
				status: '1',
				couponprice: '0.00',
				gid: '1',
				profile: expect.objectContaining({ verify_mail: '0' }),
			}),
		]);
	});

	test('update saves the main account profile fields and validates them', async () => {
		const r = await ok(
			'profile/update',
			{ company: 'Acme', tel: '+1 555 0199', recieve_mail: 0, daily_report: '1', other_mail: 'a@example.com, b@example.org' },
			token,
		);
		expect(r.data).toEqual({ phone: expect.any(String) });
		const { data } = await ok('profile/detail', {}, token);
		expect(data.profile).toMatchObject({
			company: 'Acme',
			tel: '+1 555 0199',
			daily_report: '1',
			other_mail: 'a@example.com,b@example.org',
		});
		await fail('profile/update', { other_mail: 'not-a-mail' }, token, /other_mail/);
		await fail('profile/update', { recieve_sms: 2 }, token, /recieve_sms/);
		await fail('profile/update', { company: { x: 1 } }, token, /company must be a string/);
	});

	test('picture, mail and phone updates', async () => {
		expect((await ok('profile/pictureUpdate', { picture: 'https://img.example.com/a.png' }, token)).data).toEqual({
			picture: 'https://img.example.com/a.png',
		});
		expect((await ok('profile/mailUpdate', { mail: 'new@example.com' }, token)).data).toEqual({ mail: 'new@example.com' });
		expect((await ok('profile/phoneUpdate', { phone: '+44 20 7946 0000' }, token)).data).toEqual({ phone: '+44 20 7946 0000' });
		const { data } = await ok('profile/detail', {}, token);
		expect(data.mail).toBe('new@example.com');
		expect(data.profile).toMatchObject({ picture: 'https://img.example.com/a.png', phone: '+44 20 7946 0000' });
		await fail('profile/mailUpdate', { mail: 'nope' }, token, /mail/);
		await fail('profile/phoneUpdate', { phone: 'call me' }, token, /phone/);
		await fail('profile/pictureUpdate', {}, token, /picture is required/);
	});

	test('passwordUpdate checks the old password, the repetition and the length', async () => {
		await ok('profile/register', { username: 'pwuser', password: 'first-pass', confirm_password: 'first-pass', mail: 'pw@example.com' });
		const t = await login('pwuser', 'first-pass');
		await fail(
			'profile/passwordUpdate',
			{ old_password: 'wrong-pass', new_password: 'second-pass', new_password2: 'second-pass' },
			t,
			/old_password/,
		);
		await fail(
			'profile/passwordUpdate',
			{ old_password: 'first-pass', new_password: 'second-pass', new_password2: 'other-pass' },
			t,
			/new_password2/,
		);
		await fail('profile/passwordUpdate', { old_password: 'first-pass', new_password: 'short', new_password2: 'short' }, t, /at least 8/);
		await ok('profile/passwordUpdate', { old_password: 'first-pass', new_password: 'second-pass', new_password2: 'second-pass' }, t);
		expect(await login('pwuser', 'first-pass')).toBeUndefined();
		expect(typeof (await login('pwuser', 'second-pass'))).toBe('string');
	});

	test('a wrong token answers code -1 and an unknown path 404', async () => {
		const r = await api('profile/detail', { token: 'nope' });
		expect(r.code).toBe(-1);
		const res = await fetch(`${vendor.emu.url}/API/profile/nothingHere`, { method: 'POST', body: '{}' });
		expect(res.status).toBe(404);
	});
});

describe('sub-accounts, groups and permissions', () => {
	let gid;
	let subUid;

	test('groupAdd, groupList (filter, paging fields), groupUpdate', async () => {
		const r = await ok('profile/groupAdd', { name: 'Billing team', note: 'reads bills' }, token);
		expect(r.data).toEqual({
			id: expect.stringMatching(/^\d+$/),
			uid: expect.any(String),
			name: 'Billing team',
			note: 'reads bills',
			created: expect.any(String),
		});
		gid = Number(r.data.id);
		await fail('profile/groupAdd', { name: 'Billing team' }, token, /already exists/);
		await fail('profile/groupAdd', {}, token, /name is required/);
		const list = await ok('profile/groupList', { name: 'billing' }, token);
		expect(list.data).toEqual([
			expect.objectContaining({ id: String(gid), name: 'Billing team', username: 'demo', created_ago: expect.stringMatching(/ago$/) }),
		]);
		expect(list).toMatchObject({ total: '1', page: '1', totalpage: '1' });
		const all = await ok('profile/groupList', {}, token);
		expect(all.data.map((g) => g.name)).toEqual(expect.arrayContaining(['Billing team', 'Operators']));
		const u = await ok('profile/groupUpdate', { id: gid, note: 'reads balance' }, token);
		expect(u.data).toMatchObject({ id: String(gid), name: 'Billing team', note: 'reads balance' });
		await fail('profile/groupUpdate', { id: 9999, name: 'x' }, token, /group 9999 does not exist/);
	});

	test('profile/update with an empty uid creates a sub-account that can log in', async () => {
		await fail(
			'profile/update',
			{ uid: '', username: 'bill_sub', password: 'sub-password', password2: 'other-password' },
			token,
			/password2/,
		);
		await fail(
			'profile/update',
			{ uid: '', username: 'bill_sub', password: 'sub-password', password2: 'sub-password', gid: 999 },
			token,
			/gid/,
		);
		await fail(
			'profile/update',
			{ uid: '', username: 'bill_sub', password: 'sub-password', password2: 'sub-password', cdnconfig: [{ type: 'video' }] },
			token,
			/cdnconfig\[0\]\.type/,
		);
		const r = await ok(
			'profile/update',
			{
				uid: '',
				username: 'bill_sub',
				password: 'sub-password',
				password2: 'sub-password',
				mail: 'bill@example.com',
				phone: '+1 555 0111',
				gid,
				status: 1,
				company: 'Acme',
				recieve_sms: '0',
				cdnconfig: [{ type: 'cloud', billtype: 'flow' }],
			},
			token,
		);
		expect(r.data).toEqual({ uid: expect.stringMatching(/^\d+$/), name: 'bill_sub', mail: 'bill@example.com', phone: '+1 555 0111' });
		subUid = Number(r.data.uid);
		await fail(
			'profile/update',
			{ uid: '', username: 'bill_sub', password: 'sub-password', password2: 'sub-password' },
			token,
			/already taken/,
		);
		const list = await ok('profile/subaccountList', {}, token);
		const item = list.data.find((s) => s.uid === String(subUid));
		expect(item).toMatchObject({
			name: 'bill_sub',
			company: 'Acme',
			recieve_sms: '0',
			status: '1',
			gid: String(gid),
			platform_zh: 'API',
			updatetime_ago: expect.stringMatching(/ago$/),
			group: { id: String(gid), uid: expect.any(String), name: 'Billing team', note: 'reads balance', created: expect.any(String) },
		});
		const t = await login('bill_sub', 'sub-password');
		const me = await ok('profile/detail', {}, t);
		expect(me.data).toMatchObject({ name: 'bill_sub', subaccounts: [] });
		expect(me.data.profile).toHaveProperty('verify_phone');
		expect(me.data.balance.price).toBe((await ok('profile/detail', {}, token)).data.balance.price);
	});

	test('a group permission granted lets the sub-account call; revoked it fails', async () => {
		const t = await login('bill_sub', 'sub-password');
		await fail('profile/balance', {}, t, /permission denied/);
		const cat = await ok('profile/groupPermissions', {}, token);
		expect(cat.data.profile).toMatchObject({ module: 'profile', name: expect.any(String) });
		expect(cat.data.profile.subs['API/profile/balance']).toEqual(expect.any(String));
		expect(cat.data.cdn.subs['API/cdn/domainList']).toEqual(expect.any(String));
		await fail('profile/groupRoleAdd', { gid, value: ['API/profile/doesNotExist'] }, token, /not a known permission/);
		await fail('profile/groupRoleAdd', { gid, value: 'API/profile/balance' }, token, /value must be an array/);
		const add = await ok('profile/groupRoleAdd', { gid, value: ['API/profile/balance', 'API/profile/payList'] }, token);
		expect(add.data).toEqual([
			{
				id: expect.any(String),
				gid: String(gid),
				value: 'API/profile/balance',
				created: expect.any(String),
				created_ago: expect.any(String),
			},
			{
				id: expect.any(String),
				gid: String(gid),
				value: 'API/profile/payList',
				created: expect.any(String),
				created_ago: expect.any(String),
			},
		]);
		expect((await ok('profile/balance', {}, t)).data).toEqual([{ price: expect.stringMatching(/^\d+\.\d\d$/) }]);
		const roles = await ok('profile/groupRoleList', { gid }, token);
		expect(roles.data.map((e) => e.value)).toEqual(['API/profile/balance', 'API/profile/payList']);
		expect(roles.data[0].group).toMatchObject({ id: String(gid), name: 'Billing team' });

		// Update the balance entry into invoiceBalance: balance is denied again.
		const upd = await ok('profile/groupRoleUpdate', { id: add.data[0].id, gid, value: 'API/profile/invoiceBalance' }, token);
		expect(upd.data).toMatchObject({ id: add.data[0].id, gid: String(gid), value: 'API/profile/invoiceBalance' });
		await fail('profile/balance', {}, t, /permission denied/);
		await ok('profile/invoiceBalance', {}, t);

		await fail('profile/groupRoleDelete', { id: add.data[1].id }, token, /id must be an array/);
		await ok('profile/groupRoleDelete', { id: [Number(add.data[0].id), add.data[1].id] }, token);
		expect((await ok('profile/groupRoleList', { gid }, token)).data).toEqual([]);
		await fail('profile/invoiceBalance', {}, t, /permission denied/);
		await fail('profile/payList', {}, t, /permission denied/);
	});

	test('a sub-account cannot manage sub-accounts', async () => {
		await ok('profile/groupRoleAdd', { gid, value: ['API/profile/update'] }, token);
		const t = await login('bill_sub', 'sub-password');
		await fail(
			'profile/update',
			{ uid: '', username: 'nested_sub', password: 'sub-password', password2: 'sub-password' },
			t,
			/sub-account cannot/,
		);
		// Its own profile is fine.
		await ok('profile/update', { contactname: 'Bill' }, t);
	});

	test('modifying with uid: status 0 disables the login, 1 enables it', async () => {
		const t = await login('bill_sub', 'sub-password');
		const r = await ok('profile/update', { uid: subUid, status: 0, mail: 'bill2@example.com' }, token);
		expect(r.data).toMatchObject({ uid: String(subUid), mail: 'bill2@example.com' });
		expect((await api('profile/detail', { token: t })).code).toBe(-1);
		const denied = await api('OAuth/authorize', { username: 'bill_sub', password: 'sub-password' });
		expect(denied.code).toBe(0);
		expect((await ok('profile/subaccountList', {}, token)).data.find((s) => s.uid === String(subUid)).status).toBe('0');
		await ok('profile/update', { uid: String(subUid), status: 1, password: 'changed-password', password2: 'changed-password' }, token);
		expect(await login('bill_sub', 'sub-password')).toBeUndefined();
		expect(typeof (await login('bill_sub', 'changed-password'))).toBe('string');
		await fail('profile/update', { uid: 1, status: 1 }, token, /not a sub-account/);
	});

	test('subaccountPerm stores resource permissions and limits channel lists', async () => {
		await fail('profile/subaccountPerm', { uid: subUid, perms: { 9: [1] } }, token, /perms/);
		await fail('profile/subaccountPerm', { uid: subUid, perms: { 5: '1001' } }, token, /perms\.5 must be an array/);
		await fail('profile/subaccountPerm', { uid: subUid, perms: [] }, token, /perms must be an object/);
		await ok('profile/groupRoleAdd', { gid, value: ['API/cdn/domainList'] }, token);
		const t = await login('bill_sub', 'changed-password');
		const before = await ok('cdn/domainList', {}, t);
		expect(Number(before.total)).toBeGreaterThan(1);
		await ok('profile/subaccountPerm', { uid: subUid, perms: { 5: [1001], 1: [] } }, token);
		const after = await ok('cdn/domainList', {}, t);
		expect(after.data.map((c) => c.id)).toEqual(['1001']);
		const state = await vendor.state('accounts');
		expect(state[subUid].perms).toEqual({ 1: [], 5: [1001] });
	});

	test('groupDelete refuses a group that holds sub-accounts', async () => {
		await fail('profile/groupDelete', { id: gid }, token, /still holds sub-accounts/);
		await ok('profile/update', { uid: subUid, gid: 0 }, token);
		await ok('profile/groupDelete', { id: gid }, token);
		expect((await ok('profile/groupList', { name: 'Billing' }, token)).data).toEqual([]);
		const sub = (await ok('profile/subaccountList', {}, token)).data.find((s) => s.uid === String(subUid));
		expect(sub).toMatchObject({ gid: '0', group: null });
	});

	test('subaccountList pages over 3+ pages', async () => {
		for (let i = 0; i < 4; i++) {
			await ok('profile/update', { uid: '', username: `page_sub${i}`, password: 'page-password', password2: 'page-password' }, token);
		}
		const seen = [];
		const first = await ok('profile/subaccountList', { limit: 2, page: 1 }, token);
		expect(first).toMatchObject({ limit: '2', page: '1', total: '6', totalpage: '3' });
		for (let page = 1; page <= 3; page++) {
			const r = await ok('profile/subaccountList', { limit: 2, page }, token);
			expect(r.data).toHaveLength(2);
			seen.push(...r.data.map((s) => s.name));
		}
		expect(new Set(seen).size).toBe(6);
		expect((await ok('profile/subaccountList', { limit: 2, page: 4 }, token)).data).toEqual([]);
		await fail('profile/subaccountList', { limit: 'many' }, token, /limit must be an integer/);
	});
});

describe('billing', () => {
	test('rechargeList filters by id and type; a recharge raises the balance', async () => {
		const all = await ok('profile/rechargeList', {}, token);
		expect(all.total).toBe('3');
		expect(all.data[0]).toEqual({
			id: expect.any(String),
			name: 'demo',
			uid: expect.any(String),
			price: expect.stringMatching(/^\d+\.\d\d$/),
			code: expect.any(String),
			type_zh: expect.any(String),
			status: '1',
			createtime: expect.any(String),
			createtime_ago: expect.stringMatching(/ago$/),
		});
		const sys = await ok('profile/rechargeList', { type: 4 }, token);
		expect(sys.data.map((r) => r.type_zh)).toEqual(['System recharge']);
		await fail('profile/rechargeList', { type: 9 }, token, /type must be one of/);
		const before = (await ok('profile/balance', {}, token)).data[0].price;
		const added = await control('/profile/recharge', { username: 'demo', price: 50, type: 1 });
		expect(added.balance).toBe((Number(before) + 50).toFixed(2));
		const one = await ok('profile/rechargeList', { id: added.id }, token);
		expect(one.data).toEqual([expect.objectContaining({ id: String(added.id), price: '50.00', type_zh: 'Alipay' })]);
	});

	test('balance and balanceAlarm: consumption below the threshold raises alarms', async () => {
		const b = await ok('profile/balance', {}, token);
		expect(b).toMatchObject({ data: [{ price: expect.any(String) }], total: '1' });
		await fail('profile/balanceAlarm', { alarm: 3 }, token, /alarm must be one of/);
		await fail('profile/balanceAlarm', { alarm: 1, alarm_value: 'lots' }, token, /alarm_value must be a number/);
		await control('/balance', { username: 'demo', price: 100.5 });
		const set = await ok('profile/balanceAlarm', { alarm: 1, alarm_num: 2, alarm_value: '100' }, token);
		expect(set.data).toEqual({ alarm: '1', alarm_num: '2', alarm_value: '100.00' });
		for (let i = 0; i < 3; i++) {
			await ok('cdn/domainAdd', { name: `alarm${i}.example.org`, type: 'cloud', ip: { '192.0.2.1': 80 } }, token);
		}
		const { data } = await ok('profile/detail', {}, token);
		expect(data.balance).toMatchObject({ price: '97.50', alarm: '1', alarm_num: '2', send_num: '2', alarm_value: '100.00' });
		const logs = await ok('profile/logs', { type: 'finance' }, token);
		expect(logs.data.filter((l) => l.title === 'Balance alarm')).toHaveLength(2);
		await control('/profile/recharge', { username: 'demo', price: 900 });
		expect((await ok('profile/detail', {}, token)).data.balance.send_num).toBe('0');
	});

	test('payList lists consumption with type, paytype and bid filters and paging', async () => {
		const channels = await ok('cdn/domainList', { limit: 100 }, token);
		const ch = channels.data.find((c) => c.name === 'alarm0.example.org');
		const byBid = await ok('profile/payList', { bid: Number(ch.id) }, token);
		expect(byBid.data).toEqual([
			{
				id: expect.any(String),
				uid: expect.any(String),
				name: 'CDN channel alarm0.example.org',
				code: expect.any(String),
				type_zh: 'Consumption',
				paytype_zh: 'Content delivery',
				price: '1.00',
				status: '1',
				created: expect.any(String),
				created_ago: expect.any(String),
			},
		]);
		const refunds = await ok('profile/payList', { type: 2 }, token);
		expect(refunds.data.every((p) => p.type_zh === 'Refund')).toBe(true);
		expect(refunds.data.length).toBeGreaterThan(0);
		const cdn = await ok('profile/payList', { paytype: 5 }, token);
		expect(cdn.data.every((p) => p.paytype_zh === 'Content delivery')).toBe(true);
		await fail('profile/payList', { paytype: 4 }, token, /paytype must be one of/);
		const p1 = await ok('profile/payList', { limit: 3 }, token);
		expect(Number(p1.totalpage)).toBeGreaterThanOrEqual(3);
		const p3 = await ok('profile/payList', { limit: 3, page: 3 }, token);
		expect(p3.data[0].id).not.toBe(p1.data[0].id);
	});

	test('invoiceBalance, invoiceApply (limit, special VAT rules, apply shape) and invoiceList', async () => {
		const bal = await ok('profile/invoiceBalance', {}, token);
		const available = Number(bal.data.invoiceprice);
		expect(bal.data.invoiceprice).toMatch(/^\d+\.\d\d$/);
		expect(available).toBeGreaterThan(40);
		await fail(
			'profile/invoiceApply',
			{ title: 'Acme', price: available + 1, type: 1, invoicetype: 2 },
			token,
			/exceeds the invoice balance/,
		);
		await fail('profile/invoiceApply', { title: 'Acme', price: 10, type: 1, invoicetype: 1 }, token, /registerno is required/);
		await fail(
			'profile/invoiceApply',
			{ title: 'Acme', price: 10, type: 2, invoicetype: 1, registerno: 'R', bankname: 'B', card: 'C' },
			token,
			/type 1/,
		);
		await fail('profile/invoiceApply', { title: 'Acme', price: 10, type: 3, invoicetype: 2 }, token, /type must be one of/);
		const r = await ok(
			'profile/invoiceApply',
			{
				title: 'Acme Ltd.',
				price: '30.5',
				type: 1,
				invoicetype: 2,
				recipients: 'Ann',
				mailaddress: '2 Road',
				phone: '+1 555 0123',
				postcode: '12345',
			},
			token,
		);
		for (const f of [
			'id',
			'uid',
			'title',
			'price',
			'type',
			'invoicetype',
			'status',
			'expressname',
			'expresscode',
			'mailaddress',
			'content',
			'created',
			'created_ago',
			'registerno',
			'bankname',
			'card',
			'address',
			'tel',
			'businesslicense',
			'taxcertificate',
			'taxatorqual',
			'fees',
			'express',
			'recipients',
			'phone',
			'postcode',
			'platform',
			'username',
		]) {
			expect(r.data).toHaveProperty(f);
		}
		expect(r.data).toMatchObject({
			title: 'Acme Ltd.',
			price: '30.50',
			type: '1',
			invoicetype: '2',
			status: '0',
			username: 'demo',
			mailaddress: '2 Road',
		});
		expect((await ok('profile/invoiceBalance', {}, token)).data.invoiceprice).toBe((available - 30.5).toFixed(2));
		const list = await ok('profile/invoiceList', {}, token);
		expect(list.total).toBe('3');
		expect(list.data[0]).toMatchObject({ id: r.data.id, status: '0' });
		await control('/profile/invoices/update', { id: Number(r.data.id), status: 1, expressname: 'Post', expresscode: 'X1' });
		expect((await ok('profile/invoiceList', { limit: 1 }, token)).data[0]).toMatchObject({
			status: '1',
			expressname: 'Post',
			expresscode: 'X1',
		});
	});

	test('couponList shows the five statuses and filters', async () => {
		const all = await ok('profile/couponList', {}, token);
		const byCode = Object.fromEntries(all.data.map((c) => [c.couponid, c.status]));
		expect(byCode).toEqual({ WELCOME50: '0', SPRING20: '1', USED10: '2', VOID5: '3', OLD30: '4' });
		expect(all.data[0]).toEqual({
			id: expect.any(String),
			uid: expect.any(String),
			couponid: expect.any(String),
			status: expect.any(String),
			price: expect.any(String),
			priceover: expect.any(String),
			created: expect.any(String),
			created_ago: expect.any(String),
			endtime: expect.any(String),
		});
		expect((await ok('profile/couponList', { status: 4 }, token)).data.map((c) => c.couponid)).toEqual(['OLD30']);
		expect((await ok('profile/couponList', { couponid: 'SPRING20' }, token)).data).toHaveLength(1);
		await fail('profile/couponList', { status: 7 }, token, /status must be one of/);
	});

	test('couponExchange activates unused codes; used, void, expired and unknown codes fail', async () => {
		expect((await ok('profile/couponExchange', {}, token)).data).toBe('12.50');
		const r = await ok('profile/couponExchange', { couponid: 'WELCOME50' }, token);
		expect(r.data).toEqual({ name: 'Welcome coupon', price: '50.00' });
		expect((await ok('profile/couponExchange', {}, token)).data).toBe('62.50');
		expect((await ok('profile/detail', {}, token)).data.couponprice).toBe('62.50');
		expect((await ok('profile/couponList', { couponid: 'WELCOME50' }, token)).data[0].status).toBe('1');
		await fail('profile/couponExchange', { couponid: 'WELCOME50' }, token, /already been activated/);
		await fail('profile/couponExchange', { couponid: 'USED10' }, token, /already been used/);
		await fail('profile/couponExchange', { couponid: 'VOID5' }, token, /void/);
		await fail('profile/couponExchange', { couponid: 'OLD30' }, token, /expired/);
		await fail('profile/couponExchange', { couponid: 'NOSUCH' }, token, /does not exist/);
		// A code not yet claimed by anyone becomes the caller's.
		await control('/profile/coupons', { couponid: 'FREE15', price: 15, name: 'Free fifteen' });
		expect((await ok('profile/couponExchange', { couponid: 'free15' }, token)).data).toEqual({ name: 'Free fifteen', price: '15.00' });
		expect((await ok('profile/couponExchange', {}, token)).data).toBe('77.50');
		// An unused code whose end time passes reads as expired.
		await control('/profile/coupons', { couponid: 'SOON', price: 5, username: 'demo', endtime: vendor.emu.clock.now() + 1000 });
		vendor.emu.clock.advance(2000);
		await fail('profile/couponExchange', { couponid: 'SOON' }, token, /expired/);
	});

	test('logs: type words, date range, paging', async () => {
		const finance = await ok('profile/logs', { type: 'finance', limit: 100 }, token);
		const titles = finance.data.map((l) => l.title);
		expect(titles).toEqual(expect.arrayContaining(['Apply for invoice', 'Exchange coupon', 'Set balance alarm']));
		expect(finance.data.every((l) => l.type === 'finance')).toBe(true);
		expect(finance.data[0]).toEqual({
			id: expect.any(String),
			uid: expect.any(String),
			type: 'finance',
			ip: expect.any(String),
			op: expect.any(String),
			title: expect.any(String),
			content: expect.any(String),
			created: expect.any(String),
			created_ago: expect.any(String),
		});
		const cdn = await ok('profile/logs', { type: 'webcdn' }, token);
		expect(cdn.data.map((l) => l.op)).toContain('cdn/domainAdd');
		const user = await ok('profile/logs', { type: 'user', limit: 100 }, token);
		expect(user.data.map((l) => l.op)).toEqual(expect.arrayContaining(['OAuth/authorize', 'profile/groupAdd', 'profile/update']));
		// Passwords never reach the log.
		expect(JSON.stringify(user.data)).not.toMatch(/sub-password/);
		// Sub-account logs show in the main account's logs.
		expect(user.data.some((l) => l.content.includes('Bill'))).toBe(true);
		await fail('profile/logs', { type: 'bogus' }, token, /type must be one of/);
		await fail('profile/logs', { start: '2020-13-01' }, token, /start/);
		await fail('profile/logs', { start: '2030-01-02', end: '2030-01-01' }, token, /start must not be later/);
		expect((await ok('profile/logs', { end: '2000-01-01' }, token)).total).toBe('0');
		const today = new Date(vendor.emu.clock.now()).toISOString().slice(0, 10);
		const todays = await ok('profile/logs', { start: today, end: today, limit: 5 }, token);
		expect(Number(todays.totalpage)).toBeGreaterThanOrEqual(3);
		const page3 = await ok('profile/logs', { start: today, end: today, limit: 5, page: 3 }, token);
		expect(page3.data).toHaveLength(5);
		expect(page3.data[0].id).not.toBe(todays.data[0].id);
	});
});

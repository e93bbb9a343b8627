'use strict';
/** The dialect matrix's entries for Vendor Account & Billing, in run order, and their fallbacks (see index.js). */
const { must, show, same, one, has, byId, demoUid, account, acc } = require('./checks');

/** The framing dialects (emulator/framing.js): the node reads them without a setting, the compatibility check does not name them. */
const FRAMINGS = new Set(['byteOrderMark', 'charsetLatin1', 'jsonContentTypes', 'whitespaceAround', 'compressedAnswers']);
const REGISTERED = { username: 'matrixuser1', password: 'Matrixuser-pass1', newPassword: 'Matrixuser-pass2' };

const entries = [
	{
		resource: 'account',
		operation: 'logIn',
		params: {},
		async check(json, ctx) {
			const item = one(json, 'log-in items');
			must(Number(item.expires) > 0, `expires is ${show(item.expires)}`);
			const dump = JSON.stringify(json);
			must(!/access_token|accessToken/.test(dump), 'the output names a token');
			for (const t of Object.keys(ctx.state('tokens'))) must(!dump.includes(t), 'a token appears in the output');
		},
	},
	{
		resource: 'account',
		operation: 'checkCompatibility',
		params: {},
		async check(json, ctx) {
			must(json.length > 1, `${json.length} finding(s)`);
			for (const f of json) must(typeof f.check === 'string' && typeof f.observed === 'string' && typeof f.reading === 'string', `a finding without check, observed or reading: ${show(f)}`);
			const summary = json.find((f) => f.check === 'summary');
			must(summary, 'no summary item');
			// it names the readings this column's emulator plays in the management interface, and no other;
			// only a restore shows objectIdInAnswers (the check changes nothing), and hostLineWords's line
			// rows have ids that are not line codes (lineIdsDiffer); how answers are framed (a byte order
			// mark, a charset, the Content-Type, white space, compression: readings R46) is read alike by
			// every part of the node and needs no setting, so the check does not report it
			const expected = new Set(ctx.managementDialects().filter((d) => d !== 'objectIdInAnswers' && !FRAMINGS.has(d)));
			if (expected.has('hostLineWords')) expected.add('lineIdsDiffer');
			same([...(summary.readings || [])].sort().join(','), [...expected].sort().join(','), 'readings found');
			const dump = JSON.stringify(json);
			must(!dump.includes('demo-password'), 'the password appears in the output');
			for (const t of Object.keys(ctx.state('tokens'))) must(!dump.includes(t), 'a token appears in the output');
		},
	},
	{
		resource: 'account',
		operation: 'get',
		params: { simplify: false },
		async check(json) {
			const me = one(json, 'account items');
			same(me.name, 'demo', 'name');
			must(has(me.subaccounts, (s) => s.name === 'demo_ops'), `sub-account demo_ops missing from ${show(me.subaccounts)}`);
			must(me.balance && Number(me.balance.price) > 0, `balance is ${show(me.balance)}`);
		},
	},
	{
		resource: 'balance',
		operation: 'get',
		params: { simplify: false },
		async check(json, ctx) {
			const bal = one(json, 'balance items');
			same(Number(bal.price).toFixed(2), ctx.state('balances')[demoUid(ctx)].price, 'balance');
		},
	},
	{
		resource: 'balance',
		operation: 'setAlarm',
		params: { additionalFields: { alarm: true, alarmValue: 250.5, alarmNum: 2 } },
		async check(json, ctx) {
			one(json, 'alarm items');
			const b = ctx.state('balances')[demoUid(ctx)];
			same(`${b.alarm} ${b.alarm_num} ${b.alarm_value}`, '1 2 250.50', 'alarm, count and threshold at the emulator');
		},
	},
	{
		resource: 'coupon',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { status: 0 } },
		async check(json) {
			must(has(json, (c) => c.couponid === 'WELCOME50'), `WELCOME50 missing from ${show(json.map((c) => c.couponid))}`);
			must(json.every((c) => String(c.status) === '0'), 'a coupon of another status is listed');
		},
	},
	{
		resource: 'coupon',
		operation: 'getBalance',
		params: { simplify: false },
		async check(json, ctx) {
			const item = one(json, 'coupon balance items');
			must(Number.isFinite(Number(item.data)), `no amount in ${show(item)}`);
			ctx.put('couponBalance', Number(item.data));
		},
	},
	{
		resource: 'coupon',
		operation: 'exchange',
		params: { couponid: 'WELCOME50' },
		async check(json, ctx) {
			one(json, 'exchange items');
			const c = acc(ctx).coupons.find((x) => x.couponid === 'WELCOME50');
			must(String(c.status) !== '0', 'WELCOME50 is still unused at the emulator');
		},
	},
	{
		resource: 'group',
		operation: 'create',
		params: { name: 'Matrix café group', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const g = one(json, 'group items');
			same(g.name, 'Matrix café group', 'name');
			const stored = acc(ctx).groups.find((x) => String(x.id) === String(g.id));
			must(stored, `group ${g.id} is not at the emulator`);
			same(stored.note, 'made by the dialect matrix', 'note at the emulator');
			ctx.put('groupId', String(g.id));
		},
	},
	{
		resource: 'group',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { name: 'Matrix' } },
		async check(json, ctx) {
			same(json.map((g) => String(g.id)).join(','), ctx.get('groupId'), 'groups named Matrix');
		},
	},
	{
		resource: 'group',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('groupId')), updateFields: { name: 'Matrix crew' } }),
		async check(json, ctx) {
			const stored = acc(ctx).groups.find((x) => String(x.id) === ctx.get('groupId'));
			same(stored && stored.name, 'Matrix crew', 'name at the emulator');
		},
	},
	{
		resource: 'groupPermission',
		operation: 'getCatalogue',
		params: { returnAll: true },
		async check(json) {
			const paths = json.flatMap((m) => Object.keys((m && m.subs) || {}));
			for (const p of ['API/cdn/domainList', 'API/profile/balance', 'API/instance/list']) must(paths.includes(p), `${p} missing from the catalogue`);
		},
	},
	{
		resource: 'groupPermission',
		operation: 'add',
		params: (ctx) => ({ gid: byId(ctx.get('groupId')), value: ['API/profile/balance', 'API/profile/payList'] }),
		async check(json, ctx) {
			const roles = acc(ctx).groupRoles.filter((r) => String(r.gid) === ctx.get('groupId'));
			same(roles.map((r) => r.value).sort().join(','), 'API/profile/balance,API/profile/payList', 'permissions of the group at the emulator');
		},
	},
	{
		resource: 'groupPermission',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, gid: byId(ctx.get('groupId')), returnAll: true }),
		async check(json, ctx) {
			same(json.map((e) => e.value).sort().join(','), 'API/profile/balance,API/profile/payList', 'permissions listed');
			ctx.put('roleIds', json.map((e) => String(e.id)));
			ctx.put('balanceRole', String(json.find((e) => e.value === 'API/profile/balance').id));
		},
	},
	{
		resource: 'groupPermission',
		operation: 'update',
		params: (ctx) => ({ gid: byId(ctx.get('groupId')), id: byId(ctx.get('balanceRole')), value: byId('API/profile/invoiceBalance') }),
		async check(json, ctx) {
			const r = acc(ctx).groupRoles.find((x) => String(x.id) === ctx.get('balanceRole'));
			same(r && r.value, 'API/profile/invoiceBalance', 'permission path at the emulator');
		},
	},
	{
		resource: 'groupPermission',
		operation: 'delete',
		params: (ctx) => ({ id: ctx.get('roleIds') }),
		async check(json, ctx) {
			must(!acc(ctx).groupRoles.some((r) => String(r.gid) === ctx.get('groupId')), 'the group still has permissions at the emulator');
		},
	},
	{
		resource: 'subAccount',
		operation: 'create',
		params: (ctx) => ({
			username: 'matrixsub1',
			password: 'Matrixsub-pass1',
			additionalFields: { mail: 'matrixsub@example.com', gid: ctx.get('groupId'), status: 1 },
		}),
		async check(json, ctx) {
			const made = one(json, 'sub-account items');
			const a = account(ctx, 'matrixsub1');
			must(a, 'matrixsub1 is not at the emulator');
			same(made.uid, a.uid, 'uid');
			same(a.parent, demoUid(ctx), 'parent account');
			same(a.gid, ctx.get('groupId'), 'group at the emulator');
			ctx.put('subUid', String(a.uid));
		},
	},
	{
		resource: 'subAccount',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			const mine = json.find((s) => s.name === 'matrixsub1');
			must(mine, `matrixsub1 missing from ${show(json.map((s) => s.name))}`);
			same(mine.uid, ctx.get('subUid'), 'uid');
		},
	},
	{
		resource: 'subAccount',
		operation: 'update',
		// out of the group, so that the group can be deleted
		params: (ctx) => ({ uid: byId(ctx.get('subUid')), updateFields: { gid: '0', company: 'Matrix Co' } }),
		async check(json, ctx) {
			const a = account(ctx, 'matrixsub1');
			same(a.gid, 0, 'group at the emulator');
			same(a.profile.company, 'Matrix Co', 'company at the emulator');
		},
	},
	{
		resource: 'subAccount',
		operation: 'setPermissions',
		params: (ctx) => ({ uid: byId(ctx.get('subUid')), perms: { rows: [{ type: 1, ids: '3, 4' }, { type: 5, ids: '7' }] } }),
		async check(json, ctx) {
			same(JSON.stringify(account(ctx, 'matrixsub1').perms), JSON.stringify({ 1: [3, 4], 5: [7] }), 'resource permissions at the emulator');
		},
	},
	{
		resource: 'group',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('groupId')) }),
		async check(json, ctx) {
			must(!acc(ctx).groups.some((g) => String(g.id) === ctx.get('groupId')), 'the group is still at the emulator');
		},
	},
	{
		resource: 'recharge',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.length, 3, 'recharges of the demo account');
			must(json.every((r) => Number(r.price) > 0), 'a recharge without an amount');
		},
	},
	{
		resource: 'payment',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { type: 2 } },
		async check(json) {
			must(json.length > 0, 'no refund listed');
			must(json.every((p) => p.type_zh === 'Refund'), `a payment that is not a refund is listed: ${show(json.map((p) => p.type_zh))}`);
			must(has(json, (p) => /Refund cloud disk/.test(p.name)), 'the demo refund is missing');
		},
	},
	{
		resource: 'report',
		operation: 'get',
		params: { period: 'last30Days', additionalFields: { currency: 'CNY' } },
		async check(json, ctx) {
			const r = one(json, 'reports');
			for (const k of ['balance', 'spent', 'refunded', 'netSpent', 'invoiceAmount', 'invoiceableAmount']) must(typeof r[k] === 'number' && Number.isFinite(r[k]), `${k} is not a number: ${show(r[k])}`);
			same(r.balance.toFixed(2), Number(ctx.core().balanceOf(demoUid(ctx)).price).toFixed(2), 'balance');
			must(r.spent > 0 && r.refunded > 0, `the demo's spending and refund of the last 30 days: ${show({ spent: r.spent, refunded: r.refunded })}`);
			same(Object.values(r.spentByService).reduce((a, b) => a + b, 0).toFixed(2), r.spent.toFixed(2), 'spending by service adds up');
			must(Object.keys(r.spentByService).every((s) => /^[A-Z][A-Za-z ]+$/.test(s)), `services in words: ${show(Object.keys(r.spentByService))}`);
			same(r.invoices, acc(ctx).invoices.filter((i) => i.uid === demoUid(ctx)).length, 'invoices');
			must(r.text.startsWith(`Balance: CNY ${r.balance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}. Last 30 Days (`), `text: ${show(r.text)}`);
			must(/^<table.*<\/table>$/.test(r.html), 'an HTML table');
		},
	},
	{
		resource: 'invoice',
		operation: 'getBalance',
		params: { simplify: false },
		async check(json, ctx) {
			const item = one(json, 'invoiceable amount items');
			must(Number(item.invoiceprice) > 10, `invoiceable amount ${show(item.invoiceprice)}`);
			ctx.put('invoiceable', Number(item.invoiceprice));
		},
	},
	{
		resource: 'invoice',
		operation: 'apply',
		params: { title: 'Matrix Ltd.', price: 10, additionalFields: { type: 1, invoicetype: 2, recipients: 'Finance', mailaddress: '1 Example Road', postcode: '10001' } },
		async check(json, ctx) {
			const item = one(json, 'invoice items');
			same(item.title, 'Matrix Ltd.', 'title');
			const stored = acc(ctx).invoices.find((i) => String(i.id) === String(item.id));
			must(stored, `invoice ${item.id} is not at the emulator`);
			same(Number(stored.price).toFixed(2), '10.00', 'amount at the emulator');
			ctx.put('invoiceId', String(item.id));
		},
	},
	{
		resource: 'invoice',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			must(has(json, (i) => String(i.id) === ctx.get('invoiceId')), `invoice ${ctx.get('invoiceId')} missing from ${show(json.map((i) => i.id))}`);
			same(json.length, 3, 'invoices (two demo ones and the new one)');
		},
	},
	{
		resource: 'log',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { type: 'finance' } },
		async check(json) {
			must(json.length > 0, 'no finance log entry');
			must(json.every((l) => l.type === 'finance'), 'an entry of another type is listed');
		},
	},
	{
		resource: 'account',
		operation: 'register',
		params: { username: REGISTERED.username, password: REGISTERED.password, mail: 'matrixuser@example.com', additionalFields: { phone: '+1 555 0111' } },
		async check(json, ctx) {
			same(one(json, 'register items').name, REGISTERED.username, 'name');
			const a = account(ctx, REGISTERED.username);
			must(a, 'the account is not at the emulator');
			same(a.mail, 'matrixuser@example.com', 'e-mail at the emulator');
			ctx.addUser(REGISTERED.username, REGISTERED.password);
		},
	},
	{
		resource: 'account',
		operation: 'updateProfile',
		as: REGISTERED.username,
		params: { updateFields: { company: 'Acme', dailyReport: 1, otherMail: 'a@example.com,b@example.com' } },
		async check(json, ctx) {
			const p = account(ctx, REGISTERED.username).profile;
			same(`${p.company} ${p.daily_report} ${p.other_mail}`, 'Acme 1 a@example.com,b@example.com', 'profile at the emulator');
		},
	},
	{
		resource: 'account',
		operation: 'updatePicture',
		as: REGISTERED.username,
		params: { picture: 'https://example.com/matrix.png' },
		async check(json, ctx) {
			same(account(ctx, REGISTERED.username).profile.picture, 'https://example.com/matrix.png', 'picture at the emulator');
		},
	},
	{
		resource: 'account',
		operation: 'updateMail',
		as: REGISTERED.username,
		params: { mail: 'changed@example.com' },
		async check(json, ctx) {
			same(account(ctx, REGISTERED.username).mail, 'changed@example.com', 'e-mail at the emulator');
		},
	},
	{
		resource: 'account',
		operation: 'updatePhone',
		as: REGISTERED.username,
		params: { phone: '+1 555 0199' },
		async check(json, ctx) {
			same(account(ctx, REGISTERED.username).phone, '+1 555 0199', 'phone at the emulator');
		},
	},
	{
		resource: 'account',
		operation: 'updatePassword',
		as: REGISTERED.username,
		params: { oldPassword: REGISTERED.password, newPassword: REGISTERED.newPassword },
		async check(json, ctx) {
			one(json, 'password items');
			must(await ctx.canLogIn(REGISTERED.username, REGISTERED.newPassword), 'the new password is refused');
			must(!(await ctx.canLogIn(REGISTERED.username, REGISTERED.password)), 'the old password still works');
		},
	},
];

const fallbacks = {
	'vendorAccountBilling/group/create': async (ctx) => {
		const find = () => acc(ctx).groups.find((g) => /^Matrix (café group|crew)$/.test(g.name));
		if (!find()) await ctx.api('profile/groupAdd', { name: 'Matrix café group', note: 'made by the dialect matrix' });
		ctx.put('groupId', String(find().id));
	},
	'vendorAccountBilling/groupPermission/add': async (ctx) => {
		const gid = Number(ctx.get('groupId'));
		if (!acc(ctx).groupRoles.some((r) => r.gid === gid)) await ctx.api('profile/groupRoleAdd', { gid, value: ['API/profile/balance', 'API/profile/payList'] });
	},
	'vendorAccountBilling/groupPermission/getAll': async (ctx) => {
		const roles = acc(ctx).groupRoles.filter((r) => String(r.gid) === ctx.get('groupId'));
		ctx.put('roleIds', roles.map((r) => String(r.id)));
		ctx.put('balanceRole', String(roles.find((r) => r.value === 'API/profile/balance').id));
	},
	'vendorAccountBilling/subAccount/create': async (ctx) => {
		if (!account(ctx, 'matrixsub1')) await ctx.api('profile/update', { uid: '', username: 'matrixsub1', password: 'Matrixsub-pass1', password2: 'Matrixsub-pass1', gid: Number(ctx.get('groupId')), status: 1 });
		ctx.put('subUid', String(account(ctx, 'matrixsub1').uid));
	},
	'vendorAccountBilling/account/register': async (ctx) => {
		if (!account(ctx, REGISTERED.username)) {
			await ctx.control('POST', '/management/accounts', { username: REGISTERED.username, password: REGISTERED.password, mail: 'matrixuser@example.com' });
		}
		ctx.addUser(REGISTERED.username, REGISTERED.password);
	},
};

module.exports = { entries, fallbacks };

'use strict';
/**
 * One successful run of every dropdown operation of the six action nodes, in an order where
 * each entry finds what it needs: creations before the reads, updates and deletes that use
 * them, destructive operations on things made for them (a registered account changes its
 * password, a bucket made empty is deleted). The emulator starts with the `demo` seed, whose
 * data the reads use (demo-bucket, the CDN channels, hosts web-1 and db-1, example-demo.com).
 *
 * An entry:
 *   { node, resource, operation,
 *     as?: 'username',                 run with that account's Vendor API credential (default demo)
 *     setup?: async (ctx) => {},       prepares through ctx (earlier results, the emulator's API
 *                                      and control routes, a dropdown as the editor calls it)
 *     params: {} | (ctx) => ({}),      the node parameters
 *     opts?: (ctx) => ({ input, binaryInput }),
 *     check: async (json, ctx, items) => {} }   throws when the output or the emulator's state
 *                                      is not what the operation promises
 * `ctx` is made by runner.js; `ctx.put(name, value)` / `ctx.get(name)` pass results on.
 *
 * Checks compare values as strings (a dialect may send "12" or 12) and read the emulator's
 * state in process (free of any wire dialect).
 */

const crypto = require('node:crypto');
const { readBinary } = require('../../support/storage');
const { dnsRecords } = require('../../support/vendor');

/* ---------- assertions ---------- */

function must(cond, message) {
	if (!cond) throw new Error(message);
}
const show = (x) => {
	const s = JSON.stringify(x);
	return s && s.length > 160 ? `${s.slice(0, 157)}...` : s;
};
function same(actual, expected, what) {
	if (String(actual) !== String(expected)) throw new Error(`${what}: expected ${show(String(expected))}, got ${show(actual)}`);
}
function count(list, n, what) {
	must(Array.isArray(list), `${what}: expected a list, got ${show(list)}`);
	if (list.length !== n) throw new Error(`${what}: expected ${n} item(s), got ${list.length}: ${show(list)}`);
}
function one(list, what) {
	count(list, 1, what);
	return list[0];
}
const has = (list, pred) => Array.isArray(list) && list.some(pred);
const md5 = (s) => crypto.createHash('md5').update(s).digest('hex');

/* ---------- parameter helpers ---------- */

const byId = (id) => ({ __rl: true, mode: 'id', value: String(id) });
const fromList = (id) => ({ __rl: true, mode: 'list', value: String(id) });
const bucketRl = (name) => ({ __rl: true, mode: 'name', value: name });

const BUCKET = 'matrix-bucket';
const EMPTY_BUCKET = 'matrix-empty';
const HELLO = 'Hello from the vendor object storage emulator!\n';
const UPLOAD_TEXT = 'uploaded by the dialect matrix\n';
const PARTS = ['first part of the matrix upload, ', 'second and last part'];

const pem = (cn) => `subject=CN=${cn}\n-----BEGIN CERTIFICATE-----\nZGVtbyBjZXJ0aWZpY2F0ZQ==\n-----END CERTIFICATE-----\n`;
const KEY = '-----BEGIN PRIVATE KEY-----\nbWF0cml4LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n';
const GIB = 1073741824;

const REGISTERED = { username: 'matrixuser1', password: 'Matrixuser-pass1', newPassword: 'Matrixuser-pass2' };

const row = (subdomain, recordtype, value, extra = {}) => ({ subdomain, recordtype, recordline: 'default', value, mx: 10, ttl: 300, weight: 1, ...extra });

/* ---------- state readers ---------- */

const demoUid = (ctx) => ctx.core().accountByName('demo').uid;
const account = (ctx, name) => ctx.core().accountByName(name);
const acc = (ctx) => ctx.state('account');
const cdn = (ctx) => ctx.state('cdn');
const inst = (ctx) => ctx.state('instance');
const dns = (ctx) => ctx.state('dns');
const channel = (ctx, id) => cdn(ctx).channels.find((c) => String(c.id) === String(id));
const task = (ctx, id) => cdn(ctx).tasks.find((t) => String(t.id) === String(id));
const host = (ctx, id) => inst(ctx).hosts[Number(id)];

/* ====================================================================== object storage */

const objectStorage = [
	{
		resource: 'bucket',
		operation: 'create',
		params: { bucketName: BUCKET, acl: 'public-read' },
		async check(json, ctx) {
			const b = (await ctx.buckets()).find((x) => x.name === BUCKET);
			must(b, `bucket ${BUCKET} does not exist at the emulator`);
			same(b.acl, 'public-read', 'the bucket ACL at the emulator');
		},
	},
	{
		resource: 'bucket',
		operation: 'checkCompatibility',
		// probes the open readings under a scratch prefix of the new bucket, and removes what it made
		// small first parts (the emulator takes them; the default 5 MiB makes this the slowest entry),
		// and the ACL probed in a scratch bucket of its own
		params: { bucket: bucketRl(BUCKET), options: { firstPartSize: 0.01, scratchBucket: true } },
		async check(json, ctx) {
			for (const f of json) must(typeof f.check === 'string' && typeof f.observed === 'string' && typeof f.reading === 'string', `a finding without check, observed or reading: ${show(f)}`);
			const summary = json.find((f) => f.check === 'summary');
			must(summary && summary.readings && summary.settings, `no summary with readings and settings: ${show(summary)}`);
			// what it found is what this column's emulator plays
			const r = summary.readings;
			same(r.commonPrefixes, ctx.dialect === 'commonPrefixesPlain' ? 'plainString' : 'prefixElement', 'CommonPrefixes form found');
			same(r.marker, ctx.dialect === 'markerInclusive' ? 'startsAt' : 'startsAfter', 'marker reading found');
			same(r.bucketAcl, ctx.dialect === 'aclOwnerOnly' ? 'fullControlOnly' : 'allGrants', 'ACL reading found');
			// the settings it recommends include those this column's credential needs
			for (const [k, val] of Object.entries(ctx.storageSettings())) if (k !== 'advanced') same(summary.settings[k], val, `recommended setting ${k}`);
			must(!JSON.stringify(json).includes('vendor-test-secret'), 'the access secret appears in the output');
			same((await ctx.objects(BUCKET)).length, 0, 'objects left in the bucket');
			same((await ctx.uploads()).length, 0, 'uploads left open');
			same((await ctx.buckets()).map((b) => b.name).sort().join(','), `demo-bucket,${BUCKET}`, 'buckets left (the scratch bucket removed)');
		},
	},
	{
		resource: 'bucket',
		operation: 'getAcl',
		params: { bucket: bucketRl(BUCKET) },
		async check(json) {
			const acl = one(json, 'ACL items');
			same(acl.owner && acl.owner.id, 'vendor-test', 'owner id');
			must(
				has(acl.grants, (g) => g.permission === 'FULL_CONTROL' && g.grantee && g.grantee.id === 'vendor-test'),
				`no FULL_CONTROL grant of the owner in ${show(acl.grants)}`,
			);
			// a canned ACL may only be derived from grants that prove it (DECISIONS.md); the storage
			// branch names it cannedAclDerived
			const derived = acl.cannedAclDerived !== undefined ? acl.cannedAclDerived : acl.cannedAcl;
			const allUsersRead = has(acl.grants, (g) => g.grantee && /\/AllUsers$/.test(String(g.grantee.uri)) && g.permission === 'READ');
			if (allUsersRead) same(derived, 'public-read', 'canned ACL derived from the grants');
			else must(derived === undefined || derived === null, `canned ACL ${show(derived)} claimed from grants that do not prove it: ${show(acl.grants)}`);
		},
	},
	{
		resource: 'bucket',
		operation: 'setAcl',
		params: { bucket: bucketRl(BUCKET), acl: 'authenticated-read' },
		async check(json, ctx) {
			const b = (await ctx.buckets()).find((x) => x.name === BUCKET);
			same(b && b.acl, 'authenticated-read', 'the bucket ACL at the emulator');
		},
	},
	{
		resource: 'object',
		operation: 'upload',
		params: {
			bucket: bucketRl(BUCKET),
			key: 'docs/matrix file.txt',
			binaryData: false,
			fileContent: UPLOAD_TEXT,
			additionalFields: { contentType: 'text/plain', metadata: { values: [{ name: 'source', value: 'matrix' }] } },
		},
		async check(json, ctx) {
			const item = one(json, 'upload items');
			same(item.etag, md5(UPLOAD_TEXT), 'ETag');
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'docs/matrix file.txt');
			must(o, 'the object is not at the emulator');
			same(o.size, Buffer.byteLength(UPLOAD_TEXT), 'stored size');
			same(o.meta && o.meta.source, 'matrix', 'stored metadata "source"');
		},
	},
	{
		resource: 'bucket',
		operation: 'listObjects',
		// folders and objects of the demo bucket, one per page: the node pages with the marker
		params: { bucket: bucketRl('demo-bucket'), returnAll: true, options: { delimiter: '/', maxKeys: 1 } },
		async check(json) {
			const got = json.map((o) => (o.type === 'folder' ? `folder ${o.prefix}` : `${o.type} ${o.key}`));
			same(got.join(', '), 'folder data/, object hello.txt, folder images/, folder reports/', 'listing');
			same(json[1].size, Buffer.byteLength(HELLO), 'size of hello.txt');
			same(json[1].etag, md5(HELLO), 'ETag of hello.txt');
		},
	},
	{
		resource: 'object',
		operation: 'download',
		params: { bucket: bucketRl('demo-bucket'), key: 'hello.txt', binaryPropertyName: 'data' },
		async check(json, ctx, items) {
			const item = one(items, 'download items');
			must(item.binary && item.binary.data, 'no binary field "data"');
			same((await readBinary(item.binary.data)).toString('utf8'), HELLO, 'downloaded bytes');
			same(item.json.size, Buffer.byteLength(HELLO), 'size');
		},
	},
	{
		resource: 'object',
		operation: 'getPresignedUrl',
		params: { bucket: bucketRl(BUCKET), key: 'docs/matrix file.txt', method: 'GET', expiresIn: 600 },
		async check(json) {
			const { url } = one(json, 'presigned items');
			must(/^http:\/\/127\.0\.0\.1:\d+\//.test(String(url)), `not a URL of the emulator: ${show(url)}`);
			const res = await fetch(url);
			same(res.status, 200, 'HTTP status of a GET of the presigned URL');
			same(await res.text(), UPLOAD_TEXT, 'body fetched through the presigned URL');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'initiate',
		// two uploads in one run: one is completed, the other aborted
		params: { bucket: bucketRl(BUCKET), key: '={{ $json.key }}', additionalFields: { contentType: 'application/octet-stream' } },
		opts: () => ({ input: [{ key: 'big/joined.bin' }, { key: 'big/aborted.bin' }] }),
		async check(json, ctx) {
			count(json, 2, 'initiated uploads');
			for (const u of json) must(typeof u.uploadId === 'string' && u.uploadId.length > 0, `no upload ID in ${show(u)}`);
			const open = (await ctx.uploads()).map((u) => u.uploadId);
			for (const u of json) must(open.includes(u.uploadId), `upload ${u.uploadId} is not open at the emulator`);
			ctx.put('uploadId', json[0].uploadId);
			ctx.put('abortId', json[1].uploadId);
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'uploadPart',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), partNumber: '={{ $json.n }}', binaryPropertyName: 'data' }),
		opts: () => ({ binaryInput: PARTS.map((text, i) => ({ json: { n: i + 1 }, binary: { data: { text, mimeType: 'application/octet-stream' } } })) }),
		async check(json, ctx) {
			count(json, 2, 'uploaded parts');
			json.forEach((p, i) => {
				same(p.partNumber, i + 1, `part ${i + 1} number`);
				same(p.etag, md5(PARTS[i]), `part ${i + 1} ETag`);
			});
			const u = (await ctx.uploads()).find((x) => x.uploadId === ctx.get('uploadId'));
			same(u && u.parts, 2, 'parts held by the emulator');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'listParts',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), returnAll: true }),
		async check(json) {
			same(json.map((p) => `${p.partNumber}:${p.etag}:${p.size}`).join(' '), PARTS.map((t, i) => `${i + 1}:${md5(t)}:${t.length}`).join(' '), 'parts listed');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'complete',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/joined.bin', uploadId: ctx.get('uploadId'), partsSource: 'list' }),
		async check(json, ctx) {
			const done = one(json, 'completed items');
			same(done.partCount, 2, 'part count');
			const o = (await ctx.objects(BUCKET)).find((x) => x.key === 'big/joined.bin');
			must(o, 'the joined object is not at the emulator');
			same(o.size, PARTS.join('').length, 'size of the joined object');
			must(!(await ctx.uploads()).some((u) => u.uploadId === ctx.get('uploadId')), 'the upload is still open');
		},
	},
	{
		resource: 'multipartUpload',
		operation: 'abort',
		params: (ctx) => ({ bucket: bucketRl(BUCKET), key: 'big/aborted.bin', uploadId: ctx.get('abortId') }),
		async check(json, ctx) {
			same(one(json, 'abort items').aborted, true, 'aborted');
			must(!(await ctx.uploads()).some((u) => u.uploadId === ctx.get('abortId')), 'the upload is still open at the emulator');
		},
	},
	{
		resource: 'object',
		operation: 'delete',
		params: { bucket: bucketRl(BUCKET), key: 'docs/matrix file.txt' },
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!(await ctx.objects(BUCKET)).some((o) => o.key === 'docs/matrix file.txt'), 'the object is still at the emulator');
		},
	},
	{
		resource: 'bucket',
		operation: 'delete',
		async setup(ctx) {
			await ctx.control('POST', '/storage/buckets', { name: EMPTY_BUCKET });
		},
		params: { bucket: bucketRl(EMPTY_BUCKET) },
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!(await ctx.buckets()).some((b) => b.name === EMPTY_BUCKET), 'the bucket is still at the emulator');
		},
	},
];

/* ====================================================================== account & billing */

const accountBilling = [
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
			// it names the readings this column's emulator plays in the management interface, and no other
			same([...(summary.readings || [])].sort().join(','), ctx.managementDialects().sort().join(','), 'readings found');
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
		params: { alarm: true, additionalFields: { alarmValue: 250.5, alarmNum: 2 } },
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
		params: { name: 'Matrix group', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const g = one(json, 'group items');
			same(g.name, 'Matrix group', 'name');
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
		params: { title: 'Matrix Ltd.', price: 10, type: 1, invoicetype: 2, additionalFields: { recipients: 'Finance', mailaddress: '1 Example Road', postcode: '10001' } },
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

/* ====================================================================== CDN */

const channelId = (ctx, name) => String(cdn(ctx).channels.find((c) => c.name === name).id);
const yyyymm = (ms) => {
	const d = new Date(ms);
	return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

const cdnOps = [
	{
		resource: 'accelerationProfile',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			for (const t of ['cloud', 'live', 'static']) must(has(json, (p) => p.type === t), `type ${t} missing from ${show(json.map((p) => p.type))}`);
		},
	},
	{
		resource: 'channel',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			const names = json.map((c) => c.name).sort();
			same(names.join(','), 'download.example.com,live.example.com,static.example.com,www.example.com', 'channels');
			same(json.find((c) => c.name === 'www.example.com').id, channelId(ctx, 'www.example.com'), 'id of www.example.com');
		},
	},
	{
		resource: 'channel',
		operation: 'create',
		params: {
			name: 'matrix.example.com',
			type: 'cloud',
			origins: { rows: [{ ip: '203.0.113.10', port: 80, weight: 0 }, { ip: '203.0.113.11', port: 8080, weight: 0 }] },
			additionalFields: { note: 'made by the dialect matrix' },
		},
		async check(json, ctx) {
			const item = one(json, 'channel items');
			const c = channel(ctx, item.id);
			must(c, `channel ${item.id} is not at the emulator`);
			same(c.name, 'matrix.example.com', 'name at the emulator');
			same(JSON.stringify(c.ip), JSON.stringify({ '203.0.113.10': '80', '203.0.113.11': '8080' }), 'origins at the emulator');
			ctx.put('channelId', String(item.id));
		},
	},
	{
		resource: 'channel',
		operation: 'get',
		params: (ctx) => ({ simplify: false, id: byId(ctx.get('channelId')) }),
		async check(json, ctx) {
			const c = one(json, 'channel items');
			same(c.id, ctx.get('channelId'), 'id');
			same(c.name, 'matrix.example.com', 'name');
		},
	},
	{
		resource: 'certificate',
		operation: 'create',
		params: { name: 'matrix-cert', sslCrt: pem('matrix.example.com'), sslKey: KEY },
		async check(json, ctx) {
			const item = one(json, 'certificate items');
			same(item.commonname, 'matrix.example.com', 'common name');
			must(!/PRIVATE KEY|bWF0cml4/.test(JSON.stringify(json)), 'the private key appears in the output');
			must(cdn(ctx).certs.some((c) => String(c.id) === String(item.id)), 'the certificate is not at the emulator');
			ctx.put('certId', String(item.id));
		},
	},
	{
		resource: 'certificate',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.name).sort().join(','), 'example-wildcard,matrix-cert', 'certificates');
		},
	},
	{
		resource: 'certificate',
		operation: 'get',
		params: (ctx) => ({ simplify: false, id: byId(ctx.get('certId')) }),
		async check(json, ctx) {
			const c = one(json, 'certificate items');
			same(c.id, ctx.get('certId'), 'id');
			same(c.name, 'matrix-cert', 'name');
		},
	},
	{
		resource: 'certificate',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('certId')), updateFields: { name: 'matrix-cert-2' } }),
		async check(json, ctx) {
			same(cdn(ctx).certs.find((c) => String(c.id) === ctx.get('certId')).name, 'matrix-cert-2', 'name at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('channelId')), updateFields: { mark: 1, note: 'changed by the matrix', origins: { rows: [{ ip: '203.0.113.12', port: 8443, weight: 0 }] } } }),
		async check(json, ctx) {
			const c = channel(ctx, ctx.get('channelId'));
			same(`${c.mark} ${c.note}`, '1 changed by the matrix', 'star and note at the emulator');
			same(JSON.stringify(c.ip), JSON.stringify({ '203.0.113.12': '8443' }), 'origins at the emulator');
		},
	},
	{
		resource: 'certificate',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('certId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!cdn(ctx).certs.some((c) => String(c.id) === ctx.get('certId')), 'the certificate is still at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'close',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(one(json, 'close items').id, ctx.get('channelId'), 'id');
			same(channel(ctx, ctx.get('channelId')).status, 2, 'status at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'start',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(channel(ctx, ctx.get('channelId')).status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'getCurrentData',
		params: (ctx) => ({ simplify: false, ids: [channelId(ctx, 'www.example.com')] }),
		async check(json, ctx) {
			const item = one(json, 'current data items');
			same(item.did, channelId(ctx, 'www.example.com'), 'channel id');
			must(Number.isFinite(Number(item.reqs)), `requests ${show(item.reqs)}`);
		},
	},
	{
		resource: 'channelLog',
		operation: 'getAll',
		params: (ctx) => ({ id: byId(channelId(ctx, 'www.example.com')), returnAll: true, filters: { begintime: '2026-01-01', endtime: '2026-01-03' } }),
		async check(json) {
			same(json.map((l) => l.name).join(','), '20260103_www.example.com.log.gz,20260102_www.example.com.log.gz,20260101_www.example.com.log.gz', 'log files');
			must(json.every((l) => /^https:\/\//.test(l.url)), 'a log file without a download address');
		},
	},
	{
		resource: 'livePushOrigin',
		operation: 'getAll',
		params: { returnAll: true, filters: { type: 'live' } },
		async check(json, ctx) {
			same(json.map((o) => `${o.id} ${o.name}`).join(','), `${channelId(ctx, 'live.example.com')} live.example.com`, 'live channels');
		},
	},
	{
		resource: 'serviceNode',
		operation: 'getAll',
		params: { name: 'www.example.com', type: 'core', returnAll: true },
		async check(json) {
			must(json.length > 0, 'no node');
			must(json.every((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n.ip)), `a node without an IP address: ${show(json)}`);
		},
	},
	{
		resource: 'serviceNode',
		operation: 'getForClient',
		params: { clientIp: '203.0.113.45', name: 'www.example.com', absolute: true },
		async check(json) {
			const item = one(json, 'items');
			same(item.client && item.client.client_ip, '203.0.113.45', 'client IP');
			must(Array.isArray(item.server) && item.server.length > 0, `no server in ${show(item)}`);
		},
	},
	{
		resource: 'ipAddress',
		operation: 'getLocation',
		params: { ip: '8.8.8.8\n10.1.2.3' },
		async check(json) {
			same(json.map((x) => x.ip).join(','), '8.8.8.8,10.1.2.3', 'addresses');
			same(json[1].isp, 'LAN', 'ISP of 10.1.2.3');
		},
	},
	{
		resource: 'statistic',
		operation: 'getBandwidth',
		params: (ctx) => ({
			simplify: false,
			domainIds: [channelId(ctx, 'www.example.com')],
			viewtype: 'custom',
			begintime: '2026-01-01T00:00:00',
			endtime: '2026-01-02T00:00:00',
			additionalFields: { serviceTypes: ['cloud'] },
		}),
		async check(json) {
			must(json.length > 0, 'no time slot');
			same(json[0].logtime, Date.UTC(2026, 0, 1) / 1000, 'first time slot');
			must(json.every((s) => Number.isFinite(Number(s.tx))), 'a slot without traffic');
		},
	},
	{
		resource: 'statistic',
		operation: 'getBreakdown',
		params: (ctx) => ({ domainIds: [channelId(ctx, 'www.example.com')], viewtype: 'yesterday', additionalFields: { types: ['cache', 'code'] } }),
		async check(json) {
			const item = one(json, 'breakdown items');
			same((item.cacheGraph || []).map((x) => x[0]).join(','), 'hit,miss', 'cache graph');
			must(item.code && typeof item.code === 'object' && Object.keys(item.code).includes('200'), `response codes ${show(item.code)}`);
		},
	},
	{
		resource: 'bill',
		operation: 'getByAccount',
		params: (ctx) => ({ simplify: false, months: yyyymm(ctx.now()), additionalFields: { type: ['cloud', 'download'] } }),
		async check(json, ctx) {
			same(json.map((b) => b.srvtype).sort().join(','), 'cloud,download', 'service types');
			same(json[0].month, yyyymm(ctx.now()), 'month');
		},
	},
	{
		resource: 'bill',
		operation: 'getByChannel',
		params: (ctx) => ({ simplify: false, domainIds: [channelId(ctx, 'www.example.com')], begintime: '2026-01-01T00:00:00Z', endtime: '2026-01-01T01:00:00Z' }),
		async check(json) {
			const item = one(json, 'bill items');
			same(item.billtype, 'flow', 'bill type');
			must(Number(item.total) > 0, `total ${show(item.total)}`);
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getPriceTiers',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((t) => Number(t.price).toFixed(2)).join(','), '0.20,0.18,0.15,0.12', 'prices');
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'buy',
		params: { flow: 100 * GIB },
		async check(json, ctx) {
			const pkgs = cdn(ctx).packages;
			same(pkgs.length, 2, 'packages at the emulator');
			same(pkgs[1].flow, 100 * GIB, 'size of the new package at the emulator');
			// the answer is the account's traffic: what is left of every bought package
			same(one(json, 'buy items').flow, pkgs.reduce((sum, p) => sum + Number(p.flowover), 0), 'bought traffic left');
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.length, 2, 'packages');
			must(json.every((p) => Number(p.flow) === 100 * GIB), `flows ${show(json.map((p) => p.flow))}`);
		},
	},
	{
		resource: 'trafficPackage',
		operation: 'getBalance',
		params: {},
		async check(json) {
			const item = one(json, 'balance items');
			same(item.buy && item.buy.total, 200 * GIB, 'bought traffic');
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'create',
		params: { type: 'file', urls: 'https://www.example.com/matrix.html\nhttps://static.example.com/matrix.css', waitForCompletion: true, waitTimeout: 20, pollInterval: 0.1 },
		async check(json, ctx) {
			const item = one(json, 'task items');
			// the result of the wait: `outcome` (the task's own `status` stays as the service sent it)
			same(item.outcome !== undefined ? item.outcome : item.status, 'success', 'outcome of the wait');
			const t = task(ctx, item.id);
			must(t && t.kind === 'refresh', `task ${item.id} is not a refresh at the emulator`);
			same(t.urls.join(' '), 'https://www.example.com/matrix.html https://static.example.com/matrix.css', 'URLs at the emulator');
			ctx.put('refreshId', String(item.id));
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'getStatus',
		params: (ctx) => ({ id: [ctx.get('refreshId')] }),
		async check(json, ctx) {
			same(json.map((s) => `${s.id} ${s.status}`).join(','), `${ctx.get('refreshId')} success`, 'statuses');
		},
	},
	{
		resource: 'cacheRefresh',
		operation: 'repeat',
		params: (ctx) => ({ id: byId(ctx.get('refreshId')) }),
		async check(json, ctx) {
			const item = one(json, 'task items');
			must(Number(item.id) > Number(ctx.get('refreshId')), `the repeated task has id ${item.id}`);
			same(task(ctx, item.id).urls.join(' '), task(ctx, ctx.get('refreshId')).urls.join(' '), 'URLs of the new task');
		},
	},
	{
		resource: 'prefetch',
		operation: 'create',
		params: { preloadtype: 0, urls: 'https://www.example.com/big.bin' },
		async check(json, ctx) {
			const item = one(json, 'task items');
			const t = task(ctx, item.id);
			must(t && t.kind === 'preload', `task ${item.id} is not a prefetch at the emulator`);
			same(t.urls.join(' '), 'https://www.example.com/big.bin', 'URLs at the emulator');
			ctx.put('prefetchId', String(item.id));
		},
	},
	{
		resource: 'prefetch',
		operation: 'getStatus',
		params: (ctx) => ({ id: [ctx.get('prefetchId')] }),
		async check(json, ctx) {
			const s = one(json, 'status items');
			same(s.id, ctx.get('prefetchId'), 'id');
			must(['processing', 'success'].includes(s.status), `status ${show(s.status)}`);
		},
	},
	{
		resource: 'prefetch',
		operation: 'repeat',
		params: (ctx) => ({ id: byId(ctx.get('prefetchId')) }),
		async check(json, ctx) {
			const item = one(json, 'task items');
			must(Number(item.id) > Number(ctx.get('prefetchId')), `the repeated task has id ${item.id}`);
			same(task(ctx, item.id).kind, 'preload', 'kind of the new task');
		},
	},
	{
		resource: 'task',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			same(json.length, cdn(ctx).tasks.length, 'tasks');
			const ids = json.map((t) => Number(t.id));
			same(ids.join(','), [...ids].sort((a, b) => b - a).join(','), 'order (newest first)');
			must(ids.includes(Number(ctx.get('refreshId'))), 'the refresh task is missing');
		},
	},
	{
		resource: 'task',
		operation: 'delete',
		params: (ctx) => ({ ids: [ctx.get('refreshId'), ctx.get('prefetchId')] }),
		async check(json, ctx) {
			same(json.map((d) => `${d.deleted} ${d.id}`).join(','), `true ${ctx.get('refreshId')},true ${ctx.get('prefetchId')}`, 'deleted tasks');
			must(!task(ctx, ctx.get('refreshId')) && !task(ctx, ctx.get('prefetchId')), 'a task is still at the emulator');
		},
	},
	{
		resource: 'channel',
		operation: 'delete',
		params: (ctx) => ({ domainIds: [ctx.get('channelId')] }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!channel(ctx, ctx.get('channelId')), 'the channel is still at the emulator');
		},
	},
];

/* ====================================================================== cloud host */

const HOST_PASS = 'Matrix-pass9';

const cloudHost = [
	{
		resource: 'dataCentre',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.areaname).join(','), 'North Zone 1,East Zone 2,South Zone 3,West Zone 4 (sold out)', 'data centres');
		},
	},
	{
		resource: 'cpuPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((c) => c.volume).join(','), '1,2,4,8,16', 'CPU packages');
		},
	},
	{
		resource: 'memoryPackage',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((m) => m.volume).join(','), '1,2,4,8,16,32', 'memory packages');
		},
	},
	{
		resource: 'image',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			must(has(json, (i) => i.image_id === 'img-ubuntu2204' && i.osname === 'Ubuntu 22.04 64-bit'), `Ubuntu 22.04 missing from ${show(json.map((i) => i.osname))}`);
		},
	},
	{
		resource: 'line',
		operation: 'getAll',
		params: { simplify: false, nodeid: byId(2), returnAll: true },
		async check(json) {
			count(json, 4, 'lines of East Zone 2');
			must(json.every((l) => l.node && String(l.node.id) === '2'), 'a line of another data centre');
			// the line codes of data centre 2 (seed: 1 inner network, 4 Mobile, 5 BGP, 6 dual line)
			same(json.map((l) => (l.linetype !== undefined && /^\d+$/.test(String(l.linetype)) ? l.linetype : l.id)).join(','), '1,4,5,6', 'line codes');
		},
	},
	{
		resource: 'host',
		operation: 'create',
		// the line as the user picks it: from the Line dropdown of data centre 1
		async setup(ctx) {
			const lines = await ctx.listSearch('vendorCloudHost', 'searchLines', { resource: 'host', operation: 'create', nodeid: fromList(1) });
			const bgp = lines.results.find((r) => /BGP/.test(r.name));
			must(bgp, `no BGP line in the dropdown: ${show(lines.results)}`);
			ctx.put('bgpLine', String(bgp.value));
		},
		params: (ctx) => ({
			name: 'matrix-host',
			nodeid: fromList(1),
			cpuid: fromList(1),
			memid: fromList(2),
			imageid: fromList(2),
			networkid: fromList(ctx.get('bgpLine')),
			networkvalue: 2,
			type: 1,
			pass: HOST_PASS,
			additionalFields: { note: 'made by the dialect matrix' },
			waitUntilRunning: true,
			waitTimeout: 20,
		}),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(item.status, 1, 'status');
			const h = host(ctx, item.id);
			must(h, `host ${item.id} is not at the emulator`);
			same(`${h.name} ${h.status} ${h.networkid} ${h.networkvalue}`, 'matrix-host 1 5 2', 'name, status, line and bandwidth at the emulator');
			ctx.put('hostId', String(item.id));
		},
	},
	{
		resource: 'host',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('hostId')) } }),
		async check(json, ctx) {
			const h = one(json, 'hosts');
			same(h.id, ctx.get('hostId'), 'id');
			same(h.name, 'matrix-host', 'name');
		},
	},
	{
		resource: 'host',
		operation: 'findInText',
		params: { text: 'Hi! matrix-host stopped answering, could you restart it?' },
		async check(json, ctx) {
			const item = one(json, 'answers');
			same(item.found, true, 'found');
			same(item.id, ctx.get('hostId'), 'id');
			same(item.name, 'matrix-host', 'name');
			const h = host(ctx, ctx.get('hostId'));
			same(item.statusCode, h.status, 'status code');
			must(typeof item.status === 'string' && !/^\d+$/.test(item.status), `status in words: ${show(item.status)}`);
			must(/^The text names host matrix-host /.test(item.message), `message: ${show(item.message)}`);
		},
	},
	{
		resource: 'host',
		operation: 'update',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), updateFields: { name: 'matrix-host-2', note: 'renamed' } }),
		async check(json, ctx) {
			const h = host(ctx, ctx.get('hostId'));
			same(`${h.name} ${h.note}`, 'matrix-host-2 renamed', 'name and note at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'star',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), mark: true }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('hostId')).mark, 1, 'star at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'getConsole',
		params: (ctx) => ({ id: byId(ctx.get('hostId')) }),
		async check(json) {
			const c = one(json, 'console items');
			must(/^vnc\./.test(String(c.host)) && /^\d+$/.test(String(c.port)) && c.ticket, `console ${show(c)}`);
		},
	},
	{
		resource: 'host',
		operation: 'sendKeys',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), key: 'ctrl-alt-delete' }),
		async check(json, ctx) {
			one(json, 'items');
			const sent = ctx.state('logs').filter((l) => l.op === 'instance/sendkey').map((l) => JSON.parse(l.content));
			must(sent.length === 1, `instance/sendkey reached the emulator ${sent.length} times`);
			same(`${sent[0].id} ${sent[0].key}`, `${ctx.get('hostId')} ctrl-alt-delete`, 'host and keys sent');
		},
	},
	{
		resource: 'host',
		operation: 'getMonitoring',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), type: 'hour' }),
		async check(json) {
			count(json, 60, 'points of an hour');
			// `value` as the service sent it (a number, or a numeric string under numbersAsStrings: DECISIONS)
			const numeric = (x) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Number.isFinite(Number(x));
			for (const p of json) must(p.metric === 'cpu' && numeric(p.value) && p.time === new Date(p.timestamp).toISOString(), `point ${show(p)}`);
		},
	},
	{
		resource: 'host',
		operation: 'stop',
		params: (ctx) => ({ id: [ctx.get('hostId')] }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('hostId')).status, 2, 'status at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'start',
		params: (ctx) => ({ id: [ctx.get('hostId')], waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			same(one(json, 'host items').status, 1, 'status');
			same(host(ctx, ctx.get('hostId')).status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'reboot',
		async setup(ctx) {
			ctx.put('rebootsBefore', ctx.state('logs').filter((l) => l.op === 'instance/update').length);
		},
		params: (ctx) => ({ id: [ctx.get('hostId')], waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			same(one(json, 'host items').status, 1, 'status');
			const log = ctx.state('logs').filter((l) => l.op === 'instance/update');
			must(log.length > ctx.get('rebootsBefore'), 'no instance/update reached the emulator');
			same(JSON.parse(log[log.length - 1].content).op, 'reset', 'power operation sent');
		},
	},
	{
		resource: 'hostDisk',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const d = one(json, 'disks of the host');
			same(d.value, 40, 'system disk size');
			ctx.put('diskId', String(d.id));
		},
	},
	{
		resource: 'hostDisk',
		operation: 'resize',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('diskId')), value: 60 }),
		async check(json, ctx) {
			same(one(json, 'resize items').value, 60, 'size');
			same(host(ctx, ctx.get('hostId')).diskvalue, 60, 'disk size at the emulator');
		},
	},
	{
		resource: 'host',
		operation: 'updateConfiguration',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), updateFields: { cpuid: '2', memid: '3', networkvalue: 5 } }),
		async check(json, ctx) {
			const h = host(ctx, ctx.get('hostId'));
			same(`${h.cpuid} ${h.memid} ${h.networkvalue}`, '2 3 5', 'CPU, memory and bandwidth at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'create',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), name: 'matrix-snap', additionalFields: { note: 'before' } }),
		async check(json, ctx) {
			const item = one(json, 'snapshot items');
			const s = Object.values(inst(ctx).snapshots).find((x) => x.snapshot_id === item.snapshot_id);
			must(s, `snapshot ${item.snapshot_id} is not at the emulator`);
			same(`${s.iid} ${s.name}`, `${ctx.get('hostId')} matrix-snap`, 'host and name at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const s = one(json, 'snapshots of the host');
			same(s.name, 'matrix-snap', 'name');
			ctx.put('snapshotId', String(s.id));
		},
	},
	{
		resource: 'snapshot',
		operation: 'update',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('snapshotId')), updateFields: { note: 'kept' } }),
		async check(json, ctx) {
			same(inst(ctx).snapshots[ctx.get('snapshotId')].note, 'kept', 'note at the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'rollback',
		params: (ctx) => ({ id: byId(ctx.get('snapshotId')), waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.id} ${item.status}`, `${ctx.get('hostId')} 1`, 'host and status');
			const log = ctx.state('logs').filter((l) => l.op === 'instance/snapshotRollback');
			must(log.length > 0, 'no roll back reached the emulator');
		},
	},
	{
		resource: 'snapshot',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('snapshotId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).snapshots[ctx.get('snapshotId')], 'the snapshot is still at the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'create',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), name: 'matrix-backup', backupType: 1, additionalFields: { note: 'system disk' }, waitForCompletion: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'backup items');
			same(`${item.status} ${item.progress}`, '1 100', 'status and progress');
			const b = Object.values(inst(ctx).backups).find((x) => x.backup_id === item.backup_id);
			must(b && b.status === 1, `backup ${item.backup_id} is not completed at the emulator`);
		},
	},
	{
		resource: 'backup',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, iid: byId(ctx.get('hostId')), returnAll: true }),
		async check(json, ctx) {
			const b = one(json, 'backups of the host');
			same(b.name, 'matrix-backup', 'name');
			ctx.put('backupId', String(b.id));
		},
	},
	{
		resource: 'backup',
		operation: 'update',
		params: (ctx) => ({ iid: byId(ctx.get('hostId')), id: byId(ctx.get('backupId')), updateFields: { note: 'kept' } }),
		async check(json, ctx) {
			same(inst(ctx).backups[ctx.get('backupId')].note, 'kept', 'note at the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'restore',
		params: (ctx) => ({ id: byId(ctx.get('backupId')), waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			const item = one(json, 'host items');
			same(`${item.id} ${item.status}`, `${ctx.get('hostId')} 1`, 'host and status');
			must(ctx.state('logs').some((l) => l.op === 'instance/backupRestore'), 'no restore reached the emulator');
		},
	},
	{
		resource: 'backup',
		operation: 'delete',
		params: (ctx) => ({ id: byId(ctx.get('backupId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(inst(ctx).backups[ctx.get('backupId')].status, 4, 'status at the emulator (4 is the recycle bin)');
		},
	},
	{
		resource: 'host',
		operation: 'reinstall',
		params: (ctx) => ({ id: byId(ctx.get('hostId')), isChangePass: true, password: 'Fresh-pass9', waitUntilRunning: true, waitTimeout: 20 }),
		async check(json, ctx) {
			same(one(json, 'host items').status, 1, 'status');
			must(ctx.state('logs').some((l) => l.op === 'instance/restore'), 'no reinstall reached the emulator');
			must(!JSON.stringify(json).includes('Fresh-pass9'), 'the password appears in the output');
		},
	},
	{
		resource: 'host',
		operation: 'delete',
		params: (ctx) => ({ id: [ctx.get('hostId')] }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(host(ctx, ctx.get('hostId')).status, 9, 'status at the emulator (9 is the recycle bin)');
		},
	},
];

/* ====================================================================== disks, networks, firewalls */

const dnf = [
	{
		resource: 'cloudDisk',
		operation: 'create',
		async setup(ctx) {
			// a host of its own in data centre 1 (the demo hosts are already in a network and a firewall)
			const r = await ctx.control('POST', '/management/instance/hosts/add', { name: 'matrix-dnf', nodeid: 1 });
			ctx.put('dnfHost', String(r.host.id));
		},
		params: { nodeid: byId(1), diskName: 'matrix-disk', value: 20, additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'disk items');
			const d = inst(ctx).disks[Number(item.id)];
			must(d, `disk ${item.id} is not at the emulator`);
			same(`${d.disk_name} ${d.value} ${d.nodeid}`, 'matrix-disk 20 1', 'name, size and data centre at the emulator');
			ctx.put('diskId', String(item.id));
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'getAll',
		params: { simplify: false, returnAll: true, filters: { nodeid: '1', status: 1 } },
		async check(json, ctx) {
			same(json.map((d) => String(d.id)).join(','), ctx.get('diskId'), 'usable disks of data centre 1');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'update',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')), updateFields: { diskName: 'matrix-disk-2' } }),
		async check(json, ctx) {
			same(inst(ctx).disks[ctx.get('diskId')].disk_name, 'matrix-disk-2', 'name at the emulator');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'attach',
		params: (ctx) => ({ diskIds: [ctx.get('diskId')], iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			const d = inst(ctx).disks[ctx.get('diskId')];
			same(`${d.iid} ${d.status}`, `${ctx.get('dnfHost')} 0`, 'host and status at the emulator');
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'detach',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')) }),
		async check(json, ctx) {
			const d = inst(ctx).disks[ctx.get('diskId')];
			same(d.status, 1, 'status at the emulator (1 is usable)');
			must(!d.iid, `still bound to host ${d.iid}`);
		},
	},
	{
		resource: 'cloudDisk',
		operation: 'delete',
		params: (ctx) => ({ diskId: byId(ctx.get('diskId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			same(inst(ctx).disks[ctx.get('diskId')].status, 2, 'status at the emulator (2 is the recycle bin)');
		},
	},
	{
		resource: 'network',
		operation: 'create',
		params: { nodeid: byId(1), name: 'matrix-net', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'network items');
			const n = inst(ctx).networks[Number(item.id)];
			must(n, `network ${item.id} is not at the emulator`);
			same(n.vxnet_id, item.vxnet_id, 'vxnet_id');
			ctx.put('networkId', String(item.id));
		},
	},
	{
		resource: 'network',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('networkId')) } }),
		async check(json, ctx) {
			const n = one(json, 'networks');
			same(`${n.id} ${n.name}`, `${ctx.get('networkId')} matrix-net`, 'id and name');
		},
	},
	{
		resource: 'network',
		operation: 'update',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')), updateFields: { name: 'matrix-net-2', note: 'renamed' } }),
		async check(json, ctx) {
			const n = inst(ctx).networks[ctx.get('networkId')];
			same(`${n.name} ${n.note}`, 'matrix-net-2 renamed', 'name and note at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'join',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')), iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('dnfHost')).netId, ctx.get('networkId'), 'network of the host at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'leave',
		params: (ctx) => ({ iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			must(!host(ctx, ctx.get('dnfHost')).netId, 'the host is still in the network at the emulator');
		},
	},
	{
		resource: 'network',
		operation: 'delete',
		params: (ctx) => ({ networkId: byId(ctx.get('networkId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).networks[ctx.get('networkId')], 'the network is still at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'create',
		params: { nodeid: byId(1), name: 'matrix-fw', additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'firewall items');
			const f = inst(ctx).firewalls[Number(item.id)];
			must(f, `firewall ${item.id} is not at the emulator`);
			same(f.firewall_id, item.firewall_id, 'firewall_id');
			ctx.put('firewallId', String(item.id));
		},
	},
	{
		resource: 'firewall',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('firewallId')) } }),
		async check(json, ctx) {
			const f = one(json, 'firewalls');
			same(`${f.id} ${f.name}`, `${ctx.get('firewallId')} matrix-fw`, 'id and name');
		},
	},
	{
		resource: 'firewall',
		operation: 'update',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), updateFields: { note: 'public web servers' } }),
		async check(json, ctx) {
			same(inst(ctx).firewalls[ctx.get('firewallId')].note, 'public web servers', 'note at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'join',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			same(host(ctx, ctx.get('dnfHost')).firewallId, ctx.get('firewallId'), 'firewall of the host at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'leave',
		params: (ctx) => ({ iid: byId(ctx.get('dnfHost')) }),
		async check(json, ctx) {
			must(!host(ctx, ctx.get('dnfHost')).firewallId, 'the host is still in the firewall at the emulator');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'add',
		params: (ctx) => ({
			fid: byId(ctx.get('firewallId')),
			direction: 'in',
			ruleAction: 'ACCEPT',
			protocol: 'tcp',
			destport: '22',
			source: '0.0.0.0/0',
			status: 1,
			additionalFields: { note: 'SSH' },
		}),
		async check(json, ctx) {
			const item = one(json, 'rule items');
			const r = inst(ctx).rules[Number(item.id)];
			must(r, `rule ${item.id} is not at the emulator`);
			same(`${r.fid} ${r.direction} ${r.action} ${r.protocol} ${r.destport} ${r.source}`, `${ctx.get('firewallId')} in ACCEPT tcp 22 0.0.0.0/0`, 'rule at the emulator');
			ctx.put('ruleId', String(item.id));
		},
	},
	{
		resource: 'firewallRule',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, fid: byId(ctx.get('firewallId')), returnAll: true }),
		async check(json, ctx) {
			same(json.map((r) => String(r.id)).join(','), ctx.get('ruleId'), 'rules of the firewall');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'update',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), ruleId: byId(ctx.get('ruleId')), updateFields: { destport: '2222', ruleAction: 'REJECT' } }),
		async check(json, ctx) {
			const r = inst(ctx).rules[ctx.get('ruleId')];
			same(`${r.action} ${r.destport}`, 'REJECT 2222', 'action and port at the emulator');
		},
	},
	{
		resource: 'firewallRule',
		operation: 'delete',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')), ruleId: byId(ctx.get('ruleId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).rules[ctx.get('ruleId')], 'the rule is still at the emulator');
		},
	},
	{
		resource: 'firewall',
		operation: 'delete',
		params: (ctx) => ({ fid: byId(ctx.get('firewallId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!inst(ctx).firewalls[ctx.get('firewallId')], 'the firewall is still at the emulator');
		},
	},
];

/* ====================================================================== DNS */

const PERSONAL = 2;
const BUSINESS = 3;
const domain = (ctx) => dns(ctx).domains[ctx.get('domainId')];
const did = (ctx) => byId(ctx.get('domainId'));
const record = (ctx, id) => dns(ctx).records[Number(id)];

const dnsOps = [
	{
		resource: 'plan',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json) {
			same(json.map((p) => p.name).join(','), 'Free,Personal,Business,Enterprise', 'plans');
			same(Number(json[1].price).toFixed(2), '29.00', 'price of Personal');
		},
	},
	{
		resource: 'domain',
		operation: 'add',
		params: { domain: 'matrix-example.com', pid: byId(PERSONAL), period: 1, additionalFields: { note: 'made by the dialect matrix' } },
		async check(json, ctx) {
			const item = one(json, 'domain items');
			const d = dns(ctx).domains[Number(item.id)];
			must(d, `domain ${item.id} is not at the emulator`);
			same(`${d.name} ${d.pid}`, 'matrix-example.com 2', 'name and plan at the emulator');
			ctx.put('domainId', String(item.id));
		},
	},
	{
		resource: 'domain',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { id: Number(ctx.get('domainId')) } }),
		async check(json, ctx) {
			const d = one(json, 'domains');
			same(`${d.id} ${d.name}`, `${ctx.get('domainId')} matrix-example.com`, 'id and name');
		},
	},
	{
		resource: 'domain',
		operation: 'star',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(domain(ctx).mark, 1, 'star at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'unstar',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(domain(ctx).mark, 0, 'star at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), status: 2 }),
		async check(json, ctx) {
			same(domain(ctx).status, 2, 'status at the emulator (2 is paused)');
		},
	},
	{
		resource: 'domain',
		operation: 'updateNote',
		async setup(ctx) {
			await ctx.control('POST', '/management/dns/domains/status', { id: Number(ctx.get('domainId')), status: 1 });
		},
		params: (ctx) => ({ did: did(ctx), note: 'matrix note' }),
		async check(json, ctx) {
			same(domain(ctx).note, 'matrix note', 'note at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'upgrade',
		params: (ctx) => ({ did: did(ctx), pid: byId(BUSINESS), period: 1 }),
		async check(json, ctx) {
			same(domain(ctx).pid, BUSINESS, 'plan at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'add',
		params: (ctx) => ({
			simplify: false,
			did: did(ctx),
			...dnsRecords([row('www', 'A', '203.0.113.10', { ttl: 600 }), row('@', 'MX', 'mail.matrix-example.com', { mx: 5 }), row('mail', 'AAAA', '2001:db8::25')]),
		}),
		async check(json, ctx) {
			count(json, 3, 'records');
			const stored = json.map((r) => record(ctx, r.id));
			must(stored.every(Boolean), 'a record is not at the emulator');
			same(stored.map((r) => `${r.subdomain} ${r.recordtype} ${r.value}`).join(', '), 'www A 203.0.113.10, @ MX mail.matrix-example.com, mail AAAA 2001:db8::25', 'records at the emulator');
			ctx.put('www', String(json[0].id));
			ctx.put('mx', String(json[1].id));
			ctx.put('mail', String(json[2].id));
		},
	},
	{
		resource: 'record',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, did: did(ctx), returnAll: true, filters: { recordtype: 'A' } }),
		async check(json, ctx) {
			same(json.map((r) => String(r.id)).join(','), ctx.get('www'), 'A records');
		},
	},
	{
		resource: 'record',
		operation: 'update',
		params: (ctx) => ({ simplify: false, did: did(ctx), recordId: byId(ctx.get('mx')), updateFields: { mx: 20, ttl: 3600 } }),
		async check(json, ctx) {
			const r = record(ctx, ctx.get('mx'));
			same(`${r.mx} ${r.ttl} ${r.value}`, '20 3600 mail.matrix-example.com', 'MX priority, TTL and value at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), recordId: byId(ctx.get('mail')), status: 0 }),
		async check(json, ctx) {
			same(record(ctx, ctx.get('mail')).status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'updateNote',
		params: (ctx) => ({ did: did(ctx), recordId: byId(ctx.get('www')), note: 'storefront' }),
		async check(json, ctx) {
			same(record(ctx, ctx.get('www')).note, 'storefront', 'note at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'add',
		params: (ctx) => ({ simplify: false, did: did(ctx), subdomain: 'www', additionalFields: { retry: 5, interval: 10, port: 443, path: '/health' } }),
		async check(json, ctx) {
			const item = one(json, 'monitor items');
			const m = dns(ctx).monitors[Number(item.id)];
			must(m, `monitor ${item.id} is not at the emulator`);
			same(`${m.subdomain} ${m.port} ${m.path}`, 'www 443 /health', 'host record, port and path at the emulator');
			ctx.put('monitorId', String(item.id));
		},
	},
	{
		resource: 'monitor',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, returnAll: true, filters: { did: Number(ctx.get('domainId')) } }),
		async check(json, ctx) {
			same(json.map((m) => String(m.id)).join(','), ctx.get('monitorId'), 'monitors of the domain');
		},
	},
	{
		resource: 'monitor',
		operation: 'update',
		params: (ctx) => ({ simplify: false, mid: byId(ctx.get('monitorId')), updateFields: { retry: 3, path: '/ping' } }),
		async check(json, ctx) {
			const m = dns(ctx).monitors[ctx.get('monitorId')];
			same(`${m.retry} ${m.path}`, '3 /ping', 'retries and path at the emulator');
		},
	},
	{
		resource: 'monitorRecord',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, mid: byId(ctx.get('monitorId')), returnAll: true }),
		async check(json, ctx) {
			const mr = one(json, 'monitor records');
			same(`${mr.subdomain} ${mr.ip}`, 'www 203.0.113.10', 'host record and address');
			ctx.put('monitorRecordId', String(mr.id));
		},
	},
	{
		resource: 'monitorRecord',
		operation: 'setStatus',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')), monitorRecordId: byId(ctx.get('monitorRecordId')), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).monitorRecords[ctx.get('monitorRecordId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'setStatus',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')), monitorRecordIds: [ctx.get('monitorRecordId')], status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).monitors[ctx.get('monitorId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'create',
		params: { pid: byId(PERSONAL), name: 'matrix-tpl', status: 0, additionalFields: { note: 'v1' } },
		async check(json, ctx) {
			const item = one(json, 'template items');
			const t = dns(ctx).templates[Number(item.id)];
			must(t, `template ${item.id} is not at the emulator`);
			same(`${t.name} ${t.pid} ${t.status}`, 'matrix-tpl 2 0', 'name, plan and status at the emulator');
			ctx.put('templateId', String(item.id));
		},
	},
	{
		resource: 'template',
		operation: 'getAll',
		params: { simplify: false, returnAll: true },
		async check(json, ctx) {
			same(json.map((t) => String(t.id)).join(','), ctx.get('templateId'), 'templates');
		},
	},
	{
		resource: 'template',
		operation: 'update',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), updateFields: { name: 'matrix-tpl-2', note: 'v2' } }),
		async check(json, ctx) {
			const t = dns(ctx).templates[ctx.get('templateId')];
			same(`${t.name} ${t.note}`, 'matrix-tpl-2 v2', 'name and note at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'setStatus',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), status: 1 }),
		async check(json, ctx) {
			same(dns(ctx).templates[ctx.get('templateId')].status, 1, 'status at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'add',
		// two records in one run, one per input item
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), ip: '={{ $json.ip }}', additionalFields: { country: 'CN', isp: '={{ $json.isp }}' } }),
		opts: () => ({ input: [{ ip: '203.0.113.50', isp: 'telecom' }, { ip: '203.0.113.60', isp: 'unicom' }] }),
		async check(json, ctx) {
			count(json, 2, 'items');
			const recs = Object.values(dns(ctx).tempStys).filter((r) => String(r.tid) === ctx.get('templateId'));
			same(recs.map((r) => `${r.isp} ${r.ip}`).sort().join(', '), 'telecom 203.0.113.50, unicom 203.0.113.60', 'template records at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, tid: byId(ctx.get('templateId')), returnAll: true }),
		async check(json, ctx) {
			same(json.map((r) => r.ip).join(','), '203.0.113.50,203.0.113.60', 'template records');
			ctx.put('tempRecords', json.map((r) => String(r.id)));
		},
	},
	{
		resource: 'templateRecord',
		operation: 'update',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[0]), updateFields: { ip: '203.0.113.51', city: 'Shanghai' } }),
		async check(json, ctx) {
			const r = dns(ctx).tempStys[ctx.get('tempRecords')[0]];
			same(`${r.ip} ${r.city}`, '203.0.113.51 Shanghai', 'address and city at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'setStatus',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[0]), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).tempStys[ctx.get('tempRecords')[0]].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'templateRecord',
		operation: 'delete',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')), templateRecordId: byId(ctx.get('tempRecords')[1]) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).tempStys[ctx.get('tempRecords')[1]], 'the template record is still at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'add',
		params: (ctx) => ({ did: did(ctx), subdomain: 'www', sty: 'auto', tid: byId(ctx.get('templateId')), maxip: 2, status: 1 }),
		async check(json, ctx) {
			const ys = Object.values(dns(ctx).strategies).filter((y) => String(y.did) === ctx.get('domainId'));
			const y = one(ys, 'strategies of the domain at the emulator');
			same(`${y.subdomain} ${y.sty} ${y.tid} ${y.maxip}`, `www auto ${ctx.get('templateId')} 2`, 'strategy at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'getAll',
		params: (ctx) => ({ simplify: false, did: did(ctx), returnAll: true }),
		async check(json, ctx) {
			const y = one(json, 'strategies');
			same(`${y.subdomain} ${y.sty}`, 'www auto', 'host record and strategy');
			ctx.put('strategyId', String(y.id));
		},
	},
	{
		resource: 'strategy',
		operation: 'update',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')), updateFields: { maxip: 3, sty: 'null' } }),
		async check(json, ctx) {
			const y = dns(ctx).strategies[ctx.get('strategyId')];
			same(`${y.maxip} ${y.sty}`, '3 null', 'max IPs and strategy at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'setStatus',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')), status: 0 }),
		async check(json, ctx) {
			same(dns(ctx).strategies[ctx.get('strategyId')].status, 0, 'status at the emulator');
		},
	},
	{
		resource: 'strategy',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx), strategyId: byId(ctx.get('strategyId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).strategies[ctx.get('strategyId')], 'the strategy is still at the emulator');
		},
	},
	{
		resource: 'record',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx), recordIds: [ctx.get('mail'), ctx.get('mx')] }),
		async check(json, ctx) {
			same(json.map((d) => `${d.deleted} ${d.id}`).join(','), `true ${ctx.get('mail')},true ${ctx.get('mx')}`, 'deleted records');
			must(!record(ctx, ctx.get('mail')) && !record(ctx, ctx.get('mx')), 'a record is still at the emulator');
		},
	},
	{
		resource: 'monitor',
		operation: 'delete',
		params: (ctx) => ({ mid: byId(ctx.get('monitorId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).monitors[ctx.get('monitorId')], 'the monitor is still at the emulator');
		},
	},
	{
		resource: 'template',
		operation: 'delete',
		params: (ctx) => ({ tid: byId(ctx.get('templateId')) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!dns(ctx).templates[ctx.get('templateId')], 'the template is still at the emulator');
		},
	},
	{
		resource: 'domain',
		operation: 'delete',
		params: (ctx) => ({ did: did(ctx) }),
		async check(json, ctx) {
			same(one(json, 'delete items').deleted, true, 'deleted');
			must(!domain(ctx), 'the domain is still at the emulator');
			must(!record(ctx, ctx.get('www')), 'its records are still at the emulator');
		},
	},
];

/* ====================================================================== fallbacks */

/**
 * When an entry that later entries depend on fails, its fallback provides what they need, so
 * that one failing cell does not hide the rest of its node: it takes what the operation made
 * when it did its work (the output failed the check), or makes it through the emulator's API
 * or control routes, and puts the same names as the entry's check.
 */
const fallbacks = {
	'vendorObjectStorage/bucket/create': async (ctx) => {
		if (!(await ctx.buckets()).some((b) => b.name === BUCKET)) await ctx.control('POST', '/storage/buckets', { name: BUCKET, acl: 'public-read' });
	},
	'vendorObjectStorage/object/upload': async (ctx) => {
		await ctx.control('POST', '/storage/objects', { bucket: BUCKET, key: 'docs/matrix file.txt', body: UPLOAD_TEXT, contentType: 'text/plain' });
	},
	// no route makes an upload: only uploads the operation made (when its output failed the check)
	'vendorObjectStorage/multipartUpload/initiate': async (ctx) => {
		const open = await ctx.uploads();
		const find = (key) => open.find((u) => u.bucket === BUCKET && u.key === key);
		if (find('big/joined.bin')) ctx.put('uploadId', find('big/joined.bin').uploadId);
		if (find('big/aborted.bin')) ctx.put('abortId', find('big/aborted.bin').uploadId);
	},
	'vendorAccountBilling/group/create': async (ctx) => {
		const find = () => acc(ctx).groups.find((g) => /^Matrix (group|crew)$/.test(g.name));
		if (!find()) await ctx.api('profile/groupAdd', { name: 'Matrix group', note: 'made by the dialect matrix' });
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
	'vendorCdn/channel/create': async (ctx) => {
		const find = () => cdn(ctx).channels.find((c) => c.name === 'matrix.example.com');
		if (!find()) await ctx.api('cdn/domainAdd', { name: 'matrix.example.com', type: 'cloud', ip: { '203.0.113.10': '80', '203.0.113.11': '8080' } });
		ctx.put('channelId', String(find().id));
	},
	'vendorCdn/certificate/create': async (ctx) => {
		const find = () => cdn(ctx).certs.find((c) => c.name === 'matrix-cert');
		if (!find()) await ctx.api('cdn/sslAdd', { name: 'matrix-cert', ssl_crt: pem('matrix.example.com'), ssl_key: KEY });
		ctx.put('certId', String(find().id));
	},
	'vendorCdn/cacheRefresh/create': async (ctx) => {
		const find = () => cdn(ctx).tasks.find((t) => t.kind === 'refresh' && t.urls.includes('https://www.example.com/matrix.html'));
		if (!find()) await ctx.api('cdn/refresh', { type: 'file', urls: 'https://www.example.com/matrix.html,https://static.example.com/matrix.css' });
		await ctx.control('POST', '/management/cdn/tasks/settle', {});
		ctx.put('refreshId', String(find().id));
	},
	'vendorCdn/prefetch/create': async (ctx) => {
		const find = () => cdn(ctx).tasks.find((t) => t.kind === 'preload' && t.urls.includes('https://www.example.com/big.bin'));
		if (!find()) await ctx.api('cdn/preload', { preloadtype: 0, urls: 'https://www.example.com/big.bin' });
		ctx.put('prefetchId', String(find().id));
	},
	'vendorCloudHost/host/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).hosts).find((h) => h.name === 'matrix-host');
		if (!find()) {
			const spec = { name: 'matrix-host', nodeid: 1, cpuid: 1, memid: 2, imageid: 2, networkid: 5, networkvalue: 2, status: 1, note: 'made by the dialect matrix' };
			await ctx.control('POST', '/management/instance/hosts/add', spec);
		}
		await ctx.control('POST', '/management/instance/settle', {});
		ctx.put('hostId', String(find().id));
	},
	'vendorCloudHost/hostDisk/getAll': async (ctx) => {
		ctx.put('diskId', String(Object.values(inst(ctx).disks).find((d) => String(d.iid) === ctx.get('hostId') && d.kind === 'system').id));
	},
	'vendorCloudHost/snapshot/create': async (ctx) => {
		const iid = Number(ctx.get('hostId'));
		if (!Object.values(inst(ctx).snapshots).some((s) => s.iid === iid)) await ctx.api('instance/snapshotAdd', { iid, name: 'matrix-snap', note: 'before' });
	},
	'vendorCloudHost/snapshot/getAll': async (ctx) => {
		ctx.put('snapshotId', String(Object.values(inst(ctx).snapshots).find((s) => String(s.iid) === ctx.get('hostId')).id));
	},
	'vendorCloudHost/backup/create': async (ctx) => {
		const iid = Number(ctx.get('hostId'));
		if (!Object.values(inst(ctx).backups).some((b) => b.iid === iid)) await ctx.api('instance/backupAdd', { iid, name: 'matrix-backup', backup_type: 1 });
		await ctx.control('POST', '/management/instance/settle', {});
	},
	'vendorCloudHost/backup/getAll': async (ctx) => {
		ctx.put('backupId', String(Object.values(inst(ctx).backups).find((b) => String(b.iid) === ctx.get('hostId')).id));
	},
	'vendorDiskNetworkFirewall/cloudDisk/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).disks).find((d) => d.disk_name === 'matrix-disk');
		if (!find()) await ctx.api('instance/cloudDiskAdd', { nodeid: 1, disk_name: 'matrix-disk', value: 20 });
		ctx.put('diskId', String(find().id));
	},
	'vendorDiskNetworkFirewall/network/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).networks).find((n) => n.name === 'matrix-net');
		if (!find()) await ctx.api('instance/networkAdd', { nodeid: 1, name: 'matrix-net' });
		ctx.put('networkId', String(find().id));
	},
	'vendorDiskNetworkFirewall/firewall/create': async (ctx) => {
		const find = () => Object.values(inst(ctx).firewalls).find((f) => f.name === 'matrix-fw');
		if (!find()) await ctx.api('instance/firewallAdd', { nodeid: 1, name: 'matrix-fw' });
		ctx.put('firewallId', String(find().id));
	},
	'vendorDiskNetworkFirewall/firewallRule/add': async (ctx) => {
		const fid = Number(ctx.get('firewallId'));
		const find = () => Object.values(inst(ctx).rules).find((r) => r.fid === fid);
		if (!find()) await ctx.api('instance/firewallRuleAdd', { fid, direction: 'in', action: 'ACCEPT', protocol: 'tcp', destport: '22', source: '0.0.0.0/0', status: 1 });
		ctx.put('ruleId', String(find().id));
	},
	'vendorDns/domain/add': async (ctx) => {
		const find = () => Object.values(dns(ctx).domains).find((d) => d.name === 'matrix-example.com');
		if (!find()) await ctx.api('dns/domainAdd', { domain: 'matrix-example.com', pid: PERSONAL, period: 1 });
		ctx.put('domainId', String(find().id));
	},
	'vendorDns/record/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		const find = (sub) => Object.values(dns(ctx).records).find((r) => r.did === dId && r.subdomain === sub);
		if (!find('www')) await ctx.api('dns/recordAdd', { did: dId, records: 'www;A;default;203.0.113.10;;600;1#@;MX;default;mail.matrix-example.com;5;300;1#mail;AAAA;default;2001:db8::25;;300;1' });
		ctx.put('www', String(find('www').id));
		ctx.put('mx', String(find('@').id));
		ctx.put('mail', String(find('mail').id));
	},
	'vendorDns/monitor/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		const find = () => Object.values(dns(ctx).monitors).find((m) => m.did === dId);
		if (!find()) await ctx.api('dns/monitorAdd', { did: dId, subdomain: 'www' });
		ctx.put('monitorId', String(find().id));
	},
	'vendorDns/monitorRecord/getAll': async (ctx) => {
		ctx.put('monitorRecordId', String(Object.values(dns(ctx).monitorRecords).find((r) => String(r.mid) === ctx.get('monitorId')).id));
	},
	'vendorDns/template/create': async (ctx) => {
		const find = () => Object.values(dns(ctx).templates).find((t) => t.name === 'matrix-tpl');
		if (!find()) await ctx.api('dns/tempAdd', { pid: PERSONAL, name: 'matrix-tpl', status: 0 });
		ctx.put('templateId', String(find().id));
	},
	'vendorDns/templateRecord/add': async (ctx) => {
		const tid = Number(ctx.get('templateId'));
		const ips = Object.values(dns(ctx).tempStys).filter((r) => r.tid === tid).map((r) => r.ip);
		for (const [ip, isp] of [['203.0.113.50', 'telecom'], ['203.0.113.60', 'unicom']]) if (!ips.includes(ip)) await ctx.api('dns/tempStyAdd', { tid, ip, country: 'CN', isp });
	},
	'vendorDns/templateRecord/getAll': async (ctx) => {
		const recs = Object.values(dns(ctx).tempStys).filter((r) => String(r.tid) === ctx.get('templateId'));
		ctx.put('tempRecords', recs.sort((a, b) => a.id - b.id).map((r) => String(r.id)));
	},
	'vendorDns/strategy/add': async (ctx) => {
		const dId = Number(ctx.get('domainId'));
		if (!Object.values(dns(ctx).strategies).some((y) => y.did === dId)) await ctx.api('dns/styAdd', { did: dId, subdomain: 'www', sty: 'auto', tid: Number(ctx.get('templateId')), maxip: 2, status: 1 });
	},
	'vendorDns/strategy/getAll': async (ctx) => {
		ctx.put('strategyId', String(Object.values(dns(ctx).strategies).find((y) => String(y.did) === ctx.get('domainId')).id));
	},
};

/* ====================================================================== */

const withNode = (node, entries) => entries.map((e) => ({ node, ...e, fallback: fallbacks[`${node}/${e.resource}/${e.operation}`] }));

/** Every entry, in run order: storage first (its signing meets the emulator's clock before any advance). */
const catalogue = [
	...withNode('vendorObjectStorage', objectStorage),
	...withNode('vendorAccountBilling', accountBilling),
	...withNode('vendorCdn', cdnOps),
	...withNode('vendorCloudHost', cloudHost),
	...withNode('vendorDiskNetworkFirewall', dnf),
	...withNode('vendorDns', dnsOps),
];

const keyOf = (e) => `${e.node}/${e.resource}/${e.operation}`;

module.exports = { catalogue, keyOf, fallbackKeys: Object.keys(fallbacks), must, same };

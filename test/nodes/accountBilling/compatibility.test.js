'use strict';
/**
 * Account > Check Compatibility (issue 10 section 4, management half): run against the
 * emulator in each management dialect of EMULATOR-INTERFACE.md, it names that dialect and no
 * other; it makes reads and log-ins only, and never outputs a token or the password.
 */
const { startVendor } = require('../../support/vendor');

const NODE = 'vendorAccountBilling';
const CHECK = { resource: 'account', operation: 'checkCompatibility' };
const CHECKS = [
	'logIn',
	'tokenLifetime',
	'refusedToken',
	'codeType',
	'numbers',
	'paging',
	'payloadKey',
	'emptyObjects',
	'extraFields',
	'lines',
	'hostLines',
	'recordLines',
	'restoreAnswers',
	'unbindPath',
	'notifyMethods',
	'secondLogIn',
	'summary',
];

/** Runs the check; returns the items, the summary and everything the run holds as text. */
async function check(v, opts) {
	const { items, error, result } = await v.run(NODE, CHECK, opts);
	expect(error).toBeUndefined();
	const out = items.map((i) => i.json);
	return { out, summary: out.find((f) => f.check === 'summary'), byCheck: Object.fromEntries(out.map((f) => [f.check, f])), dump: JSON.stringify(result.run) };
}

/** The emulator's state but the tokens and the operation log (log-ins are logged): what the check must leave as it was. */
function accountState(v) {
	const { tokens, logs, seq, ...rest } = v.emu.management.state;
	const { log, ...counters } = seq;
	return JSON.stringify({ ...rest, counters });
}

const CASES = [
	{ dialects: [], readings: [] },
	{ dialects: ['numbersAsStrings'], readings: ['numbersAsStrings'], finding: ['codeType', /"code": "1"/] },
	{ dialects: ['numbersAsNumbers'], readings: ['numbersAsNumbers'], finding: ['numbers', /JSON numbers/] },
	{ dialects: ['emptyObjectsAsArrays'], readings: ['emptyObjectsAsArrays'], finding: ['emptyObjects', /written \[\]/] },
	{ dialects: ['lineIdsDiffer'], readings: ['lineIdsDiffer'], finding: ['lines', /row ids are not line codes/] },
	{ dialects: ['loginInvalidates'], readings: ['loginInvalidates'], finding: ['secondLogIn', /ends the earlier tokens/] },
	{ dialects: ['tokenLifetime60'], readings: ['tokenLifetime60'], finding: ['tokenLifetime', /only 60 s/] },
	{ dialects: ['extraFields'], readings: ['extraFields'], finding: ['extraFields', /adds fields/] },
	// readings R44, R45, R67, R68, R69: what was seen, and that nothing needs setting
	{ dialects: ['tokenRefusedOtherCode'], readings: ['tokenRefusedOtherCode'], finding: ['refusedToken', /code 0 and "access token expired, please log in again", not with code -1: the nodes know it for a refused token by its words.*Nothing to set/] },
	{ dialects: ['tokenRefusedChinese'], readings: ['tokenRefusedChinese'], finding: ['refusedToken', /code 401 and "登录已失效，请重新登录", not with code -1: the nodes know it for a refused token by its words.*Nothing to set/] },
	{ dialects: ['expiresTimestamp'], readings: ['expiresTimestamp'], finding: ['tokenLifetime', /^expires is the time the token ends \(20\d\d-.*, 7[12]\d\d s from now\), not a lifetime: the nodes log in again shortly before it ends.*Nothing to set/] },
	{ dialects: ['objectIdInAnswers'], readings: [], finding: ['restoreAnswers', /Either way works.*Nothing to set/] },
	{ dialects: ['hostLineWords'], readings: ['lineIdsDiffer', 'hostLineWords'], finding: ['hostLines', /words the nodes do not know \(多线BGP\): the simplified host shows that word as it came and no line code.*Nothing to set/] },
	// readings R60: which path unbinds a cloud disk, from an instance/unbind that names no disk
	{ dialects: ['unbindOnBindPath'], readings: ['unbindOnBindPath'], finding: ['unbindPath', /^The service has no instance\/unbind: Cloud Disk > Detach unbinds through instance\/cloudDiskBind without a host.*Nothing to set/] },
	{ dialects: ['dnsLinesOwn'], readings: ['dnsLinesOwn'], finding: ['recordLines', /names record lines its own way \(默认, 电信\): in Record > Add enter one of these as the Line \(an expression\), or leave Line at Not Set.*Nothing to set/] },
];

describe.each(CASES.map((c) => [c.dialects.join(',') || 'default', c]))('dialect %s', (_name, c) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo', dialects: c.dialects });
	});
	afterAll(() => v.close());

	test(`the check names ${c.readings.join(', ') || 'no reading besides the default'}`, async () => {
		await check(v); // the credential's own log-in happens outside the counted run
		const before = accountState(v);
		await v.control('POST', '/stats/reset');
		const { out, summary, byCheck, dump } = await check(v);
		const stats = (await v.control('GET', '/stats')).management;
		// two log-ins of its own; every other request is one of these reads
		expect(stats.loginsByUser).toEqual({ demo: 2 });
		const READS = [
			'profile/detail',
			'profile/balance',
			'profile/groupList',
			'dns/planList',
			'instance/nodeList',
			'instance/memResourceList',
			'cdn/domainList',
			'instance/list',
			'instance/networkResourceList',
			'dns/domainList',
			'dns/recordList',
		];
		// and one instance/unbind naming no disk (refused, or no such endpoint): whether the path exists
		expect(stats.requests['instance/unbind']).toBe(1);
		expect(Object.keys(stats.requests).filter((p) => p !== 'OAuth/authorize' && p !== 'instance/unbind' && !READS.includes(p))).toEqual([]);
		expect(out.map((f) => f.check)).toEqual(CHECKS);
		for (const f of out) expect(Object.keys(f)).toEqual(expect.arrayContaining(['check', 'tried', 'observed', 'reading']));
		expect(summary.readings).toEqual(c.readings);
		if (c.finding) expect(byCheck[c.finding[0]].reading).toMatch(c.finding[1]);
		if (!c.dialects.includes('unbindOnBindPath')) expect(byCheck.unbindPath.reading).toMatch(/^The service has instance\/unbind .*: Cloud Disk > Detach uses it/);
		// in words a user knows
		expect(JSON.stringify(out)).not.toMatch(/\bseeds?\b|dialect/i);
		expect(summary.setting).toEqual({ apiUrl: v.url, username: 'demo', loginEncoding: 'none' });
		// reads and log-ins only: the account is as it was
		expect(accountState(v)).toBe(before);
		// no token, no password in the run
		for (const token of Object.keys(v.emu.management.state.tokens)) expect(dump).not.toContain(token);
		expect(dump).not.toContain('demo-password');
	});
});

describe('settings and accounts', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ seed: 'demo', management: { passwordEncoding: 'md5' } });
	});
	afterAll(() => v.close());

	test('a password encoding the credential does not use is found and given as the setting', async () => {
		const { byCheck, summary } = await check(v, { credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', loginEncoding: 'none' } } });
		expect(byCheck.logIn.reading).toMatch(/only with the password encoding md5/);
		expect(byCheck.logIn.setting).toEqual({ loginEncoding: 'md5' });
		expect(summary.setting.loginEncoding).toBe('md5');
	});

	test('a wrong password: one finding that says so, and the summary', async () => {
		const { out } = await check(v, { credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'Wrong-Secret-9', loginEncoding: 'md5' } } });
		expect(out.map((f) => f.check)).toEqual(['logIn', 'summary']);
		expect(out[0].observed).toMatch(/refused/);
		expect(JSON.stringify(out)).not.toContain('Wrong-Secret-9');
	});

	test('a sub-account without permissions gets findings for what it may read', async () => {
		const demo = { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password', loginEncoding: 'md5' } };
		await v.ok(NODE, { resource: 'subAccount', operation: 'create', username: 'limited1', password: 'Limited-pass1' }, { credentials: demo });
		const { byCheck, summary } = await check(v, { credentials: { vendorApi: { apiUrl: v.url, username: 'limited1', password: 'Limited-pass1', loginEncoding: 'md5' } } });
		expect(summary).toBeDefined();
		expect(byCheck.secondLogIn.reading).toMatch(/side by side/);
	});
});

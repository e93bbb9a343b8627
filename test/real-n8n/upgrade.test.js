'use strict';
/**
 * The upgrade test (schema/README.md, "The upgrade test"): workflows saved by real n8n with
 * released versions of this package (test/real-n8n/upgrade-fixtures/<version>/, written by
 * scripts/record-upgrade-fixtures.js) are loaded into a fresh real n8n 2.40.7 with the package as
 * built now, run against fresh emulators, and must send the requests they sent when they were
 * recorded, request by request (after the normalisation rules of upgrade-lib.js). A difference
 * names the workflow, the node and the request.
 *
 * Also proved here, in real n8n: Cloud Host version 1 keeps sending its 40 GB system disk while
 * version 1.1 sends a size only when one is set, and workflows saved with the trigger type names
 * before the rename (vendorBalanceTrigger, vendorTaskTrigger) load, poll and emit while the node
 * panel does not offer those names.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./lib');
const upgrade = require('./upgrade-lib');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = require(path.join(ROOT, 'package.json'));
const INSTALL_TIMEOUT = 25 * 60 * 1000;

const fixtures = upgrade.loadFixtures();
const newest = fixtures.length ? fixtures[fixtures.length - 1].version : undefined;
let run;
let tgz;

beforeAll(async () => {
	await n8n.ensureRuntime({ quiet: false });
	tgz = n8n.packPackage(ROOT);
	const t0 = Date.now();
	run = await upgrade.runFixtures(fixtures, { tgz, log: (s) => process.stderr.write(`[upgrade] ${s}\n`) });
	const compared = fixtures.reduce((n, f) => n + upgrade.requestCount(f.meta), 0);
	process.stderr.write(`[upgrade] ${fixtures.length} fixtures, ${compared} recorded requests compared, in ${Math.round((Date.now() - t0) / 1000)} s\n`);
}, INSTALL_TIMEOUT);

afterAll(() => {
	if (tgz) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
});

test('fixtures are kept for the version in package.json or an earlier one', () => {
	expect(fixtures.length).toBeGreaterThan(0);
	for (const f of fixtures) expect(f.meta.savedBy.package).toBe(f.version);
	const semver = (v) => v.split('.').map(Number);
	const [a, b, c] = semver(newest);
	const [x, y, z] = semver(PKG.version);
	expect(a * 1e6 + b * 1e3 + c).toBeLessThanOrEqual(x * 1e6 + y * 1e3 + z);
});

test('the newest fixtures hold a workflow of every node type of the package, with a non-default value of every kind of parameter the node has', () => {
	const own = fixtures.filter((f) => f.version === newest);
	const report = upgrade.coverage(own);
	process.stderr.write(`[upgrade] coverage of the ${newest} fixtures:\n${report.lines.join('\n')}\n`);
	expect(report.missing).toEqual([]);
});

describe.each(fixtures.map((f) => [f.key, f]))('%s', (key, fixture) => {
	test(`${fixture.meta.run.kind === 'load' ? 'loads: every node type and version it uses is served' : 'runs and sends the recorded requests'}`, () => {
		const result = run.results[key];
		const problems = upgrade.compareFixture(fixture, result);
		if (fixture.meta.run.kind === 'load') expect(result.served).toEqual(fixture.meta.served);
		if (problems.length) throw new Error(`${problems.length} difference(s):\n${problems.join('\n')}`);
	});
});

/** The requests a fixture's node sent in this run. */
const sent = (key, node) => {
	const result = run.results[key];
	if (!result || !result.nodes || !result.nodes[node]) throw new Error(`no requests of ${key} / ${node} in this run`);
	return result.nodes[node];
};

test('Cloud Host version 1 sends the 40 GB system disk it always sent; version 1.1 sends a disk size only when one is set', () => {
	const v1 = fixtures.find((f) => f.name === 'cloud-host-v1' && f.version === newest);
	const v11 = fixtures.find((f) => f.name === 'cloud-host-v1.1' && f.version === newest);
	const create = (f, node) => sent(f.key, node).filter((r) => r.path === 'instance/create');
	for (const [f, typeVersion] of [
		[v1, 1],
		[v11, 1.1],
	]) {
		expect(f.workflow.nodes.filter(upgrade.isPackageNode).every((n) => n.typeVersion === typeVersion)).toBe(true);
		// saved by the editor without a disk size: n8n stores only what differs from the defaults
		const plain = f.workflow.nodes.find((n) => n.name === 'Create Two Hosts');
		expect(plain.parameters).not.toHaveProperty('diskvalue');
		expect(plain.parameters.additionalFields || {}).not.toHaveProperty('diskvalue');
	}
	const [v1Create] = create(v1, 'Create Two Hosts');
	const [v11Create] = create(v11, 'Create Two Hosts');
	expect(v1Create.body).toMatchObject({ name: 'upgrade-v1', num: 2, diskvalue: 40 });
	expect(v11Create.body).toMatchObject({ name: 'upgrade-v11', num: 2 });
	expect(v11Create.body).not.toHaveProperty('diskvalue');
	// a size that is set is sent by both (version 1 top level, version 1.1 under Additional Fields)
	expect(create(v1, 'Create Host with 80 GB')[0].body.diskvalue).toBe(80);
	expect(create(v11, 'Create Host with 80 GB')[0].body.diskvalue).toBe(80);
});

test('workflows saved with the old trigger type names load, poll and emit; the node panel does not offer those names', () => {
	const byName = Object.fromEntries(run.types.map((t) => [t.name.split('.')[1], t]));
	for (const [old, current] of [
		['vendorBalanceTrigger', 'vendorAccountBillingTrigger'],
		['vendorTaskTrigger', 'vendorCdnTrigger'],
	]) {
		// served to the editor, hidden from its node panel (n8n's node creator leaves hidden types out)
		expect(byName[old]).toEqual({ name: `${upgrade.PKG}.${old}`, versions: [1], hidden: true });
		expect(byName[current]).toMatchObject({ hidden: false });
		const f = fixtures.find((x) => x.version === newest && x.workflow.nodes.some((n) => n.type === `${upgrade.PKG}.${old}`));
		expect(f).toBeDefined();
		const result = run.results[f.key];
		expect(result).toMatchObject({ status: 'success' });
		expect(result.polls.baseline.length).toBeGreaterThan(0);
		expect(result.polls.emitting.length).toBeGreaterThan(0);
		expect(result.emitted.length).toBeGreaterThan(0);
	}
	expect(run.types.filter((t) => t.hidden).map((t) => t.name.split('.')[1])).toEqual(['vendorBalanceTrigger', 'vendorTaskTrigger']);
});

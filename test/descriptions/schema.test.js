'use strict';
/**
 * The parameter schema is a contract with every saved workflow (schema/README.md). These tests
 * read the built package (dist/) the way n8n loads it:
 *  - the build matches the schema written down in schema/, or the failure says what to do;
 *  - reordering any declaration array changes nothing (defaults are stated, never positional);
 *  - a renamed wire field, a changed default or a removed operation fails with a message that
 *    names the node, the parameter and the three ways forward; the same change behind a new
 *    node version, or listed as a pre-release change before the first publish, passes;
 *  - node versions: what differs between versions carries n8n's @version condition, and each
 *    version's view is what its declarations say.
 */
const path = require('node:path');
const lib = require('../../scripts/schema-lib');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const PACKAGE = require(path.join(ROOT, 'package.json')).name;

const AREA_NODES = [
	['VendorAccountBilling', 'accountBillingArea'],
	['VendorCdn', 'cdnArea'],
	['VendorCloudHost', 'cloudHostArea'],
	['VendorDiskNetworkFirewall', 'diskNetworkFirewallArea'],
	['VendorDns', 'dnsArea'],
];

/** A fresh copy of dist's modules, so a test may change declarations without touching others. */
function fresh() {
	jest.resetModules();
	const load = (rel) => require(path.join(DIST, rel));
	return {
		area: (dir, name) => load(`nodes/${dir}/area.js`)[name],
		describe: (dir) => new (load(`nodes/${dir}/${dir}.node.js`)[dir])().description,
		storageArea: () => load('nodes/VendorObjectStorage/area.js').objectStorageArea,
	};
}

/** The schema of one node description, as the snapshot records it. */
const schemaOf = (description) => lib.nodeSchema(PACKAGE, description).schema;

/** The built schema with one node's description replaced. */
function builtWith(description) {
	fresh(); // the rest of the package as built, unchanged
	const built = lib.buildSchema(ROOT);
	built.nodes[description.name] = schemaOf(description);
	return built;
}

const recorded = lib.readSnapshot();
const preRelease = lib.readPreRelease();

afterAll(() => {
	fresh(); // leave an unchanged copy in the cache
});

describe('the snapshot', () => {
	test('the built package matches the schema written down in schema/', () => {
		const v = lib.verdict(recorded, lib.buildSchema(ROOT), preRelease);
		if (!v.ok) throw new Error(`\n${lib.report(v)}`);
		expect(Object.keys(recorded.nodes).sort()).toEqual(Object.keys(lib.buildSchema(ROOT).nodes).sort());
	});

	test('it records every node, credential, version and operation of the package', () => {
		const pkg = require(path.join(ROOT, 'package.json'));
		expect(Object.keys(recorded.nodes)).toHaveLength(pkg.n8n.nodes.length);
		expect(Object.keys(recorded.credentials)).toHaveLength(pkg.n8n.credentials.length);
		let operations = 0;
		let parameters = 0;
		for (const node of Object.values(recorded.nodes)) {
			expect(node.versions.length).toBeGreaterThan(0);
			const newest = node.parameters[String(Math.max(...node.versions))];
			operations += Object.keys(newest).filter((s) => s !== '*').length;
			for (const scope of Object.values(newest)) parameters += Object.keys(scope).length;
		}
		// every dropdown operation of the six action nodes (the exercised check counts the same 174)
		expect(operations).toBeGreaterThanOrEqual(174);
		console.log(`[schema] ${Object.keys(recorded.nodes).length} nodes, ${Object.keys(recorded.credentials).length} credentials, ${operations} operations, ${parameters} parameter entries (newest versions)`);
	});

	test('once a version is published, no pre-release change may be listed', () => {
		const v = lib.verdict(recorded, lib.buildSchema(ROOT), { published: ['0.1.0'], changes: [{ node: 'x', parameter: 'y', why: 'z' }] });
		expect(v.ok).toBe(false);
		expect(v.problems.join('\n')).toMatch(/empty the list/);
	});
});

describe('defaults are stated, not positional', () => {
	const reverseDeep = (area) => {
		area.resources.reverse();
		area.operations.reverse();
		const visit = (fields) => {
			fields.reverse();
			for (const f of fields) {
				if (Array.isArray(f.options)) f.options = [...f.options].reverse();
				if (f.rows) visit(f.rows.fields);
			}
		};
		for (const op of area.operations) if (op.fields) visit(op.fields);
	};

	test.each(AREA_NODES)('%s: every declaration array reversed gives the same schema', (dir, name) => {
		const before = schemaOf(fresh().describe(dir));
		const f = fresh();
		reverseDeep(f.area(dir, name));
		const after = schemaOf(f.describe(dir));
		expect(after).toEqual(before);
		expect(after.parameters['1']['*'].resource.default).toBe(before.parameters['1']['*'].resource.default);
	});

	test('Object Storage: resources and operations reversed give the same schema', () => {
		const before = schemaOf(fresh().describe('VendorObjectStorage'));
		const f = fresh();
		const area = f.storageArea();
		area.resources.reverse();
		area.operations.reverse();
		expect(schemaOf(f.describe('VendorObjectStorage'))).toEqual(before);
	});

	test('a choice without a stated default, or a resource without a default operation, is refused when the node loads', () => {
		let f = fresh();
		const cdn = f.area('VendorCdn', 'cdnArea');
		const field = cdn.operations.flatMap((o) => o.fields ?? []).find((x) => x.kind === 'options' && !x.optionsFrom && x.options);
		delete field.default;
		expect(() => f.describe('VendorCdn')).toThrow(/needs a stated default/);
		f = fresh();
		delete f.area('VendorCdn', 'cdnArea').defaultOperations.channel;
		expect(() => f.describe('VendorCdn')).toThrow(/defaultOperations/);
	});
});

describe('a change that would break saved workflows is refused, with what to do', () => {
	const WAYS = /raise the node's version[\s\S]*pre-release-changes\.json/;

	test('a renamed wire field names the node, the operation and the parameter', () => {
		const f = fresh();
		const dns = f.area('VendorDns', 'dnsArea');
		const op = dns.operations.find((o) => o.resource === 'record' && o.operation === 'add');
		const sub = op.fields.find((x) => x.wire === 'subdomain');
		sub.wire = 'sub_domain';
		const v = lib.verdict(recorded, builtWith(f.describe('VendorDns')), preRelease);
		expect(v.ok).toBe(false);
		const text = v.problems.join('\n');
		expect(text).toMatch(/node vendorDns, version 1, operation record\/add, parameter "subdomain": the parameter "subdomain" is gone \(renamed to "subDomain"\?\)/);
		expect(text).toMatch(/param: <old name>/);
		expect(text).toMatch(WAYS);
		expect(v.canUpdate).toBe(false);
	});

	test('a changed default names the old and the new value', () => {
		const f = fresh();
		const host = f.area('VendorCloudHost', 'cloudHostArea');
		const create = host.operations.find((o) => o.resource === 'host' && o.operation === 'create');
		create.fields.find((x) => x.wire === 'num').default = 2;
		const v = lib.verdict(recorded, builtWith(f.describe('VendorCloudHost')), preRelease);
		const text = v.problems.join('\n');
		expect(text).toMatch(/node vendorCloudHost, version 1, operation host\/create, parameter "num": the default of "num" changed from 1 to 2/);
		expect(text).toMatch(WAYS);
	});

	test('a changed default resource is refused (saved workflows omit the resource they kept)', () => {
		const f = fresh();
		f.area('VendorCdn', 'cdnArea').defaultResource = 'certificate';
		const text = lib.verdict(recorded, builtWith(f.describe('VendorCdn')), preRelease).problems.join('\n');
		expect(text).toMatch(/node vendorCdn, version 1, every operation, parameter "resource": the default of "resource" changed from "channel" to "certificate"/);
	});

	test('a removed option value and a removed operation are refused', () => {
		const f = fresh();
		const cdn = f.area('VendorCdn', 'cdnArea');
		cdn.operations.splice(cdn.operations.findIndex((o) => o.resource === 'certificate' && o.operation === 'delete'), 1);
		const text = lib.verdict(recorded, builtWith(f.describe('VendorCdn')), preRelease).problems.join('\n');
		expect(text).toMatch(/operation certificate\/delete is gone/);
		expect(text).toMatch(/"operation" no longer offers "delete"/);
	});

	test('a new operation and a new optional field are additions, recorded by the update command', () => {
		const f = fresh();
		const dns = f.area('VendorDns', 'dnsArea');
		const op = dns.operations.find((o) => o.resource === 'record' && o.operation === 'add');
		op.fields.push({ wire: 'remark_x', displayName: 'Remark X', kind: 'string' });
		const v = lib.verdict(recorded, builtWith(f.describe('VendorDns')), preRelease);
		expect(v.problems).toEqual([]);
		expect(v.canUpdate).toBe(true);
		expect(v.ok).toBe(false);
		expect(v.recordable.join('\n')).toMatch(/operation record\/add, parameter "additionalFields.remarkX": the parameter "additionalFields.remarkX" is new/);
	});

	test('the same default change listed as a pre-release change passes, and not once published', () => {
		const f = fresh();
		const host = f.area('VendorCloudHost', 'cloudHostArea');
		host.operations.find((o) => o.resource === 'host' && o.operation === 'create').fields.find((x) => x.wire === 'num').default = 2;
		const built = builtWith(f.describe('VendorCloudHost'));
		const entry = { node: 'vendorCloudHost', operation: 'host/create', parameter: 'num', why: 'test' };
		const listed = lib.verdict(recorded, built, { published: [], changes: [...preRelease.changes, entry] });
		expect(listed.problems).toEqual([]);
		expect(listed.recordable.join('\n')).toMatch(/parameter "num".*listed in schema\/pre-release-changes.json/);
		const after = lib.verdict(recorded, built, { published: ['0.2.0'], changes: [entry] });
		expect(after.problems.join('\n')).toMatch(/\(c\) is closed: the package is published/);
	});

	test('a simplified output name that goes (renamed or removed) is refused: saved expressions read $json.<name>; a new name is an addition (issue 35)', () => {
		const f = fresh();
		const dns = f.area('VendorDns', 'dnsArea');
		const op = dns.operations.find((o) => o.resource === 'plan' && o.operation === 'getAll');
		op.simplify = Object.fromEntries(Object.entries(op.simplify).map(([k, read]) => [k === 'price' ? 'cost' : k, read]));
		const v = lib.verdict(recorded, builtWith(f.describe('VendorDns')), preRelease);
		expect(v.problems.join('\n')).toMatch(/node vendorDns, version 1, operation plan\/getAll, parameter "simplify": the simplified output of "simplify" no longer has "price": a saved expression reading \$json.price gets nothing/);
		expect(v.problems.join('\n')).toMatch(WAYS);
		const g = fresh();
		const only = g.area('VendorDns', 'dnsArea').operations.find((o) => o.resource === 'plan' && o.operation === 'getAll');
		only.simplify = { ...only.simplify, extra: only.simplify.id };
		const added = lib.verdict(recorded, builtWith(g.describe('VendorDns')), preRelease);
		expect(added.problems).toEqual([]);
		expect(added.recordable.join('\n')).toMatch(/has "extra" too/);
	});

	test('two members with one name in a collection are refused', () => {
		const f = fresh();
		const dns = f.area('VendorDns', 'dnsArea');
		const op = dns.operations.find((o) => o.resource === 'record' && o.operation === 'add');
		const optional = op.fields.find((x) => !x.required && !x.topLevel);
		op.fields.push({ ...optional, displayName: `${optional.displayName} Again` });
		const { conflicts } = lib.nodeSchema(PACKAGE, f.describe('VendorDns'));
		expect(conflicts.join('\n')).toMatch(/holds two members named/);
	});
});

describe('node versions', () => {
	test('a change behind a new version keeps the old version as it was and passes as an addition', () => {
		const f = fresh();
		const dns = f.area('VendorDns', 'dnsArea');
		dns.versions = [1, 1.1];
		const op = dns.operations.find((o) => o.resource === 'record' && o.operation === 'add');
		const i = op.fields.findIndex((x) => x.wire === 'recordtype');
		const type = op.fields[i];
		op.fields.splice(i, 1, { ...type, until: 1 }, { ...type, default: 'AAAA', since: 1.1 });
		const description = f.describe('VendorDns');
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
		const typeProps = description.properties.filter((p) => p.name === 'recordtype' && p.displayOptions.show.operation?.includes('add') && p.displayOptions.show.resource?.includes('record'));
		expect(typeProps.map((p) => [p.default, p.displayOptions.show['@version']]).sort()).toEqual([
			['A', [1]],
			['AAAA', [1.1]],
		]);
		// what both versions share is declared once, without a version condition
		expect(description.properties.filter((p) => p.name === 'mx' && p.displayOptions.show.operation?.includes('add'))).toHaveLength(1);
		const schema = schemaOf(description);
		expect(schema.parameters['1']['record/add'].recordtype.default).toBe('A');
		expect(schema.parameters['1.1']['record/add'].recordtype.default).toBe('AAAA');
		const v = lib.verdict(recorded, builtWith(description), preRelease);
		expect(v.problems).toEqual([]);
		expect(v.recordable.join('\n')).toMatch(/version 1.1 was added/);
		expect(v.recordable.join('\n')).toMatch(/the default version changed from 1 to 1.1/);
	});

	test('dropping an old version is refused', () => {
		const f = fresh();
		const described = schemaOf(f.describe('VendorDns'));
		const recordedTwo = { ...recorded, nodes: { ...recorded.nodes, vendorDns: { ...described, versions: [1, 1.1], defaultVersion: 1.1, parameters: { 1: described.parameters['1'], 1.1: described.parameters['1'] } } } };
		const text = lib.verdict(recordedTwo, lib.buildSchema(ROOT), preRelease).problems.join('\n');
		expect(text).toMatch(/version 1.1 is no longer served/);
	});
});

'use strict';
/**
 * Every row of endpoints.tsv has an operation in the node of its area, with the request path
 * the row gives, and every declared operation implements a real row: the dropdowns are derived
 * from the same declarations, so a row without an operation is an endpoint users cannot reach.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, loadPackage, PREFIX } = require('../support/n8n');

const NODE_OF_AREA = {
	'object-storage': 'vendorObjectStorage',
	'account-billing': 'vendorAccountBilling',
	cdn: 'vendorCdn',
	'cloud-host': 'vendorCloudHost',
	'disk-network-firewall': 'vendorDiskNetworkFirewall',
	dns: 'vendorDns',
};

function rows() {
	const text = fs.readFileSync(path.join(ROOT, 'docs/vendor/endpoints.tsv'), 'utf8');
	return text
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => {
			const [area, section, endpoint, request] = line.split('\t');
			return { area, section, endpoint, request };
		});
}

/** Declared operations of every node folder that has an area module in dist/. */
function declaredOperations() {
	const out = {};
	for (const dir of fs.readdirSync(path.join(ROOT, 'dist/nodes'))) {
		const file = path.join(ROOT, 'dist/nodes', dir, 'area.js');
		if (!fs.existsSync(file)) continue;
		for (const value of Object.values(require(file))) {
			if (value && Array.isArray(value.operations) && value.node) out[value.node] = value.operations;
		}
	}
	return out;
}

const ALL = rows();
const declared = declaredOperations();

test('endpoints.tsv has the 163 rows of the vendor\'s documentation', () => {
	expect(ALL).toHaveLength(163);
	expect(new Set(ALL.map((r) => r.area))).toEqual(new Set(Object.keys(NODE_OF_AREA)));
});

describe.each(Object.entries(NODE_OF_AREA))('%s rows', (area, node) => {
	const areaRows = ALL.filter((r) => r.area === area);
	const ops = declared[node] || [];

	test.each(areaRows.map((r) => [r.endpoint, r]))('%s has an operation in %s', (_endpoint, row) => {
		const matching = ops.filter((o) => o.endpoint === row.endpoint);
		expect(matching.length).toBeGreaterThan(0);
		if (row.request.startsWith('POST /API/')) {
			for (const op of matching) expect(`POST /API/${op.path}`).toBe(row.request);
		}
	});

	test(`every declared ${node} operation implements a row of this area`, () => {
		const endpoints = new Set(areaRows.map((r) => r.endpoint));
		expect(ops.length).toBeGreaterThan(0);
		// an operation with its own `run` (Check Compatibility) is not one endpoint and implements no row;
		// one that sends an undocumented request (Bucket > Get Many: GET /) names the reading that allows it
		expect(ops.filter((o) => !o.run && !o.undocumented && !endpoints.has(o.endpoint)).map((o) => o.endpoint)).toEqual([]);
		const readings = fs.readFileSync(path.join(ROOT, 'docs/vendor/readings.md'), 'utf8');
		for (const o of ops.filter((x) => x.undocumented)) expect(readings).toContain(`### ${o.undocumented}\n`);
	});

	test(`every declared ${node} operation is in the node's dropdowns`, () => {
		const type = loadPackage().nodes[`${PREFIX}.${node}`];
		expect(type).toBeDefined();
		const props = type.description.properties;
		const missing = ops.filter((o) => {
			const opProp = props.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(o.resource),
			);
			return !opProp || !opProp.options.some((x) => x.value === o.operation);
		});
		expect(missing.map((o) => `${o.resource}:${o.operation}`)).toEqual([]);
	});
});

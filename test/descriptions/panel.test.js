'use strict';
/**
 * The node panels as a person reads them (issue 11, section 5), checked over the built node
 * descriptions n8n loads: labels without API paths, unit letters or internal words; every
 * resource described; one spelling of each word; fields in the order a form is filled; fixed
 * codes as dropdowns; object keys chosen from a list.
 */
const path = require('node:path');
const { ROOT, loadPackage, PREFIX } = require('../support/n8n');

const pkg = require(path.join(ROOT, 'package.json'));
const types = loadPackage().nodes;
const nodeNames = pkg.n8n.nodes.map((f) => path.basename(f).split('.')[0].replace(/^./, (c) => c.toLowerCase()));
const ACTION_NODES = nodeNames.filter((n) => !/Trigger$/.test(n));

/** Every label of a node (display names, option names, resource locator modes) and every text. */
function walk(properties, visit, where = []) {
	for (const p of properties || []) {
		visit({ kind: 'label', text: p.displayName, p, where });
		for (const key of ['description', 'hint', 'placeholder']) if (typeof p[key] === 'string') visit({ kind: key, text: p[key], p, where });
		for (const m of p.modes || []) {
			visit({ kind: 'label', text: m.displayName, p, where });
			if (m.hint) visit({ kind: 'hint', text: m.hint, p, where });
			if (m.placeholder) visit({ kind: 'placeholder', text: m.placeholder, p, where });
		}
		for (const o of p.options || []) {
			if (Array.isArray(o.values)) {
				visit({ kind: 'label', text: o.displayName, p, where });
				walk(o.values, visit, [...where, p.name]);
			} else if (o.type && o.displayName) walk([o], visit, [...where, p.name]);
			else {
				visit({ kind: 'label', text: o.name, p, where });
				if (o.description) visit({ kind: 'description', text: o.description, p, where });
				if (o.action) visit({ kind: 'action', text: o.action, p, where });
			}
		}
	}
}

function texts(node) {
	const out = [];
	const d = types[`${PREFIX}.${node}`].description;
	out.push({ kind: 'description', text: d.description, p: { name: '(node)' }, where: [] });
	walk(d.properties, (t) => out.push(t));
	return out;
}

const props = (node) => types[`${PREFIX}.${node}`].description.properties;
/** The fields the node (not its tool variant: `@tool` fields are the tool's own) shows for an operation. */
const shownFor = (node, resource, operation) =>
	props(node).filter((p) => {
		const show = p.displayOptions?.show ?? {};
		return !show['@tool'] && (!show.resource || show.resource.includes(resource)) && (!show.operation || show.operation.includes(operation)) && p.name !== 'resource' && p.name !== 'operation';
	});

describe.each(nodeNames)('%s', (node) => {
	const all = texts(node);
	const labels = all.filter((t) => t.kind === 'label');

	test('labels carry no API path, unit letter or internal word', () => {
		const bad = labels.filter(
			(t) =>
				/\b(API|profile|instance|cdn|dns|OAuth)\/[A-Za-z]/.test(t.text) ||
				/\((G|M|K|T)\)/.test(t.text) ||
				/_zh\b|\b[a-z]+_[a-z]+\b/.test(t.text) ||
				/\b(seed|emulator|wire|payload|envelope)\b/i.test(t.text),
		);
		expect(bad.map((t) => `${t.p.name}: ${t.text}`)).toEqual([]);
	});

	test('one spelling of each word', () => {
		const wrong = [
			[/\bsub ?accounts?\b|\bSub ?Accounts?\b|\bsub-Account|\bSub-account\b/, 'Sub-Account (labels) or sub-account (text)'],
			[/\bemails?\b|\bEmails?\b/, 'E-Mail (labels) or e-mail (text)'],
			// US English, as n8n's editor (issue 34, item 5; us-english.test.js reads every text for British forms)
			[/\bcent(re|res)\b/i, 'center'],
			[/\bfavourites?\b/i, 'favorite'],
			[/\blicences?\b/i, 'license'],
			[/\bcatalogues?\b/i, 'catalog'],
		];
		const found = [];
		// the Simplify hint lists output field names (email, subAccounts), not words
		for (const t of all.filter((x) => !(x.kind === 'hint' && x.p.name === 'simplify'))) {
			// addresses and examples are what they are
			const text = t.text.replace(/[\w.+-]+@[\w.-]+/g, '');
			for (const [re, want] of wrong) if (re.test(text)) found.push(`${t.p.name} (${t.kind}): "${t.text}" — use ${want}`);
		}
		expect(found).toEqual([]);
	});

	test('every resource has a description', () => {
		const resource = props(node).find((p) => p.name === 'resource');
		if (!resource) return;
		expect(resource.options.filter((o) => !o.description).map((o) => o.name)).toEqual([]);
	});
});

describe('fields in the order a person fills the form', () => {
	test('DNS Record > Add: Domain, Type, Host Record, Value, Line, TTL, and MX Priority only for MX', () => {
		const fields = shownFor('vendorDns', 'record', 'add').filter((p) => !['notice', 'collection', 'boolean'].includes(p.type));
		expect(fields.map((p) => p.displayName)).toEqual(['Domain', 'Type', 'Host Record', 'Value', 'Line', 'TTL (Seconds)', 'MX Priority']);
		const mx = fields.find((p) => p.name === 'mx');
		expect(mx.displayOptions.show.recordtype).toEqual(['MX']);
		// Weight and further records in one call are optional, under Additional Fields
		const more = shownFor('vendorDns', 'record', 'add').find((p) => p.name === 'additionalFields');
		expect(more.options.map((o) => o.displayName)).toEqual(['More Records', 'Weight']);
		const rows = more.options.find((o) => o.name === 'records').options[0].values;
		expect(rows.find((p) => p.name === 'mx').displayOptions.show.recordtype).toEqual(['MX']);
	});

	test('Cloud Host > Create: what, where, how big, which line, how paid, the password, how many', () => {
		const fields = shownFor('vendorCloudHost', 'host', 'create').filter((p) => p.type !== 'notice' && p.type !== 'collection' && p.type !== 'boolean' && p.name !== 'waitTimeout');
		expect(fields.map((p) => p.displayName)).toEqual([
			'Name',
			'Data Center',
			'CPU Package',
			'Memory Package',
			'Image',
			'System Disk Size',
			'Line',
			'Bandwidth',
			'Billing Type',
			'Coupon Amount',
			'Administrator Password',
			'Quantity',
		]);
	});

	test('Account & Billing > Billing Report: the period first, its days only for Custom', () => {
		const fields = shownFor('vendorAccountBilling', 'report', 'get').filter((p) => p.type !== 'collection');
		expect(fields.map((p) => p.displayName)).toEqual(['Period', 'From', 'To']);
		expect(fields[0].options.map((o) => o.name)).toEqual(['Custom', 'Last 30 Days', 'Last 7 Days', 'Last Month', 'This Month']);
		expect(fields[0].default).toBe('last30Days');
		expect(fields[1].displayOptions.show.period).toEqual(['custom']);
	});
});

describe('fixed codes are dropdowns', () => {
	test('DNS lines: a dropdown in Add, More Records and Update (any other line as an expression)', () => {
		const line = shownFor('vendorDns', 'record', 'add').find((p) => p.name === 'recordline');
		expect(line.type).toBe('options');
		expect(line.options.map((o) => o.value)).toEqual(expect.arrayContaining(['default', 'telecom', 'unicom', 'mobile']));
		const update = shownFor('vendorDns', 'record', 'update').find((p) => p.name === 'updateFields');
		expect(update.options.find((o) => o.name === 'recordline').type).toBe('options');
	});

	test('host lines are chosen from the data centre\'s lines, or by their code', () => {
		const line = shownFor('vendorCloudHost', 'host', 'create').find((p) => p.name === 'networkid');
		expect(line.type).toBe('resourceLocator');
		expect(line.modes.map((m) => m.displayName)).toEqual(['From List', 'By Code']);
	});

	test('statuses, types and billing choices of the action nodes are dropdowns, never typed codes', () => {
		const typed = [];
		for (const node of ACTION_NODES) {
			walk(props(node), (t) => {
				if (t.kind !== 'label' || !t.p.type) return;
				if (/^(Status|Type|Billing Type|Direction|Rule Action|Line|Strategy|Period|Holder|Invoice Type|Task Kind|Nodes to Fill|Cache Type|Origin Policy)$/.test(t.text) && !['options', 'resourceLocator', 'multiOptions'].includes(t.p.type))
					typed.push(`${node}: ${t.text} (${t.p.type})`);
			});
		}
		expect(typed).toEqual([]);
	});
});

describe('objects chosen where an existing object is meant', () => {
	test.each(['download', 'delete', 'getPresignedUrl'])('Object > %s: the key From List (searchable) or By Key', (operation) => {
		const key = shownFor('vendorObjectStorage', 'object', operation).find((p) => p.name === 'key');
		expect(key.type).toBe('resourceLocator');
		expect(key.modes.map((m) => m.displayName)).toEqual(['From List', 'By Key']);
		expect(key.modes[0].typeOptions).toEqual({ searchListMethod: 'searchObjects', searchable: true });
	});

	test('Object > Upload names a new object: a typed key', () => {
		const key = shownFor('vendorObjectStorage', 'object', 'upload').find((p) => p.name === 'key');
		expect(key.type).toBe('string');
	});
});

describe('Simplify', () => {
	test('on by default wherever it is offered, with the names it gives in its hint', () => {
		for (const node of ACTION_NODES) {
			for (const p of props(node).filter((x) => x.name === 'simplify')) {
				expect(p.default).toBe(true);
				expect(p.hint).toMatch(/^Words for codes, times as dates, amounts as numbers: /);
				expect(p.hint).not.toMatch(/_zh|\b[a-z]+_[a-z]+\b/);
			}
		}
	});
});

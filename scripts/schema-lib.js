'use strict';
/**
 * The parameter schema of the built package: everything a saved workflow depends on, read from
 * the node and credential classes in dist/ exactly as n8n loads them, and the rules that decide
 * whether a change to it keeps saved workflows working. Used by `npm run schema` and by
 * test/descriptions/schema.test.js; schema/README.md explains the contract in words.
 *
 * What a saved workflow holds: the node type (`<package>.<name>`), its typeVersion, the
 * credential type, and the parameters that differ from their defaults, by name. So the schema
 * records, per node and per version, for each operation (resource/operation pair, or `*` for a
 * node without them): every parameter's path (collection and fixedCollection members as
 * `parent.member`), type, default, whether it is required, the option values it takes, the
 * modes of a resource locator, and the display conditions beyond resource and operation.
 * Labels, descriptions, hints and tool descriptions are free to change and are not recorded.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SCHEMA_DIR = path.join(ROOT, 'schema');
const PRE_RELEASE_FILE = path.join(SCHEMA_DIR, 'pre-release-changes.json');

/* ------------------------------------------------------------------ reading */

function loadClass(file) {
	const abs = path.resolve(ROOT, file);
	delete require.cache[abs];
	const mod = require(abs);
	const name = path.basename(file).replace(/\.(node|credentials)\.js$/, '');
	if (typeof mod[name] !== 'function') throw new Error(`${file} does not export a class named ${name}`);
	return new mod[name]();
}

/** The node and credential classes package.json lists, instantiated from dist/. */
function loadPackage(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return {
		name: pkg.name,
		nodes: pkg.n8n.nodes.map((f) => loadClass(path.join(root, f)).description),
		credentials: pkg.n8n.credentials.map((f) => loadClass(path.join(root, f))),
	};
}

/* -------------------------------------------------------- display conditions */

const SCOPE_KEYS = new Set(['resource', 'operation', '@version']);

function sortedValues(values) {
	return [...values].map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v)).sort((a, b) => String(a).localeCompare(String(b)));
}

/** Whether one display-condition value list admits `value` (plain values and n8n's `_cnd` forms). */
function admits(list, value) {
	return list.some((entry) => {
		if (entry && typeof entry === 'object' && entry._cnd) {
			const [[op, arg]] = Object.entries(entry._cnd);
			switch (op) {
				case 'eq':
					return value === arg;
				case 'not':
					return value !== arg;
				case 'gte':
					return value >= arg;
				case 'lte':
					return value <= arg;
				case 'gt':
					return value > arg;
				case 'lt':
					return value < arg;
				case 'between':
					return value >= arg.from && value <= arg.to;
				default:
					throw new Error(`display condition _cnd.${op} is not understood by the schema reader; add it to scripts/schema-lib.js`);
			}
		}
		return entry === value;
	});
}

/** Whether a property is shown for these resource/operation/@version values (other keys ignored). */
function shownFor(displayOptions, values) {
	if (!displayOptions) return true;
	for (const [key, list] of Object.entries(displayOptions.show ?? {})) {
		if (SCOPE_KEYS.has(key) && values[key] !== undefined && !admits(list, values[key])) return false;
	}
	for (const [key, list] of Object.entries(displayOptions.hide ?? {})) {
		if (SCOPE_KEYS.has(key) && values[key] !== undefined && admits(list, values[key])) return false;
	}
	return true;
}

/** The display conditions other than resource, operation and @version, in a canonical form. */
function whenOf(displayOptions) {
	const out = {};
	for (const part of ['show', 'hide']) {
		const conditions = Object.entries(displayOptions?.[part] ?? {})
			.filter(([key]) => !SCOPE_KEYS.has(key))
			.sort(([a], [b]) => a.localeCompare(b));
		if (conditions.length) out[part] = Object.fromEntries(conditions.map(([k, v]) => [k, sortedValues(v)]));
	}
	return Object.keys(out).length ? out : undefined;
}

/* -------------------------------------------------------------- parameters */

/** The Simplify switch's hint: "Words for codes, times as dates, amounts as numbers: id, name, ...". */
const SIMPLIFIED_NAMES = /^Words for codes, times as dates, amounts as numbers: (.*)$/;

/** Parameters whose default text is what a model or a person reads, not a stored value. */
const TEXT_DEFAULTS = new Set(['toolDescription']);

function canonical(value) {
	if (Array.isArray(value)) return value.map(canonical);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((k) => [k, canonical(value[k])]),
		);
	}
	return value;
}

/** One parameter as a saved workflow sees it; members of collections follow as `path.member`. */
function describe(p, pathName, out, conflicts) {
	const entry = { type: p.type };
	if (p.type === 'notice') {
		// shows text only; holds no value
	} else if (TEXT_DEFAULTS.has(p.name)) {
		entry.default = '(text)';
	} else {
		entry.default = canonical(p.default);
	}
	if (p.required) entry.required = true;
	const when = whenOf(p.displayOptions);
	if (when) entry.when = when;
	if (p.type === 'options' || p.type === 'multiOptions') {
		entry.values = p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions ? '(loaded from the service)' : sortedValues((p.options ?? []).map((o) => o.value));
	}
	if (p.type === 'resourceLocator') entry.modes = sortedValues((p.modes ?? []).map((m) => m.name));
	// the names a simplified record can have (its hint lists them, nodes/shared/api/properties.ts):
	// a saved expression reads $json.<name>, so a name that goes is a change saved workflows see
	const outputs = p.name === 'simplify' && typeof p.hint === 'string' ? SIMPLIFIED_NAMES.exec(p.hint) : null;
	if (outputs) entry.outputs = sortedValues(outputs[1].split(',').map((n) => n.trim()).filter(Boolean));
	if ((p.type === 'collection' || p.type === 'fixedCollection') && p.typeOptions?.multipleValues) entry.multipleValues = true;
	out.push([pathName, entry]);
	const seen = new Map();
	const member = (name) => {
		if (seen.has(name)) conflicts.push(`"${pathName}" holds two members named "${name}" (${seen.get(name)} and another): n8n keeps one value per name, so one of them is lost`);
		seen.set(name, true);
	};
	if (p.type === 'collection') {
		for (const m of p.options ?? []) {
			member(m.name);
			describe(m, `${pathName}.${m.name}`, out, conflicts);
		}
	}
	if (p.type === 'fixedCollection') {
		for (const group of p.options ?? []) {
			member(group.name);
			out.push([`${pathName}.${group.name}`, { type: 'fixedCollection group' }]);
			const inner = new Map();
			for (const v of group.values ?? []) {
				if (inner.has(v.name)) conflicts.push(`"${pathName}.${group.name}" holds two members named "${v.name}"`);
				inner.set(v.name, true);
				describe(v, `${pathName}.${group.name}.${v.name}`, out, conflicts);
			}
		}
	}
}

/** The resource/operation pairs of a node (none for a node without a Resource parameter). */
function scopesOf(properties, version) {
	const resource = properties.find((p) => p.name === 'resource' && p.type === 'options' && shownFor(p.displayOptions, { '@version': version }));
	if (!resource) return [];
	const scopes = [];
	for (const r of resource.options ?? []) {
		const operation = properties.find((p) => p.name === 'operation' && p.type === 'options' && shownFor(p.displayOptions, { resource: r.value, '@version': version }));
		for (const o of operation?.options ?? []) scopes.push({ resource: r.value, operation: o.value });
	}
	return scopes;
}

/**
 * The parameters of one node version: `{ '*': {...}, 'resource/operation': {...} }`. A parameter
 * shown for every operation goes under `*`; one shown for some goes under each of them.
 */
function versionView(description, version, conflicts) {
	const properties = description.properties.filter((p) => shownFor(p.displayOptions, { '@version': version }));
	const scopes = scopesOf(properties, version);
	const view = {};
	const put = (scope, pathName, entry) => {
		view[scope] = view[scope] ?? {};
		let key = pathName;
		if (view[scope][key] !== undefined) key = `${pathName} ${JSON.stringify(entry.when ?? {})}`;
		if (view[scope][key] !== undefined) conflicts.push(`${scope}: "${pathName}" is declared twice with the same display conditions`);
		view[scope][key] = entry;
	};
	for (const p of properties) {
		const entries = [];
		describe(p, p.name, entries, conflicts);
		const where = scopes.filter((s) => shownFor(p.displayOptions, { ...s, '@version': version }));
		const everywhere = scopes.length === 0 || where.length === scopes.length;
		for (const [pathName, entry] of entries) {
			if (everywhere) put('*', pathName, entry);
			else for (const s of where) put(`${s.resource}/${s.operation}`, pathName, entry);
		}
	}
	const sorted = {};
	for (const scope of Object.keys(view).sort((a, b) => (a === '*' ? -1 : b === '*' ? 1 : a.localeCompare(b)))) {
		sorted[scope] = Object.fromEntries(Object.keys(view[scope]).sort().map((k) => [k, view[scope][k]]));
	}
	return sorted;
}

const versionsOf = (d) => (Array.isArray(d.version) ? [...d.version] : [d.version]).sort((a, b) => a - b);

function nodeSchema(packageName, description) {
	const conflicts = [];
	const versions = versionsOf(description);
	const schema = {
		type: `${packageName}.${description.name}`,
		versions,
		defaultVersion: description.defaultVersion ?? Math.max(...versions),
		credentials: (description.credentials ?? []).map((c) => c.name).sort(),
		outputs: Array.isArray(description.outputs) ? description.outputs.length : description.outputs,
		inputs: Array.isArray(description.inputs) ? description.inputs.length : description.inputs,
	};
	if (description.usableAsTool) schema.usableAsTool = true;
	if (description.polling) schema.polling = true;
	if (description.hidden) schema.hidden = true;
	schema.parameters = {};
	for (const v of versions) schema.parameters[String(v)] = versionView(description, v, conflicts);
	return { schema, conflicts: conflicts.map((c) => `${description.name}: ${c}`) };
}

function credentialSchema(credential) {
	const conflicts = [];
	const entries = [];
	for (const p of credential.properties) describe(p, p.name, entries, conflicts);
	const parameters = {};
	for (const [k, e] of entries.sort(([a], [b]) => a.localeCompare(b))) {
		if (parameters[k]) conflicts.push(`"${k}" is declared twice`);
		parameters[k] = e;
	}
	return { schema: { type: credential.name, parameters }, conflicts: conflicts.map((c) => `${credential.name}: ${c}`) };
}

/** The whole schema of the built package: { nodes: {name: schema}, credentials: {...}, conflicts }. */
function buildSchema(root = ROOT) {
	const pkg = loadPackage(root);
	const out = { nodes: {}, credentials: {}, conflicts: [] };
	for (const d of pkg.nodes) {
		const { schema, conflicts } = nodeSchema(pkg.name, d);
		out.nodes[d.name] = schema;
		out.conflicts.push(...conflicts);
	}
	for (const c of pkg.credentials) {
		const { schema, conflicts } = credentialSchema(c);
		out.credentials[c.name] = schema;
		out.conflicts.push(...conflicts);
	}
	return out;
}

/* ------------------------------------------------------------ the snapshot */

function snapshotFiles(schema) {
	const files = {};
	for (const [name, s] of Object.entries(schema.nodes)) files[`nodes/${name}.json`] = s;
	for (const [name, s] of Object.entries(schema.credentials)) files[`credentials/${name}.json`] = s;
	return files;
}

/** One parameter per line: readable diffs, small files. */
function render(value) {
	const lines = ['{'];
	const top = Object.entries(value);
	top.forEach(([key, v], i) => {
		const comma = i < top.length - 1 ? ',' : '';
		if (key !== 'parameters') {
			lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(v)}${comma}`);
			return;
		}
		lines.push(`  "parameters": {`);
		const isCredential = value.versions === undefined;
		const groups = isCredential ? [[null, v]] : Object.entries(v);
		groups.forEach(([version, scopes], gi) => {
			const indent = version === null ? '    ' : '      ';
			if (version !== null) lines.push(`    ${JSON.stringify(version)}: {`);
			const renderParams = (params, pad) => {
				const entries = Object.entries(params);
				entries.forEach(([name, e], pi) => lines.push(`${pad}${JSON.stringify(name)}: ${JSON.stringify(e)}${pi < entries.length - 1 ? ',' : ''}`));
			};
			if (version === null) renderParams(scopes, indent);
			else {
				const scopeEntries = Object.entries(scopes);
				scopeEntries.forEach(([scope, params], si) => {
					lines.push(`${indent}${JSON.stringify(scope)}: {`);
					renderParams(params, `${indent}  `);
					lines.push(`${indent}}${si < scopeEntries.length - 1 ? ',' : ''}`);
				});
				lines.push(`    }${gi < groups.length - 1 ? ',' : ''}`);
			}
		});
		lines.push(`  }${comma}`);
	});
	lines.push('}');
	return `${lines.join('\n')}\n`;
}

function readSnapshot(dir = SCHEMA_DIR) {
	const out = { nodes: {}, credentials: {} };
	for (const kind of ['nodes', 'credentials']) {
		const d = path.join(dir, kind);
		if (!fs.existsSync(d)) continue;
		for (const f of fs.readdirSync(d).filter((x) => x.endsWith('.json')).sort()) {
			out[kind][f.replace(/\.json$/, '')] = JSON.parse(fs.readFileSync(path.join(d, f), 'utf8'));
		}
	}
	return out;
}

function writeSnapshot(schema, dir = SCHEMA_DIR) {
	for (const kind of ['nodes', 'credentials']) {
		fs.rmSync(path.join(dir, kind), { recursive: true, force: true });
		fs.mkdirSync(path.join(dir, kind), { recursive: true });
	}
	for (const [file, s] of Object.entries(snapshotFiles(schema))) fs.writeFileSync(path.join(dir, file), render(s));
}

function readPreRelease(file = PRE_RELEASE_FILE) {
	if (!fs.existsSync(file)) return { published: [], changes: [] };
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/* ------------------------------------------------------------- comparing */

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const show = (v) => (v === undefined ? 'nothing' : JSON.stringify(v));

/**
 * Every difference between the recorded schema and the built one, each classified:
 * `addition` (saved workflows keep working) or `breaking` (a saved workflow would load another
 * operation, lose a value or change behaviour). Each names the node, version, operation and
 * parameter.
 */
function compare(recorded, built) {
	const changes = [];
	const add = (change) => changes.push(change);
	for (const [name, old] of Object.entries(recorded.nodes)) {
		const now = built.nodes[name];
		if (!now) {
			add({ kind: 'breaking', node: name, what: `the node type ${old.type} is gone (removed or renamed): every saved workflow with it shows "Unrecognized node type"` });
			continue;
		}
		if (old.type !== now.type) add({ kind: 'breaking', node: name, what: `the node type changed from ${old.type} to ${now.type}` });
		for (const key of ['credentials', 'inputs', 'outputs', 'polling']) {
			if (!same(old[key], now[key])) add({ kind: key === 'credentials' && old.credentials.every((c) => now.credentials.includes(c)) ? 'addition' : 'breaking', node: name, what: `${key} changed from ${show(old[key])} to ${show(now[key])}` });
		}
		if (old.usableAsTool && !now.usableAsTool) add({ kind: 'breaking', node: name, what: 'usableAsTool was removed: saved AI-agent workflows use the tool variant' });
		if (!old.usableAsTool && now.usableAsTool) add({ kind: 'addition', node: name, what: 'usableAsTool was added' });
		if (!same(old.hidden, now.hidden)) add({ kind: 'addition', node: name, what: `hidden changed from ${show(old.hidden)} to ${show(now.hidden)}` });
		for (const v of old.versions) {
			if (!now.versions.includes(v)) {
				add({ kind: 'breaking', node: name, version: v, what: `version ${v} is no longer served: workflows saved with typeVersion ${v} stop loading` });
				continue;
			}
			compareVersion(name, v, old.parameters[String(v)], now.parameters[String(v)], add);
		}
		for (const v of now.versions) if (!old.versions.includes(v)) add({ kind: 'addition', node: name, version: v, what: `version ${v} was added` });
		if (old.defaultVersion !== now.defaultVersion) {
			add({ kind: now.defaultVersion > old.defaultVersion ? 'addition' : 'breaking', node: name, what: `the default version changed from ${old.defaultVersion} to ${now.defaultVersion}` });
		}
		if (now.defaultVersion !== Math.max(...now.versions)) add({ kind: 'breaking', node: name, what: `defaultVersion ${now.defaultVersion} is not the newest version (${Math.max(...now.versions)}): new workflows must get the newest` });
	}
	for (const name of Object.keys(built.nodes)) if (!recorded.nodes[name]) add({ kind: 'addition', node: name, what: `the node ${built.nodes[name].type} is new` });
	for (const [name, old] of Object.entries(recorded.credentials)) {
		const now = built.credentials[name];
		if (!now) {
			add({ kind: 'breaking', credential: name, what: `the credential type ${name} is gone: saved credentials stop working` });
			continue;
		}
		compareParameters({ credential: name }, old.parameters, now.parameters, add);
	}
	for (const name of Object.keys(built.credentials)) if (!recorded.credentials[name]) add({ kind: 'addition', credential: name, what: `the credential ${name} is new` });
	return changes;
}

function compareVersion(node, version, old, now, add) {
	for (const [scope, params] of Object.entries(old)) {
		if (!now[scope]) {
			add({ kind: 'breaking', node, version, scope, what: `the operation ${scope} is gone (removed, renamed or moved to another resource): saved workflows would run another operation` });
			continue;
		}
		compareParameters({ node, version, scope }, params, now[scope], add);
	}
	for (const scope of Object.keys(now)) if (!old[scope]) add({ kind: 'addition', node, version, scope, what: `the operation ${scope} is new` });
}

function compareParameters(where, old, now, add) {
	const removed = Object.keys(old).filter((k) => !(k in now));
	const added = Object.keys(now).filter((k) => !(k in old));
	for (const key of removed) {
		const twin = added.find((k) => now[k].type === old[key].type && k.split('.').slice(0, -1).join('.') === key.split('.').slice(0, -1).join('.'));
		add({
			kind: 'breaking',
			...where,
			parameter: key,
			what: `the parameter "${key}" is gone${twin ? ` (renamed to "${twin}"?)` : ''}: a saved value under this name is dropped`,
			hint: twin ? 'A renamed wire field keeps its parameter name with `param: <old name>` in the declaration.' : undefined,
		});
	}
	for (const key of added) {
		const e = now[key];
		const breaking = e.required === true && !where.credential;
		add({ kind: breaking ? 'breaking' : 'addition', ...where, parameter: key, what: breaking ? `the new parameter "${key}" is required: saved workflows do not have it` : `the parameter "${key}" is new (default ${show(e.default)})` });
	}
	for (const key of Object.keys(old).filter((k) => k in now)) {
		const a = old[key];
		const b = now[key];
		const p = { ...where, parameter: key };
		if (a.type !== b.type) add({ kind: 'breaking', ...p, what: `"${key}" changed type from ${a.type} to ${b.type}` });
		if (!same(a.default, b.default)) add({ kind: 'breaking', ...p, what: `the default of "${key}" changed from ${show(a.default)} to ${show(b.default)}: a saved workflow that kept the default would now use ${show(b.default)}` });
		if (!a.required && b.required && !where.credential) add({ kind: 'breaking', ...p, what: `"${key}" became required` });
		if (a.required && !b.required) add({ kind: 'addition', ...p, what: `"${key}" is no longer required` });
		if (!same(a.when, b.when)) add({ kind: 'breaking', ...p, what: `the display conditions of "${key}" changed from ${show(a.when)} to ${show(b.when)}: a saved value may no longer be read` });
		if (!same(a.multipleValues, b.multipleValues)) add({ kind: 'breaking', ...p, what: `"${key}" changed between one value and several: saved values have the other shape` });
		if (!same(a.outputs, b.outputs) && b.outputs !== undefined) {
			// recorded before the names were: all of them are additions
			const before = a.outputs ?? [];
			const gone = before.filter((x) => !b.outputs.includes(x));
			const fresh = b.outputs.filter((x) => !before.includes(x));
			if (gone.length) add({ kind: 'breaking', ...p, gone, what: `the simplified output of "${key}" no longer has ${gone.map(show).join(', ')}: a saved expression reading $json.${gone[0]} gets nothing` });
			if (fresh.length) add({ kind: 'addition', ...p, what: `the simplified output of "${key}" has ${fresh.map(show).join(', ')} too` });
		} else if (a.outputs !== undefined && b.outputs === undefined) add({ kind: 'breaking', ...p, what: `"${key}" no longer names its simplified output` });
		for (const list of ['values', 'modes']) {
			if (same(a[list], b[list])) continue;
			if (typeof a[list] === 'string' || typeof b[list] === 'string' || a[list] === undefined || b[list] === undefined) {
				add({ kind: 'breaking', ...p, what: `the ${list} of "${key}" changed from ${show(a[list])} to ${show(b[list])}` });
				continue;
			}
			const gone = a[list].filter((x) => !b[list].includes(x));
			const fresh = b[list].filter((x) => !a[list].includes(x));
			if (gone.length) add({ kind: 'breaking', ...p, what: `"${key}" no longer offers ${gone.map(show).join(', ')}: saved workflows that chose it stop working` });
			if (fresh.length) add({ kind: 'addition', ...p, what: `"${key}" offers ${fresh.map(show).join(', ')} too` });
		}
	}
}

/* ------------------------------------------------------------ the verdict */

function label(c) {
	const parts = [];
	if (c.node) parts.push(`node ${c.node}`);
	if (c.credential) parts.push(`credential ${c.credential}`);
	if (c.version !== undefined) parts.push(`version ${c.version}`);
	if (c.scope) parts.push(c.scope === '*' ? 'every operation' : `operation ${c.scope}`);
	if (c.parameter) parts.push(`parameter "${c.parameter}"`);
	return parts.join(', ');
}

/**
 * Whether the pre-release list names this change (node or credential, parameter, optional
 * operation). An entry with `outputs` names the simplified output names it lets go: a change
 * that drops any other name is not listed by it.
 */
function listed(change, preRelease) {
	return (preRelease.changes ?? []).some(
		(e) =>
			(e.node ?? null) === (change.node ?? null) &&
			(e.credential ?? null) === (change.credential ?? null) &&
			(e.parameter ?? null) === (change.parameter ?? null) &&
			(e.operation === undefined || e.operation === change.scope) &&
			(e.version === undefined || e.version === change.version) &&
			(e.outputs === undefined || (change.gone ?? []).every((name) => e.outputs.includes(name))),
	);
}

const DO_VERSION =
	"(b) leave this node version as it is and raise the node's version: add the new version to `versions` in the node's declaration (e.g. [1, 1.1]), declare the old form with `until` and the new form with `since`, so a workflow saved with the old typeVersion keeps its parameters and behaviour (see schema/README.md)";
const DO_PRE_RELEASE = '(c) while no version has been published to npm, list the change in schema/pre-release-changes.json with a reason';

/**
 * What the recorded schema and the build say together: ok, or the changes with what to do.
 * `allowPreRelease`: the package has not been published, so listed breaking changes pass.
 */
function verdict(recorded, built, preRelease) {
	const published = (preRelease.published ?? []).length > 0;
	const problems = [];
	for (const c of built.conflicts) problems.push(`${c}. Give each member its own name.`);
	if (published && (preRelease.changes ?? []).length) {
		problems.push(`schema/pre-release-changes.json lists changes although version ${preRelease.published.join(', ')} is published: empty the list (pre-release changes are over).`);
	}
	const changes = compare(recorded, built);
	const additions = changes.filter((c) => c.kind === 'addition');
	const breaking = changes.filter((c) => c.kind === 'breaking');
	const allowed = breaking.filter((c) => !published && listed(c, preRelease));
	const refused = breaking.filter((c) => !allowed.includes(c));
	for (const c of refused) {
		problems.push(
			`${label(c)}: ${c.what}.${c.hint ? ` ${c.hint}` : ''}\n  Saved workflows depend on this. Do one of: ${DO_VERSION}; ${published ? '(c) is closed: the package is published' : DO_PRE_RELEASE}.`,
		);
	}
	const recordable = [...additions, ...allowed];
	return {
		ok: problems.length === 0 && recordable.length === 0,
		canUpdate: problems.length === 0,
		problems,
		recordable: recordable.map((c) => `${label(c)}: ${c.what}${c.kind === 'breaking' ? ' (listed in schema/pre-release-changes.json)' : ''}`),
	};
}

function report(v) {
	const lines = [];
	if (v.problems.length) {
		lines.push(`The parameter schema changed in ways that break saved workflows (${v.problems.length}):`, '');
		for (const p of v.problems) lines.push(`- ${p}`);
		lines.push('');
	}
	if (v.recordable.length) {
		lines.push(`Changes that keep saved workflows working (${v.recordable.length}); write them down with \`npm run schema -- --update\`${v.problems.length ? ' once the ones above are resolved' : ''}:`, '');
		for (const r of v.recordable.slice(0, 60)) lines.push(`- ${r}`);
		if (v.recordable.length > 60) lines.push(`- ... and ${v.recordable.length - 60} more`);
	}
	return lines.join('\n');
}

module.exports = {
	SCHEMA_DIR,
	PRE_RELEASE_FILE,
	loadPackage,
	buildSchema,
	nodeSchema,
	readSnapshot,
	writeSnapshot,
	readPreRelease,
	render,
	compare,
	verdict,
	report,
};

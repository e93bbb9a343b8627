'use strict';
/**
 * The dialect matrix: every catalogue entry (catalogue/) run once through the n8n-core harness
 * against a fresh `demo` emulator per column: the default reading, then each dialect the
 * emulator lists in `GET /__emulator/dialects` (`available`). Dialects that only show under
 * pressure get it from here, before every operation of a management node:
 *   tokenLifetime60    the emulator clock moves on 61 s, so the node's token has expired
 *   loginInvalidates   the same account logs in from outside, so the node's token is invalidated
 *   tokenRefusedOtherCode, tokenRefusedChinese  every token is revoked, so the node's next request
 *                      is refused in the dialect's words and code (readings R44)
 * Two storage readings need a credential setting, which their columns use (STORAGE_SETTINGS):
 *   underscoreSigned   upload_id / part_number sent and signed
 *   subresourceDecoded upload IDs signed decoded
 *
 *   const { runMatrix } = require('./runner');
 *   const matrix = await runMatrix({ dialects: ['numbersAsStrings'] }); // all when omitted
 *
 * `node test/dialects/runner.js [default | dialect ...]` runs it without jest and writes the same
 * files (no argument: every dialect; `default`: that column only).
 */
const fs = require('node:fs');
const path = require('node:path');
const { startVendor, n8n } = require('../support/vendor');
const { catalogue, keyOf, fallbackKeys } = require('./catalogue');
const impossible = require('./impossible');

const DEFAULT = 'default';
/** Emulator timings short enough that waiting operations finish after one poll. */
const TIMING = { taskDelayMs: 100, hostCreateMs: 100, hostReinstallMs: 100, backupMs: 100 };
const RESULTS = path.join(n8n.ROOT, 'test-results');

/* ---------- what must be covered ---------- */

/** Every "node/resource/operation" of the action nodes' dropdowns, read from the built nodes (dist/). */
function dropdownOperations() {
	const keys = [];
	for (const node of Object.values(n8n.loadPackage().nodes)) {
		const d = node.description;
		if (d.group.includes('trigger')) continue;
		const props = d.properties;
		const resources = props.find((p) => p.name === 'resource')?.options ?? [{ value: '' }];
		for (const res of resources) {
			const opProp = props.find((p) => p.name === 'operation' && (!res.value || p.displayOptions?.show?.resource?.includes(res.value)));
			for (const op of opProp?.options ?? []) keys.push(`${d.name}/${res.value}/${op.value}`);
		}
	}
	return keys;
}

/** Differences between the dropdowns and the catalogue: { missing, unknown, duplicated }. */
function coverage() {
	const wanted = dropdownOperations();
	const entries = catalogue.map(keyOf);
	const seen = new Set();
	const duplicated = entries.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
	return {
		missing: wanted.filter((k) => !seen.has(k)),
		unknown: [...seen, ...fallbackKeys.filter((k) => !seen.has(k))].filter((k) => !wanted.includes(k)),
		duplicated,
		total: wanted.length,
	};
}

/* ---------- the columns ---------- */

/** The dialects a fresh emulator offers; null when it has no dialect route (answers 404). */
async function availableDialects() {
	const v = await startVendor();
	try {
		const res = await fetch(`${v.url}/__emulator/dialects`);
		if (res.status === 404) return null;
		if (!res.ok) throw new Error(`GET /__emulator/dialects answered HTTP ${res.status}`);
		const body = await res.json();
		return (body.available || []).map((d) => (typeof d === 'string' ? d : d.name));
	} finally {
		await v.close();
	}
}

/* ---------- one column ---------- */

/**
 * Object-storage credential settings of the readings that need one (the credential's Advanced
 * Protocol Settings; their columns use them): the snake query names a service signs, and upload
 * IDs signed decoded. Without them those services refuse multipart signatures (test/nodes/objectStorage).
 */
const STORAGE_SETTINGS = {
	underscoreSigned: { advanced: true, multipartQueryNames: 'snake', signUnderscoreSubResources: true },
	subresourceDecoded: { advanced: true, subResourceValues: 'decoded' },
};

/** Thrown by ctx.get when an earlier entry did not produce a value (its cell is then "not run"). */
class Blocked extends Error {}

function makeContext(v, dialect) {
	const saved = new Map();
	const users = { demo: { username: 'demo', password: 'demo-password', ref: v.apiRef } };
	const storageRef = STORAGE_SETTINGS[dialect]
		? v.store.add('vendorObjectStorageApi', { ...v.store.data.get(v.storageRef.id).data, ...STORAGE_SETTINGS[dialect] })
		: v.storageRef;
	const tokens = {};
	const post = async (p, body) => {
		const res = await fetch(`${v.url}/API/${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		return await res.json();
	};
	const ctx = {
		v,
		dialect,
		put(name, value) {
			saved.set(name, value);
		},
		get(name) {
			if (!saved.has(name)) throw new Blocked(`not run: needs "${name}", which an earlier entry (and its fallback) did not produce`);
			return saved.get(name);
		},
		/** An account the catalogue made; its credential is created on first use. */
		addUser(username, password) {
			users[username] = { username, password };
		},
		credentialsFor(entry) {
			if (entry.node === 'vendorObjectStorage') return { vendorObjectStorageApi: storageRef };
			const u = users[entry.as || 'demo'];
			if (!u) throw new Error(`no account ${entry.as}: the entry that registers it failed`);
			u.ref ??= v.store.add('vendorApi', { apiUrl: v.url, username: u.username, password: u.password });
			return { vendorApi: u.ref };
		},
		/** A fresh log-in from outside the node (what the loginInvalidates pressure does). */
		async login(username = 'demo') {
			const u = users[username];
			const r = await post('OAuth/authorize', { username: u.username, password: u.password });
			if (Number(r.code) !== 1) throw new Error(`log-in as ${u.username} was refused: ${r.message}`);
			tokens[username] = r.access_token;
			return r;
		},
		/** Forgets this context's own tokens (after the emulator revoked them). */
		forgetTokens() {
			for (const k of Object.keys(tokens)) delete tokens[k];
		},
		async canLogIn(username, password) {
			return Number((await post('OAuth/authorize', { username, password })).code) === 1;
		},
		/** The storage credential settings of this column (STORAGE_SETTINGS). */
		storageSettings: () => STORAGE_SETTINGS[dialect] || {},
		/** The management API called directly (renews its own token once when it is rejected). */
		async api(p, body = {}, username = 'demo') {
			if (!tokens[username]) await ctx.login(username);
			let r = await post(p, { ...body, token: tokens[username] });
			if (Number(r.code) === -1) {
				await ctx.login(username);
				r = await post(p, { ...body, token: tokens[username] });
			}
			if (Number(r.code) !== 1) throw new Error(`${p}: ${r.message}`);
			return r;
		},
		control: (method, p, body) => v.control(method, p, body),
		/** The emulator's management state and core, in process (free of wire dialects). */
		state: (slice) => v.emu.management.state[slice],
		core: () => v.emu.management.core,
		now: () => v.emu.clock.now(),
		objects: async (bucket) => (await v.control('GET', `/storage/objects?bucket=${encodeURIComponent(bucket)}`)).objects,
		buckets: async () => (await v.control('GET', '/storage/buckets')).buckets,
		uploads: async () => (await v.control('GET', '/storage/uploads')).uploads,
		/** A "From list" search as the editor calls it, as the demo account. */
		listSearch: (node, method, parameters, filter) =>
			n8n.listSearch(node, method, { parameters, filter, credentials: { vendorApi: { apiUrl: v.url, username: 'demo', password: 'demo-password' } } }),
	};
	return ctx;
}

/** What a dialect needs done before each operation of a management node (see the header). */
async function pressure(ctx, entry) {
	if (entry.node === 'vendorObjectStorage') return;
	if (ctx.dialect === 'tokenLifetime60') await ctx.control('POST', '/clock/advance', { ms: 61000 });
	if (ctx.dialect === 'loginInvalidates') await ctx.login(entry.as || 'demo');
	if (ctx.dialect === 'tokenRefusedOtherCode' || ctx.dialect === 'tokenRefusedChinese') {
		await ctx.control('POST', '/management/tokens/revoke', {});
		ctx.forgetTokens();
	}
}

const REGEX_TIMEOUT = 'Regular expression execution timed out';
const oneLine = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();

async function runEntry(entry, ctx) {
	const started = Date.now();
	const cell = { ok: false };
	let stage = 'setup';
	try {
		if (entry.setup) await entry.setup(ctx);
		const parameters = { resource: entry.resource, operation: entry.operation, ...(typeof entry.params === 'function' ? entry.params(ctx) : entry.params) };
		const opts = entry.opts ? entry.opts(ctx) : {};
		const credentials = ctx.credentialsFor(entry);
		await pressure(ctx, entry);
		stage = 'run';
		// n8n itself may throw (a parameter it refuses) instead of failing the node
		const attempt = () => ctx.v.run(entry.node, parameters, { ...opts, credentials }).catch((err) => ({ error: err }));
		let { items, error } = await attempt();
		if (error && error.message === REGEX_TIMEOUT) {
			// n8n-workflow's guard stops any regular expression after 250 ms of wall time: on a busy
			// machine that hits a trivial one while parameters are read, before anything is sent
			cell.retried = REGEX_TIMEOUT;
			({ items, error } = await attempt());
		}
		if (error) {
			cell.stage = 'run';
			cell.message = oneLine(error.message);
			if (error.description) cell.description = oneLine(error.description);
		} else {
			stage = 'check';
			await entry.check(
				items.map((i) => i.json),
				ctx,
				items,
			);
			cell.ok = true;
		}
	} catch (err) {
		cell.stage = stage;
		cell.message = oneLine(err && err.message);
		if (err instanceof Blocked) cell.blocked = true;
	}
	if (!cell.ok && entry.fallback) {
		// later entries get what they need from the emulator instead (see catalogue/index.js)
		try {
			await entry.fallback(ctx);
			cell.fallback = 'later entries use what the fallback found or made';
		} catch (err) {
			cell.fallback = `failed: ${oneLine(err && err.message)}`;
		}
	}
	cell.ms = Date.now() - started;
	return cell;
}

/** Runs the whole catalogue against a fresh demo emulator playing `dialect` (null: the default). */
async function runColumn(dialect) {
	const started = Date.now();
	const v = await startVendor({ seed: 'demo', dialects: dialect ? [dialect] : [], management: { timing: { ...TIMING } } });
	const column = { name: dialect || DEFAULT, applied: true, cells: {} };
	try {
		const res = await fetch(`${v.url}/__emulator/dialects`);
		const listed = res.ok ? await res.json() : { enabled: [], available: [] };
		if (dialect) column.applied = (listed.enabled || []).includes(dialect);
		const ctx = makeContext(v, dialect);
		/** The dialects this column's emulator plays in the management interface (area management or both). */
		ctx.managementDialects = () =>
			(listed.available || []).filter((d) => (listed.enabled || []).includes(d.name) && ['management', 'both'].includes(d.area)).map((d) => d.name);
		for (const entry of catalogue) column.cells[keyOf(entry)] = await runEntry(entry, ctx);
		// what the emulator counted: proves the pressure of the token dialects (log-ins per column)
		const stats = await fetch(`${v.url}/__emulator/stats`);
		if (stats.ok) {
			const s = await stats.json();
			column.logins = s.management && s.management.logins;
			column.requests = {
				management: Object.values((s.management && s.management.requests) || {}).reduce((a, b) => a + b, 0),
				storage: Object.values((s.storage && s.storage.requests) || {}).reduce((a, b) => a + b, 0),
			};
		}
	} finally {
		await v.close();
	}
	column.ms = Date.now() - started;
	return column;
}

/* ---------- the whole matrix ---------- */

/**
 * Runs the default column and one column per dialect (`dialects`, or every one the emulator
 * offers). Returns { columns, rows, failures, stale, durationMs, dialectRoute }.
 */
async function runMatrix({ dialects, log = () => {} } = {}) {
	const started = Date.now();
	const offered = await availableDialects();
	const names = dialects || offered || [];
	const columns = [];
	for (const name of [null, ...names]) {
		const col = await runColumn(name);
		const failed = Object.values(col.cells).filter((c) => !c.ok).length;
		const counted = col.logins === undefined ? '' : `, ${col.logins} log-ins, ${col.requests.management} management and ${col.requests.storage} storage requests`;
		log(`${col.name}: ${Object.keys(col.cells).length - failed} ok, ${failed} failed, ${(col.ms / 1000).toFixed(1)} s${counted}${col.applied ? '' : ' (the emulator did not enable this dialect)'}`);
		columns.push(col);
	}
	const keys = catalogue.map(keyOf);
	const failures = [];
	const stale = [];
	for (const col of columns) {
		const known = impossible[col.name] || {};
		for (const key of keys) {
			const cell = col.cells[key];
			if (known[key]) {
				cell.documented = known[key];
				if (cell.ok) stale.push({ column: col.name, operation: key, reason: known[key] });
			}
			if (!cell.ok) {
				const { stage, message, description, documented, blocked, fallback } = cell;
				failures.push({ column: col.name, operation: key, stage, message, description, documented, blocked, fallback });
			}
		}
	}
	// listed impossibilities whose operation or dialect no longer exists are stale too
	for (const [dialect, ops] of Object.entries(impossible)) {
		const ran = columns.some((c) => c.name === dialect);
		for (const [key, reason] of Object.entries(ops)) {
			if (!keys.includes(key)) stale.push({ column: dialect, operation: key, reason, why: 'no such operation in the catalogue' });
			else if (!ran && offered && !offered.includes(dialect)) stale.push({ column: dialect, operation: key, reason, why: 'the emulator offers no such dialect' });
		}
	}
	return {
		generatedAt: new Date().toISOString(),
		durationMs: Date.now() - started,
		dialectRoute: offered !== null,
		columns: columns.map(({ cells, ...meta }) => meta),
		rows: keys.map((key) => {
			const [node, resource, operation] = key.split('/');
			return { key, node, resource, operation, cells: Object.fromEntries(columns.map((c) => [c.name, c.cells[key]])) };
		}),
		failures,
		stale,
	};
}

/* ---------- output ---------- */

/** [column, [operation, ...]] of the cells that did not run. */
function blockedByColumn(m) {
	const by = new Map();
	for (const f of m.failures.filter((x) => x.blocked)) by.set(f.column, [...(by.get(f.column) || []), f.operation]);
	return [...by];
}

const mark = (cell) => (cell.ok ? 'ok' : cell.documented ? 'x' : cell.blocked ? '-' : 'FAIL');

/** The matrix as Markdown: rows node/resource/operation, one column per dialect, then the failures. */
function toMarkdown(m) {
	const cols = m.columns.map((c) => c.name);
	const lines = [
		'# Dialect matrix',
		'',
		`Every dropdown operation of the six action nodes, run once per emulator dialect through n8n-core (\`test/dialects/\`). ${m.generatedAt}, ${(m.durationMs / 1000).toFixed(1)} s.`,
		'Cells: ok; FAIL; x = fails as documented in `test/dialects/impossible.js`; - = not run (an earlier entry it needs failed, and so did its fallback).',
		m.dialectRoute ? '' : '\nThe emulator has no dialect route yet (GET /__emulator/dialects answered 404): only the default column ran.',
		'',
		`| Operation | ${cols.join(' | ')} |`,
		`| --- |${cols.map(() => ' --- |').join('')}`,
		...m.rows.map((r) => `| ${r.key} | ${cols.map((c) => mark(r.cells[c])).join(' | ')} |`),
		`| **passed** | ${m.columns.map((c) => `${m.rows.filter((r) => r.cells[c.name].ok).length}/${m.rows.length}`).join(' | ')} |`,
		'',
	];
	lines.push('## Columns', '', '| Column | Seconds | Log-ins | Management requests | Storage requests |', '| --- | --- | --- | --- | --- |');
	for (const c of m.columns) {
		const n = (x) => (x === undefined ? '?' : x);
		lines.push(`| ${c.name}${c.applied ? '' : ' (not switched on)'} | ${(c.ms / 1000).toFixed(1)} | ${n(c.logins)} | ${n(c.requests && c.requests.management)} | ${n(c.requests && c.requests.storage)} |`);
	}
	lines.push('');
	const unapplied = m.columns.filter((c) => !c.applied).map((c) => c.name);
	if (unapplied.length) lines.push(`Columns the emulator did not switch on (they ran as the default): ${unapplied.join(', ')}.`, '');
	lines.push('## Failures', '');
	if (!m.failures.length) lines.push('None.');
	for (const f of m.failures.filter((x) => !x.blocked)) {
		lines.push(`- **${f.column}** \`${f.operation}\` (${f.stage}): ${f.message}${f.description ? ` — ${f.description}` : ''}${f.documented ? ` *(documented: ${f.documented})*` : ''}`);
	}
	for (const [column, ops] of blockedByColumn(m)) lines.push(`- **${column}** not run (${ops.length}): ${ops.map((o) => `\`${o}\``).join(', ')}`);
	if (m.stale.length) {
		lines.push('', '## Stale entries of impossible.js', '');
		for (const s of m.stale) lines.push(`- **${s.column}** \`${s.operation}\`: ${s.why || 'passes now'} (listed as: ${s.reason})`);
	}
	return lines.join('\n') + '\n';
}

/** A console table: columns numbered, with a legend (the Markdown file has the full names). */
function toText(m) {
	const cols = m.columns.map((c) => c.name);
	const width = Math.max(...m.rows.map((r) => r.key.length), 10);
	const head = cols.map((_, i) => String(i).padStart(5)).join('');
	const out = [
		`dialect matrix: ${m.rows.length} operations x ${cols.length} columns in ${(m.durationMs / 1000).toFixed(1)} s`,
		...cols.map((c, i) => `  ${String(i).padStart(2)} = ${c}${m.columns[i].applied ? '' : ' (not switched on by the emulator)'}`),
		'  cells: ok, FAIL, x (documented in impossible.js), - (not run: an entry it needs failed)',
		`${''.padEnd(width)}${head}`,
		...m.rows.map((r) => `${r.key.padEnd(width)}${cols.map((c) => mark(r.cells[c]).padStart(5)).join('')}`),
		`${'passed'.padEnd(width)}${cols.map((c) => String(m.rows.filter((r) => r.cells[c].ok).length).padStart(5)).join('')}`,
	];
	if (m.failures.length) {
		out.push('', 'failures:');
		for (const f of m.failures.filter((x) => !x.blocked)) {
			out.push(`  [${f.column}] ${f.operation} (${f.stage}): ${f.message}${f.description ? ` — ${f.description}` : ''}${f.documented ? ' (documented)' : ''}`);
		}
		for (const [column, ops] of blockedByColumn(m)) out.push(`  [${column}] not run (${ops.length}): ${ops.join(', ')}`);
	}
	if (m.stale.length) {
		out.push('', 'stale entries of impossible.js:');
		for (const s of m.stale) out.push(`  [${s.column}] ${s.operation}: ${s.why || 'passes now'}`);
	}
	return out.join('\n') + '\n';
}

function writeResults(m) {
	fs.mkdirSync(RESULTS, { recursive: true });
	fs.writeFileSync(path.join(RESULTS, 'dialect-matrix.json'), JSON.stringify(m, null, '\t') + '\n');
	fs.writeFileSync(path.join(RESULTS, 'dialect-matrix.md'), toMarkdown(m));
	return { json: path.join(RESULTS, 'dialect-matrix.json'), md: path.join(RESULTS, 'dialect-matrix.md') };
}

module.exports = { DEFAULT, dropdownOperations, coverage, availableDialects, runColumn, runMatrix, toMarkdown, toText, writeResults };

if (require.main === module) {
	// no arguments: every dialect; `default` alone: only the default column
	const args = process.argv.slice(2);
	const named = args.filter((a) => a !== DEFAULT);
	runMatrix({ dialects: args.length ? named : undefined, log: (s) => process.stderr.write(`${s}\n`) })
		.then((m) => {
			writeResults(m);
			process.stdout.write(toText(m));
			process.exit(m.failures.some((f) => !f.documented) || m.stale.length ? 1 : 0);
		})
		.catch((err) => {
			console.error(err);
			process.exit(2);
		});
}

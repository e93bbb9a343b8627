#!/usr/bin/env node
'use strict';
/**
 * Records the upgrade test's fixtures for the package version in package.json (run by a developer
 * before a release; schema/README.md, "The upgrade test"):
 *
 *   npm run build && node scripts/record-upgrade-fixtures.js
 *
 * 1. Builds the workflows of test/real-n8n/upgrade-plan.js the way n8n's editor stores them: each
 *    node's parameters through n8n-workflow's NodeHelpers.getNodeParameters with returnDefaults
 *    false (what the editor does on save: only what differs from the defaults is kept), and
 *    refuses a planned value the editor would drop (a parameter not shown for the operation, or
 *    equal to its default). The example workflows (examples/*.json) are taken as they are.
 * 2. Imports them into a fresh real n8n (`n8n import:workflow`) and exports them back
 *    (`n8n export:workflow --all`): the fixture is what real n8n saved.
 * 3. Runs the fixtures twice, each time in a fresh n8n against fresh emulators (demo data), as the
 *    test does (test/real-n8n/upgrade-lib.js), and writes the first run's requests only when the
 *    second run sent the same ones (a fixture whose requests change between two runs would make
 *    the test fail for nothing).
 *
 * Writes test/real-n8n/upgrade-fixtures/<version>/<name>.json and <name>.requests.json. A released
 * version (listed as published in schema/pre-release-changes.json, or with a tag v<version>) is
 * refused: its fixtures are what that release saved and stay as they are. --only name,name records some fixtures again; --once
 * skips the second run (for trying out a plan, not for committing).
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { isDeepStrictEqual } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const n8n = require('../test/real-n8n/lib');
const upgrade = require('../test/real-n8n/upgrade-lib');
const plan = require('../test/real-n8n/upgrade-plan');

const args = process.argv.slice(2);
const only = (() => {
	const i = args.indexOf('--only');
	return i >= 0 ? new Set(args[i + 1].split(',')) : null;
})();
const once = args.includes('--once');

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const N8N_VERSION = '2.40.7';
const say = (s) => process.stdout.write(`[record] ${s}\n`);

/** The node type descriptions n8n serves for the built package (pollTimes added to polling nodes, as n8n's loader does). */
function descriptions() {
	const { commonPollingParameters } = require('n8n-core/dist/nodes-loader/constants');
	const out = {};
	for (const file of pkg.n8n.nodes) {
		const abs = path.join(ROOT, file);
		const name = path.basename(file).replace(/\.node\.js$/, '');
		const description = structuredClone(new (require(abs)[name])().description);
		if (description.polling) description.properties.unshift(...structuredClone(commonPollingParameters));
		out[description.name] = description;
	}
	return out;
}

/** What the editor stores for a node: its parameters without defaults; throws when a planned value would be dropped. */
function editorParameters(description, typeVersion, intended, where) {
	const { NodeHelpers } = require('n8n-workflow');
	const node = { typeVersion, parameters: intended };
	const stored = NodeHelpers.getNodeParameters(description.properties, intended, false, false, node, description);
	const full = (p) => NodeHelpers.getNodeParameters(description.properties, p, true, false, { typeVersion, parameters: p }, description);
	if (!isDeepStrictEqual(full(stored), full(intended))) {
		throw new Error(`${where}: a planned parameter is not shown for this operation and version, so the editor would not store it:\n planned ${JSON.stringify(intended)}\n stored  ${JSON.stringify(stored)}`);
	}
	const kept = JSON.stringify(stored);
	for (const [k, v] of Object.entries(intended)) {
		if (['resource', 'operation'].includes(k)) continue;
		if (!(k in stored)) throw new Error(`${where}: "${k}" is planned as ${JSON.stringify(v)}, its default: plan a value that differs from the default`);
	}
	return JSON.parse(kept);
}

const CREDENTIALS = {
	vendorApi: { id: 'vendorApiSandbox', name: 'Vendor account' },
	vendorObjectStorageApi: { id: 'vendorOssSandbox', name: 'Vendor Object Storage account' },
};

/**
 * A date written in a fixture must stay unlike the dates a run makes from the current time
 * (those are compared relative to the run's day): older than NEAR_DAYS days, never in the future.
 */
function checkPlannedDates(value, where) {
	const limit = Date.now() - upgrade.NEAR_DAYS * 86400000;
	const walk = (v, at) => {
		if (typeof v === 'string') {
			for (const m of v.matchAll(/(\d{4})-(\d{2})-(\d{2})/g)) {
				if (Date.UTC(+m[1], +m[2] - 1, +m[3]) >= limit) throw new Error(`${where}: ${at} holds the date ${m[0]}; use a date older than ${upgrade.NEAR_DAYS} days (the test takes nearer dates as made from the current time)`);
			}
		} else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
	};
	walk(value, '');
}

/** The planned workflows as the editor would save them. */
function plannedWorkflows() {
	const types = descriptions();
	return plan.workflows.map((w, i) => {
		const description = types[w.type];
		if (!description) throw new Error(`${w.file}: no node type ${w.type} in the package`);
		const credType = description.credentials[0].name;
		const nodes = [];
		const connections = {};
		const manual = 'When clicking ‘Execute workflow’';
		if (!w.trigger) {
			nodes.push({ parameters: {}, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], id: uuid(`${w.file}/manual`), name: manual });
			connections[manual] = { main: [w.nodes.map((n) => ({ node: n.name, type: 'main', index: 0 }))] };
		}
		w.nodes.forEach((n, k) => {
			checkPlannedDates(n.parameters, `${w.file} / ${n.name}`);
			nodes.push({
				parameters: editorParameters(description, w.typeVersion, n.parameters, `${w.file} / ${n.name}`),
				type: `${upgrade.PKG}.${w.type}`,
				typeVersion: w.typeVersion,
				position: w.trigger ? [0, 0] : [280, k * 160 - ((w.nodes.length - 1) * 160) / 2],
				id: uuid(`${w.file}/${n.name}`),
				name: n.name,
				credentials: { [credType]: CREDENTIALS[credType] },
			});
		});
		return {
			file: w.file,
			run: w.run,
			workflow: { id: `vendorUpgrade${String(i + 1).padStart(3, '0')}`, name: w.name, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {}, meta: {} },
		};
	});
}

/** A stable UUID from a text (node ids stay the same when the plan is recorded again). */
function uuid(text) {
	const h = crypto.createHash('sha256').update(`vendor-upgrade:${text}`).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function exampleWorkflows() {
	return Object.entries(plan.examples).map(([file, run]) => ({
		file: `example-${file}`,
		run,
		workflow: JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${file}.json`), 'utf8')),
	}));
}

/** Imports the workflows into a fresh n8n and exports them back: { id: workflow as n8n saved it }. */
async function saveThroughN8n(entries, tgz) {
	const home = await n8n.createN8nHome({ tgz });
	try {
		const refs = {};
		for (const e of entries) for (const node of e.workflow.nodes) for (const [type, ref] of Object.entries(node.credentials || {})) refs[type] = ref;
		const data = {
			vendorApi: { apiUrl: 'http://127.0.0.1:9', username: 'demo', password: 'demo-password' },
			vendorObjectStorageApi: { endpoint: 'http://127.0.0.1:9', accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' },
			httpBearerAuth: { token: 'not-used' },
			openAiApi: { apiKey: 'sk-not-used' },
		};
		await n8n.importCredentials(home, Object.entries(refs).map(([type, ref]) => ({ ...ref, type, data: data[type] || {} })));
		const input = path.join(home.userFolder, 'planned.json');
		fs.writeFileSync(input, JSON.stringify(entries.map((e) => ({ ...e.workflow, active: false }))));
		const imp = await n8n.runN8n(home, ['import:workflow', `--input=${input}`], { timeoutMs: 300000 });
		if (!new RegExp(`Successfully imported ${entries.length} workflow`).test(imp.stdout + imp.stderr)) throw new Error(`import failed:\n${n8n.tail(imp.stdout)}\n${n8n.tail(imp.stderr)}`);
		const output = path.join(home.userFolder, 'exported.json');
		const exp = await n8n.runN8n(home, ['export:workflow', '--all', '--pretty', `--output=${output}`], { timeoutMs: 300000 });
		if (!fs.existsSync(output)) throw new Error(`export failed:\n${n8n.tail(exp.stdout)}\n${n8n.tail(exp.stderr)}`);
		return Object.fromEntries(JSON.parse(fs.readFileSync(output, 'utf8')).map((wf) => [wf.id, wf]));
	} finally {
		home.cleanup();
	}
}

/** What a run gave for one fixture, as the .requests.json keeps it. */
function record(result) {
	if (result.nodes) return { nodes: result.nodes };
	if (result.polls) return { polls: result.polls, emitted: result.emitted };
	return {};
}

async function main() {
	const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'schema', 'pre-release-changes.json'), 'utf8')).published || [];
	const tagged = (() => {
		try {
			return require('node:child_process').execFileSync('git', ['tag', '--list', `v${pkg.version}`], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
		} catch {
			return false;
		}
	})();
	if ([].concat(published).includes(pkg.version) || tagged) {
		throw new Error(`version ${pkg.version} is released (${tagged ? `tag v${pkg.version}` : 'schema/pre-release-changes.json'}): its fixtures are what that release saved and stay as they are. Raise the version in package.json first.`);
	}
	if (!fs.existsSync(path.join(ROOT, pkg.n8n.nodes[0]))) throw new Error('dist/ is missing: run "npm run build" first');
	const dir = path.join(upgrade.FIXTURES, pkg.version);
	fs.mkdirSync(dir, { recursive: true });
	await n8n.ensureRuntime({ quiet: false });

	let entries = [...plannedWorkflows(), ...exampleWorkflows()];
	if (only) entries = entries.filter((e) => only.has(e.file));
	say(`${entries.length} workflows: ${entries.map((e) => e.file).join(', ')}`);

	const tgz = n8n.packPackage(ROOT);
	try {
		let t0 = Date.now();
		const saved = await saveThroughN8n(entries, tgz);
		say(`saved through n8n ${N8N_VERSION} (import and export) in ${Math.round((Date.now() - t0) / 1000)} s`);
		const fixtures = entries.map((e) => {
			const workflow = saved[e.workflow.id];
			if (!workflow) throw new Error(`n8n did not export ${e.workflow.id} (${e.file})`);
			const meta = { workflow: workflow.name, savedBy: { package: pkg.version, n8n: N8N_VERSION }, run: e.run };
			return { version: pkg.version, name: e.file, key: `${pkg.version}/${e.file}`, workflow, meta };
		});

		t0 = Date.now();
		const first = await upgrade.runFixtures(fixtures, { tgz, quietPoll: true, log: (s) => say(`run 1: ${s}`) });
		say(`run 1 in ${Math.round((Date.now() - t0) / 1000)} s: ${JSON.stringify(first.timings)}`);
		const failed = Object.entries(first.results).filter(([, r]) => r.status !== 'success');
		if (failed.length) {
			const file = path.join(require('node:os').tmpdir(), `upgrade-record-failed-${Date.now()}.json`);
			fs.writeFileSync(file, JSON.stringify(Object.fromEntries(failed), null, 2));
			throw new Error(`these fixtures did not run successfully (their requests: ${file}):\n${failed.map(([k, r]) => `  ${k}: ${r.error || r.status}`).join('\n')}`);
		}
		if (!once) {
			t0 = Date.now();
			const second = await upgrade.runFixtures(fixtures, { tgz, log: (s) => say(`run 2: ${s}`) });
			say(`run 2 in ${Math.round((Date.now() - t0) / 1000)} s`);
			const problems = fixtures.flatMap((f) => upgrade.compareFixture({ ...f, meta: { ...f.meta, ...record(first.results[f.key]) } }, second.results[f.key]));
			if (problems.length) throw new Error(`two runs sent different requests; nothing written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
		}
		for (const f of fixtures) {
			fs.writeFileSync(path.join(dir, `${f.name}.json`), `${JSON.stringify(f.workflow, null, 2)}\n`);
			const meta = { ...f.meta, ...record(first.results[f.key]) };
			if (f.meta.run.kind === 'load') meta.served = first.results[f.key].served;
			fs.writeFileSync(path.join(dir, `${f.name}.requests.json`), `${JSON.stringify(meta, null, 2)}\n`);
		}
		const count = fixtures.reduce((n, f) => n + upgrade.requestCount(record(first.results[f.key])), 0);
		say(`wrote ${fixtures.length} fixtures with ${count} requests to ${path.relative(ROOT, dir)}`);
	} finally {
		fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
	}
}

main().catch((err) => {
	process.stderr.write(`[record] ${err.stack || err.message}\n`);
	process.exit(1);
});

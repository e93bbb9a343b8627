/**
 * Most node properties are generated from declarations at run time, so `npm run lint` cannot
 * see them in the source. This writes each built node's description out as a literal
 * `*.node.ts` file and runs n8n's own node lint rules on it (eslint-plugin-n8n-nodes-base, as
 * `n8n-node lint` applies them to nodes/, plus the community rules that read descriptions).
 * Prints a JSON object { "<node type>": ["problem", ...] }; exit code 1 when any problem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { sentenceCase } from 'sentence-case';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

// the node rules n8n's node-cli config turns off for community packages
const OFF = ['node-class-description-inputs-wrong-regular-node', 'node-class-description-outputs-wrong', 'node-param-type-options-max-value-present'];

function literal(value, indent = '\t') {
	if (Array.isArray(value)) return `[\n${value.map((v) => `${indent}\t${literal(v, indent + '\t')}`).join(',\n')}\n${indent}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value).filter(([, v]) => typeof v !== 'function' && v !== undefined);
		return `{\n${entries.map(([k, v]) => `${indent}\t${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, indent + '\t')}`).join(',\n')}\n${indent}}`;
	}
	return JSON.stringify(value);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-lint-'));
const report = {};
try {
	for (const file of pkg.n8n.nodes) {
		const base = path.basename(file).split('.')[0];
		const node = new (require(path.join(root, file))[base])();
		const folder = path.join(dir, 'nodes', base);
		fs.mkdirSync(folder, { recursive: true });
		const target = path.join(folder, `${base}.node.ts`);
		const trigger = node.description.group.includes('trigger');
		const method = node.poll
			? ['\tasync poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {', '\t\treturn null;', '\t}']
			: [
					'\tasync execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {',
					'\t\tconst items = this.getInputData();',
					'\t\tconst out: INodeExecutionData[] = [];',
					'\t\tfor (let i = 0; i < items.length; i++) {',
					'\t\t\ttry {',
					'\t\t\t\tout.push({ json: {}, pairedItem: { item: i } });',
					'\t\t\t} catch (error) {',
					'\t\t\t\tif (this.continueOnFail()) {',
					'\t\t\t\t\tout.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });',
					'\t\t\t\t\tcontinue;',
					'\t\t\t\t}',
					'\t\t\t\tthrow new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });',
					'\t\t\t}',
					'\t\t}',
					'\t\treturn [out];',
					'\t}',
				];
		const source = [
			"import type { IExecuteFunctions, IPollFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';",
			"import { NodeOperationError } from 'n8n-workflow';",
			'',
			`export class ${base} implements INodeType {`,
			`\tdescription: INodeTypeDescription = ${literal(node.description)};`,
			'',
			...method,
			'}',
			'',
		].join('\n');
		void trigger;
		fs.writeFileSync(target, source);
		const rules = { ...n8nNodesBase.configs.nodes.rules };
		for (const r of OFF) rules[`n8n-nodes-base/${r}`] = 'off';
		// the icon file is not copied next to the scratch file
		rules['n8n-nodes-base/node-class-description-icon-not-svg'] = 'off';
		const eslint = new ESLint({
			cwd: dir,
			overrideConfigFile: true,
			overrideConfig: [
				{
					files: ['**/*.ts'],
					languageOptions: { parser: tseslint.parser },
					plugins: { 'n8n-nodes-base': n8nNodesBase, '@n8n/community-nodes': n8nCommunityNodesPlugin },
					rules: {
						...rules,
						'@n8n/community-nodes/node-usable-as-tool': 'error',
						'@n8n/community-nodes/require-node-description-fields': 'error',
						'@n8n/community-nodes/resource-operation-pattern': 'error',
						'@n8n/community-nodes/no-emoji-in-options': 'error',
						'@n8n/community-nodes/trigger-node-conventions': 'error',
					},
				},
			],
		});
		const [result] = await eslint.lintFiles([target]);
		const lines = source.split('\n');
		// The action rule checks sentence case with the sentence-case package, which also turns
		// hyphens into spaces ("sub-account" -> "sub account"). The words keep their one spelling
		// (issue 11: "Sub-Account" / "sub-account", "e-mail"): an action that is sentence case once
		// its hyphens are read as spaces passes.
		const hyphensOnly = (m) => {
			if (m.ruleId !== 'n8n-nodes-base/node-param-operation-option-action-miscased') return false;
			const action = /action: "(.*)"/.exec(lines[m.line - 1] || '');
			if (!action || !action[1].includes('-')) return false;
			const spaced = action[1].replace(/-/g, ' ');
			return sentenceCase(spaced) === spaced;
		};
		report[`${pkg.name}.${node.description.name}`] = result.messages.filter((m) => !hyphensOnly(m)).map(
			(m) => `${m.ruleId}: ${m.message} | ${(lines[m.line - 1] || '').trim().slice(0, 140)}`,
		);
	}
} finally {
	fs.rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(report, null, 1) + '\n');
process.exit(Object.values(report).some((p) => p.length) ? 1 : 0);

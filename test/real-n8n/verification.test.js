'use strict';
/**
 * Ready for n8n 3.0's defaults (only verified community packages installable unless an instance
 * allows others): scripts/check-verification.js holds the packed package to each written rule of
 * n8n's community node verification guidelines. Here on the repository (every rule met) and on
 * copies broken one rule at a time, each refused under that rule's name. n8n's scanner itself runs
 * in test/scripts/scan.test.js; the provenance path in test/scripts/release-check.test.js.
 */
const { checkVerification } = require('../../scripts/check-verification');
const { copyPackage } = require('../support/package-copy');

jest.setTimeout(300000);

const RULES = [
	'Use the n8n-node tool',
	'Node types: no existing, logic or flow-control node',
	'Exactly one third-party service',
	'Package source and documentation',
	'MIT licence',
	'Published from a GitHub Action with provenance',
	'No external dependencies',
	'No access to environment variables or the file system',
	'n8n best practices: TypeScript, the linter and the scanner',
	'English only',
];

test('the packed package meets every written rule of the verification guidelines', async () => {
	const { rules, problems } = await checkVerification();
	for (const r of rules) process.stderr.write(`[verification] ${r.ok ? 'ok  ' : 'FAIL'} ${r.rule}: ${r.found}\n`);
	expect(rules.map((r) => r.rule)).toEqual(RULES);
	expect(problems).toEqual([]);
});

/** Runs the check on a copy changed by `edit`; returns the rules that failed with their problems. */
async function broken(edit) {
	const copy = copyPackage({ linkNodeModules: true });
	try {
		edit(copy);
		const { rules } = await checkVerification(copy.dir);
		return Object.fromEntries(rules.filter((r) => !r.ok).map((r) => [r.rule, r.problems]));
	} finally {
		copy.cleanup();
	}
}

test('each rule refuses a copy that breaks it', async () => {
	// a runtime dependency, and a require of it in the build
	expect(
		await broken((c) => {
			c.editJson('package.json', (p) => ({ ...p, dependencies: { 'left-pad': '1.3.0' } }));
			c.edit("dist/nodes/shared/run.js", (t) => `${t}\nfunction padded() { return require("left-pad"); }\n`);
		}),
	).toEqual({ 'No external dependencies': ['package.json dependencies: {"left-pad":"1.3.0"}', 'dist/nodes/shared/run.js requires "left-pad", which is not in the package'] });

	// an environment variable and a file read
	const env = await broken((c) => c.edit('dist/nodes/shared/run.js', (t) => `${t}\nfunction readHome() { return require("node:fs").readFileSync(process.env.HOME); }\n`));
	expect(Object.keys(env)).toEqual(['No access to environment variables or the file system']);
	expect(env['No access to environment variables or the file system']).toEqual(['dist/nodes/shared/run.js requires "node:fs"', 'dist/nodes/shared/run.js: process.env']);

	// another licence, another service's credential, a non-English option, a README without usage
	const rest = await broken((c) => {
		c.editJson('package.json', (p) => ({ ...p, license: 'Apache-2.0' }));
		c.edit('dist/nodes/VendorDns/VendorDns.node.js', (t) => t.replace("displayName: 'Vendor DNS'", "displayName: 'Acme DNS'"));
		c.edit('dist/nodes/VendorDns/area.js', (t) => t.replace(/name: '([^']+)'/, "name: 'Domäne 域名'"));
		c.edit('README.md', (t) => t.replace(/^## Example workflows$/m, '## Samples'));
	});
	expect(Object.keys(rest).sort()).toEqual(['English only', 'Exactly one third-party service', 'MIT licence', 'Package source and documentation']);
	expect(rest['MIT licence']).toEqual(['package.json license is "Apache-2.0"']);
	expect(rest['Exactly one third-party service']).toEqual(['dist/nodes/VendorDns/VendorDns.node.js: "Acme DNS" is not a Vendor node']);
	// found where the editor shows it (the option, the canvas subtitle) and in the JavaScript itself
	expect(rest['English only']).toEqual([
		expect.stringMatching(/^dist\/nodes\/VendorDns\/VendorDns\.node\.js\.subtitle: .*Get Many: Domäne 域名/),
		expect.stringMatching(/^dist\/nodes\/VendorDns\/VendorDns\.node\.js\.properties\[\d+\]\.options\[\d+\]\.name: "Domäne 域名"$/),
		expect.stringMatching(/^dist\/nodes\/VendorDns\/area\.js: non-Latin text in 1 line/),
	]);
	expect(rest['Package source and documentation']).toEqual(['README.md has no "## Example workflows" section']);
});

'use strict';
/**
 * n8n's verification scanner (@n8n/scan-community-package, pinned, installed into .cache/ with
 * --ignore-scripts) over the packed package, through analyzePackageByName as `npx
 * @n8n/scan-community-package <name>` runs it (scripts/scan-package.js serves the registry and
 * GitHub from 127.0.0.1):
 *  - as packed here it refuses exactly the missing provenance (only publish.yml can add it);
 *  - with a provenance attestation it passes every other check: source and tarball lint;
 *  - a copy with a runtime dependency, or a source file the rules forbid, is refused by name.
 */
const path = require('node:path');
const { scanPackage, NO_PROVENANCE, SCANNER_VERSION } = require('../../scripts/scan-package');
const { ROOT, copyPackage } = require('../support/package-copy');

jest.setTimeout(600000);

const quiet = { print: () => {} };

test(`n8n's scanner ${SCANNER_VERSION}: refuses only the missing provenance, and passes every other check with it`, async () => {
	const lines = [];
	const { ok, problems, legs, served } = await scanPackage(ROOT, { print: (l) => lines.push(l) });
	expect(problems).toEqual([]);
	expect(ok).toHaveLength(2);

	// A. as packed here: the provenance check runs first and refuses, and only for that
	const a = legs.unattested.result;
	expect(a.passed).toBe(false);
	expect(a.message).toBe(`${NO_PROVENANCE}. Learn how to publish community nodes with provenance: https://docs.n8n.io/integrations/creating-nodes/deploy/submit-community-nodes/`);
	expect(a.details).toBeUndefined();
	expect(legs.unattested.output).toMatch(/❌ Provenance check failed for n8n-nodes-vendor-cloud@\d+\.\d+\.\d+/);
	expect(served.unattested).toEqual(['registry/n8n-nodes-vendor-cloud']);

	// B. with provenance: source fetched from the attested repository, tarball downloaded, both linted
	const b = legs.attested.result;
	expect(b).toMatchObject({ packageName: 'n8n-nodes-vendor-cloud', passed: true });
	expect(legs.attested.output).toMatch(/✅ Provenance check passed/);
	expect(legs.attested.output).toMatch(/✅ Fetched source from github\.com\/vendor-cloud\/n8n-nodes-vendor-cloud@[0-9a-f]{7}/);
	expect(legs.attested.output).toMatch(/✅ Downloaded n8n-nodes-vendor-cloud@/);
	expect(legs.attested.output).toMatch(/✅ Analyzed n8n-nodes-vendor-cloud@/);
	expect(served.attested).toEqual(
		expect.arrayContaining([
			'registry/n8n-nodes-vendor-cloud',
			expect.stringMatching(/^registry\/-\/npm\/v1\/attestations\/n8n-nodes-vendor-cloud@/),
			expect.stringMatching(/^codeload\/vendor-cloud\/n8n-nodes-vendor-cloud\/tar\.gz\/[0-9a-f]{40}$/),
			expect.stringMatching(/^registry\/n8n-nodes-vendor-cloud\/-\/n8n-nodes-vendor-cloud-.*\.tgz$/),
		]),
	);
	// every request the scanner made went to the local server, none elsewhere
	expect(b.requests.every((u) => /^https:\/\/(registry\.npmjs\.org|codeload\.github\.com)\//.test(u))).toBe(true);
	expect(lines.join('\n')).toMatch(/scan: passed/);
});

test('a copy with a runtime dependency is refused, naming the dependencies rule', async () => {
	const copy = copyPackage();
	try {
		copy.editJson('package.json', (pkg) => ({ ...pkg, dependencies: { 'left-pad': '1.3.0' } }));
		const { problems, legs } = await scanPackage(copy.dir, quiet);
		expect(problems).toEqual([expect.stringMatching(/^n8n's scanner refused the package: ESLint violations found\n/)]);
		expect(problems[0]).toMatch(/package\.json\n\s+\d+:\d+\s+error\s+The "dependencies" field must be empty or absent in community node packages\..*@n8n\/community-nodes\/no-runtime-dependencies/);
		// the provenance leg still reports only the provenance: the scanner stops there
		expect(legs.unattested.result.message).toMatch(new RegExp(`^${NO_PROVENANCE}`));
	} finally {
		copy.cleanup();
	}
});

test('a copy whose source breaks a rule (console.log in a credential) is refused: the source leg lints the .ts files', async () => {
	const copy = copyPackage();
	try {
		copy.edit('credentials/VendorApi.credentials.ts', (t) => `${t}\nconsole.log('debug');\n`);
		const { problems } = await scanPackage(copy.dir, quiet);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(path.join('credentials', 'VendorApi.credentials.ts'));
		expect(problems[0]).toMatch(/error\s+Unexpected console statement\s+no-console/);
		// dist/ was not rebuilt, so only the source leg can have found it
		expect(problems[0]).not.toMatch(/dist\//);
	} finally {
		copy.cleanup();
	}
});

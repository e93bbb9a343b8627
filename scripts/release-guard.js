#!/usr/bin/env node
'use strict';
/**
 * The package is published only by `.github/workflows/publish.yml`, from a version tag, with npm
 * provenance (n8n's scanner refuses a community package without it, and n8n never lists it as
 * verified).
 *
 *   node scripts/release-guard.js              `prepublishOnly`: refuses unless run by the
 *                                              publish workflow for the tag v<version>
 *   node scripts/release-guard.js --tag v0.1.0 the workflow's first step: the tag must be
 *                                              v<package.json version> and CHANGELOG.md must
 *                                              have a section for that version
 *
 * Exit 0 when allowed; exit 1 with a message saying what to do otherwise.
 *
 * Note: the project's .npmrc sets ignore-scripts=true (dependency install scripts must not run),
 * and npm then skips prepublishOnly too. So package.json also sets publishConfig.provenance: npm
 * itself refuses a publish outside GitHub Actions ("Automatic provenance generation not
 * supported"), and the workflow publishes with --ignore-scripts=false so this guard runs there.
 */
const fs = require('node:fs');
const path = require('node:path');

const WORKFLOW = '.github/workflows/publish.yml';

function readPackage(dir) {
	return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

function escapeRegExp(s) {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Problems with releasing `tag` from `dir`; [] when the tag may be published. */
function checkTag(dir, tag) {
	const { version } = readPackage(dir);
	const problems = [];
	if (tag !== `v${version}`) {
		problems.push(
			`the tag "${tag}" does not match package.json's version ${version} (expected the tag v${version}). ` +
				`Bump "version" in package.json (and package-lock.json: npm version ${String(tag).replace(/^v/, '')} --no-git-tag-version), ` +
				'commit, and tag that commit, or delete the tag.',
		);
	}
	const changelog = path.join(dir, 'CHANGELOG.md');
	const text = fs.existsSync(changelog) ? fs.readFileSync(changelog, 'utf8') : '';
	if (!new RegExp(`^## \\[?${escapeRegExp(version)}\\]?(\\s|$)`, 'm').test(text)) {
		problems.push(`CHANGELOG.md has no section "## [${version}]": say what this release holds before tagging it.`);
	}
	// the parameter schema (schema/README.md): a release ends the pre-release changes
	const schema = path.join(dir, 'schema', 'pre-release-changes.json');
	if (fs.existsSync(schema)) {
		const pre = JSON.parse(fs.readFileSync(schema, 'utf8'));
		if (!(pre.published ?? []).length) {
			problems.push(`schema/pre-release-changes.json lists no published version: add "${version}" to "published" (saved workflows freeze the schema from this release on; see schema/README.md).`);
		}
		if ((pre.changes ?? []).length) {
			problems.push(`schema/pre-release-changes.json still lists ${pre.changes.length} pre-release change(s): empty "changes" before publishing; after a release a breaking change needs a new node version.`);
		}
	}
	// the upgrade test (schema/README.md): what a release saves and sends is recorded with it
	const fixtures = path.join(dir, 'test', 'real-n8n', 'upgrade-fixtures');
	if (fs.existsSync(fixtures) && !fs.existsSync(path.join(fixtures, version))) {
		problems.push(
			`test/real-n8n/upgrade-fixtures/${version} is missing: record what this release saves and sends (npm run build && node scripts/record-upgrade-fixtures.js) and commit it; see schema/README.md, "The upgrade test".`,
		);
	}
	return problems;
}

/** Why `npm publish` may not run here (env of the publishing process); [] when it may. */
function checkPublish(dir, env) {
	const { name, version } = readPackage(dir);
	const how =
		`${name} is published only by the GitHub Actions workflow ${WORKFLOW}, with npm provenance ` +
		'(n8n refuses community packages published without it). ' +
		`To release ${version}: add its section to CHANGELOG.md, commit, then ` +
		`git tag v${version} && git push origin v${version}. See docs/developers/releasing.md.`;
	if (env.GITHUB_ACTIONS !== 'true') return [`npm publish is refused outside GitHub Actions. ${how}`];
	const workflowRef = env.GITHUB_WORKFLOW_REF || '';
	if (!workflowRef.includes(`/${WORKFLOW}@`)) {
		return [`npm publish is refused in the workflow "${workflowRef || env.GITHUB_WORKFLOW || '?'}". ${how}`];
	}
	if (env.GITHUB_REF_TYPE !== 'tag') return [`npm publish runs only for a tag push, not for ${env.GITHUB_REF || 'this ref'}. ${how}`];
	return checkTag(dir, env.GITHUB_REF_NAME);
}

module.exports = { checkTag, checkPublish, WORKFLOW };

if (require.main === module) {
	const dir = path.resolve(__dirname, '..');
	const i = process.argv.indexOf('--tag');
	const problems = i >= 0 ? checkTag(dir, process.argv[i + 1] ?? '') : checkPublish(dir, process.env);
	if (problems.length) {
		for (const p of problems) process.stderr.write(`release-guard: ${p}\n`);
		process.exit(1);
	}
	const { version } = readPackage(dir);
	process.stdout.write(`release-guard: v${version} may be published\n`);
}

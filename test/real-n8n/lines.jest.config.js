'use strict';
/**
 * The real-n8n suite on every line in one jest run (`npm test` step 5, scripts/test.js): one jest
 * project per n8n line (lines.js: the whole folder on 2.40.7, the user-facing files on 1.123.81),
 * the files of both lines sharing two workers, so a 1.x file runs while a 2.x file waits for its
 * n8n. Each project sets VENDOR_N8N_VERSION for its files (line-env.js); lib.js reads it.
 *
 *   npx jest --config test/real-n8n/lines.jest.config.js            both lines
 *   npx jest --config test/real-n8n/lines.jest.config.js --selectProjects 'n8n 1.123.81'
 *   npx jest --config test/real-n8n/lines.jest.config.js --selectProjects 'n8n 2.40.7' --testPathPatterns installer
 *     (--selectProjects takes every word after it as a project name: a file pattern after it
 *     is read as one and the whole line runs; give the pattern with --testPathPatterns)
 */
const path = require('node:path');
const { LINES } = require('./lines');

const ROOT = path.resolve(__dirname, '..', '..');
const base = require(path.join(ROOT, 'jest.config.js'));

module.exports = {
	rootDir: ROOT,
	maxWorkers: 2,
	// Jest reads testTimeout from the top of the configuration only (jest-circus takes
	// globalConfig.testTimeout; a project's own is ignored): without it every hook and test with no
	// timeout of its own had 5 s, and an afterAll stopping n8n (up to 15 s of grace) failed a run.
	testTimeout: base.testTimeout,
	verbose: false,
	reporters: ['default', '<rootDir>/test/real-n8n/lines-reporter.js'],
	projects: LINES.map(({ version, files }) => ({
		displayName: `n8n ${version}`,
		rootDir: ROOT,
		testEnvironment: base.testEnvironment,
		testMatch: files ? files.map((f) => `<rootDir>/test/real-n8n/${f}`) : ['<rootDir>/test/real-n8n/**/*.test.js'],
		globals: { VENDOR_N8N_VERSION: version },
		setupFiles: ['<rootDir>/test/real-n8n/line-env.js'],
	})),
};

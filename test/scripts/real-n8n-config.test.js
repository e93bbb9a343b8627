'use strict';
/**
 * The real-n8n suite's jest configuration as jest reads it. Jest takes testTimeout from the top of
 * a configuration only (a project's own is dropped), so when it sat in the projects alone every
 * hook of the real-n8n suite had jest's 5 s: an afterAll stopping n8n (15 s of grace) failed a CI
 * run after all its tests had passed.
 */
const path = require('node:path');
const { readConfigs } = require('jest-config');

const ROOT = path.resolve(__dirname, '..', '..');

test('every hook and test of the real-n8n suite has the main timeout, longer than stopping n8n takes', async () => {
	const { globalConfig, configs } = await readConfigs(
		{ $0: 'jest', _: [], config: path.join(ROOT, 'test/real-n8n/lines.jest.config.js') },
		[ROOT],
	);
	const main = require(path.join(ROOT, 'jest.config.js'));
	expect(configs.map((c) => c.displayName.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^n8n 2\./), expect.stringMatching(/^n8n 1\./)]));
	expect(globalConfig.testTimeout).toBe(main.testTimeout);
	// n8n's stop: SIGTERM, up to 15 s of grace, then SIGKILL (test/real-n8n/lib.js)
	expect(globalConfig.testTimeout).toBeGreaterThan(15000 * 2);
});

/** Tests are plain JavaScript: they run the built package (dist/) the way n8n loads it. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.js'],
	testTimeout: 120000,
	maxWorkers: 2,
	verbose: false,
};

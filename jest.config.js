/**
 * Tests are plain JavaScript: they run the built package (dist/) the way n8n loads it.
 * test/ holds the package's tests, emulator/test/ the emulator's own.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/emulator'],
	testMatch: ['**/*.test.js'],
	testTimeout: 120000,
	maxWorkers: 2,
	verbose: false,
};

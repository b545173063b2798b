/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
	},
	// One copy of n8n-workflow, or its instanceof checks fail across packages.
	moduleNameMapper: {
		'^n8n-workflow$': '<rootDir>/node_modules/n8n-workflow',
	},
	cacheDirectory: '<rootDir>/.jest-cache',
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 60000,
	// Every core: most suites wait on the sandbox over HTTP, and jest's default leaves one idle.
	maxWorkers: '100%',
};

/**
 * `npm test`: the product's tests. The sandbox's own tests, the bench's and the tooling's
 * run under `npm run test:tools` (jest.tools.config.js), in CI too.
 * @type {import('jest').Config}
 */
const TOOLS = [
	'<rootDir>/test/sandbox-tests/',
	'<rootDir>/test/bench/',
	'<rootDir>/test/tooling/',
	'<rootDir>/test/harness-tests/',
];

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', ...TOOLS],
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

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
	// One and a half workers per core: the longest suites wait on real-time pacing and HTTP
	// (a rate limit of 20 per second, a client timeout), leaving their core idle. On 2 cores,
	// quiet: 108 s (116 s with a cold cache), against 113-121 s with 2 workers before the
	// rate matrix; 127 s beside a busy loop on one core.
	maxWorkers: Math.ceil(require('os').availableParallelism() * 1.5),
};

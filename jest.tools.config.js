/**
 * `npm run test:tools`: the tests of what the product is tested with: the sandbox (a second
 * reading of the API specification), the bench, the harness and the tooling.
 * @type {import('jest').Config}
 */
const product = require('./jest.config');

module.exports = {
	...product,
	testPathIgnorePatterns: ['/node_modules/'],
	roots: [
		'<rootDir>/test/sandbox-tests',
		'<rootDir>/test/bench',
		'<rootDir>/test/tooling',
		'<rootDir>/test/harness-tests',
	],
};

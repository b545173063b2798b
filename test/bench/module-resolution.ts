/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Module resolution as the test runner (jest.config.js) has it, for ts-node runs.
 * Import this before anything else.
 *
 * 1. Under ts-node, Node resolves `./DocumentSigning.node` to `DocumentSigning.node.json`
 *    (the codex file) before `DocumentSigning.node.ts`, because `.ts` is registered after
 *    `.json` and `.node`. Moving those two behind `.ts` finds the TypeScript source first.
 * 2. One copy of n8n-workflow for every package, or its instanceof checks fail across
 *    packages (jest's moduleNameMapper does the same).
 */
import Module from 'module';
import * as path from 'path';

const extensions = require.extensions as Record<string, unknown>;
for (const ext of ['.json', '.node']) {
	const loader = extensions[ext];
	if (loader) {
		delete extensions[ext];
		extensions[ext] = loader;
	}
}

const workflowEntry = require.resolve('n8n-workflow', {
	paths: [path.resolve(__dirname, '..', '..')],
});
const resolver = Module as unknown as {
	_resolveFilename: (request: string, ...rest: unknown[]) => string;
};
const resolve = resolver._resolveFilename;
resolver._resolveFilename = function (request: string, ...rest: unknown[]) {
	if (request === 'n8n-workflow') return workflowEntry;
	return resolve.call(this, request, ...rest);
};

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Test-only nodes the e2e n8n loads as custom nodes: the parameter probe of
 * test/parameter-probe.ts (suite 80) and its input node, and the sensitive-output probe of
 * ./sensitive-probe.ts (suite 17). n8n 1.x and 2.x both load every
 * `*.node.js` of each folder in N8N_CUSTOM_EXTENSIONS at start (load-nodes-and-credentials.js,
 * getCustomDirectories), as node types `CUSTOM.<name>`. The probe reads through the
 * runParameters.js of the installed package, the code users run; it is written here as plain
 * JS, never into the package.
 */
import { promises as fs, readFileSync } from 'fs';
import os from 'os';
import path from 'path';
import ts from 'typescript';

import type { Stack } from '../../scripts/lib/stack';
import { PACKAGE } from './lib';

export const CUSTOM = 'CUSTOM';

/** A new folder for the nodes (outside the stack folder, which a fresh start empties). */
export async function customNodesFolder(): Promise<string> {
	return await fs.mkdtemp(path.join(os.tmpdir(), 'n8n-custom-nodes-'));
}

/** Writes the nodes into `folder` for `stack`'s n8n; the folder goes when the stack stops. */
export async function writeCustomNodes(folder: string, stack: Stack): Promise<void> {
	stack.cleanups.push(async () => await fs.rm(folder, { recursive: true, force: true }));
	await fs.writeFile(
		path.join(folder, 'parameter-probe.js'),
		transpiled(path.join(__dirname, '..', 'parameter-probe.ts')),
	);
	await fs.writeFile(
		path.join(folder, 'SensitiveProbe.node.js'),
		transpiled(path.join(__dirname, 'sensitive-probe.ts')),
	);
	const runParameters = path.join(
		stack.userFolder,
		'.n8n',
		'nodes',
		'node_modules',
		PACKAGE,
		'dist',
		'nodes',
		'shared',
		'api',
		'runParameters.js',
	);
	await fs.writeFile(
		path.join(folder, 'ParameterProbe.node.js'),
		[
			`const probe = require('./parameter-probe.js');`,
			`const { readingOncePerRun } = require(${JSON.stringify(runParameters)});`,
			`class ParameterProbe extends probe.ParameterProbe {`,
			`\tconstructor() {`,
			`\t\tsuper(readingOncePerRun);`,
			`\t}`,
			`}`,
			`module.exports = { ParameterProbe };`,
			``,
		].join('\n'),
	);
	await fs.writeFile(
		path.join(folder, 'ParameterValues.node.js'),
		`module.exports = { ParameterValues: require('./parameter-probe.js').ParameterValues };\n`,
	);
}

/** A TypeScript file with only type imports, as plain CommonJS for n8n to load. */
function transpiled(file: string): string {
	return ts.transpileModule(readFileSync(file, 'utf8'), {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
	}).outputText;
}

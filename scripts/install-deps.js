#!/usr/bin/env node
/**
 * Runs before `npm start`: on a fresh clone the project's own tools (TypeScript, ts-node,
 * the build) are not installed yet, so this installs them with `npm install` once. Later
 * runs find them and return at once.
 *
 * One warning of that install is left out: isolated-vm (n8n's expression engine, pulled in
 * by the n8n-workflow dev dependency) declares Node >= 24, so npm prints an EBADENGINE
 * block on Node 20 and 22. The project never builds or loads it (its .npmrc skips install
 * scripts); n8n itself runs on its own Node 24. Every other warning is shown as npm prints it.
 */
const { existsSync } = require('fs');
const { spawn } = require('child_process');
const path = require('path');
const readline = require('readline');

const root = path.resolve(__dirname, '..');
const marker = path.join(root, 'node_modules', '.bin', 'ts-node');
/** Packages whose engine warning is explained above. */
const EXPECTED_ENGINE_WARNINGS = ['isolated-vm@'];

if (!existsSync(marker)) {
	console.log("[start] first run: installing the project's tools (npm install, about a minute)");
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const child = spawn(npm, ['install', '--no-audit', '--no-fund'], {
		cwd: root,
		stdio: ['inherit', 'inherit', 'pipe'],
	});
	// npm prints an engine warning as a block of `npm warn EBADENGINE` lines: hold a block
	// until it ends, then drop it only if it names an expected package.
	let block = [];
	const flush = () => {
		const text = block.join('\n');
		if (
			block.length &&
			!EXPECTED_ENGINE_WARNINGS.some((name) => text.includes(`package: '${name}`))
		) {
			process.stderr.write(`${text}\n`);
		}
		block = [];
	};
	readline.createInterface({ input: child.stderr }).on('line', (line) => {
		if (/^npm warn EBADENGINE/.test(line)) {
			block.push(line);
			if (/^npm warn EBADENGINE }$/.test(line)) flush();
			return;
		}
		flush();
		process.stderr.write(`${line}\n`);
	});
	child.on('close', (status) => {
		flush();
		if (status !== 0) {
			console.error('[start] npm install failed; see the messages above');
			process.exit(status ?? 1);
		}
	});
}

#!/usr/bin/env node
/**
 * Runs before `npm start`: on a fresh clone the project's own tools (TypeScript, ts-node,
 * the build) are not installed yet, so this installs them with `npm install` once. Later
 * runs find them and return at once.
 */
const { existsSync } = require('fs');
const { spawnSync } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..');
const marker = path.join(root, 'node_modules', '.bin', 'ts-node');

if (!existsSync(marker)) {
	console.log('[start] first run: installing the project\'s tools (npm install, about a minute)');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) {
		console.error('[start] npm install failed; see the messages above');
		process.exit(result.status ?? 1);
	}
}

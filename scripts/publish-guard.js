#!/usr/bin/env node
/**
 * The publish guard, run as `prepack`. n8n's guard is `prepublishOnly: n8n-node prerelease`
 * (refuses unless RELEASE_MODE is set, which only `npm run release` sets), but this
 * project's .npmrc sets ignore-scripts=true for installs, and npm then skips prepublishOnly.
 * package.json's publishConfig turns scripts back on for the pack step of `npm publish`
 * only, so the same n8n-node prerelease check runs here. A plain `npm pack` (or one with
 * scripts on) is not a publish and passes.
 */
const { spawnSync } = require('child_process');
const path = require('path');

if (process.env.npm_command !== 'publish') process.exit(0);
const bin = path.join(
	__dirname,
	'..',
	'node_modules',
	'.bin',
	process.platform === 'win32' ? 'n8n-node.cmd' : 'n8n-node',
);
const result = spawnSync(bin, ['prerelease'], {
	stdio: 'inherit',
	shell: process.platform === 'win32',
});
if (result.status !== 0) {
	console.error(
		'npm publish refused: publish with `npm run release` from the GitHub Actions workflow (.github/workflows/publish.yml); see docs/verification.md',
	);
}
process.exit(result.status ?? 1);

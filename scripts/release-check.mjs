#!/usr/bin/env node
/**
 * Refuses a release whose package.json does not belong to the repository and tag being
 * published: `node scripts/release-check.mjs <owner/repo> <tag>` (the publish workflow passes
 * GITHUB_REPOSITORY and GITHUB_REF_NAME). repository.url and bugs.url must name <owner/repo>
 * on GitHub (npm's provenance statement names the repository the workflow ran in, and npm
 * refuses one that differs from repository.url); homepage must be the package's npm page
 * (the nodes' documentation links point at it) or that repository; the tag must be the
 * version, with or without a leading "v". Exit 1 with the reason otherwise.
 *
 * When the package moves to another repository, change repository and bugs in package.json
 * (docs/verification.md, "Where the package lives").
 */
import { readFileSync } from 'node:fs';

const [repository, tag] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const problems = [];

/** owner/repo of a GitHub URL (git+https, https, git, ssh forms), lower-case; null when not GitHub. */
function githubRepo(url) {
	const match = /github\.com[/:]([^/]+)\/([^/#?]+?)(?:\.git)?(?:[/#?].*)?$/i.exec(url ?? '');
	return match ? `${match[1]}/${match[2]}`.toLowerCase() : null;
}

if (!repository || !tag) {
	console.error('usage: node scripts/release-check.mjs <owner/repo> <tag>');
	process.exit(2);
}
const expected = repository.toLowerCase();
const fields = {
	'repository.url': typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url,
	'bugs.url': typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url,
};
for (const [field, url] of Object.entries(fields)) {
	if (githubRepo(url) !== expected) {
		problems.push(
			`package.json ${field} is ${url ?? 'missing'}, which is not https://github.com/${repository}: set repository and bugs in package.json to this repository`,
		);
	}
}
const npmPage = `https://www.npmjs.com/package/${pkg.name}`;
if (pkg.homepage !== npmPage && githubRepo(pkg.homepage) !== expected) {
	problems.push(
		`package.json homepage is ${pkg.homepage ?? 'missing'}, which is neither ${npmPage} nor https://github.com/${repository}`,
	);
}
if (tag !== pkg.version && tag !== `v${pkg.version}`) {
	problems.push(
		`the tag ${tag} is not package.json's version ${pkg.version}: tag the commit whose package.json says the version (npm run release does both)`,
	);
}
for (const problem of problems) console.error(`release refused: ${problem}`);
if (problems.length) process.exit(1);
console.log(
	`release of ${pkg.name}@${pkg.version} from ${repository}, tag ${tag}: package.json matches`,
);

/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: asks npm about n8n, not published (package.json "files" is dist/ only) */
/**
 * The n8n the canary installs (.github/workflows/n8n-canary.yml): n8n@latest when npm can
 * install it; when its dependencies do not resolve upstream, it says so and falls back to the
 * newest version whose dependencies all resolve (scripts/lib/installable-n8n.ts).
 *
 *   npx ts-node --transpile-only scripts/newest-installable-n8n.ts [--tries 10]
 *   npx ts-node --transpile-only scripts/newest-installable-n8n.ts --check 2.41.1
 *
 * Progress goes to stderr, the version to stdout (last line). --check checks one version
 * (written x.y.z, published, every dependency resolving) and exits 1 when it is not. Under
 * GitHub Actions it writes `version`, `latest` and `fell-back` to $GITHUB_OUTPUT and a
 * warning annotation when it fell back.
 */
import { appendFileSync } from 'fs';

import {
	candidates,
	choose,
	npmResolves,
	publishedN8n,
	VERSION_PATTERN,
} from './lib/installable-n8n';

const log = (line: string) => console.error(`[newest-installable-n8n] ${line}`);

function option(name: string): string | undefined {
	const args = process.argv.slice(2);
	const at = args.indexOf(name);
	return at >= 0 ? args[at + 1] : undefined;
}

/** Checks one version: its spelling, that npm lists it, that its dependencies resolve. */
async function check(version: string): Promise<void> {
	if (!VERSION_PATTERN.test(version))
		throw new Error(`"${version}" is not an n8n version (x.y.z, for example 2.41.1)`);
	const { latest, versions } = await publishedN8n();
	if (!versions.includes(version))
		throw new Error(`n8n ${version} is not published on npm (latest: ${latest})`);
	const answer = await npmResolves(version);
	if (!answer.ok) throw new Error(`n8n ${version} does not install: ${answer.reason}`);
	log(`n8n ${version}: every dependency resolves`);
	console.log(version);
}

async function newest(tries: number): Promise<void> {
	const { latest, versions } = await publishedN8n();
	log(`n8n@latest is ${latest} (${versions.length} versions published)`);
	const choice = await choose(latest, candidates(latest, versions, tries), npmResolves, log);
	const summary = choice.fellBack
		? `n8n@latest (${latest}) does not install: ${choice.refused[0].reason}. Falling back to n8n ${choice.version}, the newest version whose dependencies all resolve${
				choice.refused.length > 1
					? ` (also refused: ${choice.refused
							.slice(1)
							.map((r) => r.version)
							.join(', ')})`
					: ''
			}.`
		: `n8n@latest (${latest}) installs: every dependency resolves.`;
	log(summary);
	if (process.env.GITHUB_OUTPUT) {
		const lines = [`version=${choice.version}`, `latest=${latest}`, `fell-back=${choice.fellBack}`];
		appendFileSync(process.env.GITHUB_OUTPUT, `${lines.join('\n')}\n`);
	}
	if (process.env.GITHUB_ACTIONS && choice.fellBack) console.error(`::warning::${summary}`);
	console.log(choice.version);
}

async function main(): Promise<void> {
	const version = option('--check');
	const tries = Number(option('--tries') ?? 10);
	if (!Number.isInteger(tries) || tries < 1) throw new Error('--tries takes a whole number');
	await (version !== undefined ? check(version) : newest(tries));
}

main().catch((error: Error) => {
	log(`FAILED: ${error.message}`);
	process.exit(1);
});

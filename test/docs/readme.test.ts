/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** README.md: short, the set-up and test commands at the top, and the anchors n8n's links point at. */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { anchors, readDoc, ROOT } from './markdown';

const readme = readDoc('README.md');
const headings = anchors(readme);
const homepage = (JSON.parse(readDoc('package.json')) as { homepage: string }).homepage;

/** The *.node.json codex files under nodes/. */
function codexFiles(dir = join(ROOT, 'nodes')): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return codexFiles(path);
		return entry.name.endsWith('.node.json') ? [path] : [];
	});
}

/** A documentation URL must be the README (the package page) with a heading that exists. */
function problem(url: string): string | undefined {
	const [page, anchor] = url.split('#', 2);
	if (page !== homepage) return `${url} is not the package page ${homepage}`;
	if (anchor !== undefined && !headings.has(anchor))
		return `${url}: the README has no heading #${anchor}`;
	return undefined;
}

describe('README', () => {
	it('stays short', () => {
		expect(Buffer.byteLength(readme)).toBeLessThan(15_000);
	});

	it('starts with the set-up commands, then the sections of a community-node README in order', () => {
		const order = [
			'The two commands',
			'Installation',
			'Operations',
			'Credentials',
			'Compatibility',
			'Usage',
			'Resources',
			'Version history',
		];
		const at = order.map((h) => readme.indexOf(`\n## ${h}\n`));
		expect(at.every((i) => i > 0)).toBe(true);
		expect([...at].sort((a, b) => a - b)).toEqual(at);
		expect(readme.indexOf('```bash\nnpm start\n```')).toBeGreaterThan(at[0]);
		expect(readme.indexOf('```bash\nnpm start\n```')).toBeLessThan(at[1]);
	});

	it('shows every test command that CI runs', () => {
		const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		const commands = [
			...new Set(
				[...ci.matchAll(/^\s*(?:counted \w+ ([\w:-]+)|npm (test))\b/gm)].map((m) =>
					m[1] ? `npm run ${m[1]}` : 'npm test',
				),
			),
		];
		expect(commands.length).toBeGreaterThanOrEqual(5);
		const development = readme.split('\n## Development\n')[1] ?? '';
		for (const command of [...commands, 'npm run bench'])
			expect(development).toContain(`| \`${command}\` |`);
		const block = readme.split('```bash\nnpm install\n')[1]?.split('```')[0] ?? '';
		for (const command of commands) expect(block).toContain(`${command} `);
	});

	it('has the heading the credential links to', () => {
		expect(problem(new DocumentSigningApi().documentationUrl)).toBeUndefined();
		expect(new DocumentSigningApi().documentationUrl.endsWith('#credentials')).toBe(true);
	});

	it("has the headings the nodes' codex files link to", () => {
		const files = codexFiles();
		expect(files.length).toBe(3);
		const problems: string[] = [];
		for (const file of files) {
			const codex = JSON.parse(readFileSync(file, 'utf8')) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			for (const { url } of Object.values(codex.resources).flat()) {
				const found = problem(url);
				if (found) problems.push(`${file.slice(ROOT.length + 1)}: ${found}`);
			}
		}
		expect(problems).toEqual([]);
	});
});

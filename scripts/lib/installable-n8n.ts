/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: runs npm to ask about n8n, not published (package.json "files" is dist/ only) */
/**
 * Which n8n npm can install, for the canary (.github/workflows/n8n-canary.yml and
 * scripts/newest-installable-n8n.ts): `n8n@latest` when every one of its dependencies
 * resolves on the registry, else the newest published version below it whose dependencies
 * all resolve. "Resolves" is npm's own answer: `npm install --package-lock-only` of that n8n
 * (with the overrides the pinned install uses, test/e2e/n8n/package.json) in an empty folder
 * builds the whole dependency tree from the registry's metadata without downloading it, and
 * fails on the first version nobody published (as npm failed on n8n 2.41.3: "No matching
 * version found for @n8n/agents@0.26.2").
 */
import { execFile } from 'child_process';
import { mkdtemp, readFile, rm, writeFile } from 'fs/promises';
import os from 'os';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
export const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;

/** npm's answer for one version: it resolves, or why not (npm's own error lines). */
export type Resolution = { ok: true } | { ok: false; reason: string };

export interface Choice {
	/** What `latest` names on the registry. */
	latest: string;
	/** The version to run: `latest` when it resolves. */
	version: string;
	fellBack: boolean;
	/** Versions tried before it, newest first, with npm's reason. */
	refused: Array<{ version: string; reason: string }>;
}

function compareVersions(a: string, b: string): number {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	for (let n = 0; n < 3; n++) if (x[n] !== y[n]) return x[n] - y[n];
	return 0;
}

/** Released versions (no pre-releases) up to `latest`, newest first, `latest` first of all. */
export function candidates(latest: string, published: string[], max: number): string[] {
	const released = published
		.filter((v) => VERSION_PATTERN.test(v) && compareVersions(v, latest) <= 0)
		.sort((a, b) => compareVersions(b, a));
	return [latest, ...released.filter((v) => v !== latest)].slice(0, max);
}

/** The newest of `candidates` that resolves; throws when none of them does. */
export async function choose(
	latest: string,
	tries: string[],
	resolves: (version: string) => Promise<Resolution>,
	log: (line: string) => void = () => {},
): Promise<Choice> {
	const refused: Choice['refused'] = [];
	for (const version of tries) {
		log(`checking that every dependency of n8n ${version} resolves on the registry`);
		const answer = await resolves(version);
		if (answer.ok) return { latest, version, fellBack: version !== latest, refused };
		log(`n8n ${version} does not install: ${answer.reason}`);
		refused.push({ version, reason: answer.reason });
	}
	throw new Error(
		`none of the ${tries.length} newest n8n versions installs (${tries.join(', ')}): ${refused[0]?.reason ?? ''}`,
	);
}

function npm(args: string[], cwd: string): Promise<{ code: number; out: string }> {
	return new Promise((resolve) => {
		execFile('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, out: `${stdout}\n${stderr}` }),
		);
	});
}

/** What the registry lists for n8n: the `latest` tag and every published version. */
export async function publishedN8n(): Promise<{ latest: string; versions: string[] }> {
	const { code, out } = await npm(['view', 'n8n', 'dist-tags', 'versions', '--json'], ROOT);
	if (code !== 0) throw new Error(`npm view n8n failed: ${out.trim().slice(0, 500)}`);
	const answer = JSON.parse(out.slice(out.indexOf('{'))) as {
		'dist-tags': { latest: string };
		versions: string[];
	};
	return { latest: answer['dist-tags'].latest, versions: answer.versions };
}

/** npm's error lines without its log-file hints, on one line. */
export function npmReason(out: string): string {
	const lines = out
		.split('\n')
		.filter((l) => l.startsWith('npm error') && !/complete log|In most cases/.test(l))
		.map((l) => l.replace(/^npm error\s*(code\s+|notarget\s+|404\s+)?/, '').replace(/\.$/, ''))
		.map((l) => l.trim())
		.filter((l) => l !== '');
	return [...new Set(lines)].slice(0, 3).join('; ') || out.trim().slice(-300);
}

/** npm resolves the whole tree of n8n `version` (metadata only, nothing downloaded). */
export async function npmResolves(version: string): Promise<Resolution> {
	const pins = JSON.parse(
		await readFile(path.join(ROOT, 'test', 'e2e', 'n8n', 'package.json'), 'utf8'),
	) as { overrides?: Record<string, string> };
	const dir = await mkdtemp(path.join(os.tmpdir(), 'n8n-resolves-'));
	try {
		const manifest = { private: true, dependencies: { n8n: version }, overrides: pins.overrides };
		await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
		const flags = ['--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'];
		const { code, out } = await npm(['install', ...flags, '--loglevel=error'], dir);
		return code === 0 ? { ok: true } : { ok: false, reason: npmReason(out) };
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

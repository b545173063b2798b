/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Reading the project's markdown: its files, headings as GitHub anchors, and relative links. */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

export const ROOT = join(__dirname, '..', '..');

/** README.md and every docs/*.md, as paths relative to the repository root. */
export function markdownFiles(): string[] {
	const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
	return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

export function readDoc(relativePath: string): string {
	return readFileSync(join(ROOT, relativePath), 'utf8');
}

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading). */
export function withoutCodeBlocks(text: string): string {
	return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every anchor of a markdown text; a repeated heading gets -1, -2, ... as on GitHub. */
export function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const match of withoutCodeBlocks(text).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const base = slug(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/** The targets of the inline links of a markdown text, outside code blocks and code spans. */
export function linkTargets(text: string): string[] {
	const prose = withoutCodeBlocks(text).replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

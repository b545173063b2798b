/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Every relative link of README.md and docs/*.md reaches a file, and an #anchor a heading of it. */
import { existsSync } from 'fs';
import { dirname, extname, join, normalize, relative } from 'path';

import { anchors, linkTargets, markdownFiles, readDoc, ROOT, slug } from './markdown';

describe('markdown links', () => {
	it('computes anchors as GitHub does', () => {
		expect(slug('Repeated deliveries: what is guaranteed where')).toBe(
			'repeated-deliveries-what-is-guaranteed-where',
		);
		expect(slug('In-process benchmarks (`npm run bench:harness`)')).toBe(
			'in-process-benchmarks-npm-run-benchharness',
		);
		expect([...anchors('# A\n## Create\n```\n# not a heading\n```\n### Create\n')]).toEqual([
			'a',
			'create',
			'create-1',
		]);
	});

	it.each(markdownFiles())(
		'%s: every relative link points at a file or heading that exists',
		(file) => {
			const broken: string[] = [];
			for (const target of linkTargets(readDoc(file))) {
				if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
				const [pathPart, anchor] = target.split('#', 2);
				const resolved =
					pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
				if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) {
					broken.push(`${target} (no file ${relative('.', resolved)})`);
					continue;
				}
				if (
					anchor !== undefined &&
					extname(resolved) === '.md' &&
					!anchors(readDoc(resolved)).has(anchor)
				) {
					broken.push(`${target} (no heading #${anchor} in ${resolved})`);
				}
			}
			expect(broken).toEqual([]);
		},
	);
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: reads the source tree, not published (package.json "files" is dist/ only) */
/**
 * The product's imports stay a tree a newcomer can walk: no file imports itself through
 * others (no import circle), and the rooms of nodes/shared import one another in one
 * direction only (run <- api <- guard <- pacing <- http <- files), so no two rooms lean on each other.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const SHARED = path.join(ROOT, 'nodes', 'shared');
/** The rooms of nodes/shared, each allowed to import only the rooms before it. */
export const ROOM_ORDER = ['run', 'api', 'guard', 'pacing', 'http', 'files'];

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return sources(full);
		return full.endsWith('.ts') ? [full] : [];
	});
}

/** Each product file and the product files it imports (relative imports, types included). */
export function importGraph(): Map<string, string[]> {
	const files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))];
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const text = readFileSync(file, 'utf8');
		const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
			.map((m) => path.resolve(path.dirname(file), m[1]))
			.map((target) =>
				[`${target}.ts`, path.join(target, 'index.ts')].find((candidate) =>
					files.includes(candidate),
				),
			)
			.filter((target): target is string => target !== undefined);
		graph.set(file, [...new Set(targets)]);
	}
	return graph;
}

/** Every import circle, as the files around it (Tarjan's strongly connected components). */
export function circles(graph: Map<string, string[]>): string[][] {
	let index = 0;
	const stack: string[] = [];
	const seen = new Map<string, { index: number; low: number; onStack: boolean }>();
	const found: string[][] = [];
	const visit = (file: string) => {
		const mine = { index, low: index, onStack: true };
		seen.set(file, mine);
		index++;
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			const theirs = seen.get(next);
			if (!theirs) {
				visit(next);
				mine.low = Math.min(mine.low, seen.get(next)!.low);
			} else if (theirs.onStack) mine.low = Math.min(mine.low, theirs.index);
		}
		if (mine.low !== mine.index) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			seen.get(member)!.onStack = false;
			component.push(member);
		} while (member !== file);
		if (component.length > 1) found.push(component.map((f) => path.relative(ROOT, f)).sort());
	};
	for (const file of graph.keys()) if (!seen.has(file)) visit(file);
	return found;
}

const roomOf = (file: string) => {
	const relative = path.relative(SHARED, file);
	return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
};

describe('the structure of the imports', () => {
	const graph = importGraph();

	it('has no import circle', () => {
		expect(circles(graph)).toEqual([]);
	});

	it('keeps every file of nodes/shared in a room, and each room imports only the rooms before it', () => {
		const loose = [...graph.keys()]
			.filter((file) => roomOf(file) !== undefined && !ROOM_ORDER.includes(roomOf(file)!))
			.map((file) => path.relative(ROOT, file));
		expect(loose).toEqual([]);
		const backwards: string[] = [];
		for (const [file, targets] of graph) {
			const from = ROOM_ORDER.indexOf(roomOf(file) ?? '');
			if (from < 0) continue;
			for (const target of targets) {
				const to = ROOM_ORDER.indexOf(roomOf(target) ?? '');
				if (to > from)
					backwards.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
			}
		}
		expect(backwards).toEqual([]);
	});

	it('gives the router one door to pacing (nodes/shared/pacing/pacing.ts)', () => {
		const router = path.join(ROOT, 'nodes', 'DocumentSigning', 'actions', 'router.ts');
		const pacing = graph.get(router)!.filter((target) => roomOf(target) === 'pacing');
		expect(pacing.map((target) => path.relative(ROOT, target))).toEqual([
			path.join('nodes', 'shared', 'pacing', 'pacing.ts'),
		]);
	});

	it('finds a circle when there is one', () => {
		const a = path.join(ROOT, 'a.ts');
		const b = path.join(ROOT, 'b.ts');
		expect(
			circles(
				new Map([
					[a, [b]],
					[b, [a]],
				]),
			),
		).toEqual([['a.ts', 'b.ts']]);
	});
});

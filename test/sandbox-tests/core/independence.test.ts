/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The sandbox is a second, independent reading of the specification: no file under
 * test/sandbox may reach code of nodes/ or credentials/, directly or through another
 * file of the repository it imports (import, export-from, dynamic import, require).
 */
import {
	existsSync,
	mkdtempSync,
	mkdirSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
	readFileSync,
} from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../../..');
const PACKAGE_NAME = (
	JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string }
).name;

const SPECIFIERS = [
	/\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
	/\bexport\s+(?:type\s+)?[\w*{}\s,$]*?\s+from\s+['"]([^'"]+)['"]/g,
	/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
	/\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
	/\brequire\.resolve\s*\(\s*['"]([^'"]+)['"]/g,
];

/** Every module specifier a source file names. */
export function specifiersOf(source: string): string[] {
	const found = new Set<string>();
	for (const re of SPECIFIERS) for (const m of source.matchAll(re)) found.add(m[1]);
	return [...found];
}

function resolveFile(base: string): string | undefined {
	for (const candidate of [
		base,
		`${base}.ts`,
		`${base}.js`,
		path.join(base, 'index.ts'),
		path.join(base, 'index.js'),
	]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	}
	return undefined;
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return filesUnder(full);
		return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
	});
}

/**
 * Imports that reach `forbidden` folders from the files under `sandboxDir`, following
 * relative imports through any file of `root`. Each as "file -> ... -> target".
 */
export function forbiddenImports(root: string, sandboxDir: string, forbidden: string[]): string[] {
	const banned = forbidden.map((dir) => path.join(root, dir) + path.sep);
	const problems: string[] = [];
	const seen = new Set<string>();
	const visit = (file: string, chain: string[]) => {
		if (seen.has(file)) return;
		seen.add(file);
		for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
			const via = [...chain, path.relative(root, file)];
			if (spec === PACKAGE_NAME || spec.startsWith(`${PACKAGE_NAME}/`)) {
				problems.push(`${via.join(' -> ')} -> ${spec}`);
				continue;
			}
			if (!spec.startsWith('.')) continue; // a package from node_modules
			const target = path.resolve(path.dirname(file), spec);
			if (banned.some((dir) => (target + path.sep).startsWith(dir))) {
				problems.push(`${via.join(' -> ')} -> ${path.relative(root, target)}`);
				continue;
			}
			const resolved = resolveFile(target);
			if (
				resolved &&
				resolved.startsWith(root + path.sep) &&
				!resolved.includes(`${path.sep}node_modules${path.sep}`)
			) {
				visit(resolved, via);
			}
		}
	};
	for (const file of filesUnder(sandboxDir)) visit(file, []);
	return problems;
}

describe('sandbox independence', () => {
	test('no file under test/sandbox imports from nodes/ or credentials/ (directly or through another file)', () => {
		expect(
			forbiddenImports(ROOT, path.join(ROOT, 'test/sandbox'), ['nodes', 'credentials']),
		).toEqual([]);
	});

	test('the scan finds such imports: direct, through another file, require, export-from, package name', () => {
		const root = mkdtempSync(path.join(tmpdir(), 'independence-'));
		try {
			const write = (file: string, text: string) => {
				mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
				writeFileSync(path.join(root, file), text);
			};
			write('nodes/shared/api/schemas/index.ts', 'export const A = 1;');
			write('credentials/Api.credentials.ts', 'export const B = 1;');
			write('test/helpers/bridge.ts', "export { A } from '../../nodes/shared/api/schemas';");
			write(
				'test/sandbox/clean.ts',
				"import { z } from 'zod/v3';\nimport { x } from './spec/limits';",
			);
			write('test/sandbox/spec/limits.ts', 'export const x = 1;');
			write('test/sandbox/direct.ts', "import { A } from '../../nodes/shared/api/schemas';");
			write('test/sandbox/routes/indirect.ts', "import { A } from '../../helpers/bridge';");
			write('test/sandbox/req.ts', "const c = require('../../credentials/Api.credentials');");
			write('test/sandbox/reexport.ts', "export * from '../../nodes/shared/api/schemas/index';");
			write('test/sandbox/typeonly.ts', "import type { A } from '../../nodes';");
			write('test/sandbox/pkg.ts', `import { A } from '${PACKAGE_NAME}/dist/nodes';`);

			const found = forbiddenImports(root, path.join(root, 'test/sandbox'), [
				'nodes',
				'credentials',
			]);
			const files = found.map((line) => line.split(' -> ')[0]).sort();
			expect(files).toEqual([
				'test/sandbox/direct.ts',
				'test/sandbox/pkg.ts',
				'test/sandbox/reexport.ts',
				'test/sandbox/req.ts',
				'test/sandbox/routes/indirect.ts',
				'test/sandbox/typeonly.ts',
			]);
			expect(found).toContain(
				'test/sandbox/routes/indirect.ts -> test/helpers/bridge.ts -> nodes/shared/api/schemas',
			);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

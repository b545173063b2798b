/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: reads the source tree, not published (package.json "files" is dist/ only) */
/**
 * The longest functions of the product (nodes/ and credentials/), for `npm run functions`
 * and CI: prints the longest and fails when one is over the bound. A function that only
 * builds a node description (its body is one returned object or array literal of the
 * panel) is a description, not logic, and is not counted.
 *
 *   npx ts-node --transpile-only scripts/longest-functions.ts [--max 80] [--show 10]
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import path from 'path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..');

export interface FunctionLength {
	file: string;
	name: string;
	line: number;
	lines: number;
}

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return sources(full);
		return full.endsWith('.ts') && !full.endsWith('.d.ts') ? [full] : [];
	});
}

function nameOf(node: ts.Node): string {
	if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
		return node.name.getText();
	const parent = node.parent;
	if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
	if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
	return '(anonymous)';
}

/**
 * A description: a function declared to return the panel's properties, or whose body is
 * only `return <object or array literal>` (or an arrow to one).
 */
function onlyDescribes(node: ts.FunctionLikeDeclaration): boolean {
	if (
		node.type &&
		/\bINode(Properties|TypeDescription|PropertyOptions)\b/.test(node.type.getText())
	)
		return true;
	const body = node.body;
	if (!body) return false;
	const literal = (e: ts.Expression | undefined): boolean => {
		const inner = e && ts.isParenthesizedExpression(e) ? e.expression : e;
		return !!inner && (ts.isObjectLiteralExpression(inner) || ts.isArrayLiteralExpression(inner));
	};
	if (!ts.isBlock(body)) return literal(body);
	const statements = body.statements;
	const last = statements[statements.length - 1];
	const returnsLiteral = !!last && ts.isReturnStatement(last) && literal(last.expression);
	const rest = statements.slice(0, -1).every((s) => ts.isVariableStatement(s));
	return returnsLiteral && rest && last.getFullWidth() > body.getFullWidth() / 2;
}

export function functionLengths(
	files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))],
): FunctionLength[] {
	const out: FunctionLength[] = [];
	for (const file of files) {
		const text = readFileSync(file, 'utf8');
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
		const visit = (node: ts.Node) => {
			if (ts.isFunctionLike(node) && 'body' in node && node.body) {
				const fn = node as ts.FunctionLikeDeclaration;
				if (!onlyDescribes(fn)) {
					const start = source.getLineAndCharacterOfPosition(fn.getStart()).line;
					const end = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
					out.push({
						file: path.relative(ROOT, file),
						name: nameOf(fn),
						line: start + 1,
						lines: end - start + 1,
					});
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return out.sort((a, b) => b.lines - a.lines);
}

function main(): void {
	const arg = (name: string, fallback: number) => {
		const at = process.argv.indexOf(name);
		return at >= 0 ? Number(process.argv[at + 1]) : fallback;
	};
	const max = arg('--max', 80);
	const lengths = functionLengths();
	for (const f of lengths.slice(0, arg('--show', 10)))
		console.log(`${String(f.lines).padStart(4)} lines  ${f.file}:${f.line} ${f.name}`);
	const over = lengths.filter((f) => f.lines > max);
	console.log(
		over.length
			? `${over.length} function(s) over ${max} lines`
			: `no product function over ${max} lines (${lengths.length} functions)`,
	);
	process.exitCode = over.length ? 1 : 0;
}

if (require.main === module) main();

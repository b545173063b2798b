/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * n8n's UX guidelines for node and credential descriptions, the mechanical rules, over every
 * parameter of every node (every version of a versioned one), nested options, collections
 * and fixed collections included, and the credential:
 * - display names, option names, collection and fixed-collection entries, locator modes: Title Case;
 * - descriptions and hints: sentence case;
 * - a boolean's description starts "Whether";
 * - placeholders start "e.g.";
 * - a resource locator with a list mode starts in it ("From List");
 * - a delete operation answers {"deleted": true} (run in-process against the sandbox);
 * - error messages thrown in nodes/ never say "error" or "problem", and say how to fix it
 *   (a description, or advice after a colon or semicolon in the message).
 */
import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { type Harness, startHarness } from '../harness';
import { packageNodes, versionsOf } from '../snapshots/params';
import { byId, runTemplateOp, seedTemplate } from '../template/helpers';
import { ROOT } from './markdown';

/**
 * Words written lower-case inside a Title Case name ("Name of the Signer"); first or last
 * they are capitalised ("Duty Paid By"), as n8n's linter (the title-case package) does.
 */
const SMALL_WORDS = new Set([
	'a',
	'an',
	'the',
	'and',
	'or',
	'nor',
	'but',
	'of',
	'to',
	'in',
	'on',
	'at',
	'for',
	'by',
	'with',
	'as',
	'per',
	'via',
	'vs',
]);

/** Words that keep their own casing in a Title Case name, each with the reason. */
const OWN_CASING: Record<string, string> = {
	'e.g.': 'the abbreviation n8n writes lower-case',
	n8n: "the product's name is written lower-case",
	'e-Stamp': 'the service calls its stamp paper e-Stamp (docs/assumptions.md)',
};

/** Text that begins a description or hint in its own casing, each with the reason. */
const OWN_START: Array<[RegExp, string]> = [
	[/^`/, 'starts with a code literal (a field or key name written as the API spells it)'],
	[/^n8n\b/, "the product's name is written lower-case"],
	[/^e\.g\./, 'the abbreviation n8n writes lower-case'],
	[/^e-Stamp/, 'the service calls its stamp paper e-Stamp'],
	[/^[0-9]/, 'starts with a number'],
	[/^[{[<"'(]/, 'starts with an example value, a link or a quotation'],
];

/** What is wrong with a Title Case name, or undefined. */
function titleCaseProblem(name: string): string | undefined {
	const words = name.split(/\s+/).filter(Boolean);
	for (const [index, raw] of words.entries()) {
		if (raw in OWN_CASING) continue;
		const word = raw.replace(/^[("'“‘[]+|[)"'”’\]:,.?!…]+$/g, '');
		if (!/^[A-Za-z]/.test(word)) continue; // numbers, symbols (>, /, -)
		if (word in OWN_CASING) continue;
		if (/^[A-Z0-9]{2,}s?$/.test(word)) continue; // acronyms: ID, IDs, PDF, URL, JSON, KA
		const lower = word.toLowerCase();
		if (index > 0 && index < words.length - 1 && SMALL_WORDS.has(lower)) {
			if (word !== lower) return `"${word}" is a small word: lower-case inside a name`;
			continue;
		}
		// Each part of a hyphenated word is capitalised (Add-On, Read-Only).
		for (const part of word.split(/[-/]/)) {
			if (part && /^[a-z]/.test(part) && !(part in OWN_CASING))
				return `"${word}" should start upper-case`;
		}
	}
	return undefined;
}

/** What is wrong with a sentence-case text, or undefined. */
function sentenceCaseProblem(text: string): string | undefined {
	const trimmed = text.trim();
	if (!trimmed) return 'is empty';
	if (OWN_START.some(([pattern]) => pattern.test(trimmed))) return undefined;
	if (!/^[A-Z]/.test(trimmed))
		return `should start with a capital letter: "${trimmed.slice(0, 40)}"`;
	// Title Case through and through ("Send The Envelope Now") is not a sentence.
	const words = trimmed
		.split(/\s+/)
		.filter((w) => /^[A-Za-z]{3,}$/.test(w) && !SMALL_WORDS.has(w.toLowerCase()));
	if (words.length >= 4 && words.every((w) => /^[A-Z][a-z]/.test(w)))
		return `reads as Title Case, not a sentence: "${trimmed.slice(0, 60)}"`;
	return undefined;
}

interface Finding {
	where: string;
	rule: string;
	text: string;
}

type Described = Partial<INodeProperties> & { displayName?: string; name?: string };

/** Every parameter, option, collection entry and group, with a path for messages. */
function walk(
	properties: readonly INodeProperties[],
	at: string,
	visit: (item: Described, where: string, kind: 'parameter' | 'option' | 'group') => void,
): void {
	for (const property of properties) {
		const where = `${at} > ${property.displayName} (${property.name})`;
		visit(property, where, 'parameter');
		for (const option of property.options ?? []) {
			if ('type' in option && (option as INodeProperties).type !== undefined) {
				walk([option as INodeProperties], where, visit); // a collection's entry
			} else if ('values' in option) {
				const group = option as INodePropertyCollection;
				const groupWhere = `${where} > ${group.displayName} (${group.name})`;
				visit(group as unknown as Described, groupWhere, 'group');
				walk(group.values, groupWhere, visit);
			} else {
				visit(
					option as INodePropertyOptions as unknown as Described,
					`${where} > option ${String((option as INodePropertyOptions).value)}`,
					'option',
				);
			}
		}
	}
}

/** Is the parameter shown in this version? (`@version` display conditions.) */
function inVersion(property: INodeProperties, version: number): boolean {
	const show = property.displayOptions?.show?.['@version'] as
		| Array<number | { _cnd: Record<string, number> }>
		| undefined;
	const hide = property.displayOptions?.hide?.['@version'] as
		| Array<number | { _cnd: Record<string, number> }>
		| undefined;
	const matches = (conditions: typeof show) =>
		(conditions ?? []).some((c) => {
			if (typeof c === 'number') return c === version;
			const [op, value] = Object.entries(c._cnd)[0];
			return op === 'gte'
				? version >= value
				: op === 'lte'
					? version <= value
					: op === 'gt'
						? version > value
						: op === 'lt'
							? version < value
							: op === 'eq'
								? version === value
								: true;
		});
	if (show && !matches(show)) return false;
	if (hide && matches(hide)) return false;
	return true;
}

function findings(): Finding[] {
	const found: Finding[] = [];
	const check = (
		where: string,
		rule: string,
		text: string | undefined,
		problem: string | undefined,
	) => {
		if (text !== undefined && problem)
			found.push({ where, rule, text: `${problem} (${JSON.stringify(text).slice(0, 120)})` });
	};
	const checkItem = (item: Described, where: string, kind: 'parameter' | 'option' | 'group') => {
		const label = kind === 'option' ? item.name : item.displayName;
		if (item.type !== 'notice')
			check(
				where,
				'Title Case name',
				label,
				label === undefined ? undefined : titleCaseProblem(label),
			);
		if (typeof item.description === 'string')
			check(
				where,
				'sentence case description',
				item.description,
				sentenceCaseProblem(item.description),
			);
		if (typeof item.hint === 'string')
			check(where, 'sentence case hint', item.hint, sentenceCaseProblem(item.hint));
		if (item.type === 'boolean') {
			const d = item.description;
			check(
				where,
				'boolean described "Whether ..."',
				d ?? '(no description)',
				d?.startsWith('Whether ') ? undefined : 'a boolean\'s description starts "Whether "',
			);
		}
		// A collection's placeholder is its button label ("Add Option"), not an example.
		if (
			typeof item.placeholder === 'string' &&
			item.placeholder !== '' &&
			item.type !== 'collection' &&
			item.type !== 'fixedCollection'
		) {
			check(
				where,
				'placeholder starts "e.g."',
				item.placeholder,
				item.placeholder.startsWith('e.g. ') ? undefined : 'a placeholder starts "e.g. "',
			);
		}
		if (item.type === 'resourceLocator') {
			const modes = item.modes ?? [];
			const list = modes.find((m) => m.type === 'list');
			const mode = (item.default as { mode?: string } | undefined)?.mode;
			if (list) {
				check(
					where,
					'resource locator starts in "From List"',
					String(mode),
					mode === list.name
						? undefined
						: `the default mode is "${mode}", not the list mode "${list.name}"`,
				);
				check(
					where,
					'list mode named "From List"',
					list.displayName,
					list.displayName === 'From List' ? undefined : 'the list mode is called "From List"',
				);
			}
			for (const m of modes)
				check(
					`${where} > mode ${m.name}`,
					'Title Case name',
					m.displayName,
					titleCaseProblem(m.displayName),
				);
		}
	};

	for (const description of packageNodes()) {
		const node = `${description.displayName} node`;
		check(
			node,
			'Title Case name',
			description.displayName,
			titleCaseProblem(description.displayName),
		);
		check(
			node,
			'sentence case description',
			description.description,
			sentenceCaseProblem(description.description),
		);
		for (const version of versionsOf(description)) {
			const shown = description.properties.filter((p) => inVersion(p, version));
			walk(shown, `${node} v${version}`, checkItem);
		}
	}
	const credential: ICredentialType = new DocumentSigningApi();
	check(
		'credential',
		'Title Case name',
		credential.displayName,
		titleCaseProblem(credential.displayName),
	);
	walk(credential.properties, `${credential.displayName} credential`, checkItem);
	// One finding per text: a parameter shared by two versions is reported once.
	return [
		...new Map(
			found.map((f) => [`${f.where.replace(/ v[\d.]+ >/, ' >')}|${f.rule}|${f.text}`, f]),
		).values(),
	];
}

function sourceFiles(dir = join(ROOT, 'nodes')): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The text of the call starting at `from` (to its closing parenthesis). */
function callText(source: string, from: number): string {
	let depth = 0;
	for (let i = source.indexOf('(', from); i < source.length; i++) {
		if (source[i] === '(') depth++;
		if (source[i] === ')' && --depth === 0) return source.slice(from, i + 1);
	}
	return source.slice(from);
}

/** String and template literals of a piece of source (template holes left as `…`). */
function literals(code: string): string[] {
	return [...code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map(
		(m) => (m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, '…'),
	);
}

interface ThrownError {
	where: string;
	call: string;
	texts: string[];
}

/** Every `new NodeOperationError(` / `new NodeApiError(` in nodes/, with its literal texts. */
function thrownErrors(): ThrownError[] {
	const out: ThrownError[] = [];
	for (const file of sourceFiles()) {
		const source = readFileSync(file, 'utf8');
		for (const match of source.matchAll(/new (NodeOperationError|NodeApiError)\(/g)) {
			const call = callText(source, match.index);
			const line = source.slice(0, match.index).split('\n').length;
			out.push({ where: `${relative(ROOT, file)}:${line}`, call, texts: literals(call) });
		}
	}
	return out;
}

describe("n8n's UX guidelines", () => {
	it('finds the parameters of every node version and the credential', () => {
		const count: Record<string, number> = {};
		for (const description of packageNodes()) {
			for (const version of versionsOf(description)) {
				let n = 0;
				walk(
					description.properties.filter((p) => inVersion(p, version)),
					'',
					() => n++,
				);
				count[`${description.name} v${version}`] = n;
			}
		}
		// Every node has parameters; every version of the versioned node is walked.
		expect(Object.keys(count).sort()).toEqual([
			'documentSigning v1',
			'documentSigning v1.1',
			'documentSigning v1.2',
			'documentSigningStatusTrigger v1',
			'documentSigningStatusTrigger v1.1',
			'documentSigningTrigger v1',
			'documentSigningTrigger v1.1',
		]);
		for (const n of Object.values(count)) expect(n).toBeGreaterThan(5);
		// Each rule has something to hold for.
		const kinds = {
			booleans: 0,
			placeholders: 0,
			hints: 0,
			listLocators: 0,
			options: 0,
			groups: 0,
		};
		for (const description of packageNodes()) {
			walk(description.properties, '', (item, _where, kind) => {
				if (item.type === 'boolean') kinds.booleans++;
				if (item.placeholder?.startsWith('e.g.')) kinds.placeholders++;
				if (item.hint) kinds.hints++;
				if (item.type === 'resourceLocator' && item.modes?.some((m) => m.type === 'list'))
					kinds.listLocators++;
				if (kind === 'option') kinds.options++;
				if (kind === 'group') kinds.groups++;
			});
		}
		for (const [kind, n] of Object.entries(kinds)) expect([kind, n > 0]).toEqual([kind, true]);
	});

	it('knows Title Case and sentence case as n8n writes them', () => {
		expect(titleCaseProblem('Create From Template')).toBeUndefined();
		expect(titleCaseProblem('Envelope ID')).toBeUndefined();
		expect(titleCaseProblem('Name Of the Signer')).toBe(
			'"Of" is a small word: lower-case inside a name',
		);
		expect(titleCaseProblem('Or Other Statuses')).toBeUndefined();
		expect(titleCaseProblem('Duty Paid By')).toBeUndefined();
		expect(titleCaseProblem('Trigger On Status')).toBe(
			'"On" is a small word: lower-case inside a name',
		);
		expect(titleCaseProblem('Send the Envelope')).toBeUndefined();
		expect(titleCaseProblem('Send envelope')).toBe('"envelope" should start upper-case');
		expect(titleCaseProblem('Read-only Mode')).toBe('"Read-only" should start upper-case');
		expect(sentenceCaseProblem('Whether to send the envelope now')).toBeUndefined();
		expect(sentenceCaseProblem('whether to send')).toMatch(/capital letter/);
		expect(sentenceCaseProblem('Send The Envelope Right Now')).toMatch(/Title Case/);
		expect(sentenceCaseProblem('`recipients` as JSON')).toBeUndefined();
	});

	it('holds for every display name, option name, description, hint, placeholder and resource locator', () => {
		const list = findings().map((f) => `${f.where}: ${f.rule}: ${f.text}`);
		expect(list).toEqual([]);
	});

	it('error messages thrown in nodes/ never say "error" or "problem"', () => {
		const errors = thrownErrors();
		expect(errors.length).toBeGreaterThan(15);
		const bad = errors.flatMap((e) =>
			e.texts.filter((t) => /\b(errors?|problems?)\b/i.test(t)).map((t) => `${e.where}: "${t}"`),
		);
		expect(bad).toEqual([]);
	});

	it('each thrown error with a written message says how to fix it (a description, or advice after ":" or ";")', () => {
		// An error that wraps another (NodeApiError of an answer, a caught failure) keeps that one's words.
		const written = thrownErrors().filter((e) =>
			/^new Node\w+Error\(\s*[\w.()]+,\s*[`'"]/.test(e.call),
		);
		expect(written.length).toBeGreaterThan(5);
		const without = written
			.filter((e) => !/\bdescription\b/.test(e.call) && !/[:;] ./.test(e.texts[0] ?? ''))
			.map((e) => `${e.where}: "${e.texts[0]}"`);
		expect(without).toEqual([]);
	});

	describe('delete operations', () => {
		let h: Harness;
		beforeAll(async () => {
			h = await startHarness();
		});
		afterAll(async () => await h.close());

		const deletes = (description: INodeTypeDescription) =>
			description.properties
				.filter((p) => p.name === 'operation')
				.flatMap((p) =>
					(p.options as INodePropertyOptions[]).map((o) => ({
						resource: (p.displayOptions?.show?.resource as string[])[0],
						operation: String(o.value),
					})),
				)
				.filter((o) => /delete/i.test(o.operation));

		/** How each delete operation's target is made; a new delete operation needs an entry here. */
		const targets: Record<string, (harness: Harness) => Promise<Record<string, unknown>>> = {
			'template.deleteTemplate': async (harness) => ({
				templateId: byId((await seedTemplate(harness)).id as string),
			}),
		};

		it('answer {"deleted": true} through the sandbox', async () => {
			const found = packageNodes().flatMap(deletes);
			expect(found.length).toBeGreaterThan(0);
			for (const { resource, operation } of found) {
				const target = targets[`${resource}.${operation}`];
				expect([`${resource}.${operation}`, typeof target]).toEqual([
					`${resource}.${operation}`,
					'function',
				]);
				const run = await runTemplateOp(h, { resource, operation, ...(await target(h)) });
				expect(run.result.error).toBeUndefined();
				expect(run.items[0].json).toMatchObject({ deleted: true });
			}
		});
	});
});

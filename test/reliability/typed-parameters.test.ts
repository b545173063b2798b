/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The typed reader over the whole panel: every toggle, number, dropdown and multiple choice
 * of the three nodes and the credential (walked from their descriptions, into collections
 * and fixed collections, so a new parameter is covered without editing this test) read
 * with every value an expression can give. Each gives its documented meaning or an error
 * that names the field as the panel shows it. And no part of nodes/ or credentials/ reads a
 * parameter by truthiness or a bare cast.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';
import type { INode, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { DocumentSigningStatusTrigger } from '../../nodes/DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node';
import { DocumentSigningTrigger } from '../../nodes/DocumentSigningTrigger/DocumentSigningTrigger.node';
import {
	CLOSED_CHOICES,
	propertyAt,
	readTyped,
	SAFE_VALUES,
} from '../../nodes/shared/api/parameters';

/** Every value an expression can give (the values of the safety-settings test, and more). */
const VALUES: Array<[string, unknown]> = [
	['"true"', 'true'],
	['"false"', 'false'],
	['"TRUE "', 'TRUE '],
	['"0"', '0'],
	['"1"', '1'],
	['""', ''],
	['"yes"', 'yes'],
	['0', 0],
	['1', 1],
	['null', null],
	['undefined', undefined],
	['{}', {}],
	['[]', []],
	['NaN', NaN],
	['Infinity', Infinity],
	['"1e3"', '1e3'],
	['a 1 MB text', 'x'.repeat(1 << 20)],
	['true', true],
	['false', false],
];

const KNOWN_TYPES = new Set([
	'boolean',
	'number',
	'options',
	'multiOptions',
	'collection',
	'fixedCollection',
	'string',
	'json',
	'dateTime',
	'resourceLocator',
	'resourceMapper',
	'notice',
	'hidden',
]);

/** A field to read: the top-level parameter, the path inside it, its label and property. */
interface Field {
	node: string;
	properties: INodeProperties[];
	top: INodeProperties;
	inner: INodeProperties;
	label: string;
	/** The stored value of the top-level parameter holding `value` at the field. */
	wrap: (value: unknown) => unknown;
}

function fieldsOf(node: string, properties: INodeProperties[]): Field[] {
	const out: Field[] = [];
	for (const top of properties) {
		const field = { node, properties, top };
		out.push({ ...field, inner: top, label: top.displayName, wrap: (v) => v });
		if (top.type === 'collection')
			for (const option of (top.options ?? []) as INodeProperties[])
				out.push({
					...field,
					inner: option,
					label: `${top.displayName} > ${option.displayName}`,
					wrap: (v) => ({ [option.name]: v }),
				});
		if (top.type === 'fixedCollection')
			for (const group of (top.options ?? []) as INodePropertyCollection[]) {
				const many = top.typeOptions?.multipleValues === true;
				for (const value of group.values ?? [])
					out.push({
						...field,
						inner: value,
						label: `${top.displayName} > ${group.displayName}${many ? ' 1' : ''} > ${value.displayName}`,
						wrap: (v) => ({ [group.name]: many ? [{ [value.name]: v }] : { [value.name]: v } }),
					});
			}
	}
	return out;
}

const first = (condition: unknown) => (Array.isArray(condition) ? condition[0] : undefined);

/** The node as n8n hands it: the field's operation chosen, the value stored. */
function nodeFor(field: Field, stored: unknown): INode {
	const show = field.top.displayOptions?.show ?? {};
	const parameters: Record<string, unknown> = { [field.top.name]: stored };
	for (const key of ['resource', 'operation', 'event'])
		if (first(show[key]) !== undefined) parameters[key] = first(show[key]);
	return {
		id: 'n',
		name: field.node,
		type: field.node,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
}

type Outcome = { value: unknown } | { error: string };

function read(field: Field, value: unknown): Outcome {
	const stored = field.wrap(value);
	try {
		return {
			value: readTyped(
				nodeFor(field, stored),
				field.properties,
				field.top.name,
				stored,
				undefined,
				{
					itemIndex: 0,
					stored: true,
				},
			),
		};
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/** The field's value inside what the reader gave for its top-level parameter. */
function unwrap(field: Field, outcome: { value: unknown }): unknown {
	if (field.inner === field.top) return outcome.value;
	const object = outcome.value as Record<string, unknown> | undefined;
	const [key, inner] = Object.entries(object ?? {})[0] ?? [];
	if (key === undefined) return undefined;
	if (field.top.type === 'collection') return inner;
	const entry = Array.isArray(inner) ? inner[0] : inner;
	return (entry as Record<string, unknown> | undefined)?.[field.inner.name];
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** What the panel documents for `value` in this field: a value, absent, or a refusal. */
function documented(property: INodeProperties, value: unknown): Outcome | 'absent' {
	if (value === null || value === undefined) return 'absent';
	const refused = { error: '' };
	switch (property.type) {
		case 'boolean': {
			const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
			if (text === true || text === 'true') return { value: true };
			if (text === false || text === 'false') return { value: false };
			return refused;
		}
		case 'number': {
			const text = typeof value === 'string' ? value.trim() : undefined;
			const n = typeof value === 'number' ? value : text && NUMERIC.test(text) ? Number(text) : NaN;
			const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
			const ok =
				Number.isFinite(n) &&
				(numberPrecision !== 0 || Number.isInteger(n)) &&
				(typeof minValue !== 'number' || n >= minValue) &&
				(typeof maxValue !== 'number' || n <= maxValue);
			return ok ? { value: n } : refused;
		}
		case 'options': {
			if (property.typeOptions?.loadOptionsMethod) return { value };
			if (CLOSED_CHOICES.has(property.name)) {
				const key = typeof value === 'string' ? value.trim() : value;
				const match = (property.options ?? []).find(
					(o) => 'value' in o && (o.value === key || String(o.value) === key),
				);
				return match && 'value' in match ? { value: match.value } : refused;
			}
			if (typeof value === 'string') return { value };
			if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
				return { value: String(value) };
			return refused;
		}
		case 'multiOptions': {
			const list = typeof value === 'string' ? value.split(',') : value;
			if (!Array.isArray(list)) return refused;
			return { value: list.map((v) => String(v).trim()).filter(Boolean) };
		}
		default:
			return { value };
	}
}

const PANELS: Array<[string, INodeProperties[]]> = [
	['documentSigning', new DocumentSigning().description.properties],
	['documentSigningTrigger', new DocumentSigningTrigger().description.properties],
	['documentSigningStatusTrigger', new DocumentSigningStatusTrigger().description.properties],
	['documentSigningApi', new DocumentSigningApi().properties],
];
const TYPED = new Set(['boolean', 'number', 'options', 'multiOptions']);
const FIELDS = PANELS.flatMap(([node, properties]) => fieldsOf(node, properties)).filter((f) =>
	TYPED.has(f.inner.type),
);
const CASES = FIELDS.flatMap((field) =>
	VALUES.map(([name, value]) => [`${field.node} ${field.label} = ${name}`, field, value] as const),
);

describe('the typed reader over the whole panel', () => {
	it('covers hundreds of fields and knows every parameter type in the panel', () => {
		expect(FIELDS.length).toBeGreaterThan(100);
		const all = PANELS.flatMap(([node, properties]) => fieldsOf(node, properties));
		expect(all.map((f) => f.inner.type).filter((type) => !KNOWN_TYPES.has(type))).toEqual([]);
	});

	it('finds each top-level field by its name in its own operation', () => {
		const wrong = FIELDS.filter((f) => f.inner === f.top)
			.filter(
				(f) =>
					propertyAt(f.properties, f.top.name, nodeFor(f, undefined).parameters)?.property.type !==
					f.top.type,
			)
			.map((f) => `${f.node} ${f.label}`);
		expect(wrong).toEqual([]);
	});

	it.each(CASES)('%s', (_name, field, value) => {
		const expected = documented(field.inner, value);
		const got = read(field, value);
		if (expected === 'absent') {
			expect('error' in got).toBe(false);
			const safe = SAFE_VALUES[field.inner.name];
			const value = unwrap(field, got as { value: unknown });
			if (safe !== undefined && field.inner.type === 'boolean') expect(value).toBe(safe);
			else expect(value).toBeUndefined();
		} else if ('error' in expected) {
			expect('error' in got ? got.error : `read as ${JSON.stringify(unwrap(field, got))}`).toMatch(
				new RegExp(`^${field.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: must `),
			);
		} else {
			expect('error' in got ? got.error : unwrap(field, got)).toEqual(expected.value);
		}
	});
});

describe('no parameter read by truthiness or a bare cast', () => {
	const files = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const full = path.join(dir, name);
			return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
		});
	const root = path.join(__dirname, '..', '..');
	const sources = [...files(path.join(root, 'nodes')), ...files(path.join(root, 'credentials'))];
	const RULES: Array<[string, RegExp]> = [
		['a cast to boolean', /\bas boolean\b/],
		['a parameter cast to number', /getNodeParameter\([^;]*?\)\)?\s*as number\b/],
		[
			'a comparison of a parameter with true or false',
			/getNodeParameter\([^;]*?\)\s*[!=]==?\s*(true|false)\b/,
		],
		['a negated parameter', /!\s*(this|context|run)\.getNodeParameter\(/],
		['Boolean() of a parameter', /Boolean\(\s*(this|context|run)\.getNodeParameter\(/],
		['a credential toggle compared with true', /\.allowInsecureHttp\s*[!=]==/],
	];
	it.each(RULES)('none has %s', (_what, rule) => {
		const found = sources.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.map((line, n) => [line, n] as const)
				.filter(([line]) => rule.test(line))
				.map(([line, n]) => `${path.relative(root, file)}:${n + 1}: ${line.trim()}`),
		);
		expect(found).toEqual([]);
	});
});

import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z, ZodTypeAny } from 'zod/v3';

import { fieldNameOfDotted, issueLines } from './fieldNames';

/** Where the node comes from: read only when a check fails (n8n copies the node on every read). */
export interface NodeSource {
	getNode(): INode;
}

/** The value at an issue's path inside the checked input (undefined when absent). */
function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
	let current = value;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

const samePath = (a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>) =>
	a.length === b.length && a.every((key, n) => key === b[n]);

/**
 * The issues worth showing. A format check (email, URL, pattern) on an empty text says
 * nothing useful: it is dropped when the same field has another issue (such as "is
 * required" or the contact rule), otherwise it becomes "must not be empty".
 */
export function readableIssues(issues: ReadonlyArray<z.ZodIssue>, value: unknown): z.ZodIssue[] {
	const out: z.ZodIssue[] = [];
	for (const issue of issues) {
		const field = valueAt(value, issue.path);
		const emptyText = typeof field === 'string' && field.trim() === '';
		if (issue.code !== 'invalid_string' || !emptyText) {
			out.push(issue);
			continue;
		}
		const other = issues.some(
			(o) => o !== issue && o.code !== 'invalid_string' && samePath(o.path, issue.path),
		);
		if (!other) out.push({ ...issue, message: 'must not be empty' });
	}
	return out;
}

/**
 * The one place where a schema failure becomes an n8n error. Every operation checks its
 * input with a schema from `schemas.ts` through this function before sending anything,
 * so a bad input stops the item with a message naming the field and the rule.
 *
 * Each problem names the field as the panel shows it, counted from 1 ("Recipient 1 >
 * Signature Placement > Search Text: is required"), also for input given as JSON. The
 * message lists every problem (an AI agent reading it gets them all at once); so does the
 * description. n8n shows the description as HTML, where line breaks collapse, so the
 * problems are separated by "; ".
 *
 * @param what  words for the input being checked, e.g. "envelope" or "recipients"
 */
export function validateInput<S extends ZodTypeAny>(
	source: NodeSource,
	schema: S,
	value: unknown,
	itemIndex: number,
	what: string,
): z.infer<S> {
	const result = schema.safeParse(value);
	if (result.success) {
		const unknown = droppedKeys(value, result.data);
		if (unknown.length === 0) return result.data;
		// zod leaves out keys its schema does not list. Every object these inputs build is
		// one whose fields the specification lists, so an extra key is most likely a typo
		// (or a panel field a schema misses) the service would never see: refused by name,
		// never dropped silently. Inputs meant to carry what the specification leaves open
		// are sent as given without this check (e.g. Add Recipients' replace fields).
		const lines = unknown.map(
			(path) =>
				`${fieldNameOfDotted(path, true)}: is not a field the API takes (check its spelling, or remove it)`,
		);
		throw validationError(source, what, lines, itemIndex);
	}

	// Two checks of one empty field both read "must not be empty": said once.
	const lines = [...new Set(issueLines(readableIssues(result.error.issues, value)))];
	throw validationError(source, what, lines, itemIndex);
}

/**
 * The one "Invalid <what>: <problem>; <problem>" error: the message and the description
 * list every problem (none left out as "and N more").
 */
export function validationError(
	source: NodeSource,
	what: string,
	lines: string[],
	itemIndex: number,
	heading = `Invalid ${what}`,
): NodeOperationError {
	const all = lines.length > 0 ? lines.join('; ') : 'invalid value';
	const error = new NodeOperationError(source.getNode(), `${heading}: ${all}`, {
		itemIndex,
		description: lines.join('; '),
	});
	// Kept for "Continue On Fail" error items, which show the context's field errors.
	error.context.fieldErrors = lines;
	return error;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/** Paths of keys (with a defined value) in `input` that the parsed `output` lacks. */
export function droppedKeys(input: unknown, output: unknown, path: string[] = []): string[] {
	if (Array.isArray(input) && Array.isArray(output)) {
		if (input.length !== output.length) return [];
		return input.flatMap((entry, n) => droppedKeys(entry, output[n], [...path, String(n)]));
	}
	if (!isPlainObject(input) || !isPlainObject(output)) return [];
	const dropped: string[] = [];
	for (const [key, entry] of Object.entries(input)) {
		if (entry === undefined) continue;
		if (!(key in output)) dropped.push([...path, key].join('.'));
		else dropped.push(...droppedKeys(entry, output[key], [...path, key]));
	}
	return dropped;
}

/** An input error found before any schema applies (e.g. text that is not JSON). */
export function inputError(
	node: INode,
	message: string,
	itemIndex: number,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex, description });
}

/** Longest id accepted from a user; the API's ids are far shorter. */
export const MAX_RESOURCE_ID_LENGTH = 128;

/**
 * The one check of every id a user gives (envelope, template, signing workflow) before it
 * goes into a path: `.` and `..` would leave the resource's path even when encoded, and a
 * huge id fails as a connection error instead of naming the field.
 *
 * @param label  the field as the user sees it, e.g. "Envelope"
 */
export function resourceId(
	source: NodeSource,
	label: string,
	value: unknown,
	itemIndex: number,
): string {
	const id = textValue(source, label, value, itemIndex);
	const noun = label.toLowerCase();
	if (!id)
		throw inputError(
			source.getNode(),
			`${label}: ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} ID is required`,
			itemIndex,
		);
	if (id === '.' || id === '..') {
		throw inputError(
			source.getNode(),
			`${label}: "${id}" is not an ID`,
			itemIndex,
			'An ID cannot be "." or "..".',
		);
	}
	if (id.length > MAX_RESOURCE_ID_LENGTH) {
		throw inputError(
			source.getNode(),
			`${label}: the ID is ${id.length} characters long, at most ${MAX_RESOURCE_ID_LENGTH} are allowed`,
			itemIndex,
		);
	}
	return id;
}

/** How a value that is not text reads in an error: its kind, never its content. */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array (${value.length} entries)`;
	if (value instanceof Date) return 'a date object';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'number')
		return Number.isFinite(value) ? `the number ${value}` : `the number ${String(value)}`;
	return `a ${typeof value}`;
}

/**
 * The one rule for a free-text field (and an id) mapped from data: text is trimmed, a
 * number or a boolean is taken as its text (an invoice number mapped into Title), an
 * absent value and null (an empty cell mapped in) are empty. An object, an array or a number
 * that is not finite is refused before any request, naming the field and what it received.
 *
 * @param label  the field as the user sees it, e.g. "Title"
 */
export function textValue(
	source: NodeSource,
	label: string,
	value: unknown,
	itemIndex: number,
): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw inputError(
		source.getNode(),
		`${label}: must be text, a number or true/false, but received ${kindOf(value)}`,
		itemIndex,
		'Map a single value into this field (e.g. {{ $json.title }}), not a whole object or list.',
	);
}

/**
 * The one rule for a Limit: a whole number from 1 to `max` (a number or its text);
 * anything else is refused naming the field, never sent as NaN or quietly raised to 1.
 */
export function limitValue(
	source: NodeSource,
	label: string,
	value: unknown,
	max: number,
	itemIndex: number,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
	if (typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= max)
		return number;
	const got = typeof value === 'string' ? `"${value.slice(0, 40)}"` : kindOf(value);
	throw inputError(
		source.getNode(),
		`${label}: must be a whole number from 1 to ${max}, but received ${got}`,
		itemIndex,
	);
}

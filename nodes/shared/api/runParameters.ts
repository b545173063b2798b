import type {
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeProperties,
	NodeParameterValueType,
} from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { readTyped, valueAtPath } from './parameters';

/**
 * A node run's context that reads each parameter as few times as its value allows. n8n
 * resolves every `getNodeParameter` call through its expression machinery (a copy of the
 * value, then evaluation in its sandbox: 1-2 ms per expression per item in a real n8n,
 * docs/benchmarks.md). A parameter whose stored value holds no expression (no string in
 * it starts with "=") is the same for every item: it is read once per run. One with an
 * expression is read once per item, however often the operation asks. Every caller gets
 * its own copy of an object, as from n8n. The commonest expression, a field of the item
 * (`{{ $json.envelopeId }}`, alone in a text or an ID), is read from the item directly when
 * it holds a text, number or boolean; anything else goes to n8n.
 *
 * Every value is read by the type `properties` (the node's description) declare for it
 * (api/parameters.ts): a toggle given the text "false" reads false, a refused value stops
 * the item with an error naming the field.
 */
export function readingOncePerRun(
	context: IExecuteFunctions,
	// The node's description; none (the differential probe) reads values as n8n gives them.
	properties: ReadonlyArray<INodeProperties> = [],
): IExecuteFunctions {
	const node = context.getNode();
	const stored = node.parameters;
	const typed = (name: string, itemIndex: number, value: unknown, fallback: unknown) =>
		readTyped(node, properties, name, value, fallback, {
			itemIndex,
			stored: valueAtPath(stored, name) !== undefined,
		});
	const answers = new Map<string, unknown>();
	const read = context.getNodeParameter.bind(context) as (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => unknown;
	const run = Object.create(context) as IExecuteFunctions;
	const getNodeParameter = (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => {
		const value = valueAtPath(stored, name) as NodeParameterValueType | undefined;
		// Not stored (n8n fills in the default itself): left to n8n.
		if (value === undefined)
			return typed(name, itemIndex, read(name, itemIndex, fallback, options), fallback);
		const perItem = hasExpression(value);
		const key = `${name}\n${options ? JSON.stringify(options) : ''}\n${perItem ? itemIndex : ''}`;
		if (!answers.has(key)) {
			const quick = perItem ? fieldOfItem(context, value, itemIndex, options) : undefined;
			const raw = quick !== undefined ? quick : read(name, itemIndex, fallback, options);
			answers.set(key, typed(name, itemIndex, raw, fallback));
		}
		const answer = answers.get(key);
		return typeof answer === 'object' && answer !== null ? deepCopy(answer) : answer;
	};
	run.getNodeParameter = getNodeParameter as IExecuteFunctions['getNodeParameter'];
	return run;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(hasExpression);
	return false;
}

/** `={{ $json.a.b }}` or `={{ $json["a b"] }}`: the path; undefined for any other expression. */
function itemFieldPath(expression: string): string[] | undefined {
	const match = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\]*"|'[^'\\]*')\])+)\s*\}\}$/.exec(
		expression,
	);
	if (!match) return undefined;
	return [...match[1].matchAll(/\.([A-Za-z_$][\w$]*)|\[(?:"([^"]*)"|'([^']*)')\]/g)].map(
		(m) => m[1] ?? m[2] ?? m[3],
	);
}

/**
 * The value of a text parameter or a resource locator's ID that is only `{{ $json.<path> }}`,
 * read from the item (what n8n's expression gives for it); undefined when it is anything
 * else, or the field is not a text, number or boolean: n8n then evaluates it.
 */
function fieldOfItem(
	context: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
	options: IGetNodeParameterOptions | undefined,
): unknown {
	if (options && Object.keys(options).some((option) => option !== 'extractValue')) return undefined;
	const locator =
		typeof value === 'object' && value !== null && (value as { __rl?: boolean }).__rl === true;
	// Only a locator's ID mode gives the value as it is: other modes (By URL) extract the id
	// with the mode's pattern, which n8n applies.
	if (locator && (value as { mode?: unknown }).mode !== 'id') return undefined;
	const expression = locator ? (value as { value?: unknown }).value : value;
	if (typeof expression !== 'string') return undefined;
	const path = itemFieldPath(expression);
	if (!path) return undefined;
	let field: unknown = context.getInputData()[itemIndex]?.json;
	for (const key of path) {
		if (
			typeof field !== 'object' ||
			field === null ||
			!Object.prototype.hasOwnProperty.call(field, key)
		)
			return undefined;
		field = (field as Record<string, unknown>)[key];
	}
	if (!['string', 'number', 'boolean'].includes(typeof field)) return undefined;
	// A locator's ID without extractValue comes back as the whole locator, resolved.
	return locator && !options?.extractValue ? { ...(value as object), value: field } : field;
}

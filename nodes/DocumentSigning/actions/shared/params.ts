import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { isToolRun } from '../../../shared/run/runCache';
import { inputError, textValue } from '../../../shared/api/validation';

/** Drops empty strings and undefined so optional fields are not sent. */
export function compact(values: IDataObject | undefined): IDataObject | undefined {
	if (!values) return undefined;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(values)) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = typeof value === 'string' ? value.trim() : value;
	}
	return Object.keys(out).length ? out : undefined;
}

/**
 * A free-text parameter of item `i` by the one text rule (validation.ts): trimmed text, a
 * number or boolean as its text; an object, array or null refused naming `label`.
 */
export function readText(this: IExecuteFunctions, name: string, i: number, label: string): string {
	return textValue(this, label, this.getNodeParameter(name, i, '') as unknown, i);
}

/** The label of one dropdown option: its name, or its name and a description. */
export type OptionLabel = string | { name: string; description?: string };

/**
 * Dropdown options from an enum schema's values (in the schema's order) and a label map
 * typed by those values: an enum value without a label fails the build.
 */
export function enumOptions<T extends string>(
	schema: { readonly options: readonly T[] },
	labels: Record<T, OptionLabel>,
): Array<INodePropertyOptions & { value: T }> {
	return schema.options.map((value) => {
		const label: OptionLabel = labels[value];
		return typeof label === 'string' ? { name: label, value } : { ...label, value };
	});
}

/**
 * The selector of how a list or object is given: in fields (`fields`, the default) or as
 * JSON (`json`). Recipients, form fields, a signing workflow's configuration and a run's
 * recipients use it; the reader asks `getNodeParameter(name, i, 'fields') === 'json'`.
 */
export function inputModeProperty(spec: {
	/** e.g. "Recipients Input" */
	displayName: string;
	/** Parameter name, e.g. "recipientsInput". */
	name: string;
	/** What the Fields choice offers, and what the JSON choice takes. */
	fields: string;
	json: string;
	show?: IDataObject;
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'options',
		options: [
			{ name: 'Fields', value: 'fields', description: spec.fields },
			{ name: 'JSON', value: 'json', description: spec.json },
		],
		default: 'fields',
		...(spec.show
			? { displayOptions: { show: spec.show } as INodeProperties['displayOptions'] }
			: {}),
	};
}

/** A dateTime value as ISO 8601 in UTC; anything unreadable is passed on for the schema to name. */
export function toTimestamp(value: unknown): unknown {
	// a Luxon DateTime from an expression
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		return (value as unknown as { toUTC: () => { toISO: () => string } }).toUTC().toISO();
	}
	if (typeof value !== 'string' || !value.trim()) return value;
	if (/(Z|[+-]\d{2}:?\d{2})$/.test(value)) return value;
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** Whether parameter `name` is filled by the AI model ($fromAI) in a tool run. */
function fromAiText(context: IExecuteFunctions, name: string): boolean {
	const raw = context.getNode().parameters?.[name];
	return isToolRun(context) && typeof raw === 'string' && /\$fromai\s*\(/i.test(raw);
}

/**
 * A JSON parameter of item `i`: a string is parsed (empty: undefined), anything else
 * (an expression's object or array) is returned as it is. `label` names the field in errors.
 */
export function readJsonParameter(
	this: IExecuteFunctions,
	name: string,
	i: number,
	label: string,
	fallback: unknown = '',
): unknown {
	const value = this.getNodeParameter(name, i, fallback) as unknown;
	if (typeof value !== 'string') return value;
	if (!value.trim()) return undefined;
	if (fromAiText(this, name)) {
		// The tool's schema asks the model for an array or object; under the MCP Server
		// Trigger a string is refused by that schema, so it is refused here too (AI Agent).
		throw inputError(
			this.getNode(),
			`${label}: got a text (a JSON string) where an array of objects is expected; pass the list itself, e.g. [{"name": "Asha Rao", "email": "asha@example.com"}], not a string holding it`,
			i,
		);
	}
	try {
		return JSON.parse(value) as unknown;
	} catch (error) {
		throw inputError(this.getNode(), `${label}: not valid JSON`, i, (error as Error).message);
	}
}

/**
 * A JSON parameter holding a list of `what` (undefined when empty). Also accepted: an
 * object with the list under `key` (as earlier nodes and Get often produce it), or one
 * object alone.
 */
export function readJsonList(
	this: IExecuteFunctions,
	name: string,
	i: number,
	label: string,
	key: string,
	what: string,
): unknown[] | undefined {
	let value = readJsonParameter.call(this, name, i, label, '[]');
	if (value === undefined) return undefined;
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		value = (value as IDataObject)[key] ?? [value];
	}
	if (!Array.isArray(value)) {
		throw inputError(this.getNode(), `${label}: must be an array of ${what}`, i);
	}
	return value;
}

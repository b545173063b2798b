import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one typed reader of the nodes' parameters. n8n hands a node an expression's result
 * unchanged (a toggle given `{{ "false" }}` or `{{ $vars.X }}` arrives as the text "false"),
 * so every boolean, number and dropdown parameter is read here, by the type its description
 * declares, and means what it says or stops with an error naming the field:
 * - a toggle: true or false, or their text in any case, trimmed;
 * - a number: a finite number or its text ("24", "1e3"), within the field's bounds;
 * - a dropdown of the node's own modes (CLOSED_CHOICES): one of its values; any other
 *   dropdown offers the service's values the spec shows or the package guesses, and takes
 *   other text too (a guess is never a wall), so only its kind is checked;
 * - a multiple choice: a list, or a comma-separated text (values beyond the list pass: the
 *   nodes take kinds the service adds, typed in an expression);
 * - null or undefined: absent, as if the field were not set (empty text is refused where
 *   a toggle or number is asked for, and left to the field's own rule in a dropdown).
 * Safety settings fail closed: set but absent, they take their safe value, and their readers
 * act on the unsafe value only when it is exactly that value.
 */

/** The safety settings and their safe values: anything but the other value means this. */
export const SAFE_VALUES: Readonly<Record<string, boolean>> = {
	draftOnly: true,
	includeSigningLinks: false,
	acceptUnsigned: false,
	allowInternalAddresses: false,
	sendImmediately: false,
	allowInsecureHttp: false,
};

/** Dropdowns of the node's own modes: a value outside their options means nothing. */
export const CLOSED_CHOICES: ReadonlySet<string> = new Set([
	'recipientsInput',
	'formFieldsInput',
	'configInput',
	'output',
	'pdfSource',
	'uploadMethod',
	'idempotency',
	'event',
	'mappingMode',
	'algorithm',
	'encoding',
	'signatureScheme',
]);

/** A value the reader refuses: names the field, what it takes and what it got. */
export class ParameterValueError extends Error {
	constructor(
		readonly field: string,
		readonly rule: string,
		readonly received: string,
	) {
		// Empty text (a mapped field with nothing in it) is named as such.
		super(
			received === '""'
				? `${field}: must not be empty`
				: `${field}: ${rule}, but received ${received}`,
		);
	}
}

const HINT =
	'An expression here is read by its result: true/false (or that text, any case), a number (or its text), or one of the listed values. Anything else stops the item before any request.';

/** Null means absent, as an unset field; empty text is a value (refused where text is not taken). */
function absent(value: unknown): boolean {
	return value === undefined || value === null;
}

/** How a refused value reads in an error: short text quoted, anything else by its kind. */
export function describeValue(value: unknown): string {
	if (typeof value === 'string')
		return value.length > 40 ? `a text of ${value.length} characters` : `"${value}"`;
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array (${value.length} entries)`;
	if (typeof value === 'number') return `the number ${String(value)}`;
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

export function booleanValue(value: unknown, field: string): boolean | undefined {
	if (absent(value)) return undefined;
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true') return true;
	if (text === 'false') return false;
	throw new ParameterValueError(field, 'must be true or false', describeValue(value));
}

export interface NumberRule {
	min?: number;
	max?: number;
	integer?: boolean;
}

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function numberValue(
	value: unknown,
	field: string,
	rule: NumberRule = {},
): number | undefined {
	if (absent(value)) return undefined;
	const text = typeof value === 'string' ? value.trim() : undefined;
	const number =
		typeof value === 'number' ? value : text && NUMERIC_TEXT.test(text) ? Number(text) : NaN;
	const whole = rule.integer ? 'a whole number' : 'a number';
	const range =
		rule.min !== undefined && rule.max !== undefined
			? ` from ${rule.min} to ${rule.max}`
			: rule.min !== undefined
				? ` of ${rule.min} or more`
				: rule.max !== undefined
					? ` of at most ${rule.max}`
					: '';
	const fits =
		Number.isFinite(number) &&
		(!rule.integer || Number.isInteger(number)) &&
		(rule.min === undefined || number >= rule.min) &&
		(rule.max === undefined || number <= rule.max);
	if (fits) return number;
	throw new ParameterValueError(field, `must be ${whole}${range}`, describeValue(value));
}

export function optionValue(
	value: unknown,
	field: string,
	allowed: ReadonlyArray<string | number | boolean>,
): string | number | boolean | undefined {
	if (absent(value)) return undefined;
	const key = typeof value === 'string' ? value.trim() : value;
	const match = allowed.find((option) => option === key || String(option) === key);
	if (match !== undefined) return match;
	throw new ParameterValueError(
		field,
		`must be one of: ${allowed.join(', ')}`,
		describeValue(value),
	);
}

/** An open dropdown's value: text, a number or true/false as its text. */
export function openOptionValue(value: unknown, field: string): string | undefined {
	if (absent(value)) return undefined;
	// Text as given: the schema of what is sent names an empty or unknown value.
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
		return String(value);
	throw new ParameterValueError(field, 'must be one of its values (text)', describeValue(value));
}

export function optionListValue(value: unknown, field: string): string[] | undefined {
	if (absent(value)) return undefined;
	const list = typeof value === 'string' ? value.split(',') : value;
	if (
		Array.isArray(list) &&
		list.every((entry) => ['string', 'number', 'boolean'].includes(typeof entry))
	)
		return list.map((entry) => String(entry).trim()).filter(Boolean);
	throw new ParameterValueError(
		field,
		'must be a list of values or a comma-separated text',
		describeValue(value),
	);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function numberRule(property: INodeProperties): NumberRule {
	const options = property.typeOptions ?? {};
	return {
		min: typeof options.minValue === 'number' ? options.minValue : undefined,
		max: typeof options.maxValue === 'number' ? options.maxValue : undefined,
		integer: options.numberPrecision === 0,
	};
}

/** The fields of one entry of a collection or a fixed collection's group, by their types. */
function typedFields(
	value: unknown,
	fields: ReadonlyArray<INodeProperties>,
	field: string,
): Record<string, unknown> | undefined {
	if (absent(value)) return undefined;
	if (!isObject(value))
		throw new ParameterValueError(field, 'must be a set of fields', describeValue(value));
	const out: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value)) {
		const inner = fields.find((candidate) => candidate.name === key);
		const typed = inner ? typedValue(entry, inner, `${field} > ${inner.displayName}`) : entry;
		if (typed !== undefined) out[key] = typed;
		else if (entry !== undefined && inner?.type === 'boolean' && key in SAFE_VALUES)
			out[key] = SAFE_VALUES[key];
	}
	return out;
}

/** The groups of a fixed collection (`{ group: [entries] }` or `{ group: entry }`). */
function typedGroups(value: unknown, property: INodeProperties, field: string): unknown {
	if (absent(value)) return undefined;
	if (!isObject(value))
		throw new ParameterValueError(field, 'must be a set of fields', describeValue(value));
	const out: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value)) {
		const group = groupOf(property, key);
		out[key] = group ? typedGroup(entry, group, `${field} > ${group.displayName}`) : entry;
	}
	return out;
}

function typedGroup(value: unknown, group: INodePropertyCollection, field: string): unknown {
	if (Array.isArray(value))
		return value.map((entry, n) => typedFields(entry, group.values, `${field} ${n + 1}`) ?? {});
	return typedFields(value, group.values, field);
}

function groupOf(property: INodeProperties, name: string): INodePropertyCollection | undefined {
	return (property.options ?? []).find(
		(option): option is INodePropertyCollection =>
			option.name === name && 'values' in option && Array.isArray(option.values),
	);
}

/** A value read as its property declares; `field` names it in errors (the panel's label). */
export function typedValue(
	value: unknown,
	property: INodeProperties,
	field = property.displayName,
): unknown {
	const dynamic = Boolean(
		property.typeOptions?.loadOptionsMethod || property.typeOptions?.loadOptions,
	);
	switch (property.type) {
		case 'boolean':
			return booleanValue(value, field);
		case 'number':
			return numberValue(value, field, numberRule(property));
		case 'options':
			if (dynamic) return absent(value) ? undefined : value;
			if (!CLOSED_CHOICES.has(property.name)) return openOptionValue(value, field);
			return optionValue(
				value,
				field,
				(property.options ?? []).map((option) => (option as INodePropertyOptions).value),
			);
		case 'multiOptions':
			return optionListValue(value, field);
		case 'collection':
			return typedFields(value, (property.options ?? []) as INodeProperties[], field);
		case 'fixedCollection':
			return typedGroups(value, property, field);
		default:
			return value;
	}
}

/** Whether a property's simple `show` conditions hold for the node's stored parameters. */
function shown(property: INodeProperties, parameters: INodeParameters): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(([key, allowed]) => {
		if (key.startsWith('@') || key.startsWith('/') || !Array.isArray(allowed)) return true;
		const stored = parameters[key];
		if (stored === undefined || (typeof stored === 'string' && stored.startsWith('='))) return true;
		return allowed.some((entry) => entry === stored || typeof entry === 'object');
	});
}

/**
 * The property a (dotted) parameter name reads, among those shown for the node's stored
 * parameters, and the label the panel gives it; undefined when the description has none.
 */
export function propertyAt(
	properties: ReadonlyArray<INodeProperties>,
	path: string,
	parameters: INodeParameters,
): { property: INodeProperties; field: string } | undefined {
	const [name, ...rest] = path.split('.');
	const named = properties.filter((candidate) => candidate.name === name);
	let property = named.find((candidate) => shown(candidate, parameters)) ?? named[0];
	if (!property) return undefined;
	let field = property.displayName;
	for (const part of rest) {
		if (property.type === 'collection') {
			const inner = (property.options as INodeProperties[] | undefined)?.find(
				(o) => o.name === part,
			);
			if (!inner) return undefined;
			property = inner;
			field = `${field} > ${inner.displayName}`;
		} else if (property.type === 'fixedCollection') {
			const group = groupOf(property, part);
			if (!group) return undefined;
			// A group read alone (`runRecipients.recipient`): its list, or its one entry.
			return { property: groupReader(group), field: `${field} > ${group.displayName}` };
		} else return undefined;
	}
	return { property, field };
}

/** A pseudo-property reading one fixed-collection group's value (a list or one entry). */
function groupReader(group: INodePropertyCollection): INodeProperties {
	return {
		displayName: group.displayName,
		name: group.name,
		type: 'fixedCollection',
		default: {},
		options: [group],
		typeOptions: { groupOnly: true },
	};
}

/**
 * The value of parameter `path` as its property declares, or an n8n error naming the field.
 * `stored` says whether the node holds the parameter: a safety setting that is set but
 * comes out absent (an expression giving null) takes its safe value.
 */
export function readTyped(
	node: INode,
	properties: ReadonlyArray<INodeProperties>,
	path: string,
	value: unknown,
	fallback: unknown,
	where: { itemIndex?: number; stored: boolean },
): unknown {
	const itemIndex = where.itemIndex;
	const found = propertyAt(properties, path, node.parameters);
	if (!found) return value;
	const { property, field } = found;
	const read = refusalOf(() =>
		property.typeOptions?.groupOnly === true
			? typedGroup(value, (property.options as INodePropertyCollection[])[0], field)
			: typedValue(value, property, field),
	);
	if ('refusal' in read)
		throw new NodeOperationError(node, read.refusal.message, { itemIndex, description: HINT });
	if (property.type === 'collection' && isObject(read.value))
		return withSafeValues(read.value, valueAtPath(node.parameters, path), property);
	if (read.value !== undefined) return read.value;
	const safe = SAFE_VALUES[path.split('.').pop() ?? ''];
	return safe !== undefined && where.stored && property.type === 'boolean' ? safe : fallback;
}

/**
 * A collection's safety toggles that are added but came out absent (an expression giving
 * undefined drops the key): their safe value.
 */
function withSafeValues(
	value: Record<string, unknown>,
	stored: unknown,
	property: INodeProperties,
): Record<string, unknown> {
	if (!isObject(stored)) return value;
	const out = { ...value };
	for (const option of (property.options ?? []) as INodeProperties[]) {
		const safe = SAFE_VALUES[option.name];
		if (safe !== undefined && option.type === 'boolean' && option.name in stored)
			out[option.name] ??= safe;
	}
	return out;
}

/** The reader's answer, or its refusal (the readers above throw nothing else). */
function refusalOf(read: () => unknown): { value: unknown } | { refusal: Error } {
	try {
		return { value: read() };
	} catch (error) {
		return { refusal: error as Error };
	}
}

/**
 * A safety setting's meaning: its unsafe value only when it is exactly that value, so a
 * value that slips past the reader (text, a number) still reads as the safe one.
 */
export function safetySetting(name: keyof typeof SAFE_VALUES | string, value: unknown): boolean {
	const safe = SAFE_VALUES[name];
	if (safe === undefined) throw new Error(`${name} is not a safety setting`);
	return value === !safe ? !safe : safe;
}

/**
 * A credential's safety toggle (Allow Insecure HTTP): "true" in any case means on; anything
 * it cannot read, off. A credential has no item to stop, so the safe value stands in.
 */
export function credentialSafetySetting(name: string, value: unknown): boolean {
	const read = refusalOf(() => booleanValue(value, name));
	return 'refusal' in read ? SAFE_VALUES[name] : safetySetting(name, read.value);
}

/** A toggle read through the typed reader: a boolean, or `fallback` when absent. */
export function toggle(value: unknown, fallback: boolean): boolean {
	return typeof value === 'boolean' ? value : fallback;
}

/** A number read through the typed reader, or `fallback` when absent. */
export function numberOr(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The getNodeParameter of a trigger's context (no item index), reading every value typed. */
export function typedTriggerParameters<
	C extends {
		getNode(): INode;
		getNodeParameter(name: string, fallback?: unknown, options?: object): unknown;
	},
>(context: C, properties: ReadonlyArray<INodeProperties>): C['getNodeParameter'] {
	const node = context.getNode();
	return ((name: string, fallback?: unknown, options?: object) => {
		const stored = valueAtPath(node.parameters, name) !== undefined;
		const value = context.getNodeParameter(name, fallback, options);
		return readTyped(node, properties, name, value, fallback, { stored });
	}) as C['getNodeParameter'];
}

/** A trigger's context whose getNodeParameter reads every value typed (poll, webhook). */
export function withTypedParameters<
	C extends {
		getNode(): INode;
		getNodeParameter(name: string, fallback?: unknown, options?: object): unknown;
	},
>(context: C, properties: ReadonlyArray<INodeProperties>): C {
	const typed = Object.create(context) as C;
	typed.getNodeParameter = typedTriggerParameters(context, properties);
	return typed;
}

/** The stored value at a dotted path (`options.uploadMethod`). */
export function valueAtPath(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.')) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isToolRun } from '../../../shared/run/runCache';
import { inputError } from '../../../shared/api/validation';
import { SIMPLIFIERS, SIMPLIFIERS_FROM_1_2 } from './simplify';
import { FROM_1_2, UP_TO_1_1 } from './versions';
import { toggle } from '../../../shared/api/parameters';

/**
 * How much of a long answer an operation returns, as n8n's guideline asks of nodes whose
 * answers have more than 10 fields (Outlook v2 does it so):
 * - versions 1 and 1.1: the Simplify switch (off on the node, on for its tool), unchanged
 *   for saved workflows;
 * - from 1.2: Output, Simplified (the default, node and tool alike: 0.1.0 was the first
 *   release, and a short answer is what both a person and a model act on), Raw or
 *   Selected Fields; creates and sends are shaped too.
 */

const SIMPLIFY_DESCRIPTION =
	'Whether to return a simplified version of the response instead of the raw data';

function simplifySwitches(resource: string, operation: string): INodeProperties[] {
	const show = (tool: boolean) => ({
		show: {
			'@tool': [tool],
			resource: [resource],
			operation: [operation],
			'@version': [UP_TO_1_1],
		},
	});
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: SIMPLIFY_DESCRIPTION,
			displayOptions: show(false),
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: SIMPLIFY_DESCRIPTION,
			displayOptions: show(true),
		},
	];
}

function outputOptions(resource: string, operation: string): INodeProperties[] {
	const show = { resource: [resource], operation: [operation], '@version': [FROM_1_2] };
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simple',
			options: [
				{
					name: 'Simplified',
					value: 'simple',
					description: 'The fields a person or an AI agent acts on',
				},
				{ name: 'Raw', value: 'raw', description: 'The whole answer of the service' },
				{ name: 'Selected Fields', value: 'fields', description: 'Only the fields named below' },
			],
			displayOptions: { show },
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. envelopeId, status, recipients',
			description:
				'Comma-separated names of the fields to return, as in the Raw output, case included. A name the answer lacks is left out and named under the output, with the fields the answer has.',
			displayOptions: { show: { ...show, output: ['fields'] } },
		},
	];
}

const ops = (table: Record<string, Record<string, unknown>>) =>
	Object.entries(table).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => [resource, operation]),
	);

export const outputProperties: INodeProperties[] = [
	...ops(SIMPLIFIERS).flatMap(([resource, operation]) => simplifySwitches(resource, operation)),
	...[...ops(SIMPLIFIERS), ...ops(SIMPLIFIERS_FROM_1_2)].flatMap(([resource, operation]) =>
		outputOptions(resource, operation),
	),
];

function selectFields(this: IExecuteFunctions, i: number, json: IDataObject): IDataObject {
	const names = String(this.getNodeParameter('outputFields', i, '') ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (!names.length)
		throw inputError(
			this.getNode(),
			'Fields: name at least one field to return (Output is Selected Fields)',
			i,
		);
	const out: IDataObject = {};
	for (const name of names) if (json[name] !== undefined) out[name] = json[name];
	const missing = names.filter((name) => json[name] === undefined);
	if (missing.length) reportMissingFields.call(this, missing, json);
	return out;
}

/** The names already reported in a run: one hint per name, not one per item. */
const reported = new WeakMap<object, Set<string>>();
/** At most this many of the answer's fields are listed in the hint. */
const LISTED_FIELDS = 40;

/**
 * A hint under the output (a warning, not an error: an optional field is absent from some
 * answers, and an AI tool's call still gets its item) naming each field the answer lacks,
 * the answer's own fields, and the one a name differs from only by case (`envelopeID`).
 */
function reportMissingFields(this: IExecuteFunctions, missing: string[], json: IDataObject): void {
	const seen = reported.get(this) ?? new Set<string>();
	reported.set(this, seen);
	const fresh = missing.filter((name) => !seen.has(name));
	if (!fresh.length) return;
	for (const name of fresh) seen.add(name);
	const fields = Object.keys(json);
	const named = fresh.map((name) => {
		const near = fields.find((field) => field.toLowerCase() === name.toLowerCase());
		return near ? `"${name}" (did you mean "${near}"?)` : `"${name}"`;
	});
	const listed = fields.slice(0, LISTED_FIELDS).join(', ');
	const more = fields.length > LISTED_FIELDS ? `, and ${fields.length - LISTED_FIELDS} more` : '';
	this.addExecutionHints?.({
		message: `Fields: ${named.join(', ')} ${fresh.length > 1 ? 'are' : 'is'} not in the answer, so left out. Names are matched exactly, case included; the answer has: ${listed || '(no fields)'}${more}.`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** The operation's output items shaped by the item's Simplify or Output (binary data kept). */
export function simplifyOutput(
	this: IExecuteFunctions,
	i: number,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	const resource = this.getNodeParameter('resource', i) as string;
	const operation = this.getNodeParameter('operation', i) as string;
	if (this.getNode().typeVersion < 1.2) {
		const simplifier = SIMPLIFIERS[resource]?.[operation];
		if (
			!simplifier ||
			!toggle(this.getNodeParameter('simplify', i, isToolRun(this)), isToolRun(this))
		)
			return items;
		return items.map((item) => ({ ...item, json: simplifier(item.json) }));
	}
	const simplifier =
		SIMPLIFIERS[resource]?.[operation] ?? SIMPLIFIERS_FROM_1_2[resource]?.[operation];
	if (!simplifier) return items;
	const output = this.getNodeParameter('output', i, 'simple') as string;
	if (output === 'raw') return items;
	if (output === 'fields')
		return items.map((item) => ({ ...item, json: selectFields.call(this, i, item.json) }));
	return items.map((item) => ({ ...item, json: simplifier(item.json) }));
}

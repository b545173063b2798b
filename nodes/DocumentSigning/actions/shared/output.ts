import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isToolRun } from '../../../shared/runCache';
import { inputError } from '../../../shared/validation';
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
				'Comma-separated names of the fields to return, as in the Raw output (a field the answer lacks is left out)',
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
	return out;
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

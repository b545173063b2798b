import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { inputError } from '../../../shared/api/validation';
import { readText } from './params';

/**
 * The "What to Update" part of an Update operation (template, signing workflow): the
 * choice of parts, the Name and Description fields every such operation has, and the
 * reading of them back. Each operation adds the fields of its own parts.
 */

type Show = NonNullable<IDisplayOptions['show']>;

/** A part of the resource besides name and description, e.g. the recipients of a template. */
export interface UpdatePart {
	/** Option label; its lowercase form names the part in the "choose at least one" error. */
	name: string;
	value: string;
	description?: string;
}

export interface UpdateSpec {
	/** The operation's `show` (resource and operation). */
	show: Show;
	/** The operation's own parts, in the order the error lists them (after name and description). */
	parts: UpdatePart[];
	/** Description of the "What to Update" field. */
	description: string;
}

const NAME_PARTS: UpdatePart[] = [
	{ name: 'Name', value: 'name' },
	{ name: 'Description', value: 'description' },
];

/** `show` for the fields of one part: shown when that part is chosen. */
export const whenUpdating = (show: Show, part: string): Show => ({ ...show, updateParts: [part] });

/** "What to Update" (options in n8n's alphabetical order), then Name and Description. */
export function updateProperties(spec: UpdateSpec): INodeProperties[] {
	const options = [...NAME_PARTS, ...spec.parts].sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'What to Update',
			name: 'updateParts',
			type: 'multiOptions',
			options,
			default: [],
			description: spec.description,
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: whenUpdating(spec.show, 'name') },
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'New description; empty clears it',
			displayOptions: { show: whenUpdating(spec.show, 'description') },
		},
	];
}

/**
 * The parts chosen for item `i` and the body with the name and description among them
 * (trimmed; an empty description clears it). No part chosen: an error, before any request.
 */
export function readUpdate(
	this: IExecuteFunctions,
	i: number,
	spec: UpdateSpec,
): { parts: Set<string>; body: IDataObject } {
	const parts = new Set(this.getNodeParameter('updateParts', i, []) as string[]);
	if (parts.size === 0) {
		const names = [...NAME_PARTS, ...spec.parts].map((part) => part.name.toLowerCase()).join(', ');
		throw inputError(
			this.getNode(),
			`What to Update: choose at least one part to change (${names})`,
			i,
		);
	}
	const body: IDataObject = {};
	for (const { name, value } of NAME_PARTS) {
		if (parts.has(value)) body[value] = readText.call(this, value, i, name);
	}
	return { parts, body };
}

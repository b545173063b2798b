import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { resourceId } from '../../../shared/api/validation';

export interface LocatorSpec {
	/** Shown name of the thing picked, e.g. "Envelope". */
	label: string;
	/** Parameter name, e.g. "envelopeId". */
	name: string;
	/** listSearch method of the list mode. */
	searchListMethod: string;
	description: string;
	/** Placeholder of the list, e.g. "Select an envelope...". */
	listPlaceholder: string;
	/** Example id, e.g. "env_8f3a2c". */
	exampleId: string;
	/** Path segments an address of the thing has before its id, e.g. ["envelopes", "documents"]. */
	urlSegments: string[];
}

/**
 * The id in an address of the service: the path segment after one of `segments`. The
 * specification shows no web address of the dashboard, so any address with that path is
 * read (the dashboard's or the API's); a guess listed in docs/assumptions.md.
 */
export const urlIdRegex = (segments: string[]) =>
	`https?://[^\\s]*?/(?:${segments.join('|')})/([^/?#\\s]+)`;

/** The whole address, as n8n checks a mode's validation (it anchors the pattern at both ends). */
const urlRegex = (segments: string[]) => `${urlIdRegex(segments)}(?:[/?#][^\\s]*)?`;

/** A recipient's signing page (`.../sign/<token>`) is the address users have at hand, but it holds no envelope ID. */
const SIGNING_PAGE_NOTE =
	". A recipient's signing page address (.../sign/...) holds a link token, not the envelope ID: use By ID with the envelope's ID (e.g. from Get Many)";

/** A picker: a list (from `searchListMethod`, searchable), or an id typed or mapped. */
export function resourceLocator(spec: LocatorSpec): INodeProperties {
	const noun = spec.label.toLowerCase();
	return {
		displayName: spec.label,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: spec.listPlaceholder,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://app.example.com/${spec.urlSegments[0]}/${spec.exampleId}`,
				extractValue: { type: 'regex', regex: urlIdRegex(spec.urlSegments) },
				validation: [
					{
						type: 'regex',
						properties: {
							regex: urlRegex(spec.urlSegments),
							errorMessage: `Not ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} address: it needs .../${spec.urlSegments[0]}/(${noun} ID) in its path${spec.urlSegments.includes('envelopes') ? SIGNING_PAGE_NOTE : ''}`,
						},
					},
				],
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${spec.exampleId}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\S+$',
							errorMessage: `${/^[aeiou]/.test(noun) ? 'An' : 'A'} ${noun} ID has no spaces`,
						},
					},
				],
			},
		],
	};
}

/** The id picked in locator parameter `name` for item `i`, checked by the one id rule. */
export function readLocatorId(
	this: IExecuteFunctions,
	name: string,
	label: string,
	i: number,
): string {
	return resourceId(this, label, this.getNodeParameter(name, i, '', { extractValue: true }), i);
}

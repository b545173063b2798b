import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { resourceId } from '../../../shared/validation';

/** An envelope picker: a list (from `searchListMethod`, searchable by title), or an id typed or mapped. */
function envelopeLocator(searchListMethod: string, description: string, placeholder: string): INodeProperties {
	return {
		displayName: 'Envelope',
		name: 'envelopeId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder,
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. env_8f3a2c',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\S+$', errorMessage: 'An envelope ID has no spaces' },
					},
				],
			},
		],
	};
}

/** The envelope picker of operations that work on any envelope. */
export const envelopeIdProperty = envelopeLocator(
	'searchEnvelopes',
	'The envelope to work on',
	'Select an envelope...',
);

/** The envelope picker of Send and Add Recipients: its list offers drafts only. */
export const draftEnvelopeIdProperty = envelopeLocator(
	'searchDraftEnvelopes',
	'The draft envelope to work on (the list shows drafts only)',
	'Select a draft envelope...',
);

/** The envelope id of item `i`, checked by the one id rule. */
export function getEnvelopeId(this: IExecuteFunctions, i: number): string {
	return resourceId(this.getNode(), 'Envelope', this.getNodeParameter('envelopeId', i, '', { extractValue: true }), i);
}

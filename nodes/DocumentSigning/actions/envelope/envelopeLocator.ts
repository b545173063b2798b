import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId, resourceLocator } from '../shared/locator';

const envelope = { label: 'Envelope', name: 'envelopeId', exampleId: 'env_8f3a2c' };

/** The envelope picker of operations that work on any envelope. */
export const envelopeIdProperty = resourceLocator({
	...envelope,
	searchListMethod: 'searchEnvelopes',
	description: 'The envelope to work on',
	listPlaceholder: 'Select an envelope...',
});

/** The envelope picker of Send and Add Recipients: its list offers drafts only. */
export const draftEnvelopeIdProperty = resourceLocator({
	...envelope,
	searchListMethod: 'searchDraftEnvelopes',
	description: 'The draft envelope to work on (the list shows drafts only)',
	listPlaceholder: 'Select a draft envelope...',
});

/** The envelope id of item `i`, checked by the one id rule. */
export function getEnvelopeId(this: IExecuteFunctions, i: number): string {
	return readLocatorId.call(this, envelope.name, envelope.label, i);
}

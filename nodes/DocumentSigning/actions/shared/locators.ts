import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId, resourceLocator } from './locator';

/** The pickers of envelopes, templates and signing workflows, used by several resources. */

const envelope = {
	label: 'Envelope',
	name: 'envelopeId',
	exampleId: 'env_8f3a2c',
	urlSegments: ['envelopes', 'documents'],
};

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

const template = {
	label: 'Template',
	name: 'templateId',
	exampleId: 'tpl_8f3a2c',
	urlSegments: ['templates'],
};

/** The template picker: its list offers active templates. */
export const templateIdProperty = resourceLocator({
	...template,
	searchListMethod: 'searchTemplates',
	description: 'The template to work on (the list shows active templates)',
	listPlaceholder: 'Select a template...',
});

/** The picker of Restore: its list offers archived templates. */
export const archivedTemplateIdProperty = resourceLocator({
	...template,
	searchListMethod: 'searchArchivedTemplates',
	description: 'The archived template to restore (the list shows archived templates)',
	listPlaceholder: 'Select an archived template...',
});

/** The template id of item `i`, checked by the one id rule. */
export function getTemplateId(this: IExecuteFunctions, i: number): string {
	return readLocatorId.call(this, template.name, template.label, i);
}

const workflow = {
	label: 'Signing Workflow',
	name: 'workflowId',
	exampleId: 'wf_8f3a2c',
	urlSegments: ['workflows'],
};

/** The signing workflow picker: its list offers the reusable workflows of the key's workspace. */
export const workflowIdProperty = resourceLocator({
	...workflow,
	searchListMethod: 'searchWorkflows',
	description: "The reusable signing workflow (defined in the service or with this node's Create)",
	listPlaceholder: 'Select a signing workflow...',
});

/** The signing workflow id of item `i`, checked by the one id rule. */
export function getWorkflowId(this: IExecuteFunctions, i: number): string {
	return readLocatorId.call(this, workflow.name, workflow.label, i);
}

import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId, resourceLocator } from '../shared/locator';

const template = { label: 'Template', name: 'templateId', exampleId: 'tpl_8f3a2c' };

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

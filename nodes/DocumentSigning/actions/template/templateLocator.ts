import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { resourceId } from '../../../shared/validation';

/** A template picker: a list (from `searchListMethod`, searchable by name), or an id typed or mapped. */
function templateLocator(searchListMethod: string, description: string, placeholder: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
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
				placeholder: 'e.g. tpl_8f3a2c',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\S+$', errorMessage: 'A template ID has no spaces' },
					},
				],
			},
		],
	};
}

/** The template picker: its list offers active templates. */
export const templateIdProperty = templateLocator(
	'searchTemplates',
	'The template to work on (the list shows active templates)',
	'Select a template...',
);

/** The picker of Restore: its list offers archived templates. */
export const archivedTemplateIdProperty = templateLocator(
	'searchArchivedTemplates',
	'The archived template to restore (the list shows archived templates)',
	'Select an archived template...',
);

/** The template id of item `i`, checked by the one id rule. */
export function getTemplateId(this: IExecuteFunctions, i: number): string {
	return resourceId(this.getNode(), 'Template', this.getNodeParameter('templateId', i, '', { extractValue: true }), i);
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateCopySchema } from '../../../shared/api/schemas';
import { validateInput } from '../../../shared/api/validation';
import { readText } from '../shared/params';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';

const properties: INodeProperties[] = [
	templateIdProperty,
	{
		displayName: 'New Name',
		name: 'newName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Rental agreement (2027)',
		description:
			'Name of the copy. The copy is active, keeps the recipients, fields, signing settings and PDF, and belongs to this key.',
	},
];

export const description = operationPanel('template', 'duplicate', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const body = validateInput(
		this,
		TemplateCopySchema,
		{ newName: readText.call(this, 'newName', i, 'New Name') },
		i,
		'copy',
	);
	// Not retried: a resent copy could make a second template.
	const copy = await callApi.call(this, i, 'POST', apiPath('templateCopies', templateId), { body });
	return [{ json: { ...copy, copiedFrom: templateId } }];
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateCopySchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { readText } from '../shared/params';
import { getTemplateId, templateIdProperty } from '../shared/locators';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['duplicate'] } },
	properties,
);

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
	const copy = (await apiRequest.call(this, 'POST', apiPath('templateCopies', templateId), {
		body,
		itemIndex: i,
	})) as IDataObject;
	return [{ json: { ...copy, copiedFrom: templateId } }];
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { getTemplateId, templateIdProperty } from '../shared/locators';

const properties: INodeProperties[] = [
	templateIdProperty,
	{
		displayName:
			"Deletion is permanent. Only the template's owner (the key that created it) can delete it; the key needs the templates:delete permission.",
		name: 'deleteTemplateNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['deleteTemplate'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	// 204 without a body: the output says what was deleted.
	await apiRequest.call(this, 'DELETE', apiPath('template', templateId), { itemIndex: i });
	return [{ json: { deleted: true, id: templateId } }];
}

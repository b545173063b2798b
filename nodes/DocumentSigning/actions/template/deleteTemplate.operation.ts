import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';

export const description = operationPanel('template', 'deleteTemplate', [
	templateIdProperty,
	{
		displayName:
			"Deletion is permanent. Only the template's owner (the key that created it) can delete it; the key needs the templates:delete permission.",
		name: 'deleteTemplateNotice',
		type: 'notice',
		default: '',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	// 204 without a body: the output says what was deleted.
	await callApi.call(this, i, 'DELETE', apiPath('template', templateId));
	return [{ json: { deleted: true, id: templateId } }];
}

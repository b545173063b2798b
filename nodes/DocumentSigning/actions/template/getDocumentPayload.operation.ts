import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';

export const description = operationPanel('template', 'getDocumentPayload', [
	{
		...templateIdProperty,
		hint: 'Read-only; works on archived templates too (the list shows active ones: give an archived template by ID)',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const path = apiPath('templateDocumentPayload', templateId);
	const payload = await callApi.call(this, i, 'GET', path);
	return simplifyOutput.call(this, i, [{ json: { templateId, ...payload } }]);
}

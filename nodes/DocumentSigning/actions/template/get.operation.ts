import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';

export const description = operationPanel('template', 'get', [templateIdProperty]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const template = await callApi.call(this, i, 'GET', apiPath('template', templateId));
	return simplifyOutput.call(this, i, [{ json: template }]);
}

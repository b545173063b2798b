import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';

export const description = operationPanel('workflow', 'publish', [
	{
		...workflowIdProperty,
		hint: 'Publishes the draft version: the service checks its templates, the version becomes the one every run uses, and the previously published version is archived',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	return [{ json: await callApi.call(this, i, 'POST', apiPath('workflowPublish', workflowId)) }];
}

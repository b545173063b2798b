import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';

const properties: INodeProperties[] = [
	{
		...workflowIdProperty,
		hint: 'Publishes the draft version: the service checks its templates, the version becomes the one every run uses, and the previously published version is archived',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workflow'], operation: ['publish'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	const response = (await apiRequest.call(this, 'POST', apiPath('workflowPublish', workflowId), {
		itemIndex: i,
	})) as IDataObject;
	return [{ json: response }];
}
